"""JSONL records on disk: strict JSON out (any strict reader parses it), whole lines under file locks."""

from __future__ import annotations

import errno as errnos
import fcntl
import json
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .redact import active, redact

HEAD_BYTES = 300  # of a damaged line, kept to tell whose it was
# Records nest a handful of levels; a hostile reply nested deeper is cut here, not in the encoder.
MAX_DEPTH = 64
_MAX_INT_BITS = 10_000  # str() of a bigger int raises (Python's digit limit)


def jsonable(value: Any, depth: int = 0) -> Any:
    """A copy with non-finite floats as strings ("NaN", "Infinity"), deep nesting cut, unknowns as str,
    and known secrets masked (records/redact.py)."""
    if isinstance(value, str):
        return redact(value) if active() else value
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else ("NaN" if math.isnan(value) else
                                                   ("Infinity" if value > 0 else "-Infinity"))
    if isinstance(value, int):
        return value if value.bit_length() <= _MAX_INT_BITS else f"<int of {value.bit_length()} bits>"
    if depth >= MAX_DEPTH:
        return f"<nested deeper than {MAX_DEPTH} levels>"
    if isinstance(value, dict):
        return {str(jsonable(k, depth + 1)): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    return jsonable(str(value))


def dumps(value: Any) -> str:
    """One strict JSON document (no NaN/Infinity literals), on one line."""
    return json.dumps(jsonable(value), allow_nan=False)


def strict_loads(text: str) -> Any:
    """Parse like a strict reader: NaN/Infinity literals are an error."""

    def refuse(name: str) -> Any:
        raise ValueError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


class RecordWriteError(OSError):
    """A file of the session could not be written (disk full, folder unwritable): what was written before stays
    readable, and the session stops at the first one (plugin/hooks.py). The message is one line: path and errno."""

    def __init__(self, path: Path | str, code: int, why: str) -> None:
        super().__init__(code, why, str(path))
        self.path = Path(path)

    @classmethod
    def of(cls, path: Path, exc: OSError) -> RecordWriteError:
        return cls(path, exc.errno or 0, exc.strerror or str(exc))

    def __reduce__(self) -> Any:  # pickled as it was made (OSError's own pickling would call __init__ otherwise)
        return (type(self), (str(self.path), self.errno, self.strerror))

    def __str__(self) -> str:
        name = errnos.errorcode.get(self.errno or 0, "")
        return f"cannot write {self.path}: [Errno {self.errno}{' ' + name if name else ''}] {self.strerror}"


def written(path: Path, write: Callable[[], Any]) -> Any:
    """What write() returns; an OSError it raises becomes a RecordWriteError naming path."""
    try:
        return write()
    except RecordWriteError:
        raise
    except OSError as exc:
        raise RecordWriteError.of(path, exc) from None


def write_file(path: Path, data: str | bytes) -> None:
    """Write a whole file through a temporary one beside it: a failed write (a RecordWriteError naming the
    file) leaves the file as it was, never cut short or empty."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")

    def write() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise

    written(path, write)


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    """Append one line under an exclusive lock, so xdist workers never interleave.

    A file whose last line was cut short (a writer killed mid-line) gets a newline first: the damage stays
    on its own line, where readers name it, and this record stays whole. A failed write is a RecordWriteError.
    """
    written(path, lambda: _append(path, (dumps(record) + "\n").encode()))


def _append(path: Path, line: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            end = fh.seek(0, os.SEEK_END)
            if end:
                fh.seek(end - 1)
                if fh.read(1) != b"\n":
                    line = b"\n" + line
            fh.write(line)  # "a" mode: written at the end wherever the read left the position
            fh.flush()
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


class DamagedLine(ValueError):
    """A line of a JSONL file that is not a readable record; the message is `file:line: why`."""


@dataclass(frozen=True)
class Damage:
    """A line that is not a readable record: where it is, why, and how it begins (to tell whose it was)."""

    path: Path
    line: int
    why: str
    head: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why}"


@dataclass
class Lines:
    """A JSONL file's readable records, and each line that was not readable."""

    records: list[dict[str, Any]] = field(default_factory=list)
    damaged: list[Damage] = field(default_factory=list)


def read_lines(path: Path, check: Callable[[str], str | None] | None = None, prefix: bool = False) -> Lines:
    """Every readable record of a JSONL file, read under a shared lock (so a line another worker is
    appending is never seen half-written); bad lines are skipped and named. ``check`` judges a line
    that is a JSON object (None: fine); ``prefix`` stops at the first bad line (a trajectory)."""
    out = Lines()
    if not path.exists():
        return out
    with path.open("rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
        try:
            data = fh.read()
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        record, why = _parse(raw, check)
        if record is not None:
            out.records.append(record)
            continue
        if number == len(lines):  # no newline after it: the writer stopped inside this line
            why += " (cut short: the file ends inside this line)"
        out.damaged.append(Damage(path, number, why, raw[:HEAD_BYTES].decode("utf-8", "replace")))
        if prefix:
            break
    return out


_JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean",
               type(None): "null"}


def _parse(raw: bytes, check: Callable[[str], str | None] | None) -> tuple[dict[str, Any] | None, str]:
    """(the record, "") or (None, why the line is not one)."""
    try:
        text = raw.decode("utf-8")
        value = strict_loads(text)
    except UnicodeDecodeError:
        return None, "not UTF-8 text"
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc.msg} (column {exc.colno})"
    except (ValueError, RecursionError) as exc:
        return None, f"not JSON: {str(exc)[:200] or type(exc).__name__}"
    if not isinstance(value, dict):
        return None, f"{_JSON_KINDS.get(type(value), 'a value')}, not a JSON object"
    why = check(text) if check is not None else None
    return (None, why) if why else (value, "")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every record of a file that must be whole; the first bad line raises DamagedLine (one line)."""
    lines = read_lines(path)
    if lines.damaged:
        raise DamagedLine(str(lines.damaged[0]))
    return lines.records


_DECODER = json.JSONDecoder()


def line_of(text: str, loc: Iterable[str | int]) -> int:
    """The line of a JSON document where the value at ``loc`` (keys and indexes) begins, or the innermost
    value of it that exists; a damaged field of a whole-file JSON is named by file:line with it."""
    pos = _skip(text, 0)
    try:
        for part in loc:
            pos = _child(text, pos, part)
    except (LookupError, ValueError):
        pass  # the deepest value found is where the damage shows
    return text.count("\n", 0, pos) + 1


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _child(text: str, pos: int, part: str | int) -> int:
    """Where the member ``part`` of the object or array beginning at pos begins; LookupError when absent."""
    opening = text[pos]
    pos = _skip(text, pos + 1)
    index = 0
    while pos < len(text) and text[pos] not in "]}":
        if opening == "{":
            key, pos = _DECODER.raw_decode(text, pos)
            pos = _skip(text, _skip(text, pos) + 1)  # past the colon
            hit = key == part
        else:
            hit = index == part
        if hit:
            return pos
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
        index += 1
    raise LookupError(part)
