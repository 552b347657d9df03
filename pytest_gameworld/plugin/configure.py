"""What pytest_configure sets up, in its parts: the markers, the benchmark a session plays (catalog, models, gate,
cases, checked once), what a worker is handed by its controller, and the session facts only the controller makes.
The plugin objects themselves are registered by plugin/hooks.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..browser.remote_assets import AssetStore
from ..catalog.contents import Catalog
from ..catalog.loader import load_catalog
from ..catalog.run_cases import INTERFACES, Case, build_cases, game_marks, split_model_refs
from ..catalog.specs import GENRES, CatalogError, ModelSpec
from ..records.jsonl import RecordWriteError
from ..records.run_record import RunKey
from ..records.sessions import catalog_version, read_session, reuse_problem, scored_keys, set_aside_damaged_plan
from ..report.gate import GateConfig
from ..report.outcome import build_gate
from . import session_facts, startup_checks
from .options import Settings
from .run_setup import session_dir_for
from .stash import (
    ASSETS,
    CASES,
    CATALOG,
    CATALOG_VERSION,
    COMPARABILITY,
    INVOCATION,
    NOTES,
    REPLAY,
    SCORED_BEFORE,
    SESSION_DIR,
)


def register_markers(config: pytest.Config) -> None:
    """The markers every session knows, benchmark or not (a game's own marks come with the catalog)."""
    for name in GENRES:
        config.addinivalue_line("markers", f"{name}: GameWorld genre {name}")
    for level in range(1, 6):
        config.addinivalue_line("markers", f"L{level}: GameWorld curriculum level {level}")
    for name in INTERFACES:
        config.addinivalue_line("markers", f"{name}: GameWorld agent interface {name}")
    config.addinivalue_line("markers", "upstream: a task of an upstream GameWorld checkout (--gw-catalog)")


@dataclass(frozen=True)
class Benchmark:
    """What a session plays: its catalog, the resolved model specs, the gate (the controller's only), the cases."""

    catalog: Catalog
    models: list[ModelSpec]
    gate: GateConfig
    cases: list[Case]


def load_benchmark(config: pytest.Config, settings: Settings, controller: bool, inert: bool) -> Benchmark:
    """Load and check what the session plays; every mistake is one UsageError line, before anything is played.
    The checks that need the whole session (cost cap, browser, baselines, gate scope) run on the controller."""
    try:
        catalog = load_catalog(settings.catalog)
        config.stash[ASSETS] = AssetStore.load(settings.assets) if settings.assets else None
        models = [catalog.resolve_model(ref, settings.model_overrides(), settings.interface or None)
                  for ref in split_model_refs(settings.models)]
        gate = build_gate(settings.gates, settings.baseline, settings.max_drop, settings.max_drop_strict,
                          settings.gate_allow_missing) if controller else GateConfig()
    except (CatalogError, ValueError) as exc:
        raise pytest.UsageError(str(exc)) from None
    for game in catalog.games.values():
        for mark in game_marks(game):
            config.addinivalue_line("markers", f"{mark}: GameWorld game {game.id}")
    cases = build_cases(catalog.tasks, catalog.games, models, settings.repeat)
    marker_problem = startup_checks.game_marker_problem(config.option.markexpr, catalog.games.values())
    if marker_problem and controller:  # --collect-only too: selecting nothing is what it would show
        raise pytest.UsageError(marker_problem)
    if controller and not inert:
        for problem in (startup_checks.cost_cap_problem(settings.max_cost, models),
                        startup_checks.browser_problem(settings), startup_checks.baselines_problem(settings.baselines),
                        startup_checks.obs_problem(settings.obs, catalog.games.values()),
                        startup_checks.gate_scope_problem(gate, startup_checks.case_runs(cases))):
            if problem:
                raise pytest.UsageError(problem)
    config.stash[CATALOG] = catalog
    config.stash[CASES] = cases
    return Benchmark(catalog, models, gate, cases)


def adopt_worker_input(config: pytest.Config, worker: dict[str, Any]) -> None:
    """A worker takes the session facts its controller made (pytest_configure_node), never making its own."""
    config.stash[SESSION_DIR] = Path(worker["gw_session_dir"])
    config.stash[CATALOG_VERSION] = worker["gw_catalog_version"]
    config.stash[SCORED_BEFORE] = {RunKey(*k): v for k, v in worker["gw_scored_before"]}
    config.stash[INVOCATION], config.stash[COMPARABILITY] = worker["gw_invocation"], worker["gw_comparability"]
    if worker["gw_replay"] is not None:
        config.stash[REPLAY] = set(worker["gw_replay"])


def make_session_facts(config: pytest.Config, settings: Settings, bench: Benchmark, inert: bool) -> Path:
    """The controller's session: its folder (refused when it holds another catalog version or budget), a damaged
    plan set aside, what is already scored (--gw-resume), the invocation, comparability and replay set."""
    session_dir = session_dir_for(config, settings).resolve()
    version = catalog_version(bench.catalog.root)
    budgets = {t.id: settings.max_steps or t.max_steps for t in bench.catalog.tasks}
    problem = reuse_problem(session_dir, version, budgets)
    if problem:
        raise pytest.UsageError(problem)
    config.stash[SESSION_DIR] = session_dir
    config.stash[CATALOG_VERSION] = version
    try:  # a damaged plan would leave the session impossible to continue: kept aside, the selection replans it
        plan_note = None if inert else set_aside_damaged_plan(session_dir)
    except RecordWriteError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[NOTES] = [plan_note] if plan_note else []
    # Damaged lines and damaged trajectories are not scored (named in the summary), so they are played again.
    records = read_session(session_dir).records if settings.resume or plan_note else []
    config.stash[SCORED_BEFORE] = {k: session_dir.name for k in scored_keys(records)}
    config.stash[INVOCATION] = session_facts.new_invocation()
    config.stash[COMPARABILITY] = session_facts.comparability(settings, bench.catalog, bench.models, version)
    replay = session_facts.replay_set(config, session_dir)
    if replay is not None:
        config.stash[REPLAY] = replay
    return session_dir
