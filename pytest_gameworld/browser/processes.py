"""The processes behind a browser (Playwright's driver, Chromium and its helpers), read from /proc.

Used to kill a local browser that does not close within its bound, and to leave no process behind when a
session is interrupted. Without /proc (not Linux) every list is empty and nothing is killed.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable
from pathlib import Path

PROC = Path("/proc")
# The process groups of the browsers this process launched and has not closed yet (see launched()).
LAUNCHED: set[int] = set()


def _table() -> dict[int, tuple[int, int]]:
    """pid → (parent pid, process group) of every process we can see."""
    out: dict[int, tuple[int, int]] = {}
    for entry in PROC.glob("[0-9]*/stat") if PROC.is_dir() else []:
        try:
            text = entry.read_text()
        except OSError:
            continue  # it ended while we looked
        # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
        fields = text[text.rfind(")") + 2:].split()
        if len(fields) > 2:
            out[int(entry.parent.name)] = (int(fields[1]), int(fields[2]))
    return out


def descendants(pid: int) -> list[int]:
    """Every process below pid (children first), pid itself excluded."""
    children: dict[int, list[int]] = {}
    for child, (parent, _) in _table().items():
        children.setdefault(parent, []).append(child)
    found, todo = [], list(children.get(pid, []))
    while todo:
        p = todo.pop(0)
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def browser_groups(pid: int | None = None) -> set[int]:
    """The process groups led by processes below pid (default: this process).

    Playwright starts each browser detached, as the leader of its own group with every helper process
    (zygotes, renderers, GPU, network) in it: killing the group ends the whole browser, hung renderers too.
    """
    table = _table()
    below = descendants(os.getpid() if pid is None else pid)
    return {p for p in below if p in table and table[p][1] == p}


def kill_groups(groups: Iterable[int], sig: int = signal.SIGKILL) -> None:
    for group in groups:
        try:
            os.killpg(group, sig)
        except (ProcessLookupError, PermissionError):
            pass  # already gone, or not ours


def launched(before: set[int]) -> set[int]:
    """The browser groups that appeared since ``before`` (browser_groups() before a launch); remembered
    in LAUNCHED until closed, so kill_launched() can end them should this process be stopped."""
    new = browser_groups() - before
    LAUNCHED.update(new)
    return new


def kill_launched() -> None:
    """End every browser this process launched and did not close (at exit, after a signal)."""
    kill_groups(sorted(LAUNCHED))
    LAUNCHED.clear()
