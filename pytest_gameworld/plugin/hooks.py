"""pytest hooks: options, collection of the benchmark items, marks, outcome words, summary."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest

from ..agents.providers.cache import sampling_notices
from ..agents.trivial import trivial_problem
from ..catalog.sampling import outside_sample
from ..records.redact import redact
from ..records.sessions import (
    case_key,
    planned_runs,
    read_plan,
    write_named_models,
    write_plan,
)
from ..records.shards import build_plan, plan_run
from ..report import live_progress
from ..report.aggregate import whole_percent
from ..report.gate import GateConfig
from ..report.outcome import Outcome
from . import benchmark, configure, crashes, hold_back, ini_guard, session_end, session_facts, signals, startup_checks, write_failures
from .fault_report import fault_text, is_fault
from .fixtures import (  # noqa: F401  (fixtures are found on the plugin module)
    gw_agent,
    gw_agents,
    gw_assets,
    gw_browser,
    gw_case,
    gw_catalog,
    gw_engine,
    gw_files,
    gw_game,
    gw_run_config,
    gw_session_dir,
    gw_settings,
    gw_trace,
)
from .options import Settings, add_options, given_options
from .redaction import install_log_redaction, redact_report
from .run_engine import RUN_DIR, RunEngine
from .run_setup import case_of
from .stash import (
    CASES,
    CATALOG,
    CATALOG_VERSION,
    COMPARABILITY,
    ENGINE,
    REPLAY,
    SCORED_BEFORE,
    SESSION_DIR,
    SETTINGS,
)
from .xdist_hooks import XdistHooks

NO_MODEL = ("no model to benchmark: name one with --gw-model NAME, gw_model = NAME in the ini file, "
            "or the GW_MODEL environment variable")


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser) -> None:
    """Before any conftest.py: a spaced --gw-* value that cost the session its ini file stops it (one line)."""
    problem = ini_guard.ini_problem(early_config, parser)
    if problem:
        raise pytest.UsageError(problem)


def _inert(config: pytest.Config) -> bool:
    """Invocations that only show something: they must leave no session folder and no report behind."""
    opt = config.option
    return any(getattr(opt, name, False) for name in
               ("collectonly", "help", "version", "markers", "showfixtures", "show_fixtures_per_test"))


def _default_asyncio_loop_scope(config: pytest.Config) -> None:
    """Spare a project that only installed the plugin pytest-asyncio's "loop scope unset" warning.

    Our own async fixtures name their loop scope; "function" is pytest-asyncio's announced default.
    pytest has no public way to default another plugin's ini value, hence the ini cache.
    """
    name = "asyncio_default_fixture_loop_scope"
    if hasattr(config, "_inicache") and not config.getini(name):
        config._inicache[name] = "function"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Markers always; with a model named, the benchmark (configure.load_benchmark), then a worker adopts its
    controller's session facts and the controller makes them and registers the session's plugins."""
    _default_asyncio_loop_scope(config)
    configure.register_markers(config)
    try:
        settings = Settings.from_config(config)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SETTINGS] = settings
    worker = getattr(config, "workerinput", None)
    if worker is None and config.pluginmanager.hasplugin("xdist"):
        ini_guard.hand_workers_joined_args(config)
    inert = _inert(config)
    if not settings.models:
        if given_options(config) and not inert and worker is None:
            raise pytest.UsageError(NO_MODEL)
        return
    config.add_cleanup(signals.install())
    install_log_redaction()
    bench = configure.load_benchmark(config, settings, worker is None, inert)
    if worker is None and not inert:
        _preflight([m for m in bench.models if m.provider])
    config.pluginmanager.register(_Planner(inert, bench.gate), "gameworld-planner")
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = []  # no path named: the benchmark alone (added at collection), not the project's tests
    if worker is not None:
        configure.adopt_worker_input(config, worker)
        return
    configure.make_session_facts(config, settings, bench, inert)
    _register_controller(config, settings, bench.gate, inert)


def _register_controller(config: pytest.Config, settings: Settings, gate: GateConfig, inert: bool) -> None:
    """The controller's session plugins: outcome and gate, live progress, the pytest-html report, xdist's hooks."""
    session_dir = config.stash[SESSION_DIR]
    config.pluginmanager.register(_Controller(config, gate, inert), "gameworld-controller")
    write_failures.probe_session_dir(session_dir, inert)
    if not inert and settings.progress != "off":
        config.pluginmanager.register(_Progress(config, settings.progress), "gameworld-progress")
    if not inert and config.pluginmanager.hasplugin("html") and not config.getoption("htmlpath", None):
        config.option.htmlpath = str(session_dir / "report.html")
        config.option.self_contained_html = True
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(XdistHooks(gate, _check_selection, _inert), "gameworld-xdist")
        config.pluginmanager.register(crashes.CrashReports(config), "gameworld-crashes")
    if config.pluginmanager.hasplugin("html"):
        from . import html_report

        config.pluginmanager.register(html_report.HtmlHooks(config), "gameworld-html")


def _preflight(models: list[Any]) -> None:
    """One check per provider model at start: one clear line instead of an error per item."""
    if not models:
        return
    from ..agents.providers.preflight import preflight

    for spec in models:
        problem = asyncio.run(preflight(spec))
        if problem:
            raise pytest.UsageError(redact(problem))


class _Progress:
    """The controller's live view of the runs in flight (see live_progress.py); it only reads what runs write."""

    def __init__(self, config: pytest.Config, setting: str) -> None:
        self.config, self.setting = config, setting
        self.cases = {c.node_id: c for c in config.stash[CASES]}
        self.state = live_progress.SessionProgress(time.monotonic())
        self.state.unpriced = any(c.model.price_per_mtok is None for c in self.cases.values())

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if session.items:  # under xdist the controller collects nothing; the workers tell (below)
            self._expect([i.nodeid for i in session.items])

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        if self.state.total is None:  # every worker collects the same items
            self._expect(ids)

    def _expect(self, ids: list[str]) -> None:
        ours = [i for i in ids if i in self.cases]
        self.state.total = len(ours)
        self.state.expect([self._flight(i) for i in ours])

    def _flight(self, nodeid: str) -> live_progress.Flight:
        case = self.cases[nodeid]
        budget = self.config.stash[SETTINGS].max_steps or case.task.max_steps
        return live_progress.start_flight(nodeid, budget, self.config.stash[SESSION_DIR] / "runs" / case.run_path)

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if nodeid in self.cases:
            self.state.begin(self._flight(nodeid))

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        if nodeid in self.cases:
            self.state.end(nodeid)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Any:
        tw = getattr(self.config.pluginmanager.get_plugin("terminalreporter"), "_tw", None)
        stop = live_progress.show(tw, self.setting, self.config.get_verbosity(), self.state,
                             self.config.stash[SETTINGS].progress_interval)
        try:
            return (yield)
        finally:
            stop()


def pytest_report_header(config: pytest.Config) -> list[str]:
    """--gw-cache's sampling notices; an imported catalog's origin, games it left out, unmapped spec fields."""
    catalog = config.stash.get(CATALOG, None)
    notices = sampling_notices(config.stash[SETTINGS].cache, [c.model for c in config.stash.get(CASES, [])])
    if catalog is None or not catalog.source:
        return notices
    src = catalog.source
    head = f"gameworld: {src['format']} catalog {src['path']}" + (f" at commit {src['commit']}" if src.get("commit") else "")
    played = {f"model {c.model.name}:" for c in config.stash.get(CASES, [])}
    return [*notices, head, *catalog.left_out, *(w for w in catalog.warnings if w.startswith(tuple(played)))]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function is not benchmark.test_gameworld:
        return
    cases = metafunc.config.stash.get(CASES, [])
    metafunc.parametrize(
        "gw_case",
        [pytest.param(c, id=c.param_id, marks=[getattr(pytest.mark, m) for m in c.marks]) for c in cases],
        indirect=True,
    )


def _rename(item: pytest.Item, nodeid: str) -> None:
    """Give a benchmark item its natural id, e.g. puzzle/01-2048/01_03[random]."""
    try:
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(nodeid)
    except ImportError:  # pytest < 9 keeps the id as a string
        item._nodeid = nodeid  # type: ignore[attr-defined]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if CASES not in config.stash:
        return
    ours = [i for i in items if _is_run(i)]
    if not ours:  # not collected from a path the user gave: add the packaged module ourselves
        module = pytest.Module.from_parent(session, path=Path(benchmark.__file__))
        ours = [i for i in session.genitems(module) if isinstance(i, pytest.Item)]
        items.extend(ours)
    settings, scored_before = config.stash[SETTINGS], config.stash.get(SCORED_BEFORE, {})
    for item in ours:
        case = case_of(item)
        if case is None:
            continue
        _rename(item, case.node_id)
        where = scored_before.get(case_key(case, settings.seed, settings.realtime, settings.obs))
        if where is not None:
            item.add_marker(pytest.mark.skip(reason=f"scored in {where}"))


class _Planner:
    """After every other selection (-k, -m): --lf's replay, --gw-sample, --gw-limit's first N, this shard, plan.json."""

    def __init__(self, inert: bool, gate: GateConfig) -> None:
        self.inert, self.gate = inert, gate

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        settings = config.stash[SETTINGS]
        if REPLAY in config.stash:
            _deselect(config, items, session_facts.select_replay(config, items, config.stash[REPLAY], _case_id))
        if settings.sample:
            _deselect(config, items, outside_sample(items, case_of, settings.sample, settings.seed))
        if settings.limit:
            _deselect(config, items, [i for i in items if _is_run(i)][settings.limit:])
        protocol = "realtime" if settings.realtime else "paused"
        ours: dict[str, pytest.Item] = {}
        runs = []
        for item in items:
            case = case_of(item)
            if case is not None:
                ours[case.node_id] = item
                runs.append(plan_run(case, case.seed(settings.seed), protocol, settings.obs))
        if not runs:
            if not self.inert and not items and not hasattr(config, "workerinput"):
                startup_checks.refuse_empty_selection(config)
            return
        options = {"seed": settings.seed, "protocol": protocol, "obs": settings.obs, "max_steps": settings.max_steps,
                   **({"sample": settings.sample} if settings.sample else {}),
                   "catalog_version": config.stash.get(CATALOG_VERSION, ""),
                   "comparability": config.stash.get(COMPARABILITY, {}),
                   "baselines": str(settings.baselines.resolve()) if settings.baselines else None}
        plan = build_plan(runs, settings.shard, options)
        if settings.shard:
            keep = set(plan["selected"])
            _deselect(config, items, [i for name, i in ours.items() if name not in keep])
        if not self.inert and not hasattr(config, "workerinput"):
            _check_selection(config, self.gate, [c for c in map(case_of, items) if c is not None])
        if not self.inert:
            write_failures.before_any_run(lambda: write_plan(config.stash[SESSION_DIR], plan))
            write_failures.before_any_run(lambda: write_named_models(
                config.stash[SESSION_DIR], {c.model.name: c.model for c in config.stash[CASES]}.values()))





def _case_id(item: pytest.Item) -> str | None:
    case = case_of(item)
    return case.node_id if case is not None else None


def _check_selection(config: pytest.Config, gate: GateConfig, cases: list[Any]) -> None:
    """Gate scopes against what this session plays (its selection, and its plan when continuing it); a trivial
    policy's control or key that a selected game lacks."""
    planned = planned_runs(read_plan(config.stash[SESSION_DIR]))
    problem = (startup_checks.gate_scope_problem(gate, startup_checks.case_runs(cases, planned))
               or next(filter(None, (trivial_problem(c.model, c.game) for c in cases)), None))
    if problem:
        raise pytest.UsageError(problem)


def _is_run(item: pytest.Item) -> bool:
    return getattr(item, "function", None) is benchmark.test_gameworld


def _deselect(config: pytest.Config, items: list[pytest.Item], dropped: list[pytest.Item]) -> None:
    """Drop items the way -k does: reported as deselected."""
    if dropped:
        gone = set(map(id, dropped))
        items[:] = [i for i in items if id(i) not in gone]
        config.hook.pytest_deselected(items=dropped)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A run the session holds back (cost limit, circuit breaker) fails here, before its fixtures open a page."""
    case = case_of(item) if _is_run(item) else None
    if case is not None and SESSION_DIR in item.config.stash:
        engine = item.config.stash.get(ENGINE, None)
        hold_back.check(item, case, engine if isinstance(engine, RunEngine) else None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A benchmark item's report carries its run folder; a fault's report is its error line, not a traceback."""
    report = yield
    redact_report(report)
    if not _is_run(item):
        return report
    started = item.stash.get(RUN_DIR, None)  # the engine's run folder for this item, once its run started
    run_dir = Path(started) if started else None
    if call.when == "call" and run_dir is not None and SESSION_DIR in item.config.stash:
        prop = ("run_dir", os.path.relpath(run_dir, item.config.stash[SESSION_DIR]))
        item.user_properties.append(prop)
        report.user_properties.append(prop)  # the call report was made before the run's properties
    if report.failed and call.excinfo is not None and is_fault(call.excinfo.value):
        report.longrepr = fault_text(call.excinfo.value, run_dir)
    write_failures.stop_on_write_failure(item, call, report)
    return report


def _props(report: pytest.TestReport) -> dict[str, Any]:
    return dict(report.user_properties) if report.user_properties else {}


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    if report.when == "setup" and report.failed and str(report.longrepr).startswith(hold_back.NOT_PLAYED):
        return "error", "E", ("NOT PLAYED", {"red": True})
    if report.when != "call" or not report.passed:
        return None
    props = _props(report)
    if "progress" not in props:
        return None
    if props["success"]:
        return "passed", "+", ("SOLVED", {"green": True})  # not S, which reads as skipped
    return "passed", ".", (f"PG {whole_percent(props['progress'])}%", {"yellow": True})


def _is_benchmark(report: Any) -> bool:
    """A report of a benchmark item: its location still names the packaged test function."""
    location = getattr(report, "location", None)
    return bool(location and str(location[2]).startswith(benchmark.test_gameworld.__name__ + "["))


class _Controller:
    """The controller's end of a session: notes what ran, then judges and writes the whole session once."""

    def __init__(self, config: pytest.Config, gate: GateConfig, inert: bool) -> None:
        self.config, self.gate, self.inert = config, gate, inert
        self.played = False
        self.failed: list[str] = []
        self.others_failed = False  # a failing test that is not a benchmark run: the gate cannot excuse it
        self.outcome: Outcome | None = None
        self.page: Path | None = None
        self.refused = False
        self.left = session_end.Leftovers(config.stash[SESSION_DIR])

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not _is_benchmark(report):
            self.others_failed = self.others_failed or report.failed
            return
        if report.when == "call":
            self.played = True
        if report.failed and report.nodeid not in self.failed:
            self.failed.append(report.nodeid)

    @pytest.hookimpl(tryfirst=True)  # before junitxml writes its file, so the gate's properties are in it
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.refused = session.exitstatus == pytest.ExitCode.USAGE_ERROR  # e.g. a gate scope the selection lacks
        if not self.inert and not self.refused:
            self.outcome, self.page = session_end.judge(self.config, self.gate, self.failed, self.others_failed,
                                                        self.played, session)

    def pytest_unconfigure(self) -> None:
        if self.refused:  # after pytest-html wrote its report: a refused session leaves nothing behind
            self.left.discard()

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.outcome is not None:
            session_end.summary(terminalreporter, self.config, self.gate, self.outcome, self.page)
