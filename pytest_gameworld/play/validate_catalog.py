"""Whole-catalog validation: the files, and every task's score fields in the game's start state."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..browser.faults import HarnessError
from ..browser.game_origin import GameFiles
from ..browser.launch import find_browser, launch_browser
from ..browser.remote_assets import AssetStore
from ..browser.sandbox import GameSession
from ..catalog.contents import Catalog
from ..catalog.loader import load_catalog
from ..catalog.specs import CatalogError, GameSpec, TaskSpec
from .evaluator import ScoreError, read_number
from .start_check import solved_at_start

Progress = Callable[[str], None]


async def check_start_states(catalog: Catalog, browser_path: str | None = None, assets: AssetStore | None = None,
                             progress: Progress | None = None) -> list[str]:
    """Open each task's game at its start and read its score fields; return the problems found. A page that
    needs internet assets it is not given is one problem for its game, naming the URLs.

    ``progress`` hears one line per game as it is done (a full catalog takes minutes).
    """
    from playwright.async_api import async_playwright

    problems: list[str] = []
    needs_assets: set[str] = set()
    files = GameFiles(catalog.games_dir)
    games = sorted({t.game for t in catalog.tasks})
    async with async_playwright() as pw:
        browser = await launch_browser(pw, find_browser(browser_path))
        for n, game_id in enumerate(games, 1):
            started, before = time.monotonic(), len(problems)
            tasks = [t for t in catalog.tasks if t.game == game_id]
            # Our games take init again on one page (the contract); an imported page gets a fresh one per task.
            problems += await _check_game(browser, files, catalog.games[game_id], tasks, assets, needs_assets,
                                          one_page=not catalog.source)
            if progress is not None:
                found = len(problems) - before
                progress(f"validate [{n}/{len(games)}] {game_id}: {len(tasks)} task(s), "
                         f"{f'{found} problem(s)' if found else 'ok'} ({time.monotonic() - started:.1f} s)")
        await browser.close()
    return problems


async def _check_game(browser: Any, files: GameFiles, game: GameSpec, tasks: list[TaskSpec],
                      assets: AssetStore | None, needs_assets: set[str], one_page: bool) -> list[str]:
    """Each task's score fields in its game's start state; the problems found. With ``one_page`` the tasks are
    initialised in turn on one page (a fault opens a fresh one for the next task)."""
    problems: list[str] = []
    session: GameSession | None = None
    try:
        for task in tasks:
            if game.id in needs_assets:
                break
            if session is None or not one_page or session.hung is not None:
                if session is not None:
                    await session.close()
                session = await GameSession.open(browser, files, game, seed=0, url_suffix=task.url_suffix,
                                                 assets=assets)
            found = await _check_task(session, task, needs_assets)
            if found and one_page:
                await session.close()
                session = None
            problems += found
    finally:
        if session is not None:
            await session.close()
    return problems


async def _check_task(session: GameSession, task: TaskSpec, needs_assets: set[str]) -> list[str]:
    """The task's score fields in the start state ``session`` reaches for it; the problems found (a game that
    needs internet assets it is not given is added to ``needs_assets``, its problem named once)."""
    problems: list[str] = []
    try:
        state = await session.init(task.init_config(0))
        for path in task.score_fields + [r.field for r in task.requires]:
            try:
                read_number(state, path)
            except ScoreError as exc:
                problems.append(f"{task.game}/{task.id}: {exc}")
        if (solved := solved_at_start(task, state)) is not None:
            problems.append(f"{task.game}/{task.id}: {solved}")
    except HarnessError as exc:
        if "internet asset(s)" in str(exc):
            needs_assets.add(task.game)
            problems.append(str(exc))
        else:
            problems.append(f"{task.game}/{task.id}: {exc}")
    return problems


async def validate(root: Path | None, browser_path: str | None = None, with_browser: bool = True,
                   assets: Path | None = None, progress: Progress | None = None) -> tuple[Catalog | None, list[str]]:
    """Load the catalog and check it; the catalog (if it loaded) and the list of problems."""
    try:
        catalog = load_catalog(root)
        store = AssetStore.load(assets) if assets else None
    except (CatalogError, ValueError) as exc:
        return None, [str(exc)]
    problems = [f"{g}: no tasks" for g in catalog.games if not any(t.game == g for t in catalog.tasks)]
    if with_browser:
        problems += await check_start_states(catalog, browser_path, store, progress)
    return catalog, problems


def upstream_summary(catalog: Catalog) -> list[str]:
    """An imported catalog's every declared game: its page present or why not, and what the totals hold."""
    lines = [f"page {game}: {state} ({catalog.declared_tasks.get(game, 0)} tasks)"
             for game, state in sorted(catalog.pages.items())]
    present = sum(state == "present" for state in catalog.pages.values())
    lines.append(f"{len(catalog.pages)} games declared ({present} with a page, {len(catalog.pages) - present} left "
                 f"out), {sum(catalog.declared_tasks.values())} tasks declared ({len(catalog.tasks)} playable)")
    return lines
