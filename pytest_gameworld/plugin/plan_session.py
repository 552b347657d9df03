"""What `gameworld play` with some arguments would play, found by the same pytest session collecting only.

`gameworld plan` runs pytest in this process with ``--collect-only`` and the play command's arguments: every
selection (-k, -m, --gw-limit, --gw-sample, --gw-shard, --lf, --gw-resume's scored runs) is the plugin's own,
so the plan selects exactly what play would. Collect-only opens no browser and writes no session folder.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field
from typing import Any

import pytest

from .options import Settings
from .run_setup import case_of
from .stash import CATALOG, SETTINGS


def benchmark_argv(models: list[str], rest: list[str]) -> list[str]:
    """The pytest arguments of `gameworld play --model M ... REST` (the packaged benchmark module)."""
    # This module already imported the package, so pytest cannot rewrite its asserts; say nothing.
    argv = ["--pyargs", "pytest_gameworld.plugin.benchmark", "-W", "ignore::pytest.PytestAssertRewriteWarning"]
    argv += [f"--gw-model={m}" for m in models]  # joined: a spaced YAML path would move pytest's rootdir
    return argv + rest


@dataclass
class Collected:
    """The runs the selection plays (benchmark cases), those it would skip as already scored, and the setting."""

    status: int = 0
    output: str = ""
    cases: list[Any] = field(default_factory=list)
    scored_before: list[str] = field(default_factory=list)
    settings: Settings | None = None
    catalog: Any = None


class _Collector:
    def __init__(self, found: Collected) -> None:
        self.found = found

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        config = session.config
        self.found.settings = config.stash.get(SETTINGS, None)
        self.found.catalog = config.stash.get(CATALOG, None)
        for item in session.items:
            case = case_of(item)
            if case is None:
                continue
            if item.get_closest_marker("skip") is not None:  # --gw-resume: scored in an earlier attempt
                self.found.scored_before.append(case.node_id)
            else:
                self.found.cases.append(case)


def collect(models: list[str], rest: list[str]) -> Collected:
    """Collect the selection in-process; pytest's own output is kept (shown by the caller when it failed)."""
    found = Collected()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        found.status = int(pytest.main([*benchmark_argv(models, rest), "--collect-only", "-q"],
                                       plugins=[_Collector(found)]))
    found.output = out.getvalue()
    return found
