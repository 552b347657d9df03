"""The official ``google-genai`` SDK against the loopback endpoint (generateContent)."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx2
import pytest
from google import genai
from google.genai import errors, types

if TYPE_CHECKING:
    from conftest import Endpoint  # the fixture's return type, for readers and type checkers

Factory = Callable[..., "Endpoint"]


def client(ep: Endpoint, **options: Any) -> genai.Client:
    """An SDK client pointed at the endpoint."""
    return genai.Client(api_key="test", http_options=types.HttpOptions(base_url=ep.url, **options))


def config(schema: dict[str, Any] | None = None, computer: bool = False,
           excluded: list[str] | None = None) -> types.GenerateContentConfig:
    """Function declarations and/or the computer-use tool."""
    tools: list[Any] = []
    if schema is not None:
        tools.append(types.Tool(function_declarations=[
            types.FunctionDeclaration(name="reveal_cell", description="Reveal a cell.", parameters_json_schema=schema)]))
    if computer:
        tools.append(types.Tool(computer_use=types.ComputerUse(
            environment=types.Environment.ENVIRONMENT_BROWSER, excluded_predefined_functions=excluded)))
    return types.GenerateContentConfig(tools=tools, system_instruction="You play Minesweeper.")


@pytest.mark.asyncio
async def test_function_call_parses_and_usage_matches_log(endpoint: Factory, cell_schema: dict[str, Any]) -> None:
    ep = endpoint("gemini", seed=1)
    reply = await client(ep).aio.models.generate_content(model="gemini-3-flash-preview", contents="Play.",
                                                         config=config(cell_schema))
    calls = reply.function_calls or []
    assert [c.name for c in calls] == ["reveal_cell"]
    assert calls[0].args["cell"] in ("a1", "a2", "b1", "b2")  # type: ignore[index]
    parts = reply.candidates[0].content.parts  # type: ignore[index,union-attr]
    assert parts[0].thought is True and parts[-1].thought_signature  # type: ignore[index]
    assert reply.candidates[0].finish_reason == types.FinishReason.STOP  # type: ignore[index]
    record = ep.posts()[-1]
    assert record["path"].endswith("/models/gemini-3-flash-preview:generateContent")
    assert "systemInstruction" in record["request"]
    meta = reply.usage_metadata
    assert meta is not None
    assert meta.prompt_token_count == record["usage"]["input_tokens"]
    assert meta.candidates_token_count is not None and meta.thoughts_token_count is not None
    assert meta.candidates_token_count + meta.thoughts_token_count == record["usage"]["output_tokens"]
    assert meta.total_token_count == record["usage"]["input_tokens"] + record["usage"]["output_tokens"]


@pytest.mark.asyncio
async def test_computer_use_predefined_functions(endpoint: Factory, script: Callable[..., str],
                                                 screenshot_1024x768: str) -> None:
    policy = script([
        {"computer": {"action": "click", "x": 512, "y": 384}},
        {"computer": {"action": "key", "keys": "ctrl+c"}},
        {"computer": {"action": "type", "text": "hello", "x": 0, "y": 767}},
        {"computer": {"action": "scroll", "scroll_y": -200}},
        {"computer": {"name": "navigate", "args": {"url": "about:blank"}}, "text": "Opening."},
    ])
    ep = endpoint("gemini", policy=policy)
    c = client(ep)
    png = base64.b64decode(screenshot_1024x768.split(",", 1)[1])
    contents = [types.Content(role="user", parts=[types.Part(text="Play."),
                                                  types.Part.from_bytes(data=png, mime_type="image/png")])]
    got = []
    for _ in range(5):
        reply = await c.aio.models.generate_content(model="gemini-2.5-computer-use-preview-10-2025",
                                                    contents=contents, config=config(computer=True))
        (call,) = reply.function_calls or []
        got.append((call.name, call.args))
    # Pixel coordinates on the 1024x768 screenshot map onto Gemini's 0-999 grid.
    assert got == [
        ("click_at", {"x": 500, "y": 500}),
        ("key_combination", {"keys": "Control+c"}),
        ("type_text_at", {"x": 0, "y": 999, "text": "hello", "press_enter": False, "clear_before_typing": False}),
        ("scroll_document", {"direction": "up"}),
        ("navigate", {"url": "about:blank"}),
    ]
    assert reply.text == "Opening."
    record = ep.posts()[0]
    assert record["request"]["tools"][0]["computerUse"]["environment"] == "ENVIRONMENT_BROWSER"
    # One image at Gemini's flat 258 tokens, and the base64 payload is not counted as text.
    assert 258 < record["usage"]["input_tokens"] < 258 + 200


@pytest.mark.asyncio
async def test_random_computer_use_respects_exclusions(endpoint: Factory) -> None:
    ep = endpoint("gemini", seed=4)
    c = client(ep)
    for _ in range(8):
        reply = await c.aio.models.generate_content(model="g", contents="Play.",
                                                    config=config(computer=True, excluded=["click_at"]))
        (call,) = reply.function_calls or []
        assert call.name == "key_combination"
        assert call.args["keys"] in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Space", "Enter")  # type: ignore[index]


@pytest.mark.asyncio
async def test_malformed_arguments_become_malformed_function_call(endpoint: Factory, script: Callable[..., str],
                                                                  cell_schema: dict[str, Any]) -> None:
    raw = '{"cell": "a1"'
    ep = endpoint("gemini", policy=script([{"calls": [{"name": "reveal_cell", "arguments": raw}]},
                                           {"calls": [{"name": "reveal_cell", "arguments": '{"cell": "a2", "times": 2}'}]}]))
    c = client(ep)
    bad = await c.aio.models.generate_content(model="g", contents="Play.", config=config(cell_schema))
    assert bad.candidates[0].finish_reason == types.FinishReason.MALFORMED_FUNCTION_CALL  # type: ignore[index]
    assert not bad.function_calls
    assert ep.posts()[0]["response"]["candidates"][0]["finishMessage"].endswith(raw + ")")
    good = await c.aio.models.generate_content(model="g", contents="Play.", config=config(cell_schema))
    assert good.function_calls[0].args == {"cell": "a2", "times": 2}  # type: ignore[index]


@pytest.mark.asyncio
async def test_scripted_usage(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("gemini", policy=script([{"text": "hi", "reasoning": "hmm", "usage": {
        "input_tokens": 2000, "output_tokens": 80, "cached_tokens": 1500, "reasoning_tokens": 50}}]))
    reply = await client(ep).aio.models.generate_content(model="g", contents="Play.")
    meta = reply.usage_metadata
    assert meta is not None
    assert (meta.prompt_token_count, meta.candidates_token_count, meta.thoughts_token_count,
            meta.cached_content_token_count, meta.total_token_count) == (2000, 30, 50, 1500, 2080)
    assert reply.text == "hi"


@pytest.mark.asyncio
async def test_rate_limit_then_success_through_sdk_retry(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("gemini", policy=script([{"status": 429, "retry_after": 0.1}, {"text": "ok"}]))
    retry = types.HttpRetryOptions(attempts=3, initial_delay=0.05, max_delay=0.2, jitter=0)
    reply = await client(ep, retry_options=retry).aio.models.generate_content(model="g", contents="Play.")
    assert reply.text == "ok"
    first, second = ep.posts()
    assert first["status"] == 429
    assert first["response"]["error"]["status"] == "RESOURCE_EXHAUSTED"
    assert first["response"]["error"]["details"][0]["retryDelay"] == "0.1s"
    assert second["status"] == 200


@pytest.mark.asyncio
async def test_server_error_without_retries(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("gemini", policy=script([{"status": 500, "message": "boom"}]))
    with pytest.raises(errors.ServerError) as info:
        await client(ep).aio.models.generate_content(model="g", contents="Play.")
    assert info.value.code == 500 and info.value.status == "INTERNAL" and "boom" in str(info.value)


@pytest.mark.asyncio
async def test_delay_beyond_client_timeout(endpoint: Factory, script: Callable[..., str]) -> None:
    ep = endpoint("gemini", policy=script([{"delay_s": 5}]))
    # google-genai has no timeout error of its own: the httpx2 timeout propagates.
    with pytest.raises(httpx2.TimeoutException):
        await client(ep, timeout=500).aio.models.generate_content(model="g", contents="Play.")


@pytest.mark.asyncio
async def test_models_preflight(endpoint: Factory) -> None:
    ep = endpoint("gemini", policy="noop")
    model = await client(ep).aio.models.get(model="gemini-3-flash-preview")
    assert model.name == "models/gemini-3-flash-preview"
    assert "generateContent" in (model.supported_actions or [])
