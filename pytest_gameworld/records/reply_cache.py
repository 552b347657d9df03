"""The reply cache's folder (``--gw-cache``): one file per stored provider reply, written atomically, read back
checked, bounded in size (pure: no SDK, no browser, no pytest).

An entry is one line of JSON named for its key (``<results>/.cache/replies/<k[:2]>/<key>.json``). It is written
to a temporary file in the same folder and renamed into place, so a reader (another run in flight, another
xdist worker) sees either no entry or a whole one, never a part. Two writers of one key both write a whole
entry and the last rename wins: both hold the same reply for the same request, so either is right.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

CACHE_DIR = ".cache"  # beside the session folders in the results folder
ENTRIES = "replies"
FORMAT = 1
MODES = ("off", "on", "read-only")
DEFAULT_MAX_MB = 500.0
# How many stores one process makes between two checks of the folder's size (a check lists every entry).
CHECK_EVERY = 64
# Eviction leaves the folder at this share of its bound, so the next check does not evict again at once.
EVICT_TO = 0.9
_TMP_PREFIX = ".tmp-"
_STALE_TMP_S = 3600.0  # a temporary file this old was left by a writer that died: removed by eviction
REQUIRED = {"format": int, "key": str, "model": str, "response_type": str, "response": str, "usage": dict,
            "latency_ms": int}


def cache_folder(results: Path) -> Path:
    return results / CACHE_DIR


@dataclass
class Entry:
    """One stored reply: what it answered (for listing), the response as the SDK's JSON, what it cost then."""

    key: str
    model: str  # the spec's name
    provider: str
    api: str
    response_type: str  # "module:QualName" of the SDK's response class
    response: str  # the response as its SDK serialized it (JSON text)
    usage: dict[str, int]  # the original call's tokens (input, output, cached)
    latency_ms: int  # how long the original call took (replayed as the latency under --gw-rt)
    created: str = ""
    format: int = FORMAT

    def to_line(self) -> str:
        return json.dumps(self.__dict__, allow_nan=False, sort_keys=True) + "\n"


class Damaged(ValueError):
    """An entry file that cannot be used; the message is one line, ``file:line: why``."""


def parse_entry(path: Path, text: str, key: str | None = None) -> Entry:
    """An entry file's text checked field by field; Damaged naming ``path:line`` when it is not a whole entry
    (cut short, not JSON, a field missing or of the wrong type, another key's reply)."""
    if not text.endswith("\n"):
        raise Damaged(f"{path}:{text.count(chr(10)) + 1}: cut short (no end of line)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Damaged(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise Damaged(f"{path}:1: not a cache entry: a JSON {type(data).__name__}")
    for name, kind in REQUIRED.items():
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise Damaged(f"{path}:1: not a cache entry: field {name!r} missing or not a {kind.__name__}")
    if data["format"] != FORMAT:
        raise Damaged(f"{path}:1: cache entry format {data['format']}, this version reads {FORMAT}")
    if key is not None and data["key"] != key:
        raise Damaged(f"{path}:1: holds the reply of another key ({data['key'][:12]}…)")
    usage = data["usage"]
    if not all(isinstance(usage.get(k), int) and usage[k] >= 0 for k in ("input_tokens", "output_tokens",
                                                                          "cached_tokens")):
        raise Damaged(f"{path}:1: not a cache entry: usage is not three token counts")
    known = {k: data[k] for k in Entry.__dataclass_fields__ if k in data}
    return Entry(**{"provider": "", "api": "", "created": "", **known})


@dataclass
class CacheFolder:
    """The folder of stored replies: look up, store, list, clear, and keep it under ``max_bytes``."""

    root: Path
    max_bytes: int = int(DEFAULT_MAX_MB * 1e6)
    _stores: int = field(default=0, repr=False)

    @property
    def entries_dir(self) -> Path:
        return self.root / ENTRIES

    def path(self, key: str) -> Path:
        return self.entries_dir / key[:2] / f"{key}.json"

    def load(self, key: str) -> Entry | None:
        """The entry stored for ``key``, None when there is none; Damaged when its file is unusable."""
        path = self.path(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise Damaged(f"{path}:1: unreadable: {exc}") from None
        entry = parse_entry(path, text, key)
        try:
            os.utime(path)  # used: the last to be evicted
        except OSError:
            pass
        return entry

    def store(self, entry: Entry) -> None:
        """Write an entry atomically (a temporary file renamed into place); now and then, evict to the bound."""
        path = self.path(entry.key)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry.created = entry.created or dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        fd, tmp = tempfile.mkstemp(prefix=_TMP_PREFIX, dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(entry.to_line())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._stores += 1
        if self._stores % CHECK_EVERY == 1:
            self.evict()

    def files(self) -> Iterator[Path]:
        if self.entries_dir.is_dir():
            yield from (p for p in self.entries_dir.glob("*/*.json") if not p.name.startswith(_TMP_PREFIX))

    def size(self) -> int:
        return sum(_size(p) for p in self.files())

    def evict(self) -> int:
        """Remove the least recently used entries until the folder is under its bound; how many were removed."""
        now = time.time()
        for tmp in self.entries_dir.glob(f"*/{_TMP_PREFIX}*") if self.entries_dir.is_dir() else []:
            if now - _mtime(tmp) > _STALE_TMP_S:
                tmp.unlink(missing_ok=True)
        sized = [(p, _size(p), _mtime(p)) for p in self.files()]
        total = sum(s for _, s, _ in sized)
        if total <= self.max_bytes:
            return 0
        removed = 0
        for p, s, _ in sorted(sized, key=lambda x: x[2]):
            if total <= self.max_bytes * EVICT_TO:
                break
            p.unlink(missing_ok=True)  # another process may have evicted it first
            total -= s
            removed += 1
        return removed

    def scan(self) -> tuple[list[Entry], list[str]]:
        """Every readable entry, and one line per damaged file (``file:line: why``)."""
        entries, damaged = [], []
        for p in sorted(self.files()):
            try:
                entries.append(parse_entry(p, p.read_text(encoding="utf-8"), p.stem))
            except Damaged as exc:
                damaged.append(str(exc))
            except (OSError, UnicodeDecodeError) as exc:
                damaged.append(f"{p}:1: unreadable: {exc}")
        return entries, damaged

    def clear(self, model: str | None = None) -> int:
        """Remove every entry (or those of one model spec, and damaged files with them); how many were removed."""
        removed = 0
        for p in list(self.files()):
            if model is not None:
                try:
                    if parse_entry(p, p.read_text(encoding="utf-8")).model != model:
                        continue
                except (Damaged, OSError, UnicodeDecodeError):
                    pass  # a damaged entry is no one's: cleared with any model
            p.unlink(missing_ok=True)
            removed += 1
        return removed


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0


def listing(folder: CacheFolder) -> list[str]:
    """``gameworld cache list``: the folder, its size against its bound, and per model spec its entries and the
    tokens they saved re-sending; damaged files named."""
    entries, damaged = folder.scan()
    size = folder.size()
    lines = [f"{folder.root}: {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}, "
             f"{size / 1e6:.1f} MB of {folder.max_bytes / 1e6:.0f} MB"]
    per: dict[str, list[Entry]] = {}
    for e in entries:
        per.setdefault(e.model, []).append(e)
    for model in sorted(per):
        es = per[model]
        tin = sum(e.usage["input_tokens"] for e in es)
        tout = sum(e.usage["output_tokens"] for e in es)
        last = max(e.created for e in es)
        lines.append(f"  {model} ({es[0].provider} {es[0].api}): {len(es)} repl{'y' if len(es) == 1 else 'ies'}, "
                     f"{tin:,} tokens in / {tout:,} out as first spent, last stored {last or '?'}")
    lines += [f"  damaged: {d}" for d in damaged]
    return lines
