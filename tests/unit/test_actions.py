"""Computer-use parsing and legality: aliases, combos, bounds, forbidden input, garbage."""

import pytest

from pytest_gameworld.catalog.specs import CuaControls, Viewport
from pytest_gameworld.play.actions import MAX_ACTION_MS, Action, Proposal, normalize_key, parse_cua, split_keys

VP = Viewport(width=1280, height=720)
ARROWS = CuaControls(keys=["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Space"], clicks=False,
                     default_hold_ms=200, key_durations={"ArrowUp": 300})
MOUSE = CuaControls(keys=[], clicks=True, default_hold_ms=200)


@pytest.mark.parametrize("raw, key", [
    ("left", "ArrowLeft"), ("LEFT", "ArrowLeft"), ("arrowright", "ArrowRight"), ("space", " "),
    ("Space", " "), (" ", " "), ("enter", "Enter"), ("esc", "Escape"), ("ctrl", "Control"),
    ("A", "a"), ("f5", "F5"), ("Shift", "Shift"),
])
def test_key_aliases_normalize(raw, key):
    assert normalize_key(raw) == key


def test_combination_strings_split_on_plus():
    assert split_keys("ArrowUp+ArrowLeft") == ["ArrowUp", "ArrowLeft"]
    assert split_keys(["up", "left"]) == ["up", "left"]
    assert split_keys("+") == ["+"]


def test_allowed_key_with_alias_is_valid_and_uses_role_hold():
    v = parse_cua(Proposal("press_key", {"key": "left"}), ARROWS, VP)
    assert v.validity == "valid"
    assert v.action == Action("press_key", 200, keys=("ArrowLeft",))


def test_per_key_duration_applies_when_model_gives_none():
    v = parse_cua(Proposal("press_key", {"key": "up"}), ARROWS, VP)
    assert v.action.duration_ms == 300


def test_combo_presses_keys_together():
    v = parse_cua(Proposal("press_keys", {"keys": "up+left"}), ARROWS, VP)
    assert v.validity == "valid"
    assert v.action.kind == "press_keys" and v.action.keys == ("ArrowUp", "ArrowLeft")


def test_forbidden_key_is_oos_and_executes_a_noop_of_role_default():
    v = parse_cua(Proposal("press_key", {"key": "a"}), ARROWS, VP)
    assert v.validity == "oos" and "not allowed" in v.reason
    assert v.action == Action("wait", 200)


def test_empty_key_list_means_no_keys():
    v = parse_cua(Proposal("press_key", {"key": "Enter"}), MOUSE, VP)
    assert v.validity == "oos" and "keyboard" in v.reason


def test_clicks_forbidden_for_keyboard_role():
    v = parse_cua(Proposal("click", {"x": 10, "y": 10}), ARROWS, VP)
    assert v.validity == "oos" and "mouse" in v.reason


@pytest.mark.parametrize("x, y", [(1280, 10), (-1, 5), (10, 720), (5000, 5000)])
def test_click_outside_viewport_is_oos(x, y):
    v = parse_cua(Proposal("click", {"x": x, "y": y}), MOUSE, VP)
    assert v.validity == "oos" and "outside" in v.reason


def test_click_inside_viewport_and_coordinate_pair_form():
    assert parse_cua(Proposal("click", {"coordinate": [1279, 719]}), MOUSE, VP).validity == "valid"
    v = parse_cua(Proposal("right_click", {"x": 416, "y": 178}), MOUSE, VP)
    assert v.action.button == "right" and (v.action.x, v.action.y) == (416, 178)


def test_missing_coordinates_is_oos():
    v = parse_cua(Proposal("click", {"x": 10}), MOUSE, VP)
    assert v.validity == "oos" and "x and y" in v.reason


def test_long_hold_is_bounded():
    v = parse_cua(Proposal("press_key", {"key": "space", "duration": 60}), ARROWS, VP)
    assert v.validity == "valid" and v.action.duration_ms == MAX_ACTION_MS


def test_type_only_with_allowed_keys():
    role = CuaControls(keys=list("abcde"), clicks=False)
    assert parse_cua(Proposal("type", {"text": "bead"}), role, VP).validity == "valid"
    v = parse_cua(Proposal("type", {"text": "bxd"}), role, VP)
    assert v.validity == "oos" and "'x'" in v.reason


def test_unknown_action_and_malformed_arguments_are_oos():
    assert parse_cua(Proposal("teleport", {}), ARROWS, VP).validity == "oos"
    bad = Proposal.from_raw("press_key", "{'key': left")
    assert bad.malformed and parse_cua(bad, ARROWS, VP).validity == "oos"


def test_computer_tool_call_with_action_argument():
    v = parse_cua(Proposal("computer", {"action": "key", "key": "Right"}), ARROWS, VP)
    assert v.validity == "valid" and v.action.keys == ("ArrowRight",)


def test_non_numeric_coordinates_are_oos():
    v = parse_cua(Proposal("click", {"x": "left", "y": 3}), MOUSE, VP)
    assert v.validity == "oos" and "number" in v.reason


@pytest.mark.parametrize("kind, args, button", [
    ("click", {"button": "right"}, "right"), ("click", {"button": "Middle"}, "middle"), ("click", {}, "left"),
    ("right_click", {}, "right"), ("click_hold", {"button": "right"}, "right"),
    ("drag", {"button": "right", "to_x": 20, "to_y": 30}, "right"),
])
def test_a_click_hold_or_drag_honours_its_button(kind, args, button):
    v = parse_cua(Proposal(kind, {"x": 10, "y": 10, **args}), MOUSE, VP)
    assert v.validity == "valid" and v.action.button == button


def test_an_unknown_button_is_oos():
    v = parse_cua(Proposal("click", {"x": 10, "y": 10, "button": "back"}), MOUSE, VP)
    assert v.validity == "oos" and "button" in v.reason


def test_moving_the_pointer_is_legal_without_clicks():
    assert parse_cua(Proposal("mouse_move", {"x": 5, "y": 5}), ARROWS, VP).validity == "valid"
    assert parse_cua(Proposal("click", {"x": 5, "y": 5}), ARROWS, VP).validity == "oos"


def test_typed_text_is_held_to_the_keys_only_by_the_papers_reading():
    typed = Proposal("type", {"text": "hello"})
    assert parse_cua(typed, ARROWS, VP).validity == "oos"
    assert parse_cua(typed, ARROWS, VP, typed_keys=False).validity == "valid"


def test_a_refused_reply_is_no_tool_call_with_its_reason():
    v = parse_cua(Proposal(None, {}, malformed="hotkey is not in the action space", refused=True), MOUSE, VP)
    assert (v.validity, v.reason, v.action.kind) == ("ntc", "hotkey is not in the action space", "wait")
