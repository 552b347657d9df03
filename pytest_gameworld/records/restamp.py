"""Re-stamping baselines: a task whose game files changed keeps its figures when it provably plays the same (pure).

A task's baselines carry the version of the files they were calibrated on (sessions.task_versions). When the
files change without changing play (a comment, a refactor onto the games' shell), the figures still hold, but
replaying the ladder to say so costs hours. A re-stamp takes two golden files (play/golden.py, written by
`gameworld golden`): FROM, recorded on the files the figures were made from (each line's version equals the
baselines' version of its task), and NOW, recorded on the current files (each line's version equals the
current version). A task is re-stamped, its figures untouched and its version set to the current one, only
when both goldens exist, neither failed, and their digests are equal; every other task is left as it was.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .baselines import Baselines
from .jsonl import strict_loads


class GoldenFileError(ValueError):
    """A golden file that cannot be read; the message is `file:line: why`."""


@dataclass(frozen=True)
class GoldenLine:
    """What a re-stamp reads of one golden line."""

    task: str
    version: str
    digest: str
    error: str
    where: str  # file:line, for the report


def read_goldens(path: Path) -> dict[str, GoldenLine]:
    """A golden file's lines by task; any damaged line is a GoldenFileError naming it (a re-stamp trusts no
    half-read file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GoldenFileError(f"{path}: cannot be read ({exc.__class__.__name__})") from None
    out: dict[str, GoldenLine] = {}
    for n, line in enumerate(text.splitlines(), 1):
        where = f"{path}:{n}"
        if not line.strip():
            continue
        try:
            data = strict_loads(line)
        except ValueError as exc:
            raise GoldenFileError(f"{where}: not JSON ({exc})") from None
        fields = ("task", "version", "digest", "error")
        if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in fields):
            raise GoldenFileError(f"{where}: expected an object with string fields {', '.join(fields)}")
        if data["task"] in out:
            raise GoldenFileError(f"{where}: task {data['task']} again (first at {out[data['task']].where})")
        out[data["task"]] = GoldenLine(data["task"], data["version"], data["digest"], data["error"], where)
    return out


@dataclass
class Restamp:
    """A re-stamp's outcome: the new baselines and, per task looked at, what was done and why."""

    baselines: Baselines
    restamped: list[str] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)  # task -> why it was left stale

    def lines(self) -> list[str]:
        out = [f"re-stamped {len(self.restamped)} task(s): {', '.join(self.restamped) or '-'}"]
        out += [f"left stale {t}: {why}" for t, why in sorted(self.kept.items())]
        return out


def restamp(b: Baselines, current: dict[str, str], was: dict[str, GoldenLine], now: dict[str, GoldenLine],
            catalog_version: str, selected: set[str] | None = None) -> Restamp:
    """Re-stamp the stale tasks (of `selected`, or all) whose FROM and NOW goldens prove the same play."""
    out = Restamp(b)
    tasks = dict(b.tasks)
    for task in b.stale(current):
        if selected is not None and task not in selected:
            continue
        tb, old, new = b.tasks[task], was.get(task), now.get(task)
        why = ("no longer in the catalog" if task not in current else
               "no FROM golden" if old is None else
               "no NOW golden" if new is None else
               f"the FROM golden ({old.where}) was recorded on version {old.version}, the figures on {tb.version}"
               if old.version != tb.version else
               f"the NOW golden ({new.where}) was recorded on version {new.version}, the files are {current[task]}"
               if new.version != current[task] else
               f"a golden failed: {old.error or new.error}" if old.error or new.error else
               f"the goldens differ ({old.digest} at {old.where}, {new.digest} at {new.where})"
               if old.digest != new.digest else None)
        if why is not None:
            out.kept[task] = why
            continue
        tasks[task] = replace(tb, version=current[task])
        out.restamped.append(task)
    if out.restamped:
        stamp: dict[str, Any] = {"command": "gameworld calibrate --restamp", "tasks": len(out.restamped),
                                 "from_catalog_version": b.catalog_version,
                                 "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
        made = {**b.made, "restamps": [*b.made.get("restamps", []), stamp]}
        out.baselines = Baselines(catalog_version, tasks, made)
    return out
