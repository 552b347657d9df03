"""Qwen3-VL as the original harness speaks to it: Qwen's own `computer_use` tool declaration (sent as
text), and the replies its parsers take (pure). docs/models.md compares both with the original's.

Computer use: only `<tool_call>{…}</tool_call>` blocks count; the verbs are click (with ``button``),
click_hold, drag, mouse_move, press_key, press_keys, type and wait; a retired verb (left_click,
right_click, key_press, …) makes the whole reply count as no tool call; points are on Qwen's 0-1000
grid, clamped to it. Generalist: the first `<tool_call>` block (or, failing that, the first JSON object
anywhere) with a "name" is the call.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...catalog.specs import Role
from ...play.actions import Proposal
from .original_actions import no_action, pointer_move
from .tools import COMPUTER_USE

CUA_VERBS = ("click", "click_hold", "mouse_move", "press_key", "press_keys", "wait")
# Verbs of other computer-use vocabularies the original harness refuses outright.
RETIRED_VERBS = frozenset({
    "left_click", "right_click", "left_click_hold", "left_click_and_hold", "left_click_drag", "keypress",
    "key_press", "press", "key_combination", "input_text", "type_text", "terminate", "finished",
})
_CUA_BLOCK = re.compile(r"<tool(?:\s+|_)call>\s*(\{[\s\S]*?\})\s*</tool(?:\s+|_)call>")
_ANY_BLOCK = re.compile(_CUA_BLOCK.pattern, re.IGNORECASE)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def example_keys(role: Role, n: int) -> list[str]:
    """Up to ``n`` keys that are legal for the role, for examples (Enter where every key is legal)."""
    if role.cua.any_key and not role.cua.keys:
        return ["Enter"][:n]
    return list(role.cua.keys[:n])


def declaration(role: Role, size: tuple[int, int]) -> str:
    """The `computer_use` tool declared in the text, as Qwen's chat template declares a tool."""
    keys = example_keys(role, 3)
    one = f" (for example {', '.join(repr(k) for k in keys)})" if keys else ""
    two = f" (for example [{', '.join(repr(k) for k in keys[:2])}])" if len(keys) >= 2 else ""
    tool = {"type": "function", "function": {
        "name": COMPUTER_USE,
        "description": (
            "Play the game with the keyboard and the mouse.\n"
            f"* The screen is {size[0]}x{size[1]} pixels.\n"
            "* Aim a click at the middle of its target, not at an edge.\n"
            "* In games, keys usually move and act; clicks are mostly for menus and boards.\n"
            "* press_key presses one key, press_keys several keys at once, wait lets the game run on."),
        "parameters": {
            "properties": {
                "action": {
                    "description": (
                        "What to do:\n"
                        "* `click`: press and release a mouse button at `coordinate` (x, y); button='right' for a "
                        "right click.\n"
                        "* `click_hold`: hold a mouse button down at `coordinate` (x, y).\n"
                        "* `mouse_move`: move the pointer to `coordinate` (x, y), e.g. to turn a camera.\n"
                        f"* `press_key`: press one key{one}.\n"
                        f"* `press_keys`: press several keys together{two}.\n"
                        "* `wait`: do nothing for a moment.\n"),
                    "enum": list(CUA_VERBS), "type": "string"},
                "coordinate": {"description": "(x, y): pixels from the top-left corner of the screen; needed by "
                                              "click, click_hold and mouse_move.", "type": "array"},
                "button": {"description": "The mouse button for click or click_hold: left, right or middle.",
                           "type": "string", "enum": ["left", "right", "middle"]},
                "key": {"description": f"The key for press_key{one}.", "type": "string"},
                "keys": {"description": f"The keys for press_keys{two}.", "type": "array"},
                "duration": {"description": "Seconds to hold a key or the mouse, or to wait (optional).",
                             "type": "number"},
            },
            "required": ["action"], "type": "object"}}}
    return ("# Tools\n\nYou can call the function below to act.\n\n"
            "Its signature is given inside <tools></tools> XML tags:\n"
            f"<tools>\n{json.dumps(tool)}\n</tools>\n\n"
            "To call it, answer with a JSON object holding the function's name and arguments inside "
            "<tool_call></tool_call> XML tags:\n"
            "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>")


def refused(reason: str) -> list[Proposal]:
    """A reply the original's parser raises on: counted as no tool call, with the reason."""
    return [no_action(reason)]


def parse_original(text: str, interface: str) -> list[Proposal]:
    """The calls in a Qwen reply, read as the original harness reads them."""
    return _generalist(text or "") if interface == "generalist" else _computer(text or "")


def _arguments(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def _named(obj: Any) -> Proposal | None:
    if isinstance(obj, dict) and isinstance(obj.get("name"), str) and obj["name"].strip():
        return Proposal(obj["name"].strip(), _arguments(obj.get("arguments")))
    return None


def _generalist(text: str) -> list[Proposal]:
    text = text.strip()
    for m in _ANY_BLOCK.finditer(text):
        try:
            call = _named(json.loads(m.group(1)))
        except ValueError:
            continue
        if call is not None:
            return [call]
    decoder, i = json.JSONDecoder(), 0
    while (start := text.find("{", i)) >= 0:
        try:
            obj, end = decoder.raw_decode(text[start:])
        except ValueError:
            i = start + 1
            continue
        call = _named(obj)
        if call is not None:
            return [call]
        i = start + max(1, end)
    return []


def grid_point(value: Any) -> tuple[float, float] | None:
    """[x, y], {x, y} or "x, y" on the 0-1000 grid, clamped to it; None if it is none of those."""
    raw: list[Any] = []
    if isinstance(value, (list, tuple)) and len(value) >= 2:
        raw = list(value[:2])
    elif isinstance(value, dict) and all(isinstance(value.get(k), (int, float)) for k in "xy"):
        raw = [value["x"], value["y"]]
    elif isinstance(value, str):
        raw = _NUMBER.findall(value)[:2]
    try:
        x, y = float(raw[0]), float(raw[1])
    except (IndexError, TypeError, ValueError, OverflowError):
        return None
    if x != x or y != y:  # NaN
        return None
    return min(max(x, 0.0), 1000.0), min(max(y, 0.0), 1000.0)


def seconds(value: Any) -> float | None:
    """A usable hold or wait in seconds, or None (the role's default) as the original coerces it."""
    try:
        s = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return s if 0 < s < float("inf") else None


def _keys(value: Any) -> list[str]:
    if isinstance(value, str):
        return [k for k in re.split(r"[\s+]+", value.strip()) if k]
    if isinstance(value, (list, tuple)):
        return [k for k in value if isinstance(k, str)]
    return []


def mouse_call(verb: str, out: dict[str, Any], args: dict[str, Any]) -> Proposal:
    """click, click_hold or mouse_move at ``out``'s point, read as the original reads its button and hold;
    a pointer move starts from the screen's centre, as the original moves it."""
    if verb == "mouse_move":
        return pointer_move(out["x"], out["y"])
    button = str(args.get("button", "")).strip().lower()
    if button in ("right", "middle"):
        out["button"] = button
    if verb == "click_hold" and seconds(args.get("duration")) is not None:
        out["duration"] = seconds(args.get("duration"))
    return Proposal(verb, out)


def _computer(text: str) -> list[Proposal]:
    calls: list[Proposal] = []
    for m in _CUA_BLOCK.finditer(text):
        try:
            obj = json.loads(m.group(1))
        except ValueError:
            continue
        if not isinstance(obj, dict):
            return refused("tool call is not a JSON object")
        args = _arguments(obj.get("arguments") or {})
        tool = str(obj.get("name", "")).strip().lower()
        verb = str(args.get("action", "")).strip().lower()
        if not verb and tool and tool != COMPUTER_USE:
            verb = tool
        if verb in RETIRED_VERBS:
            return refused(f"{verb!r} is not a computer_use verb here (the original harness refuses it)")
        call = _verb(verb, args)
        if call is not None:
            calls.append(call)
    return calls


def _verb(verb: str, args: dict[str, Any]) -> Proposal | None:
    """One block's action in our schema (points stay on the grid), or None when the original skips it."""
    if verb in ("click", "click_hold", "mouse_move"):
        point = grid_point(args.get("coordinate"))
        if point is None:
            return None
        return mouse_call(verb, {"x": point[0], "y": point[1]}, args)
    if verb == "drag":
        start = grid_point(args.get("start_coordinate") or args.get("start"))
        end = grid_point(args.get("coordinate") or args.get("end_coordinate") or args.get("end"))
        if start is None or end is None:
            return None
        return Proposal("drag", {"x": start[0], "y": start[1], "to_x": end[0], "to_y": end[1]})
    if verb in ("press_key", "press_keys"):
        first, second = ("key", "keys") if verb == "press_key" else ("keys", "key")
        keys = _keys(args.get(first) or args.get(second))
        if not keys:
            return None
        out: dict[str, Any] = {"key": keys[0]} if len(keys) == 1 else {"keys": keys}
        duration = args.get("duration")
        if isinstance(duration, (int, float)) and seconds(duration) is not None:
            out["duration"] = float(duration)
        return Proposal("press_key" if len(keys) == 1 else "press_keys", out)
    if verb == "type":
        value = args.get("text") if args.get("text") is not None else args.get("value")
        return None if value is None else Proposal("type", {"text": str(value)})
    if verb == "wait":
        wait = seconds(args.get("duration"))
        return Proposal("wait", {} if wait is None else {"duration": wait})
    return None
