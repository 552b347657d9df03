"""OpenAI wire pieces shared by Chat Completions and Responses: errors, models, tools."""

from __future__ import annotations

import time
from typing import Any

from .core import Fault, ToolSpec, new_id
from .wire import WireResponse, default_message, retry_headers

_ERROR_KINDS: dict[int, tuple[str, str | None]] = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("permission_error", None),
    404: ("invalid_request_error", "model_not_found"),
    408: ("timeout", None),
    409: ("conflict", None),
    429: ("requests", "rate_limit_exceeded"),
}


def request_headers() -> dict[str, str]:
    """Headers every OpenAI answer carries (the SDK exposes ``x-request-id`` as ``_request_id``)."""
    return {"x-request-id": new_id("req_", 32), "openai-processing-ms": "1"}


def error(fault: Fault) -> WireResponse:
    """``{"error": {message, type, param, code}}`` as api.openai.com sends it."""
    kind, code = _ERROR_KINDS.get(fault.status, ("server_error", None))
    body = {"error": {
        "message": fault.message or default_message(fault.status),
        "type": fault.error_type or kind,
        "param": None,
        "code": code,
    }}
    return WireResponse(fault.status, body, {**request_headers(), **retry_headers(fault)})


def model_object(model_id: str) -> dict[str, Any]:
    """One entry of ``GET /v1/models``; any id is accepted so preflight checks pass."""
    return {"id": model_id, "object": "model", "created": 1_700_000_000, "owned_by": "gameworld"}


def model_list(ids: list[str]) -> dict[str, Any]:
    """``GET /v1/models``."""
    return {"object": "list", "data": [model_object(i) for i in ids]}


def function_tools(tools: list[Any], nested: bool) -> list[ToolSpec]:
    """Function tools from a request: Chat nests them under ``function``, Responses does not."""
    out: list[ToolSpec] = []
    for tool in tools or []:
        if not isinstance(tool, dict) or tool.get("type", "function") != "function":
            continue
        spec = tool.get("function", {}) if nested else tool
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            out.append(ToolSpec(spec["name"], spec.get("parameters") or {"type": "object"},
                                str(spec.get("description") or "")))
    return out


def now() -> int:
    """Unix seconds, as ``created`` fields carry."""
    return int(time.time())
