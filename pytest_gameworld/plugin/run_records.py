"""The record of a run that did not play to its end, made outside the run loop (a run held back before it started,
a run whose worker died under it): the same identity and session facts as the loop's own records."""

from __future__ import annotations

import datetime as dt

import pytest

from ..catalog.run_cases import Case
from ..records.comparability import run_facts
from ..records.run_record import RunRecord
from .options import Settings
from .stash import CATALOG, CATALOG_VERSION, COMPARABILITY, INVOCATION, SESSION_DIR, SETTINGS


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")


def unplayed_record(config: pytest.Config, case: Case, trajectory: str = "") -> RunRecord:
    """A begun record of ``case`` in this invocation (its status is for the caller to set)."""
    settings: Settings = config.stash[SETTINGS]
    record = RunRecord.begin(
        item=case.node_id, task=case.task, game=case.game, model=case.model, role="+".join(case.game.roles),
        seed=case.seed(settings.seed), repeat=case.repeat, protocol="realtime" if settings.realtime else "paused",
        max_steps=settings.max_steps or case.task.max_steps, catalog_version=config.stash.get(CATALOG_VERSION, ""),
        session=config.stash[SESSION_DIR].name, trajectory=trajectory, now=now_iso(), obs=settings.obs)
    record.invocation, record.catalog = config.stash.get(INVOCATION, ""), dict(config.stash[CATALOG].source)
    record.comparability = run_facts(config.stash.get(COMPARABILITY, {}), case.model.name)
    record.finished_at = record.started_at
    return record
