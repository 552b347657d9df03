"""One run: the observe → act → parse → execute → evaluate loop, written down as it goes."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable

from . import jsonio
from .actions import Verdict
from .agents.base import Agent, AgentError, AgentReply, Observation, RunContext
from .catalog import GameSpec, ModelSpec, TaskSpec
from .evaluator import Evaluator, ScoreError, StepEval, read_path
from .prompts import render_prompt
from .results import RunRecord, append_jsonl, cost_usd
from .sandbox import GameSession, HarnessError
from .semantic import classify
from .tally import Tally


@dataclass
class RunConfig:
    """Everything that identifies and parametrizes one run."""

    item_id: str
    game: GameSpec
    task: TaskSpec
    model: ModelSpec
    seed: int
    repeat: int
    run_dir: Path
    results_path: Path
    prompts_dir: Path
    realtime: bool = False
    max_steps: int | None = None
    keep_frames: bool = False
    catalog_version: str = ""

    @property
    def steps_budget(self) -> int:
        return self.max_steps or self.task.max_steps


def verdict_for(reply: AgentReply, ctx: RunContext) -> Verdict:
    """A replayed reply keeps its recorded verdict; any other is classified from its calls."""
    if reply.action is not None:
        return Verdict(reply.validity or "valid", reply.action)
    return classify(reply.calls, ctx.model.interface, ctx.role, ctx.game.viewport)


def state_summary(state: dict[str, Any], task: TaskSpec) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for path in task.score_fields:
        try:
            fields[path] = read_path(state, path)
        except KeyError:
            fields[path] = None
    return {"status": state.get("status"), "gameTimeMs": state.get("gameTimeMs"),
            "terminal": state.get("terminal"), "fields": fields}


class Trajectory:
    """The run's steps.jsonl, appended and flushed line by line."""

    def __init__(self, run_dir: Path) -> None:
        run_dir.mkdir(parents=True, exist_ok=True)
        self.path = run_dir / "steps.jsonl"
        self._fh = self.path.open("w", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self._fh.write(jsonio.dumps(record) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()


# A provider agent stops at its step limit itself, naming the endpoint error; this margin
# lets it, and the hard bound below still holds for any agent that does not.
STEP_GRACE_S = 1.0


async def act_within(agent: Agent, obs: Observation, limit_s: float) -> AgentReply:
    """The agent's reply, or AgentError once the step's wall-clock limit has passed."""
    try:
        return await asyncio.wait_for(agent.act(obs), timeout=limit_s + STEP_GRACE_S)
    except asyncio.TimeoutError:
        raise AgentError(f"no reply within the step limit of {limit_s:g} s") from None


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")


class _Run:
    """One run in progress: the session, the agent, the evaluator and what is written down."""

    def __init__(self, session: GameSession, agent: Agent, cfg: RunConfig, ctx: RunContext,
                 evaluator: Evaluator, traj: Trajectory) -> None:
        self.session, self.agent, self.cfg, self.ctx = session, agent, cfg, ctx
        self.evaluator, self.traj = evaluator, traj
        self.tally = Tally()
        self.steps = 0
        self.state: dict[str, Any] = {}
        self.shot: bytes | None = None
        self.wants_pixels = agent.needs_pixels or cfg.keep_frames

    async def observe(self) -> None:
        """Read the state and, when pixels are needed, the screenshot: both at once (both only read)."""
        if not self.wants_pixels:
            self.state = await self.session.state()
            return
        self.state, self.shot = await asyncio.gather(
            self.session.state(), self.session.screenshot(self.ctx.model.screenshot_format))

    async def settle(self, ready: Awaitable[dict[str, Any]]) -> None:
        """After init or reset: the ready state first, then the picture of it."""
        self.state = await ready
        if self.wants_pixels:
            self.shot = await self.session.screenshot(self.ctx.model.screenshot_format)

    def evaluate(self, steps: int) -> StepEval:
        """The evaluator on the current state; a state that breaks the contract is a HarnessError naming the game."""
        try:
            return self.evaluator.observe(self.state, steps)
        except ScoreError as exc:
            raise HarnessError(f"{self.cfg.game.id}: {exc}") from None

    async def step(self) -> StepEval:
        ctx, cfg, step = self.ctx, self.cfg, self.steps
        obs = Observation(step, self.evaluator.episodes, self.state, self.shot if self.agent.needs_pixels else None,
                          ctx.model.screenshot_format)
        shot = self.shot
        t0 = time.perf_counter()
        reply = await act_within(self.agent, obs, ctx.model.step_timeout_s)
        latency_s = time.perf_counter() - t0
        latency_ms = reply.latency_ms if reply.latency_ms is not None else int(round(latency_s * 1000))
        verdict = verdict_for(reply, ctx)
        cost = cost_usd(ctx.model, reply.usage)
        self.tally.count(verdict, reply, latency_s, cost)
        if cfg.realtime:
            await self.session.advance(latency_ms)  # the game moves on while the model thinks
        await self.session.execute(verdict.action)
        await self.observe()
        self.steps += 1
        ev = self.evaluate(self.steps)
        frame = None
        if cfg.keep_frames and shot is not None:
            frame = f"frames/{step:04d}.{ctx.model.screenshot_format}"
            await asyncio.to_thread(_write_frame, cfg.run_dir / frame, shot)
        self.traj.write({
            "event": "step", "step": step, "episode": self.evaluator.episodes,
            "request": reply.request, "reply": {"text": reply.text, "reasoning": reply.reasoning, "raw": reply.raw},
            "calls": [c.to_json() for c in reply.calls], "extra_calls": max(0, len(reply.calls) - 1),
            "verdict": verdict.to_json(), "latency_ms": latency_ms, "usage": reply.usage.to_json(),
            "cost_usd": cost, "state": state_summary(self.state, ctx.task),
            "score": ev.score, "best": ev.best, "progress": ev.progress, "success": ev.success,
            "reset": ev.reset, "stop": ev.stop, "frame": frame,
        })
        return ev


async def play(session: GameSession, agent: Agent, cfg: RunConfig) -> tuple[RunRecord, dict[str, Any]]:
    """Play one run to its end; its record (also appended to results.jsonl) and final state."""
    role_name = next(iter(cfg.game.roles))  # single-role games; multi-role runs are not built yet
    role = cfg.game.roles[role_name]
    prompt = render_prompt(cfg.prompts_dir, cfg.game, role, cfg.task, cfg.model, cfg.steps_budget, cfg.realtime)
    ctx = RunContext(cfg.game, cfg.task, role_name, role, cfg.model, cfg.seed, prompt, session)
    task = cfg.task.model_copy(update={"max_steps": cfg.steps_budget})
    record = RunRecord.begin(
        item=cfg.item_id, task=cfg.task, game=cfg.game, model=cfg.model, role=role_name, seed=cfg.seed,
        repeat=cfg.repeat, protocol="realtime" if cfg.realtime else "paused", max_steps=cfg.steps_budget,
        catalog_version=cfg.catalog_version, session=cfg.results_path.parent.name,
        trajectory=os.path.relpath(cfg.run_dir / "steps.jsonl", cfg.results_path.parent), now=_now())
    traj = Trajectory(cfg.run_dir)
    traj.write({"event": "start", "item": cfg.item_id, "game": cfg.game.id, "task": cfg.task.id,
                "model": cfg.model.name, "seed": cfg.seed, "repeat": cfg.repeat,
                "protocol": record.protocol, "role": role_name, "prompt": prompt.sections})
    run = _Run(session, agent, cfg, ctx, Evaluator(task), traj)
    started = time.perf_counter()
    end: dict[str, Any] = {"event": "end", "status": "error"}
    try:
        await run.settle(session.init({"seed": cfg.seed, "level": task.level, "difficulty": task.difficulty,
                                        "task": task.oracle_view(), **task.init}))
        ev = run.evaluate(0)
        await agent.begin(ctx)
        while ev.stop is None:
            ev = await run.step()
            if ev.reset:
                await run.settle(session.reset({}))
                run.evaluator.begin_episode()
        session.check()  # a blocked request or game error since the last read: decided before the record
        record.finish(run.evaluator, ev.stop, run.steps, run.tally, time.perf_counter() - started, _now())
        end.update(status="ok", stop=ev.stop, success=run.evaluator.success, progress=run.evaluator.progress,
                   final_state=run.state)
    except BaseException as exc:  # Ctrl-C too: the run is written down as not finished
        record.fail(exc, run.evaluator, run.steps, run.tally, time.perf_counter() - started, _now())
        end["error"] = record.error
        raise
    finally:
        try:
            await agent.close()
        finally:
            traj.write({**end, "steps": run.steps})
            traj.close()
            append_jsonl(cfg.results_path, record.to_json())
    return record, run.state


def _write_frame(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


__all__ = ["RunConfig", "play", "verdict_for", "HarnessError"]
