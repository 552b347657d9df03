"""A right click flags a Minesweeper cell, whatever the model's way of saying it: Qwen's and Seed/UI-TARS's
text formats and the three native computer-use tools. Real Chromium, the real runner, replies scripted by
`gameworld serve`, sent and read through the official SDKs."""

from __future__ import annotations

import json

import pytest

ASYNC = pytest.mark.asyncio(loop_scope="session")
KEY_ENV = "GW_RIGHT_CLICK_KEY"
# Cell a1 is at (416, 178) on the 1280x720 screen: (325, 247) on a 0-1000 grid.
QWEN = {"name": "computer_use", "arguments": {"action": "click", "coordinate": [325, 247], "button": "right"}}
CASES = [
    ("openai", "qwen3-vl-30b-cua", {"text": f"<think>flag a1</think>\n<tool_call>\n{json.dumps(QWEN)}\n</tool_call>"}),
    ("openai", "ui-tars-1.5-7b", {"text": "Thought: flag a1.\nAction: click(point='<point>416 178</point>', button='right')"}),
    ("openai", "seed-1.8-cua", {"text": "Thought: flag a1.\nAction: click(point='<point>325 247</point>', button='right')"}),
    ("anthropic", "claude-sonnet-4.6-cua", {"computer": {"action": "right_click", "coordinate": [416, 178]}}),
    ("openai", "openai-computer-use", {"computer": {"action": "click", "button": "right", "x": 416, "y": 178}}),
    ("gemini", "gemini-2.5-computer-use",
     {"computer": {"gemini": {"name": "click_at", "args": {"x": 325, "y": 247, "button": "right"}}}}),
]


@ASYNC
@pytest.mark.parametrize("protocol, model, reply", CASES, ids=[c[1] for c in CASES])
async def test_a_right_click_flags_the_cell(serve, catalog, play_task, monkeypatch, protocol, model, reply):
    from pytest_gameworld.agents import make_agent

    server = serve(protocol, [reply])
    monkeypatch.setenv(KEY_ENV, "sk-right-click")
    spec = catalog.resolve_model(model, {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV,
                                         "extra.retry_backoff_s": 0.01})
    record, final, steps_path = await play_task("19_01", make_agent(spec), max_steps=1, model_spec=spec)
    step = json.loads(steps_path.read_text().splitlines()[1])
    assert step["verdict"]["validity"] == "valid", step["verdict"]
    assert step["verdict"]["action"]["button"] == "right"
    # The game saw a right button: the cell is flagged, nothing was uncovered.
    assert final["game_state"]["flagged_cells"] == ["a1"]
    assert final["game_state"]["score"] == 0 and record.valid == 1
