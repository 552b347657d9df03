"""Goldens: what each task's game does for a fixed seeded list of actions, as states and frame hashes.

A golden is recorded through the harness (GameSession in real Chromium, the task's URL suffix and init config as
a run has them): from the task's start, `steps` actions alternating between the two interfaces (a random legal
semantic control of the first role, then a random legal low-level key or click), each followed by the state and
the SHA-256 of the frame the run would be shown; a terminal episode is reset in place, as a run resets it. Two
catalogs whose goldens agree for a task play that task identically, which is what lets `gameworld calibrate
--restamp` carry a task's baselines over to changed game files (a refactor) without replaying the ladder.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents.builtin import random_args
from ..browser.game_origin import GameFiles
from ..browser.launch import find_browser, launch_browser
from ..browser.sandbox import GameSession
from ..catalog.contents import Catalog
from ..catalog.specs import TaskSpec
from ..records.sessions import task_versions
from .actions import Action, Proposal, parse_cua
from .semantic import parse_semantic

STEPS = 60
SEED = 7
FORMAT = 1


@dataclass(frozen=True)
class Golden:
    """One task's golden: the states (JSON text, keys sorted) and frame hashes after each action."""

    task: str
    game: str
    version: str  # the task's version (records/sessions.task_versions) in the catalog it was recorded on
    seed: int
    states: tuple[str, ...]
    frames: tuple[str, ...]
    error: str = ""  # the harness's one line when the task could not be played: no digest, never equal

    @property
    def digest(self) -> str:
        """One hash over the seed, every state and every frame: equal digests, identical play ("" when failed)."""
        if self.error:
            return ""
        h = hashlib.sha256(f"{FORMAT}|{self.seed}".encode())
        for state, frame in zip(self.states, self.frames):
            h.update(state.encode() + b"\0" + frame.encode() + b"\0")
        return h.hexdigest()[:16]

    def first_difference(self, other: Golden) -> str | None:
        """Where two goldens of a task part: the first step whose state or frame differs; None when equal."""
        if self.error or other.error:
            return self.error or other.error
        for i, (a, b) in enumerate(zip(self.states, other.states)):
            if a != b:
                return f"step {i + 1}: the state differs"
            if self.frames[i] != other.frames[i]:
                return f"step {i + 1}: the frame differs"
        if len(self.states) != len(other.states):
            return f"{len(self.states)} steps against {len(other.states)}"
        return None

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "game": self.game, "version": self.version, "seed": self.seed,
                "digest": self.digest, "error": self.error, "states": [json.loads(s) for s in self.states],
                "frames": list(self.frames)}


def action_list(task: TaskSpec, catalog: Catalog, steps: int) -> list[Action]:
    """The task's fixed actions: seeded by the task id, so the same catalog gives the same list each time."""
    game = catalog.games[task.game]
    role = next(iter(game.roles.values()))
    rng = random.Random(f"golden|{task.id}")
    cua_options: list[tuple[str, dict[str, Any]]] = [("press_key", {"key": "Space" if k == " " else k})
                                                      for k in role.cua.keys]
    if role.cua.clicks:
        cua_options.append(("click", {}))
    out: list[Action] = []
    for _ in range(20 * steps):  # bounded: a role whose draws are mostly refused is named, not looped on
        if len(out) == steps:
            break
        if len(out) % 2 == 0 or not cua_options:
            control = rng.choice(role.controls)
            v = parse_semantic(Proposal(control.id, random_args(control, rng)), role, game.viewport,
                               role.cua.default_hold_ms)
        else:
            name, args = rng.choice(cua_options)
            if name == "click":
                args = {"x": rng.randrange(game.viewport.width), "y": rng.randrange(game.viewport.height)}
            v = parse_cua(Proposal(name, args), role.cua, game.viewport)
        if v.validity == "valid":
            out.append(v.action)
    if len(out) < steps:
        raise ValueError(f"{task.id}: only {len(out)} of {20 * steps} random actions were legal")
    return out


async def record_task(browser: Any, files: GameFiles, catalog: Catalog, task: TaskSpec, version: str, steps: int,
                      seed: int) -> Golden:
    """Play the task's fixed actions on a fresh page; its golden."""
    game = catalog.games[task.game]
    session = await GameSession.open(browser, files, game, seed, task.url_suffix)
    states: list[str] = []
    frames: list[str] = []
    try:
        await session.init_observed({"seed": seed, "level": task.level, "difficulty": task.difficulty,
                                     "task": task.oracle_view(), **task.init}, "png")
        for action in action_list(task, catalog, steps):
            await session.execute(action)
            state, frame = await session.observe("png")
            states.append(json.dumps(state, sort_keys=True))
            frames.append(hashlib.sha256(frame or b"").hexdigest()[:16])
            if state.get("status") == "terminal":
                await session.reset_observed({}, "png")
        session.check()
    finally:
        await session.close()
    return Golden(task.id, task.game, version, seed, tuple(states), tuple(frames))


async def record(catalogs: list[Catalog], tasks: list[str], steps: int = STEPS, seed: int = SEED,
                 pages: int = 2, browser_path: str | None = None,
                 done: Callable[[Golden], None] | None = None) -> list[dict[str, Golden]]:
    """Per catalog, the goldens of the named tasks (task id -> Golden), `pages` pages at a time in one browser;
    `done` is called with each golden as it is made (so an interrupted recording keeps what it finished)."""
    from playwright.async_api import async_playwright

    gate = asyncio.Semaphore(max(1, pages))
    out: list[dict[str, Golden]] = [{} for _ in catalogs]

    async with async_playwright() as pw:
        browser = await launch_browser(pw, find_browser(browser_path))

        async def one(k: int, cat: Catalog, files: GameFiles, task: TaskSpec, version: str) -> None:
            async with gate:
                try:
                    out[k][task.id] = await record_task(browser, files, cat, task, version, steps, seed)
                except Exception as exc:  # a fault costs this task's golden, listed with its line
                    line = (str(exc).splitlines() or [""])[0]
                    out[k][task.id] = Golden(task.id, task.game, version, seed, (), (),
                                             f"{type(exc).__name__}: {line}")
                if done is not None:
                    done(out[k][task.id])

        try:
            jobs = []
            for k, cat in enumerate(catalogs):
                files = GameFiles(cat.games_dir)
                by_id = {t.id: t for t in cat.tasks}
                versions = task_versions(cat)
                jobs += [one(k, cat, files, by_id[t], versions[t]) for t in tasks if t in by_id]
            await asyncio.gather(*jobs)
        finally:
            await browser.close()
    return out


def line(g: Golden) -> str:
    """A golden as its line of a golden file."""
    return json.dumps(g.to_json(), sort_keys=True) + "\n"


def write(goldens: dict[str, Golden], path: Path) -> None:
    """The goldens as JSON lines, one task a line, sorted by task id."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line(goldens[t]) for t in sorted(goldens)), encoding="utf-8")

