"""JSONL records on disk: strict JSON out (any strict reader parses it), whole lines under file locks."""

from __future__ import annotations

import fcntl
import json
import math
from pathlib import Path
from typing import Any

# Records nest a handful of levels; a hostile reply nested deeper is cut here, not in the encoder.
MAX_DEPTH = 64
_MAX_INT_BITS = 10_000  # str() of a bigger int raises (Python's digit limit)


def jsonable(value: Any, depth: int = 0) -> Any:
    """A copy with non-finite floats as strings ("NaN", "Infinity"), deep nesting cut, unknowns as str."""
    if isinstance(value, str) or value is None or isinstance(value, bool):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else ("NaN" if math.isnan(value) else
                                                   ("Infinity" if value > 0 else "-Infinity"))
    if isinstance(value, int):
        return value if value.bit_length() <= _MAX_INT_BITS else f"<int of {value.bit_length()} bits>"
    if depth >= MAX_DEPTH:
        return f"<nested deeper than {MAX_DEPTH} levels>"
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(jsonable(k, depth + 1)): jsonable(v, depth + 1)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    return str(value)


def dumps(value: Any) -> str:
    """One strict JSON document (no NaN/Infinity literals), on one line."""
    return json.dumps(jsonable(value), allow_nan=False)


def strict_loads(text: str) -> Any:
    """Parse like a strict reader: NaN/Infinity literals are an error."""

    def refuse(name: str) -> Any:
        raise ValueError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    """Append one line under an exclusive lock, so xdist workers never interleave."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (dumps(record) + "\n").encode()
    with path.open("ab") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            fh.write(line)
            fh.flush()
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every record, read under a shared lock so a line another worker is appending is never seen half-written."""
    if not path.exists():
        return []
    with path.open("rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
        try:
            text = fh.read().decode("utf-8")
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
    return [json.loads(line) for line in text.splitlines() if line.strip()]

