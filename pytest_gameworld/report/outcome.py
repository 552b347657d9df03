"""A session's outcome: each run once, the missing ones (planned runs never played included), and the gate's verdict."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..records.comparability import session_deviations
from ..records.jsonl import Damage
from ..records.run_record import NOT_PLAYED, MixedRunsError, RunKey, RunRecord, RunView, damaged_item, latest_attempts
from ..records.sessions import SessionFiles, load_results, unrecorded_runs
from .aggregate import ModelSummary, summarize
from .gate import GateConfig, Verdict, evaluate, parse_gate

# Why a run was held back (a not-played record's stop_reason), as the summary names it.
HELD_BACK = {"circuit_breaker": "circuit breaker", "max_cost": "--gw-max-cost reached"}
NEVER_STARTED = "never started"


def build_gate(exprs: Iterable[str], baseline: Path | None, max_drop: float | None, strict: bool,
               allow_missing: int) -> GateConfig:
    """The gate from option values, the baseline's runs loaded; ValueError (one line) on bad input."""
    cfg = GateConfig(exprs=[parse_gate(e) for e in exprs], max_drop=max_drop, strict=strict,
                     allow_missing=allow_missing)
    if baseline is not None:
        lines = load_results(baseline)
        if lines.damaged:  # a comparison on silently fewer runs would mislead
            raise ValueError(f"baseline {lines.damaged[0]}; repair or remove the line")
        cfg.baseline = latest_attempts(lines.records).scored
        cfg.baseline_source = str(baseline)
    elif max_drop is not None:
        raise ValueError("a maximum drop needs a baseline (--gw-baseline PATH: a previous session folder or its results.jsonl)")
    return cfg


@dataclass
class Outcome:
    """A session's complete picture: summaries, missing runs, a refusal line, and the gate's verdict."""

    summaries: dict[str, ModelSummary] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)  # damaged lines whose runs are recorded again (notes)
    problem: str | None = None
    verdict: Verdict | None = None
    runs: int = 0
    not_played: dict[str, list[str]] = field(default_factory=dict)  # why → planned runs never played
    view: RunView = field(default_factory=lambda: RunView([], []))  # each run once (empty when refused)
    deviations: list[str] = field(default_factory=list)  # how the session differs from the standard protocol
    plan_damage: str | None = None  # plan.json is damaged (its one line): planned runs not recorded are unknown

    def not_played_lines(self) -> list[str]:
        """`N planned run(s) not played (why)`, one line per reason."""
        return [f"{len(items)} planned run(s) not played ({why})" for why, items in self.not_played.items()]


def unrecorded_missing(records: Iterable[RunRecord], unrecorded: Iterable[str]) -> list[str]:
    """Missing-run lines for items that failed without writing a record."""
    seen = {r.item for r in records}
    return [f"{n}: did not run to the end" for n in unrecorded if n not in seen]


def damaged_runs(damaged: Iterable[Damage], accounted: Iterable[str]) -> tuple[list[str], list[str]]:
    """(missing lines, notes) for a results file's damaged lines, counted by the run each names. A line whose
    run is not accounted for (scored, or missing already) is that run, missing; a line that names a run
    accounted for, or names none at all (a line of NUL bytes, garbage), is damage only, a note: a run is
    counted missing only by its identity (the plan's runs never recorded are missing by theirs)."""
    known = set(accounted)
    missing, notes = [], []
    for d in damaged:
        item = damaged_item(d)
        if item is None:
            notes.append(f"{d} (no run can be told from what is left of it)")
        elif item in known:
            notes.append(f"{d} (record of {item} skipped); the run is recorded again")
        else:
            missing.append(f"{d} (record of {item} skipped)")
            known.add(item)
    return missing, notes


def not_played(view: RunView, plan: dict[str, Any] | None, records: list[RunRecord], failed: Iterable[str],
               unstarted: str = NEVER_STARTED,
               partial: Mapping[RunKey, str] | None = None) -> tuple[dict[str, list[str]], list[str]]:
    """(why → items) of runs never played, and the missing lines of planned runs no record names; a run whose
    attempt folder shows it was playing (``partial``: run identity → what the folder holds) is labelled so."""
    groups: dict[str, list[str]] = {}
    for rec in view.unscored:
        if rec.status == NOT_PLAYED:
            groups.setdefault(HELD_BACK.get(rec.stop_reason or "", "held back"), []).append(rec.item)
    failed = set(failed)
    lines = []
    for run in unrecorded_runs(plan, records):
        if run["item"] not in failed:  # a failed item without a record is listed as "did not run to the end"
            why = (partial or {}).get(RunKey.of(run), unstarted)
            groups.setdefault(why, []).append(run["item"])
            lines.append(f"{run['item']}: {why}" if why in (partial or {}).values() else
                         f"{run['item']}: not played ({why})")
    return groups, lines


def outcome(records: list[RunRecord], unrecorded: Iterable[str], gate: GateConfig,
            plan: dict[str, Any] | None = None, unstarted: str = NEVER_STARTED,
            damaged: Iterable[Damage] = (), plan_damage: str | None = None,
            partial: Mapping[RunKey, str] | None = None) -> Outcome:
    """Aggregate a session (each run once) and judge it against its plan: items that failed without a record
    and planned runs that were never played count as missing, and so does a damaged line of results.jsonl
    whose run is not recorded again (see damaged_runs). A damaged plan (``plan_damage``, its one line) leaves
    the planned runs uncountable: the gate fails on it. ``partial``: see not_played."""
    out = Outcome()
    unrecorded, damaged = list(unrecorded), list(damaged)
    extra = unrecorded_missing(records, unrecorded)
    try:
        view = latest_attempts(records)
        out.summaries = summarize(view)
    except MixedRunsError as exc:
        out.problem = str(exc)
        view = RunView([], [])
    out.view = view
    lost, out.damaged = damaged_runs(damaged, [r.item for r in records] + unrecorded)
    # A planned run whose only record is a damaged line is missing once, as damaged, not also as never started.
    damaged_items = [i for i in map(damaged_item, damaged) if i]
    out.not_played, never = not_played(view, plan, records, unrecorded + damaged_items, unstarted, partial)
    out.missing = view.missing + extra + never + lost
    out.runs = len(view.scored)
    out.deviations = session_deviations(plan, records)
    if gate.active:
        out.verdict = evaluate(gate, view.scored, out.missing)
        for problem in (out.problem, plan_damage and f"{plan_damage}: the planned runs cannot be counted"):
            if problem:
                out.verdict.ok = False
                out.verdict.failures.insert(0, problem)
    out.plan_damage = plan_damage
    return out


def session_outcome(files: SessionFiles, unrecorded: Iterable[str], gate: GateConfig,
                    unstarted: str = NEVER_STARTED) -> Outcome:
    """outcome() over what a session folder holds (records/sessions.py read_session_files)."""
    return outcome(files.lines.records, unrecorded, gate, files.plan, unstarted, files.lines.damaged,
                   files.plan_damage, files.partial)
