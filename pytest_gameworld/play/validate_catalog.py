"""Whole-catalog validation: the files, and every task's score fields in the game's start state."""

from __future__ import annotations

from pathlib import Path

from ..catalog.contents import Catalog
from ..catalog.specs import CatalogError
from ..catalog.loader import load_catalog
from .evaluator import ScoreError, read_number
from ..browser.game_origin import GameFiles
from ..browser.remote_assets import AssetStore
from ..browser.sandbox import GameSession, HarnessError, find_browser, launch_browser


async def check_start_states(catalog: Catalog, browser_path: str | None = None,
                             assets: AssetStore | None = None) -> list[str]:
    """Open each task's game at its start and read its score fields; return the problems found. A page that
    needs internet assets it is not given is one problem for its game, naming the URLs."""
    from playwright.async_api import async_playwright

    problems: list[str] = []
    needs_assets: set[str] = set()
    files = GameFiles(catalog.games_dir)
    async with async_playwright() as pw:
        browser = await launch_browser(pw, find_browser(browser_path))
        for task in catalog.tasks:
            if task.game in needs_assets:
                continue
            game = catalog.games[task.game]
            session = await GameSession.open(browser, files, game, seed=0, url_suffix=task.url_suffix, assets=assets)
            try:
                state = await session.init({"seed": 0, "level": task.level, "difficulty": task.difficulty,
                                            "task": task.oracle_view(), **task.init})
                fields = task.score_fields + [r.field for r in task.requires]
                for path in fields:
                    try:
                        read_number(state, path)
                    except ScoreError as exc:
                        problems.append(f"{task.game}/{task.id}: {exc}")
            except HarnessError as exc:
                if "internet asset(s)" in str(exc):
                    needs_assets.add(task.game)
                    problems.append(str(exc))
                else:
                    problems.append(f"{task.game}/{task.id}: {exc}")
            finally:
                await session.close()
        await browser.close()
    return problems


async def validate(root: Path | None, browser_path: str | None = None, with_browser: bool = True,
                   assets: Path | None = None) -> tuple[Catalog | None, list[str]]:
    """Load the catalog and check it; the catalog (if it loaded) and the list of problems."""
    try:
        catalog = load_catalog(root)
        store = AssetStore.load(assets) if assets else None
    except (CatalogError, ValueError) as exc:
        return None, [str(exc)]
    problems = [f"{g}: no tasks" for g in catalog.games if not any(t.game == g for t in catalog.tasks)]
    if with_browser:
        problems += await check_start_states(catalog, browser_path, store)
    return catalog, problems


def upstream_summary(catalog: Catalog) -> list[str]:
    """An imported catalog's every declared game: its page present or why not, and what the totals hold."""
    lines = [f"page {game}: {state} ({catalog.declared_tasks.get(game, 0)} tasks)"
             for game, state in sorted(catalog.pages.items())]
    present = sum(state == "present" for state in catalog.pages.values())
    lines.append(f"{len(catalog.pages)} games declared ({present} with a page, {len(catalog.pages) - present} left "
                 f"out), {sum(catalog.declared_tasks.values())} tasks declared ({len(catalog.tasks)} playable)")
    return lines
