"""The gw_* fixtures; a user's conftest.py can override any of them."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
import pytest_asyncio

from ..agents import Agent, make_agent
from ..catalog.run_cases import Case
from ..catalog.contents import Catalog
from ..catalog.specs import GameSpec
from ..catalog.loader import load_catalog
from ..play.runner import RunConfig, seat_agents
from ..browser.game_origin import GameFiles
from ..browser.remote import BrowserUnreachable
from ..browser.host import BrowserHost
from ..browser.sandbox import GameSession
from .options import Settings
from .tracing import RunTrace
from ..records.sessions import new_attempt_dir
from ..browser.remote_assets import AssetStore
from ..records.comparability import run_facts
from .stash import ASSETS, CATALOG, CATALOG_VERSION, COMPARABILITY, INVOCATION, SESSION_DIR, SETTINGS


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
def gw_run_config(pytestconfig: pytest.Config, gw_case: Case, gw_settings: Settings, gw_session_dir: Path,
                  gw_catalog: Catalog) -> RunConfig:
    keep_frames, compact_frames = gw_settings.frames_for(bool(gw_case.model.provider))
    return RunConfig(
        item_id=gw_case.node_id, game=gw_case.game, task=gw_case.task, model=gw_case.model,
        seed=gw_case.seed(gw_settings.seed), repeat=gw_case.repeat,
        run_dir=new_attempt_dir(gw_session_dir / "runs" / gw_case.run_path),
        results_path=gw_session_dir / "results.jsonl", prompts_dir=gw_catalog.prompts_dir,
        realtime=gw_settings.realtime, obs=gw_settings.obs, max_steps=gw_settings.max_steps or None,
        keep_frames=keep_frames, compact_frames=compact_frames, frame_width=gw_settings.frame_width,
        catalog_version=pytestconfig.stash.get(CATALOG_VERSION, ""),
        catalog_source=gw_catalog.source, invocation=pytestconfig.stash.get(INVOCATION, ""),
        photographed=gw_settings.tracing != "off",
        comparability=run_facts(pytestconfig.stash.get(COMPARABILITY, {}), gw_case.model.name),
    )
