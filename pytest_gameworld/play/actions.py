"""The normalized low-level action schema, key aliases, and per-role legality (pure)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, cast

from ..catalog.specs import CuaControls, Viewport
from .output_limits import MAX_TEXT_CHARS, OutOfBounds, check_name, check_value, finite_number, loads_arguments, shown

Validity = Literal["valid", "ntc", "oos"]
MOUSE_KINDS = frozenset({"click", "right_click", "click_hold", "drag", "mouse_move", "scroll"})
KEY_KINDS = frozenset({"press_key", "press_keys", "type"})
KINDS = MOUSE_KINDS | KEY_KINDS | {"wait"}
# A model must not stall the game with a long hold; this is the most one action may take.
MAX_ACTION_MS = 3000
# A longer request is capped at MAX_ACTION_MS; beyond this it is not a plausible hold but garbage (OOS).
MAX_REQUEST_MS = 60_000
MAX_KEYS = 8  # keys pressed together
MAX_SCROLL_PX = 100_000
MAX_SCROLL_CLICKS = 100

_KEY_ALIASES = {
    "left": "ArrowLeft", "right": "ArrowRight", "up": "ArrowUp", "down": "ArrowDown",
    "arrowleft": "ArrowLeft", "arrowright": "ArrowRight", "arrowup": "ArrowUp", "arrowdown": "ArrowDown",
    "space": " ", "spacebar": " ", "enter": "Enter", "return": "Enter", "esc": "Escape",
    "escape": "Escape", "ctrl": "Control", "control": "Control", "shift": "Shift", "alt": "Alt",
    "option": "Alt", "tab": "Tab", "backspace": "Backspace", "delete": "Delete", "del": "Delete",
    "cmd": "Meta", "meta": "Meta", "super": "Meta", "win": "Meta", "home": "Home", "end": "End",
    "pageup": "PageUp", "pagedown": "PageDown", "pgup": "PageUp", "pgdn": "PageDown",
    "shiftleft": "Shift", "controlleft": "Control", "altleft": "Alt", "slash": "/", "period": ".", "comma": ",",
    "quote": "'", "apostrophe": "'", "semicolon": ";", "backslash": "\\", "bracketleft": "[", "bracketright": "]",
    "minus": "-", "equal": "=",
}
MouseButton = Literal["left", "right", "middle"]
MOUSE_BUTTONS: tuple[MouseButton, ...] = ("left", "right", "middle")


def normalize_key(name: str) -> str:
    """A key name or alias as its KeyboardEvent.key value (letters lower-cased)."""
    if name == " ":
        return " "
    stripped = name.strip()
    if not stripped:  # other whitespace (a newline, a tab): itself, never an allowed key name
        return name
    if len(stripped) == 1:
        return stripped.lower()
    low = stripped.lower()
    if low in _KEY_ALIASES:
        return _KEY_ALIASES[low]
    if low.startswith("f") and low[1:].isdigit():
        return stripped.upper()
    return stripped[0].upper() + stripped[1:]


def split_keys(value: Any) -> list[str]:
    """Key combination from a list or a '+'-joined string ('ArrowUp+ArrowLeft')."""
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    text = str(value)
    if text == " " or text == "+":
        return [text]
    return [part for part in text.split("+") if part != ""] or [text]


@dataclass(frozen=True)
class Action:
    """One executable low-level action; duration is game time in ms."""

    kind: str
    duration_ms: int
    keys: tuple[str, ...] = ()
    x: int | None = None
    y: int | None = None
    to_x: int | None = None
    to_y: int | None = None
    dx: int = 0
    dy: int = 0
    text: str = ""
    button: MouseButton = "left"

    def at(self) -> tuple[int, int]:
        """The point a pointer action starts at (the parser gives every pointer kind one)."""
        if self.x is None or self.y is None:
            raise ValueError(f"a {self.kind} action has no point")
        return self.x, self.y

    def to(self) -> tuple[int, int]:
        """The point a drag or a look ends at."""
        if self.to_x is None or self.to_y is None:
            raise ValueError(f"a {self.kind} action has no end point")
        return self.to_x, self.to_y

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["keys"] = list(self.keys)
        return {k: v for k, v in d.items() if v not in (None, "", 0, ()) or k in ("kind", "duration_ms")}


def noop(duration_ms: int) -> Action:
    return Action("wait", duration_ms)


@dataclass
class Proposal:
    """One call a model proposed: a control id or action kind with its arguments."""

    name: str | None
    args: dict[str, Any] = field(default_factory=dict)
    malformed: str | None = None  # why the arguments could not be decoded
    # The protocol's parser refused the whole reply (the original harness counts that as no tool call).
    refused: bool = False

    @classmethod
    def from_raw(cls, name: str | None, raw_args: Any) -> Proposal:
        """Build from a name and arguments that may be a JSON string."""
        if raw_args is None or raw_args == "":
            return cls(name, {})
        if isinstance(raw_args, dict):
            return cls(name, dict(raw_args))
        if not isinstance(raw_args, str):
            return cls(name, {}, malformed=f"arguments are a {type(raw_args).__name__}, not a JSON object")
        try:
            decoded = loads_arguments(raw_args)
        except OutOfBounds as exc:
            return cls(name, {}, malformed=str(exc))
        except (TypeError, ValueError, RecursionError) as exc:
            return cls(name, {}, malformed=f"arguments are not valid JSON: {str(exc)[:200]}")
        if not isinstance(decoded, dict):
            return cls(name, {}, malformed="arguments are not a JSON object")
        return cls(name, decoded)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "args": self.args}
        if self.malformed:
            d["malformed"] = self.malformed
        if self.refused:
            d["refused"] = True
        return d


@dataclass(frozen=True)
class Verdict:
    """The classification of a proposal and the action that executes for it."""

    validity: Validity
    action: Action
    reason: str | None = None
    control: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"validity": self.validity, "reason": self.reason, "control": self.control,
                "action": self.action.to_json()}


class Illegal(ValueError):
    """A proposed action is outside the role's legal space."""


def _int(args: dict[str, Any], *names: str, limit: float | None = None) -> int | None:
    """The first present argument as a finite int within bounds; Illegal naming it otherwise."""
    for n in names:
        if n in args and args[n] is not None:
            try:
                value = finite_number(args[n], f"argument {n!r}", *(() if limit is None else (limit,)))
            except OutOfBounds as exc:
                raise Illegal(str(exc)) from None
            return int(round(value))
    return None


def _point(args: dict[str, Any], xs: tuple[str, ...], ys: tuple[str, ...], pair: tuple[str, ...]) -> tuple[int | None, int | None]:
    for p in pair:
        v = args.get(p)
        if isinstance(v, (list, tuple)) and len(v) == 2:
            return _int({"x": v[0]}, "x"), _int({"y": v[1]}, "y")
    return _int(args, *xs), _int(args, *ys)


def requested_duration(args: dict[str, Any]) -> int | None:
    """A duration the model asked for, in ms ('duration' is seconds, 'duration_ms' is ms).

    Non-positive or absurd durations are Illegal (OOS), never clamped into a valid hold.
    """
    for names, scale in ((("duration_ms", "hold_ms"), 1.0), (("duration", "hold", "seconds"), 1000.0)):
        for n in names:
            if n in args and args[n] is not None:
                try:
                    ms = finite_number(args[n], f"duration {n!r}", math.inf) * scale
                except OutOfBounds as exc:
                    raise Illegal(str(exc)) from None
                if ms <= 0:
                    raise Illegal(f"duration {n!r} must be positive, got {shown(args[n])}")
                if ms > MAX_REQUEST_MS:
                    raise Illegal(f"duration {n!r} of {ms / 1000:g} s is beyond {MAX_REQUEST_MS // 1000} s")
                return max(1, int(round(ms)))
    return None


def bounded(ms: int) -> int:
    return max(0, min(MAX_ACTION_MS, ms))


def build_action(kind: str, args: dict[str, Any], default_ms: int) -> Action:
    """Turn a low-level action kind and its arguments into an Action (no legality yet)."""
    kind = kind.strip().lower()
    kind = {"key": "press_key", "keypress": "press_key", "hotkey": "press_keys", "left_click": "click",
            "move": "mouse_move", "type_text": "type", "sleep": "wait", "noop": "wait"}.get(kind, kind)
    if kind not in KINDS:
        raise Illegal(f"unknown action {shown(kind)}")
    asked = requested_duration(args)
    duration = bounded(asked if asked is not None else default_ms)
    if kind == "wait":
        return Action("wait", duration)
    if kind in ("press_key", "press_keys"):
        raw = args.get("keys", args.get("key"))
        if raw in (None, "", []):
            raise Illegal(f"{kind} needs 'key'")
        keys = tuple(normalize_key(k) for k in split_keys(raw))
        if len(keys) > MAX_KEYS or any(len(k) > 32 for k in keys):
            raise Illegal(f"{kind} takes at most {MAX_KEYS} short key names, got {shown(raw)}")
        return Action("press_keys" if len(keys) > 1 else "press_key", duration, keys=keys)
    if kind == "type":
        text = args.get("text", args.get("content"))
        if not isinstance(text, str) or not text:
            raise Illegal("type needs a non-empty 'text'")
        if len(text) > MAX_TEXT_CHARS:
            raise Illegal(f"type text is {len(text)} characters long (at most {MAX_TEXT_CHARS})")
        return Action("type", duration, text=text)
    x, y = _point(args, ("x",), ("y",), ("coordinate", "point", "position", "start"))
    if x is None or y is None:
        raise Illegal(f"{kind} needs x and y")
    if kind == "drag":
        tx, ty = _point(args, ("to_x", "x2", "end_x"), ("to_y", "y2", "end_y"), ("to", "end", "end_coordinate"))
        if tx is None or ty is None:
            raise Illegal("drag needs to_x and to_y")
        return Action("drag", duration, x=x, y=y, to_x=tx, to_y=ty, button=_button(kind, args))
    if kind == "mouse_move" and args.get("to_x") is not None:  # a look from (x, y) on to (to_x, to_y)
        tx, ty = _point(args, ("to_x",), ("to_y",), ())
        if ty is None:
            raise Illegal("mouse_move with to_x needs to_y")
        return Action("mouse_move", duration, x=x, y=y, to_x=tx, to_y=ty)
    if kind == "scroll":
        dx = _int(args, "dx", "scroll_x", limit=MAX_SCROLL_PX) or 0
        dy = _int(args, "dy", "scroll_y", limit=MAX_SCROLL_PX) or 0
        direction = args.get("direction", "")
        direction = direction.lower() if isinstance(direction, str) else ""
        amount = _int(args, "amount", "clicks", limit=MAX_SCROLL_CLICKS) or 3
        if direction and not (dx or dy):
            step = 100 * amount
            dx, dy = {"up": (0, -step), "down": (0, step), "left": (-step, 0), "right": (step, 0)}.get(direction, (0, 0))
        if not (dx or dy):
            raise Illegal("scroll needs dx/dy or a direction")
        return Action("scroll", duration, x=x, y=y, dx=dx, dy=dy)
    button = _button(kind, args) if kind != "mouse_move" else "left"
    return Action(kind, duration, x=x, y=y, button=button)


def _button(kind: str, args: dict[str, Any]) -> MouseButton:
    """The mouse button a click, hold or drag uses: right for right_click, else its ``button`` argument."""
    if kind == "right_click":
        return "right"
    raw = args.get("button")
    if raw is None:
        return "left"
    button = raw.strip().lower() if isinstance(raw, str) else raw
    if button not in MOUSE_BUTTONS:
        raise Illegal(f"button must be one of {', '.join(MOUSE_BUTTONS)}, got {shown(raw)}")
    return cast(MouseButton, button)  # one of MOUSE_BUTTONS, checked above


def check_legal(action: Action, cua: CuaControls, viewport: Viewport, typed_keys: bool = True) -> None:
    """Raise Illegal when the role may not perform this action.

    Moving the pointer is not a click: it is legal in every game (as in the original harness).
    ``typed_keys`` holds typed text to the allowed keys (the paper's text); the original harness does not.
    """
    if action.kind in MOUSE_KINDS:
        if not cua.clicks and action.kind != "mouse_move":
            raise Illegal("mouse clicks are not allowed for this role")
        for px, py in ((action.x, action.y), (action.to_x, action.to_y)):
            if px is None:
                continue
            if not (0 <= px < viewport.width and 0 <= py < viewport.height):  # type: ignore[operator]
                raise Illegal(f"point ({px}, {py}) is outside the {viewport.width}x{viewport.height} viewport")
    if cua.any_key:  # every key is legal for this role
        return
    if action.kind == "type" and not typed_keys:
        return
    allowed = {normalize_key(k) for k in cua.keys}
    pressed = action.keys if action.kind != "type" else tuple(normalize_key(c) for c in action.text)
    for key in pressed:
        if key not in allowed:
            name = "Space" if key == " " else key
            raise Illegal(f"key {name!r} is not allowed" if allowed else "this role may not use the keyboard")


def default_hold(cua: CuaControls, keys: tuple[str, ...]) -> int:
    """The hold for a key press when the model gives none: a per-key override or the role default."""
    per_key = {normalize_key(k): v for k, v in cua.key_durations.items()}
    return max((per_key.get(k, cua.default_hold_ms) for k in keys), default=cua.default_hold_ms)


def parse_cua(call: Proposal, cua: CuaControls, viewport: Viewport, typed_keys: bool = True) -> Verdict:
    """Classify a computer-use proposal and produce the action to execute."""
    fallback = noop(cua.default_hold_ms)
    if call.refused:
        return no_call(cua.default_hold_ms, call.malformed or "the reply was refused by the format's parser")
    if call.malformed:
        return Verdict("oos", fallback, call.malformed)
    problem = out_of_bounds(call)
    if problem:
        return Verdict("oos", fallback, problem)
    args = dict(call.args)
    name = call.name
    if name in (None, "", "computer", "computer_use"):
        name = args.pop("action", None) or args.pop("type", None)
    if not isinstance(name, str) or not name:
        return Verdict("oos", fallback, "no action given")
    if len(name) > 64:
        return Verdict("oos", fallback, f"unknown action {shown(name)}")
    try:
        action = build_action(name, args, cua.default_hold_ms)
        if action.kind in ("press_key", "press_keys") and requested_duration(args) is None:
            action = Action(action.kind, default_hold(cua, action.keys), keys=action.keys)
        check_legal(action, cua, viewport, typed_keys)
    except Illegal as exc:
        return Verdict("oos", fallback, str(exc))
    return Verdict("valid", action)


def out_of_bounds(call: Proposal) -> str | None:
    """Why a proposal's name or arguments are beyond any action (too deep, too long, huge), or None."""
    try:
        check_name(call.name)
        if not isinstance(call.args, dict):
            raise OutOfBounds("arguments are not an object")
        check_value(call.args)
    except OutOfBounds as exc:
        return str(exc)
    return None


def no_call(cua_default_ms: int, why: str = "no executable call in the reply") -> Verdict:
    return Verdict("ntc", noop(cua_default_ms), why)
