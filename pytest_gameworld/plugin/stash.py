"""Stash keys shared by the hooks and the fixtures."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from ..browser.remote_assets import AssetStore
from ..catalog.contents import Catalog
from ..catalog.run_cases import Case
from ..records.run_record import RunKey
from .options import Settings

SETTINGS = pytest.StashKey[Settings]()
ASSETS = pytest.StashKey[AssetStore | None]()  # --gw-assets, loaded once (a bad file is a usage error)
CATALOG = pytest.StashKey[Catalog]()
CASES = pytest.StashKey[list[Case]]()
SESSION_DIR = pytest.StashKey[Path]()
CATALOG_VERSION = pytest.StashKey[str]()
SCORED_BEFORE = pytest.StashKey[dict[RunKey, str]]()  # --gw-resume: run → the session that scored it
INVOCATION = pytest.StashKey[str]()  # this pytest invocation's id, in every record it writes (the breaker's scope)
COMPARABILITY = pytest.StashKey[Mapping[str, Any]]()  # records/comparability.py session_facts, in plan.json and every record
NOTES = pytest.StashKey[list[str]]()  # lines for the summary about the session's files (a damaged plan set aside)
REPLAY = pytest.StashKey[set[str]]()  # --lf on a session with a plan: the planned runs (item ids) not scored yet
ENGINE = pytest.StashKey[object]()  # plugin/run_engine.py RunEngine, once the first benchmark item set it up
REPLY_CACHE = pytest.StashKey[object]()  # --gw-cache: this process's ReplyCache (agents/providers/cache.py)
