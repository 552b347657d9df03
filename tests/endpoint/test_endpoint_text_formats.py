"""Requests that declare no tools (Qwen3-VL and Seed/UI-TARS text formats) through the official ``openai`` SDK:
the server reads what the prompt offers and answers in that format, read back by the harness's own parsers."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import openai
import pytest

from pytest_gameworld.agents.providers import qwen_format, uitars_format
from pytest_gameworld.catalog.loader import load_catalog

CATALOG = load_catalog()
ROLE = CATALOG.games["01-2048"].roles["player"]
LEGAL_KEYS = {"ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"}
QWEN_GENERALIST = ("REGISTERED ACTIONS (the only actions you have; choose exactly one per step):\n"
                   "- `wait`: Do nothing.\n- `reveal_cell`: Reveal a cell. (arguments: cell, times (optional))\n\n"
                   "## Output Format\nthen one <tool_call>...</tool_call> block holding only the JSON.")


async def ask(ep: Any, system: str | None, user: str) -> str:
    """One Chat Completions request without tools; the reply's text."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": [{"type": "text", "text": user}]})
    reply = await openai.AsyncOpenAI(base_url=ep.url, api_key="test").chat.completions.create(
        model="local", messages=messages)  # type: ignore[arg-type]
    assert not reply.choices[0].message.tool_calls
    return reply.choices[0].message.content or ""


@pytest.mark.asyncio
async def test_random_answers_qwen_computer_use_with_legal_actions(endpoint: Callable[..., Any]) -> None:
    ep = endpoint("openai")
    prompt = qwen_format.declaration(ROLE, (1280, 720)) + "\n\nThe game and your task: play 2048."
    kinds = []
    for _ in range(12):  # one conversation: the n-th turn gets the n-th random draw
        text = await ask(ep, None, prompt)
        calls = qwen_format.parse_original(text, "cua")
        assert len(calls) == 1 and not calls[0].malformed, text
        kinds.append(calls[0].name)
        if calls[0].name == "press_key":  # a key the declaration names, never a made-up one
            assert calls[0].args["key"] in LEGAL_KEYS, text
        else:
            assert calls[0].name == "click" and 0 <= calls[0].args["x"] <= 1000 and 0 <= calls[0].args["y"] <= 1000
    assert set(kinds) == {"click", "press_key"}, kinds


@pytest.mark.asyncio
async def test_random_answers_uitars_with_action_lines(endpoint: Callable[..., Any]) -> None:
    ep = endpoint("openai")
    kinds = []
    for _ in range(12):
        text = await ask(ep, uitars_format.system_text("Play 2048.", ROLE), "Current screen:\n")
        assert text.startswith("Thought: ") and "\nAction: " in text, text
        calls = uitars_format.parse_original(text, normalized=False)
        assert len(calls) == 1 and not calls[0].malformed and calls[0].name in ("click", "press_key"), text
        kinds.append(calls[0].name)
        if calls[0].name == "press_key":
            assert calls[0].args["key"] in LEGAL_KEYS, text
    assert set(kinds) == {"click", "press_key"}, kinds


@pytest.mark.asyncio
async def test_random_answers_qwen_generalist_with_a_listed_control(endpoint: Callable[..., Any]) -> None:
    ep = endpoint("openai")
    seen = set()
    for turn in range(6):
        text = await ask(ep, QWEN_GENERALIST, f"Current screen {turn}:\n")
        calls = qwen_format.parse_original(text, "generalist")
        assert len(calls) == 1 and calls[0].name in ("wait", "reveal_cell"), text
        if calls[0].name == "reveal_cell":
            assert isinstance(calls[0].args["cell"], str)  # the required argument is filled
        seen.add(calls[0].name)
    assert seen == {"wait", "reveal_cell"}


@pytest.mark.asyncio
async def test_scripted_calls_and_computer_actions_are_written_as_text(serve: Callable[..., Any]) -> None:
    entries = [
        {"reasoning": "left keeps the corner", "calls": [{"name": "move_left", "arguments": {}}]},
        {"computer": {"action": "click", "x": 300, "y": 200, "button": "right"}},
        {"computer": {"action": "key", "keys": ["ArrowUp"]}},
        {"computer": {"action": "drag", "path": [[10, 20], [30, 40]]}},
        {"text": "I will just wait."},
    ]
    ep = serve("openai", entries)
    first = await ask(ep, QWEN_GENERALIST, "Current screen:\n")
    assert first.startswith("<think>\nleft keeps the corner\n</think>")
    assert [c.name for c in qwen_format.parse_original(first, "generalist")] == ["move_left"]
    uitars = uitars_format.system_text("Play 2048.", ROLE)
    right = uitars_format.parse_original(await ask(ep, uitars, "s"), normalized=False)
    assert [(c.name, c.args) for c in right] == [("click", {"x": 300.0, "y": 200.0, "button": "right"})]
    up = qwen_format.parse_original(await ask(ep, None, qwen_format.declaration(ROLE, (1280, 720))), "cua")
    assert [(c.name, c.args) for c in up] == [("press_key", {"key": "ArrowUp"})]
    drag = uitars_format.parse_original(await ask(ep, uitars, "s"), normalized=False)
    assert [(c.name, c.args) for c in drag] == [("drag", {"x": 10.0, "y": 20.0, "to_x": 30.0, "to_y": 40.0})]
    assert await ask(ep, QWEN_GENERALIST, "s") == "I will just wait."  # text alone stays text


@pytest.mark.asyncio
async def test_a_request_that_offers_nothing_still_gets_the_plain_answer(endpoint: Callable[..., Any]) -> None:
    ep = endpoint("openai")
    text = await ask(ep, "You are helpful.", "Hello.")
    assert "No tools were declared" in text
    logged = ep.posts()[-1]["response"]["choices"][0]["message"]
    assert json.dumps(logged).count("tool_calls") == 0
