"""pytest hooks: options, collection of the benchmark items, marks, outcome words, summary."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from pathlib import Path
from typing import Any

import pytest

from . import items as benchmark_items
from .cases import INTERFACES, build_cases, game_mark, split_model_refs
from .catalog import GENRES, CatalogError, load_catalog
from .fixtures import (  # noqa: F401  (fixtures are found on the plugin module)
    gw_agent, gw_browser, gw_case, gw_catalog, gw_game, gw_run_config, gw_server, gw_session_dir, gw_settings,
)
from .breaker import PREFIX, tripped
from .results import aggregate, format_table, read_jsonl
from .settings import Settings, add_options
from .state import CASES, CATALOG, SESSION_DIR, SETTINGS


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def _session_name(config: pytest.Config, settings: Settings) -> str:
    worker = getattr(config, "workerinput", None)
    if worker and worker.get("gw_session"):
        return worker["gw_session"]
    return settings.session or dt.datetime.now().strftime("%Y%m%d-%H%M%S")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    for name in GENRES:
        config.addinivalue_line("markers", f"{name}: GameWorld genre {name}")
    for level in range(1, 6):
        config.addinivalue_line("markers", f"L{level}: GameWorld curriculum level {level}")
    for name in INTERFACES:
        config.addinivalue_line("markers", f"{name}: GameWorld agent interface {name}")
    try:
        settings = Settings.from_config(config)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SETTINGS] = settings
    if not settings.models:
        return
    try:
        catalog = load_catalog(settings.catalog)
        models = [catalog.resolve_model(ref, settings.model_overrides()) for ref in split_model_refs(settings.models)]
    except CatalogError as exc:
        raise pytest.UsageError(str(exc)) from None
    for game in catalog.games.values():
        config.addinivalue_line("markers", f"{game_mark(game)}: GameWorld game {game.id}")
    if not hasattr(config, "workerinput") and not config.option.collectonly:
        _preflight([m for m in models if m.provider])
    config.stash[CATALOG] = catalog
    config.stash[CASES] = build_cases(catalog.tasks, catalog.games, models, settings.repeat)
    session_dir = settings.results / _session_name(config, settings)
    config.stash[SESSION_DIR] = session_dir.resolve()
    if not hasattr(config, "workerinput"):
        session_dir.mkdir(parents=True, exist_ok=True)
        _point_latest(settings.results, session_dir)
        if config.pluginmanager.hasplugin("html") and not config.getoption("htmlpath", None):
            config.option.htmlpath = str(session_dir / "report.html")
            config.option.self_contained_html = True
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(), "gameworld-xdist")
    if config.pluginmanager.hasplugin("html"):
        from . import report

        config.pluginmanager.register(report, "gameworld-html")


def _preflight(models: list[Any]) -> None:
    """One check per provider model at start: one clear line instead of an error per item."""
    if not models:
        return
    from .agents.providers.preflight import preflight

    for spec in models:
        problem = asyncio.run(preflight(spec))
        if problem:
            raise pytest.UsageError(problem)


def _point_latest(results: Path, session_dir: Path) -> None:
    link = results / "latest"
    try:
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(session_dir.name)
    except OSError:
        pass  # a read-only or Windows results folder works without the convenience link


class _XdistHooks:
    """Hands the controller's session name to every worker."""

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput["gw_session"] = node.config.stash[SESSION_DIR].name


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function is not benchmark_items.test_gameworld:
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
    ours = [i for i in items if getattr(i, "function", None) is benchmark_items.test_gameworld]
    if not ours:  # not collected from a path the user gave: add the packaged module ourselves
        module = pytest.Module.from_parent(session, path=Path(benchmark_items.__file__))
        ours = [i for i in session.genitems(module) if isinstance(i, pytest.Item)]
        items.extend(ours)
    for item in ours:
        case = getattr(item, "callspec", None) and item.callspec.params.get("gw_case")
        if case is not None:
            _rename(item, case.node_id)


def _props(report: pytest.TestReport) -> dict[str, Any]:
    return dict(report.user_properties) if report.user_properties else {}


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    if report.when != "call" or not report.passed:
        return None
    props = _props(report)
    if "progress" not in props:
        return None
    if props["success"]:
        return "passed", "S", ("SOLVED", {"green": True})
    return "passed", ".", (f"PG {100 * props['progress']:.0f}%", {"yellow": True})


def _is_benchmark(report: Any) -> bool:
    """A report of a benchmark item: its location still names the packaged test function."""
    location = getattr(report, "location", None)
    return bool(location) and str(location[2]).startswith(benchmark_items.test_gameworld.__name__ + "[")


def _missing_items(terminalreporter: Any) -> list[str]:
    """Benchmark items that failed or errored in any phase (not scored)."""
    out: list[str] = []
    for key in ("failed", "error"):
        for rep in terminalreporter.stats.get(key, []):
            if _is_benchmark(rep) and rep.nodeid not in out:
                out.append(rep.nodeid)
    return out


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    session_dir = config.stash.get(SESSION_DIR, None)
    if session_dir is None or hasattr(config, "workerinput"):
        return
    records = read_jsonl(session_dir / "results.jsonl")
    summaries = aggregate(records)
    recorded = {r["item"] for r in records}
    unrecorded = [n for n in _missing_items(terminalreporter) if n not in recorded]
    tr = terminalreporter
    tr.section("GameWorld summary")
    if not records and not unrecorded:
        tr.write_line("no benchmark runs were played")
        return
    for line in format_table(summaries):
        tr.write_line(line)
    for s in summaries.values():
        spread = s.repeat_spread
        if spread:
            tr.write_line(f"{s.model}: over {len(s.repeats)} repeats SR {spread[0]:.1f}±{spread[1]:.1f} "
                          f"PG {spread[2]:.1f}±{spread[3]:.1f}")
    _breaker_lines(tr, records, config)
    missing = [m for s in summaries.values() for m in s.missing] + [f"{n}: did not run to the end" for n in unrecorded]
    if missing:
        tr.write_line(f"missing runs (not scored, re-run with --lf): {len(missing)}", red=True)
        for m in missing:
            tr.write_line(f"  {m}")
    tr.write_line(f"results: {os.path.relpath(session_dir / 'results.jsonl')}")


def _breaker_lines(tr: Any, records: list[dict[str, Any]], config: pytest.Config) -> None:
    """One line per model the circuit breaker stopped: why, and how many runs it skipped."""
    limit = config.stash[SETTINGS].max_consecutive_faults
    skipped = [str(getattr(r, "longrepr", "")) for r in tr.stats.get("skipped", []) if _is_benchmark(r)]
    for model in dict.fromkeys(r["model"] for r in records):
        reason = tripped(records, model, limit)
        if reason:
            count = sum(f"{PREFIX}: {model} " in s for s in skipped)
            tr.write_line(f"{reason}; {count} remaining run(s) skipped", red=True)
