"""How many runs a process plays at once (--gw-concurrency), and which of the runs waiting to start go next."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

# What one more run in flight costs: a browser context with its game page (~80-90 MB of renderer measured by
# benchmarks/throughput.py), its trajectory writer and agent, with a margin.
PER_RUN_MB = 120
RESERVED_MB = 1024  # left to the rest of the machine
AUTO_CAP = 16  # auto never plays more than this many runs per process at once
K = TypeVar("K")


def available_mb(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """MemAvailable in MiB, or None where the system does not say (not Linux)."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def auto_concurrency(any_provider: bool, memory_mb: int | None, processes: int) -> int:
    """The default: 1 when every model is built in (they answer at once: more runs would only share the CPU),
    else as many as the memory left over the processes allows, at most AUTO_CAP and at least 1."""
    if not any_provider:
        return 1
    if memory_mb is None:
        return 4
    fit = (memory_mb - RESERVED_MB) // (PER_RUN_MB * max(1, processes))
    return max(1, min(AUTO_CAP, fit))


def next_to_start(upcoming: Iterable[K], started: set[K], playable: set[K], in_flight: int, limit: int) -> list[K]:
    """The runs to start now: the first of ``upcoming`` (in the order the process will report them) that are
    playable ahead and not started yet, as many as free slots allow. Keeping to that order means the run pytest
    waits for next is always among the first started, so its report is never held up by runs behind it."""
    free = limit - in_flight
    out: list[K] = []
    for key in upcoming:
        if free <= 0:
            break
        if key in started or key not in playable:
            continue
        out.append(key)
        free -= 1
    return out
