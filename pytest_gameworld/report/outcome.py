"""A session's outcome: each run once, the missing ones (planned runs never played included), and the gate's verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .gate import GateConfig, Verdict, evaluate, parse_gate
from ..records.comparability import session_deviations
from ..records.jsonl import Damage
from ..records.run_record import NOT_PLAYED, MixedRunsError, RunView, damaged_item, damaged_runs, latest_attempts
from ..records.sessions import load_results, unrecorded_runs
from .aggregate import ModelSummary, summarize

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

    def not_played_lines(self) -> list[str]:
        """`N planned run(s) not played (why)`, one line per reason."""
        return [f"{len(items)} planned run(s) not played ({why})" for why, items in self.not_played.items()]


def unrecorded_missing(records: Iterable[dict[str, Any]], unrecorded: Iterable[str]) -> list[str]:
    """Missing-run lines for items that failed without writing a record."""
    seen = {r["item"] for r in records}
    return [f"{n}: did not run to the end" for n in unrecorded if n not in seen]


def not_played(view: RunView, plan: dict[str, Any] | None, records: list[dict[str, Any]], failed: Iterable[str],
               unstarted: str = NEVER_STARTED) -> tuple[dict[str, list[str]], list[str]]:
    """(why → items) of runs never played, and the missing lines of planned runs no record names."""
    groups: dict[str, list[str]] = {}
    for rec in view.unscored:
        if rec.get("status") == NOT_PLAYED:
            groups.setdefault(HELD_BACK.get(rec.get("stop_reason") or "", "held back"), []).append(rec["item"])
    failed = set(failed)
    lines = []
    for run in unrecorded_runs(plan, records):
        if run["item"] not in failed:  # a failed item without a record is listed as "did not run to the end"
            groups.setdefault(unstarted, []).append(run["item"])
            lines.append(f"{run['item']}: not played ({unstarted})")
    return groups, lines


def outcome(records: list[dict[str, Any]], unrecorded: Iterable[str], gate: GateConfig,
            plan: dict[str, Any] | None = None, unstarted: str = NEVER_STARTED,
            damaged: Iterable[Damage] = ()) -> Outcome:
    """Aggregate a session (each run once) and judge it against its plan: items that failed without a record
    and planned runs that were never played count as missing, and so does a damaged line of results.jsonl
    whose run is not recorded again (see damaged_runs)."""
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
    lost, out.damaged = damaged_runs(damaged, [r["item"] for r in records] + unrecorded)
    # A planned run whose only record is a damaged line is missing once, as damaged, not also as never started.
    damaged_items = [i for i in map(damaged_item, damaged) if i]
    out.not_played, never = not_played(view, plan, records, unrecorded + damaged_items, unstarted)
    out.missing = view.missing + extra + never + lost
    out.runs = len(view.scored)
    out.deviations = session_deviations(plan, records)
    if gate.active:
        out.verdict = evaluate(gate, view.scored, out.missing)
        if out.problem:
            out.verdict.ok = False
            out.verdict.failures.insert(0, out.problem)
    return out
