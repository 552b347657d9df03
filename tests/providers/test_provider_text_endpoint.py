"""Qwen3-VL and Seed/UI-TARS text formats over Chat Completions (as vLLM serves them)."""

from __future__ import annotations

import json

import pytest

from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.play.actions import Proposal

pytestmark = pytest.mark.asyncio


async def test_qwen_generalist_via_vllm_base_url(serve, catalog: Catalog, drive, control_call, monkeypatch) -> None:
    name, args = control_call
    call = json.dumps({"name": name, "arguments": args})
    server = serve("openai", [{"text": f"<think>pick the safe one</think>\n<tool_call>\n{call}\n</tool_call>"}])
    monkeypatch.setenv("VLLM_BASE_URL", server.url)
    monkeypatch.delenv("VLLM_API_KEY", raising=False)
    spec = catalog.resolve_model("qwen3-vl-30b")
    _, [reply] = await drive(spec)
    assert reply.calls == [Proposal(name, args)] and reply.reasoning == "pick the safe one"
    assert "tools" not in reply.request and reply.request["max_tokens"] == spec.max_output_tokens
    assert reply.request["base_url"] == server.url
    logged = server.posts(1)[-1]
    assert reply.usage.input_tokens == logged["usage"]["input_tokens"]
    assert "<tool_call>" in reply.request["messages"][0]["content"]  # the output format reached the prompt


async def test_qwen_reasoning_content_from_the_server(serve, spec_for, drive, control_call) -> None:
    name, args = control_call
    server = serve("openai", [{"reasoning": "server-side reasoning",
                               "text": f"<tool_call>{json.dumps({'name': name, 'arguments': args})}</tool_call>"}])
    _, [reply] = await drive(spec_for("qwen3-vl-235b", server))
    assert reply.calls == [Proposal(name, args)] and "server-side reasoning" in reply.reasoning


async def test_qwen_garbage_and_two_calls(serve, spec_for, drive) -> None:
    two = ('<tool_call>{"name": "wait", "arguments": {}}</tool_call>'
           '<tool_call>{"name": "move_up", "arguments": {}}</tool_call>')
    untagged = 'Thinking: wait a moment.\n{"name": "wait", "arguments": {"reasoning": "nothing to do"}}'
    server = serve("openai", [{"text": "I have no idea."}, {"text": two}, {"text": untagged}])
    _, replies = await drive(spec_for("qwen3-vl-30b", server), steps=3)
    assert replies[0].calls == [] and replies[0].text == "I have no idea."
    assert [c.name for c in replies[1].calls] == ["wait"]  # the original takes the first call only
    assert replies[2].calls == [Proposal("wait", {"reasoning": "nothing to do"})]  # untagged JSON counts there


async def test_qwen_cua_declares_its_tool_in_the_user_message(serve, spec_for, drive) -> None:
    click = ('<think>centre</think><tool_call>{"name": "computer_use", "arguments": '
             '{"action": "click", "coordinate": [500, 500], "button": "right"}}</tool_call>')
    retired = '<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1, 2]}}</tool_call>'
    server = serve("openai", [{"text": click}, {"text": retired}])
    spec = spec_for("qwen3-vl-30b-cua", server)
    _, replies = await drive(spec, steps=2)
    assert replies[0].calls == [Proposal("click", {"x": 640, "y": 360, "button": "right"})]
    assert len(replies[1].calls) == 1 and replies[1].calls[0].refused  # counted as no tool call
    first, second = (p["request"] for p in server.posts(2))
    assert [m["role"] for m in first["messages"]] == ["user"]  # no system message
    opening = first["messages"][0]["content"][0]["text"]
    assert opening.startswith("# Tools") and '"name": "computer_use"' in opening
    assert "The screen is 1280x720 pixels." in opening and "## Game Rules" in opening
    assert first["model"].endswith("-Thinking") and first["max_tokens"] == 2048
    # The history repeats the whole opening before each earlier screenshot, as the original does.
    texts = [part.get("text") for part in second["messages"][0]["content"]]
    assert texts[0] == "## Action History\n" and texts[1].strip() == opening.strip()
    assert texts[-2] == opening and texts.count(None) == 2
    assert 'Action: {"action": "click", "button": "right", "x": 640, "y": 360}\n' in texts


async def test_uitars_points_are_screenshot_pixels(serve, spec_for, drive) -> None:
    point = "Thought: the middle.\nAction: click(point='<point>640 360</point>')"
    box = "Thought: again.\nAction: click(start_box='<|box_start|>(644,364)<|box_end|>')"
    server = serve("openai", [{"text": point}, {"text": box}])
    _, replies = await drive(spec_for("ui-tars-1.5-7b", server), steps=2)
    assert replies[0].calls == [Proposal("click", {"x": 640, "y": 360})] and replies[0].reasoning == "the middle."
    assert replies[1].calls[0].refused  # the original cannot read this box form: no tool call
    request = server.posts(2)[0]["request"]
    assert "tools" not in request and request["top_p"] is None and request["max_tokens"] == 2048
    system = request["messages"][0]["content"]
    assert system.startswith("You play a game") and "press_key(key='arrowup')" in system
    assert "hotkey" not in system and "right_single" not in system


async def test_uitars_smart_resized_pixels_with_the_papers_parsing(serve, spec_for, drive) -> None:
    # vLLM shows UI-TARS a 1288x728 image for a 1280x720 screenshot; its point is in that space.
    text = "Thought: the middle.\nAction: click(start_box='<|box_start|>(644,364)<|box_end|>')"
    server = serve("openai", [{"text": text}])
    _, [reply] = await drive(spec_for("ui-tars-1.5-7b", server, parsing="paper", extra__smart_resize=28))
    assert reply.calls == [Proposal("click", {"x": 640, "y": 360})] and reply.reasoning == "the middle."


async def test_seed_cua_points_on_the_grid_and_memory(serve, spec_for, drive) -> None:
    server = serve("openai", [{"text": "Thought: a\nAction: click(point='<point>250 500</point>')"},
                              {"text": "Thought: b\nAction: hotkey(key='space')"},
                              {"text": "Thought: c\nAction: press_keys(keys='space up')"}])
    _, replies = await drive(spec_for("seed-1.8-cua", server), steps=3, cua={"clicks": True})
    assert replies[0].calls == [Proposal("click", {"x": 320, "y": 360})]
    assert replies[1].calls[0].refused  # hotkey is not in the original's action space
    assert replies[2].calls == [Proposal("press_keys", {"keys": ["Space", "ArrowUp"]})]
    history = [p.get("text") for p in server.posts(3)[2]["request"]["messages"][1]["content"]]
    # The history shows each step's screenshot and the action read from it; the refused one has no Action line.
    assert 'Action: {"action": "click", "x": 320, "y": 360}\n' in history
    assert sum(1 for t in history if t and t.startswith("Action:")) == 1 and history.count(None) == 3
