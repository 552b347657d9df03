"""The controller's side of xdist: what every worker is handed, how runs are scheduled, the selection check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ..report.gate import GateConfig
from . import startup_checks
from .run_engine import chosen_concurrency
from .stash import CASES, CATALOG_VERSION, COMPARABILITY, INVOCATION, REPLAY, SCORED_BEFORE, SESSION_DIR, SETTINGS


class XdistHooks:
    """Hands the controller's session, catalog version and resume list to every worker."""

    def __init__(self, gate: GateConfig, check_selection: Callable[[pytest.Config, GateConfig, list[Any]], None],
                 inert: Callable[[pytest.Config], bool]) -> None:
        self.gate, self.checked = gate, False
        self.check_selection, self.inert = check_selection, inert

    def pytest_configure_node(self, node: Any) -> None:
        stash = node.config.stash
        node.workerinput["gw_session_dir"] = str(stash[SESSION_DIR])
        node.workerinput["gw_catalog_version"] = stash[CATALOG_VERSION]
        node.workerinput["gw_scored_before"] = [[list(k), v] for k, v in stash[SCORED_BEFORE].items()]
        node.workerinput["gw_invocation"] = stash[INVOCATION]
        node.workerinput["gw_comparability"] = stash[COMPARABILITY]
        node.workerinput["gw_replay"] = sorted(stash[REPLAY]) if REPLAY in stash else None

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        """With several runs in flight per worker, xdist's default `load` scheduling would send a worker its
        next items only once it has almost none left (it counts the runs started ahead as still pending), so
        its slots would stay empty: work stealing hands every worker its share at once instead, and the runs
        a worker has started cannot be stolen (run_engine.guard_steals)."""
        if getattr(config.option, "dist", "") != "load" or CASES not in config.stash:
            return None
        if chosen_concurrency(config.stash[SETTINGS], config.stash[CASES], 2) <= 1:
            return None
        from xdist.scheduler import WorkStealingScheduling

        return WorkStealingScheduling(config, log)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """The workers' selection is the session's: its gate scopes are checked before any run starts."""
        config = node.config
        if not self.checked and not self.inert(config):
            self.checked = True
            cases = {c.node_id: c for c in config.stash[CASES]}
            if not ids:
                startup_checks.refuse_empty_selection(config)
            self.check_selection(config, self.gate, [cases[i] for i in ids if i in cases])
