"""The game contract, for every game in the catalog, in real Chromium."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from pytest_gameworld.agents.builtin import random_args
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.actions import Proposal
from pytest_gameworld.play.evaluator import read_number
from pytest_gameworld.play.semantic import parse_semantic

pytestmark = pytest.mark.asyncio(loop_scope="session")
GAMES = sorted(load_catalog().games)


def action_script(game, n: int, seed: int = 3):
    """A fixed sequence of legal semantic actions for a game's first role."""
    role = next(iter(game.roles.values()))
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        c = rng.choice(role.controls)
        v = parse_semantic(Proposal(c.id, random_args(c, rng)), role, game.viewport, role.cua.default_hold_ms)
        assert v.validity == "valid", v.reason
        out.append(v.action)
    return out


async def play_script(open_game, game, seed: int, actions, drawing: bool = True) -> tuple[dict, bytes | None, GameSession]:
    """The state and the picture (as a run takes it) after playing the actions from a fresh page, and that page's
    session; without ``drawing``, as a run nobody sees plays it (drawing calls skipped, no picture)."""
    s = await open_game(game.id, seed)
    if not drawing:
        await s.skip_drawing()
    state = await s.init({"seed": seed, "level": 1})
    for a in actions:
        await s.execute(a)
        state = await s.state()
        if state["status"] == "terminal":
            state = await s.reset({})
    return (*await s.observe("png" if drawing else None), s)


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("game_id", GAMES)
async def test_loads_offline_and_reaches_ready_with_a_valid_state(open_game, catalog, game_id):
    game = catalog.games[game_id]
    s = await open_game(game_id, seed=5)
    state = await s.init({"seed": 5, "level": 1})
    assert state["status"] in ("ready", "playing")
    assert state["gameId"] == game_id and state["seed"] == 5
    assert {"isTerminal", "outcome", "reason"} <= set(state["terminal"])
    assert isinstance(state["game_state"], dict) and isinstance(state["metrics"], dict)
    assert isinstance(state["gameTimeMs"], int) and isinstance(state["timestampMs"], (int, float))
    for task in (t for t in catalog.tasks if t.game == game_id):
        for path in task.score_fields:
            read_number(state, path)  # raises ScoreError if missing or not finite
    await s.execute(action_script(game, 1)[0])
    # A run reads the picture back from the canvas (no compositor wait): it must be what the screen shows.
    _, frame = await s.observe("png")
    assert s.captures == {"canvas": 1}, f"not read back from the canvas: {s.captures}"
    shown = pixels(await s.screenshot("png"))
    assert ImageChops.difference(pixels(frame), shown).getbbox() is None, "canvas read-back differs from the screen"
    assert s.blocked == [] and s.errors == []


@pytest.mark.parametrize("game_id", GAMES)
async def test_reset_works_in_place(open_game, catalog, game_id):
    game = catalog.games[game_id]
    s = await open_game(game_id)
    first = await s.init({"seed": 1, "level": 1})
    await s.eval("() => { window.__notReloaded = true; }")
    for a in action_script(game, 5):
        await s.execute(a)
    before = await s.state()
    assert before["gameTimeMs"] > 0
    after = await s.reset({})
    assert await s.eval("() => window.__notReloaded === true")
    assert after["gameTimeMs"] == 0
    assert after["metrics"]["attempts"] == before["metrics"]["attempts"] + 1
    assert after["game_state"] == first["game_state"]


@pytest.mark.parametrize("game_id", GAMES)
async def test_same_seed_and_actions_give_the_same_state(open_game, catalog, game_id):
    game = catalog.games[game_id]
    script = action_script(game, 25)
    a, frame_a, _ = await play_script(open_game, game, 11, script)
    b, frame_b, _ = await play_script(open_game, game, 11, script)
    assert a == b
    assert frame_a == frame_b, "same seed and actions, different frames"
    unseen, _, _ = await play_script(open_game, game, 11, script, drawing=False)
    assert unseen == a, "a run nobody sees (drawing skipped) must reach the same state"
    # Drawing skipped: shown just above to reach the state a drawn run reaches.
    c, _, page_c = await play_script(open_game, game, 12, script, drawing=False)
    if await _supports_seed(page_c):
        assert c["game_state"] != a["game_state"], "a different seed should change a random game"
    else:  # a fixed-layout game declares that the seed changes nothing
        assert c["game_state"] == a["game_state"], "capabilities.supports_seed is false, yet the seed mattered"


async def _supports_seed(s: GameSession) -> bool:
    caps = await s.eval("() => (window.gameAPI && window.gameAPI.capabilities) || {}")
    return caps.get("supports_seed", True) is not False



@pytest.mark.parametrize("game_id", GAMES)
async def test_observable_fields_exist_at_the_start_of_every_task_and_none_is_hidden(open_game, catalog, game_id):
    """What --gw-obs state|both shows: every declared field is in the state each task starts from (one page per
    game, initialised for each task in turn), and nothing on the game's hidden list is among them."""
    from pytest_gameworld.catalog.specs import overlaps
    from pytest_gameworld.play.evaluator import read_path

    game = catalog.games[game_id]
    assert game.observable, f"{game_id} declares no observable fields"
    assert not [(o, h) for o in game.observable for h in game.hidden if overlaps(o, h)]
    s = await open_game(game_id, seed=3)
    for task in (t for t in catalog.tasks if t.game == game_id):
        state = await s.init({"seed": 3, "level": task.level, "difficulty": task.difficulty,
                              "task": task.oracle_view(), **task.init})
        missing = []
        for path in game.observable:
            try:
                read_path(state, path)
            except KeyError:
                missing.append(path)
        assert not missing, f"{game_id} task {task.id}: observable field(s) not in its starting state: {missing}"
