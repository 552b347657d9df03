"""A game's markers: by slug (game_wordle) and by id (game_32_wordle), the name gate scopes and lists use."""

from __future__ import annotations

from pytest_gameworld.catalog.listing import catalog_rows
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.run_cases import build_cases


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
