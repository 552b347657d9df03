"""Gemini ``generateContent`` (``POST /v1beta/models/{model}:generateContent``).

Function declarations come back as ``functionCall`` parts; the computer-use tool
(``computerUse``) is answered with Gemini's predefined functions (``click_at``,
``key_combination``, …) on the 0-999 coordinate grid.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from .computer import to_gemini
from .core import ComputerSpec, Fault, PolicyInput, Reply, ToolCall, ToolSpec, Usage, new_id
from .wire import WireResponse, arguments_json, arguments_object, default_message, retry_headers

_STATUS: dict[int, str] = {
    400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
    408: "DEADLINE_EXCEEDED", 409: "ABORTED", 429: "RESOURCE_EXHAUSTED", 499: "CANCELLED",
    500: "INTERNAL", 501: "UNIMPLEMENTED", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
}


def _get(obj: dict[str, Any], camel: str, snake: str) -> Any:
    """A field under its wire (camelCase) or SDK (snake_case) name; the SDK sends both styles
    depending on whether the value was a dict or a pydantic model."""
    return obj.get(camel, obj.get(snake))


def parse(body: dict[str, Any], model: str) -> PolicyInput:
    """Function declarations, the computer-use tool, and system instruction + contents."""
    tools: list[ToolSpec] = []
    computer: ComputerSpec | None = None
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict):
            continue
        for decl in _get(tool, "functionDeclarations", "function_declarations") or []:
            if isinstance(decl, dict) and isinstance(decl.get("name"), str):
                schema = _get(decl, "parametersJsonSchema", "parameters_json_schema") or decl.get("parameters")
                tools.append(ToolSpec(decl["name"], schema or {"type": "object"}, str(decl.get("description") or "")))
        use = _get(tool, "computerUse", "computer_use")
        if isinstance(use, dict):
            excluded = _get(use, "excludedPredefinedFunctions", "excluded_predefined_functions") or []
            computer = ComputerSpec(kind="computerUse", width=0, height=0, name="computer_use",
                                    disabled=frozenset(map(str, excluded)), declared_size=False)
    messages = list(body.get("contents") or [])
    system = _get(body, "systemInstruction", "system_instruction")
    if system:
        messages.insert(0, {"role": "system", "parts": system.get("parts", system) if isinstance(system, dict) else system})
    return PolicyInput(protocol="gemini", endpoint="generateContent", model=model, tools=tools,
                       computer=computer, messages=messages)


def render(reply: Reply, inp: PolicyInput, usage: Usage) -> dict[str, Any]:
    """A ``GenerateContentResponse`` with thought, text and ``functionCall`` parts."""
    parts: list[dict[str, Any]] = []
    if reply.reasoning is not None:
        parts.append({"text": reply.reasoning, "thought": True})
    if reply.text is not None:
        parts.append({"text": reply.text})
    malformed: str | None = None
    for item in reply.calls:
        if isinstance(item, ToolCall):
            args, ok = arguments_object(item)
            if not ok:
                # Gemini never returns unparsable args; it reports the turn as
                # MALFORMED_FUNCTION_CALL with the model's text in finishMessage.
                malformed = f"Malformed function call: {item.name}({arguments_json(item)})"
                continue
            name = item.name
        else:
            name, args = to_gemini(item, inp.display)
        part: dict[str, Any] = {"functionCall": {"name": name, "args": args}}
        if not any("functionCall" in p for p in parts):
            # Gemini 3 signs the first function call of a turn; clients must send the
            # signature back with the call in the next request.
            part["thoughtSignature"] = _signature(name)
        parts.append(part)
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts} if parts else {},
                                 "finishReason": "STOP", "index": 0}
    if malformed is not None:
        candidate["content"] = {}
        candidate["finishReason"] = "MALFORMED_FUNCTION_CALL"
        candidate["finishMessage"] = malformed
    visible = max(0, usage.output_tokens - usage.reasoning_tokens)
    metadata: dict[str, Any] = {
        "promptTokenCount": usage.input_tokens,
        "candidatesTokenCount": visible,
        "totalTokenCount": usage.input_tokens + usage.output_tokens,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": usage.input_tokens}],
    }
    if usage.reasoning_tokens:
        metadata["thoughtsTokenCount"] = usage.reasoning_tokens
    if usage.cached_tokens:
        metadata["cachedContentTokenCount"] = usage.cached_tokens
    return {"candidates": [candidate], "usageMetadata": metadata, "modelVersion": inp.model,
            "responseId": new_id("", 22)}


def _signature(seed: str) -> str:
    """Opaque base64 bytes standing in for a thought signature."""
    return base64.b64encode(hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest()).decode()


def count_tokens(usage_input: int) -> dict[str, Any]:
    """``:countTokens``."""
    return {"totalTokens": usage_input, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": usage_input}]}


def error(fault: Fault) -> WireResponse:
    """``{"error": {code, message, status}}`` plus a RetryInfo detail when retry_after is set."""
    err: dict[str, Any] = {"code": fault.status, "message": fault.message or default_message(fault.status),
                           "status": fault.error_type or _STATUS.get(fault.status, "UNKNOWN")}
    if fault.retry_after is not None:
        err["details"] = [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                           "retryDelay": f"{fault.retry_after:g}s"}]
    return WireResponse(fault.status, {"error": err}, retry_headers(fault))


def model_object(model_id: str) -> dict[str, Any]:
    """``GET /v1beta/models/{model}``; any id is accepted so preflight checks pass."""
    name = model_id if model_id.startswith("models/") else f"models/{model_id}"
    return {"name": name, "version": "001", "displayName": f"GameWorld endpoint ({model_id})",
            "description": "Loopback test endpoint (pytest-gameworld).", "inputTokenLimit": 1_048_576,
            "outputTokenLimit": 65_536, "supportedGenerationMethods": ["generateContent", "countTokens"],
            "temperature": 1.0, "topP": 0.95, "topK": 64, "thinking": True}


def model_list(ids: list[str]) -> dict[str, Any]:
    """``GET /v1beta/models``."""
    return {"models": [model_object(i) for i in ids]}

