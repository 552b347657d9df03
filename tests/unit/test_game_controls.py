"""Each role's computer-use controls in game.yaml are the ones docs/models.md states (the original's catalog)."""

from __future__ import annotations

import re
from pathlib import Path

from pytest_gameworld.catalog.loader import load_catalog

DOC = Path(__file__).resolve().parents[2] / "docs" / "models.md"
ROW = re.compile(r"^\| (\d\d-[\w-]+) \| (\w+) \| ([^|]+) \| (yes|no) \| (\d+)[^|]* \|$")


def documented() -> dict[tuple[str, str], tuple[list[str] | None, bool, int]]:
    """(game, role) → (keys, or None for any key; clicks; hold ms) from the doc's Game controls table."""
    section = DOC.read_text(encoding="utf-8").split("## Game controls", 1)[1]
    rows = {}
    for line in section.splitlines():
        m = ROW.match(line.strip())
        if m:
            keys = None if m[3].strip() == "any" else [k.strip() for k in m[3].split(",")]
            rows[m[1], m[2]] = (keys, m[4] == "yes", int(m[5]))
    return rows


def test_every_role_has_the_documented_keys_clicks_and_hold() -> None:
    table = documented()
    catalog = load_catalog()
    ours = {(g.id, name): role.cua for g in catalog.games.values() for name, role in g.roles.items()}
    assert set(ours) == set(table), "the table and the catalog name the same game roles"
    for where, cua in ours.items():
        keys, clicks, hold = table[where]
        assert (None if cua.any_key else cua.keys) == keys, where
        assert cua.any_key == (keys is None) and (cua.keys == [] if keys is None else True), where
        assert cua.clicks == clicks, where
        assert cua.default_hold_ms == hold, where


def test_the_table_is_read_whole() -> None:
    table = documented()
    assert len(table) == 35  # 34 games, Fireboy and Watergirl with two roles
    assert table["19-minesweeper", "player"] == (None, True, 200)
    assert table["01-2048", "player"] == (["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"], True, 200)
