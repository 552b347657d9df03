"""The original harness's reading of a native computer-use action, shared by the Anthropic, OpenAI and Gemini
agents under ``parsing: original`` (pure).

Each provider names its actions and fields its own way; what the original then does with them is one set of
rules: a drag that ends within a pixel of where it starts is a hold, a scroll presses the arrow key of its
direction, a key combination is split into keys and spelt as the original records them, a pointer move starts
from the screen's centre. The helpers here return one contract: always a ``Proposal``; where the original finds
no action it is ``no_action(reason)`` (``refused``, with the reason). Whether that drops the one action (the
Anthropic and OpenAI harnesses skip it) or counts the reply as no tool call (Gemini's) is the caller's rule.
"""

from __future__ import annotations

import re
from typing import Any

from ...play.actions import Proposal
from .keys import key_args, original_spelling

# The arrow key the original harness presses for a scroll in each direction.
SCROLL_ARROWS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
# How the original splits a key combination given as one string: on '+' and white space ('ctrl+c', 'ctrl c').
KEY_SEPARATORS = r"[\s+]+"
# The largest distance, in pixels on each axis, at which a drag's end counts as its start (a hold).
SAME_POINT_PX = 1.0


def number(value: Any) -> float | None:
    """``value`` as a float, or None when it is not a number (the original's coercion, never raising)."""
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return None


def hold(value: Any) -> dict[str, float]:
    """``{"duration": seconds}`` for a positive hold, else ``{}`` (the role's default hold)."""
    seconds = number(value)
    return {"duration": seconds} if seconds is not None and seconds > 0 else {}


def no_action(reason: str, name: str | None = None) -> Proposal:
    """What the original finds no action in, with the reason (refused: it counts as no tool call) and the
    call's name where the record should keep it."""
    return Proposal(name or None, {}, malformed=reason, refused=True)


def pointer_move(x: Any, y: Any) -> Proposal:
    """A pointer move to (x, y), run from the screen's centre as the original moves the pointer."""
    return Proposal("mouse_move", {"x": x, "y": y, "from_centre": True})


def drag_or_hold(start: tuple[Any, Any], end: tuple[Any, Any], held: dict[str, float],
                 drag_extra: dict[str, float] | None = None) -> Proposal:
    """A drag from ``start`` to ``end``; a hold at ``start`` for ``held`` when the two are within a pixel.

    ``drag_extra`` is what the drag itself carries (its hold time where the provider's original passes one).
    A coordinate that is no number makes the two points different: the drag is judged downstream.
    """
    if _within_a_pixel(start, end):
        return Proposal("click_hold", {"x": start[0], "y": start[1], **held})
    return Proposal("drag", {"x": start[0], "y": start[1], "to_x": end[0], "to_y": end[1], **(drag_extra or {})})


def _within_a_pixel(start: tuple[Any, Any], end: tuple[Any, Any]) -> bool:
    sx, sy, ex, ey = (number(v) for v in (*start, *end))
    if sx is None or sy is None or ex is None or ey is None:
        return False
    return abs(sx - ex) <= SAME_POINT_PX and abs(sy - ey) <= SAME_POINT_PX


def scroll_key(direction: Any) -> Proposal:
    """The arrow key press the original makes of a scroll; an unknown direction scrolls down."""
    return Proposal("press_key", {"key": SCROLL_ARROWS.get(str(direction).lower(), "ArrowDown")})


def scroll_direction(dx: Any, dy: Any) -> str:
    """The direction of a scroll by (dx, dy): vertical first, down when it does not move (or is no number).

    The original counts whole pixels: a scroll of less than one pixel on an axis does not move on it."""
    x, y = number(dx) or 0.0, number(dy) or 0.0
    if abs(y) >= 1:  # False for NaN
        return "down" if y > 0 else "up"
    if abs(x) >= 1:
        return "right" if x > 0 else "left"
    return "down"


def split_keys(raw: Any, separators: str = KEY_SEPARATORS) -> list[str]:
    """The keys of a combination: a string split on ``separators`` (empty pieces dropped), a list's items as
    text, unsplit; anything else is no keys."""
    if isinstance(raw, str):
        return [k for k in re.split(separators, raw) if k]
    if isinstance(raw, (list, tuple)):
        return [str(k) for k in raw]
    return []


def key_press(keys: list[str], **extra: Any) -> Proposal:
    """Pressing ``keys`` together, spelt as the original records them (``left`` → ArrowLeft)."""
    name, args = key_args(original_spelling(keys), **extra)
    return Proposal(name, args)
