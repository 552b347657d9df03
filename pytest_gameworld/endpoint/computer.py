"""One computer-use action, parsed from any provider's vocabulary and rendered into each.

The neutral form uses pixel coordinates on the declared display (or Gemini's 0-999 grid
when ``normalized``) and DOM/Playwright key names (``ArrowLeft``, ``Control``, ``Enter``).
A scripted entry may also carry verbatim per-protocol overrides under ``openai``,
``anthropic`` (a classic ``{action: …}`` input) or ``gemini`` (``{name, args}``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..catalog.providers import WIRE_PROTOCOLS

KINDS: frozenset[str] = frozenset(
    {
        "click", "double_click", "triple_click", "move", "drag", "scroll", "key", "type",
        "wait", "screenshot", "hold_key", "mouse_down", "mouse_up", "cursor_position", "zoom",
    }
)

# Every action name any of the three vocabularies (or the neutral one) uses, mapped to
# (neutral kind, implied mouse button, implied wait seconds).
_NAMES: dict[str, tuple[str, str | None, float | None]] = {
    "click": ("click", None, None),
    "left_click": ("click", "left", None),
    "right_click": ("click", "right", None),
    "middle_click": ("click", "middle", None),
    "click_at": ("click", None, None),
    "double_click": ("double_click", None, None),
    "triple_click": ("triple_click", None, None),
    "move": ("move", None, None),
    "mouse_move": ("move", None, None),
    "hover_at": ("move", None, None),
    "drag": ("drag", None, None),
    "left_click_drag": ("drag", None, None),
    "drag_and_drop": ("drag", None, None),
    "scroll": ("scroll", None, None),
    "scroll_at": ("scroll", None, None),
    "scroll_document": ("scroll", None, None),
    "key": ("key", None, None),
    "keypress": ("key", None, None),
    "key_combination": ("key", None, None),
    "press_key": ("key", None, None),
    "press_keys": ("key", None, None),
    "hotkey": ("key", None, None),
    "type": ("type", None, None),
    "type_text": ("type", None, None),
    "type_text_at": ("type", None, None),
    "wait": ("wait", None, None),
    "wait_5_seconds": ("wait", None, 5.0),
    "screenshot": ("screenshot", None, None),
    "hold_key": ("hold_key", None, None),
    "mouse_down": ("mouse_down", None, None),
    "left_mouse_down": ("mouse_down", None, None),
    "mouse_up": ("mouse_up", None, None),
    "left_mouse_up": ("mouse_up", None, None),
    "cursor_position": ("cursor_position", None, None),
    "zoom": ("zoom", None, None),
}

# Gemini's predefined computer-use functions take coordinates on a 0-999 grid.
_GEMINI_NORMALIZED: frozenset[str] = frozenset(
    {"click_at", "hover_at", "type_text_at", "scroll_at", "drag_and_drop", "scroll_document"}
)

GEMINI_PREDEFINED: tuple[str, ...] = (
    "open_web_browser", "wait_5_seconds", "go_back", "go_forward", "search", "navigate",
    "click_at", "hover_at", "type_text_at", "key_combination", "scroll_document",
    "scroll_at", "drag_and_drop",
)
"""Gemini's predefined computer-use function names (the ones ``excludedPredefinedFunctions`` may drop)."""

PROTOCOLS: tuple[str, ...] = WIRE_PROTOCOLS

# Lower-cased spellings from DOM, xdotool (Anthropic), OpenAI CUA and Gemini -> DOM name.
_KEY_ALIASES: dict[str, str] = {
    "left": "ArrowLeft", "arrowleft": "ArrowLeft", "arrow_left": "ArrowLeft",
    "right": "ArrowRight", "arrowright": "ArrowRight", "arrow_right": "ArrowRight",
    "up": "ArrowUp", "arrowup": "ArrowUp", "arrow_up": "ArrowUp",
    "down": "ArrowDown", "arrowdown": "ArrowDown", "arrow_down": "ArrowDown",
    "enter": "Enter", "return": "Enter", "kp_enter": "Enter",
    "esc": "Escape", "escape": "Escape",
    "space": "Space", " ": "Space", "spacebar": "Space",
    "tab": "Tab",
    "backspace": "Backspace", "back_space": "Backspace",
    "delete": "Delete", "del": "Delete",
    "insert": "Insert", "ins": "Insert",
    "home": "Home", "end": "End",
    "pageup": "PageUp", "page_up": "PageUp", "pgup": "PageUp", "prior": "PageUp",
    "pagedown": "PageDown", "page_down": "PageDown", "pgdn": "PageDown", "next": "PageDown",
    "ctrl": "Control", "control": "Control", "ctl": "Control", "controlormeta": "Control",
    "shift": "Shift",
    "alt": "Alt", "option": "Alt",
    "meta": "Meta", "cmd": "Meta", "command": "Meta", "super": "Meta", "win": "Meta",
    "windows": "Meta", "os": "Meta",
    "capslock": "CapsLock", "caps_lock": "CapsLock",
}
_KEY_ALIASES.update({f"f{i}": f"F{i}" for i in range(1, 13)})

_OPENAI_KEYS: dict[str, str] = {
    "Control": "CTRL", "Shift": "SHIFT", "Alt": "ALT", "Meta": "META", "Enter": "ENTER",
    "Escape": "ESC", "Space": "SPACE", "Backspace": "BACKSPACE", "Delete": "DELETE",
    "Tab": "TAB", "ArrowLeft": "ARROWLEFT", "ArrowRight": "ARROWRIGHT", "ArrowUp": "ARROWUP",
    "ArrowDown": "ARROWDOWN", "PageUp": "PAGEUP", "PageDown": "PAGEDOWN", "Home": "HOME",
    "End": "END", "Insert": "INSERT", "CapsLock": "CAPSLOCK",
}
_XDOTOOL_KEYS: dict[str, str] = {
    "Control": "ctrl", "Shift": "shift", "Alt": "alt", "Meta": "super", "Enter": "Return",
    "Escape": "Escape", "Space": "space", "Backspace": "BackSpace", "Delete": "Delete",
    "Tab": "Tab", "ArrowLeft": "Left", "ArrowRight": "Right", "ArrowUp": "Up",
    "ArrowDown": "Down", "PageUp": "Page_Up", "PageDown": "Page_Down", "Home": "Home",
    "End": "End", "Insert": "Insert", "CapsLock": "Caps_Lock",
}


def canonical_key(key: str) -> str:
    """The DOM/Playwright name of ``key`` given in any vocabulary (``left`` -> ``ArrowLeft``)."""
    if len(key) == 1:
        # A bare character is the key itself; letters are lower-cased because "A" in
        # OpenAI's vocabulary means the A key, not Shift+a.
        return "Space" if key == " " else key.lower()
    return _KEY_ALIASES.get(key.strip().lower(), key.strip())


def parse_keys(value: Any) -> list[str]:
    """A key combination from a list (``["CTRL", "c"]``) or a ``+``-joined string (``"ctrl+c"``)."""
    if value is None:
        return []
    if isinstance(value, str):
        parts = [value] if len(value) == 1 else [p for p in value.split("+") if p != ""]
        if value.endswith("++"):
            parts.append("+")
        return [canonical_key(p) for p in parts]
    if isinstance(value, Iterable):
        return [canonical_key(str(k)) for k in value]
    raise ValueError(f"keys must be a string or a list, got {value!r}")


@dataclass
class ComputerAction:
    """A protocol-neutral computer-use action; see the module docstring for units."""

    kind: str
    x: int | None = None
    y: int | None = None
    button: str = "left"
    normalized: bool = False
    path: list[tuple[int, int]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    text: str | None = None
    scroll_x: int = 0
    scroll_y: int = 0
    duration_s: float | None = None
    region: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    native: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The neutral form as plain JSON (for logs and for protocols without a native tool)."""
        out: dict[str, Any] = {"action": self.kind}
        if self.x is not None and self.y is not None:
            out["x"], out["y"] = self.x, self.y
        if self.normalized:
            out["normalized"] = True
        if self.kind == "click" and self.button != "left":
            out["button"] = self.button
        if self.path:
            out["path"] = [list(p) for p in self.path]
        if self.keys:
            out["keys"] = list(self.keys)
        if self.modifiers:
            out["modifiers"] = list(self.modifiers)
        if self.text is not None:
            out["text"] = self.text
        if self.kind == "scroll":
            out["scroll_x"], out["scroll_y"] = self.scroll_x, self.scroll_y
        if self.duration_s is not None:
            out["duration_s"] = self.duration_s
        if self.region:
            out["region"] = list(self.region)
        return out


def _point(value: Any) -> tuple[int, int]:
    """``[x, y]`` or ``{x, y}`` as an int pair."""
    if isinstance(value, dict):
        return int(value["x"]), int(value["y"])
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return int(value[0]), int(value[1])
    raise ValueError(f"not a point: {value!r}")


def parse_action(spec: dict[str, Any]) -> ComputerAction:
    """Parse a computer action written in the neutral, OpenAI, Anthropic or Gemini vocabulary."""
    if not isinstance(spec, dict):
        raise ValueError(f"a computer action must be a mapping, got {spec!r}")
    native = {p: spec[p] for p in PROTOCOLS if isinstance(spec.get(p), dict)}
    body = {k: v for k, v in spec.items() if k not in native}
    name = body.get("action") or body.get("type") or body.get("name")
    if name is None:
        if not native:
            raise ValueError(f"computer action has no action/type/name: {spec!r}")
        # Only per-protocol overrides were given: derive the neutral form from one of
        # them so the entry still renders for the other protocols.
        action = parse_action(next(iter(native.values())))
        action.native = native
        return action
    # Gemini writes {name, args}; an Anthropic toolset member {name, input}; the
    # others put the fields next to the action name.
    args = next((body[k] for k in ("args", "input") if isinstance(body.get(k), dict)), body)
    name = str(name)
    if name not in _NAMES and name in GEMINI_PREDEFINED:
        # Browser-only Gemini functions (navigate, go_back, search, …) have no neutral
        # form: sent verbatim to Gemini, rendered as a harmless wait elsewhere.
        gemini = native.get("gemini") or {"name": name, "args": dict(body.get("args") or {})}
        return ComputerAction(kind="wait", native={**native, "gemini": gemini})
    if name not in _NAMES:
        raise ValueError(f"unknown computer action {name!r}; known: {sorted(_NAMES)}")
    kind, button, wait_s = _NAMES[name]
    normalized = bool(body.get("normalized", name in _GEMINI_NORMALIZED))
    act = ComputerAction(kind=kind, normalized=normalized, native=native)
    if button is not None:
        act.button = button
    elif args.get("button") is not None:
        act.button = {"wheel": "middle"}.get(str(args["button"]), str(args["button"]))
    if "coordinate" in args and args["coordinate"] is not None:
        act.x, act.y = _point(args["coordinate"])
    elif args.get("x") is not None and args.get("y") is not None:
        act.x, act.y = int(args["x"]), int(args["y"])
    if kind == "drag":
        _parse_drag(act, args)
    elif kind == "scroll":
        _parse_scroll(act, args)
    elif kind in ("key", "hold_key"):
        act.keys = parse_keys(args.get("keys", args.get("key", args.get("text"))))
        if not act.keys:
            raise ValueError(f"key action without keys: {spec!r}")
    elif kind == "type":
        act.text = str(args.get("text", ""))
        for flag in ("press_enter", "clear_before_typing"):
            if flag in args:
                act.extra[flag] = bool(args[flag])
    elif kind == "zoom" and args.get("region") is not None:
        act.region = [int(v) for v in args["region"]]
    if kind in ("click", "double_click", "triple_click", "drag", "scroll", "move"):
        # Keys held during a mouse action: neutral ``modifiers``, OpenAI ``keys``,
        # Anthropic ``text`` (e.g. "ctrl+shift").
        held = next((args[k] for k in ("modifiers", "keys", "text") if args.get(k)), None)
        act.modifiers = parse_keys(held) if held else []
    duration = args.get("duration_s", args.get("duration", wait_s))
    if duration is not None:
        act.duration_s = float(duration)
    return act


def _parse_drag(act: ComputerAction, args: dict[str, Any]) -> None:
    """Fill a drag's path from ``path``, Anthropic's start/end or Gemini's destination."""
    if args.get("path"):
        act.path = [_point(p) for p in args["path"]]
    elif args.get("start_coordinate") is not None and args.get("coordinate") is not None:
        act.path = [_point(args["start_coordinate"]), _point(args["coordinate"])]
    elif args.get("destination_x") is not None:
        act.path = [(int(args["x"]), int(args["y"])),
                    (int(args["destination_x"]), int(args["destination_y"]))]
    elif args.get("from") is not None and args.get("to") is not None:
        act.path = [_point(args["from"]), _point(args["to"])]
    if len(act.path) < 2:
        raise ValueError(f"drag needs at least two points: {args!r}")
    act.x, act.y = act.path[0]


def _parse_scroll(act: ComputerAction, args: dict[str, Any]) -> None:
    """Scroll deltas from OpenAI's ``scroll_x/scroll_y`` or a direction plus amount."""
    if "scroll_x" in args or "scroll_y" in args:
        act.scroll_x, act.scroll_y = int(args.get("scroll_x", 0)), int(args.get("scroll_y", 0))
        return
    direction = str(args.get("scroll_direction", args.get("direction", "down")))
    if "magnitude" in args:
        amount = int(args["magnitude"])
    elif "scroll_amount" in args or "amount" in args:
        # Anthropic counts wheel clicks; one click is taken as 100 px.
        amount = int(args.get("scroll_amount", args.get("amount", 3))) * (1 if act.normalized else 100)
    else:
        amount = 800 if act.normalized else 300
    sign = -1 if direction in ("up", "left") else 1
    if direction in ("left", "right"):
        act.scroll_x = sign * amount
    else:
        act.scroll_y = sign * amount


# ---------------------------------------------------------------- rendering


def _pixels(act: ComputerAction, display: tuple[int, int], point: tuple[int, int] | None = None) -> list[int]:
    """The action's point in display pixels (display centre when it has none)."""
    width, height = display
    if point is None:
        if act.x is None or act.y is None:
            return [width // 2, height // 2]
        point = (act.x, act.y)
    if act.normalized:
        return [round(point[0] * width / 1000), round(point[1] * height / 1000)]
    return [point[0], point[1]]


def _grid(act: ComputerAction, display: tuple[int, int], point: tuple[int, int] | None = None) -> list[int]:
    """The action's point on Gemini's 0-999 grid (centre when it has none)."""
    if point is None:
        if act.x is None or act.y is None:
            return [500, 500]
        point = (act.x, act.y)
    if act.normalized:
        return [point[0], point[1]]
    width, height = display
    return [min(999, max(0, round(point[0] * 1000 / width))), min(999, max(0, round(point[1] * 1000 / height)))]


def _scroll_pixels(act: ComputerAction, display: tuple[int, int]) -> tuple[int, int]:
    """Scroll deltas in pixels."""
    if not act.normalized:
        return act.scroll_x, act.scroll_y
    return round(act.scroll_x * display[0] / 1000), round(act.scroll_y * display[1] / 1000)


def to_openai(act: ComputerAction, display: tuple[int, int]) -> dict[str, Any]:
    """The OpenAI Responses ``computer_call`` action object for ``act``."""
    if "openai" in act.native:
        return dict(act.native["openai"])
    x, y = _pixels(act, display)
    held = [_OPENAI_KEYS.get(k, k.upper()) for k in act.modifiers]
    out: dict[str, Any]
    if act.kind == "click":
        out = {"type": "click", "button": {"middle": "wheel"}.get(act.button, act.button), "x": x, "y": y}
    elif act.kind in ("double_click", "triple_click"):
        # OpenAI has no triple click; a double click is the nearest action.
        out = {"type": "double_click", "x": x, "y": y}
    elif act.kind == "move":
        out = {"type": "move", "x": x, "y": y}
    elif act.kind == "drag":
        out = {"type": "drag", "path": [dict(zip("xy", _pixels(act, display, p))) for p in act.path]}
    elif act.kind == "scroll":
        sx, sy = _scroll_pixels(act, display)
        out = {"type": "scroll", "x": x, "y": y, "scroll_x": sx, "scroll_y": sy}
    elif act.kind in ("key", "hold_key"):
        return {"type": "keypress", "keys": [_OPENAI_KEYS.get(k, k.upper()) for k in act.keys]}
    elif act.kind == "type":
        return {"type": "type", "text": act.text or ""}
    elif act.kind in ("screenshot", "cursor_position", "zoom"):
        return {"type": "screenshot"}
    else:
        # wait, and mouse_down/mouse_up which OpenAI's tool cannot express: a wait is
        # the action that changes nothing.
        return {"type": "wait"}
    if held:
        out["keys"] = held
    return out


def to_anthropic(act: ComputerAction, display: tuple[int, int]) -> tuple[str, dict[str, Any]]:
    """Anthropic's computer action name and its input (without the ``action`` field)."""
    if "anthropic" in act.native:
        raw = dict(act.native["anthropic"])
        return str(raw.pop("action", raw.pop("name", "screenshot"))), raw
    held = "+".join(_XDOTOOL_KEYS.get(k, k) for k in act.modifiers)
    coordinate = _pixels(act, display)
    name: str
    inp: dict[str, Any]
    if act.kind == "click":
        name, inp = f"{act.button}_click", {"coordinate": coordinate}
    elif act.kind in ("double_click", "triple_click"):
        name, inp = act.kind, {"coordinate": coordinate}
    elif act.kind == "move":
        name, inp = "mouse_move", {"coordinate": coordinate}
    elif act.kind == "drag":
        name = "left_click_drag"
        inp = {"start_coordinate": _pixels(act, display, act.path[0]),
               "coordinate": _pixels(act, display, act.path[-1])}
    elif act.kind == "scroll":
        sx, sy = _scroll_pixels(act, display)
        if abs(sx) > abs(sy):
            direction, delta = ("right" if sx > 0 else "left"), sx
        else:
            direction, delta = ("down" if sy >= 0 else "up"), sy
        name = "scroll"
        inp = {"coordinate": coordinate, "scroll_direction": direction,
               "scroll_amount": max(1, round(abs(delta) / 100))}
    elif act.kind in ("key", "hold_key"):
        name, inp = act.kind, {"text": "+".join(_XDOTOOL_KEYS.get(k, k) for k in act.keys)}
        if act.kind == "hold_key":
            inp["duration"] = max(1, round(act.duration_s or 1))
        return name, inp
    elif act.kind == "type":
        return "type", {"text": act.text or ""}
    elif act.kind == "wait":
        return "wait", {"duration": max(1, round(act.duration_s or 1))}
    elif act.kind == "mouse_down":
        return "left_mouse_down", {}
    elif act.kind == "mouse_up":
        return "left_mouse_up", {}
    elif act.kind == "zoom":
        width, height = display
        return "zoom", {"region": act.region or [0, 0, width, height]}
    else:
        return act.kind, {}
    if held:
        inp["text"] = held
    return name, inp


def to_gemini(act: ComputerAction, display: tuple[int, int]) -> tuple[str, dict[str, Any]]:
    """Gemini's predefined computer-use function name and args (coordinates on the 0-999 grid)."""
    if "gemini" in act.native:
        raw = act.native["gemini"]
        return str(raw.get("name", "wait_5_seconds")), dict(raw.get("args") or {})
    x, y = _grid(act, display)
    if act.kind in ("click", "double_click", "triple_click"):
        return "click_at", {"x": x, "y": y}
    if act.kind == "move":
        return "hover_at", {"x": x, "y": y}
    if act.kind == "drag":
        (x0, y0), (x1, y1) = _grid(act, display, act.path[0]), _grid(act, display, act.path[-1])
        return "drag_and_drop", {"x": x0, "y": y0, "destination_x": x1, "destination_y": y1}
    if act.kind == "scroll":
        sx, sy = act.scroll_x, act.scroll_y
        if abs(sx) > abs(sy):
            direction, delta, extent = ("right" if sx > 0 else "left"), sx, display[0]
        else:
            direction, delta, extent = ("down" if sy >= 0 else "up"), sy, display[1]
        if act.x is None:
            return "scroll_document", {"direction": direction}
        magnitude = abs(delta) if act.normalized else round(abs(delta) * 1000 / extent)
        return "scroll_at", {"x": x, "y": y, "direction": direction, "magnitude": min(999, max(1, magnitude))}
    if act.kind in ("key", "hold_key"):
        return "key_combination", {"keys": "+".join(act.keys)}
    if act.kind == "type":
        return "type_text_at", {
            "x": x, "y": y, "text": act.text or "",
            "press_enter": act.extra.get("press_enter", False),
            "clear_before_typing": act.extra.get("clear_before_typing", False),
        }
    # wait, screenshot, cursor queries and raw mouse button events have no predefined
    # Gemini function; waiting is the closest harmless action.
    return "wait_5_seconds", {}
