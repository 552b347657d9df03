"""Bounds on untrusted model output: bounded JSON decoding, finite numbers, bounded text (pure)."""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

# Argument JSON longer than this is not a plausible action; it is refused before decoding.
MAX_ARGS_CHARS = 64_000
# Arguments nest a level or two; anything deeper is refused (and never reaches a recursive decoder).
MAX_DEPTH = 16
MAX_ITEMS = 2_000  # containers and values in one call's arguments, counted together
MAX_TEXT_CHARS = 2_000  # one string value (typed text, a key name, a cell id)
MAX_NAME_CHARS = 128  # a tool / action / control name
MAX_INT_BITS = 64  # integers beyond int64 are not coordinates, durations or counts
# A coordinate or distance this far from the origin is garbage, whatever the viewport.
MAX_MAGNITUDE = 1e6
MAX_SHOWN = 80  # how much of a hostile value a reason quotes

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class OutOfBounds(ValueError):
    """A value from a model is outside what an action may contain."""


def shown(value: Any) -> str:
    """A short repr of a hostile value for a reason (never the whole of it)."""
    try:
        text = repr(value) if not isinstance(value, int) or value.bit_length() <= MAX_INT_BITS else "<huge int>"
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, strings ignored (linear, no recursion)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(_STEP[c] for c in brackets), default=0)


def loads_arguments(text: str) -> Any:
    """Decode argument JSON with size and depth limits; OutOfBounds or ValueError when it cannot."""
    if len(text) > MAX_ARGS_CHARS:
        raise OutOfBounds(f"arguments are {len(text)} characters long (at most {MAX_ARGS_CHARS})")
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise OutOfBounds(f"arguments nest {depth} levels deep (at most {MAX_DEPTH})")
    return json.loads(text)


def check_value(value: Any) -> None:
    """Raise OutOfBounds when decoded arguments are too deep, too many, or hold an absurd value."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > MAX_ITEMS:
            raise OutOfBounds(f"arguments hold more than {MAX_ITEMS} values")
        if depth > MAX_DEPTH:
            raise OutOfBounds(f"arguments nest more than {MAX_DEPTH} levels deep")
        if isinstance(node, dict):
            for k, v in node.items():
                if not isinstance(k, str) or len(k) > MAX_NAME_CHARS:
                    raise OutOfBounds(f"argument name {shown(k)} is not a short string")
                stack.append((v, depth + 1))
        elif isinstance(node, (list, tuple)):
            stack.extend((v, depth + 1) for v in node)
        elif isinstance(node, str):
            if len(node) > MAX_TEXT_CHARS:
                raise OutOfBounds(f"a string argument is {len(node)} characters long (at most {MAX_TEXT_CHARS})")
        elif isinstance(node, bool) or node is None:
            continue
        elif isinstance(node, int):
            if node.bit_length() > MAX_INT_BITS:
                raise OutOfBounds("an integer argument is beyond 64 bits")
        elif isinstance(node, float):
            continue  # non-finite numbers are refused where a number is read, naming the argument
        else:
            raise OutOfBounds(f"an argument of type {type(node).__name__} is not a JSON value")


def check_name(name: Any) -> None:
    """A call's name is a short string (or absent)."""
    if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME_CHARS):
        raise OutOfBounds(f"name {shown(name)} is not a string of at most {MAX_NAME_CHARS} characters")


def finite_number(value: Any, what: str, limit: float = MAX_MAGNITUDE) -> float:
    """A finite number no further than ``limit`` from 0, from a number or a short numeric string."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise OutOfBounds(f"{what} is not a number: {shown(value)}")
    if isinstance(value, str):
        if len(value) > 64:
            raise OutOfBounds(f"{what} is not a number: {shown(value)}")
        try:
            value = float(value)
        except ValueError:
            raise OutOfBounds(f"{what} is not a number: {shown(value)}") from None
    elif isinstance(value, int):
        if value.bit_length() > MAX_INT_BITS:
            raise OutOfBounds(f"{what} is out of range: {shown(value)}")
        value = float(value)
    if not math.isfinite(value):
        raise OutOfBounds(f"{what} is not a finite number: {value!r}")
    if abs(value) > limit:
        raise OutOfBounds(f"{what} is out of range: {shown(value)} (at most {limit:g} from 0)")
    return float(value)
