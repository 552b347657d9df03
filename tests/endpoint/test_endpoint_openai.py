"""The official ``openai`` SDK against the loopback endpoint (Chat Completions and Responses)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import openai
import pytest
from openai.types.chat import ChatCompletionMessageFunctionToolCall
from openai.types.responses import ResponseComputerToolCall, ResponseFunctionToolCall, ResponseReasoningItem
from openai.types.responses.response_computer_tool_call import ActionClick, ActionKeypress

if TYPE_CHECKING:
    from conftest import Endpoint  # the fixture's return type, for readers and type checkers

Factory = Callable[..., "Endpoint"]


def chat_tools(schema: dict[str, Any]) -> list[Any]:
    """A semantic control plus ``wait``, as the generalist agent declares them."""
    return [
        {"type": "function", "function": {"name": "reveal_cell", "description": "Reveal a cell.", "parameters": schema}},
        {"type": "function", "function": {"name": "wait", "description": "Do nothing.",
                                          "parameters": {"type": "object", "properties": {}}}},
    ]


def client(ep: Endpoint, **kwargs: Any) -> openai.AsyncOpenAI:
    """An SDK client pointed at the endpoint."""
    return openai.AsyncOpenAI(base_url=ep.url, api_key="test", **kwargs)


@pytest.mark.asyncio
async def test_chat_tool_call_parses_into_typed_objects(endpoint: Factory, cell_schema: dict[str, Any]) -> None:
    ep = endpoint("openai")
    assert ep.banner.endswith("/v1")
    reply = await client(ep).chat.completions.create(
        model="qwen3-vl", messages=[{"role": "user", "content": "Play."}], tools=chat_tools(cell_schema))
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls"
    call = choice.message.tool_calls[0]  # type: ignore[index]
    assert isinstance(call, ChatCompletionMessageFunctionToolCall)
    assert call.function.name in ("reveal_cell", "wait")
    args = json.loads(call.function.arguments)
    if call.function.name == "reveal_cell":
        assert args["cell"] in ("a1", "a2", "b1", "b2") and 1 <= args["times"] <= 1000
    # vLLM-style reasoning travels as an extra field the SDK keeps.
    assert (choice.message.model_extra or {}).get("reasoning_content")
    record = ep.posts()[-1]
    assert record["path"] == "/v1/chat/completions"
    assert record["request"]["tools"][0]["function"]["name"] == "reveal_cell"
    assert reply.usage is not None
    assert reply.usage.prompt_tokens == record["response"]["usage"]["prompt_tokens"] == record["usage"]["input_tokens"]
    assert reply.usage.completion_tokens == record["usage"]["output_tokens"] > 0
    assert reply.usage.prompt_tokens_details.cached_tokens == 0  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_images_raise_estimated_input_tokens(endpoint: Factory, cell_schema: dict[str, Any],
                                                   screenshot_1024x768: str) -> None:
    ep = endpoint("openai", policy="noop")
    c = client(ep)
    text_only: Any = [{"role": "user", "content": [{"type": "text", "text": "Play."}]}]
    with_image: Any = [{"role": "user", "content": [{"type": "text", "text": "Play."},
                                               {"type": "image_url", "image_url": {"url": screenshot_1024x768}}]}]
    a = await c.chat.completions.create(model="m", messages=text_only, tools=chat_tools(cell_schema))
    b = await c.chat.completions.create(model="m", messages=with_image, tools=chat_tools(cell_schema))
    assert a.usage is not None and b.usage is not None
    # One image costs a fixed 765 tokens; its base64 payload is not counted as text.
    assert 765 <= b.usage.prompt_tokens - a.usage.prompt_tokens < 800
    # noop calls the declared wait tool.
    assert b.choices[0].message.tool_calls[0].function.name == "wait"  # type: ignore[index,union-attr]


@pytest.mark.asyncio
async def test_scripted_usage_reasoning_and_malformed_arguments(endpoint: Factory, script: Callable[..., str],
                                                                cell_schema: dict[str, Any]) -> None:
    raw = '{"cell": "a1", "times": '
    policy = script([
        {"text": "I will reveal a1.", "reasoning": "a1 is safe", "calls": [{"name": "reveal_cell", "arguments": raw}],
         "usage": {"input_tokens": 1500, "output_tokens": 42, "cached_tokens": 1024}},
        {"calls": [{"name": "reveal_cell", "arguments": raw}]},
    ])
    ep = endpoint("openai", policy=policy)
    c = client(ep)
    reply = await c.chat.completions.create(model="m", messages=[{"role": "user", "content": "go"}],
                                            tools=chat_tools(cell_schema))
    message = reply.choices[0].message
    assert message.content == "I will reveal a1."
    assert message.tool_calls[0].function.arguments == raw  # type: ignore[index,union-attr]
    assert (message.model_extra or {})["reasoning_content"] == "a1 is safe"
    assert reply.usage is not None
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.total_tokens) == (1500, 42, 1542)
    assert reply.usage.prompt_tokens_details.cached_tokens == 1024  # type: ignore[union-attr]
    resp = await c.responses.create(model="m", input="go", tools=[
        {"type": "function", "name": "reveal_cell", "parameters": cell_schema, "strict": False}])
    call = resp.output[0]
    assert isinstance(call, ResponseFunctionToolCall)
    assert call.arguments == raw and call.name == "reveal_cell" and call.call_id.startswith("call_")


@pytest.mark.asyncio
async def test_responses_function_call_and_usage(endpoint: Factory, cell_schema: dict[str, Any]) -> None:
    ep = endpoint("openai", seed=3)
    resp = await client(ep).responses.create(
        model="gpt-5.2", input=[{"role": "user", "content": [{"type": "input_text", "text": "Play."}]}],
        instructions="You play Minesweeper.",
        tools=[{"type": "function", "name": "reveal_cell", "parameters": cell_schema, "strict": False}])
    kinds = [type(item) for item in resp.output]
    assert kinds == [ResponseReasoningItem, ResponseFunctionToolCall]
    call = resp.output[1]
    assert isinstance(call, ResponseFunctionToolCall)
    assert json.loads(call.arguments)["cell"] in ("a1", "a2", "b1", "b2")
    record = ep.posts()[-1]
    assert record["path"] == "/v1/responses" and record["request"]["instructions"] == "You play Minesweeper."
    assert resp.usage is not None
    assert resp.usage.input_tokens == record["usage"]["input_tokens"]
    assert resp.usage.output_tokens == record["usage"]["output_tokens"]
    assert resp.usage.input_tokens_details.cached_tokens == 0


@pytest.mark.asyncio
async def test_computer_use_preview_actions(endpoint: Factory, script: Callable[..., str]) -> None:
    policy = script([
        {"computer": {"action": "click", "x": 100, "y": 200, "button": "right"}},
        {"computer": {"action": "key", "keys": ["ArrowLeft"]}},
        {"computer": [{"action": "drag", "path": [[1, 2], [30, 40]]}, {"action": "wait"}]},
        {"computer": {"openai": {"type": "scroll", "x": 5, "y": 6, "scroll_x": 0, "scroll_y": -300}}},
        {"computer": {"action": "type", "text": "hi"}},
    ])
    ep = endpoint("openai", policy=policy)
    tool: Any = {"type": "computer_use_preview", "display_width": 1024, "display_height": 768, "environment": "browser"}
    c = client(ep)
    outputs = [(await c.responses.create(model="computer-use-preview", input="go", tools=[tool],
                                         truncation="auto")).output for _ in range(5)]
    click = outputs[0][0]
    assert isinstance(click, ResponseComputerToolCall)
    assert click.pending_safety_checks == [] and click.actions is None
    assert isinstance(click.action, ActionClick)
    assert (click.action.button, click.action.x, click.action.y) == ("right", 100, 200)
    key = outputs[1][0]
    assert isinstance(key, ResponseComputerToolCall) and isinstance(key.action, ActionKeypress)
    assert key.action.keys == ["ARROWLEFT"]
    drag, wait = outputs[2]
    assert drag.action.type == "drag" and [(p.x, p.y) for p in drag.action.path] == [(1, 2), (30, 40)]  # type: ignore[union-attr]
    assert wait.action.type == "wait"  # type: ignore[union-attr]
    scroll = outputs[3][0]
    assert scroll.action.type == "scroll" and scroll.action.scroll_y == -300  # type: ignore[union-attr]
    assert outputs[4][0].action.text == "hi"  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_ga_computer_tool_batches_actions_and_uses_screenshot_size(
        endpoint: Factory, script: Callable[..., str], screenshot_1024x768: str) -> None:
    policy = script([{"computer": [{"action": "click", "x": 640, "y": 360},
                                   {"action": "type", "text": "penguin"}]}])
    ep = endpoint("openai", policy=policy)
    c = client(ep)
    resp = await c.responses.create(model="gpt-5.4", input="go", tools=[{"type": "computer"}])
    (call,) = resp.output
    assert isinstance(call, ResponseComputerToolCall) and call.action is None
    assert [a.type for a in call.actions or []] == ["click", "type"]
    # Random clicks stay inside the display, which for the GA tool comes from the screenshot.
    ep2 = endpoint("openai", policy="random", seed=11)
    c2 = client(ep2)
    for _ in range(6):
        resp = await c2.responses.create(model="gpt-5.4", tools=[{"type": "computer"}], input=[
            {"role": "user", "content": [{"type": "input_image", "image_url": screenshot_1024x768, "detail": "auto"}]}])
        item = next(i for i in resp.output if isinstance(i, ResponseComputerToolCall))
        (action,) = item.actions or []
        assert action.type in ("click", "keypress")
        if isinstance(action, openai.types.responses.computer_action.Click):
            assert 0 <= action.x < 1024 and 0 <= action.y < 768


@pytest.mark.asyncio
async def test_rate_limit_then_success_through_sdk_retry(endpoint: Factory, script: Callable[..., str],
                                                         cell_schema: dict[str, Any]) -> None:
    policy = script([{"status": 429, "retry_after": 0.2}, {"calls": [{"name": "wait", "arguments": {}}]}])
    ep = endpoint("openai", policy=policy)
    reply = await client(ep, max_retries=2).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "go"}], tools=chat_tools(cell_schema))
    assert reply.choices[0].message.tool_calls[0].function.name == "wait"  # type: ignore[index,union-attr]
    first, second = ep.posts()
    assert first["status"] == 429 and second["status"] == 200
    assert first["response"]["error"]["code"] == "rate_limit_exceeded"
    assert second["headers"]["x-stainless-retry-count"] == "1"
    assert second["ts"] - first["ts"] >= 0.18  # the SDK honoured Retry-After


@pytest.mark.asyncio
async def test_server_error_without_retries(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("openai", policy=script([{"status": 500, "message": "boom"}]))
    with pytest.raises(openai.InternalServerError) as info:
        await client(ep, max_retries=0).chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert info.value.status_code == 500 and "boom" in str(info.value)
    assert info.value.request_id and info.value.request_id.startswith("req_")
    assert len(ep.posts()) == 1


@pytest.mark.asyncio
async def test_delay_beyond_client_timeout(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("openai", policy=script([{"delay_s": 5}]))
    with pytest.raises(openai.APITimeoutError):
        await client(ep, max_retries=0, timeout=0.5).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}])


@pytest.mark.asyncio
async def test_models_preflight(endpoint: Factory) -> None:
    ep = endpoint("openai", extra=["--model", "qwen3-vl-30b"])
    c = client(ep)
    model = await c.models.retrieve("Qwen/Qwen3-VL-30B-A3B")
    assert model.id == "Qwen/Qwen3-VL-30B-A3B" and model.object == "model"
    listed = [m.id async for m in c.models.list()]
    assert listed == ["qwen3-vl-30b"]
    with pytest.raises(openai.NotFoundError):
        await c.post("/no/such/route", cast_to=object, body={})
