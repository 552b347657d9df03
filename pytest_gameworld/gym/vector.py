"""``GameWorldVectorEnv``: N runs of one task as contexts of one browser in this process, stepped at once.

A native ``gymnasium.vector.VectorEnv`` (``gymnasium.make_vec("GameWorld/01_02-v0", num_envs=32)``): every
reset and step is one ``asyncio.gather`` over the sub-environments' games on the engine's loop, so while one page
computes its frames the others' input and state reads are in flight. Autoreset as Gymnasium specifies it
(next step by default; same step and disabled on request).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from ..browser.host import OPENS_AT_ONCE
from .engine import Engine
from .env import SEED_RANGE
from .episode import Step, start_runs
from .options import EnvOptions


class SubEnvFault(RuntimeError):
    """A sub-environment's game faulted during a vector reset or step: the vector must be reset."""


class GameWorldVectorEnv(VectorEnv):
    """``num_envs`` runs of one task, each in its own browser context of the engine's one browser."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 5, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, task: str, num_envs: int = 1, render_mode: str | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, **options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.options = EnvOptions.from_kwargs(task, **options)
        self.num_envs, self.render_mode = num_envs, render_mode
        engine, self.runs = start_runs(self.options, num_envs, render_mode)
        self._engine: Engine | None = engine
        self.single_action_space = self.runs[0].action_space
        self.single_observation_space = self.runs[0].observation_space
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._rngs = [seeding.np_random()[0] for _ in range(num_envs)]
        # The batch's type follows the observation space (an array, or a dict of them for both).
        self._obs: Any = create_empty_array(self.single_observation_space, num_envs)
        self._latest: list[Any] = [None] * num_envs  # each sub-environment's last observation
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            raise RuntimeError("the vector environment is closed")
        return self._engine

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None or isinstance(seed, (int, np.integer)):
            return [None if seed is None else int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds given for {self.num_envs} environments")
        return seeds

    def _next_seed(self, i: int, seed: int | None = None) -> int:
        """A sub-environment's run seed: the one given (its stream then restarts from it, as a single env's
        reset(seed=) does), else the next of its stream."""
        if seed is not None:
            self._rngs[i] = seeding.np_random(int(seed))[0]
            return int(seed)
        return int(self._rngs[i].integers(0, SEED_RANGE))

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every sub-environment (or, with options={"reset_mask": mask}, those of the mask)."""
        super().reset(seed=seed if isinstance(seed, (int, np.integer)) else None)
        seeds = self._seeds(seed)
        mask = np.ones(self.num_envs, dtype=np.bool_)
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"], dtype=np.bool_)
            if mask.shape != (self.num_envs,) or not mask.any():
                raise ValueError(f"reset_mask must be {self.num_envs} booleans, at least one True")
        chosen = [i for i in range(self.num_envs) if mask[i]]
        outs = self._all([self.runs[i].reset(self._next_seed(i, seeds[i])) for i in chosen], chosen, "reset")
        infos: dict[str, Any] = {}
        for i, out in zip(chosen, outs):
            self._put_obs(i, out.obs)
            infos = self._add_info(infos, out.info, i)
        self._autoreset[mask] = False
        return self._batched(), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        per_env = list(iterate(self.action_space, actions))
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        mode = self.autoreset_mode
        if mode == AutoresetMode.DISABLED and self._autoreset.any():
            raise RuntimeError("autoreset is disabled: reset the finished sub-environments first "
                               "(reset(options={'reset_mask': terminated | truncated}))")
        resetting = [i for i in range(self.num_envs) if mode == AutoresetMode.NEXT_STEP and self._autoreset[i]]
        coros = [self.runs[i].reset(self._next_seed(i)) if i in resetting else self.runs[i].step(per_env[i])
                 for i in range(self.num_envs)]
        outs = self._all(coros, list(range(self.num_envs)), "step")
        infos: dict[str, Any] = {}
        finished = [i for i, out in enumerate(outs) if i not in resetting and (out.terminated or out.truncated)]
        if mode == AutoresetMode.SAME_STEP and finished:
            again = self._all([self.runs[i].reset(self._next_seed(i)) for i in finished], finished, "autoreset")
            for i, fresh in zip(finished, again):
                infos = self._add_info(infos, {"final_obs": outs[i].obs, "final_info": outs[i].info}, i)
                outs[i] = Step(fresh.obs, outs[i].reward, outs[i].terminated, outs[i].truncated, fresh.info)
        for i, out in enumerate(outs):
            self._put_obs(i, out.obs)
            rewards[i], terminated[i], truncated[i] = out.reward, out.terminated, out.truncated
            infos = self._add_info(infos, out.info, i)
        self._autoreset = np.logical_or(terminated, truncated) if mode != AutoresetMode.SAME_STEP \
            else np.zeros(self.num_envs, dtype=np.bool_)
        return self._batched(), rewards, terminated, truncated, infos

    def _all(self, coros: list[Any], which: list[int], what: str) -> list[Step]:
        """Run the sub-environments' coroutines together; a fault in one is raised once all have finished
        (the faulted run has closed its context), naming the sub-environment."""
        async def together() -> list[Any]:
            return list(await asyncio.gather(*coros, return_exceptions=True))

        # Games open OPENS_AT_ONCE at a time: a vector's resets take that many rounds of a reset's bound.
        rounds = -(-len(coros) // OPENS_AT_ONCE)
        results = self.engine.run(together(), self.engine.bound_s * rounds, f"a vector {what} of {self.options.task}")
        for i, result in zip(which, results):
            if isinstance(result, BaseException):
                raise SubEnvFault(f"sub-environment {i} of {self.options.task} failed during {what}: "
                                  f"{str(result).splitlines()[0] if str(result) else type(result).__name__}") \
                    from result
        return results

    def _put_obs(self, i: int, obs: Any) -> None:
        self._latest[i] = obs

    def _batched(self) -> Any:
        self._obs = concatenate(self.single_observation_space, self._latest, self._obs)
        return self._obs

    def render(self) -> tuple[np.ndarray, ...] | None:
        if self.render_mode is None:
            return None
        return tuple(run.picture() for run in self.runs)

    def close_extras(self, **kwargs: Any) -> None:
        """Close every sub-environment's context; the engine's last user closes the browser."""
        engine, self._engine = self._engine, None
        if engine is None:
            return
        try:
            async def close_all() -> None:
                await asyncio.gather(*(run.close() for run in self.runs), return_exceptions=True)

            engine.run(close_all(), what="closing the games")
        finally:
            engine.release()
