"""OpenAI Responses: function tools, and the native computer tool (computer_call → our schema)."""

from __future__ import annotations

from typing import Any

from ...catalog.specs import ModelSpec
from ...play.actions import Proposal
from ..base import RunContext, Usage
from .base import Parsed, ProviderAgent, display_size
from .connection import Connection
from .content import Image, Part
from .coords import Frame, Mode
from .keys import key_args, key_list
from .openai_chat import make_openai_client
from .original_actions import drag_or_hold, hold, key_press, no_action, number, pointer_move, scroll_direction, scroll_key, split_keys
from .retry import Failure
from .sdk import post_as_built, require, stainless_failure
from .textformats import split_think
from .tools import computer_use_call, to_openai_responses


def computer_action(action: dict[str, Any]) -> Proposal:
    """One computer_call action (click, double_click, drag, keypress, move, scroll, type, wait) in our schema.

    double_click becomes a click (our executor has no double click); screenshot and other
    buttons stay recognizable names outside our space (OOS).
    """
    kind = str(action.get("type", ""))
    point = {"x": action["x"], "y": action["y"]} if "x" in action and "y" in action else {}
    if kind == "click":
        button = action.get("button", "left")
        if button in ("left", "right"):
            return Proposal("right_click" if button == "right" else "click", point)
        return Proposal(f"{button}_click", point)
    if kind == "double_click":
        return Proposal("click", point)
    if kind == "move":
        return Proposal("mouse_move", point)
    if kind == "drag":
        path = action.get("path")
        ends = [p for p in (path[0], path[-1])] if isinstance(path, list) and len(path) >= 2 else []
        if not all(isinstance(p, dict) and "x" in p and "y" in p for p in ends) or not ends:
            return Proposal("drag", {}, malformed="drag needs a path of at least two {x, y} points")
        return Proposal("drag", {"x": ends[0]["x"], "y": ends[0]["y"], "to_x": ends[1]["x"], "to_y": ends[1]["y"]})
    if kind == "scroll":
        return Proposal("scroll", {**point, "dx": action.get("scroll_x", 0), "dy": action.get("scroll_y", 0)})
    if kind == "keypress":
        keys = key_list(action.get("keys") or [])
        if not keys:
            return Proposal("press_key", {}, malformed="keypress without keys")
        name, args = key_args(keys)
        return Proposal(name, args)
    if kind == "type":
        return Proposal("type", {"text": action.get("text", "")})
    if kind == "wait":
        return Proposal("wait", {})
    return Proposal(kind or None, {k: v for k, v in action.items() if k != "type"})




def _xy(action: dict[str, Any], pairs: tuple[tuple[str, str], ...],
        boxes: tuple[str, ...] = ()) -> tuple[float, float] | None:
    """The first point found under a pair of names or in a [x, y] / {x, y} container."""
    for xk, yk in pairs:
        x, y = number(action.get(xk)), number(action.get(yk))
        if x is not None and y is not None:
            return x, y
    for key in boxes:
        box = action.get(key)
        if isinstance(box, dict):
            box = [box.get("x"), box.get("y")]
        if isinstance(box, (list, tuple)) and len(box) >= 2:
            x, y = number(box[0]), number(box[1])
            if x is not None and y is not None:
                return x, y
    return None


def original_computer_action(action: dict[str, Any]) -> Proposal:
    """One computer_call action as the original harness maps it (original_actions.py's contract: where it finds
    no action, a refused proposal, which the caller skips).

    A scroll presses the arrow key of its direction; a drag is read from start/end fields (a ``path``
    is not read, as in the original); an empty ``type`` waits; screenshot and the like are skipped.
    """
    kind = action.get("type")
    point = _xy(action, (("x", "y"), ("client_x", "client_y")), ("coordinate", "position"))
    if kind in ("click", "double_click", "move"):
        if point is None:
            return no_action(f"{kind} needs a point")
        if kind == "move":
            return pointer_move(*point)
        args: dict[str, Any] = {"x": point[0], "y": point[1]}
        button = str(action.get("button")).lower() if kind == "click" and action.get("button") is not None else ""
        return Proposal("click", {**args, "button": button} if button in ("right", "middle") else args)
    if kind in ("drag", "drag_to"):
        start = _xy(action, (("start_x", "start_y"), ("from_x", "from_y")),
                    ("start", "from", "origin", "start_position"))
        end = _xy(action, (("end_x", "end_y"), ("destination_x", "destination_y"), ("x", "y")),
                  ("end", "to", "destination", "coordinate", "position"))
        held = hold(action.get("duration"))
        if start is None and end is not None and held:
            return Proposal("click_hold", {"x": end[0], "y": end[1], **held})
        if start is None or end is None:
            return no_action(f"{kind} needs a start and an end point")
        return drag_or_hold(start, end, held, held)
    if kind == "scroll":
        return scroll_key(scroll_direction(action.get("scroll_x"), action.get("scroll_y")))
    if kind == "keypress":
        keys = split_keys(action.get("keys"))
        return key_press(keys) if keys else no_action("keypress without keys")
    if kind == "type":
        text = action.get("text")
        return Proposal("type", {"text": str(text)}) if text else Proposal("wait", {})
    if kind == "wait":
        return Proposal("wait", {"duration": action["duration"]} if action.get("duration") is not None else {})
    return no_action(f"{kind!r} is not a game action")


def responses_usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = getattr(usage, "input_tokens_details", None)
    cached = getattr(details, "cached_tokens", 0) if details is not None else 0
    return Usage(int(usage.input_tokens or 0), int(usage.output_tokens or 0), int(cached or 0))


def _dump(item: Any) -> dict[str, Any]:
    return item.model_dump(mode="json", exclude_none=True) if hasattr(item, "model_dump") else dict(item)


class OpenAIResponsesAgent(ProviderAgent):
    """Responses API; with native_computer_use the `computer_use_preview` (or GA `computer`) tool."""

    content_format = "openai_responses"
    label = "openai responses"

    def __init__(self, spec: ModelSpec) -> None:
        super().__init__(spec)
        # The last computer_call (with its reasoning) still awaiting its screenshot output.
        self.pending: list[dict[str, Any]] = []

    def make_client(self, conn: Connection) -> Any:
        return make_openai_client(conn, self.spec.timeout_s)

    async def send(self, request: dict[str, Any]) -> Any:
        return await post_as_built(self.client, "/responses", request, require("openai.types.responses").Response)

    def classify_error(self, exc: BaseException) -> Failure | None:
        return stainless_failure(require("openai"), exc)

    def coordinate_mode(self) -> Mode:
        # The native tool works in pixels of the screenshot it was shown.
        return "absolute" if self.native else self.spec.coordinates

    @property
    def native(self) -> bool:
        return self.spec.native_computer_use and self.interface == "cua"

    async def begin(self, ctx: RunContext) -> None:
        await super().begin(ctx)
        self.pending = []

    @property
    def chained(self) -> bool:
        """Answer the last computer_call with the new screenshot (an option; the original starts each step anew)."""
        return self.native and bool(self.spec.extra.get("chain_computer_calls"))

    def build_request(self, user: list[Part], image: Image | None, frame: Frame) -> dict[str, Any]:
        spec = self.spec
        request: dict[str, Any] = {"model": spec.model}
        if spec.max_output_tokens is not None:
            request["max_output_tokens"] = spec.max_output_tokens
        if spec.temperature is not None:
            request["temperature"] = spec.temperature
        # The prompt is a system message in the input, as the original sends it (not `instructions`).
        system = [{"role": "system", "content": self.content([self.system_prompt])}] if self.system_prompt else []
        if self.chained and self.pending and image is not None:  # no screenshot (--gw-obs state): a new turn
            # Answer the last computer_call with this step's screenshot, as the tool expects.
            call = self.pending[-1]
            output = {"type": "computer_call_output", "call_id": call["call_id"],
                      "output": {"type": "computer_screenshot", "image_url": image.data_url}}
            if call.get("pending_safety_checks"):
                output["acknowledged_safety_checks"] = call["pending_safety_checks"]
            # This step's screenshot goes as the call's output; every text part (the notice, the state) stays.
            text = [p for p in user if p is not image] + ["(The screenshot after your last action is the computer "
                                                          "call output.)"]
            request["input"] = [*system, {"role": "user", "content": self.content(text)}, *self.pending, output]
        else:
            request["input"] = [*system, {"role": "user", "content": self.content(user)}]
        if self.native:
            tool_type = spec.extra.get("computer_tool", "computer_use_preview")
            tool: dict[str, Any] = {"type": tool_type}
            if tool_type == "computer_use_preview":
                width, height = display_size(image, frame)
                tool.update(display_width=width, display_height=height,
                            environment=spec.extra.get("environment", "browser"))
            request["tools"] = [tool]
            request["truncation"] = "auto"  # required by computer-use-preview
        else:
            strict = bool(spec.extra.get("strict_tools"))
            request["tools"] = [to_openai_responses(t, strict) for t in self.tools(frame)]
            request["tool_choice"] = spec.extra.get("tool_choice", "required")
        for key in ("reasoning", "store", "include", "text"):
            if key in spec.extra:
                request[key] = spec.extra[key]
        return request

    def parse(self, response: Any, frame: Frame) -> Parsed:
        calls: list[Proposal] = []
        texts: list[str] = []
        reasoning: list[str] = []
        for item in response.output or []:
            kind = getattr(item, "type", None)
            if kind == "reasoning":
                for part in [*(getattr(item, "summary", None) or []), *(getattr(item, "content", None) or [])]:
                    if getattr(part, "text", None):
                        reasoning.append(part.text)
            elif kind == "message":
                texts.extend(c.text for c in item.content or [] if getattr(c, "text", None))
            elif kind == "function_call":
                call = Proposal.from_raw(item.name, item.arguments)
                calls.append(computer_use_call(call) if self.interface == "cua" else call)
            elif kind == "computer_call":
                actions = [item.action] if getattr(item, "action", None) is not None else list(item.actions or [])
                if self.spec.parsing == "paper":
                    calls.extend(computer_action(_dump(a)) for a in actions)
                else:
                    # the original skips an action it cannot map
                    calls.extend(c for a in actions if not (c := original_computer_action(_dump(a))).refused)
        think, text = split_think("\n".join(texts))
        return Parsed(calls, text.strip(), "\n".join([*reasoning, think]).strip(),
                      responses_usage(response.usage), response)

    def remember_response(self, response: Any, parsed: Parsed) -> None:
        items: list[dict[str, Any]] = []
        self.pending = []
        if not self.chained:
            return
        for item in response.output or []:
            if getattr(item, "type", None) == "reasoning":
                items.append(_dump(item))
            elif getattr(item, "type", None) == "computer_call":
                self.pending = [*items, _dump(item)]
                return
