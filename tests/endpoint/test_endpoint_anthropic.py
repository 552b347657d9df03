"""The official ``anthropic`` SDK against the loopback endpoint (Messages API)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anthropic
import pydantic
import pytest
from anthropic.types import ComputerToolUseBlock, TextBlock, ThinkingBlock, ToolUseBlock
from anthropic.types.beta import BetaToolUseBlock

if TYPE_CHECKING:
    from conftest import Endpoint  # the fixture's return type, for readers and type checkers

Factory = Callable[..., "Endpoint"]
USER = [{"role": "user", "content": "Play."}]


def client(ep: Endpoint, **kwargs: Any) -> anthropic.AsyncAnthropic:
    """An SDK client pointed at the endpoint."""
    return anthropic.AsyncAnthropic(base_url=ep.url, api_key="test", **kwargs)


def tools(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """A semantic control plus ``wait``."""
    return [{"name": "reveal_cell", "description": "Reveal a cell.", "input_schema": schema},
            {"name": "wait", "description": "Do nothing.", "input_schema": {"type": "object", "properties": {}}}]


@pytest.mark.asyncio
async def test_tool_use_parses_and_usage_matches_log(endpoint: Factory, cell_schema: dict[str, Any]) -> None:
    ep = endpoint("anthropic", seed=5)
    assert ep.banner.startswith("serving anthropic on http://127.0.0.1:") and not ep.url.endswith("/v1")
    msg = await client(ep).messages.create(model="claude-sonnet-4-6", max_tokens=512, messages=USER,  # type: ignore[arg-type]
                                           system="You play Minesweeper.", tools=tools(cell_schema))  # type: ignore[arg-type]
    assert msg.stop_reason == "tool_use"
    assert isinstance(msg.content[0], ThinkingBlock) and msg.content[0].signature
    use = msg.content[-1]
    assert isinstance(use, ToolUseBlock) and use.id.startswith("toolu_")
    assert use.name in ("reveal_cell", "wait")
    if use.name == "reveal_cell":
        assert use.input["cell"] in ("a1", "a2", "b1", "b2")
    record = ep.posts()[-1]
    assert record["path"] == "/v1/messages" and record["request"]["system"] == "You play Minesweeper."
    assert record["headers"]["anthropic-version"]
    assert msg.usage.input_tokens == record["usage"]["input_tokens"] == record["response"]["usage"]["input_tokens"]
    assert msg.usage.output_tokens == record["usage"]["output_tokens"]
    assert msg.usage.cache_read_input_tokens == 0


@pytest.mark.asyncio
async def test_scripted_text_usage_and_malformed_input(endpoint: Factory, script: Callable[..., str],
                                                       cell_schema: dict[str, Any]) -> None:
    raw = '{"cell": "b2"'
    policy = script("""
- text: Revealing b2.
  reasoning: b2 has no neighbours.
  calls: [{name: reveal_cell, arguments: {cell: b2, times: 1}}]
  usage: {input_tokens: 900, output_tokens: 30, cached_tokens: 700}
- calls: [{name: reveal_cell, arguments: '%s'}]
- text: No move this turn.
""" % raw, suffix=".yaml")  # noqa: UP031 (str.format would need every brace of the YAML doubled)
    ep = endpoint("anthropic", policy=policy)
    c = client(ep)
    first = await c.messages.create(model="m", max_tokens=64, messages=USER, tools=tools(cell_schema))  # type: ignore[arg-type]
    assert [type(b) for b in first.content] == [ThinkingBlock, TextBlock, ToolUseBlock]
    assert first.content[2].input == {"cell": "b2", "times": 1}  # type: ignore[union-attr]
    # Anthropic counts cache reads apart: 900 prompt tokens of which 700 cached is input_tokens=200.
    assert (first.usage.input_tokens, first.usage.output_tokens, first.usage.cache_read_input_tokens) == (200, 30, 700)
    second = await c.messages.create(model="m", max_tokens=64, messages=USER, tools=tools(cell_schema))  # type: ignore[arg-type]
    assert second.content[0].input == raw  # type: ignore[union-attr]  # verbatim, not parsed
    third = await c.messages.create(model="m", max_tokens=64, messages=USER, tools=tools(cell_schema))  # type: ignore[arg-type]
    assert third.stop_reason == "end_turn" and third.content[0].text == "No move this turn."  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_classic_computer_tool(endpoint: Factory, script: Callable[..., str]) -> None:
    policy = script([
        {"computer": {"action": "key", "keys": ["ArrowLeft"]}},
        {"computer": {"action": "click", "x": 10, "y": 20, "button": "right"}},
        {"computer": {"action": "wait", "duration_s": 2}},
        {"computer": {"type": "keypress", "keys": ["CTRL", "c"]}},  # OpenAI's vocabulary works too
        {"computer": {"action": "drag", "path": [[1, 2], [3, 4]]}},
        {"computer": {"action": "scroll", "x": 5, "y": 6, "scroll_y": 300}},
    ])
    ep = endpoint("anthropic", policy=policy)
    tool = {"type": "computer_20251124", "name": "computer", "display_width_px": 1280, "display_height_px": 720}
    c = client(ep)
    inputs = []
    for _ in range(6):
        msg = await c.beta.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=USER,  # type: ignore[arg-type]
                                           tools=[tool], betas=["computer-use-2025-11-24"])  # type: ignore[list-item]
        (block,) = msg.content
        assert isinstance(block, BetaToolUseBlock) and block.name == "computer" and msg.stop_reason == "tool_use"
        inputs.append(block.input)
    assert inputs == [
        {"action": "key", "text": "Left"},
        {"action": "right_click", "coordinate": [10, 20]},
        {"action": "wait", "duration": 2},
        {"action": "key", "text": "ctrl+c"},
        {"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [3, 4]},
        {"action": "scroll", "coordinate": [5, 6], "scroll_direction": "down", "scroll_amount": 3},
    ]
    assert ep.posts()[0]["headers"]["anthropic-beta"] == "computer-use-2025-11-24"


@pytest.mark.asyncio
async def test_computer_toolset_members_validate_as_sdk_types(endpoint: Factory) -> None:
    ep = endpoint("anthropic", seed=2)
    adapter: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(ComputerToolUseBlock)
    seen = set()
    c = client(ep)
    toolset = {"type": "computer_toolset_20260801", "configs": {"key": {"enabled": False}}}
    for _ in range(6):
        msg = await c.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=USER, tools=[toolset])  # type: ignore[arg-type,list-item]
        (block,) = [b for b in msg.content if b.type == "tool_use"]
        assert block.toolset_name == "computer"
        typed = adapter.validate_python(block.model_dump())
        seen.add(typed.name)
        assert 0 <= typed.input.coordinate[0] < 1280 and 0 <= typed.input.coordinate[1] < 720
    # The request disabled "key", so only clicks remain.
    assert seen == {"left_click"}


@pytest.mark.asyncio
async def test_rate_limit_then_success_through_sdk_retry(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("anthropic", policy=script([{"status": 429, "retry_after": 0.2}, {"text": "ok"}]))
    msg = await client(ep, max_retries=2).messages.create(model="m", max_tokens=16, messages=USER)  # type: ignore[arg-type]
    assert msg.content[0].text == "ok"  # type: ignore[union-attr]
    first, second = ep.posts()
    assert first["status"] == 429 and first["response"]["error"]["type"] == "rate_limit_error"
    assert first["response"]["type"] == "error"
    assert second["status"] == 200 and second["headers"]["x-stainless-retry-count"] == "1"


@pytest.mark.asyncio
async def test_server_error_and_overload_without_retries(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("anthropic", policy=script({"loop": True, "entries": [{"status": 500}, {"status": 529}]}))
    c = client(ep, max_retries=0)
    with pytest.raises(anthropic.InternalServerError) as info:
        await c.messages.create(model="m", max_tokens=16, messages=USER)  # type: ignore[arg-type]
    assert info.value.status_code == 500 and info.value.request_id
    with pytest.raises(anthropic.APIStatusError) as overloaded:
        await c.messages.create(model="m", max_tokens=16, messages=USER)  # type: ignore[arg-type]
    assert overloaded.value.status_code == 529
    assert overloaded.value.body["error"]["type"] == "overloaded_error"  # type: ignore[index]


@pytest.mark.asyncio
async def test_delay_beyond_client_timeout(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("anthropic", policy=script([{"delay_s": 5, "text": "too late"}]))
    with pytest.raises(anthropic.APITimeoutError):
        await client(ep, max_retries=0, timeout=0.5).messages.create(model="m", max_tokens=16, messages=USER)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_models_preflight_and_count_tokens(endpoint: Factory) -> None:
    ep = endpoint("anthropic", policy="noop")
    c = client(ep)
    info = await c.models.retrieve("claude-sonnet-4-6")
    assert info.id == "claude-sonnet-4-6" and info.type == "model"
    count = await c.messages.count_tokens(model="m", messages=USER)  # type: ignore[arg-type]
    msg = await c.messages.create(model="m", max_tokens=16, messages=USER)  # type: ignore[arg-type]
    assert count.input_tokens > 0 and msg.content[0].text == "Waiting."  # type: ignore[union-attr]
