"""Anthropic Messages (``POST /v1/messages``), errors and model lookups.

Two computer-use flavours: the classic single tool (``computer_20250124``,
``computer_20251124``, … with ``display_width_px``) answered by a ``tool_use`` with the
declared name and ``{action: …}`` input; and ``computer_toolset_20260801``, whose
members are their own tools, answered by ``tool_use`` named after the member with
``toolset_name: "computer"``.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from .computer import to_anthropic
from .core import ComputerSpec, Fault, PolicyInput, Reply, ToolCall, ToolSpec, Usage, new_id
from .wire import WireResponse, arguments_object, default_message, retry_headers

_ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error", 401: "authentication_error", 402: "billing_error",
    403: "permission_error", 404: "not_found_error", 408: "timeout_error",
    413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 504: "timeout_error",
    529: "overloaded_error",
}


def parse(body: dict[str, Any]) -> PolicyInput:
    """Custom tools, the computer tool or toolset, and system + messages."""
    tools: list[ToolSpec] = []
    computer: ComputerSpec | None = None
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict):
            continue
        kind = str(tool.get("type") or "custom")
        if kind.startswith("computer_toolset"):
            configs = tool.get("configs") or {}
            disabled = frozenset(m for m, c in configs.items() if isinstance(c, dict) and c.get("enabled") is False)
            computer = ComputerSpec(kind=kind, width=0, height=0, name="computer", disabled=disabled,
                                    declared_size=False)
        elif kind.startswith("computer_"):
            width, height = int(tool.get("display_width_px") or 0), int(tool.get("display_height_px") or 0)
            computer = ComputerSpec(kind=kind, width=width, height=height, name=str(tool.get("name") or "computer"),
                                    declared_size=width > 0 and height > 0)
        elif kind == "custom" and isinstance(tool.get("name"), str):
            tools.append(ToolSpec(tool["name"], tool.get("input_schema") or {"type": "object"},
                                  str(tool.get("description") or "")))
    messages = list(body.get("messages") or [])
    if body.get("system"):
        messages.insert(0, {"role": "system", "content": body["system"]})
    return PolicyInput(protocol="anthropic", endpoint="messages", model=str(body.get("model") or ""),
                       tools=tools, computer=computer, messages=messages)


def render(reply: Reply, inp: PolicyInput, usage: Usage) -> dict[str, Any]:
    """A ``message`` with thinking, text and ``tool_use`` blocks."""
    content: list[dict[str, Any]] = []
    if reply.reasoning is not None:
        content.append({"type": "thinking", "thinking": reply.reasoning, "signature": _signature(reply.reasoning)})
    if reply.text is not None:
        content.append({"type": "text", "text": reply.text})
    toolset = inp.computer is not None and inp.computer.kind.startswith("computer_toolset")
    for item in reply.calls:
        block: dict[str, Any] = {"type": "tool_use", "id": new_id("toolu_", 30)}
        if isinstance(item, ToolCall):
            # Anthropic always sends an object; a scripted malformed string that is not
            # a JSON object is passed through as-is so clients see exactly the script.
            block.update(name=item.name, input=arguments_object(item)[0])
        else:
            member, member_input = to_anthropic(item, inp.display)
            if toolset:
                block.update(name=member, input=member_input, toolset_name="computer")
            else:
                name = inp.computer.name if inp.computer is not None else "computer"
                block.update(name=name, input={"action": member, **member_input})
        block["caller"] = {"type": "direct"}
        content.append(block)
    return {
        "id": new_id("msg_", 30),
        "type": "message",
        "role": "assistant",
        "model": inp.model,
        "content": content,
        "stop_reason": "tool_use" if reply.calls else "end_turn",
        "stop_sequence": None,
        "stop_details": None,
        "container": None,
        "usage": {
            # Anthropic's input_tokens excludes cache reads; the two add up to the prompt size.
            "input_tokens": max(0, usage.input_tokens - usage.cached_tokens),
            "output_tokens": usage.output_tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": usage.cached_tokens,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
            "service_tier": "standard",
        },
    }


def _signature(text: str) -> str:
    """An opaque thinking signature; clients must echo it back, never read it."""
    return base64.b64encode(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest() * 2).decode()


def request_headers() -> dict[str, str]:
    """Anthropic puts its request id in ``request-id``."""
    return {"request-id": new_id("req_", 30)}


def error(fault: Fault) -> WireResponse:
    """``{"type": "error", "error": {type, message}, "request_id": …}``."""
    headers = request_headers()
    body = {
        "type": "error",
        "error": {"type": fault.error_type or _ERROR_TYPES.get(fault.status, "api_error"),
                  "message": fault.message or default_message(fault.status)},
        "request_id": headers["request-id"],
    }
    return WireResponse(fault.status, body, {**headers, **retry_headers(fault)})


def model_object(model_id: str) -> dict[str, Any]:
    """``GET /v1/models/{id}``; any id is accepted so preflight checks pass."""
    return {"type": "model", "id": model_id, "display_name": f"GameWorld endpoint ({model_id})",
            "created_at": "2025-01-01T00:00:00Z", "lifecycle": "active",
            "max_input_tokens": 200_000, "max_tokens": 64_000}


def model_list(ids: list[str]) -> dict[str, Any]:
    """``GET /v1/models``."""
    return {"data": [model_object(i) for i in ids], "has_more": False,
            "first_id": ids[0] if ids else None, "last_id": ids[-1] if ids else None}
