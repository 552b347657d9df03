"""The bare-call floor shared by the step benchmarks: one step's work as plain Playwright/CDP calls."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from pytest_gameworld.agents.builtin import random_args
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.specs import GameSpec, Role
from pytest_gameworld.play.actions import Action, Proposal

# The picture and the state of one instant in one page call: the canvas read back (no compositor frames).
CANVAS_READ = ("() => [JSON.stringify(window.gameAPI.getState()),"
               " document.getElementsByTagName('canvas')[0].toDataURL('image/png')]")


def make_plan(role: Role, n: int) -> list[Proposal]:
    """The controls other than wait, in turn, with random legal arguments."""
    controls = [c for c in role.controls if c.binding.action != "wait"]
    rng = random.Random(7)
    return [Proposal(controls[i % len(controls)].id, random_args(controls[i % len(controls)], rng)) for i in range(n)]


async def act(page: Any, action: Action) -> None:
    """The action as input events while the clock runs its duration."""
    if action.kind in ("press_key", "press_keys"):
        for k in action.keys:
            await page.keyboard.down(k)
        await page.clock.run_for(action.duration_ms)
        for k in reversed(action.keys):
            await page.keyboard.up(k)
    elif action.kind == "type":
        await page.keyboard.type(action.text)
        await page.clock.run_for(action.duration_ms)
    elif action.kind in ("wait", "mouse_move"):
        await page.clock.run_for(action.duration_ms)
    else:
        await page.mouse.click(action.x, action.y, button=action.button)
        await page.clock.run_for(action.duration_ms)


async def bare_picture(session: GameSession, capture: str, fmt: str = "png") -> None:
    """The state and a picture of it: the canvas read back in the same call, or a CDP screenshot after getState."""
    if capture == "canvas":
        await session.page.evaluate(CANVAS_READ)
    else:
        await session.page.evaluate("() => JSON.stringify(window.gameAPI.getState())")
        await session.cdp.send("Page.captureScreenshot", {"format": fmt, "optimizeForSpeed": True})


async def bare_step(session: GameSession, action: Action, capture: str, fmt: str = "png") -> float:
    """One floor step in ms: the action, then the state and a picture of it (bare_picture)."""
    t0 = time.perf_counter()
    await act(session.page, action)
    await bare_picture(session, capture, fmt)
    return (time.perf_counter() - t0) * 1000


async def bare_reset(session: GameSession, capture: str, fmt: str = "png") -> float:
    """A reset in ms as bare calls: gameAPI.reset, then the state and a picture of the fresh episode."""
    t0 = time.perf_counter()
    await session.page.evaluate("() => window.gameAPI.reset({})")
    await bare_picture(session, capture, fmt)
    return (time.perf_counter() - t0) * 1000


def resets_after(steps_jsonl: Path) -> set[int]:
    """The steps (0-based) after which the harness reset the game (a failed episode under continue_on_fail)."""
    lines = [json.loads(line) for line in steps_jsonl.read_text().splitlines() if line.strip()]
    return {ln["step"] - 1 for ln in lines if ln.get("event") == "reset"}


async def floor_steps(session: GameSession, actions: list[Action], resets: set[int], capture: str,
                      fmt: str = "png") -> list[float]:
    """The floor of each step in ms, a reset added to the steps the harness reset after, as it paid for it."""
    out = []
    for i, action in enumerate(actions):
        ms = await bare_step(session, action, capture, fmt)
        out.append(ms + (await bare_reset(session, capture, fmt) if i in resets else 0.0))
    return out


async def floor_on_fresh_page(browser: Any, files: GameFiles, game: GameSpec, actions: list[Action], resets: set[int],
                              capture: str, fmt: str = "png", url_suffix: str = "") -> list[float]:
    """floor_steps on a page of its own, opened and initialised as a run's is (seed 1, level 1)."""
    session = await GameSession.open(browser, files, game, seed=1, url_suffix=url_suffix)
    try:
        await session.init({"seed": 1, "level": 1})
        return await floor_steps(session, actions, resets, capture, fmt)
    finally:
        await session.close()


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]
