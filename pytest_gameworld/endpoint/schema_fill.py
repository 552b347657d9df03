"""Random but schema-valid values for a tool's JSON schema (OpenAPI-style upper-case types too)."""

from __future__ import annotations

import random
import re
import string
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

_MAX_DEPTH = 8
_WORD = string.ascii_letters + string.digits + "_"
_CATEGORIES: dict[Any, str] = {
    sre_constants.CATEGORY_DIGIT: string.digits,
    sre_constants.CATEGORY_WORD: _WORD,
    sre_constants.CATEGORY_SPACE: " ",
    sre_constants.CATEGORY_NOT_DIGIT: string.ascii_letters,
    sre_constants.CATEGORY_NOT_WORD: "-.",
    sre_constants.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
}


def fill(schema: Any, rng: random.Random) -> Any:
    """A random value valid for ``schema``; unknown constructs fall back to a short string."""
    root = schema if isinstance(schema, dict) else {}
    return _fill(schema, rng, root, 0)


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` (``#/$defs/...``, ``#/definitions/...``)."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 16:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            return {}
        node: Any = root
        for part in ref[2:].split("/"):
            node = node.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(node, dict) else {}
        schema, seen = node, seen + 1
    return schema if isinstance(schema, dict) else {}


def _type_of(schema: dict[str, Any], rng: random.Random) -> str:
    """The JSON type to produce; lower-cases Gemini's OBJECT/STRING and prefers non-null."""
    declared = schema.get("type")
    if isinstance(declared, list):
        options = [str(t).lower() for t in declared if str(t).lower() != "null"] or ["null"]
        return rng.choice(options)
    if isinstance(declared, str) and declared:
        return declared.lower()
    if "properties" in schema or "required" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return "string"


def _fill(schema: Any, rng: random.Random, root: dict[str, Any], depth: int) -> Any:
    """Recursive worker for :func:`fill`."""
    if schema is True or not isinstance(schema, dict):
        return "x"
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return rng.choice(schema["enum"])
    for key in ("anyOf", "oneOf"):
        options = [o for o in schema.get(key) or [] if _resolve(o, root).get("type") != "null"]
        if options:
            merged = {k: v for k, v in schema.items() if k != key}
            merged.update(_resolve(rng.choice(options), root))
            return _fill(merged, rng, root, depth)
    if schema.get("allOf"):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            part = _resolve(part, root)
            merged.setdefault("properties", {}).update(part.get("properties", {}))
            merged["required"] = list(merged.get("required", [])) + list(part.get("required", []))
            merged.update({k: v for k, v in part.items() if k not in ("properties", "required")})
        return _fill(merged, rng, root, depth)
    kind = _type_of(schema, rng)
    if kind == "object":
        return _object(schema, rng, root, depth)
    if kind == "array":
        return _array(schema, rng, root, depth)
    if kind == "integer":
        return _integer(schema, rng)
    if kind == "number":
        return _number(schema, rng)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    return _string(schema, rng)


def _object(schema: dict[str, Any], rng: random.Random, root: dict[str, Any], depth: int) -> dict[str, Any]:
    """All required properties, plus each optional one with probability one half."""
    props: dict[str, Any] = schema.get("properties") or {}
    required = [str(r) for r in schema.get("required") or []]
    out: dict[str, Any] = {}
    if depth >= _MAX_DEPTH:
        return out
    for name, sub in props.items():
        if name in required or rng.random() < 0.5:
            out[name] = _fill(sub, rng, root, depth + 1)
    for name in required:
        if name not in out:
            out[name] = "x"
    return out


def _array(schema: dict[str, Any], rng: random.Random, root: dict[str, Any], depth: int) -> list[Any]:
    """Between minItems and min(maxItems, minItems + 3) items."""
    low = int(schema.get("minItems") or schema.get("min_items") or 0)
    high = int(schema.get("maxItems") or schema.get("max_items") or low + 3)
    if depth >= _MAX_DEPTH:
        return []
    items = schema.get("items") or {}
    count = rng.randint(low, max(low, min(high, low + 3)))
    if isinstance(items, list):  # tuple form
        return [_fill(s, rng, root, depth + 1) for s in items]
    values = [_fill(items, rng, root, depth + 1) for _ in range(count)]
    if schema.get("uniqueItems"):
        values = [v for i, v in enumerate(values) if v not in values[:i]]
    return values


def _bounds(schema: dict[str, Any], default_low: float, default_high: float) -> tuple[float, float, bool, bool]:
    """(low, high, low exclusive, high exclusive) from draft-4 and later keywords."""
    low, high = schema.get("minimum"), schema.get("maximum")
    low_x = high_x = False
    for key, is_low in (("exclusiveMinimum", True), ("exclusiveMaximum", False)):
        value = schema.get(key)
        if isinstance(value, bool):  # draft 4: a flag on minimum/maximum
            if is_low:
                low_x = value
            else:
                high_x = value
        elif isinstance(value, (int, float)):
            if is_low:
                low, low_x = value, True
            else:
                high, high_x = value, True
    if low is None and high is None:
        low, high = default_low, default_high
    elif low is None:
        low = float(high) - (default_high - default_low)  # type: ignore[arg-type]
    elif high is None:
        high = float(low) + (default_high - default_low)
    return float(low), float(high), low_x, high_x  # type: ignore[arg-type]


def _integer(schema: dict[str, Any], rng: random.Random) -> int:
    """An integer in range, honouring exclusive bounds and multipleOf."""
    low_f, high_f, low_x, high_x = _bounds(schema, 0, 10)
    low = int(low_f) + 1 if low_x and low_f == int(low_f) else -int(-low_f // 1)
    high = int(high_f) - 1 if high_x and high_f == int(high_f) else int(high_f // 1)
    if high < low:
        high = low
    step = schema.get("multipleOf")
    if isinstance(step, int) and step > 0:
        first = -(-low // step) * step
        choices = range(first, high + 1, step)
        return rng.choice(choices) if len(choices) else first
    return rng.randint(low, high)


def _number(schema: dict[str, Any], rng: random.Random) -> float:
    """A float in range, rounded to three decimals for readable logs."""
    low, high, _, _ = _bounds(schema, 0.0, 1.0)
    value = round(rng.uniform(low, high), 3)
    return min(max(value, low), high)


def _string(schema: dict[str, Any], rng: random.Random) -> str:
    """A string matching ``pattern`` when it is simple enough, else a length-bounded word."""
    low = int(schema.get("minLength") or schema.get("min_length") or 1)
    high = int(schema.get("maxLength") or schema.get("max_length") or max(low, 8))
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        sample = sample_pattern(pattern, rng)
        if sample is not None:
            return sample
    fmt = schema.get("format")
    if fmt == "date":
        return f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if fmt == "date-time":
        return f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T12:00:00Z"
    if fmt in ("uri", "url"):
        return "https://example.com/"
    length = rng.randint(low, max(low, min(high, low + 7)))
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(length))


def sample_pattern(pattern: str, rng: random.Random) -> str | None:
    """A random string fully matching ``pattern``, or None when the regex is too exotic."""
    try:
        parsed = sre_parse.parse(pattern)
        compiled = re.compile(pattern)
    except (re.error, RecursionError):
        return None
    # Unanchored patterns (JSON Schema's default) also match a longer string, but a
    # fullmatch-valid sample is accepted by either reading, so retry a few times.
    for _ in range(20):
        try:
            text = _emit(list(parsed), rng)
        except _Unsupported:
            return None
        if compiled.fullmatch(text):
            return text
    return None


class _Unsupported(Exception):
    """A regex construct the sampler does not generate (lookarounds, backrefs)."""


def _emit(items: list[tuple[Any, Any]], rng: random.Random) -> str:
    """Generate text for a parsed regex sequence."""
    out: list[str] = []
    for op, arg in items:
        if op is sre_constants.LITERAL:
            out.append(chr(arg))
        elif op is sre_constants.NOT_LITERAL:
            out.append(rng.choice([c for c in string.ascii_letters if ord(c) != arg]))
        elif op is sre_constants.ANY:
            out.append(rng.choice(string.ascii_letters))
        elif op is sre_constants.IN:
            out.append(_emit_in(arg, rng))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, getattr(sre_constants, "POSSESSIVE_REPEAT", None)):
            low, high, sub = arg
            upper = low + 3 if high == sre_constants.MAXREPEAT else min(high, low + 3)
            out.extend(_emit(list(sub), rng) for _ in range(rng.randint(low, upper)))
        elif op is sre_constants.SUBPATTERN:
            out.append(_emit(list(arg[-1]), rng))
        elif op is getattr(sre_constants, "ATOMIC_GROUP", None):
            out.append(_emit(list(arg), rng))
        elif op is sre_constants.BRANCH:
            out.append(_emit(list(rng.choice(arg[1])), rng))
        elif op is sre_constants.AT:
            continue
        else:
            raise _Unsupported(str(op))
    return "".join(out)


def _emit_in(arg: list[tuple[Any, Any]], rng: random.Random) -> str:
    """One character from a character class ``[...]``."""
    if arg and arg[0][0] is sre_constants.NEGATE:
        excluded = {chr(v) for op, v in arg[1:] if op is sre_constants.LITERAL}
        return rng.choice([c for c in string.ascii_letters + string.digits if c not in excluded])
    pool: list[str] = []
    for op, value in arg:
        if op is sre_constants.LITERAL:
            pool.append(chr(value))
        elif op is sre_constants.RANGE:
            pool.extend(chr(c) for c in range(value[0], value[1] + 1))
        elif op is sre_constants.CATEGORY:
            pool.extend(_CATEGORIES.get(value, string.ascii_letters))
    if not pool:
        raise _Unsupported("empty class")
    return rng.choice(pool)
