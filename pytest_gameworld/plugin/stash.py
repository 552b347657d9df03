"""Stash keys shared by the hooks and the fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..browser.remote_assets import AssetStore
from ..catalog.run_cases import Case
from ..catalog.contents import Catalog
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
COMPARABILITY = pytest.StashKey[dict]()  # records/comparability.py session_facts, in plan.json and every record
NOTES = pytest.StashKey[list[str]]()  # lines for the summary about the session's files (a damaged plan set aside)
REPLAY = pytest.StashKey[set]()  # --lf on a session with a plan: the planned runs (item ids) not scored yet
