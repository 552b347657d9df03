"""Anthropic Messages: tool use, and the native computer tool (classic beta tool or the GA toolset)."""

from __future__ import annotations

import inspect
from typing import Any

from ...play.actions import Proposal
from ..base import RunContext, Usage
from .base import Parsed, ProviderAgent, display_size
from .connection import Connection
from .content import Image, Part
from .coords import Frame, Mode
from .keys import key_args, key_list
from .original_actions import drag_or_hold, hold, key_press, no_action, pointer_move, scroll_key, split_keys
from .retry import Failure
from .sdk import require, stainless_failure, warn_unnamed_parameter
from .tools import computer_use_call, to_anthropic

# Classic computer tool versions and the beta flag each needs.
COMPUTER_BETAS = {"computer_20251124": "computer-use-2025-11-24", "computer_20250124": "computer-use-2025-01-24",
                  "computer_20241022": "computer-use-2024-10-22"}
DEFAULT_COMPUTER_TOOL = "computer_20251124"


def _point(value: Any) -> dict[str, Any]:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return {"x": value[0], "y": value[1]}
    return {}


def computer_action(action: str, inp: dict[str, Any]) -> Proposal:
    """One computer-tool action (left_click, key, type, mouse_move, left_click_drag, scroll, wait, hold_key…).

    Double and triple clicks become a click; key names such as "Left", "space", "Return"
    and "ctrl+Page_Up" are normalized; screenshot, zoom and raw button events stay outside our space.
    """
    point = _point(inp.get("coordinate"))
    if inp.get("coordinate") is not None and not point:
        return Proposal(action, {}, malformed=f"coordinate must be [x, y], got {inp.get('coordinate')!r}")
    if action in ("left_click", "double_click", "triple_click"):
        return Proposal("click", point)
    if action == "right_click":
        return Proposal("right_click", point)
    if action == "mouse_move":
        return Proposal("mouse_move", point)
    if action == "left_click_drag":
        start = _point(inp.get("start_coordinate"))
        if not start or not point:
            return Proposal("drag", {}, malformed="left_click_drag needs start_coordinate and coordinate")
        return Proposal("drag", {**start, "to_x": point["x"], "to_y": point["y"]})
    if action == "scroll":
        args: dict[str, Any] = {**point, "direction": inp.get("scroll_direction", "down")}
        if inp.get("scroll_amount") is not None:
            args["amount"] = inp["scroll_amount"]
        return Proposal("scroll", args)
    if action in ("key", "hold_key"):
        if not inp.get("text"):
            return Proposal("press_key", {}, malformed=f"{action} needs text (the key)")
        extra = {"duration": inp["duration"]} if action == "hold_key" and inp.get("duration") is not None else {}
        name, kargs = key_args(key_list(inp["text"]), **extra)
        return Proposal(name, kargs)
    if action == "type":
        return Proposal("type", {"text": inp.get("text")})
    if action == "wait":
        return Proposal("wait", {"duration": inp["duration"]} if inp.get("duration") is not None else {})
    return Proposal(action, {k: v for k, v in inp.items() if k != "action"})


_CLICKS = {"left_click": None, "double_click": None, "triple_click": None, "right_click": "right",
           "middle_click": "middle"}


def _first_point(inp: dict[str, Any], *keys: str) -> tuple[Any, Any] | None:
    for key in keys:
        value = inp.get(key)
        if isinstance(value, (list, tuple)) and len(value) >= 2:
            return value[0], value[1]
    return None


def _held(inp: dict[str, Any]) -> dict[str, float]:
    """A positive hold in seconds from ``seconds`` or ``duration``, as the original reads it."""
    return hold(inp.get("seconds", inp.get("duration")))


def original_computer_action(action: str, inp: dict[str, Any]) -> Proposal:
    """One computer-tool action as the original harness maps it (original_actions.py's contract: where it finds
    no action, a refused proposal, which the caller skips).

    A scroll presses the arrow key of its direction; mouse-down is a click-and-hold; a drag that ends
    where it starts is a hold; key names are split on '+' or spaces and lower-cased before lookup;
    screenshot, zoom, mouse-up and cursor queries are skipped.
    """
    if action in _CLICKS or action in ("mouse_move", "left_mouse_down", "mouse_down"):
        point = _first_point(inp, "coordinate", "coordinates")
        if point is None:
            return no_action(f"{action} needs a coordinate")
        if action == "mouse_move":
            return pointer_move(*point)
        args: dict[str, Any] = {"x": point[0], "y": point[1]}
        if action in _CLICKS:
            return Proposal("click", {**args, "button": _CLICKS[action]} if _CLICKS[action] else args)
        return Proposal("click_hold", {**args, **_held(inp)})
    if action in ("left_click_drag", "drag"):
        start = _first_point(inp, "start_coordinate", "from")
        end = _first_point(inp, "coordinate", "coordinate2", "end_coordinate", "to")
        if start is None or end is None:
            return no_action(f"{action} needs a start and an end coordinate")
        return drag_or_hold(start, end, _held(inp))
    if action == "scroll":
        return scroll_key(inp.get("scroll_direction", "down"))
    if action == "type":
        return no_action("type without text") if inp.get("text") is None else Proposal("type", {"text": str(inp["text"])})
    if action in ("key", "hold_key"):
        raw = next((inp[k] for k in ("key", "text", "keys") if inp.get(k) not in (None, "")), None)
        items = [raw] if isinstance(raw, str) else [i for i in raw if isinstance(i, str)] \
            if isinstance(raw, (list, tuple)) else []
        # xdotool spellings: each item is split on '+' and spaces only, and lower-cased.
        keys = [k for item in items for k in split_keys(item.strip().lower(), r"[+ ]")]
        if not keys:
            return no_action(f"{action} without keys")
        return key_press(keys, **(_held(inp) if action == "hold_key" else {}))
    if action == "wait":
        return Proposal("wait", _held(inp))
    return no_action(f"{action!r} is not a game action")


def anthropic_usage(usage: Any) -> Usage:
    """input_tokens excludes cache reads and writes in Anthropic's accounting: add them back."""
    if usage is None:
        return Usage()
    read = int(getattr(usage, "cache_read_input_tokens", 0) or 0)
    write = int(getattr(usage, "cache_creation_input_tokens", 0) or 0)
    return Usage(int(usage.input_tokens or 0) + read + write, int(usage.output_tokens or 0), read)


def _accepts(fn: Any, name: str) -> bool:
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


class AnthropicAgent(ProviderAgent):
    """Messages API with tools; with native_computer_use the computer tool (screenshot pixels)."""

    content_format = "anthropic"
    label = "anthropic messages"

    def make_client(self, conn: Connection) -> Any:
        anthropic = require("anthropic")
        return anthropic.AsyncAnthropic(api_key=conn.api_key, base_url=conn.base_url, max_retries=0,
                                        timeout=self.spec.timeout_s + 5)

    async def send(self, request: dict[str, Any]) -> Any:
        if "betas" in request:
            return await self.client.beta.messages.create(**request)
        return await self.client.messages.create(**request)

    def classify_error(self, exc: BaseException) -> Failure | None:
        return stainless_failure(require("anthropic"), exc)

    @property
    def native(self) -> bool:
        return self.spec.native_computer_use and self.interface == "cua"

    def coordinate_mode(self) -> Mode:
        return "absolute" if self.native else self.spec.coordinates

    def build_request(self, user: list[Part], image: Image | None, frame: Frame) -> dict[str, Any]:
        spec = self.spec
        # The API requires a limit; 2048 is the original's when a spec leaves it to the provider.
        request: dict[str, Any] = {"model": spec.model, "max_tokens": spec.max_output_tokens or 2048,
                                   "messages": [{"role": "user", "content": self.content(user)}]}
        if self.system_prompt:
            request["system"] = self.system_prompt
        if spec.temperature is not None:
            self._sampling(request, "temperature", spec.temperature)
        if self.native:
            version = spec.extra.get("computer_tool", DEFAULT_COMPUTER_TOOL)
            if version.startswith("computer_toolset"):
                request["tools"] = [{"type": version}]
            else:
                width, height = display_size(image, frame)
                request["tools"] = [{"type": version, "name": "computer", "display_width_px": width,
                                     "display_height_px": height, "display_number": 1}]
                beta = spec.extra.get("computer_beta") or COMPUTER_BETAS.get(version, "computer-use-2025-11-24")
                request["betas"] = [beta]
        else:
            strict = bool(spec.extra.get("strict_tools"))
            request["tools"] = [to_anthropic(t, strict) for t in self.tools(frame)]
        if spec.extra.get("thinking"):
            request["thinking"] = spec.extra["thinking"]
        if spec.extra.get("tool_choice"):  # the original sends none: the model may answer without a tool
            request["tool_choice"] = spec.extra["tool_choice"]
        return request

    def _create(self) -> Any:
        return self.client.beta.messages.create if self.native else self.client.messages.create

    def _sampling(self, request: dict[str, Any], name: str, value: Any) -> None:
        """A sampling parameter as a named argument, or in the raw body when the installed SDK has none."""
        if _accepts(self._create(), name):
            request[name] = value
        else:
            request.setdefault("extra_body", {})[name] = value

    async def begin(self, ctx: RunContext) -> None:
        await super().begin(ctx)
        if self.spec.temperature is not None and not _accepts(self._create(), "temperature"):
            warn_unnamed_parameter(self.spec.name, "anthropic", "messages.create", "temperature",
                                   self.spec.temperature)

    def parse(self, response: Any, frame: Frame) -> Parsed:
        calls: list[Proposal] = []
        texts: list[str] = []
        reasoning: list[str] = []
        for block in response.content or []:
            kind = getattr(block, "type", None)
            if kind == "text":
                texts.append(block.text)
            elif kind == "thinking":
                reasoning.append(block.thinking)
            elif kind == "redacted_thinking":
                reasoning.append("[redacted thinking]")
            elif kind == "tool_use" and (call := self._tool_use(block)) is not None:
                calls.append(call)
        return Parsed(calls, "\n".join(texts).strip(), "\n".join(reasoning).strip(),
                      anthropic_usage(response.usage), response)

    def _tool_use(self, block: Any) -> Proposal | None:
        inp = block.input
        if self.native and getattr(block, "toolset_name", None) == "computer":
            return computer_action(block.name, inp if isinstance(inp, dict) else {})
        if self.native and block.name == "computer" and isinstance(inp, dict):
            if self.spec.parsing == "original":  # the original skips an action it cannot map
                call = original_computer_action(str(inp.get("action", "")).lower(), inp)
                return None if call.refused else call
            return computer_action(str(inp.get("action", "")), inp)
        if self.native and self.spec.parsing == "original":
            return None  # the original reads only the computer tool's calls
        call = Proposal.from_raw(block.name, inp)
        return computer_use_call(call) if self.interface == "cua" else call
