"""Seed/UI-TARS as the original harness speaks to it: the GUI-agent system text around the game prompt,
and the action lines its parser takes (pure). docs/models.md compares both with the original's.

The line after the first ``Action:`` is read as one Python-style call with keyword arguments: click,
mouse_move, click_hold, drag, press_key, press_keys, type, scroll(delta_x, delta_y) and wait (or a JSON
object with an "action"). UI-TARS's own older verbs (hotkey, right_single, left_double, …), an unknown verb
or an unreadable line make the reply count as no tool call, as in the original.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from ...catalog.specs import Role
from ...play.actions import Proposal
from .original_actions import key_press
from .qwen_format import example_keys, mouse_call, refused, seconds

RETIRED_VERBS = frozenset({
    "left_single", "left_click", "right_single", "right_click", "left_click_hold", "left_hold", "mouse_down",
    "left_double", "double_click", "hotkey", "press", "keydown", "game_action", "drag_drop", "drag_and_drop",
    "finished",
})
MAX_ACTION_CHARS = 2000  # a longer "call" is not an action line; never handed to the parser
_POINT = re.compile(r"<point>\s*(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s*</point>")


def system_text(prompt: str, role: Role) -> str:
    """The GUI-agent frame (output format, action space) with the game prompt as its instruction."""
    keys = [k.lower() for k in example_keys(role, 2)]
    one = keys[0] if keys else "<key>"
    two = " ".join(keys) if len(keys) == 2 else "<key1> <key2>"
    return (
        "You play a game through its screen. You are given the task, your recent actions and screenshots; "
        "give the next action.\n\n"
        "## Output Format\n```\nThought: ...\nAction: ...\n```\n\n"
        "## Action Space\n\n"
        "click(point='<point>x1 y1</point>')  # a left click; add button='right' for a right click\n"
        "mouse_move(point='<point>x1 y1</point>')\n"
        "click_hold(point='<point>x1 y1</point>', duration='<seconds>')  # keep the left button down; "
        "leave out duration for the default hold\n"
        "drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')\n"
        f"press_key(key='{one}')\n"
        f"press_keys(keys='{two}')  # keys pressed together: separated by a space, lower case, three at most\n"
        "type(content='<text>')  # escape \\', \\\" and \\n inside content; end with \\n to submit\n"
        "scroll(delta_x='<dx>', delta_y='<dy>')  # pixels; a positive delta_y scrolls down, a negative one up\n"
        "wait()  # let the game run for a moment\n\n"
        "## Note\n"
        "- Write the Thought in English.\n"
        "- In the Thought, make a short plan, then say in one sentence what the next action does and to what.\n\n"
        f"## Instruction\n{prompt}\n")


def parse_original(text: str, normalized: bool) -> list[Proposal]:
    """The action in a Seed/UI-TARS reply as the original harness reads it (points clamped to the 0-1000
    grid when ``normalized``, else left in image pixels)."""
    body = (text or "").strip()
    segment = body.split("Action:", 1)[1].strip() if "Action:" in body else body
    if segment.startswith("{"):
        try:
            obj = json.loads(segment)
        except ValueError:
            return refused("the action is not valid JSON")
        if not isinstance(obj, dict):
            return refused("the action is not a JSON object")
        return _action(str(obj.get("action", "")).strip().lower(), obj, normalized, json_form=True)
    line = segment.split("\n", 1)[0].strip()
    try:
        verb, kwargs = _call(line)
    except _Unreadable as exc:
        return refused(f"cannot read the action {line[:80]!r}: {exc}")
    return _action(verb.lower(), kwargs, normalized)


class _Unreadable(ValueError):
    """The action line is not one call with keyword arguments."""


def _call(line: str) -> tuple[str, dict[str, Any]]:
    """``name(key='value', …)`` → (name, {key: value as text}); positional arguments are ignored."""
    if len(line) > MAX_ACTION_CHARS:
        raise _Unreadable("too long")
    if not line.endswith(")"):
        line += ")"
    try:
        node = ast.parse(line, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise _Unreadable(type(exc).__name__) from None
    if not isinstance(node, ast.Call):
        raise _Unreadable("not a call")
    if isinstance(node.func, ast.Name):
        name = node.func.id
    elif isinstance(node.func, ast.Attribute):
        name = node.func.attr
    else:
        raise _Unreadable("no function name")
    kwargs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            continue
        value = kw.value
        kwargs[kw.arg] = str(value.value) if isinstance(value, ast.Constant) else ast.get_source_segment(line, value)
    return name, kwargs


def point(value: Any, normalized: bool) -> tuple[float, float] | None:
    """``<point>x y</point>``, ``(x,y)`` or two numbers; clamped to the 0-1000 grid when ``normalized``."""
    text = str(value or "")
    found = _POINT.search(text)
    if found:
        raw = [found.group(1), found.group(2)]
    elif text.startswith("(") and text.endswith(")") and len(text[1:-1].split(",")) == 2:
        raw = text[1:-1].split(",")
    else:
        raw = re.split(r"[\s,]+", re.sub(r"[()\[\]]", " ", text).strip())
    try:
        x, y = float(raw[0]), float(raw[1])
    except (IndexError, ValueError, OverflowError):
        return None
    if x != x or y != y:
        return None
    if normalized:
        x, y = min(max(x, 0.0), 1000.0), min(max(y, 0.0), 1000.0)
    return x, y


def _action(verb: str, kw: dict[str, Any], normalized: bool, json_form: bool = False) -> list[Proposal]:
    if verb in RETIRED_VERBS:
        return refused(f"{verb!r} is not in the action space (the original harness refuses it)")
    if json_form:
        return _json_action(verb, kw)
    if verb in ("click", "click_hold", "mouse_move"):
        names = ("point", "target", "coordinate") if verb == "mouse_move" else ("point", "start_box")
        where = point(next((kw[k] for k in names if kw.get(k)), None), normalized)
        if where is None:
            return refused(f"{verb} needs a point")
        out: dict[str, Any] = {"x": where[0], "y": where[1]}
        return [mouse_call(verb, out, kw)]
    if verb == "drag":
        start = next((kw[k] for k in ("start_point", "start", "start_box", "point") if kw.get(k)), None)
        end = next((kw[k] for k in ("end_point", "end", "end_box") if kw.get(k)), None)
        a, b = point(start, normalized), point(end, normalized)
        if a is None or b is None:
            return refused("drag needs a start and an end point")
        return [Proposal("drag", {"x": a[0], "y": a[1], "to_x": b[0], "to_y": b[1]})]
    if verb in ("press_key", "press_keys"):
        raw = kw.get("key") if verb == "press_key" else (kw.get("keys") or kw.get("key"))
        keys = str(raw or "").split()
        return [key_press(keys)] if keys else refused(f"{verb} needs keys")
    if verb == "scroll":
        try:
            dx, dy = float(kw.get("delta_x", 0) or 0), float(kw.get("delta_y", 0) or 0)
        except ValueError:
            return refused("scroll needs numeric delta_x and delta_y")
        # Pixels as given (not grid units): the wheel turns by exactly this much, as in the original.
        return [Proposal("scroll", {"scroll_x": dx, "scroll_y": dy})]
    if verb == "type":
        text = kw.get("content") or kw.get("text") or ""
        return [Proposal("type", {"text": text})] if text else refused("type needs content")
    if verb == "wait":
        wait = seconds(kw.get("duration"))
        return [Proposal("wait", {} if wait is None else {"duration": wait})]
    return refused(f"unknown action {verb!r}")


def _json_action(verb: str, obj: dict[str, Any]) -> list[Proposal]:
    """The JSON form (``{"action": "click", "x": …, "y": …}``): numbers as given, no grid clamping."""
    if verb in ("click", "click_hold", "mouse_move"):
        try:
            out: dict[str, Any] = {"x": float(obj["x"]), "y": float(obj["y"])}
        except (KeyError, TypeError, ValueError):
            return refused(f"{verb} needs numeric x and y")
        return [mouse_call(verb, out, obj)]
    if verb in ("press_key", "press_keys"):
        raw = obj.get("key", "") if verb == "press_key" else obj.get("keys", obj.get("key", ""))
        keys = ([k.strip() for k in raw if isinstance(k, str) and k.strip()] if isinstance(raw, (list, tuple))
                else [k for k in re.split(r"[,+\s]+", raw.strip()) if k] if isinstance(raw, str) else None)
        return [key_press(keys)] if keys else refused(f"{verb} needs keys")
    if verb == "type":
        text = obj.get("text", obj.get("content", ""))
        return [Proposal("type", {"text": text})] if isinstance(text, str) and text else refused("type needs text")
    if verb == "scroll":
        try:
            dx, dy = float(obj.get("delta_x", 0) or 0), float(obj.get("delta_y", 0) or 0)
        except (TypeError, ValueError):
            return refused("scroll needs numeric delta_x and delta_y")
        return [Proposal("scroll", {"scroll_x": dx, "scroll_y": dy})]
    if verb == "wait":
        wait = seconds(obj.get("duration"))
        return [Proposal("wait", {} if wait is None else {"duration": wait})]
    return refused(f"unsupported JSON action {verb!r}")
