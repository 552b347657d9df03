"""One run: the observe → act → parse → execute → evaluate loop, written down as it goes."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import threading
import time
from collections.abc import Awaitable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..agents.base import Agent, AgentError, AgentReply, Observation, RunContext
from ..agents.factory import make_agent
from ..browser.faults import HarnessError, PageUnresponsive
from ..browser.sandbox import GameSession
from ..catalog.specs import STANDARD_OBS, GameSpec, ModelSpec, TaskSpec
from ..records import jsonl
from ..records.frames import frame_name, kept_width, write_frame
from ..records.jsonl import append_jsonl
from ..records.run_events import EpisodeReset, RunEnded, RunEvent, RunStarted, StepTaken
from ..records.run_record import Measured, RunRecord, RunStatus, cost_usd
from ..records.shared_values import SharedValues
from .actions import Verdict
from .evaluator import Evaluator, ScoreError, StepEval, read_path
from .prompt_sections import episode_ended_line, state_text
from .prompts import render_prompt
from .semantic import classify
from .start_check import solved_at_start
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
    obs: str = STANDARD_OBS  # --gw-obs: screenshot, state (as text, no image) or both
    max_steps: int | None = None
    keep_frames: bool = False
    compact_frames: bool = False  # kept frames as WebP at the model's size; else the capture's own bytes
    frame_width: int = 0  # --gw-frame-width: compact frames at most this wide (0: the model's size)
    catalog_version: str = ""
    catalog_source: dict[str, str] = field(default_factory=dict)  # an imported catalog's format, path, commit
    invocation: str = ""  # the pytest invocation playing it (the circuit breaker's scope)
    comparability: dict[str, Any] = field(default_factory=dict)  # records/comparability.py session_facts
    photographed: bool = False  # the page is photographed outside the loop (a trace, a gallery shot): it keeps drawing
    cache: Any = None  # --gw-cache: the ReplyCache provider agents look their replies up in (None: off)

    @property
    def steps_budget(self) -> int:
        return self.max_steps or self.task.max_steps


def verdict_for(reply: AgentReply, ctx: RunContext) -> Verdict:
    """A replayed reply keeps its recorded verdict; any other is classified from its calls."""
    if reply.action is not None:
        return Verdict(reply.validity or "valid", reply.action)
    return classify(reply.calls, ctx.model.interface, ctx.role, ctx.game.viewport, ctx.model.parsing)


def state_summary(state: dict[str, Any], task: TaskSpec) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for path in [*task.score_fields, *(r.field for r in task.requires)]:
        try:
            fields[path] = read_path(state, path)
        except KeyError:
            fields[path] = None
    return {"status": state.get("status"), "gameTimeMs": state.get("gameTimeMs"),
            "terminal": state.get("terminal"), "fields": fields}


WRITE_WAIT_S = 30.0  # the longest a step waits for the trajectory writes of WRITE_LAG_STEPS steps ago
WRITE_LAG_STEPS = 3


def yield_cpu() -> None:
    """Put the calling thread at the lowest CPU priority (Linux: nice is per thread), so encoding kept frames
    takes only CPU the browser, the model call and the loop leave idle (on 2 cores it otherwise slows every
    step; benchmarks/provider_step.py). Elsewhere, or when not permitted, the thread keeps its priority."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (AttributeError, OSError):
        pass


def _awaitable(write: Future[None]) -> asyncio.Future[None]:
    """An asyncio view of a queued write. A failure is raised from the write itself (Trajectory.raise_failed,
    drain); the view's copy of it is marked read, or asyncio prints "Future exception was never retrieved" with
    a traceback at exit for every view nobody awaited to the end (a wait that timed out, a drain that raised)."""
    view = asyncio.wrap_future(write)
    view.add_done_callback(lambda v: v.cancelled() or v.exception())
    return view


class Trajectory:
    """The run's steps.jsonl and kept frames, written in order by one thread of their own: serializing a step
    line and encoding its frame run while the loop waits on the browser and the model. What steps repeat (the
    system prompt, the tool schema) is written once (records/shared_values.py); a frame equal to the last one
    kept is not written again."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.path = run_dir / "steps.jsonl"

        def open_steps() -> IO[str]:
            run_dir.mkdir(parents=True, exist_ok=True)
            return self.path.open("w", encoding="utf-8")

        self._fh = jsonl.written(self.path, open_steps)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="gw-trajectory", initializer=yield_cpu)
        self._pending: list[Future[None]] = []
        self._marks: list[list[Future[None]]] = []  # what was queued as each of the last steps began
        self._shared = SharedValues()
        self._last_frame: tuple[bytes, str] | None = None  # the last kept capture and its file

    def write(self, event: RunEvent) -> None:
        """Queue an event's line (made now: the event may not change afterwards); appended and flushed in order."""
        self._queue(self._append, event.to_json())

    def keep_frame(self, name: str, shot: bytes, compact: bool, width: int | None) -> str:
        """Queue a step's frame; the file that holds it (the last kept one when the capture is the same)."""
        if self._last_frame is not None and self._last_frame[0] == shot:
            return self._last_frame[1]
        self._last_frame = (shot, name)
        path = self.run_dir / name
        self._queue(jsonl.written, path, lambda: write_frame(path, shot, compact, width))
        return name

    async def raise_failed(self) -> None:
        """Raise the first queued write that failed (a RecordWriteError naming its file): awaited as each step
        begins. The writes queued WRITE_LAG_STEPS steps ago are waited for first (bounded), so a full disk stops
        the run at most that many steps after the write that failed, however far the low-priority writer thread
        lags behind a fast loop; the recent steps' writes overlap this step's model call (waiting on the last
        step's alone cost ./gw bench 3 min 10 s against 2 min 40 s: the writer runs on idle CPU only)."""
        self._marks.append(list(self._pending))
        older = self._marks.pop(0) if len(self._marks) > WRITE_LAG_STEPS else []
        waiting = [_awaitable(f) for f in older if not f.done()]
        if waiting:
            await asyncio.wait(waiting, timeout=WRITE_WAIT_S)
        for f in self._pending:
            if f.done() and f.exception() is not None:
                raise f.exception()  # type: ignore[misc]

    def _queue(self, fn: Any, *args: Any) -> None:
        self._pending = [f for f in self._pending if not f.done() or f.exception() is not None]
        self._pending.append(self._writer.submit(fn, *args))

    def _append(self, record: dict[str, Any]) -> None:
        shared, record = self._shared.line(record)
        text = "".join(jsonl.dumps(line) + "\n" for line in [*shared, record])
        jsonl.written(self.path, lambda: (self._fh.write(text), self._fh.flush()))

    async def drain(self) -> None:
        """Wait until everything queued is written; the first failed write is raised here."""
        pending, self._pending = self._pending, []
        for f in pending:
            await _awaitable(f)

    def close(self) -> None:
        """Finish every queued write, then close the file (a failed write was raised by drain, or is lost
        with the run that is failing anyway)."""
        self._writer.shutdown(wait=True)
        try:
            self._fh.close()
        except OSError:
            pass  # the last lines did not fit (raised by drain, or seen when the trajectory is read back)


# A provider agent stops at its step limit itself, naming the endpoint error; this margin
# lets it, and the hard bound below still holds for any agent that does not.
STEP_GRACE_S = 1.0


def queued_s(agent: Agent) -> float:
    """Seconds the agent's current step has waited for a connection slot or a shared back-off (provider agents
    count it; an agent that does not wait reports nothing)."""
    return float(getattr(agent, "queued_s", 0.0) or 0.0)


async def act_within(agent: Agent, obs: Observation, limit_s: float) -> AgentReply:
    """The agent's reply, or AgentError once the step's wall-clock limit has passed. Time spent waiting for a
    connection slot (other runs' requests to the same endpoint) is not the step's: the limit moves by it."""
    task = asyncio.ensure_future(agent.act(obs))
    started = time.monotonic()
    try:
        while (left := limit_s + STEP_GRACE_S + queued_s(agent) - (time.monotonic() - started)) > 0:
            await asyncio.wait({task}, timeout=left)  # the queue's wait may have moved the limit meanwhile
            if task.done():
                return task.result()
        if task.done():  # answered just as the limit passed
            return task.result()
        raise AgentError(f"no reply within the step limit of {limit_s:g} s")
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")


@dataclass
class Spend:
    """A run's model spend so far, read by the session while the run plays (the cost cap counts runs in flight)."""

    total: float = 0.0


@dataclass
class Seat:
    """One role of the game and the agent playing it: its own context (prompt, controls) and counts."""

    name: str
    agent: Agent
    ctx: RunContext
    tally: Tally = field(default_factory=Tally)


@dataclass
class Turn:
    """One seat's part of a step: the reply, its verdict, latency and cost."""

    reply: AgentReply
    verdict: Verdict
    latency_s: float
    latency_ms: int
    cost: float
    cached_cost: float = 0.0  # a cache hit: what the original call cost (not spent by this one)
    priced: bool = True  # False: the model's price is unknown: its costs are written as None, never $0
    queue_ms: int = 0  # waited for a connection slot or a shared back-off: not the model's latency

    def to_json(self) -> dict[str, Any]:
        reply = self.reply
        cache = {} if reply.cache is None else {"cache": {**reply.cache.to_json(),
                                                          **({"cost_usd": self._usd(self.cached_cost)} if reply.cache.hit else {})}}
        return {**cache, "request": reply.request, "reply": {"text": reply.text, "reasoning": reply.reasoning, "raw": reply.raw},
                "calls": [c.to_json() for c in reply.calls], "extra_calls": max(0, len(reply.calls) - 1),
                "verdict": self.verdict.to_json(), "latency_ms": self.latency_ms, "usage": reply.usage.to_json(),
                "cost_usd": self._usd(self.cost), "retries": list(reply.retries),
                **({"queue_ms": self.queue_ms} if self.queue_ms else {})}

    def _usd(self, amount: float) -> float | None:
        return amount if self.priced else None


async def gather_all(coros: list[Awaitable[Any]]) -> list[Any]:
    """Await all at once; if one fails, the others are cancelled before the error goes on."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


def seat_agents(agents: Agent | Mapping[str, Agent], game: GameSpec, model: ModelSpec) -> dict[str, Agent]:
    """One agent per role, in game.yaml's order; a single agent takes the first role and every
    further role gets a fresh agent of the same model spec (own memory, own parsing)."""
    if not isinstance(agents, Mapping):
        names = list(game.roles)
        agents = {names[0]: agents, **{name: make_agent(model) for name in names[1:]}}
    missing = [name for name in game.roles if name not in agents]
    if missing:
        raise ValueError(f"{game.id}: no agent for role(s) {', '.join(missing)}")
    return {name: agents[name] for name in game.roles}


class _Run:
    """One run in progress: the session, the seats, the evaluator and what is written down."""

    def __init__(self, session: GameSession, seats: list[Seat], cfg: RunConfig, evaluator: Evaluator,
                 traj: Trajectory, spend: Spend) -> None:
        self.session, self.seats, self.cfg, self.spend = session, seats, cfg, spend
        self.evaluator, self.traj = evaluator, traj
        self.model = cfg.model
        self.tally = Tally()  # the run's totals over every role's proposals
        self.steps = 0
        self.state: dict[str, Any] = {}
        self.shot: bytes | None = None
        self.notice: str | None = None  # said once, on the step after a failed episode was reset
        self.wants_pixels = (cfg.obs != "state" and any(s.agent.needs_pixels for s in seats)) or cfg.keep_frames

    @property
    def picture_format(self) -> str | None:
        return self.model.screenshot_format if self.wants_pixels else None

    async def observe(self, steps_taken: int) -> StepEval:
        """Read the state and, when pixels are needed, the picture of that same instant (one page call), and
        score it. A state that ends its episode gets no picture: the run resets or stops on it (should the page
        and the evaluator disagree on that, the picture is taken after all)."""
        self.state, self.shot = await self.session.observe(self.picture_format, unless_ended=True)
        ev = self.evaluate(steps_taken)
        if self.shot is None and self.picture_format and ev.stop is None and not ev.reset:
            self.shot = (await self.session.observe(self.picture_format))[1]
        return ev

    async def settle(self, ready: Awaitable[tuple[dict[str, Any], bytes | None]]) -> None:
        """After init or reset: the ready state and its picture, as the readiness gate read them."""
        self.state, self.shot = await ready

    def measured(self, started: float) -> Measured:
        """What the run measured since ``started`` (perf_counter), for its record."""
        return Measured(self.evaluator, self.steps, self.tally, time.perf_counter() - started, _now(),
                        {s.name: s.tally for s in self.seats})

    def evaluate(self, steps: int) -> StepEval:
        """The evaluator on the current state; a state that breaks the contract is a HarnessError naming the game."""
        try:
            return self.evaluator.observe(self.state, steps)
        except ScoreError as exc:
            raise HarnessError(f"{self.cfg.game.id}: {exc}") from None

    async def take_turn(self, seat: Seat, step: int) -> Turn:
        """Ask one seat for its action on the current observation and judge the reply."""
        cfg = self.cfg
        shown = seat.agent.needs_pixels and cfg.obs != "state"
        obs = Observation(step, self.evaluator.episodes, self.state, self.shot if shown else None,
                          self.model.screenshot_format,
                          None if cfg.obs == STANDARD_OBS else state_text(self.state, cfg.game.observable),
                          self.notice)
        t0 = time.perf_counter()
        reply = await act_within(seat.agent, obs, self.model.step_timeout_s)
        queued = queued_s(seat.agent)
        latency_s = max(0.0, time.perf_counter() - t0 - queued)  # the model's own time, not the queue's
        latency_ms = reply.latency_ms if reply.latency_ms is not None else int(round(latency_s * 1000))
        hit = reply.cache if reply.cache is not None and reply.cache.hit else None
        if hit is not None and self.cfg.realtime and hit.latency_ms is not None:
            latency_ms = hit.latency_ms  # --gw-rt: a hit thinks as long as its original did, the game moves as then
        turn = Turn(reply, verdict_for(reply, seat.ctx), latency_s, latency_ms, cost_usd(self.model, reply.usage),
                    queue_ms=int(round(queued * 1000)), priced=self.model.price_per_mtok is not None)
        if hit is not None and hit.usage is not None:
            turn.cached_cost = cost_usd(self.model, hit.usage)
        return turn

    async def step(self) -> StepEval:
        await self.traj.raise_failed()
        cfg, step, shot = self.cfg, self.steps, self.shot
        frame = None
        if cfg.keep_frames and shot is not None:
            frame = self.traj.keep_frame(frame_name(step, self.model.screenshot_format, cfg.compact_frames), shot,
                                         cfg.compact_frames, kept_width(self.model.screenshot_width, cfg.frame_width))
        # Every role answers the same observation at once; their actions share one time window.
        turns: list[Turn] = await gather_all([self.take_turn(seat, step) for seat in self.seats])
        for seat, turn in zip(self.seats, turns):
            seat.tally.count(turn.verdict, turn.reply, turn.latency_s, turn.cost, turn.cached_cost)
            self.tally.count(turn.verdict, turn.reply, 0.0, turn.cost, turn.cached_cost)
            self.spend.total += turn.cost
        self.tally.latency_s += max(t.latency_s for t in turns)  # the roles wait side by side
        if cfg.realtime:
            await self.session.advance(max(t.latency_ms for t in turns))  # the game moves on while they think
        await self.session.execute_together([t.verdict.action for t in turns])
        notice, self.notice = self.notice, None
        ev = await self.observe(step + 1)
        dialogs, self.session.dialogs[:] = list(self.session.dialogs), []
        self.steps += 1
        if len(self.seats) == 1:
            acted: dict[str, Any] = turns[0].to_json()
        else:
            acted = {"roles": {seat.name: t.to_json() for seat, t in zip(self.seats, turns)},
                     "latency_ms": max(t.latency_ms for t in turns),
                     "cost_usd": sum(t.cost for t in turns) if turns[0].priced else None}
        self.traj.write(StepTaken(
            step, self.evaluator.episodes, acted, state_summary(self.state, cfg.task), ev.score, ev.best,
            ev.progress, ev.success, ev.reset, ev.stop, frame, notice, dialogs))
        return ev


async def _close_all(agents: list[Agent]) -> None:
    """Close every agent; the first failure is raised once all have been asked."""
    failures: list[BaseException] = []
    for agent in agents:
        try:
            await agent.close()
        except Exception as exc:
            failures.append(exc)
    if failures:
        raise failures[0]


async def play(session: GameSession, agents: Agent | Mapping[str, Agent],
               cfg: RunConfig, spend: Spend | None = None) -> tuple[RunRecord, dict[str, Any]]:
    """Play one run to its end, one agent per role; its record (also appended to results.jsonl) and final state.
    ``spend`` follows the run's model spend as it plays."""
    task = cfg.task.model_copy(update={"max_steps": cfg.steps_budget})
    seats = []
    for name, agent in seat_agents(agents, cfg.game, cfg.model).items():
        role = cfg.game.roles[name]
        prompt = render_prompt(cfg.prompts_dir, cfg.game, role, cfg.task, cfg.model, cfg.steps_budget, cfg.realtime)
        seats.append(Seat(name, agent, RunContext(cfg.game, task, name, role, cfg.model, cfg.seed, prompt,
                                                  session, cfg.realtime, cfg.cache)))
    record = RunRecord.begin(
        item=cfg.item_id, task=cfg.task, game=cfg.game, model=cfg.model, role="+".join(s.name for s in seats),
        seed=cfg.seed, repeat=cfg.repeat, protocol="realtime" if cfg.realtime else "paused",
        max_steps=cfg.steps_budget, catalog_version=cfg.catalog_version, session=cfg.results_path.parent.name,
        trajectory=os.path.relpath(cfg.run_dir / "steps.jsonl", cfg.results_path.parent), now=_now(), obs=cfg.obs)
    record.catalog = dict(cfg.catalog_source)
    record.invocation, record.comparability = cfg.invocation, dict(cfg.comparability)
    traj = Trajectory(cfg.run_dir)
    traj.write(RunStarted(cfg.item_id, cfg.game.id, cfg.task.id, cfg.model.name, cfg.seed, cfg.repeat,
                          record.protocol, cfg.obs, record.priced,
                          {"width": cfg.game.viewport.width, "height": cfg.game.viewport.height},
                          {s.name: s.ctx.prompt.sections for s in seats}))
    run = _Run(session, seats, cfg, Evaluator(task), traj, spend if spend is not None else Spend())
    started = time.perf_counter()
    end = RunEnded()
    try:
        if not run.wants_pixels and not cfg.photographed and not cfg.catalog_source:
            await session.skip_drawing()  # nobody will see this run (an imported page is left as it is)
        await run.settle(session.init_observed(task.init_config(cfg.seed), run.picture_format))
        if (solved := solved_at_start(task, run.state)) is not None:  # before scoring: the record claims nothing
            raise HarnessError(f"{cfg.game.id}: {solved}")
        ev = run.evaluate(0)
        for seat in seats:
            await seat.agent.begin(seat.ctx)
        while ev.stop is None:
            ev = await run.step()
            if ev.reset:
                await run.settle(session.reset_observed({}, run.picture_format))
                run.evaluator.begin_episode()
                run.notice = episode_ended_line(ev.reason, ev.outcome, run.evaluator.progress)
                traj.write(EpisodeReset(run.steps, session.resets[-1], ev.reason, ev.outcome, run.notice))
        await traj.drain()
        session.check()  # a blocked request or game error since the last read: decided before the record
        record.finish(run.measured(started), ev.stop)
        end.status, end.stop, end.final_state = RunStatus.OK, ev.stop, run.state
        end.success, end.progress = run.evaluator.success, run.evaluator.progress
    except BaseException as exc:  # Ctrl-C too: the run is written down as not finished
        if isinstance(exc, PageUnresponsive) and exc.step is None:
            exc.step = run.steps  # the step in flight, numbered as in steps.jsonl
        # Ctrl-C reaches a run as KeyboardInterrupt, or as the cancellation of the loop's task it runs in.
        if isinstance(exc, (KeyboardInterrupt, asyncio.CancelledError)):
            record.interrupt(run.measured(started))
        else:
            record.fail(exc, run.measured(started))
        end.status, end.error = RunStatus(record.status), record.error
        raise
    finally:
        try:
            await _close_all([s.agent for s in seats])
        finally:
            end.steps = run.steps
            traj.write(end)
            traj.close()
            record.resets = list(session.resets)
            append_jsonl(cfg.results_path, record.to_json())
    return record, run.state


__all__ = ["RunConfig", "Spend", "play", "seat_agents", "verdict_for", "HarnessError"]
