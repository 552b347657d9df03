"""Many runs in flight per process (--gw-concurrency): the runs of the items this process will report next are
started ahead, each in its own browser context, on a loop thread of their own; each item's test waits for its
own run and reports it as before (outcome, user_properties, junit/html row).

Order and identity stay pytest's: a run is started only for an item this process holds (its whole selection
without xdist; under xdist the items the controller has sent it), in the order it will report them, so the item
pytest waits for is always among the first started. A run is never started twice: under xdist a started item
cannot be stolen by another worker (see ``guard_steals``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from ..agents import Agent, make_agent
from ..browser.game_origin import GameFiles
from ..browser.host import BrowserHost
from ..browser.remote import BrowserUnreachable
from ..catalog.run_cases import Case
from ..play.concurrency import auto_concurrency, available_mb, next_to_start
from ..play.loop_thread import LoopThread
from ..play.runner import RunConfig, Spend, play, seat_agents
from ..records.jsonl import RecordWriteError
from ..records.run_record import RunRecord
from ..report.run_viewer import write_viewer_quietly
from .options import Settings
from .run_setup import case_of, run_config
from .stash import ASSETS, CATALOG, SETTINGS
from .tracing import RunTrace

RUN_DIR = pytest.StashKey[str]()  # an item's run folder, once its run started (its report names it)
CLOSE_GRACE_S = 15.0  # what in-flight runs get to write themselves down when the session stops
_OWN_AGENT_FIXTURES = ("gw_agent", "gw_agents")


@dataclass
class RunOutcome:
    """What a finished run hands its item: the record, the final state, a replay's expected final state."""

    record: RunRecord
    final_state: dict[str, Any]
    expected_final: dict[str, Any] | None
    trace_problem: str | None = None


@dataclass
class Flight:
    """A run started for an item: its config, its spend so far and the future its item waits on."""

    item_id: str
    cfg: RunConfig
    spend: Spend
    future: concurrent.futures.Future[RunOutcome]


@dataclass
class _Held:
    kind: str
    why: str


def process_count(config: pytest.Config) -> int:
    """How many processes share the machine's memory for runs: xdist's workers, or this one."""
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        return max(1, int(worker.get("workercount", 1)))
    n = getattr(config.option, "numprocesses", None)
    return max(1, int(n)) if isinstance(n, int) else 1


def chosen_concurrency(settings: Settings, cases: list[Case], processes: int) -> int:
    if settings.concurrency:
        return settings.concurrency
    return auto_concurrency(any(c.model.provider for c in cases), available_mb(), processes)


class RunEngine:
    """This process's runs in flight. The main thread asks for an item's outcome; the loop thread plays."""

    def __init__(self, config: pytest.Config, limit: int) -> None:
        self.config = config
        self.settings: Settings = config.stash[SETTINGS]
        self.limit = max(1, limit)
        self._lock = threading.RLock()
        self._flights: dict[str, Flight] = {}
        self._held: dict[str, _Held] = {}
        self._taken: set[str] = set()  # items whose outcome was handed over: never started again
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: LoopThread | None = None
        self._host: BrowserHost | None = None
        self._playwright: Any = None
        self._host_lock: asyncio.Lock | None = None
        self._current: str | None = None
        self._order: list[pytest.Item] = []
        self._position: dict[str, int] = {}
        self._interactor: Any = None
        self._session: pytest.Session | None = None
        self._closed = False
        self.stop_reason: str | None = None  # e.g. the browser endpoint is gone: no later run could start
        # Whether a run may start now, given what the runs in flight have spent (set by hold_back.py).
        self.hold: Callable[[Case, float], tuple[str, str] | None] = lambda case, spend: None
        self.files = GameFiles(config.stash[CATALOG].games_dir)

    # ------------------------------------------------------------------ the items of this process

    def attach(self, session: pytest.Session) -> None:
        """Learn the session's items (and, under xdist, the worker's queue of the items sent to it)."""
        self._session = session
        self._order = list(session.items)
        self._position = {item.nodeid: i for i, item in enumerate(self._order)}
        self._interactor = _worker_interactor(self.config)
        if self._interactor is not None:
            guard_steals(self._interactor, self._started_index, self._lock)

    def _started_index(self, index: int) -> bool:
        with self._lock:
            return 0 <= index < len(self._order) and self._order[index].nodeid in self._flights

    def _upcoming(self) -> list[pytest.Item]:
        """This process's items from the current one on, in the order it will run them."""
        if self._interactor is None:
            start = self._position.get(self._current or "", 0)
            return self._order[start:]
        indices: list[int] = []
        current = getattr(self._interactor, "item_index", None)
        nxt = getattr(self._interactor, "nextitem_index", None)
        queue = getattr(self._interactor, "torun", None)
        for i in (current, nxt):
            if isinstance(i, int):
                indices.append(i)
        if queue is not None:
            with queue.lock() as pending:
                indices += [i for i in pending if isinstance(i, int)]
        return [self._order[i] for i in indices if 0 <= i < len(self._order)]

    def playable_ahead(self, item: pytest.Item) -> bool:
        """Whether the item's run may start before pytest reaches it: a benchmark item that is not skipped and
        plays the plugin's own agents (a conftest's agent fixture is set up by pytest, at the item's turn)."""
        if case_of(item) is None or item.get_closest_marker("skip") or item.get_closest_marker("skipif"):
            return False
        return not agents_overridden(item)

    # ------------------------------------------------------------------ starting runs

    def _refill(self) -> None:
        """Start the next runs this process will report, up to the limit (called by the main thread when an
        item's test begins, and by the loop thread whenever a run ends)."""
        with self._lock:
            session = self._session
            if self._closed or self.stop_reason or (session is not None and (session.shouldstop or session.shouldfail)):
                return
            # The current item stays first in _upcoming() until pytest moves on, after its flight is gone.
            upcoming = [i for i in self._upcoming() if i.nodeid not in self._held and i.nodeid not in self._taken]
            ids = [i.nodeid for i in upcoming]
            playable = {i.nodeid for i in upcoming if self.playable_ahead(i)}
            in_flight = sum(not f.future.done() for f in self._flights.values())
            by_id = {i.nodeid: i for i in upcoming}
            for nodeid in next_to_start(ids, set(self._flights), playable, in_flight, self.limit):
                case = case_of(by_id[nodeid])
                held = self.hold(case, self.in_flight_spend())
                if held is not None:  # written down (and failed NOT PLAYED) when pytest reaches the item
                    self._held[nodeid] = _Held(*held)
                else:
                    try:
                        self._start(by_id[nodeid], None)
                    except RecordWriteError as exc:  # no folder for it: the item's own turn reports it
                        self.stop_reason = str(exc)
                        return

    def in_flight_spend(self) -> float:
        """What the runs still playing have spent so far (the cost cap counts it before their records exist)."""
        with self._lock:
            return sum(f.spend.total for f in self._flights.values() if not f.future.done())

    def _start(self, item: pytest.Item, agents: dict[str, Agent] | None) -> Flight:
        """Start an item's run now."""
        case = case_of(item)
        assert case is not None
        cfg = run_config(self.config, case)
        item.stash[RUN_DIR] = str(cfg.run_dir)
        spend = Spend()
        future = self._thread().submit(self._play(case, cfg, agents, spend))
        flight = Flight(item.nodeid, cfg, spend, future)
        self._flights[item.nodeid] = flight
        future.add_done_callback(lambda _f: self._refill())
        return flight

    def held(self, item: pytest.Item) -> tuple[str, str] | None:
        """(kind, why) when the engine decided not to start this item's run."""
        with self._lock:
            h = self._held.get(item.nodeid)
            return (h.kind, h.why) if h else None

    def started(self, item: pytest.Item) -> bool:
        with self._lock:
            return item.nodeid in self._flights

    # ------------------------------------------------------------------ the item's own run

    def outcome(self, item: pytest.Item, agents: dict[str, Agent] | None) -> RunOutcome:
        """Play (or finish playing) the item's run and return its outcome; its fault is raised here."""
        with self._lock:
            self._current = item.nodeid
            flight = self._flights.get(item.nodeid)
            if flight is None:
                # Not started ahead (a conftest's agents, or no slot was free): it starts now, before the rest
                # (its setup already decided that it may: hold_back.py).
                flight = self._start(item, agents)
        self._refill()
        try:
            return flight.future.result(self._bound_s(flight.cfg))
        except concurrent.futures.TimeoutError:
            flight.future.cancel()
            raise RunOverdue(f"{flight.cfg.game.id}: the run did not end within {self._bound_s(flight.cfg):g} s "
                             "(each step's agent and page limits together)") from None
        except BrowserUnreachable as exc:
            # No later run could start either (_play has already stopped new starts): pytest, and xdist, which
            # passes it on, stop after this item.
            item.session.shouldstop = str(exc)
            raise
        finally:
            with self._lock:
                self._taken.add(item.nodeid)
                self._flights.pop(item.nodeid, None)

    def _bound_s(self, cfg: RunConfig) -> float:
        """The longest a run can take when every bound inside it holds (steps × (agent limit + page calls)),
        with a margin: past it the run is overdue, a fault of its own."""
        per_step = cfg.model.step_timeout_s + 1.0 + 6 * self.settings.page_timeout
        return cfg.steps_budget * per_step + 4 * self.settings.page_timeout + 120.0

    # ------------------------------------------------------------------ on the loop thread

    def _thread(self) -> LoopThread:
        if self._loop is None:
            self._loop = LoopThread(f"gw-runs-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")
        return self._loop

    async def _browser(self) -> BrowserHost:
        if self._host_lock is None:
            self._host_lock = asyncio.Lock()
        async with self._host_lock:
            if self._host is None:
                from playwright.async_api import async_playwright

                self._playwright = await async_playwright().start()
                self._host = BrowserHost(self._playwright, self.settings, os.environ.get("PYTEST_XDIST_WORKER"))
        return self._host

    async def _play(self, case: Case, cfg: RunConfig, agents: dict[str, Agent] | None, spend: Spend) -> RunOutcome:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            host = await self._browser()
            trace = RunTrace(self.settings.tracing, self.settings.page_timeout, cfg.run_dir)
            try:
                session = await host.open(self.files, case.game, cfg.seed, case.task.url_suffix,
                                          self.config.stash.get(ASSETS, None), trace)
            except BrowserUnreachable as exc:
                self.stop_reason = str(exc)  # before this run's end refills: no further run starts
                raise
            try:
                seated = agents if agents is not None else seat_agents(make_agent(case.model), case.game, case.model)
                failed = True
                try:
                    record, final_state = await play(session, seated, cfg, spend=spend)
                    failed = False
                finally:  # faulted runs get their viewer (and, under retain-on-failure, their trace) too
                    await trace.stop(session.context, failed)
                    await asyncio.to_thread(write_viewer_quietly, cfg.run_dir)
            finally:
                await host.release(session)
            expected = next((s for s in (getattr(a, "final_state", None) for a in seated.values()) if s is not None),
                            None)
            return RunOutcome(record, final_state, expected, trace.problem)
        finally:
            self._tasks.discard(task)

    async def _shut_down(self) -> None:
        """Cancel the runs still in flight (each writes itself down as interrupted), then close the browser."""
        tasks = list(self._tasks)
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_GRACE_S)
        if self._host is not None:
            await self._host.close()
        if self._playwright is not None:
            await asyncio.wait_for(self._playwright.stop(), CLOSE_GRACE_S)

    def close(self) -> None:
        """End of the session (or Ctrl-C, -x, a stop): no new run starts; those in flight are interrupted."""
        with self._lock:
            self._closed = True
        if self._loop is None:
            return
        try:
            self._loop.call(self._shut_down, timeout_s=3 * CLOSE_GRACE_S, what="closing the runs in flight")
        except (TimeoutError, asyncio.TimeoutError, RuntimeError):
            pass  # what did not close is killed at exit (signals.py)
        finally:
            self._loop.stop(CLOSE_GRACE_S)


class RunOverdue(RuntimeError):
    """A run that outlived every bound inside it."""


def agents_overridden(item: pytest.Item) -> bool:
    """Whether a conftest (or another plugin) replaces the plugin's agent fixtures for this item."""
    manager = item.session._fixturemanager
    for name in _OWN_AGENT_FIXTURES:
        defs = manager.getfixturedefs(name, item)
        if defs and getattr(defs[-1].func, "__module__", "") != _FIXTURES_MODULE:
            return True
    return False


_FIXTURES_MODULE = __name__.rsplit(".", 1)[0] + ".fixtures"


def _worker_interactor(config: pytest.Config) -> Any:
    """xdist's worker object (its queue of the items sent to this worker), or None outside a worker."""
    if not hasattr(config, "workerinput"):
        return None
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor" and hasattr(plugin, "torun"):
            return plugin
    return None


def guard_steals(interactor: Any, started: Callable[[int], bool], lock: Any) -> None:
    """Under --dist worksteal another worker may take items still queued here: never one whose run started
    (it would be played twice). The rest of a steal request is given, as xdist's own steal does."""
    if getattr(interactor, "_gw_guarded", False):
        return

    def steal(indices: list[int]) -> None:
        with lock, interactor.torun.lock() as queue:  # the engine's lock first, as when it starts runs
            wanted = {i for i in indices if not started(i)}
            stolen = [i for i in queue if i in wanted]
            if stolen:
                gone = set(stolen)
                interactor.torun.replace(i for i in queue if i not in gone)
        interactor.sendevent("unscheduled", indices=stolen)

    interactor.steal = steal
    interactor._gw_guarded = True
