"""What the controller works out about a session at start: this invocation's id, how the session differs from
the standard protocol, and which runs `--lf` replays."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from ..catalog.contents import Catalog
from ..catalog.native import default_catalog_dir
from ..catalog.specs import CatalogError, ModelSpec
from ..records.comparability import endpoint_host, session_facts
from ..records.sessions import read_plan, read_session, replay_items
from .options import Settings


def new_invocation() -> str:
    """An id no other pytest invocation shares (several may write into one session at once)."""
    return uuid.uuid4().hex[:12]


def _endpoint(spec: ModelSpec) -> str:
    if not spec.provider:
        return "built-in"
    from ..agents.providers.connection import resolve

    return endpoint_host(resolve(spec).base_url)


def _catalog_origin(catalog: Catalog) -> tuple[str, bool]:
    """(where the catalog comes from, whether it is a standard one: the shipped catalog or an upstream checkout)."""
    src = catalog.source
    if src:
        commit = f" at commit {src['commit']}" if src.get("commit") else ""
        return f"{src.get('format', 'imported')} checkout {src.get('path', catalog.root)}{commit}", True
    try:
        shipped = catalog.root.resolve() == default_catalog_dir().resolve()
    except CatalogError:
        shipped = False
    return ("shipped" if shipped else f"folder {catalog.root}"), shipped


def comparability(settings: Settings, catalog: Catalog, models: list[ModelSpec], version: str) -> dict[str, Any]:
    """The session's comparability facts (records/comparability.py), for plan.json and every record."""
    origin, standard = _catalog_origin(catalog)
    return session_facts(
        step_budget=settings.max_steps, task_budgets=[t.max_steps for t in catalog.tasks],
        protocol="realtime" if settings.realtime else "paused", model_overrides=settings.model_overrides(),
        endpoints={m.name: _endpoint(m) for m in models}, catalog_origin=origin, catalog_version=version,
        shipped_catalog=standard, obs=settings.obs)


def replay_set(config: pytest.Config, session_dir: Path) -> set[str] | None:
    """With --lf: the session's planned runs that are not scored yet; None without --lf or a plan."""
    if not config.getoption("lf", False):
        return None
    return replay_items(read_plan(session_dir), read_session(session_dir).records)


def select_replay(config: pytest.Config, items: list[pytest.Item], replay: set[str], name_of: Any) -> list[pytest.Item]:
    """The benchmark items --lf must not play (scored already, or outside the session's plan).

    pytest's own last-failed list knows only the items that failed; runs held back, interrupted or never
    started are missing too. They join its list here, so its --lf filter (which runs after every other
    selection) keeps exactly the runs to replay. It is pytest's private state: when it is not there, the
    items are only deselected, which is right whenever the list already names them.
    """
    lf = config.pluginmanager.get_plugin("lfplugin")
    known = getattr(lf, "lastfailed", None)
    drop = []
    for item in items:
        name = name_of(item)
        if name is None:
            continue
        if name not in replay:
            drop.append(item)
        elif isinstance(known, dict):
            known[getattr(item, "id", None) or item.nodeid] = True
    return drop
