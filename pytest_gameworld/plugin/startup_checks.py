"""Checks made once before any game starts: each mistake is one line (a usage error, exit 4), not 170 faults."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from ..browser.faults import BrowserNotFound
from ..browser.launch import find_browser
from ..catalog.run_cases import Case, game_marks
from ..catalog.specs import STANDARD_OBS, GameSpec, ModelSpec
from ..records.baselines import BaselinesError
from ..records.baselines import load as load_baselines
from ..report.gate import GateConfig, scope_problem
from .options import Settings
from .stash import CASES


def browser_problem(settings: Settings) -> str | None:
    """A Chromium named by --gw-browser-path or GW_BROWSER_PATH that is not there or cannot run."""
    if settings.browser_endpoints:
        return None  # the browsers live on their servers' hosts; a path is theirs to check
    try:
        found = find_browser(settings.browser_path)
    except BrowserNotFound as exc:
        return str(exc)
    if found is not None and not os.access(found, os.X_OK):
        return f"browser at {found!r} is not executable (from --gw-browser-path or GW_BROWSER_PATH)"
    return None


def baselines_problem(path: Path | None) -> str | None:
    """--gw-baselines names a file that is missing or unreadable."""
    if path is None:
        return None
    if not path.is_file():
        return f"--gw-baselines {path}: no such file (`gameworld calibrate --out {path}` writes one)"
    try:
        load_baselines(path)
    except BaselinesError as exc:
        return f"--gw-baselines: {exc}"
    return None


class CaseScope(NamedTuple):
    """What a gate scope can name of a case: genre, level, game and model."""

    genre: str
    level: int
    game: str
    model: str

    @classmethod
    def planned(cls, run: dict[str, Any]) -> CaseScope:
        """A plan.json run's (its identity fields are checked on reading; these scope fields may be absent)."""
        return cls(str(run.get("genre", "")), int(run.get("level", 0)), str(run.get("game", "")), str(run["model"]))


def case_runs(cases: Iterable[Case], planned: Iterable[dict[str, Any]] = ()) -> list[CaseScope]:
    """The scopes of the selection's cases, and of a continued session's planned runs."""
    return [CaseScope(c.game.genre, c.game.level, c.game.id, c.model.name) for c in cases] + \
        [CaseScope.planned(r) for r in planned]


def gate_scope_problem(gate: GateConfig, runs: list[CaseScope]) -> str | None:
    """The first gate expression whose scope selects none of the runs (one line), or None."""
    for expr in gate.exprs:
        problem = scope_problem(expr, runs)
        if problem:
            return problem
    return None


def obs_problem(obs: str, games: Iterable[GameSpec]) -> str | None:
    """--gw-obs state|both over a catalog whose games do not declare what their screen shows (an upstream checkout)."""
    if obs == STANDARD_OBS:
        return None
    bare = sorted(g.id for g in games if not g.observable)
    if not bare:
        return None
    upstream = any(g.origin == "upstream" for g in games)
    where = "this upstream catalog declares no observable state fields" if upstream else \
        f"{len(bare)} game(s) declare no observable state fields in game.yaml ({', '.join(bare[:3])}{' …' if len(bare) > 3 else ''})"
    return f"--gw-obs {obs}: {where}; only --gw-obs screenshot can play it"


def game_marker_problem(markexpr: str, games: Iterable[GameSpec]) -> str | None:
    """A ``game_…`` name in ``-m`` that marks no game (it would silently select nothing), with the closest one."""
    known = sorted({m for g in games for m in game_marks(g)})
    for name in re.findall(r"\bgame_\w+", markexpr or ""):
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else " (`gameworld list games` shows each game's markers)"
            return f"-m {markexpr!r}: {name!r} marks no game of this catalog{hint}"
    return None


def cost_cap_problem(max_cost: float, models: Iterable[ModelSpec]) -> str | None:
    """--gw-max-cost over a model whose price is unknown (every PROVIDER/MODEL name): its spend cannot be counted,
    so the cap could never stop a run; a usage error before any run, saying how to price the model."""
    if max_cost <= 0:
        return None
    unpriced = [m.name for m in models if m.price_per_mtok is None]
    if not unpriced:
        return None
    return (f"--gw-max-cost {max_cost:g}: the price of model {unpriced[0]} is unknown, so its spend cannot be "
            "counted and the cap could not stop it; give its price in USD per million tokens "
            "(--gw-model-opt price_per_mtok.input=… --gw-model-opt price_per_mtok.output=…, optionally "
            "price_per_mtok.cached=…, or price_per_mtok in its YAML spec) or drop --gw-max-cost (ini gw_max_cost)")


_EXPR_WORDS = {"and", "or", "not"}


def empty_selection_problem(markexpr: str, keyword: str, cases: Iterable[Case]) -> str | None:
    """A -m or -k that leaves none of the benchmark's runs (and nothing else to run): one line naming the
    closest marker or name for each word of the expression that matches nothing. None without -m and -k."""
    cases = list(cases)
    if not cases or not (markexpr or keyword):
        return None
    marks = {m for c in cases for m in c.marks}
    names = {part for c in cases for part in re.split(r"[/\[\]]", c.node_id) if part}
    names |= {c.game.id.split("-", 1)[-1] for c in cases} | {c.model.name for c in cases}
    hints = []
    for flag, expr, known in (("-m", markexpr, marks), ("-k", keyword, names)):
        if not expr:
            continue
        words = [w for w in re.findall(r"[\w.:-]+", expr) if w.lower() not in _EXPR_WORDS]
        lowered = {k.lower(): k for k in known}
        for word in words:
            if flag == "-m" and word in marks or flag == "-k" and any(word.lower() in k for k in lowered):
                continue
            close = difflib.get_close_matches(word.lower(), list(lowered), n=3, cutoff=0.6)
            hints.append(f"{word!r} (closest: {', '.join(lowered[c] for c in close)})" if close else repr(word))
        what = f"{flag} {expr!r}"
        if hints:
            kind = "marker" if flag == "-m" else "name"
            return (f"{what} selects none of the {len(cases)} benchmark run(s); no {kind} matches "
                    f"{', '.join(hints)}; `gameworld list` shows the catalog's names and markers")
    given = " ".join(f"{f} {e!r}" for f, e in (("-m", markexpr), ("-k", keyword)) if e)
    return f"{given} selects none of the {len(cases)} benchmark run(s); `gameworld list` shows the catalog's names"


def refuse_empty_selection(config: Any) -> None:
    """A -m or -k that selected nothing at all stops the session in one line with the closest names (exit 4); the
    refused session leaves no folder behind."""
    problem = empty_selection_problem(config.option.markexpr, config.option.keyword, config.stash[CASES])
    if problem:
        raise pytest.UsageError(problem)
