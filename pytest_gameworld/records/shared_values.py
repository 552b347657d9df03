"""What repeats across a run's steps.jsonl lines (the system prompt, the tool schema, the request's settings, a
reply echoing them) written once: pure, both the writer's and the readers' side.

A value of a step's `request` or `reply` whose JSON is at least MIN_CHARS long and equals one an earlier line
held is written once as a line `{"event": "shared", "id": ID, "value": VALUE}` before the first line that
repeats it, and that line (and every later one) holds `{"$shared": ID}` in its place. The first occurrence stays
inline, so a line that repeats nothing reads as before. `resolve` puts the values back: every reader sees the
exact record that was played, and an older steps.jsonl (no shared lines) reads unchanged. An object of the
record that merely has a reference's shape (a model's tool arguments `{"$shared": ...}`) is written wrapped as
`{"$literal": ...}` and read back as it was, so no model output can be taken for a reference.
"""

from __future__ import annotations

import hashlib
from typing import Any

from .jsonl import dumps
from .run_events import STEP

SHARED_EVENT = "shared"
REF = "$shared"
LITERAL = "$literal"  # wraps an object of the record that looks like a reference (or like this wrapper)
MIN_CHARS = 256  # shorter values cost about as much as their reference
TURN_FIELDS = ("request", "reply")  # where steps repeat themselves; actions, verdicts and state stay inline


def _id(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class SharedValues:
    """The writer's side for one run: which large values were seen, and which were written as shared lines."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._written: set[str] = set()

    def line(self, record: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The shared lines to write first, and the record with repeated values as references (a new dict;
        the record itself is not changed). Only step lines' request and reply are looked at."""
        if record.get("event") != STEP:
            return [], record
        shared: list[dict[str, Any]] = []
        out = dict(record)
        if isinstance(record.get("roles"), dict):
            out["roles"] = {name: self._turn(t, shared) for name, t in record["roles"].items()}
        else:
            out = self._turn(out, shared)
        return shared, out

    def _turn(self, turn: Any, shared: list[dict[str, Any]]) -> Any:
        if not isinstance(turn, dict):
            return turn
        return {k: self._walk(v, shared) if k in TURN_FIELDS else v for k, v in turn.items()}

    def _walk(self, value: Any, shared: list[dict[str, Any]]) -> Any:
        if not isinstance(value, (dict, list, str)):
            return value
        if _looks_like_a_marker(value):
            return {LITERAL: value}
        text = dumps(value)
        if len(text) < MIN_CHARS:
            return _escaped(value)
        vid = _id(text)
        if vid in self._written:
            return {REF: vid}
        if vid in self._seen:  # its second occurrence: written once, referenced from here on
            self._written.add(vid)
            shared.append({"event": SHARED_EVENT, "id": vid, "value": value})
            return {REF: vid}
        self._seen.add(vid)
        if isinstance(value, dict):
            return {k: self._walk(v, shared) for k, v in value.items()}
        if isinstance(value, list):
            return [self._walk(v, shared) for v in value]
        return value


def _looks_like_a_marker(value: Any) -> bool:
    return isinstance(value, dict) and len(value) == 1 and (REF in value or LITERAL in value)


def _escaped(value: Any) -> Any:
    """The value with every object of a marker's shape wrapped as a literal (a value too short to share)."""
    if _looks_like_a_marker(value):
        return {LITERAL: value}
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    return value


def resolve(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines as they were played: shared lines taken out, each reference replaced by its value. A reference
    to no shared line above it (a model's text that merely looks like one) stays as it is."""
    table: dict[str, Any] = {}
    out = []
    for rec in records:
        if rec.get("event") == SHARED_EVENT and isinstance(rec.get("id"), str):
            table[rec["id"]] = rec.get("value")
        else:
            out.append(_put_back(rec, table))
    return out


def _put_back(value: Any, table: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        if len(value) == 1 and LITERAL in value:
            return value[LITERAL]  # as written: a model's object of a reference's shape
        if len(value) == 1 and isinstance(value.get(REF), str) and value[REF] in table:
            return table[value[REF]]
        return {k: _put_back(v, table) for k, v in value.items()}
    if isinstance(value, list):
        return [_put_back(v, table) for v in value]
    return value
