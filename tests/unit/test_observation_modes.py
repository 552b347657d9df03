"""--gw-obs: games' observable and hidden declarations, the state text, and obs modes kept apart like protocols."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from run_records import record

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir
from pytest_gameworld.catalog.specs import CatalogError
from pytest_gameworld.play.prompt_sections import STATE_HEADING, state_text
from pytest_gameworld.plugin.startup_checks import obs_problem
from pytest_gameworld.records.comparability import deviations, session_facts
from pytest_gameworld.records.merge import Source, refusal
from pytest_gameworld.records.run_record import RunKey, latest_attempts
from pytest_gameworld.report.aggregate import aggregate
from pytest_gameworld.report.gate import compare

UPSTREAM = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"


def _rec(obs: str | None = None, progress: float = 0.5, **extra):
    rec = {"item": "puzzle/01-2048/01_01[m]", "task": "01_01", "model": "m", "repeat": 0, "seed": 1,
           "protocol": "paused", "status": "ok", "success": False, "progress": progress, "genre": "puzzle",
           "game": "01-2048", "level": 4, "interface": "generalist", "max_steps": 100, "invalid_ntc": 0,
           "invalid_oos": 0, "valid": 1, "steps": 1, "sec_per_step": 0.1, **extra}
    if obs is not None:
        rec["obs"] = obs
    return record(**rec)


def test_every_shipped_game_declares_what_its_screen_shows_and_nothing_it_hides():
    for game in load_catalog().games.values():
        assert game.observable, f"{game.id}: no observable fields"
        for seen in game.observable:
            assert not any(seen == h or seen.startswith(h + ".") or h.startswith(seen + ".") for h in game.hidden)
    sweeper = load_catalog().games["19-minesweeper"]
    assert "metrics.correct_flags" in sweeper.hidden, "which flags sit on mines is what the screen keeps secret"


@pytest.mark.parametrize("hidden,shown", [("game_state.board", "game_state.board"), ("game_state", "game_state.score"),
                                          ("game_state.board.0", "game_state.board")])
def test_an_observable_field_that_shows_a_hidden_one_is_refused_naming_file_and_field(tmp_path, hidden, shown):
    root = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), root)
    f = root / "games" / "19-minesweeper" / "game.yaml"
    f.write_text(f.read_text().replace("hidden: [metrics.correct_flags", f"hidden: [{hidden}, metrics.correct_flags"))
    with pytest.raises(CatalogError, match=rf"19-minesweeper/game.yaml.*observable field '{shown}' shows "
                                           rf"hidden field '{hidden}'"):
        load_catalog(root)


def test_the_state_text_shows_the_declared_fields_compactly_and_a_missing_one_as_null():
    state = {"game_state": {"score": 12, "board": [[0, 2], [4, 0]], "player": {"x": 1.23456, "y": 2.0}},
             "metrics": {"moves": 3, "secret": 9}}
    text = state_text(state, ["game_state.score", "game_state.board", "game_state.player", "metrics.moves",
                              "game_state.gone"])
    assert text.splitlines() == [STATE_HEADING, "score: 12", "board: [[0,2],[4,0]]", 'player: {"x":1.23,"y":2.0}',
                                 "metrics.moves: 3", "gone: null"]
    assert "secret" not in text and "9" not in text


def test_obs_modes_are_their_own_runs_rows_and_deviation():
    shot, state, both = _rec(), _rec("state"), _rec("both")
    assert len({RunKey.of(shot), RunKey.of(state), RunKey.of(both)}) == 3
    assert RunKey.of(shot) == RunKey.of(_rec("screenshot")), "an older record without the field played screenshots"
    assert len(latest_attempts([shot, state, both]).scored) == 3
    assert sorted(aggregate([shot, state, both])) == ["m", "m [both]", "m [state]"]
    assert sorted(aggregate([_rec("state", protocol="realtime")])) == ["m [rt] [state]"]
    facts = session_facts(step_budget=0, task_budgets=[100], protocol="paused", model_overrides={}, endpoints={},
                          catalog_origin="shipped", catalog_version="v", shipped_catalog=True, obs="state")
    assert deviations(facts) == ["observation state instead of screenshot"]
    assert deviations({**facts, "obs": "screenshot"}) == []


def test_the_gate_does_not_pair_runs_of_different_obs_modes():
    cmp = compare([_rec(progress=0.9)], [_rec("state", progress=0.1)])
    assert cmp.shared == 0 and any("observation mode" in n for n in cmp.notes)
    assert compare([_rec(progress=0.9)], [_rec(progress=0.1)]).shared == 1


def test_merge_refuses_sessions_of_different_obs_modes():
    a, b = Source(Path("a"), None, [_rec()]), Source(Path("b"), None, [_rec("state")])
    problem = refusal([a, b])
    assert problem is not None and "obs" in problem


def test_state_or_both_over_games_without_declarations_is_one_line():
    upstream = load_catalog(UPSTREAM)
    for mode in ("state", "both"):
        problem = obs_problem(mode, upstream.games.values())
        assert problem is not None and "\n" not in problem and problem.startswith(f"--gw-obs {mode}: ")
        assert "upstream" in problem
    assert obs_problem("screenshot", upstream.games.values()) is None
    assert obs_problem("state", load_catalog().games.values()) is None
