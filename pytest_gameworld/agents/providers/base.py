"""The shared provider agent: screenshot → request → call with retries → proposals, memory and usage."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ...catalog.specs import ModelSpec
from ...play.actions import MOUSE_KINDS, Proposal, Verdict
from ...play.semantic import classify
from ...records.jsonl import jsonable
from ..base import AgentError, AgentReply, Observation, RunContext, Usage
from .cache import CacheNote, through_cache
from .connection import Connection, resolve
from .content import ContentFormat, Image, Part, blocks, encode_screenshot, scrub, sent_as_taken
from .coords import Frame, Mode, smart_resize, to_viewport
from .memory import Memory, Round, action_json
from .prompt_layout import Layout, layout
from .retry import Failure, call_with_retries
from .throttle import EndpointThrottle, throttle_for
from .tools import ToolDef, computer_use_tool, generalist_tools

_POINTED = MOUSE_KINDS - {"drag"}
TOO_DEEP = "the reply nests too deep to decode"


@dataclass
class Parsed:
    """A provider response taken apart: calls in the model's coordinate space, text, reasoning, usage."""

    calls: list[Proposal] = field(default_factory=list)
    text: str = ""
    reasoning: str = ""
    usage: Usage = field(default_factory=Usage)
    raw: Any = None
    # The reasoning the Action History repeats (a provider overrides the rule): by default a control call's
    # own ``reasoning`` argument, as the original harness records it; computer use records none.
    memory_reasoning: str | None = None
    # The API's id of the first call, which the original's history repeats (Chat Completions tool calls only).
    memory_call_id: str | None = None
    cache: CacheNote | None = None  # --gw-cache: whether it came from the cache (then it spent no tokens)


class ProviderAgent:
    """Common behaviour; a provider module supplies the client, the request and the response parsing."""

    needs_pixels = True
    content_format: ContentFormat = "openai_chat"
    label = "provider"

    def __init__(self, spec: ModelSpec) -> None:
        self.spec = spec
        self.interface = spec.interface
        self.memory = Memory(spec.memory_rounds)
        self.ctx: RunContext | None = None
        self.conn: Connection | None = None
        self.client: Any = None
        self.pointer: tuple[int, int] | None = None  # where the last executed mouse action left the pointer
        self.layout = Layout(None, "")
        self._queued: list[float] = []  # this step's waits for a connection slot or a shared back-off

    @property
    def queued_s(self) -> float:
        """Seconds the current step has waited for the endpoint (not the model's time: play/runner.py)."""
        return sum(self._queued)

    # ------------------------------------------------------------------ hooks

    def make_client(self, conn: Connection) -> Any:
        raise NotImplementedError

    async def send(self, request: dict[str, Any]) -> Any:
        raise NotImplementedError

    def build_request(self, user: list[Part], image: Image | None, frame: Frame) -> dict[str, Any]:
        """The request for this step; ``image`` is None when no screenshot is sent (--gw-obs state)."""
        raise NotImplementedError

    def parse(self, response: Any, frame: Frame) -> Parsed:
        raise NotImplementedError

    def classify_error(self, exc: BaseException) -> Failure | None:
        raise NotImplementedError

    @property
    def deadline_s(self) -> float:
        """All attempts of one step, retries and waits included, end within this many seconds."""
        return self.spec.step_timeout_s

    def coordinate_mode(self) -> Mode:
        """The space the model's coordinates are in; native tools override it."""
        return self.spec.coordinates

    def remember_response(self, response: Any, parsed: Parsed) -> None:
        """Keep provider state between steps (e.g. a pending computer call); nothing by default."""

    async def aclose_client(self) -> None:
        close = getattr(self.client, "close", None)
        if close is not None:
            result = close()
            if asyncio.iscoroutine(result):
                await result

    # --------------------------------------------------------------- protocol

    async def begin(self, ctx: RunContext) -> None:
        self.ctx = ctx
        self.memory.clear()
        self.pointer = None
        self.conn = resolve(self.spec)
        if self.conn.problem:
            raise AgentError(self.conn.problem)
        self.client = self.make_client(self.conn)

    async def act(self, obs: Observation) -> AgentReply:
        self._queued = []
        ctx = self._context()
        if obs.screenshot is None and obs.state_text is None:
            raise AgentError(f"{self.spec.name}: no screenshot in the observation")
        image = None if obs.screenshot is None else await self.picture_to_send(obs.screenshot)
        frame = self.frame(image)
        self.layout = layout(self.spec, ctx.prompt.text, ctx.role, display_size(image, frame))
        sent_images = [*self.memory.images(), *([image] if image else [])]
        sent_steps = [*self.memory.image_steps(), *([obs.step] if image else [])]
        # --gw-obs: the screen (step text and image), the state as text beside it, or the text alone; after a
        # failed episode's reset, the episode-ended line first.
        shown: list[Part] = [*([obs.notice] if obs.notice else []), *((self.layout.step_text, image) if image else ())]
        if obs.state_text:
            shown.append(obs.state_text)
        request = self.build_request([*self.memory.parts(), *shown], image, frame)
        retries: list[str] = []
        parsed = await through_cache(self, request, frame, retries)  # --gw-cache: a stored reply, or _exchange's
        calls, _ = self.interpret(parsed, frame)
        first = calls[0] if calls else None
        said = "\n".join(p for p in shown if isinstance(p, str))
        self.memory.add(Round(said, image, self._memory_reasoning(parsed),
                              action_json(first, self.interface, parsed.memory_call_id), obs.step))
        record = {"api": self.label, "base_url": self.conn.base_url if self.conn else None,
                  **scrub(request, sent_images, sent_steps)}
        return AgentReply(calls=calls, text=parsed.text, reasoning=parsed.reasoning, raw=_jsonable(parsed.raw),
                          request=record, usage=parsed.usage, retries=retries, cache=parsed.cache)

    async def picture_to_send(self, shot: bytes) -> Image:
        """The step's picture in the spec's format and width: as taken when it already is (the usual case: no
        thread hop on the step's path), else re-encoded off the loop."""
        fmt, width = self.spec.screenshot_format, self.spec.screenshot_width
        taken = sent_as_taken(shot, fmt, width)
        return taken if taken is not None else await asyncio.to_thread(encode_screenshot, shot, fmt, width)

    @property
    def system_prompt(self) -> str | None:
        """This step's system prompt (None: the protocol sends none)."""
        return self.layout.system

    def _memory_reasoning(self, parsed: Parsed) -> str:
        if self.interface != "generalist":
            return ""
        if parsed.memory_reasoning:
            return parsed.memory_reasoning
        reason = parsed.calls[0].args.get("reasoning") if parsed.calls else None
        return reason if isinstance(reason, str) else ""

    def interpret(self, parsed: Parsed, frame: Frame) -> tuple[list[Proposal], Verdict]:
        """The calls in viewport terms and their verdict (pointer tracked) (pure)."""
        calls = [self.to_viewport(c, frame) for c in parsed.calls] if self.interface == "cua" else parsed.calls
        verdict = self.verdict(calls, self._context())
        self.track_pointer(verdict)
        return calls, verdict

    def parse_reply(self, response: Any, frame: Frame) -> Parsed:
        """parse(), with a reply nested too deep as one unreadable call and a broken envelope as AgentError."""
        try:
            return self.parse(response, frame)
        except RecursionError:
            return Parsed([Proposal(None, {}, malformed=TOO_DEEP)])
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
            # A response we cannot take apart is an endpoint failure, reported like one.
            raise AgentError(f"{self.spec.name} ({self.label}): unexpected response: {type(exc).__name__}: {exc}") \
                from exc

    async def _exchange(self, request: dict[str, Any], frame: Frame, retries: list[str] | None = None) -> Parsed:
        """Send with timeout and retries (each retried failure appended to ``retries``), then parse the response."""
        try:
            response = await call_with_retries(
                lambda: self.send(request), self.classify_error, what=f"{self.spec.name} ({self.label})",
                max_retries=self.spec.max_retries, timeout_s=self.spec.timeout_s,
                backoff_s=float(self.spec.extra.get("retry_backoff_s", 1.0)), deadline_s=self.deadline_s,
                failures=retries, throttle=self._throttle(), queued=self._queued)
        except RecursionError:
            # The SDK's JSON decoder gave up on a reply nested too deep: the model's output, not the
            # endpoint's fault; one unreadable call (OOS) with the reason.
            return Parsed([Proposal(None, {}, malformed=TOO_DEEP)])
        parsed = self.parse_reply(response, frame)
        self.remember_response(response, parsed)
        return parsed

    async def close(self) -> None:
        if self.client is not None:
            try:
                await self.aclose_client()
            finally:
                self.client = None

    # ---------------------------------------------------------------- helpers

    def _throttle(self) -> EndpointThrottle:
        """The endpoint's slots and back-off, shared by every run of this process that calls it."""
        endpoint = (self.conn.base_url if self.conn else None) or f"{self.spec.provider}:default"
        return throttle_for(endpoint, self.spec.max_connections)

    def _context(self) -> RunContext:
        if self.ctx is None:
            raise AgentError(f"{self.spec.name}: act() before begin()")
        return self.ctx

    def frame(self, image: Image | None) -> Frame:
        """The coordinate frame for this step's sent image (the viewport's pixels when none is sent)."""
        vp = self._context().game.viewport
        size = image.size if image is not None else (vp.width, vp.height)
        factor = self.spec.extra.get("smart_resize")
        if factor and self.coordinate_mode() == "absolute":
            # The server's processor resizes the image before the model sees it (Qwen2.5-VL/UI-TARS).
            size = smart_resize(size[0], size[1], int(factor))
        return Frame.for_image((vp.width, vp.height), size, self.coordinate_mode())

    def tools(self, frame: Frame) -> list[ToolDef]:
        """Generalist: one tool per control; CUA without a native tool: the computer_use function."""
        ctx = self._context()
        if self.interface == "generalist":
            reasoning = self.spec.extra.get("reasoning_arg", "required")
            return generalist_tools(ctx.role, reasoning, aliases=self.spec.parsing == "paper")
        if self.coordinate_mode() == "normalized_1000":
            space = "a 0-1000 grid over the screenshot (0,0 top-left, 1000,1000 bottom-right)"
        else:
            space = f"pixels of the {int(frame.space_w)}x{int(frame.space_h)} screenshot"
        return [computer_use_tool(space)]

    def content(self, parts: list[Part]) -> list[dict[str, Any]]:
        return blocks(parts, self.content_format, self.spec.extra.get("image_detail"))

    def to_viewport(self, call: Proposal, frame: Frame) -> Proposal:
        """Map a CUA call to viewport pixels; a pointer action without a point uses the pointer.

        A move ``from_centre`` (the original harness's pointer move) runs from the screen's centre to the point.
        """
        mapped = to_viewport(call, frame)
        if mapped.malformed or mapped.name not in MOUSE_KINDS:
            return mapped
        args = dict(mapped.args)
        if args.pop("from_centre", False) and "x" in args and "y" in args:
            args["to_x"], args["to_y"] = args["x"], args["y"]
            args["x"], args["y"] = frame.centre
        if "x" not in args and "y" not in args and "coordinate" not in args:
            if self.pointer is not None and (mapped.name in _POINTED or "to_x" in args):
                args["x"], args["y"] = self.pointer
            elif mapped.name == "scroll":
                args["x"], args["y"] = frame.centre
        return Proposal(mapped.name, args, mapped.malformed)

    def verdict(self, calls: list[Proposal], ctx: RunContext) -> Verdict:
        """The runner's classification of the first call (pure), for memory and pointer tracking."""
        return classify(calls, self.interface, ctx.role, ctx.game.viewport, self.spec.parsing)

    def track_pointer(self, verdict: Verdict) -> None:
        action = verdict.action
        if verdict.validity != "valid" or action.kind not in MOUSE_KINDS or action.x is None or action.y is None:
            return
        self.pointer = (action.to_x, action.to_y) if action.to_x is not None and action.to_y is not None \
            else (action.x, action.y)


def display_size(image: Image | None, frame: Frame) -> tuple[int, int]:
    """The screen's size as a native tool or prompt states it: the sent image's, else the viewport's."""
    return image.size if image is not None else (frame.viewport_w, frame.viewport_h)


def _jsonable(value: Any) -> Any:
    """A response as plain JSON types (pydantic models dumped; non-finite numbers and deep nesting made safe)."""
    dump = getattr(value, "model_dump", None)
    try:
        if callable(dump):
            value = dump(mode="python", exclude_none=True)
        return jsonable(value)
    except (TypeError, ValueError, RecursionError):
        return f"<{type(value).__name__} that cannot be recorded>"
