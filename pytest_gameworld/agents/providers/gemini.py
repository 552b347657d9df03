"""Gemini generate_content (google-genai async client): function declarations and the computer-use tool."""

from __future__ import annotations

import re
from typing import Any

from ...play.actions import Proposal
from ..base import Usage
from .base import Parsed, ProviderAgent
from .connection import Connection
from .content import Image, Part
from .coords import Frame, Mode
from .keys import key_args, key_list
from .original_actions import drag_or_hold, hold, key_press, no_action, pointer_move, scroll_key, split_keys
from .retry import RETRYABLE_STATUS, Failure, retry_after_seconds
from .sdk import require
from .tools import computer_use_call, to_gemini

# Browser navigation and page scrolling have no meaning in a single-page game; as in the original, the
# model is not offered them.
EXCLUDED_FUNCTIONS = ["open_web_browser", "go_back", "go_forward", "search", "navigate", "scroll_document"]
DEFAULT_MAGNITUDE = 800  # Gemini's default scroll distance, on its 0-999 grid
_TRANSIENT = {"TimeoutException", "ConnectError", "NetworkError", "RemoteProtocolError", "ReadError",
              "ClientConnectorError", "ClientOSError", "ServerDisconnectedError"}


def computer_action(name: str, args: dict[str, Any]) -> Proposal:
    """A Gemini computer-use function (click_at, key_combination, type_text_at, scroll_at, …) in our schema.

    Coordinates and scroll magnitudes stay on the 0-999 grid; the agent maps them to the viewport.
    type_text_at types without clicking first (one action per step); navigation stays outside our space.
    """
    point = {"x": args["x"], "y": args["y"]} if "x" in args and "y" in args else {}
    if name == "click_at":
        return Proposal("click", {**point, **({"button": args["button"]} if args.get("button") else {})})
    if name == "hover_at":
        return Proposal("mouse_move", point)
    if name == "type_text_at":
        text = args.get("text")
        if isinstance(text, str) and args.get("press_enter"):
            text += "\n"
        return Proposal("type", {"text": text})
    if name == "key_combination":
        if not args.get("keys"):
            return Proposal("press_keys", {}, malformed="key_combination needs keys")
        kname, kargs = key_args(key_list(args["keys"]))
        return Proposal(kname, kargs)
    if name in ("scroll_at", "scroll_document"):
        direction = str(args.get("direction", "down")).lower()
        magnitude = args.get("magnitude", DEFAULT_MAGNITUDE)
        if direction not in ("up", "down", "left", "right") or isinstance(magnitude, bool) \
                or not isinstance(magnitude, (int, float)):
            return Proposal("scroll", {}, malformed=f"bad scroll direction/magnitude: {direction!r}, {magnitude!r}")
        sign = -1 if direction in ("up", "left") else 1
        delta = {"dx": sign * magnitude} if direction in ("left", "right") else {"dy": sign * magnitude}
        return Proposal("scroll", {**(point if name == "scroll_at" else {}), **delta})
    if name == "drag_and_drop":
        if not point or "destination_x" not in args or "destination_y" not in args:
            return Proposal("drag", {}, malformed="drag_and_drop needs x, y, destination_x, destination_y")
        return Proposal("drag", {**point, "to_x": args["destination_x"], "to_y": args["destination_y"]})
    if name == "wait_5_seconds":
        return Proposal("wait", {"duration": 5})
    return Proposal(name, dict(args))


def _grid(args: dict[str, Any], xk: str = "x", yk: str = "y") -> dict[str, float] | None:
    """A point on the 0-999 grid, clamped as the original clamps it (a missing coordinate reads as 0);
    None when a coordinate is not a finite number (the original's parser fails on it)."""
    out: dict[str, float] = {}
    for key, name in ((xk, "x"), (yk, "y")):
        try:
            value = float(args.get(key, 0))
            out[name] = min(max(round(value), 0), 1000)
        except (TypeError, ValueError, OverflowError):
            return None
    return out


_POINTED = ("click_at", "right_click_at", "hover_at", "type_text_at", "drag_and_drop")


def original_computer_action(name: str, args: dict[str, Any]) -> Proposal:
    """A computer-use function call as the original harness maps it (original_actions.py's contract: where it
    finds no action, a refused proposal, which counts the reply as no tool call).

    scroll_at presses the arrow key of its direction; click_at honours a ``button``; a drag that ends
    where it starts is a hold; a coordinate that is not a number, or any other function (a navigation
    one, say), is refused.
    """
    n = name.lower()
    point = _grid(args) if n in _POINTED else {}
    end = _grid(args, "destination_x", "destination_y") if n == "drag_and_drop" else {}
    if point is None or end is None:
        return no_action(f"{name}: a coordinate is not a number", name)
    if n in ("click_at", "right_click_at"):
        button = "right" if n == "right_click_at" else str(args.get("button", "left")).lower()
        return Proposal("click", {**point, "button": button} if button in ("right", "middle") else point)
    if n == "hover_at":
        return pointer_move(point["x"], point["y"])
    if n == "type_text_at":
        text = str(args.get("text", ""))
        return Proposal("type", {"text": text + "\n" if args.get("press_enter") else text})
    if n == "scroll_at":
        return scroll_key(args.get("direction", "down"))
    if n == "drag_and_drop":
        held = hold(args.get("duration", args.get("hold_duration")))
        # The original's drag lasts half a second unless the call gives its hold.
        return drag_or_hold((point["x"], point["y"]), (end["x"], end["y"]), held, held or {"duration": 0.5})
    if n == "key_combination":
        keys = split_keys(args.get("keys"))
        return key_press(keys) if keys else no_action("key_combination without keys")
    if n == "wait_5_seconds":
        return Proposal("wait", {"duration": 5.0})
    return no_action(f"{name!r} is not a game action (the original counts it as no tool call)", name)


def gemini_usage(meta: Any) -> Usage:
    """Prompt tokens include cached content; thinking tokens are billed as output."""
    if meta is None:
        return Usage()
    prompt = int(meta.prompt_token_count or 0) + int(getattr(meta, "tool_use_prompt_token_count", 0) or 0)
    output = int(meta.candidates_token_count or 0) + int(getattr(meta, "thoughts_token_count", 0) or 0)
    return Usage(prompt, output, int(getattr(meta, "cached_content_token_count", 0) or 0))


def _retry_delay(details: Any) -> float | None:
    """RetryInfo.retryDelay ("2s") from a Gemini error body."""
    err = details.get("error", details) if isinstance(details, dict) else None
    for item in (err or {}).get("details", []) if isinstance(err, dict) else []:
        delay = item.get("retryDelay") if isinstance(item, dict) else None
        if isinstance(delay, str) and delay.endswith("s"):
            try:
                return float(delay[:-1])
            except ValueError:
                return None
    return None


class GeminiAgent(ProviderAgent):
    """generate_content with function declarations; with native_computer_use the computer-use tool (0-999 grid)."""

    content_format = "gemini"
    label = "gemini generate_content"

    def make_client(self, conn: Connection) -> Any:
        require("google.genai")
        from google.genai import Client, types

        options: dict[str, Any] = {"timeout": int((self.spec.timeout_s + 5) * 1000),
                                   # attempts=1 turns off the SDK's own (and implicit) retries.
                                   "retry_options": types.HttpRetryOptions(attempts=1)}
        if conn.base_url:
            options["base_url"] = conn.base_url
        return Client(api_key=conn.api_key, http_options=types.HttpOptions(**options))

    async def send(self, request: dict[str, Any]) -> Any:
        return await self.client.aio.models.generate_content(**request)

    async def aclose_client(self) -> None:
        await self.client.aio.aclose()
        self.client.close()

    def classify_error(self, exc: BaseException) -> Failure | None:
        errors = require("google.genai.errors")
        if isinstance(exc, errors.APIError):
            code = int(exc.code or 0)
            headers = getattr(getattr(exc, "response", None), "headers", None)
            wait = retry_after_seconds(dict(headers) if headers is not None else None)
            return Failure(f"HTTP {code} {exc.status or ''}: {exc.message or ''}".strip(), code in RETRYABLE_STATUS,
                           code, wait if wait is not None else _retry_delay(exc.details))
        if {c.__name__ for c in type(exc).__mro__} & _TRANSIENT:
            return Failure(f"cannot connect or read: {type(exc).__name__}: {exc}", retryable=True)
        return None

    @property
    def native(self) -> bool:
        return self.spec.native_computer_use and self.interface == "cua"

    def coordinate_mode(self) -> Mode:
        return "normalized_1000" if self.native else self.spec.coordinates

    def build_request(self, user: list[Part], image: Image | None, frame: Frame) -> dict[str, Any]:
        spec = self.spec
        config: dict[str, Any] = {"system_instruction": self.system_prompt}
        if spec.temperature is not None:
            config["temperature"] = spec.temperature
        if spec.max_output_tokens is not None:
            config["max_output_tokens"] = spec.max_output_tokens
        if self.native:
            config["tools"] = [{"computer_use": {
                "environment": spec.extra.get("environment", "ENVIRONMENT_BROWSER"),
                "excluded_predefined_functions": spec.extra.get("excluded_functions", EXCLUDED_FUNCTIONS)}}]
        else:
            config["tools"] = [{"function_declarations": [to_gemini(t) for t in self.tools(frame)]}]
            mode = spec.extra.get("function_calling_mode", "ANY")
            config["tool_config"] = {"function_calling_config": {"mode": mode}}
            config["automatic_function_calling"] = {"disable": True}
        if spec.extra.get("thinking_config"):
            config["thinking_config"] = dict(spec.extra["thinking_config"])
        return {"model": spec.model, "contents": [{"role": "user", "parts": self.content(user)}], "config": config}

    def parse(self, response: Any, frame: Frame) -> Parsed:
        calls: list[Proposal] = []
        texts: list[str] = []
        reasoning: list[str] = []
        candidate = (response.candidates or [None])[0]
        parts = (candidate.content.parts if candidate is not None and candidate.content else None) or []
        for part in parts:
            if part.function_call is not None:
                calls.append(self._call(part.function_call.name or "", dict(part.function_call.args or {})))
            elif part.text:
                (reasoning if part.thought else texts).append(part.text)
        reason = str(getattr(candidate, "finish_reason", "") or "") if candidate is not None else ""
        if not calls and "MALFORMED_FUNCTION_CALL" in reason:
            # Gemini reports an unparsable call instead of returning it: a call with bad arguments.
            message = getattr(candidate, "finish_message", None) or "malformed function call"
            m = re.search(r"call:\s*([A-Za-z_][\w.]*)\s*\(", message)
            # The original finds no call in such a reply (no tool call); the paper's reading calls it malformed.
            calls.append(Proposal(m.group(1) if m else None, {}, malformed=f"Gemini: {message}",
                                  refused=self.spec.parsing == "original"))
        return Parsed(calls, "\n".join(texts).strip(), "\n".join(reasoning).strip(),
                      gemini_usage(response.usage_metadata), response)

    def _call(self, name: str, args: dict[str, Any]) -> Proposal:
        if self.native:
            args.pop("safety_decision", None)  # a confirmation request; there is no one to ask
            if self.spec.parsing == "original":
                return original_computer_action(name, args)
            return computer_action(name, args)
        call = Proposal(name, args)
        return computer_use_call(call) if self.interface == "cua" else call
