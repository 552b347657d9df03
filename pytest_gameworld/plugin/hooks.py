"""pytest hooks: options, collection of the benchmark items, marks, outcome words, summary."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from . import benchmark
from ..report import live_progress
from ..catalog.run_cases import INTERFACES, build_cases, game_mark, split_model_refs
from ..catalog.specs import GENRES, CatalogError
from ..catalog.loader import load_catalog
from .fixtures import (  # noqa: F401  (fixtures are found on the plugin module)
    gw_agent, gw_agents, gw_assets, gw_browser, gw_case, gw_catalog, gw_files, gw_game, gw_run_config,
    gw_session_dir, gw_settings,
)
from ..records.circuit_breaker import PREFIX, tripped
from .fault_report import fault_text, is_fault
from ..report.gate import GateConfig, format_comparison
from ..report.aggregate import format_table
from ..records.jsonl import read_jsonl
from ..report.outcome import Outcome, build_gate, outcome
from ..records.sessions import (
    case_key, catalog_version, new_session_name, point_latest, resolve_session, reuse_problem, scored_keys,
    write_plan,
)
from .options import Settings, add_options, given_options
from ..records.shards import build_plan, plan_run
from ..browser.remote_assets import AssetStore
from .stash import ASSETS, CASES, CATALOG, CATALOG_VERSION, SCORED_BEFORE, SESSION_DIR, SETTINGS

NO_MODEL = ("no model to benchmark: name one with --gw-model NAME, gw_model = NAME in the ini file, "
            "or the GW_MODEL environment variable")


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


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
    _default_asyncio_loop_scope(config)
    for name in GENRES:
        config.addinivalue_line("markers", f"{name}: GameWorld genre {name}")
    for level in range(1, 6):
        config.addinivalue_line("markers", f"L{level}: GameWorld curriculum level {level}")
    for name in INTERFACES:
        config.addinivalue_line("markers", f"{name}: GameWorld agent interface {name}")
    config.addinivalue_line("markers", "upstream: a task of an upstream GameWorld checkout (--gw-catalog)")
    try:
        settings = Settings.from_config(config)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SETTINGS] = settings
    worker = getattr(config, "workerinput", None)
    inert = _inert(config)
    if not settings.models:
        if given_options(config) and not inert and worker is None:
            raise pytest.UsageError(NO_MODEL)
        return
    try:
        catalog = load_catalog(settings.catalog)
        config.stash[ASSETS] = AssetStore.load(settings.assets) if settings.assets else None
        models = [catalog.resolve_model(ref, settings.model_overrides()) for ref in split_model_refs(settings.models)]
        gate = build_gate(settings.gates, settings.baseline, settings.max_drop, settings.max_drop_strict,
                          settings.gate_allow_missing) if worker is None else GateConfig()
    except (CatalogError, ValueError) as exc:
        raise pytest.UsageError(str(exc)) from None
    for game in catalog.games.values():
        config.addinivalue_line("markers", f"{game_mark(game)}: GameWorld game {game.id}")
    if worker is None and not inert:
        _preflight([m for m in models if m.provider])
    config.stash[CATALOG] = catalog
    config.stash[CASES] = build_cases(catalog.tasks, catalog.games, models, settings.repeat)
    config.pluginmanager.register(_Planner(inert), "gameworld-planner")
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = []  # no path named: the benchmark alone (added at collection), not the project's tests
    if worker is not None:
        config.stash[SESSION_DIR] = Path(worker["gw_session_dir"])
        config.stash[CATALOG_VERSION] = worker["gw_catalog_version"]
        config.stash[SCORED_BEFORE] = {tuple(k): v for k, v in worker["gw_scored_before"]}
        return
    session_dir = _session_dir(config, settings).resolve()
    version = catalog_version(catalog.root)
    budgets = {t.id: settings.max_steps or t.max_steps for t in catalog.tasks}
    problem = reuse_problem(session_dir, version, budgets)
    if problem:
        raise pytest.UsageError(problem)
    config.stash[SESSION_DIR] = session_dir
    config.stash[CATALOG_VERSION] = version
    records = read_jsonl(session_dir / "results.jsonl") if settings.resume else []
    config.stash[SCORED_BEFORE] = {k: session_dir.name for k in scored_keys(records)}
    config.pluginmanager.register(_Controller(config, gate, inert), "gameworld-controller")
    if not inert and settings.progress != "off":
        config.pluginmanager.register(_Progress(config, settings.progress), "gameworld-progress")
    if not inert and config.pluginmanager.hasplugin("html") and not config.getoption("htmlpath", None):
        config.option.htmlpath = str(session_dir / "report.html")
        config.option.self_contained_html = True
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(), "gameworld-xdist")
    if config.pluginmanager.hasplugin("html"):
        from . import html_report

        config.pluginmanager.register(html_report.HtmlHooks(config), "gameworld-html")


def _session_dir(config: pytest.Config, settings: Settings) -> Path:
    """--gw-resume's session, --lf continuing the latest one, --gw-session, or a new timestamp."""
    if settings.resume:
        if settings.session and settings.session != settings.resume:
            raise pytest.UsageError(f"--gw-resume {settings.resume} and --gw-session {settings.session} "
                                    "name different sessions; give one")
        try:
            return resolve_session(settings.results, settings.resume)
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
    if settings.session:
        return settings.results / settings.session
    if config.getoption("lf", False):
        try:
            return resolve_session(settings.results, "latest")
        except ValueError:
            pass  # nothing to continue: a new session
    return settings.results / new_session_name()


def _preflight(models: list[Any]) -> None:
    """One check per provider model at start: one clear line instead of an error per item."""
    if not models:
        return
    from ..agents.providers.preflight import preflight

    for spec in models:
        problem = asyncio.run(preflight(spec))
        if problem:
            raise pytest.UsageError(problem)


class _Progress:
    """The controller's live view of the runs in flight (see live_progress.py); it only reads what runs write."""

    def __init__(self, config: pytest.Config, setting: str) -> None:
        self.config, self.setting = config, setting
        self.cases = {c.node_id: c for c in config.stash[CASES]}
        self.state = live_progress.SessionProgress(time.monotonic())

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if session.items:  # under xdist the controller collects nothing; the workers tell (below)
            self.state.total = sum(i.nodeid in self.cases for i in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.state.total = sum(i in self.cases for i in ids)

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        case = self.cases.get(nodeid)
        if case is not None:
            budget = self.config.stash[SETTINGS].max_steps or case.task.max_steps
            root = self.config.stash[SESSION_DIR] / "runs" / case.run_path
            self.state.begin(live_progress.start_flight(nodeid, budget, root))

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


class _XdistHooks:
    """Hands the controller's session, catalog version and resume list to every worker."""

    def pytest_configure_node(self, node: Any) -> None:
        stash = node.config.stash
        node.workerinput["gw_session_dir"] = str(stash[SESSION_DIR])
        node.workerinput["gw_catalog_version"] = stash[CATALOG_VERSION]
        node.workerinput["gw_scored_before"] = [[list(k), v] for k, v in stash[SCORED_BEFORE].items()]


def pytest_report_header(config: pytest.Config) -> list[str]:
    """An imported catalog's origin, the games it could not collect (one line per reason), and what did not
    map in the model specs played."""
    catalog = config.stash.get(CATALOG, None)
    if catalog is None or not catalog.source:
        return []
    src = catalog.source
    head = f"gameworld: {src['format']} catalog {src['path']}" + (f" at commit {src['commit']}" if src.get("commit") else "")
    played = {f"model {c.model.name}:" for c in config.stash.get(CASES, [])}
    return [head, *catalog.left_out, *(w for w in catalog.warnings if w.startswith(tuple(played)))]


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

        item._id = NodeId.parse(nodeid)  # type: ignore[attr-defined]
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
        case = getattr(item, "callspec", None) and item.callspec.params.get("gw_case")
        if case is None:
            continue
        _rename(item, case.node_id)
        where = scored_before.get(case_key(case, settings.seed, settings.realtime))
        if where is not None:
            item.add_marker(pytest.mark.skip(reason=f"scored in {where}"))


class _Planner:
    """After every other selection (-k, -m, --lf): --gw-limit's first N runs, this shard's part of them, plan.json."""

    def __init__(self, inert: bool) -> None:
        self.inert = inert

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        settings = config.stash[SETTINGS]
        if settings.limit:
            _deselect(config, items, [i for i in items if _is_run(i)][settings.limit:])
        protocol = "realtime" if settings.realtime else "paused"
        ours: dict[str, pytest.Item] = {}
        runs = []
        for item in items:
            case = getattr(item, "callspec", None) and item.callspec.params.get("gw_case")
            if case is not None:
                ours[case.node_id] = item
                runs.append(plan_run(case, case.seed(settings.seed), protocol))
        if not runs:
            return
        options = {"seed": settings.seed, "protocol": protocol, "max_steps": settings.max_steps,
                   "catalog_version": config.stash.get(CATALOG_VERSION, "")}
        plan = build_plan(runs, settings.shard, options)
        if settings.shard:
            keep = set(plan["selected"])
            _deselect(config, items, [i for name, i in ours.items() if name not in keep])
        if not self.inert:
            write_plan(config.stash[SESSION_DIR], plan)


def _is_run(item: pytest.Item) -> bool:
    return getattr(item, "function", None) is benchmark.test_gameworld


def _deselect(config: pytest.Config, items: list[pytest.Item], dropped: list[pytest.Item]) -> None:
    """Drop items the way -k does: reported as deselected."""
    if dropped:
        gone = set(map(id, dropped))
        items[:] = [i for i in items if id(i) not in gone]
        config.hook.pytest_deselected(items=dropped)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A benchmark item's report carries its run folder; a fault's report is its error line, not a traceback."""
    report = yield
    if not _is_run(item):
        return report
    cfg = getattr(item, "funcargs", {}).get("gw_run_config")
    run_dir = getattr(cfg, "run_dir", None)
    if call.when == "setup" and run_dir is not None and SESSION_DIR in item.config.stash:
        prop = ("run_dir", os.path.relpath(run_dir, item.config.stash[SESSION_DIR]))
        item.user_properties.append(prop)
        report.user_properties.append(prop)  # the setup report was made before; a setup fault's row needs it too
    if report.failed and call.excinfo is not None and is_fault(call.excinfo.value):
        report.longrepr = fault_text(call.excinfo.value, run_dir)
    return report


def _props(report: pytest.TestReport) -> dict[str, Any]:
    return dict(report.user_properties) if report.user_properties else {}


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    if report.when != "call" or not report.passed:
        return None
    props = _props(report)
    if "progress" not in props:
        return None
    if props["success"]:
        return "passed", "+", ("SOLVED", {"green": True})  # not S, which reads as skipped
    return "passed", ".", (f"PG {100 * props['progress']:.0f}%", {"yellow": True})


def _is_benchmark(report: Any) -> bool:
    """A report of a benchmark item: its location still names the packaged test function."""
    location = getattr(report, "location", None)
    return bool(location) and str(location[2]).startswith(benchmark.test_gameworld.__name__ + "[")




class _Controller:
    """The controller's end of a session: notes what ran, then judges and writes the whole session once."""

    def __init__(self, config: pytest.Config, gate: GateConfig, inert: bool) -> None:
        self.config, self.gate, self.inert = config, gate, inert
        self.played = False
        self.failed: list[str] = []
        self.outcome: Outcome | None = None
        self.page: Path | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not _is_benchmark(report):
            return
        if report.when == "call":
            self.played = True
        if report.failed and report.nodeid not in self.failed:
            self.failed.append(report.nodeid)

    @pytest.hookimpl(tryfirst=True)  # before junitxml writes its file, so the gate's properties are in it
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.inert:
            return
        session_dir = self.config.stash[SESSION_DIR]
        settings = self.config.stash[SETTINGS]
        if self.played:
            point_latest(settings.results, session_dir)
        self.outcome = outcome(read_jsonl(session_dir / "results.jsonl"), self.failed, self.gate)
        if self.played:
            self.page = _results_page(session_dir, self.config.stash[CATALOG].root, self.failed)
        verdict = self.outcome.verdict
        if verdict is None:
            return
        session_dir.mkdir(parents=True, exist_ok=True)
        (session_dir / "gate.json").write_text(json.dumps(verdict.to_json(self.gate), indent=2) + "\n")
        _junit_properties(self.config, verdict.ok, verdict.line(), self.outcome)
        if not verdict.ok and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        out = self.outcome
        if out is None:
            return
        tr = terminalreporter
        tr.section("GameWorld summary")
        if out.problem:
            tr.write_line(out.problem, red=True)
        elif not out.summaries and not out.missing:
            tr.write_line("no benchmark runs were played")
        else:
            for line in format_table(out.summaries):
                tr.write_line(line)
            for s in out.summaries.values():
                spread = s.repeat_spread
                if spread:
                    tr.write_line(f"{s.model}: over {len(s.repeats)} repeats SR {spread[0]:.1f}±{spread[1]:.1f} "
                                  f"PG {spread[2]:.1f}±{spread[3]:.1f}")
            _breaker_lines(tr, read_jsonl(self.config.stash[SESSION_DIR] / "results.jsonl"), self.config)
            if out.missing:
                tr.write_line(f"missing runs (not scored, re-run with --lf): {len(out.missing)}",
                              red=True)
                for m in out.missing:
                    tr.write_line(f"  {m}")
            tr.write_line(f"results: {os.path.relpath(self.config.stash[SESSION_DIR] / 'results.jsonl')}")
            if self.page is not None:
                tr.write_line(f"results page: {os.path.relpath(self.page)} (each run's viewer.html linked from it)")
        verdict = out.verdict
        if verdict is not None:
            if verdict.comparison is not None:
                for line in format_comparison(verdict.comparison, self.gate.baseline_source):
                    tr.write_line(line)
            for note in verdict.notes:
                tr.write_line(note, yellow=True)
            tr.write_line(verdict.line(), bold=True, green=verdict.ok, red=not verdict.ok)


def _results_page(session_dir: Path, catalog_root: Path, failed: list[str]) -> Path | None:
    """The session's index.html; a page that cannot be written never changes the session's outcome."""
    from ..report.results_page import write_results_page

    try:
        return write_results_page(session_dir, catalog_root, failed)
    except Exception as exc:  # noqa: BLE001
        import warnings

        warnings.warn(f"GameWorld: the results page was not written: {type(exc).__name__}: {exc}")
        return None


def _junit_properties(config: pytest.Config, ok: bool, line: str, out: Outcome) -> None:
    """The verdict and headline figures as junit-xml testsuite properties."""
    from _pytest.junitxml import xml_key

    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    xml.add_global_property("gameworld_gate", "PASS" if ok else "FAIL")
    xml.add_global_property("gameworld_gate_line", line)
    xml.add_global_property("gameworld_missing_runs", len(out.missing))
    for name, s in sorted(out.summaries.items()):
        xml.add_global_property(f"gameworld_sr[{name}]", round(s.overall.sr, 2))
        xml.add_global_property(f"gameworld_pg[{name}]", round(s.overall.pg, 2))
        xml.add_global_property(f"gameworld_runs[{name}]", s.overall.runs)


def _breaker_lines(tr: Any, records: list[dict[str, Any]], config: pytest.Config) -> None:
    """One line per model the circuit breaker stopped: why, and how many runs it skipped."""
    limit = config.stash[SETTINGS].max_consecutive_faults
    skipped = [str(getattr(r, "longrepr", "")) for r in tr.stats.get("skipped", []) if _is_benchmark(r)]
    for model in dict.fromkeys(r["model"] for r in records):
        reason = tripped(records, model, limit)
        if reason:
            count = sum(f"{PREFIX}: {model} " in s for s in skipped)
            tr.write_line(f"{reason}; {count} remaining run(s) skipped", red=True)
