"""The original harness's computer-action rules, in one module with one return contract (no browser, no SDK)."""

from __future__ import annotations

import math

import pytest

from pytest_gameworld.agents.providers import anthropic_messages, gemini, openai_responses
from pytest_gameworld.agents.providers.original_actions import (
    drag_or_hold,
    hold,
    key_press,
    no_action,
    pointer_move,
    scroll_direction,
    scroll_key,
    split_keys,
)
from pytest_gameworld.catalog.specs import CuaControls, Viewport
from pytest_gameworld.play.actions import Proposal, parse_cua


@pytest.mark.parametrize("end, kind", [((10, 20), "click_hold"), ((11, 21), "click_hold"), ((9.0, 19.0), "click_hold"),
                                       ((11.5, 20), "drag"), ((10, 18.9), "drag"), (("x", 20), "drag")])
def test_a_drag_ending_within_a_pixel_of_its_start_is_a_hold(end, kind) -> None:
    call = drag_or_hold((10, 20), end, {"duration": 0.4}, {"duration": 0.5})
    assert call.name == kind
    if kind == "click_hold":
        assert call.args == {"x": 10, "y": 20, "duration": 0.4}  # at the start, for the hold asked
    else:
        assert call.args == {"x": 10, "y": 20, "to_x": end[0], "to_y": end[1], "duration": 0.5}


def test_a_drag_carries_only_what_the_caller_gives_it() -> None:
    assert drag_or_hold((0, 0), (50, 0), {"duration": 2.0}).args == {"x": 0, "y": 0, "to_x": 50, "to_y": 0}
    assert drag_or_hold((10**400, 0), (10**400, 0), {}).name == "drag"  # no float: judged downstream, no raise


@pytest.mark.parametrize("direction, key", [("up", "ArrowUp"), ("DOWN", "ArrowDown"), ("Left", "ArrowLeft"),
                                            ("right", "ArrowRight"), ("diagonal", "ArrowDown"), (None, "ArrowDown")])
def test_a_scroll_presses_the_arrow_of_its_direction(direction, key) -> None:
    assert scroll_key(direction) == Proposal("press_key", {"key": key})


@pytest.mark.parametrize("dx, dy, direction", [(0, 3, "down"), (0, -3, "up"), (5, 0, "right"), (-5, 0, "left"),
                                               (5, -3, "up"), (0, 0, "down"), (0.5, -0.9, "down"), ("2", None, "right"),
                                               (math.nan, math.inf, "down"), (-math.inf, math.nan, "left")])
def test_a_scrolls_direction_is_vertical_first_in_whole_pixels(dx, dy, direction) -> None:
    assert scroll_direction(dx, dy) == direction


@pytest.mark.parametrize("raw, keys", [("ctrl+c", ["ctrl", "c"]), ("ctrl + alt  Delete", ["ctrl", "alt", "Delete"]),
                                       ("\tspace\n", ["space"]), (["ctrl+c", 5], ["ctrl+c", "5"]), ("", []),
                                       (None, []), ({"k": 1}, [])])
def test_a_combination_is_split_on_plus_and_white_space_and_a_list_is_taken_as_it_is(raw, keys) -> None:
    assert split_keys(raw) == keys


def test_a_provider_may_split_on_its_own_separators() -> None:
    assert split_keys("ctrl+c\tx", r"[+ ]") == ["ctrl", "c\tx"]


def test_keys_are_spelt_as_the_original_records_them() -> None:
    assert key_press(["left"]) == Proposal("press_key", {"key": "ArrowLeft"})
    assert key_press(["space"], duration=0.5) == Proposal("press_key", {"key": "Space", "duration": 0.5})
    assert key_press(["ctrl", "Page_Up"]).name == "press_keys"
    assert key_press(["ctrl", "Page_Up"]).args["keys"][1] == "PageUp"


@pytest.mark.parametrize("value, held", [(0.5, {"duration": 0.5}), ("2", {"duration": 2.0}), (0, {}), (-1, {}),
                                         (None, {}), ("x", {}), (math.nan, {}), (10**400, {})])
def test_only_a_positive_number_of_seconds_is_a_hold(value, held) -> None:
    assert hold(value) == held


def test_no_action_counts_as_no_tool_call_with_its_reason() -> None:
    call = no_action("keypress without keys", "keypress")
    assert call.refused and call.name == "keypress" and call.malformed == "keypress without keys"
    verdict = parse_cua(call, CuaControls(keys=[]), Viewport())
    assert verdict.validity == "ntc" and "keypress without keys" in verdict.reason
    assert pointer_move(3, 4).args == {"x": 3, "y": 4, "from_centre": True}


# Actions each provider's original finds nothing in: one contract, a refused proposal with a reason.
UNMAPPED = [
    lambda: anthropic_messages.original_computer_action("screenshot", {}),
    lambda: anthropic_messages.original_computer_action("left_click_drag", {"coordinate": [1, 2]}),
    lambda: anthropic_messages.original_computer_action("key", {"text": " + "}),
    lambda: openai_responses.original_computer_action({"type": "screenshot"}),
    lambda: openai_responses.original_computer_action({"type": "keypress", "keys": []}),
    lambda: gemini.original_computer_action("navigate", {"url": "x"}),
    lambda: gemini.original_computer_action("click_at", {"x": "left", "y": 3}),
]


@pytest.mark.parametrize("make", UNMAPPED)
def test_every_providers_original_says_no_action_the_same_way(make) -> None:
    call = make()
    assert isinstance(call, Proposal) and call.refused and call.malformed


def test_hostile_numbers_no_longer_raise_in_the_providers_originals() -> None:
    # Found by comparing the three copies with this module: these used to raise out of the reply's parsing.
    call = gemini.original_computer_action("drag_and_drop", {"x": 5, "y": 5, "destination_x": 5,
                                                             "destination_y": 5, "duration": 10**400})
    assert call == Proposal("click_hold", {"x": 5, "y": 5})
    assert openai_responses.original_computer_action({"type": "scroll", "scroll_x": 0, "scroll_y": math.nan}) == \
        Proposal("press_key", {"key": "ArrowDown"})
