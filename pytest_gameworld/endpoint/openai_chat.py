"""OpenAI Chat Completions (``POST /v1/chat/completions``), as OpenAI and vLLM answer it."""

from __future__ import annotations

import json
from typing import Any

from .core import PolicyInput, Reply, ToolCall, ToolSpec, Usage, new_id
from .openai_common import function_tools, now
from .wire import arguments_json


def parse(body: dict[str, Any]) -> PolicyInput:
    """Declared function tools (plus legacy ``functions``) and the messages."""
    tools = function_tools(body.get("tools") or [], nested=True)
    for fn in body.get("functions") or []:
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            tools.append(ToolSpec(fn["name"], fn.get("parameters") or {"type": "object"}))
    return PolicyInput(protocol="openai", endpoint="chat.completions", model=str(body.get("model") or ""),
                       tools=tools, computer=None, messages=list(body.get("messages") or []))


def render(reply: Reply, inp: PolicyInput, usage: Usage) -> dict[str, Any]:
    """A ``chat.completion`` object; computer actions become a ``computer`` function call
    with the neutral action as arguments, since Chat Completions has no native tool."""
    tool_calls: list[dict[str, Any]] = []
    for item in reply.calls:
        if isinstance(item, ToolCall):
            name, arguments = item.name, arguments_json(item)
        else:
            name, arguments = "computer", json.dumps(item.to_dict(), separators=(",", ":"))
        tool_calls.append({"id": new_id("call_", 24), "type": "function",
                           "function": {"name": name, "arguments": arguments}})
    message: dict[str, Any] = {"role": "assistant", "content": reply.text, "refusal": None,
                               "annotations": []}
    if tool_calls:
        message["tool_calls"] = tool_calls
    if reply.reasoning is not None:
        # vLLM's reasoning parsers fill ``reasoning_content``; newer vLLM also sends
        # ``reasoning``. Clients read whichever they know.
        message["reasoning_content"] = reply.reasoning
        message["reasoning"] = reply.reasoning
    return {
        "id": new_id("chatcmpl-", 29),
        "object": "chat.completion",
        "created": now(),
        "model": inp.model,
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": "tool_calls" if tool_calls else "stop"}],
        "usage": {
            "prompt_tokens": usage.input_tokens,
            "completion_tokens": usage.output_tokens,
            "total_tokens": usage.input_tokens + usage.output_tokens,
            "prompt_tokens_details": {"cached_tokens": usage.cached_tokens, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": usage.reasoning_tokens, "audio_tokens": 0,
                                          "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
        },
        "service_tier": "default",
        "system_fingerprint": "fp_gameworld",
    }

