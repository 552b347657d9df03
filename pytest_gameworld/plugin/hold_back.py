"""Runs the session decides not to start (cost limit, circuit breaker): written down as missing, never a plain skip."""

from __future__ import annotations

import pytest

from ..catalog.run_cases import Case
from ..records.circuit_breaker import tripped
from ..records.jsonl import append_jsonl
from ..records.run_record import RunRecord, read_results
from .options import Settings
from .run_engine import RunEngine
from .run_records import unplayed_record
from .stash import INVOCATION, SESSION_DIR, SETTINGS

NOT_PLAYED = "not played"  # the first words of a held-back item's failure


def hold_reason(records: list[RunRecord], model: str, settings: Settings, invocation: str,
                in_flight: float = 0.0) -> tuple[str, str] | None:
    """(kind, why) when a run of ``model`` must not start now, else None (pure). ``in_flight``: what the runs
    still playing in this process have spent (their records are not written yet)."""
    if settings.max_cost > 0:
        spent = sum(r.cost_usd or 0.0 for r in records) + in_flight
        if spent >= settings.max_cost:
            return "max_cost", f"--gw-max-cost reached: ${spent:.4f} of ${settings.max_cost:.4f} spent"
    stopped = tripped(records, model, settings.max_consecutive_faults, invocation)
    return ("circuit_breaker", stopped) if stopped else None


def decide(config: pytest.Config, case: Case, in_flight: float) -> tuple[str, str] | None:
    """Whether a run of ``case`` may start now, from the session's records and the spend in flight."""
    results = config.stash[SESSION_DIR] / "results.jsonl"
    return hold_reason(read_results(results).records, case.model.name, config.stash[SETTINGS],
                       config.stash.get(INVOCATION, ""), in_flight)


def check(item: pytest.Item, case: Case, engine: RunEngine | None) -> None:
    """Before the run's fixtures (no page is opened): hold it back with a record and a one-line failure. A run
    the engine started ahead was allowed then; one it held back is written down now."""
    config = item.config
    results = config.stash[SESSION_DIR] / "results.jsonl"
    if engine is not None and engine.started(item):
        return
    why = engine.held(item) if engine is not None else None
    why = why or decide(config, case, engine.in_flight_spend() if engine is not None else 0.0)
    if why is None:
        return
    record = unplayed_record(config, case)
    now = record.started_at
    record.hold(why[0], why[1], now)
    append_jsonl(results, record.to_json())
    pytest.fail(f"{NOT_PLAYED}: {why[1]}", pytrace=False)
