"""Real Chromium, the shipped catalog and a helper that plays one run through the real runner."""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from pytest_gameworld.agents import Agent, make_agent
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.launch import find_browser, launch_browser
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.providers import provider
from pytest_gameworld.catalog.specs import ModelSpec, TaskSpec
from pytest_gameworld.play.runner import RunConfig, play
from pytest_gameworld.records.run_record import RunRecord

PlayFn = Callable[..., Awaitable[tuple[RunRecord, dict[str, Any], Path]]]

# A suite started in the background of a non-interactive shell (`nohup ./gw test &`) inherits SIGINT ignored, and
# so would every session these tests start and then interrupt: they would ignore the Ctrl-C under test. A handler
# of our own is reset to the default in each child, where Python installs its KeyboardInterrupt again.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def files(catalog: Catalog) -> GameFiles:
    return GameFiles(catalog.root / "games")


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        b = await launch_browser(pw, find_browser(None))
        yield b
        await b.close()


@pytest_asyncio.fixture(loop_scope="session")
async def open_game(browser: Any, files: GameFiles, catalog: Catalog):
    """Open a game page (closed at teardown)."""
    opened: list[GameSession] = []

    async def _open(game_id: str, seed: int = 1) -> GameSession:
        s = await GameSession.open(browser, files, catalog.games[game_id], seed)
        opened.append(s)
        return s

    yield _open
    for s in opened:
        await s.close()


def find_task(catalog: Catalog, task_id: str) -> TaskSpec:
    return next(t for t in catalog.tasks if t.id == task_id)


@pytest_asyncio.fixture(loop_scope="session")
async def play_task(open_game, catalog: Catalog, tmp_path: Path) -> PlayFn:
    """Play one task with a model spec name or an agent, through the real runner."""
    counter = iter(range(1000))

    async def _play(task_id: str, model: str | Agent, seed: int = 7, realtime: bool = False,
                    max_steps: int | None = None, run_dir: Path | None = None, model_spec: ModelSpec | None = None,
                    obs: str = "screenshot", session: GameSession | None = None):
        task = find_task(catalog, task_id)
        spec = model_spec or catalog.resolve_model(model if isinstance(model, str) else "noop")
        agent = make_agent(spec) if isinstance(model, str) else model
        if not isinstance(model, str) and model_spec is None:
            spec = spec.model_copy(update={"name": type(model).__name__, "interface": model.interface})
        run_dir = run_dir or tmp_path / f"run{next(counter)}"
        cfg = RunConfig(item_id=f"{task.game}/{task.id}", game=catalog.games[task.game], task=task, model=spec,
                        seed=seed, repeat=0, run_dir=run_dir, results_path=tmp_path / "results.jsonl",
                        prompts_dir=catalog.root / "prompts", realtime=realtime, max_steps=max_steps,
                        obs=obs)
        session = session or await open_game(task.game, seed)  # a test's own page, to look at it afterwards
        record, final = await play(session, agent, cfg)
        return record, final, run_dir / "steps.jsonl"

    return _play


UPSTREAM_FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"


@pytest.fixture
def served_spec(serve, catalog: Catalog) -> Callable[[str], tuple[ModelSpec, Any]]:
    """A catalog spec pointed at its own `gameworld serve` (random policy) on loopback: the spec and the server."""

    def _spec(name: str) -> tuple[ModelSpec, Any]:
        server = serve(provider(str(catalog.resolve_model(name).provider)).wire)
        # A variable nobody sets and no key required: the SDK sends a placeholder key, nothing is patched.
        return catalog.resolve_model(name, {"endpoint.base_url": server.url, "endpoint.api_key_env": "GW_NO_SUCH_KEY",
                                            "endpoint.api_key_required": False, "extra.retry_backoff_s": 0.01}), server

    return _spec


@pytest.fixture(scope="session")
def upstream() -> Catalog:
    """The test-only upstream checkout (tests/fixtures/upstream_checkout)."""
    return load_catalog(UPSTREAM_FIXTURE)


@pytest_asyncio.fixture(loop_scope="session")
async def open_upstream(browser: Any, upstream: Catalog):
    """Open a game of the upstream fixture with a seed and a URL suffix (closed at teardown)."""
    files = GameFiles(upstream.games_dir)
    opened: list[GameSession] = []

    async def _open(game_id: str, seed: int = 1, suffix: str | None = None) -> GameSession:
        s = await GameSession.open(browser, files, upstream.games[game_id], seed, suffix)
        opened.append(s)
        return s

    yield _open
    for s in opened:
        await s.close()


# Known failures on main at the end of session 2 (the full suite run after the concurrency, truth, cache and gym
# merges), each a regression to fix, listed in the closing note; kept running so that a fix shows as XPASS.
KNOWN_FAILING = {
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if f"{item.path.name}::{item.name}" in KNOWN_FAILING:
            item.add_marker(pytest.mark.xfail(reason="known regression after the session-2 merges (closing note)",
                                              strict=False))
