"""MkDocs build hook: the options reference page gets its list from pytest_gameworld/plugin/options.py.

The checkout beside this file is imported first, so the site documents the options of the code it ships with
(not of another installed copy).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pytest_gameworld.plugin import options_reference  # noqa: E402


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return options_reference.render(markdown)
