"""States that cheat are faults with their cause, never successes: a page whose start state already meets the
task, and a page that puts another gameAPI object in place mid-run (hostile copies of 01-2048)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hostile_pages import build_catalog, game_id, task_id

from pytest_gameworld.agents import make_agent
from pytest_gameworld.browser.faults import HarnessError
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.host import BrowserHost
from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.runner import RunConfig, play
from pytest_gameworld.play.validate_catalog import validate
from pytest_gameworld.plugin.options import Settings

ASYNC = pytest.mark.asyncio(loop_scope="session")
CHEATS = ["solved-at-load", "swap-api", "nan-score", "navigate-away", "dialogs"]


@pytest.fixture(scope="module")
def cheating(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_catalog(tmp_path_factory.mktemp("cheating") / "catalog", CHEATS)


async def play_one(catalog: Catalog, game: str, run_dir: Path) -> tuple[Any, dict[str, Any]]:
    """Play the game's task (oracle, 5 steps); the record or the fault raised, and the line results.jsonl got."""
    from playwright.async_api import async_playwright

    task = next(t for t in catalog.tasks if t.game == game)
    spec = catalog.resolve_model("oracle")
    cfg = RunConfig(item_id=f"{game}/{task.id}", game=catalog.games[game], task=task, model=spec, seed=5, repeat=0,
                    run_dir=run_dir, results_path=run_dir.parent / "results.jsonl",
                    prompts_dir=catalog.root / "prompts", max_steps=5)
    async with async_playwright() as pw:
        host = BrowserHost(pw, Settings())
        try:
            session = await host.open(GameFiles(catalog.games_dir), catalog.games[game], 5)
            try:
                outcome: Any = (await asyncio.wait_for(play(session, make_agent(spec), cfg), 120))[0]
            except HarnessError as exc:
                outcome = exc
            finally:
                await host.release(session)
        finally:
            await host.close()
    return outcome, json.loads(cfg.results_path.read_text().splitlines()[-1])


@ASYNC
async def test_a_task_solved_before_any_action_is_a_fault_naming_it(cheating, tmp_path):
    catalog = load_catalog(cheating)
    fault, record = await play_one(catalog, game_id("solved-at-load"), tmp_path / "solved")
    assert isinstance(fault, HarnessError), fault
    assert record["status"] == "error" and record["success"] is not True and record["steps"] == 0, record
    assert f"task {task_id('solved-at-load')} is already solved at its start, before any action" in record["error"]
    assert "game_state.level = 32, target 32" in record["error"]


@ASYNC
async def test_a_gameapi_replaced_mid_run_is_a_fault_not_a_4096_tile(cheating, tmp_path):
    catalog = load_catalog(cheating)
    fault, record = await play_one(catalog, game_id("swap-api"), tmp_path / "swap")
    assert isinstance(fault, HarnessError), fault
    assert record["status"] == "error" and record["success"] is not True, record
    assert "window.gameAPI was replaced by another object after init" in record["error"], record["error"]
    steps = [json.loads(line) for line in (tmp_path / "swap" / "steps.jsonl").read_text().splitlines()]
    assert all(s.get("best", 0) < 4096 for s in steps), "no score was read from the swapped-in object"


@ASYNC
async def test_a_nan_score_is_named_nan(cheating, tmp_path):
    """Issue 37 item 10: the state crosses as JSON text, where NaN would be null and the fault said 'None'."""
    catalog = load_catalog(cheating)
    fault, record = await play_one(catalog, game_id("nan-score"), tmp_path / "nan")
    assert isinstance(fault, HarnessError) and record["status"] == "error", record
    assert record["error"].endswith("score field 'game_state.level' is NaN, not a finite number"), record["error"]


@ASYNC
async def test_a_page_that_navigated_away_says_so(cheating, tmp_path):
    """Issue 37 item 10: not "TypeError … reading 'getState'", but what happened."""
    catalog = load_catalog(cheating)
    fault, record = await play_one(catalog, game_id("navigate-away"), tmp_path / "away")
    assert isinstance(fault, HarnessError) and record["status"] == "error", record
    assert "window.gameAPI is gone: the page navigated away to about:blank" in record["error"], record["error"]


@ASYNC
async def test_dialogs_are_dismissed_and_written_down_on_their_step(cheating, tmp_path):
    catalog = load_catalog(cheating)
    record, line = await play_one(catalog, game_id("dialogs"), tmp_path / "dialogs")
    assert not isinstance(record, Exception) and line["status"] == "ok" and line["steps"] == 5, line
    steps = [json.loads(x) for x in (tmp_path / "dialogs" / "steps.jsonl").read_text().splitlines()]
    seen = [s.get("page_dialogs") for s in steps if s.get("event") == "step"]
    assert seen[0] == ['alert("you pressed a key") dismissed'], seen
    assert all(d == ['confirm("again?") dismissed'] for d in seen[1:]), seen


@ASYNC
async def test_the_untouched_game_still_plays(cheating, tmp_path):
    catalog = load_catalog(cheating)
    record, line = await play_one(catalog, "01-2048", tmp_path / "plain")
    assert not isinstance(record, Exception) and line["status"] == "ok" and line["steps"] == 5, line


@ASYNC
async def test_validate_names_a_task_already_solved_at_its_start(cheating):
    _, problems = await validate(cheating)
    solved = [p for p in problems if "already solved at its start" in p]
    assert solved == [p for p in problems if p.startswith(f"{game_id('solved-at-load')}/")] and len(solved) == 1, \
        problems
    assert [p for p in problems if p.startswith(f"{game_id('nan-score')}/")] == [
        f"{game_id('nan-score')}/{task_id('nan-score')}: score field 'game_state.level' is NaN, not a finite number"]
    assert not [p for p in problems if p.startswith("01-2048/")], problems
