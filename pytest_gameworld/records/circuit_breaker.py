"""The circuit breaker: a model whose endpoint failed K runs in a row is not started again (pure).

Derived from the session's results.jsonl (appended under a lock by every xdist worker), so all
workers reach the same decision without talking to each other. Only the current invocation's records
count: an outage in an earlier pass (the one `--lf` or `--gw-resume` now replays) must not stop this one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .run_record import ERROR, NOT_PLAYED, RunRecord

PREFIX = "circuit breaker"
_ENDPOINT_ERROR = "AgentError:"
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def signature(error: str) -> str:
    """An error with its numbers blanked: attempts and seconds vary, the failure is the same."""
    return _NUMBER.sub("#", error)


def failing_streak(records: Iterable[RunRecord], model: str, invocation: str | None = None) -> list[str]:
    """The errors of the model's latest runs, in order, while they all failed on the same endpoint error.

    With ``invocation``, only that invocation's records count; any other outcome of the model's runs
    (a scored run, another kind of fault) ends the streak.
    """
    streak: list[str] = []
    for rec in records:
        if rec.model != model or rec.status == NOT_PLAYED:
            continue  # a run held back is no new evidence either way
        if invocation is not None and rec.invocation != invocation:
            continue
        error = rec.error or ""
        if rec.status != ERROR or not error.startswith(_ENDPOINT_ERROR):
            streak = []
        elif streak and signature(streak[-1]) != signature(error):
            streak = [error]
        else:
            streak.append(error)
    return streak


def tripped(records: Iterable[RunRecord], model: str, limit: int, invocation: str | None = None) -> str | None:
    """Why the model's remaining runs are not started, or None (limit 0 turns the breaker off)."""
    if limit <= 0:
        return None
    streak = failing_streak(records, model, invocation)
    if len(streak) < limit:
        return None
    return f"{PREFIX}: {model} failed {len(streak)} runs in a row on the same endpoint error: {streak[-1]}"
