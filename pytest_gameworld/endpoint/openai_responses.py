"""OpenAI Responses (``POST /v1/responses``) with function tools and the computer tool.

``computer_use_preview`` (declared display size) answers with one ``computer_call`` per
action in ``action``; the GA ``computer`` tool (no size; taken from the screenshot)
answers with consecutive actions batched in one ``computer_call.actions`` list.
"""

from __future__ import annotations

from typing import Any

from .computer import to_openai
from .core import ComputerSpec, PolicyInput, Reply, ToolCall, Usage, new_id
from .openai_common import function_tools, now
from .wire import arguments_json

COMPUTER_TYPES: frozenset[str] = frozenset({"computer_use_preview", "computer"})


def parse(body: dict[str, Any]) -> PolicyInput:
    """Function tools, the computer tool (if any) and the input items (instructions first)."""
    tools = body.get("tools") or []
    computer: ComputerSpec | None = None
    for tool in tools:
        if isinstance(tool, dict) and tool.get("type") in COMPUTER_TYPES:
            width, height = int(tool.get("display_width") or 0), int(tool.get("display_height") or 0)
            computer = ComputerSpec(kind=str(tool["type"]), width=width, height=height,
                                    declared_size=width > 0 and height > 0)
    raw_input = body.get("input")
    messages: list[Any] = [{"role": "user", "content": raw_input}] if isinstance(raw_input, str) else list(raw_input or [])
    if body.get("instructions"):
        messages.insert(0, {"role": "system", "content": body["instructions"]})
    return PolicyInput(protocol="openai", endpoint="responses", model=str(body.get("model") or ""),
                       tools=function_tools(tools, nested=False), computer=computer, messages=messages)


def render(reply: Reply, inp: PolicyInput, usage: Usage, body: dict[str, Any]) -> dict[str, Any]:
    """A ``response`` object whose ``output`` holds reasoning, message and call items."""
    output: list[dict[str, Any]] = []
    if reply.reasoning is not None:
        output.append({"type": "reasoning", "id": new_id("rs_", 40), "status": "completed",
                       "summary": [{"type": "summary_text", "text": reply.reasoning}]})
    if reply.text is not None:
        output.append({"type": "message", "id": new_id("msg_", 40), "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": reply.text, "annotations": [], "logprobs": []}]})
    batched = inp.computer is not None and inp.computer.kind == "computer"
    for item in reply.calls:
        if isinstance(item, ToolCall):
            output.append({"type": "function_call", "id": new_id("fc_", 40), "call_id": new_id("call_", 24),
                           "name": item.name, "arguments": arguments_json(item), "status": "completed"})
            continue
        action = to_openai(item, inp.display)
        last = output[-1] if output else None
        if batched and last is not None and last["type"] == "computer_call":
            last["actions"].append(action)
        else:
            output.append(_computer_call(action, batched))
    created = now()
    return {
        "id": new_id("resp_", 40),
        "object": "response",
        "created_at": created,
        "completed_at": created,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "instructions": body.get("instructions"),
        "max_output_tokens": body.get("max_output_tokens"),
        "model": inp.model,
        "output": output,
        "parallel_tool_calls": body.get("parallel_tool_calls", True),
        "previous_response_id": body.get("previous_response_id"),
        "reasoning": body.get("reasoning") or {"effort": None, "summary": None},
        "store": body.get("store", True),
        "temperature": body.get("temperature", 1.0),
        "text": body.get("text") or {"format": {"type": "text"}},
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools") or [],
        "top_p": body.get("top_p", 1.0),
        "truncation": body.get("truncation", "disabled"),
        "usage": {
            "input_tokens": usage.input_tokens,
            "input_tokens_details": {"cached_tokens": usage.cached_tokens, "cache_write_tokens": 0},
            "output_tokens": usage.output_tokens,
            "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens},
            "total_tokens": usage.input_tokens + usage.output_tokens,
        },
        "metadata": body.get("metadata") or {},
    }


def _computer_call(action: dict[str, Any], batched: bool) -> dict[str, Any]:
    """A ``computer_call`` item holding ``action`` (preview) or ``actions`` (GA tool)."""
    item: dict[str, Any] = {"type": "computer_call", "id": new_id("cu_", 40), "call_id": new_id("call_", 24),
                            "pending_safety_checks": [], "status": "completed"}
    if batched:
        item["actions"] = [action]
    else:
        item["action"] = action
    return item

