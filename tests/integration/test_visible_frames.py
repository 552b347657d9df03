"""Games that draw only the frames a picture can show (docs/catalog.md) show what drawing every frame shows."""

from __future__ import annotations

import dataclasses
import random

import pytest
from PIL import ImageChops
from test_contract import action_script, pixels

from pytest_gameworld.catalog.loader import load_catalog

pytestmark = pytest.mark.asyncio(loop_scope="session")
CATALOG = load_catalog()
SKIPPING = sorted(g for g, spec in CATALOG.games.items()
                  if "frameCanBeSeen" in (CATALOG.games_dir / g / "game.js").read_text(encoding="utf-8"))


async def pictures(open_game, game, actions, every_frame: bool) -> list[bytes | None]:
    """The picture after each action (None where the episode ended: end panels differ for humans)."""
    s = await open_game(game.id, 5)
    if every_frame:  # what a human's browser draws: every frame
        await s.eval("() => { window.__GW_HARNESS__ = false; }")
    await s.init({"seed": 5, "level": 1})
    out: list[bytes | None] = []
    for a in actions:
        await s.execute(a)
        state, shot = await s.observe("png")
        out.append(None if state["status"] == "terminal" else shot)
        if state["status"] == "terminal":
            await s.reset({})
    return out


@pytest.mark.parametrize("game_id", SKIPPING)
async def test_skipped_frames_never_show(open_game, catalog, game_id):
    game = catalog.games[game_id]
    rng = random.Random(9)
    # Holds of any multiple of 50 ms, shorter than the catalog's, so animations overlap across steps.
    actions = [dataclasses.replace(a, duration_ms=rng.choice([50, 100, 150, 200, 250]))
               for a in action_script(game, 20)]
    seen = await pictures(open_game, game, actions, every_frame=False)
    drawn = await pictures(open_game, game, actions, every_frame=True)
    for step, (a, b) in enumerate(zip(seen, drawn)):
        if a is not None and b is not None:
            assert ImageChops.difference(pixels(a), pixels(b)).getbbox() is None, f"step {step}: a skipped frame shows"
