"""What a benchmark item plays: its case, the one place a run's RunConfig is made, and the session folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..agents.providers.cache import ReplyCache
from ..catalog.run_cases import Case
from ..play.runner import RunConfig
from ..records.comparability import run_facts
from ..records.reply_cache import CacheFolder, cache_folder
from ..records.sessions import new_attempt_dir, new_session_name, resolve_session
from .options import Settings
from .stash import CATALOG, CATALOG_VERSION, COMPARABILITY, INVOCATION, REPLY_CACHE, SESSION_DIR, SETTINGS


def case_of(item: pytest.Item) -> Any:
    """The benchmark case an item plays, or None for any other test."""
    return (spec := getattr(item, "callspec", None)) and spec.params.get("gw_case")


def reply_cache(config: pytest.Config) -> ReplyCache | None:
    """--gw-cache: this process's reply cache over <results>/.cache (its runs and the xdist workers share the
    folder, never an object); None when off."""
    settings = config.stash[SETTINGS]
    if settings.cache == "off":
        return None
    if REPLY_CACHE not in config.stash:
        folder = CacheFolder(cache_folder(settings.results).resolve(), int(settings.cache_max_mb * 1e6))
        config.stash[REPLY_CACHE] = ReplyCache(folder, settings.cache)
    cache = config.stash[REPLY_CACHE]
    return cache if isinstance(cache, ReplyCache) else None


def run_config(config: pytest.Config, case: Case) -> RunConfig:
    """A run of ``case`` in this session, in a new attempt folder of its own."""
    settings, catalog = config.stash[SETTINGS], config.stash[CATALOG]
    session_dir = config.stash[SESSION_DIR]
    keep_frames, compact_frames = settings.frames_for(bool(case.model.provider))
    return RunConfig(
        item_id=case.node_id, game=case.game, task=case.task, model=case.model,
        seed=case.seed(settings.seed), repeat=case.repeat,
        run_dir=new_attempt_dir(session_dir / "runs" / case.run_path),
        results_path=session_dir / "results.jsonl", prompts_dir=catalog.prompts_dir,
        realtime=settings.realtime, obs=settings.obs, max_steps=settings.max_steps or None,
        keep_frames=keep_frames, compact_frames=compact_frames, frame_width=settings.frame_width,
        catalog_version=config.stash.get(CATALOG_VERSION, ""),
        catalog_source=catalog.source, invocation=config.stash.get(INVOCATION, ""),
        photographed=settings.tracing != "off",
        cache=reply_cache(config) if case.model.provider else None,
        comparability=run_facts(config.stash.get(COMPARABILITY, {}), case.model.name),
    )


def session_dir_for(config: pytest.Config, settings: Settings) -> Path:
    """--gw-resume's session, --lf continuing the latest one, --gw-session, or a new timestamp."""
    if settings.resume:
        if settings.session and settings.session != settings.resume:
            raise pytest.UsageError(f"--gw-resume {settings.resume} and --gw-session {settings.session} "
                                    "name different sessions; give one")
        try:
            return resolve_session(settings.results, settings.resume)
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
    if settings.session:
        return settings.results / settings.session
    if config.getoption("lf", False):
        try:
            return resolve_session(settings.results, "latest")
        except ValueError:
            pass  # nothing to continue: a new session
    return settings.results / new_session_name()
