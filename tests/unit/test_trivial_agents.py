"""The trivial policies: const:<control>, const-key:<KEY>, cycle:<a>+<b> parsed from --gw-model, checked against a
game, their choices step by step, and the set calibrate plays per game."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_gameworld.agents.base import Observation
from pytest_gameworld.agents.factory import make_agent
from pytest_gameworld.agents.trivial import ConstAgent, ConstKeyAgent, fixed_args, trivial_problem, trivial_set
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir
from pytest_gameworld.catalog.run_cases import split_model_refs
from pytest_gameworld.catalog.specs import CatalogError
from pytest_gameworld.play.semantic import classify

COOP = Path(__file__).resolve().parent.parent / "fixtures" / "coop_catalog"


@pytest.fixture(scope="module")
def cat():
    return load_catalog(default_catalog_dir())


def play(agent, game, role_name: str, steps: int) -> list:
    """The agent's proposals over some steps of a run (no browser: the trivial agents never read the state)."""
    ctx = SimpleNamespace(game=game, role_name=role_name, role=game.roles[role_name], seed=0)
    inner = getattr(agent, "agent", agent)  # make_agent wraps built-ins in SimulatedLatency

    async def run() -> list:
        await inner.begin(ctx)
        return [(await inner.act(Observation(k, 1, {}))).calls[0] for k in range(steps)]

    return asyncio.run(run())


def test_the_three_forms_resolve_from_the_catalog_with_their_argument(cat):
    const, key, cycle = (cat.resolve_model(r) for r in ("const:jump_right", "const-key:ArrowUp",
                                                          "cycle:move_left+move_right"))
    assert (const.name, const.builtin, const.interface, const.extra["arg"]) == ("const:jump_right", "const",
                                                                               "generalist", "jump_right")
    assert (key.builtin, key.interface) == ("const-key", "cua")
    assert cycle.extra["arg"] == "move_left+move_right"
    # --gw-model splits on commas: a cycle's "+" keeps it one model
    assert split_model_refs(["cycle:move_left+move_right,noop"]) == ["cycle:move_left+move_right", "noop"]
    assert isinstance(make_agent(const).agent, ConstAgent) and isinstance(make_agent(key).agent, ConstKeyAgent)


def test_const_presses_one_control_every_step_and_cycle_turns_them_in_order(cat):
    game = cat.games["02-another-gentlemans-adventure"]
    calls = play(make_agent(cat.resolve_model("const:jump_right")), game, "player", 4)
    assert [(c.name, c.args) for c in calls] == [("jump_right", {})] * 4
    cycled = play(make_agent(cat.resolve_model("cycle:move_left+move_right+jump")), game, "player", 5)
    assert [c.name for c in cycled] == ["move_left", "move_right", "jump", "move_left", "move_right"]
    assert all(classify([c], "generalist", game.roles["player"], game.viewport).validity == "valid" for c in cycled)


def test_an_alias_names_the_control_and_a_control_with_arguments_gets_fixed_legal_ones(cat):
    mine = cat.games["19-minesweeper"]
    calls = play(make_agent(cat.resolve_model("const:reveal_cell")), mine, "player", 3)
    assert len({str(c.args) for c in calls}) == 1 and "cell" in calls[0].args
    assert classify(calls[:1], "generalist", mine.roles["player"], mine.viewport).validity == "valid"
    words = cat.games["32-wordle"].roles["player"].control("type_text")
    assert fixed_args(words) == {"text": "a"}


def test_const_key_presses_a_legal_key_and_an_illegal_one_is_refused_naming_the_allowed(cat):
    breakout = cat.games["05-breakout"]
    calls = play(make_agent(cat.resolve_model("const-key:arrowleft")), breakout, "player", 2)
    assert [(c.name, c.args) for c in calls] == [("press_key", {"key": "ArrowLeft"})] * 2  # the game's spelling
    assert classify(calls[:1], "cua", breakout.roles["player"], breakout.viewport).validity == "valid"
    problem = trivial_problem(cat.resolve_model("const-key:ArrowUp"), breakout)
    assert problem == ("const-key:ArrowUp: 05-breakout role 'player' does not allow key 'ArrowUp'; allowed keys: "
                       "ArrowLeft, ArrowRight")
    space = play(make_agent(cat.resolve_model("const-key:Space")), cat.games["13-flappy-bird"], "player", 1)
    assert space[0].args == {"key": "Space"}


def test_an_unknown_control_or_a_missing_argument_is_one_line_naming_what_exists(cat):
    flappy = cat.games["13-flappy-bird"]
    problem = trivial_problem(cat.resolve_model("cycle:move_left+move_right"), flappy)
    assert problem == ("cycle:move_left+move_right: 13-flappy-bird role 'player' has no control 'move_left'; "
                       "its controls: wait, flap")
    assert trivial_problem(cat.resolve_model("const:flap"), flappy) is None
    assert trivial_problem(cat.resolve_model("noop"), flappy) is None  # not a trivial spec: not judged here
    with pytest.raises(CatalogError, match=r"const needs its argument: --gw-model const:<control>"):
        play(make_agent(cat.resolve_model("const")), flappy, "player", 1)
    with pytest.raises(CatalogError, match=r"cycle:<control>\+<control>"):
        play(make_agent(cat.resolve_model("cycle:flap+")), flappy, "player", 1)


def test_a_two_role_game_plays_the_same_name_for_every_role_or_names_the_role_lacking_it(cat):
    coop = load_catalog(COOP)
    game = coop.games["99-coop-pads"]
    blue, red = game.roles["blue"], game.roles["red"]
    only_blue = next(c.id for c in blue.controls if red.control(c.id) is None)
    problem = trivial_problem(cat.resolve_model(f"const:{only_blue}"), game)
    assert problem is not None and "role 'red'" in problem and "its controls:" in problem
    shared = [c.id for c in blue.controls if red.control(c.id) and c.id != "wait"]
    assert trivial_set(game) == ["noop", *(f"const:{c}" for c in shared)] + (
        [s for s in trivial_set(game) if s.startswith("cycle:")])


def test_the_calibrated_set_is_noop_every_control_and_the_left_right_cycle(cat):
    assert trivial_set(cat.games["05-breakout"]) == ["noop", "const:move_left", "const:move_right",
                                                     "cycle:move_left+move_right"]
    assert trivial_set(cat.games["13-flappy-bird"]) == ["noop", "const:flap"]  # no movement pair: no cycle
    assert trivial_set(cat.games["16-hextris"])[-1] == "cycle:rotate_left+rotate_right"
    for game in cat.games.values():  # every policy of every set plays its game
        assert all(trivial_problem(cat.resolve_model(p), game) is None for p in trivial_set(game)), game.id
