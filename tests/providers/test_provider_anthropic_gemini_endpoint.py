"""Anthropic Messages and Gemini generate_content agents against the loopback endpoint."""

from __future__ import annotations

import inspect
import warnings

import anthropic
import pytest

from pytest_gameworld.agents.providers.sdk import ProviderParameterWarning
from pytest_gameworld.play.actions import Proposal, parse_cua

pytestmark = pytest.mark.asyncio


async def test_anthropic_generalist_tool_use(
        serve, spec_for, drive, control_call, no_secret, scripted_usage) -> None:
    name, args = control_call
    server = serve("anthropic", [{"reasoning": "a careful thought", "text": "doing it",
                                  "calls": [{"name": name, "arguments": args}], "usage": scripted_usage}])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, [reply] = await drive(spec_for("claude-sonnet-4.6", server))
    if "temperature" not in inspect.signature(anthropic.AsyncAnthropic(api_key="k").messages.create).parameters:
        assert any(issubclass(w.category, ProviderParameterWarning) and "temperature" in str(w.message)
                   for w in caught)
    assert reply.calls == [Proposal(name, args)]
    assert reply.reasoning == "a careful thought" and reply.text == "doing it"
    logged = server.posts(1)[-1]
    assert logged["path"] == "/v1/messages"
    wire = logged["response"]["usage"]
    # Anthropic's input_tokens excludes cache reads: the agent adds them back, cached counts them.
    assert reply.usage.input_tokens == wire["input_tokens"] + wire["cache_read_input_tokens"]
    assert reply.usage.cached_tokens == logged["usage"]["cached_tokens"]
    assert reply.usage.output_tokens == logged["usage"]["output_tokens"]
    # Claude as the original sends it: strict tools with a required reasoning argument, no forced tool
    # choice, temperature 0 (in the body when the installed SDK has no argument for it), 2048 tokens.
    assert "tool_choice" not in reply.request and logged["request"]["temperature"] == 0.0
    assert logged["request"]["max_tokens"] == 2048 and logged["request"]["system"]
    assert {t["name"] for t in reply.request["tools"]} >= {name}
    for tool in reply.request["tools"]:
        schema = tool["input_schema"]
        assert tool["strict"] is True and schema["additionalProperties"] is False and "reasoning" in schema["required"]
    assert reply.request["messages"][0]["content"][-1]["source"]["data"].startswith("<image png 1280x720")
    no_secret(reply.request, reply.raw, reply.text)


async def test_anthropic_native_computer_tool_as_the_original(serve, spec_for, drive, make_ctx) -> None:
    server = serve("anthropic", [
        {"computer": {"action": "left_click", "coordinate": [100, 200]}},
        {"computer": {"action": "right_click", "coordinate": [10, 20]}},
        {"computer": {"action": "key", "keys": ["ArrowLeft"]}},
        {"computer": {"action": "scroll", "coordinate": [5, 6], "scroll_direction": "up", "scroll_amount": 3}},
        {"computer": {"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [3, 40]}},
        {"computer": {"action": "hold_key", "keys": ["space"], "duration": 1}},
        {"computer": {"action": "type", "text": "go"}},
        {"computer": {"action": "wait", "duration": 1}},
        {"computer": {"action": "screenshot"}},
    ])
    spec = spec_for("claude-sonnet-4.6-cua", server)
    _, replies = await drive(spec, steps=9)
    calls = [r.calls[0] if r.calls else None for r in replies]
    assert calls[0] == Proposal("click", {"x": 100, "y": 200})
    assert calls[1] == Proposal("click", {"x": 10, "y": 20, "button": "right"})
    assert calls[2] == Proposal("press_key", {"key": "ArrowLeft"})  # xdotool "Left", read as the original reads it
    assert calls[3] == Proposal("press_key", {"key": "ArrowUp"})  # a scroll presses its arrow key
    assert calls[4] == Proposal("drag", {"x": 1, "y": 2, "to_x": 3, "to_y": 40})
    assert calls[5] == Proposal("press_key", {"key": "Space", "duration": 1.0})
    assert calls[6] == Proposal("type", {"text": "go"})
    assert calls[7] == Proposal("wait", {"duration": 1.0})
    assert calls[8] is None  # a screenshot request is no action
    ctx = make_ctx(spec)
    cua = ctx.role.cua.model_copy(update={"keys": ["ArrowLeft", "Space"], "clicks": True})
    assert parse_cua(calls[2], cua, ctx.game.viewport).action.keys == ("ArrowLeft",)
    assert parse_cua(calls[5], cua, ctx.game.viewport).action.keys == (" ",)
    assert parse_cua(calls[1], cua, ctx.game.viewport).action.button == "right"
    request = replies[0].request
    assert request["betas"] == ["computer-use-2025-11-24"]
    assert request["tools"] == [{"type": "computer_20251124", "name": "computer", "display_width_px": 1280,
                                 "display_height_px": 720, "display_number": 1}]
    assert "tool_choice" not in request and "temperature" not in request and "extra_body" not in request
    assert request["max_tokens"] == 2048
    assert server.posts(9)[0]["headers"]["anthropic-beta"] == "computer-use-2025-11-24"


async def test_anthropic_native_computer_tool_with_the_papers_parsing(serve, spec_for, drive) -> None:
    server = serve("anthropic", [
        {"computer": {"action": "key", "keys": ["ArrowLeft"]}},
        {"computer": {"action": "scroll", "coordinate": [5, 6], "scroll_direction": "down", "scroll_amount": 3}},
    ])
    _, replies = await drive(spec_for("claude-sonnet-4.6-cua", server, parsing="paper"), steps=2)
    assert replies[0].calls == [Proposal("press_key", {"key": "Left"})]
    assert replies[1].calls == [Proposal("scroll", {"x": 5, "y": 6, "direction": "down", "amount": 3})]


async def test_anthropic_computer_toolset_and_downscaling(serve, spec_for, drive) -> None:
    server = serve("anthropic", [{"computer": {"action": "left_click", "coordinate": [320, 180]}}])
    spec = spec_for("claude-sonnet-4.6-cua", server, extra__computer_tool="computer_toolset_20260801",
                    screenshot_width=640)
    _, [reply] = await drive(spec)
    assert reply.request["tools"] == [{"type": "computer_toolset_20260801"}] and "betas" not in reply.request
    assert reply.calls == [Proposal("click", {"x": 640, "y": 360})]
    assert server.posts(1)[0]["response"]["content"][0]["toolset_name"] == "computer"


async def test_gemini_generalist_function_call(
        serve, spec_for, drive, control_call, no_secret, scripted_usage) -> None:
    name, args = control_call
    server = serve("gemini", [{"reasoning": "gemini thought", "calls": [{"name": name, "arguments": args}],
                               "usage": scripted_usage}])
    _, [reply] = await drive(spec_for("gemini-3-flash", server))
    assert reply.calls == [Proposal(name, args)] and reply.reasoning == "gemini thought"
    logged = server.posts(1)[-1]
    assert logged["path"].endswith(":generateContent")
    assert reply.usage.to_json() == {k: logged["usage"][k] for k in ("input_tokens", "output_tokens", "cached_tokens")}
    config = reply.request["config"]
    assert config["tool_config"] == {"function_calling_config": {"mode": "ANY"}}
    declarations = config["tools"][0]["function_declarations"]
    assert name in {d["name"] for d in declarations}
    assert all("reasoning" in d["parameters"]["required"] for d in declarations)
    # The API's own sampling, limits and thinking, as the original leaves them.
    assert not {"temperature", "max_output_tokens", "thinking_config"} & set(config)
    assert config["automatic_function_calling"] == {"disable": True}
    assert reply.request["contents"][0]["parts"][-1]["inline_data"]["data"].startswith("<image png 1280x720")
    no_secret(reply.request, reply.raw, reply.text)


@pytest.mark.parametrize("parsing", ["original", "paper"])
async def test_gemini_malformed_function_call(serve, spec_for, drive, control_call, parsing) -> None:
    name, _ = control_call
    server = serve("gemini", [{"calls": [{"name": name, "arguments": "{not json"}]}])
    _, [reply] = await drive(spec_for("gemini-3-flash", server, parsing=parsing))
    # Gemini answers MALFORMED_FUNCTION_CALL instead of the call: no call at all for the original (NTC),
    # a nameless malformed call (OOS) by the paper's reading.
    assert len(reply.calls) == 1 and reply.calls[0].malformed
    assert reply.calls[0].refused is (parsing == "original")


async def test_gemini_native_computer_use_on_the_0_999_grid(serve, spec_for, drive) -> None:
    server = serve("gemini", [
        {"computer": {"action": "click_at", "x": 500, "y": 500}},
        {"computer": {"action": "key_combination", "keys": "Control+a"}},
        {"computer": {"action": "scroll_at", "x": 250, "y": 250, "direction": "down", "magnitude": 500}},
        {"computer": {"action": "drag_and_drop", "x": 0, "y": 0, "destination_x": 999, "destination_y": 999}},
        {"computer": {"action": "wait_5_seconds"}},
        {"computer": {"gemini": {"name": "click_at", "args": {"x": 250, "y": 500, "button": "right"}}}},
        {"computer": {"gemini": {"name": "navigate", "args": {"url": "https://example.com"}}}},
    ])
    _, replies = await drive(spec_for("gemini-2.5-computer-use", server, screenshot_width=640), steps=7)
    calls = [r.calls[0] for r in replies]
    assert calls[0] == Proposal("click", {"x": 640, "y": 360})
    assert calls[1] == Proposal("press_keys", {"keys": ["Control", "a"]})
    assert calls[2] == Proposal("press_key", {"key": "ArrowDown"})  # a scroll presses its arrow key
    assert calls[3] == Proposal("drag", {"x": 0, "y": 0, "to_x": 1279, "to_y": 719, "duration": 0.5})
    assert calls[4] == Proposal("wait", {"duration": 5.0})
    assert calls[5] == Proposal("click", {"x": 320, "y": 360, "button": "right"})
    assert calls[6].refused  # a navigation function is no game action: no tool call
    config = replies[0].request["config"]
    tool = config["tools"][0]["computer_use"]
    assert tool["environment"] == "ENVIRONMENT_BROWSER"
    assert tool["excluded_predefined_functions"] == ["open_web_browser", "go_back", "go_forward", "search",
                                                     "navigate", "scroll_document"]
    assert not {"temperature", "max_output_tokens"} & set(config)


async def test_history_images_never_reach_the_record(serve, spec_for, drive) -> None:
    server = serve("anthropic", policy="random")
    _, replies = await drive(spec_for("claude-sonnet-4.6-cua", server, memory_rounds=1), steps=3)
    for reply in replies[1:]:
        images = [b["source"]["data"] for b in reply.request["messages"][0]["content"] if b["type"] == "image"]
        assert len(images) == 2 and all(d.startswith("<image png 1280x720") for d in images)
