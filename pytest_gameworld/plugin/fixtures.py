"""The gw_* fixtures; a user's conftest.py can override any of them."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from ..agents import Agent, make_agent
from ..browser.game_origin import GameFiles
from ..browser.host import BrowserHost
from ..browser.remote import BrowserUnreachable
from ..browser.remote_assets import AssetStore
from ..browser.sandbox import GameSession
from ..catalog.contents import Catalog
from ..catalog.loader import load_catalog
from ..catalog.run_cases import Case
from ..play.runner import RunConfig, seat_agents
from . import hold_back
from .options import Settings
from .run_engine import RunEngine, chosen_concurrency, process_count
from .run_setup import run_config
from .stash import ASSETS, CASES, CATALOG, ENGINE, SESSION_DIR, SETTINGS
from .tracing import RunTrace


@pytest.fixture(scope="session")
def gw_settings(pytestconfig: pytest.Config) -> Settings:
    return pytestconfig.stash.get(SETTINGS, None) or Settings.from_config(pytestconfig)


@pytest.fixture(scope="session")
def gw_catalog(pytestconfig: pytest.Config, gw_settings: Settings) -> Catalog:
    return pytestconfig.stash.get(CATALOG, None) or load_catalog(gw_settings.catalog)


@pytest.fixture(scope="session")
def gw_session_dir(pytestconfig: pytest.Config, gw_settings: Settings) -> Path:
    return pytestconfig.stash.get(SESSION_DIR, None) or gw_settings.results / "session"


@pytest.fixture(scope="session")
def gw_files(gw_catalog: Catalog) -> GameFiles:
    """The catalog's game files, answered inside each browser context (no server)."""
    return GameFiles(gw_catalog.games_dir)


@pytest.fixture(scope="session")
def gw_assets(pytestconfig: pytest.Config, gw_settings: Settings) -> AssetStore | None:
    """--gw-assets: the pages' recorded internet assets, or None (such requests are refused and named)."""
    if ASSETS in pytestconfig.stash:
        return pytestconfig.stash[ASSETS]
    return AssetStore.load(gw_settings.assets) if gw_settings.assets else None


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def gw_browser(gw_settings: Settings) -> AsyncIterator[BrowserHost]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        host = BrowserHost(playwright, gw_settings, os.environ.get("PYTEST_XDIST_WORKER"))
        yield host
        await host.close()


@pytest.fixture
def gw_case(request: pytest.FixtureRequest) -> Case:
    return request.param


@pytest.fixture
def gw_trace(gw_settings: Settings, gw_run_config: RunConfig) -> RunTrace:
    """--gw-tracing: the run's trace, started by gw_game on its context before the game page loads."""
    return RunTrace(gw_settings.tracing, gw_settings.page_timeout, gw_run_config.run_dir)


@pytest_asyncio.fixture(loop_scope="session")
async def gw_game(request: pytest.FixtureRequest, gw_browser: BrowserHost, gw_files: GameFiles, gw_case: Case,
                  gw_settings: Settings, gw_assets: AssetStore | None, gw_trace: RunTrace) -> AsyncIterator[GameSession]:
    try:
        session = await gw_browser.open(gw_files, gw_case.game, gw_case.seed(gw_settings.seed),
                                        gw_case.task.url_suffix, gw_assets, gw_trace)
    except BrowserUnreachable as exc:
        # No later run could start either: stop the session after this one (xdist passes it on).
        request.session.shouldstop = str(exc)
        raise
    finally:
        if gw_trace.problem:
            request.node.user_properties.append(("trace_problem", gw_trace.problem))
    try:
        yield session
    finally:
        await gw_browser.release(session)


@pytest.fixture
def gw_agent(gw_case: Case) -> Agent:
    return make_agent(gw_case.model)


@pytest.fixture
def gw_agents(gw_case: Case, gw_agent: Agent) -> dict[str, Agent]:
    """One agent per role: gw_agent plays the first role, each further role a fresh agent of the same spec."""
    return seat_agents(gw_agent, gw_case.game, gw_case.model)


@pytest.fixture
def gw_run_config(pytestconfig: pytest.Config, gw_case: Case) -> RunConfig:
    """A run of the item's case in a new attempt folder (for a test of your own that plays with play())."""
    return run_config(pytestconfig, gw_case)


@pytest.fixture(scope="session")
def gw_engine(request: pytest.FixtureRequest) -> Iterator[RunEngine]:
    """This process's runs in flight (--gw-concurrency): benchmark items wait on it for their own run."""
    config = request.config
    limit = chosen_concurrency(config.stash[SETTINGS], config.stash.get(CASES, []), process_count(config))
    engine = RunEngine(config, limit)
    engine.hold = lambda case, in_flight: hold_back.decide(config, case, in_flight)
    engine.attach(request.session)
    config.stash[ENGINE] = engine
    try:
        yield engine
    finally:
        engine.close()
