"""Replies in the original harness's own Qwen and Seed/UI-TARS vocabulary, read as it reads them.

Each row is a reply written here in the verbs and forms the original's prompts and parsers document,
with the action and the verdict the original gives it (checked against its code outside this repository,
see the issue's note). The agent parses the reply, maps it to the viewport and classifies it; the executed
action and the validity must be those.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import cache
from types import SimpleNamespace as NS
from typing import Any

import pytest

from pytest_gameworld.agents.base import RunContext
from pytest_gameworld.agents.providers import make_provider_agent
from pytest_gameworld.agents.providers.coords import Frame
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.prompts import render_prompt

catalog = cache(load_catalog)
GAMES = {"2048": "01-2048", "flappy": "13-flappy-bird", "mines": "19-minesweeper"}


def qwen(args: dict[str, Any], tag: str = "tool_call") -> str:
    call = json.dumps({"name": "computer_use", "arguments": args})
    return f"<think>one step</think>\n<{tag}>\n{call}\n</{tag.replace(' ', '_') if tag == 'tool call' else tag}>"


def uitars(action: str) -> str:
    return f"Thought: one step.\nAction: {action}"


# (spec, game, reply, validity, executed action: kind and the fields that matter)
ROWS: list[tuple[str, str, str, str, dict[str, Any]]] = [
    # Qwen3-VL computer use: Qwen's computer_use verbs, points on the 0-1000 grid
    ("qwen3-vl-30b-cua", "mines", qwen({"action": "click", "coordinate": [500, 500]}), "valid",
     {"kind": "click", "x": 640, "y": 360, "button": "left"}),
    ("qwen3-vl-30b-cua", "mines", qwen({"action": "click", "coordinate": [250, 500], "button": "right"}), "valid",
     {"kind": "click", "x": 320, "y": 360, "button": "right"}),
    ("qwen3-vl-30b-cua", "mines", qwen({"action": "click_hold", "coordinate": [100, 100], "duration": 0.5}), "valid",
     {"kind": "click_hold", "x": 128, "y": 72, "duration_ms": 500}),
    ("qwen3-vl-30b-cua", "mines", qwen({"action": "drag", "start_coordinate": [0, 0], "coordinate": [500, 500]}),
     "valid", {"kind": "drag", "x": 0, "y": 0, "to_x": 640, "to_y": 360}),
    ("qwen3-vl-30b-cua", "flappy", qwen({"action": "mouse_move", "coordinate": [750, 250]}), "valid",
     {"kind": "mouse_move", "x": 640, "y": 360, "to_x": 960, "to_y": 180}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "press_key", "key": "ArrowLeft"}), "valid",
     {"kind": "press_key", "keys": ["ArrowLeft"]}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "press_keys", "keys": ["ArrowUp", "ArrowLeft"]}), "valid",
     {"kind": "press_keys", "keys": ["ArrowUp", "ArrowLeft"]}),
    ("qwen3-vl-30b-cua", "flappy", qwen({"action": "press_key", "key": "space", "duration": 0.4}), "valid",
     {"kind": "press_key", "keys": [" "], "duration_ms": 400}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "press_key", "key": "a"}), "oos", {"kind": "wait"}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "press_keys", "keys": ["ArrowUp", "a"]}), "oos", {"kind": "wait"}),
    ("qwen3-vl-30b-cua", "flappy", qwen({"action": "click", "coordinate": [500, 500]}), "oos", {"kind": "wait"}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "wait", "duration": 1.5}), "valid",
     {"kind": "wait", "duration_ms": 1500}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "type", "text": "up"}), "valid", {"kind": "type", "text": "up"}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "press_key", "key": "ArrowDown"}, tag="tool call"), "valid",
     {"kind": "press_key", "keys": ["ArrowDown"]}),
    ("qwen3-vl-30b-cua", "mines", qwen({"action": "left_click", "coordinate": [500, 500]}), "ntc", {"kind": "wait"}),
    ("qwen3-vl-30b-cua", "2048", qwen({"action": "key", "keys": ["ArrowUp"]}), "ntc", {"kind": "wait"}),
    ("qwen3-vl-30b-cua", "mines", qwen({"action": "scroll", "coordinate": [500, 500], "pixels": -300}), "ntc",
     {"kind": "wait"}),
    ("qwen3-vl-30b-cua", "2048", '<tool_call>{"name": "computer_use", "arguments": {"action": "wait"}}', "ntc",
     {"kind": "wait"}),
    ("qwen3-vl-30b-cua", "2048", "<tool_call>{\"name\": \"computer_use\", 'arguments': {}}</tool_call>", "ntc",
     {"kind": "wait"}),
    # Qwen3-VL generalist: a control called by its exact id in a <tool_call> (or <tool call>) block, or as a bare
    # JSON object anywhere in the reply
    ("qwen3-vl-30b", "2048", '<think>left</think>\n<tool_call>\n{"name": "move_left", "arguments": {}}\n</tool_call>',
     "valid", {"kind": "press_key", "keys": ["ArrowLeft"]}),
    ("qwen3-vl-30b", "2048", '<tool call>{"name": "move_up", "arguments": {"reasoning": "merge"}}</tool call>', "valid",
     {"kind": "press_key", "keys": ["ArrowUp"]}),
    ("qwen3-vl-30b", "2048", 'Thinking: slide down.\n{"name": "move_down", "arguments": {}}', "valid",
     {"kind": "press_key", "keys": ["ArrowDown"]}),
    ("qwen3-vl-30b", "2048", '<tool_call>{"name": "Move_Left", "arguments": {}}</tool_call>', "oos", {"kind": "wait"}),
    ("qwen3-vl-30b", "2048", '<tool_call>{"name": "left", "arguments": {}}</tool_call>', "oos", {"kind": "wait"}),
    ("qwen3-vl-30b", "2048", "<think>no idea</think> I would move left.", "ntc", {"kind": "wait"}),
    # Seed/UI-TARS: the GUI-agent verbs; UI-TARS points in screenshot pixels, Seed on the 0-1000 grid
    ("ui-tars-1.5-7b", "mines", uitars("click(point='<point>640 360</point>')"), "valid",
     {"kind": "click", "x": 640, "y": 360, "button": "left"}),
    ("ui-tars-1.5-7b", "mines", uitars("click(point='<point>416 178</point>', button='right')"), "valid",
     {"kind": "click", "x": 416, "y": 178, "button": "right"}),
    ("ui-tars-1.5-7b", "mines", uitars("click(start_box='(100,200)')"), "valid",
     {"kind": "click", "x": 100, "y": 200, "button": "left"}),
    ("ui-tars-1.5-7b", "mines", uitars("click_hold(point='<point>10 20</point>', duration='0.5')"), "valid",
     {"kind": "click_hold", "x": 10, "y": 20, "duration_ms": 500}),
    ("ui-tars-1.5-7b", "mines", uitars("drag(start_point='<point>1 2</point>', end_point='<point>30 40</point>')"),
     "valid", {"kind": "drag", "x": 1, "y": 2, "to_x": 30, "to_y": 40}),
    ("ui-tars-1.5-7b", "flappy", uitars("mouse_move(point='<point>5 6</point>')"), "valid",
     {"kind": "mouse_move", "x": 640, "y": 360, "to_x": 5, "to_y": 6}),
    ("ui-tars-1.5-7b", "2048", uitars("press_key(key='up')"), "valid", {"kind": "press_key", "keys": ["ArrowUp"]}),
    ("ui-tars-1.5-7b", "2048", uitars("press_keys(keys='up left')"), "valid",
     {"kind": "press_keys", "keys": ["ArrowUp", "ArrowLeft"]}),
    ("ui-tars-1.5-7b", "2048", uitars("press_key(key='down right')"), "valid",
     {"kind": "press_keys", "keys": ["ArrowDown", "ArrowRight"]}),
    ("ui-tars-1.5-7b", "2048", uitars("press_key(key='a')"), "oos", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "2048", uitars("press_keys(keys='ctrl c')"), "oos", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "2048", uitars("type(content='crane')"), "valid", {"kind": "type", "text": "crane"}),
    ("ui-tars-1.5-7b", "mines", uitars("scroll(delta_x='0', delta_y='-500')"), "valid",
     {"kind": "scroll", "dx": 0, "dy": -500}),
    ("ui-tars-1.5-7b", "flappy", uitars("scroll(delta_x='0', delta_y='300')"), "oos", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "flappy", uitars("click(point='<point>640 360</point>')"), "oos", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "2048", uitars("wait()"), "valid", {"kind": "wait", "duration_ms": 200}),
    ("ui-tars-1.5-7b", "2048", 'Thought: json.\nAction: {"action": "press_key", "key": "left"}', "valid",
     {"kind": "press_key", "keys": ["ArrowLeft"]}),
    ("ui-tars-1.5-7b", "mines", uitars("click(start_box='<|box_start|>(100,200)<|box_end|>')"), "ntc",
     {"kind": "wait"}),
    ("ui-tars-1.5-7b", "mines", uitars("right_single(point='<point>416 178</point>')"), "ntc", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "2048", uitars("hotkey(key='up')"), "ntc", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "mines", uitars("left_double(point='<point>1 2</point>')"), "ntc", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "2048", uitars("finished(content='done')"), "ntc", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "2048", uitars("press_key('up')"), "ntc", {"kind": "wait"}),
    ("ui-tars-1.5-7b", "2048", "I would slide the tiles up now.", "ntc", {"kind": "wait"}),
    ("seed-1.8-cua", "mines", uitars("click(point='<point>500 500</point>')"), "valid",
     {"kind": "click", "x": 640, "y": 360, "button": "left"}),
    ("seed-1.8-cua", "mines", uitars("click(point='<point>1200 999</point>')"), "valid",  # clamped to the grid
     {"kind": "click", "x": 1279, "y": 719, "button": "left"}),
    ("seed-1.8-cua", "mines", uitars("click(point='<point>500 -5</point>')"), "ntc", {"kind": "wait"}),
]


def agent_for(spec_name: str, game_key: str) -> Any:
    cat = catalog()
    spec = cat.models[spec_name]
    game = cat.games[GAMES[game_key]]
    role_name, role = next(iter(game.roles.items()))
    task = next(t for t in cat.tasks if t.game == game.id)
    agent = make_provider_agent(spec)
    prompt = render_prompt(cat.prompts_dir, game, role, task, spec, task.max_steps)
    agent.ctx = RunContext(game, task, role_name, role, spec, 7, prompt, session=None)  # type: ignore[arg-type]
    return agent


@pytest.mark.parametrize("spec_name, game_key, reply, validity, action", ROWS,
                         ids=[f"{r[0].split('-')[0]}-{i:02d}-{r[3]}" for i, r in enumerate(ROWS)])
def test_a_reply_in_the_originals_vocabulary_is_read_as_the_original_reads_it(
        spec_name: str, game_key: str, reply: str, validity: str, action: dict[str, Any]) -> None:
    agent = agent_for(spec_name, game_key)
    frame = Frame.for_image((1280, 720), (1280, 720), agent.coordinate_mode())
    response = NS(choices=[NS(message=NS(content=reply, tool_calls=None, model_extra={}))], usage=None)
    _, verdict = agent.interpret(agent.parse_reply(response, frame), frame)
    assert verdict.validity == validity, verdict.reason
    executed = {**asdict(verdict.action), "keys": list(verdict.action.keys)}
    assert {k: executed[k] for k in action} == action
