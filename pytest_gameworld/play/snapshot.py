"""Gallery screenshots: play a task a few steps with a built-in agent and save what the page shows."""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..agents import make_agent
from ..browser.game_origin import GameFiles
from ..browser.launch import find_browser, launch_browser
from ..browser.sandbox import GameSession
from ..catalog.contents import Catalog
from ..catalog.specs import TaskSpec
from .runner import RunConfig, play


def pick_task(catalog: Catalog, game_id: str, task_id: str | None) -> TaskSpec:
    """The named task of a game, else its first task."""
    tasks = [t for t in catalog.tasks if t.game == game_id]
    if not tasks:
        raise ValueError(f"{game_id}: no such game, or it has no tasks")
    if task_id is None:
        return tasks[0]
    for t in tasks:
        if t.id == task_id:
            return t
    raise ValueError(f"{game_id}: no task {task_id!r} (tasks: {', '.join(t.id for t in tasks)})")


async def snapshot(catalog: Catalog, game_ids: list[str], out: Path, steps: int, agent: str, seed: int,
                   task_id: str | None = None, browser_path: str | None = None) -> list[Path]:
    """Play `steps` steps of each game's task with a built-in agent; save one PNG per game under `out`."""
    from playwright.async_api import async_playwright

    out.mkdir(parents=True, exist_ok=True)
    spec = catalog.resolve_model(agent)
    written: list[Path] = []
    files = GameFiles(catalog.games_dir)
    async with async_playwright() as pw:
        browser = await launch_browser(pw, find_browser(browser_path))
        for game_id in game_ids:
            task = pick_task(catalog, game_id, task_id)
            session = await GameSession.open(browser, files, catalog.games[game_id], seed, task.url_suffix)
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    cfg = RunConfig(f"snapshot/{task.id}", catalog.games[game_id], task, spec, seed, 0,
                                    Path(tmp) / "run", Path(tmp) / "results.jsonl", catalog.prompts_dir,
                                    max_steps=max(1, steps), photographed=True)
                    await play(session, make_agent(spec), cfg)
                path = out / f"{game_id}.png"
                path.write_bytes(await session.screenshot("png"))
                written.append(path)
            finally:
                await session.close()
        await browser.close()
    return written
