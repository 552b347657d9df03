"""``GameWorldEnv``: one GameWorld task as a Gymnasium environment (``gymnasium.make("GameWorld/01_02-v0")``).

reset(seed=S) starts the task's game as the benchmark's run with seed S starts it (the seed a run's steps.jsonl
records); step(action) applies one action as the play loop does. Reward is the change of the task's progress
(0 to 1 over a run; the raw score's change is info["score_delta"]); terminated on success or a terminal failure the
task does not continue after, truncated at the step budget. docs/gymnasium.md.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from .engine import Engine
from .episode import start_runs
from .options import EnvOptions

SEED_RANGE = 2**31 - 1  # a run's seed is a non-negative 31-bit integer (catalog/run_cases.py Case.seed)


class GameWorldEnv(gymnasium.Env):
    """One task of the catalog, played in a context of the process's shared browser."""

    # A step is game time, not wall time; 5 frames a second is the common 200 ms action's pace.
    metadata = {"render_modes": ["rgb_array"], "render_fps": 5}

    def __init__(self, task: str, render_mode: str | None = None, **options: Any) -> None:
        self.options = EnvOptions.from_kwargs(task, **options)
        self.render_mode = render_mode
        engine, (self.run,) = start_runs(self.options, 1, render_mode)
        self._engine: Engine | None = engine
        self.choices = self.run.choices  # per role: the Discrete index's controls and arguments (generalist)
        self.key_names = self.run.keys  # per role: the "keys" field's key names (computer use)
        self.action_space, self.observation_space = self.run.action_space, self.run.observation_space

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            raise RuntimeError("the environment is closed")
        return self._engine

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new run: with ``seed``, the benchmark's run of that seed; without, the next seed of the env's stream."""
        super().reset(seed=seed)
        run_seed = seed if seed is not None else int(self.np_random.integers(0, SEED_RANGE))
        out = self.engine.run(self.run.reset(run_seed), what=f"reset of {self.options.task}")
        return out.obs, out.info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        out = self.engine.run(self.run.step(action), what=f"a step of {self.options.task}")
        return out.obs, out.reward, out.terminated, out.truncated, out.info

    def render(self) -> np.ndarray | None:
        """The current picture at the model's size (render_mode 'rgb_array'), None without a render mode."""
        if self.render_mode is None:
            return None
        return self.run.picture()

    def close(self) -> None:
        """Close the game's context; the last environment of the engine closes the browser and its processes."""
        engine, self._engine = self._engine, None
        if engine is None:
            return
        try:
            engine.run(self.run.close(), what="closing the game")
        finally:
            engine.release()
