"""Runs the session decides not to start (cost limit, circuit breaker): written down as missing, never a plain skip."""

from __future__ import annotations

from typing import Any

import pytest

from ..catalog.run_cases import Case
from ..records.circuit_breaker import tripped
from ..records.jsonl import append_jsonl
from ..records.run_record import read_results
from .run_records import unplayed_record
from .options import Settings
from .stash import INVOCATION, SESSION_DIR, SETTINGS

NOT_PLAYED = "not played"  # the first words of a held-back item's failure


def hold_reason(records: list[dict[str, Any]], model: str, settings: Settings, invocation: str) -> tuple[str, str] | None:
    """(kind, why) when a run of ``model`` must not start now, else None (pure)."""
    if settings.max_cost > 0:
        spent = sum(float(r.get("cost_usd") or 0.0) for r in records)
        if spent >= settings.max_cost:
            return "max_cost", f"--gw-max-cost reached: ${spent:.4f} of ${settings.max_cost:.4f} spent"
    stopped = tripped(records, model, settings.max_consecutive_faults, invocation)
    return ("circuit_breaker", stopped) if stopped else None


def check(item: pytest.Item, case: Case) -> None:
    """Before the run's fixtures (no page is opened): hold it back with a record and a one-line failure."""
    config = item.config
    settings: Settings = config.stash[SETTINGS]
    results = config.stash[SESSION_DIR] / "results.jsonl"
    invocation = config.stash.get(INVOCATION, "")
    why = hold_reason(read_results(results).records, case.model.name, settings, invocation)
    if why is None:
        return
    record = unplayed_record(config, case)
    now = record.started_at
    record.hold(why[0], why[1], now)
    append_jsonl(results, record.to_json())
    pytest.fail(f"{NOT_PLAYED}: {why[1]}", pytrace=False)
