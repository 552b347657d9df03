"""Native computer-use actions of each provider, mapped to our low-level schema (pure)."""

from __future__ import annotations

import pytest

from pytest_gameworld.agents.providers import anthropic_messages, gemini, openai_responses
from pytest_gameworld.agents.providers.keys import key_args, key_list, key_name
from pytest_gameworld.catalog.specs import CuaControls, Viewport
from pytest_gameworld.play.actions import Proposal, normalize_key, parse_cua

CUA = CuaControls(keys=["ArrowLeft", "ArrowUp", "Space", "Enter", "PageUp", "a"], clicks=True)
VP = Viewport()


def valid(call: Proposal) -> str:
    verdict = parse_cua(call, CUA, VP)
    assert verdict.validity == "valid", verdict.reason
    return verdict.action.kind


# ------------------------------------------------------------------ OpenAI


@pytest.mark.parametrize("action, expected", [
    ({"type": "click", "button": "left", "x": 5, "y": 6}, Proposal("click", {"x": 5, "y": 6})),
    ({"type": "click", "button": "right", "x": 5, "y": 6}, Proposal("right_click", {"x": 5, "y": 6})),
    ({"type": "double_click", "x": 5, "y": 6}, Proposal("click", {"x": 5, "y": 6})),
    ({"type": "move", "x": 1, "y": 2}, Proposal("mouse_move", {"x": 1, "y": 2})),
    ({"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 3, "y": 4}, {"x": 5, "y": 6}]},
     Proposal("drag", {"x": 1, "y": 2, "to_x": 5, "to_y": 6})),
    ({"type": "scroll", "x": 1, "y": 2, "scroll_x": 0, "scroll_y": 300},
     Proposal("scroll", {"x": 1, "y": 2, "dx": 0, "dy": 300})),
    ({"type": "keypress", "keys": ["ARROWLEFT"]}, Proposal("press_key", {"key": "ARROWLEFT"})),
    ({"type": "keypress", "keys": ["CTRL", "A"]}, Proposal("press_keys", {"keys": ["CTRL", "A"]})),
    ({"type": "type", "text": "hi"}, Proposal("type", {"text": "hi"})),
    ({"type": "wait"}, Proposal("wait", {})),
])
def test_openai_computer_actions(action: dict, expected: Proposal) -> None:
    assert openai_responses.computer_action(action) == expected


def test_openai_keypress_normalizes_to_dom_keys() -> None:
    call = openai_responses.computer_action({"type": "keypress", "keys": ["SPACE"]})
    verdict = parse_cua(call, CUA, VP)
    assert verdict.validity == "valid" and verdict.action.keys == (" ",)


def test_openai_screenshot_and_short_drag_are_not_executable() -> None:
    assert parse_cua(openai_responses.computer_action({"type": "screenshot"}), CUA, VP).validity == "oos"
    assert openai_responses.computer_action({"type": "drag", "path": [{"x": 1, "y": 2}]}).malformed

# --------------------------------------------------------------- Anthropic


@pytest.mark.parametrize("action, inp, expected", [
    ("left_click", {"coordinate": [5, 6]}, Proposal("click", {"x": 5, "y": 6})),
    ("double_click", {"coordinate": [5, 6]}, Proposal("click", {"x": 5, "y": 6})),
    ("right_click", {"coordinate": [5, 6]}, Proposal("right_click", {"x": 5, "y": 6})),
    ("mouse_move", {"coordinate": [5, 6]}, Proposal("mouse_move", {"x": 5, "y": 6})),
    ("left_click_drag", {"start_coordinate": [1, 2], "coordinate": [3, 4]},
     Proposal("drag", {"x": 1, "y": 2, "to_x": 3, "to_y": 4})),
    ("scroll", {"coordinate": [5, 6], "scroll_direction": "up", "scroll_amount": 2},
     Proposal("scroll", {"x": 5, "y": 6, "direction": "up", "amount": 2})),
    ("key", {"text": "Left"}, Proposal("press_key", {"key": "Left"})),
    ("key", {"text": "ctrl+Page_Up"}, Proposal("press_keys", {"keys": ["ctrl", "PageUp"]})),
    ("hold_key", {"text": "space", "duration": 1}, Proposal("press_key", {"key": "space", "duration": 1})),
    ("type", {"text": "abc"}, Proposal("type", {"text": "abc"})),
    ("wait", {"duration": 2}, Proposal("wait", {"duration": 2})),
])
def test_anthropic_computer_actions(action: str, inp: dict, expected: Proposal) -> None:
    assert anthropic_messages.computer_action(action, inp) == expected


@pytest.mark.parametrize("text, key", [("Left", "ArrowLeft"), ("space", " "), ("Return", "Enter"),
                                       ("Page_Up", "PageUp"), ("Up", "ArrowUp"), ("a", "a")])
def test_anthropic_key_names_normalize(text: str, key: str) -> None:
    call = anthropic_messages.computer_action("key", {"text": text})
    verdict = parse_cua(call, CUA, VP)
    assert verdict.validity == "valid" and verdict.action.keys == (key,)


def test_anthropic_hold_key_uses_its_duration() -> None:
    verdict = parse_cua(anthropic_messages.computer_action("hold_key", {"text": "Up", "duration": 2}), CUA, VP)
    assert verdict.action.duration_ms == 2000


def test_anthropic_screenshot_is_oos_and_bad_inputs_malformed() -> None:
    assert parse_cua(anthropic_messages.computer_action("screenshot", {}), CUA, VP).validity == "oos"
    assert anthropic_messages.computer_action("left_click", {"coordinate": "5,6"}).malformed
    assert anthropic_messages.computer_action("key", {}).malformed
    assert anthropic_messages.computer_action("left_click_drag", {"coordinate": [1, 2]}).malformed

# ------------------------------------------------------------------ Gemini


@pytest.mark.parametrize("name, args, expected", [
    ("click_at", {"x": 500, "y": 500}, Proposal("click", {"x": 500, "y": 500})),
    ("hover_at", {"x": 1, "y": 2}, Proposal("mouse_move", {"x": 1, "y": 2})),
    ("type_text_at", {"x": 1, "y": 2, "text": "hi", "press_enter": False}, Proposal("type", {"text": "hi"})),
    ("type_text_at", {"x": 1, "y": 2, "text": "hi", "press_enter": True}, Proposal("type", {"text": "hi\n"})),
    ("key_combination", {"keys": "Control+a"}, Proposal("press_keys", {"keys": ["Control", "a"]})),
    ("key_combination", {"keys": "Enter"}, Proposal("press_key", {"key": "Enter"})),
    ("scroll_at", {"x": 1, "y": 2, "direction": "up", "magnitude": 100},
     Proposal("scroll", {"x": 1, "y": 2, "dy": -100})),
    ("scroll_document", {"direction": "right"}, Proposal("scroll", {"dx": 800})),
    ("drag_and_drop", {"x": 1, "y": 2, "destination_x": 3, "destination_y": 4},
     Proposal("drag", {"x": 1, "y": 2, "to_x": 3, "to_y": 4})),
    ("wait_5_seconds", {}, Proposal("wait", {"duration": 5})),
])
def test_gemini_computer_actions(name: str, args: dict, expected: Proposal) -> None:
    assert gemini.computer_action(name, args) == expected


def test_gemini_navigation_is_oos_and_bad_scroll_malformed() -> None:
    assert parse_cua(gemini.computer_action("navigate", {"url": "x"}), CUA, VP).validity == "oos"
    assert gemini.computer_action("scroll_at", {"x": 1, "y": 2, "direction": "diagonal"}).malformed

# -------------------------------------------------------------------- keys


def test_key_helpers() -> None:
    assert key_name("Page_Down") == "PageDown" and key_name(" ") == " "
    assert normalize_key(key_name("BackSpace")) == "Backspace"
    assert key_list("ctrl c", "+ ") == ["ctrl", "c"] and key_list(["Up", "Left"]) == ["Up", "Left"]
    assert key_list("+") == ["+"]
    assert key_args(["a"]) == ("press_key", {"key": "a"})
    assert key_args(["a", "b"], duration=1) == ("press_keys", {"keys": ["a", "b"], "duration": 1})
    assert normalize_key(key_name("KP_Enter")) == "Enter"
    assert valid(Proposal("press_keys", {"keys": ["Up", "Left"]})) == "press_keys"
