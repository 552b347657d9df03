"""One environment's game, asynchronously: a benchmark run's start, steps and in-run resets, as play/runner.py
plays them (the same GameSession, Evaluator and parsing), with Gymnasium's reward, flags and info."""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.base import AgentReply
from ..browser.faults import HarnessError
from ..browser.game_origin import GameFiles
from ..browser.remote_assets import AssetStore
from ..browser.sandbox import GameSession
from ..catalog.contents import Catalog
from ..catalog.loader import load_catalog
from ..catalog.specs import GameSpec, TaskSpec
from ..play.actions import Proposal, Verdict
from ..play.evaluator import Evaluator, ScoreError, StepEval
from ..play.prompt_sections import state_text
from ..play.runner import state_summary
from ..play.semantic import classify
from ..play.tally import Tally
from .engine import Engine
from .options import EnvOptions
from .spaces import cua_proposal, env_spaces, generalist_choices, generalist_proposal, key_names, picture_size

PICTURE_FORMAT = "png"  # lossless: the observation is the page's pixels (then shrunk to the model's width)


@functools.lru_cache(maxsize=8)
def catalog_at(path: Path | None) -> tuple[Catalog, GameFiles]:
    """A catalog and its game files, loaded once per process (a vector of 32 environments loads it once)."""
    catalog = load_catalog(path)
    return catalog, GameFiles(catalog.games_dir)


@functools.lru_cache(maxsize=4)
def assets_at(path: Path) -> AssetStore:
    return AssetStore.load(path)


def find_task(catalog: Catalog, task_id: str) -> tuple[TaskSpec, GameSpec]:
    for task in catalog.tasks:
        if task.id == task_id:
            return task, catalog.task_game(task)
    raise ValueError(f"no task {task_id!r} in the catalog at {catalog.root}")


def decode_picture(shot: bytes, size: tuple[int, int]) -> np.ndarray:
    """A capture as an RGB array of ``size`` (width, height), shrunk as a model's picture is (LANCZOS)."""
    from PIL import Image

    with Image.open(io.BytesIO(shot)) as img:
        rgb = img.convert("RGB")
    if rgb.size != size:
        rgb = rgb.resize(size, Image.Resampling.LANCZOS)
    return np.asarray(rgb, dtype=np.uint8)


RENDER_MODES = (None, "rgb_array")


def start_runs(opts: EnvOptions, count: int, render_mode: str | None) -> tuple[Engine, list[TaskRun]]:
    """The engine of the options' browser (counted as used once more) and ``count`` runs of the task on it; the
    engine is released again should a run not be made (an unknown task, a damaged catalog)."""
    if render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
    engine = Engine.acquire(opts.browser)
    try:
        return engine, [TaskRun(opts, engine, render_mode) for _ in range(count)]
    except BaseException:
        engine.release()
        raise


@dataclass
class Step:
    """What one reset or step returns, before Gymnasium's wrapping."""

    obs: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]


class TaskRun:
    """One task's game in a browser context of the engine's one browser; a reset opens a fresh context with
    the new seed (the page's randomness is seeded on load, as for a benchmark run), a failed episode inside the
    run is reset in place as the runner does."""

    def __init__(self, opts: EnvOptions, engine: Engine, render_mode: str | None = None) -> None:
        self.opts, self.render_mode = opts, render_mode
        self.host = engine.host
        self.catalog, self.files = catalog_at(opts.catalog)
        self.task, self.game = find_task(self.catalog, opts.task)
        # The run's budget, as the runner gives its evaluator (--gw-max-steps overrides the task's).
        self.budget = opts.max_steps or self.task.max_steps
        self.task = self.task.model_copy(update={"max_steps": self.budget})
        self.assets = assets_at(opts.assets) if opts.assets else None
        self.roles = list(self.game.roles)
        self.choices = {name: generalist_choices(role) for name, role in self.game.roles.items()}
        self.keys = {name: key_names(role) for name, role in self.game.roles.items()}
        self.size = picture_size(self.game, opts.screenshot_width)
        self.action_space, self.observation_space = env_spaces(self.game, opts, self.choices)
        self.session: GameSession | None = None
        self.evaluator = Evaluator(self.task)
        self.tally = Tally()  # the run's verdicts, every role's, as its results line counts them
        self.state: dict[str, Any] = {}
        self.shot: bytes | None = None
        self.steps = 0
        self.seed: int | None = None
        self.ended = False

    @property
    def picture_format(self) -> str | None:
        """Pixels are read only when observed or rendered (a state-only run skips drawing, as the runner's)."""
        return PICTURE_FORMAT if self.opts.obs != "state" or self.render_mode == "rgb_array" else None

    async def reset(self, seed: int) -> Step:
        """A fresh run of the task with this seed, exactly as the benchmark's run with that seed starts."""
        await self.close()
        self.seed, self.steps, self.ended = seed, 0, False
        self.evaluator, self.tally = Evaluator(self.task), Tally()
        # The host lets a few games open at once (a vector of 32 resetting together would otherwise load 32
        # pages at once and, on a busy machine, each would wait past its page timeout).
        self.session = await self.host.open(self.files, self.game, seed, self.task.url_suffix, self.assets)
        try:
            if self.picture_format is None and not self.catalog.source:
                await self.session.skip_drawing()  # nobody will see this run (an imported page is left as is)
            self.state, self.shot = await self.session.init_observed(self.task.init_config(seed),
                                                                      self.picture_format)
            ev = self._evaluate(0)
        except BaseException:
            await self.close()
            raise
        self.ended = ev.stop is not None
        return Step(self._obs(), 0.0, False, False, self._info(ev, None, None, self.state, 1))

    async def step(self, action: Any) -> Step:
        """One action (per role) through the benchmark's parser, executed as the play loop executes it."""
        if self.session is None or self.ended:
            raise RuntimeError("step() after the episode ended or before reset(): call reset() first")
        verdicts = self._verdicts(action)
        for verdict in verdicts.values():
            self.tally.count(verdict, AgentReply(), 0.0, 0.0)
        before = self.evaluator.progress
        score_before = self.evaluator.history[-1] if self.evaluator.history else None
        try:
            if self.opts.realtime:
                await self.session.advance(self.opts.think_ms)  # the game moves on while the agent thinks
            await self.session.execute_together([v.action for v in verdicts.values()])
            self.state, self.shot = await self.session.observe(self.picture_format, unless_ended=True)
            ev = self._evaluate(self.steps + 1)
            self.steps += 1
            stepped, episode = self.state, self.evaluator.episodes  # as steps.jsonl has the step: before a reset
            if self.shot is None and self.picture_format and not ev.reset:
                self.shot = (await self.session.observe(self.picture_format))[1]  # the last observation
            if ev.reset:
                self.state, self.shot = await self.session.reset_observed({}, self.picture_format)
                self.evaluator.begin_episode()
        except BaseException:
            await self.close()  # a fault costs this run: the environment must be reset
            raise
        terminated = ev.stop in ("success", "terminal", "end_rule") or (ev.stop == "max_steps" and ev.terminal
                                                                        and not ev.reset)
        truncated = ev.stop == "max_steps" and not terminated
        self.ended = ev.stop is not None
        info = self._info(ev, verdicts, score_before, stepped, episode)
        return Step(self._obs(), self.evaluator.progress - before, terminated, truncated, info)

    def _verdicts(self, action: Any) -> dict[str, Verdict]:
        if len(self.roles) > 1:
            if not isinstance(action, Mapping) or set(action) != set(self.roles):
                raise ValueError(f"{self.game.id} has roles {', '.join(self.roles)}: give one action for each, "
                                 f"as a mapping by role name")
            parts = {name: action[name] for name in self.roles}
        else:
            parts = {self.roles[0]: action}
        return {name: self._judge(name, part) for name, part in parts.items()}

    def _judge(self, role_name: str, action: Any) -> Verdict:
        role = self.game.roles[role_name]
        proposal: Proposal = (generalist_proposal(action, self.choices[role_name])
                              if self.opts.interface == "generalist" else cua_proposal(action, self.keys[role_name]))
        return classify([proposal], self.opts.interface, role, self.game.viewport, self.opts.parsing)

    def _evaluate(self, steps: int) -> StepEval:
        try:
            return self.evaluator.observe(self.state, steps)
        except ScoreError as exc:
            raise HarnessError(f"{self.game.id}: {exc}") from None

    def _obs(self) -> Any:
        text = state_text(self.state, self.game.observable) if self.opts.obs != "screenshot" else None
        if self.opts.obs == "state":
            return text
        picture = self.picture()
        return picture if self.opts.obs == "screenshot" else {"screenshot": picture, "state": text}

    def picture(self) -> np.ndarray:
        """The current observation's picture as an RGB array at the model's size."""
        if self.shot is None:
            raise RuntimeError("no picture: the environment was made with obs='state' and no render_mode")
        return decode_picture(self.shot, self.size)

    def _info(self, ev: StepEval, verdicts: dict[str, Verdict] | None, score_before: float | None,
              stepped: dict[str, Any], episode: int) -> dict[str, Any]:
        """The step as steps.jsonl has it: state summary, validity, score, progress; counts for the run."""
        info: dict[str, Any] = {
            "state": state_summary(stepped, self.task), "score": ev.score, "best": ev.best,
            "score_delta": ev.score - score_before if score_before is not None else 0.0,
            "progress": ev.progress, "success": ev.success, "episode": episode,
            "episode_reset": ev.reset, "stop": ev.stop, "step": self.steps, "seed": self.seed,
            "counts": {"valid": self.tally.valid, "ntc": self.tally.ntc, "oos": self.tally.oos},
        }
        if verdicts is not None:
            judged = {name: v.to_json() for name, v in verdicts.items()}
            if len(judged) == 1:
                info.update(next(iter(judged.values())))  # validity, reason, control, action
            else:
                info["roles"] = judged
                info["validity"] = "valid" if all(v.validity == "valid" for v in verdicts.values()) else "invalid"
        if ev.reset:
            info["reset_method"] = self.session.resets[-1] if self.session and self.session.resets else None
        return info

    async def close(self) -> None:
        """Close the run's context (its page and renderer with it)."""
        session, self.session = self.session, None
        if session is not None:
            await self.host.release(session)
