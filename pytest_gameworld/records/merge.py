"""`gameworld merge`: shard sessions into one session folder, refusing runs that cannot be compared."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..catalog.specs import STANDARD_OBS
from .jsonl import dumps
from .run_record import ERROR, RECORD_FIELDS, RunKey, RunRecord, read_results
from .sessions import PLAN, new_attempt_dir, read_plan
from .shards import deal, plan_id, run_order
from .trajectories import partial_attempts, trajectory_problem

# Options every merged session must share; a difference makes the runs incomparable.
SHARED = ("seed", "protocol", "obs", "max_steps", "catalog_version")
UNRECORDED = {"obs": STANDARD_OBS}  # what an older plan or record without the option played
GAP_BLANKS = {"game": "", "genre": "", "level": 0, "interface": "", "role": "", "started_at": ""}


@dataclass
class Source:
    """One session folder to merge: its plan (None for a session played without one) and its records."""

    path: Path
    plan: dict[str, Any] | None
    records: list[RunRecord]
    # Runs whose attempt folder holds a trajectory but no record names it (a process stopped mid-run): how far.
    partial: dict[Any, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.path.name

    @classmethod
    def load(cls, path: Path) -> Source:
        if not (path / "results.jsonl").is_file():
            raise ValueError(f"{path}: not a session folder (no results.jsonl)")
        lines = read_results(path / "results.jsonl")
        if lines.damaged:  # a merged session must hold every record: refuse rather than drop one
            more = f" (and {len(lines.damaged) - 1} more damaged line(s))" if len(lines.damaged) > 1 else ""
            raise ValueError(f"{lines.damaged[0]}{more}; repair or remove it before merging")
        # A scored run whose trajectory is damaged is unscored by every judge of the session (report, gate,
        # --gw-resume): merged as scored, the merge would count it where the report does not.
        damaged = [(r.item, p) for r in lines.records if r.scored
                   and (p := trajectory_problem(path, r)) is not None]
        if damaged:
            more = f" (and {len(damaged) - 1} more damaged trajectory(ies))" if len(damaged) > 1 else ""
            raise ValueError(f"{damaged[0][0]}: trajectory damaged: {damaged[0][1]}{more}; replay the run "
                             "(--gw-resume) or remove its record before merging")
        return cls(path, read_plan(path), lines.records, partial_attempts(path, lines.records))


@dataclass
class Merged:
    """What merging gives: every record once per attempt, the gaps as error records, and what was noticed."""

    records: list[RunRecord] = field(default_factory=list)
    plan: dict[str, Any] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _options(src: Source) -> dict[str, Any]:
    """The shared options of a session: from its plan, else what its records say."""
    if src.plan:
        return {k: src.plan["options"].get(k, UNRECORDED.get(k)) for k in SHARED}
    out: dict[str, Any] = {}
    for key in ("catalog_version", "protocol", "obs"):
        values = {getattr(r, key) or UNRECORDED.get(key) for r in src.records}
        out[key] = values.pop() if len(values) == 1 else None
    return out


def refusal(sources: list[Source]) -> str | None:
    """Why these sessions cannot be merged (one line), or None."""
    if not sources:
        return "nothing to merge: name two or more session folders"
    first = _options(sources[0])
    for src in sources[1:]:
        other = _options(src)
        for key in SHARED:
            if key in first and key in other and first[key] != other[key]:
                return (f"{sources[0].name} and {src.name} differ in {key} ({first[key]!r} vs {other[key]!r}): "
                        "their runs cannot be compared; merge only shards of one session")
    plans = {s.plan["plan"] for s in sources if s.plan}
    shards = {s.plan["shard"][1] for s in sources if s.plan and s.plan.get("shard")}
    if len(shards) > 1:
        return f"the sessions split their runs into different shard counts ({sorted(shards)}); merge one split"
    if shards and len(plans) > 1:
        return "the shards were cut from different selections (-k, -m, models or repeats differ); merge one split"
    return None


def _shards_of(plan: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each run of the plan's split → the shard (k, n) that plays it."""
    n = plan["shard"][1]
    return {r["item"]: (k, n) for k in range(1, n + 1) for r in deal(plan["runs"], k, n)}


def merge(sources: list[Source]) -> Merged:
    """Combine the sessions' records (in the order given) and list duplicates and gaps (pure)."""
    out = Merged()
    where: dict[Any, list[str]] = {}
    for src in sources:
        for rec in src.records:
            out.records.append(rec)
            names = where.setdefault(rec.key, [])
            if src.name not in names:
                names.append(src.name)
    items = {r.key: r.item for r in out.records}
    out.duplicates = [f"{items[k]}: played in {', '.join(v)}" for k, v in where.items() if len(v) > 1]
    planned: dict[Any, tuple[dict[str, Any], dict[str, Any]]] = {}
    for src in sources:
        for run in (src.plan or {}).get("runs", []):
            planned.setdefault(RunKey.of(run), (run, src.plan or {}))
    seen_shards = {tuple(s.plan["shard"]) for s in sources if s.plan and s.plan.get("shard")}
    split = next((_shards_of(s.plan) for s in sources if s.plan and s.plan.get("shard")), {})
    for key, (run, plan) in sorted(planned.items(), key=lambda kv: run_order(kv[1][0])):
        if key in where:
            continue
        shard = split.get(run["item"])
        why = (f"gap: shard {shard[0]}/{shard[1]} was not merged" if shard and shard not in seen_shards
               else "gap: in no merged session's results")
        started = next((f"{src.name}: {src.partial[key]}" for src in sources if key in src.partial), None)
        if started is not None:  # its attempt folder is copied along (write_merged): the steps are not lost
            why += f"; {started}"
        out.gaps.append(f"{run['item']}: {why}")
        # The gap's record: the planned run's identity (plan.json guarantees only that), an error naming why;
        # the fields a plan need not hold are blank (no role or start: it was never played).
        out.records.append(RunRecord.from_json({
            **GAP_BLANKS, **{k: v for k, v in run.items() if k in RECORD_FIELDS},
            "status": ERROR, "error": why, "success": False, "progress": 0.0,
            "catalog_version": plan["options"].get("catalog_version", "")}))
    if seen_shards:
        n = next(iter(seen_shards))[1]
        absent = [f"{k}/{n}" for k in range(1, n + 1) if (k, n) not in seen_shards]
        if absent:
            out.notes.append(f"shard(s) {', '.join(absent)} not among the merged sessions")
    runs = [run for run, _ in planned.values()]
    first = next((s.plan for s in sources if s.plan), None)
    out.plan = {"plan": plan_id(runs) if runs else "", "shard": None,
                "options": dict(first["options"]) if first else {}, "runs": sorted(runs, key=run_order),
                "selected": [r["item"] for r in sorted(runs, key=run_order)],
                "merged_from": [s.name for s in sources]}
    return out


def write_merged(sources: list[Source], merged: Merged, out: Path) -> None:
    """Write the merged session folder: results.jsonl, plan.json and every run's trajectory folder."""
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out} exists and is not empty: merge into a new folder")
    out.mkdir(parents=True, exist_ok=True)
    moved: dict[int, str] = {}  # id(record) -> its trajectory in the merged folder
    for src in sources:
        for rec in src.records:
            traj = rec.trajectory
            if not traj:
                continue
            attempt = (src.path / traj).parent
            if not attempt.is_dir():
                continue
            dest = out / Path(traj).parent
            if dest.exists():  # the same run's attempt in two sessions: keep both, numbered on
                dest = new_attempt_dir(dest.parent)
            shutil.copytree(attempt, dest, dirs_exist_ok=True)
            moved[id(rec)] = (dest / Path(traj).name).relative_to(out).as_posix()
    for src in sources:  # attempts no record names (a process stopped mid-run) keep what was played
        named = {(src.path / r.trajectory).parent.resolve() for r in src.records if r.trajectory}
        for attempt in sorted((src.path / "runs").glob("**/attempt-*")):
            if attempt.is_dir() and attempt.resolve() not in named:
                dest = out / attempt.relative_to(src.path)
                dest = new_attempt_dir(dest.parent) if dest.exists() else dest
                shutil.copytree(attempt, dest, dirs_exist_ok=True)
    with (out / "results.jsonl").open("w") as fh:
        for rec in merged.records:  # merge() keeps the sources' record objects, so id() finds each copy
            line = rec.to_json()
            if id(rec) in moved:
                line["trajectory"] = moved[id(rec)]
            fh.write(dumps(line) + "\n")
    (out / PLAN).write_text(dumps(merged.plan) + "\n")
