"""Shapes shared by the protocol adapters: the HTTP answer and fault helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .core import Fault, ToolCall


@dataclass(frozen=True)
class RawJSON:
    """JSON text sent as it is, in place of a value: a scripted object too deep to parse and render again."""

    text: str


@dataclass
class WireResponse:
    """An HTTP answer before serialisation: status, JSON body, extra headers."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


def retry_headers(fault: Fault) -> dict[str, str]:
    """``Retry-After`` (seconds, fractional allowed) and ``retry-after-ms`` for a fault."""
    if fault.retry_after is None:
        return {}
    seconds = fault.retry_after
    text = str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"
    # Both SDKs from Stainless (openai, anthropic) read retry-after-ms first, which
    # keeps sub-second test delays exact; Retry-After is what every client understands.
    return {"Retry-After": text, "retry-after-ms": str(int(round(seconds * 1000)))}


def default_message(status: int) -> str:
    """A provider-neutral error message for a scripted fault without one."""
    return {
        400: "Bad request (scripted fault).",
        401: "Invalid API key (scripted fault).",
        403: "Permission denied (scripted fault).",
        404: "Not found (scripted fault).",
        408: "Request timed out (scripted fault).",
        429: "Rate limit reached (scripted fault). Please retry after a short wait.",
        500: "The server had an error while processing your request (scripted fault).",
        502: "Bad gateway (scripted fault).",
        503: "The service is temporarily overloaded (scripted fault).",
        529: "Overloaded (scripted fault).",
    }.get(status, f"HTTP {status} (scripted fault).")


def arguments_json(call: ToolCall) -> str:
    """The call's arguments as a JSON string; a raw string is returned verbatim."""
    if isinstance(call.arguments, str):
        return call.arguments
    return json.dumps(call.arguments, ensure_ascii=False, separators=(",", ":"))


def arguments_object(call: ToolCall) -> tuple[Any, bool]:
    """The arguments as an object and whether they were one: a raw string that parses to a
    JSON object becomes that object (one nested too deep to parse goes out as its text,
    RawJSON); anything else comes back unchanged with False."""
    if isinstance(call.arguments, dict):
        return call.arguments, True
    try:
        parsed = json.loads(call.arguments)
    except RecursionError:
        return (RawJSON(call.arguments), True) if call.arguments.lstrip().startswith("{") else (call.arguments, False)
    except (TypeError, ValueError):
        return call.arguments, False
    return (parsed, True) if isinstance(parsed, dict) else (call.arguments, False)


def encode_body(body: Any) -> bytes:
    """The body as JSON bytes, whatever a script put in it: RawJSON spliced in as its text, and characters
    UTF-8 cannot carry (a lone surrogate) written as JSON escapes (\\ud800), so the answer is sent as scripted."""
    raws: list[str] = []

    def placeholder(value: Any) -> str:
        if isinstance(value, RawJSON):
            raws.append(value.text)
            return f"\0gw-raw-{len(raws) - 1}\0"
        raise TypeError(f"{type(value).__name__} is not JSON serializable")

    text = json.dumps(body, ensure_ascii=False, default=placeholder)
    for i, raw in enumerate(raws):
        text = text.replace(json.dumps(f"\0gw-raw-{i}\0"), raw, 1)
    return text.encode("utf-8", "backslashreplace")
