"""A game's markers: by slug (game_wordle) and by id (game_32_wordle), the name gate scopes and lists use."""

from __future__ import annotations

import subprocess
import sys

from pytest_gameworld.catalog.listing import catalog_rows
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.run_cases import build_cases
from pytest_gameworld.plugin.startup_checks import game_marker_problem


def test_every_item_carries_its_game_by_slug_and_by_id():
    catalog = load_catalog()
    cases = build_cases(catalog.tasks, catalog.games, [catalog.resolve_model("random")], 1)
    wordle = [c for c in cases if c.game.id == "32-wordle"]
    assert len(wordle) == 5 and all({"game_wordle", "game_32_wordle"} <= set(c.marks) for c in wordle)
    by_id = {c.task.id for c in cases if "game_32_wordle" in c.marks}
    assert by_id == {c.task.id for c in wordle}  # the id's marker selects exactly that game


def test_gameworld_list_selects_a_game_by_either_marker():
    catalog = load_catalog()
    for expr in ("game_32_wordle", "game_wordle"):
        rows = catalog_rows(catalog, "games", expr)
        assert [r[0] for r in rows[1:]] == ["32-wordle"], (expr, rows)


def test_a_misspelt_game_marker_is_named_with_the_closest_one():
    games = load_catalog().games.values()
    assert game_marker_problem("puzzle and not game_32_wordle", games) is None
    assert game_marker_problem("", games) is None
    problem = game_marker_problem("puzzle and game_wordel", games)
    assert problem == ("-m 'puzzle and game_wordel': 'game_wordel' marks no game of this catalog; "
                       "did you mean 'game_wordle'?")


def test_pytest_stops_on_a_misspelt_game_marker_instead_of_selecting_nothing(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                        "--gw-model", "random", "-m", "game_32_wordel"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 4 and "did you mean 'game_32_wordle'?" in r.stderr, r.stdout[-1000:] + r.stderr
