"""Stash keys shared by the hooks and the fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cases import Case
from .catalog import Catalog
from .results import RunKey
from .settings import Settings

SETTINGS = pytest.StashKey[Settings]()
CATALOG = pytest.StashKey[Catalog]()
CASES = pytest.StashKey[list[Case]]()
SESSION_DIR = pytest.StashKey[Path]()
CATALOG_VERSION = pytest.StashKey[str]()
SCORED_BEFORE = pytest.StashKey[dict[RunKey, str]]()  # --gw-resume: run → the session that scored it
