"""Qwen3-VL `<tool_call>` and Seed/UI-TARS action text parsing."""

from __future__ import annotations

import pytest

from pytest_gameworld.agents.providers.textformats import parse_qwen, parse_uitars, split_think
from pytest_gameworld.play.actions import Proposal

# ------------------------------------------------------------------ Qwen


def test_qwen_generalist_call_with_think() -> None:
    text = '<think>e5 is safe</think>\n<tool_call>\n{"name": "reveal_cell", "arguments": {"cell": "e5"}}\n</tool_call>'
    calls, reasoning = parse_qwen(text, "generalist")
    assert calls == [Proposal("reveal_cell", {"cell": "e5"})]
    assert reasoning == "e5 is safe"


def test_qwen_opened_think_from_the_template() -> None:
    calls, reasoning = parse_qwen('jump now</think><tool_call>{"name": "jump", "arguments": {}}</tool_call>',
                                  "generalist")
    assert calls == [Proposal("jump", {})] and reasoning == "jump now"


def test_qwen_arguments_as_a_json_string() -> None:
    calls, _ = parse_qwen('<tool_call>{"name": "move", "arguments": "{\\"dir\\": \\"left\\"}"}</tool_call>',
                          "generalist")
    assert calls == [Proposal("move", {"dir": "left"})]


@pytest.mark.parametrize("text", ["", "I would like to jump.", "<think>hmm</think> no idea", "{not json}",
                                  "Action: jump()"])
def test_qwen_garbage_is_no_call(text: str) -> None:
    calls, _ = parse_qwen(text, "generalist")
    assert calls == []


def test_qwen_two_calls_are_both_returned() -> None:
    text = ('<tool_call>{"name": "jump", "arguments": {}}</tool_call>'
            '<tool_call>{"name": "wait", "arguments": {}}</tool_call>')
    calls, _ = parse_qwen(text, "generalist")
    assert [c.name for c in calls] == ["jump", "wait"]


def test_qwen_malformed_json_keeps_the_name_and_is_malformed() -> None:
    calls, _ = parse_qwen('<tool_call>{"name": "reveal_cell", "arguments": {"cell": e5}</tool_call>', "generalist")
    assert len(calls) == 1
    assert calls[0].name == "reveal_cell" and calls[0].malformed


def test_qwen_empty_tool_call_block_is_malformed() -> None:
    calls, _ = parse_qwen("<tool_call></tool_call>", "generalist")
    assert len(calls) == 1 and calls[0].malformed


def test_qwen_call_without_name_is_malformed() -> None:
    calls, _ = parse_qwen('<tool_call>{"arguments": {}}</tool_call>', "generalist")
    assert calls[0].malformed and calls[0].name is None


def test_qwen_unterminated_tool_call_is_still_read() -> None:
    calls, _ = parse_qwen('<tool_call>{"name": "jump", "arguments": {}}', "generalist")
    assert calls == [Proposal("jump", {})]


def test_qwen_bare_json_call_without_tags() -> None:
    calls, _ = parse_qwen('{"name": "jump", "arguments": {}}', "generalist")
    assert calls == [Proposal("jump", {})]


def cu(args: str) -> list[Proposal]:
    calls, _ = parse_qwen(f'<tool_call>{{"name": "computer_use", "arguments": {args}}}</tool_call>', "cua")
    return calls


def test_qwen_computer_use_actions() -> None:
    assert cu('{"action": "left_click", "coordinate": [500, 250]}') == [Proposal("click", {"x": 500.0, "y": 250.0})]
    assert cu('{"action": "right_click", "coordinate": [1, 2]}') == [Proposal("right_click", {"x": 1.0, "y": 2.0})]
    assert cu('{"action": "double_click", "coordinate": [1, 2]}')[0].name == "click"
    assert cu('{"action": "mouse_move", "coordinate": [3, 4]}') == [Proposal("mouse_move", {"x": 3.0, "y": 4.0})]
    assert cu('{"action": "key", "keys": ["space"]}') == [Proposal("press_key", {"key": "space"})]
    assert cu('{"action": "key", "keys": ["ctrl", "c"]}') == [Proposal("press_keys", {"keys": ["ctrl", "c"]})]
    assert cu('{"action": "type", "text": "hi"}') == [Proposal("type", {"text": "hi"})]
    assert cu('{"action": "wait", "time": 2}') == [Proposal("wait", {"duration": 2})]
    assert cu('{"action": "left_click_drag", "coordinate": [9, 8]}') == [Proposal("drag", {"to_x": 9.0, "to_y": 8.0})]
    assert cu('{"action": "scroll", "coordinate": [5, 6], "pixels": -300}') == [
        Proposal("scroll", {"x": 5.0, "y": 6.0, "dy": 300})]


def test_qwen_computer_use_bad_coordinate_is_malformed() -> None:
    calls = cu('{"action": "left_click", "coordinate": "top left"}')
    assert calls[0].malformed and "coordinate" in calls[0].malformed


def test_qwen_computer_use_unknown_action_passes_through_for_oos() -> None:
    assert cu('{"action": "terminate", "status": "success"}') == [Proposal("terminate", {"status": "success"})]


def test_qwen_generalist_does_not_rewrite_a_computer_use_name() -> None:
    calls, _ = parse_qwen('<tool_call>{"name": "computer_use", "arguments": {"action": "key"}}</tool_call>',
                          "generalist")
    assert calls == [Proposal("computer_use", {"action": "key"})]


def test_split_think() -> None:
    assert split_think("<think>a</think>b") == ("a", "b")
    assert split_think("plain") == ("", "plain")
    reasoning, rest = split_think("<think>cut off <tool_call>{}")
    assert reasoning == "cut off" and "<tool_call>" in rest

# ---------------------------------------------------------------- UI-TARS


def test_uitars_click_point_with_thought() -> None:
    calls, reasoning = parse_uitars("Thought: the cell e5 looks safe.\nAction: click(point='<point>640 360</point>')")
    assert calls == [Proposal("click", {"x": 640.0, "y": 360.0})]
    assert reasoning == "the cell e5 looks safe."


def test_uitars_start_box_forms() -> None:
    assert parse_uitars("Action: click(start_box='(100,200)')")[0] == [Proposal("click", {"x": 100.0, "y": 200.0})]
    boxed = "Action: click(start_box='<|box_start|>(10,20)<|box_end|>')"
    assert parse_uitars(boxed)[0] == [Proposal("click", {"x": 10.0, "y": 20.0})]
    box4 = "Action: click(start_box='[10, 20, 30, 40]')"
    assert parse_uitars(box4)[0] == [Proposal("click", {"x": 20.0, "y": 30.0})]


def test_uitars_actions() -> None:
    def one(action: str) -> Proposal:
        calls, _ = parse_uitars(f"Thought: x\nAction: {action}")
        assert len(calls) == 1
        return calls[0]

    assert one("left_double(point='<point>1 2</point>')") == Proposal("click", {"x": 1.0, "y": 2.0})
    assert one("right_single(point='<point>1 2</point>')") == Proposal("right_click", {"x": 1.0, "y": 2.0})
    assert one("drag(start_point='<point>1 2</point>', end_point='<point>3 4</point>')") == Proposal(
        "drag", {"x": 1.0, "y": 2.0, "to_x": 3.0, "to_y": 4.0})
    assert one("hotkey(key='ctrl c')") == Proposal("press_keys", {"keys": ["ctrl", "c"]})
    assert one("hotkey(key='up')") == Proposal("press_key", {"key": "up"})
    assert one("press(key=space)") == Proposal("press_key", {"key": "space"})
    assert one("type(content='hello\\n')") == Proposal("type", {"text": "hello\n"})
    assert one("type(content='it\\'s')") == Proposal("type", {"text": "it's"})
    assert one("scroll(point='<point>5 6</point>', direction='down')") == Proposal(
        "scroll", {"x": 5.0, "y": 6.0, "direction": "down"})
    assert one("scroll(direction='up')") == Proposal("scroll", {"direction": "up"})
    assert one("wait()") == Proposal("wait", {})
    assert one("finished(content='done')") == Proposal("finished", {"content": "done"})


def test_uitars_garbage_is_no_call() -> None:
    assert parse_uitars("I am not sure what to do here.")[0] == []
    assert parse_uitars("")[0] == []
    assert parse_uitars("Thought: I could click (the red one) maybe")[0] == []


def test_uitars_two_actions_are_both_returned() -> None:
    calls, reasoning = parse_uitars("Thought: go\nAction: hotkey(key='left')\n\nclick(point='<point>1 1</point>')")
    assert [c.name for c in calls] == ["press_key", "click"]
    assert reasoning == "go"


@pytest.mark.parametrize("action", ["click(point='<point>left</point>')", "click()",
                                    "click(start_box='(10,", "drag(start_point='<point>1 2</point>')",
                                    "scroll(point='<point>1 2</point>', direction='sideways')", "hotkey()"])
def test_uitars_recognizable_call_with_bad_args_is_malformed(action: str) -> None:
    calls, _ = parse_uitars(f"Thought: t\nAction: {action}")
    assert len(calls) == 1 and calls[0].malformed


def test_uitars_seed_think_block_and_reflection() -> None:
    text = "<think>long thought</think>Reflection: last move failed\nThought: try right\nAction: hotkey(key='right')"
    calls, reasoning = parse_uitars(text)
    assert calls == [Proposal("press_key", {"key": "right"})]
    assert "long thought" in reasoning and "try right" in reasoning and "last move failed" in reasoning


def test_uitars_the_papers_reading_honours_button_and_scroll_deltas() -> None:
    calls, _ = parse_uitars("Action: click(point='<point>5 6</point>', button='right')")
    assert calls == [Proposal("click", {"x": 5.0, "y": 6.0, "button": "right"})]
    calls, _ = parse_uitars("Action: scroll(delta_x='0', delta_y='-500')")
    assert calls == [Proposal("scroll", {"scroll_x": 0.0, "scroll_y": -500.0})]  # negative: up
    calls, _ = parse_uitars("Action: press_keys(keys='up left')")
    assert calls == [Proposal("press_keys", {"keys": ["up", "left"]})]
    calls, _ = parse_uitars("Action: click_hold(point='<point>1 2</point>', duration='1.5')")
    assert calls == [Proposal("click_hold", {"x": 1.0, "y": 2.0, "duration": "1.5"})]


def test_qwen_the_papers_reading_honours_button() -> None:
    assert cu('{"action": "click", "coordinate": [1, 2], "button": "right"}') == [
        Proposal("click", {"x": 1.0, "y": 2.0, "button": "right"})]
