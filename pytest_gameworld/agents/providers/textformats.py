"""Text output formats: Qwen3-VL `<tool_call>` JSON and Seed/UI-TARS `Action: click(...)` (pure).

Each parser returns (proposals, reasoning). No recognizable call → [] (NTC); a recognizable
call whose arguments cannot be read → a Proposal with ``malformed`` set (OOS). Computer-use
coordinates stay in the model's space; the agent maps them to the viewport.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...play.actions import Proposal
from .keys import key_args, key_list
from .tools import COMPUTER_USE

_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.S)
_NAME = re.compile(r'"name"\s*:\s*"([^"]+)"')
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_KEYWORD = re.compile(r"([A-Za-z_]\w*)\s*=\s*")


def split_think(text: str) -> tuple[str, str]:
    """(reasoning inside <think>…</think>, the rest); a template may have opened <think> already."""
    if "</think>" in text:
        before, _, after = text.partition("</think>")
        return before.replace("<think>", "").strip(), after
    if "<think>" in text:
        before, _, after = text.partition("<think>")
        # An unterminated think block (cut off by max tokens) runs to the first call, if any.
        thought, tag, tail = after.partition("<tool_call>")
        return thought.strip(), before + tag + tail
    return "", text


# ------------------------------------------------------------------ Qwen3-VL


def parse_qwen(text: str, interface: str) -> tuple[list[Proposal], str]:
    """Parse `<think>…</think><tool_call>{"name": …, "arguments": …}</tool_call>` (one or more)."""
    reasoning, rest = split_think(text or "")
    found = _TOOL_CALL.findall(rest)
    if found:
        if not reasoning:
            reasoning = rest[: rest.find("<tool_call>")].strip()
    else:
        bare = _FENCE.sub("", rest.strip())
        # A model that forgot the tags but wrote exactly the call object still made a call.
        if bare.startswith("{") and bare.endswith("}") and _NAME.search(bare):
            found = [bare]
        else:
            return [], reasoning or rest.strip()
    return [_qwen_call(block, interface) for block in found], reasoning


def _qwen_call(block: str, interface: str) -> Proposal:
    body = _FENCE.sub("", block.strip())
    obj = _loads_object(body)
    if obj is None:
        m = _NAME.search(body)
        return Proposal(m.group(1) if m else None, {}, malformed="tool call is not a valid JSON object")
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return Proposal(None, {}, malformed="tool call has no name")
    raw_args = obj.get("arguments", obj.get("parameters"))
    call = Proposal.from_raw(name, raw_args)
    if call.malformed or interface != "cua" or name not in (COMPUTER_USE, "computer"):
        return call
    return qwen_computer(call.args)


def _loads_object(body: str) -> dict[str, Any] | None:
    for candidate in (body, body[body.find("{"): body.rfind("}") + 1] if "{" in body else ""):
        if not candidate:
            continue
        try:
            obj = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    return None


def _coordinate(value: Any) -> tuple[float, float] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        try:
            return float(value[0]), float(value[1])
        except (TypeError, ValueError):
            return None
    if isinstance(value, str):
        nums = _NUMBER.findall(value)
        if len(nums) == 2:
            return float(nums[0]), float(nums[1])
    return None


def qwen_computer(args: dict[str, Any]) -> Proposal:
    """A Qwen `computer_use` call (key, type, mouse_move, left_click, scroll, wait, …) in our schema."""
    action = args.get("action")
    if not isinstance(action, str) or not action:
        return Proposal(COMPUTER_USE, {}, malformed="computer_use call without an action")
    point: dict[str, Any] = {}
    if args.get("coordinate") is not None:
        xy = _coordinate(args["coordinate"])
        if xy is None:
            return Proposal(action, {}, malformed=f"coordinate must be [x, y], got {args['coordinate']!r}")
        point = {"x": xy[0], "y": xy[1]}
    if action == "key":
        keys = args.get("keys", args.get("key"))
        if keys in (None, "", []):
            return Proposal("press_key", {}, malformed="key action without keys")
        name, kargs = key_args(key_list(keys))
        return Proposal(name, kargs)
    if action == "type":
        return Proposal("type", {"text": args.get("text")})
    if action in ("left_click", "click", "double_click", "triple_click"):
        button = args.get("button")
        return Proposal("click", {**point, "button": button} if button is not None else point)
    if action in ("right_click", "mouse_move"):
        return Proposal(action, point)
    if action == "left_click_drag":
        # Qwen drags from where the pointer is to the coordinate; the agent fills the start.
        return Proposal("drag", {"to_x": point["x"], "to_y": point["y"]} if point else {})
    if action in ("scroll", "hscroll"):
        pixels = args.get("pixels", 0)
        if isinstance(pixels, bool) or not isinstance(pixels, (int, float)):
            return Proposal("scroll", {}, malformed=f"scroll pixels must be a number, got {pixels!r}")
        # Qwen: positive pixels scroll up (or right for hscroll); our dy is positive down.
        delta = {"dx": pixels} if action == "hscroll" else {"dy": -pixels}
        return Proposal("scroll", {**point, **delta})
    if action == "wait":
        seconds = args.get("time", args.get("duration"))
        return Proposal("wait", {} if seconds is None else {"duration": seconds})
    rest = {k: v for k, v in args.items() if k not in ("action", "coordinate")}
    return Proposal(action, {**point, **rest})  # terminate, answer, middle_click…: outside our space


# ------------------------------------------------------------------ Seed / UI-TARS

_UITARS_NAMES = {
    "click": "click", "left_single": "click", "left_double": "click", "double_click": "click",
    "triple_click": "click", "right_single": "right_click", "right_click": "right_click",
    "drag": "drag", "select": "drag", "hotkey": "press_keys", "press": "press_keys", "keydown": "press_keys",
    "type": "type", "scroll": "scroll", "wait": "wait", "mouse_move": "mouse_move", "hover": "mouse_move",
    "move_to": "mouse_move", "long_press": "click_hold", "keyup": "keyup", "finished": "finished",
    "call_user": "call_user", "press_key": "press_keys", "press_keys": "press_keys", "click_hold": "click_hold",
}
_CALL_START = re.compile(r"\b(" + "|".join(sorted(_UITARS_NAMES, key=len, reverse=True)) + r")\s*\(")
_POINT_KEYS = ("point", "start_box", "start_point", "coordinate", "box", "_0")
_END_KEYS = ("end_point", "end_box", "_1")


class _Unreadable(ValueError):
    """A call's argument list could not be read."""


def parse_uitars(text: str) -> tuple[list[Proposal], str]:
    """Parse `Thought: …` then `Action: click(point='<point>x y</point>')` (one or more actions)."""
    reasoning, rest = split_think(text or "")
    marker = re.search(r"(?im)^\s*Action\s*:", rest) or re.search(r"(?i)\bAction\s*:", rest)
    head, body = (rest[: marker.start()], rest[marker.end():]) if marker else (rest, rest)
    thought = re.sub(r"(?im)^\s*(Thought|Reflection|Action_Summary)\s*:\s*", "", head).strip()
    reasoning = "\n".join(p for p in (reasoning, thought if marker else "") if p)
    calls: list[Proposal] = []
    pos = 0
    while (m := _CALL_START.search(body, pos)) is not None:
        name = m.group(1)
        try:
            args, pos = _read_args(body, m.end())
        except _Unreadable as exc:
            if not marker:  # without an Action: line, 'click (the red one)' is prose, not a call
                pos = m.end()
                continue
            calls.append(Proposal(_UITARS_NAMES[name], {}, malformed=f"{name}(…): {exc}"))
            break
        calls.append(uitars_call(name, args))
    if not marker and not calls:
        reasoning = reasoning or re.sub(r"(?im)^\s*Thought\s*:\s*", "", rest).strip()
    return calls, reasoning


def _read_args(text: str, i: int) -> tuple[dict[str, str], int]:
    """Keyword arguments from just after '(' to the matching ')'; values keep their raw text."""
    args: dict[str, str] = {}
    n = len(text)
    while True:
        while i < n and text[i] in " \t\r\n,":
            i += 1
        if i >= n:
            raise _Unreadable("the call is not closed with ')'")
        if text[i] == ")":
            return args, i + 1
        m = _KEYWORD.match(text, i)
        if m is not None:
            key, i = m.group(1), m.end()
        elif text[i] in "'\"":
            key = f"_{len(args)}"  # a positional argument, e.g. hotkey('ctrl c')
        else:
            raise _Unreadable(f"expected key=value at {text[i:i + 20]!r}")
        if i < n and text[i] in "'\"":
            quote, j, buf = text[i], i + 1, []
            while j < n and text[j] != quote:
                if text[j] == "\\" and j + 1 < n:
                    buf.append({"n": "\n", "t": "\t"}.get(text[j + 1], text[j + 1]))
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            if j >= n:
                raise _Unreadable(f"unterminated string for {key}")
            args[key], i = "".join(buf), j + 1
        else:
            j = i
            depth = 0
            while j < n and not (depth == 0 and text[j] in ",)"):
                if text[j] in "([":
                    depth += 1
                elif text[j] in ")]":
                    depth -= 1
                j += 1
            args[key], i = text[i:j].strip(), j


def _box_point(value: str) -> tuple[float, float] | None:
    """`<point>x y</point>`, `(x,y)`, `<|box_start|>(x,y)<|box_end|>`; a 4-number box gives its centre."""
    nums = [float(v) for v in _NUMBER.findall(value)]
    if len(nums) == 2:
        return nums[0], nums[1]
    if len(nums) == 4:
        return (nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2
    return None


def _first(args: dict[str, str], keys: tuple[str, ...]) -> str | None:
    return next((args[k] for k in keys if args.get(k)), None)


def _scroll(name: str, args: dict[str, str], out: dict[str, Any]) -> Proposal:
    """A scroll by ``delta_x``/``delta_y`` pixels (positive down/right, as the wheel turns), else by direction."""
    if args.get("delta_x") is not None or args.get("delta_y") is not None:
        try:
            dx, dy = float(args.get("delta_x") or 0), float(args.get("delta_y") or 0)
        except ValueError:
            return Proposal("scroll", {}, malformed=f"{name}: delta_x and delta_y must be numbers")
        return Proposal("scroll", {**out, "scroll_x": dx, "scroll_y": dy})
    direction = (args.get("direction") or "down").strip().lower()
    if direction not in ("up", "down", "left", "right"):
        return Proposal("scroll", {}, malformed=f"scroll direction must be up/down/left/right, got {direction!r}")
    return Proposal("scroll", {**out, "direction": direction})


def uitars_call(name: str, args: dict[str, str]) -> Proposal:
    """One UI-TARS action with its raw keyword arguments as a proposal in our schema."""
    kind = _UITARS_NAMES[name]
    if kind in ("click", "right_click", "mouse_move", "click_hold", "scroll", "drag"):
        raw = _first(args, _POINT_KEYS)
        start = _box_point(raw) if raw else None
        if start is None and (raw is not None or kind != "scroll"):
            # A scroll may omit its point (the agent scrolls at the centre); others may not.
            return Proposal(kind, {}, malformed=f"{name} needs a point, got {raw!r}")
        out: dict[str, Any] = {"x": start[0], "y": start[1]} if start else {}
        if kind == "drag":
            end_raw = _first(args, _END_KEYS)
            end = _box_point(end_raw) if end_raw else None
            if end is None:
                return Proposal(kind, {}, malformed=f"{name} needs an end point, got {end_raw!r}")
            out.update(to_x=end[0], to_y=end[1])
        if kind == "scroll":
            return _scroll(name, args, out)
        if kind in ("click", "click_hold", "drag") and args.get("button"):
            out["button"] = args["button"]
        if kind == "click_hold" and args.get("duration"):
            out["duration"] = args["duration"]
        return Proposal(kind, out)
    if kind == "press_keys":
        raw = _first(args, ("key", "hotkey", "keys", "_0")) or args.get("key", args.get("_0"))
        if not raw:
            return Proposal(kind, {}, malformed=f"{name} needs key=…")
        # UI-TARS separates a combination with spaces ('ctrl c'); a lone space is the Space key.
        keys = key_list(raw, "+ ") if raw.strip() else [" "]
        pressed, kargs = key_args(keys)
        return Proposal(pressed, kargs)
    if kind == "type":
        return Proposal("type", {"text": _first(args, ("content", "text", "_0"))})
    if kind == "wait":
        return Proposal("wait", {})
    return Proposal(kind, dict(args))  # finished, call_user, keyup: recognizable, outside our space
