"""The reply cache's folder (records/reply_cache.py): whole entries or none, damage named file:line, a size bound,
and several processes writing at once leave only whole entries."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from pytest_gameworld.records.reply_cache import CacheFolder, Damaged, Entry, listing


def entry(key: str, model: str = "m", size: int = 10) -> Entry:
    return Entry(key=key, model=model, provider="openai", api="chat", response_type="openai.types:X",
                 response="x" * size, usage={"input_tokens": 100, "output_tokens": 7, "cached_tokens": 0},
                 latency_ms=12)


def key(n: int) -> str:
    return f"{n:064x}"


def test_a_stored_entry_reads_back_whole(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path / ".cache")
    folder.store(entry(key(1)))
    got = folder.load(key(1))
    assert got is not None and got.response == "x" * 10 and got.usage["input_tokens"] == 100
    assert folder.load(key(2)) is None
    assert not [p for p in folder.entries_dir.rglob("*") if p.name.startswith(".tmp-")], "no temporary file left"


@pytest.mark.parametrize("damage, why", [
    (lambda t: t[:30], ":1: cut short (no end of line)"),
    (lambda t: "{not json\n", ":1: not JSON"),
    (lambda t: "[1, 2]\n", ":1: not a cache entry: a JSON list"),
    (lambda t: t.replace('"latency_ms": 12', '"latency_ms": "12"'), "field 'latency_ms' missing or not a int"),
    (lambda t: t.replace('"input_tokens": 100', '"input_tokens": -1'), "usage is not three token counts"),
    (lambda t: t.replace('"format": 1', '"format": 9'), "cache entry format 9"),
    (lambda t: t.replace(key(1), key(3)), "holds the reply of another key"),
])
def test_a_damaged_entry_is_one_line_naming_its_file(tmp_path: Path, damage, why: str) -> None:
    folder = CacheFolder(tmp_path / ".cache")
    folder.store(entry(key(1)))
    path = folder.path(key(1))
    path.write_text(damage(path.read_text()))
    with pytest.raises(Damaged) as caught:
        folder.load(key(1))
    line = str(caught.value)
    assert line.startswith(f"{path}:") and why in line and "\n" not in line
    entries, damaged = folder.scan()
    assert entries == [] and damaged == [line]
    assert any(f"damaged: {path}:" in x for x in listing(folder))


def test_the_folder_stays_under_its_bound_dropping_the_least_recently_used(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path / ".cache", max_bytes=2000)
    for n in range(6):
        folder.store(entry(key(n), size=300))  # ~ 520 bytes a file
        os.utime(folder.path(key(n)), (1000 + n, 1000 + n))
    os.utime(folder.path(key(0)), (5000, 5000))  # looked up last: kept
    assert folder.evict() > 0
    assert folder.size() <= 2000
    left = {p.stem for p in folder.files()}
    assert key(0) in left and key(1) not in left and key(5) in left


def test_clear_removes_one_models_entries_or_all(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path / ".cache")
    folder.store(entry(key(1), model="a"))
    folder.store(entry(key(2), model="b"))
    assert folder.clear("a") == 1 and {p.stem for p in folder.files()} == {key(2)}
    assert folder.clear() == 1 and list(folder.files()) == []


def _writer(root: str, worker: int, rounds: int) -> None:
    folder = CacheFolder(Path(root), max_bytes=10**9)
    for r in range(rounds):
        # Every worker writes the same shared keys (as xdist workers replaying one request) and its own.
        folder.store(entry(key(r % 5), size=20000 + worker))
        folder.store(entry(key(1000 * (worker + 1) + r), size=5000))


def test_concurrent_writers_leave_only_whole_entries(tmp_path: Path) -> None:
    root = tmp_path / ".cache"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(root), w, 40)) for w in range(4)]
    for p in procs:
        p.start()
    folder = CacheFolder(root)
    seen = 0
    deadline = time.monotonic() + 120  # bounded: the writers' own work takes a few seconds
    while any(p.is_alive() for p in procs) and time.monotonic() < deadline:
        for n in range(5):  # a reader in flight never sees part of an entry
            got = folder.load(key(n))
            seen += got is not None
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0, f"a writer did not finish within 120 s (exit code {p.exitcode})"
    entries, damaged = folder.scan()
    assert damaged == [] and len(entries) == 5 + 4 * 40
    assert all(json.loads(folder.path(e.key).read_text())["key"] == e.key for e in entries)
