"""A session's trajectories (runs/…/attempt-N/steps.jsonl) checked as evidence: a scored run's trajectory must be
whole (readable lines, every step, its end line), and an attempt no record names tells how far its run got."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from .jsonl import read_lines
from .run_events import END, START, STEP
from .run_record import ERROR, OK, RunKey, RunRecord

STEPS = "steps.jsonl"
DAMAGED_TRAJECTORY = "trajectory_damaged"  # the stop_reason of a scored record read back as unscored


def trajectory_problem(session_dir: Path, rec: RunRecord) -> str | None:
    """Why a scored record's trajectory is not the evidence of its score (one line, `file:line: why`), or None."""
    rel = rec.trajectory
    if not rel:
        return None  # an older record that names none: nothing to check
    path = session_dir / rel
    if not path.is_file():
        return f"{path}: no such file"
    lines = read_lines(path)
    if lines.damaged:
        return str(lines.damaged[0])
    if not lines.records:
        return f"{path}: empty"
    steps = sum(r.get("event") == STEP for r in lines.records)
    last = lines.records[-1]
    if last.get("event") != END:
        return f"{path}: ends after {steps} step line(s) without its end line (cut short)"
    if last.get("status") != OK:
        return f"{path}: its end line says {last.get('status')!r}, the record says {OK!r}"
    if steps != rec.steps:
        return f"{path}: holds {steps} step line(s), the record says {rec.steps}"
    return None


def unscore_damaged(session_dir: Path, records: Iterable[RunRecord]) -> list[RunRecord]:
    """The records, each scored one whose trajectory is damaged read back as a fault naming the damage: it is
    not scored, so it is listed missing and --lf or --gw-resume plays it again (the file itself is left as is)."""
    out = []
    for rec in records:
        problem = trajectory_problem(session_dir, rec) if rec.scored else None
        if problem:
            rec = replace(rec, status=ERROR, stop_reason=DAMAGED_TRAJECTORY, error=f"trajectory damaged: {problem}")
        out.append(rec)
    return out


@dataclass(frozen=True)
class Unrecorded:
    """An attempt folder whose trajectory no record names: how far its run got."""

    path: Path  # its steps.jsonl
    steps: int

    def played(self, session_dir: Path) -> str:
        return f"{self.path.relative_to(session_dir)} holds what was played"


def unrecorded_attempts(session_dir: Path, records: Iterable[RunRecord]) -> dict[RunKey, Unrecorded]:
    """Run identity → its latest attempt with a trajectory that no record names: a run whose process was killed
    while it played (a crashed xdist worker, kill -9) writes no record, but its steps.jsonl shows it started."""
    named = {(session_dir / r.trajectory).resolve() for r in records if r.trajectory}
    found: dict[RunKey, tuple[int, Unrecorded]] = {}
    for path in (session_dir / "runs").glob(f"**/attempt-*/{STEPS}"):
        if path.resolve() in named:
            continue
        lines = read_lines(path, prefix=True)
        start = lines.records[0] if lines.records else None
        if not start or start.get("event") != START:
            continue
        try:
            key = RunKey.of(start)
            number = int(path.parent.name.split("-")[1])
        except (KeyError, TypeError, ValueError, IndexError):
            continue
        steps = sum(r.get("event") == STEP for r in lines.records)
        if key not in found or number > found[key][0]:
            found[key] = (number, Unrecorded(path, steps))
    return {k: a for k, (_, a) in found.items()}


def partial_attempts(session_dir: Path, records: Iterable[RunRecord]) -> dict[RunKey, str]:
    """Run identity → how far its run got, for runs whose latest attempt no record names (unrecorded_attempts)."""
    return {k: f"interrupted after {a.steps} step(s) (no record: the process playing it stopped; "
               f"{a.played(session_dir)})" for k, a in unrecorded_attempts(session_dir, list(records)).items()}
