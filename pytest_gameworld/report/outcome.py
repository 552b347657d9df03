"""A session's outcome: each run once, the missing ones, and the gate's verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .gate import GateConfig, Verdict, evaluate, parse_gate
from ..records.jsonl import Damage
from ..records.run_record import MixedRunsError, RunView, damaged_runs, latest_attempts
from ..records.sessions import load_results
from .aggregate import ModelSummary, summarize



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


def unrecorded_missing(records: Iterable[dict[str, Any]], unrecorded: Iterable[str]) -> list[str]:
    """Missing-run lines for items that failed without writing a record."""
    seen = {r["item"] for r in records}
    return [f"{n}: did not run to the end" for n in unrecorded if n not in seen]


def outcome(records: list[dict[str, Any]], unrecorded: Iterable[str], gate: GateConfig,
            damaged: Iterable[Damage] = ()) -> Outcome:
    """Aggregate a session (each run once) and judge it; items that failed without a record count as missing,
    and so does a damaged line of results.jsonl whose run is not recorded again (see damaged_runs)."""
    out = Outcome()
    unrecorded = list(unrecorded)
    extra = unrecorded_missing(records, unrecorded)
    try:
        view = latest_attempts(records)
        out.summaries = summarize(view)
    except MixedRunsError as exc:
        out.problem = str(exc)
        view = RunView([], [])
    lost, out.damaged = damaged_runs(damaged, [r["item"] for r in records] + unrecorded)
    out.missing = view.missing + extra + lost
    out.runs = len(view.scored)
    if gate.active:
        out.verdict = evaluate(gate, view.scored, out.missing)
        if out.problem:
            out.verdict.ok = False
            out.verdict.failures.insert(0, out.problem)
    return out
