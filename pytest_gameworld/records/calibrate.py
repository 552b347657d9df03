"""`gameworld calibrate`: play the skill ladder (random, oracle@0.25/0.5/0.75: N repeats; the oracle: one) and the
trivial policies (agents/trivial.py trivial_set: N repeats each) on the catalog's tasks and write baselines.json."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..agents.trivial import trivial_set
from ..catalog.keywords import compile_keywords
from ..catalog.loader import load_catalog
from ..catalog.run_cases import game_mark
from ..report.discrimination import baselines_json
from ..report.exit_status import ExitStatus
from . import baselines
from .jsonl import write_file
from .run_record import RunRecord, read_results, versions
from .sessions import catalog_version, task_versions

PROJECT_FILE = "gameworld-baselines.json"  # where an installed package's calibration goes: the user's project


def default_target(catalog: Path, named: bool, package: Path, cwd: Path) -> Path:
    """Where calibrate writes without --out: into the catalog when it was named or is a source checkout's,
    never into the installed package (that would change every user's normalized scores); else the project."""
    inside_package = catalog.resolve().is_relative_to(package.resolve())
    return catalog / baselines.FILE_NAME if named or not inside_package else cwd / PROJECT_FILE


class NothingPlayed(RuntimeError):
    """No session recorded a run: no file is written (a -k subset would only copy the old one)."""


def repeats_for(agent: str, repeat: int) -> int:
    """The oracle is deterministic: one run; every other rung is stochastic: `repeat` runs."""
    return 1 if agent == "oracle" else repeat


@dataclass
class CalibrateConfig:
    catalog: Path
    target: Path
    repeat: int = 10
    workers: int = 2
    select: str = ""
    seed: int = 0
    keep: Path | None = None  # keep the sessions here instead of a temporary folder
    agents: tuple[str, ...] = baselines.LADDER
    trivial: bool = True  # also play the trivial policies (--no-trivial: not; --agents trivial: only them)


def _session(cfg: CalibrateConfig, model: str, repeat: int, results: Path, name: str = "",
             game_marker: str = "") -> list[RunRecord]:
    """One pytest session of the benchmark with one built-in model (or several, comma-separated, on the game
    of ``game_marker``); its records (faults included)."""
    name = name or model
    argv = [sys.executable, "-m", "pytest", "--pyargs", "pytest_gameworld.plugin.benchmark", "-p", "no:cacheprovider",
            "-p", "no:html", "-W", "ignore::pytest.PytestAssertRewriteWarning",
            "--gw-model", model, "--gw-repeat", str(repeat), "--gw-seed", str(cfg.seed),
            "--gw-catalog", str(cfg.catalog), "--gw-results", str(results), "--gw-session", name,
            "--gw-max-consecutive-faults", "0"]
    if cfg.workers > 0:
        argv += ["-n", str(cfg.workers)]
    if cfg.select:
        argv += ["-k", cfg.select]
    if game_marker:
        argv += ["-m", game_marker]
    # The child runs in the results folder with an empty ini file of its own, so no project conftest.py or
    # ini file (here or the package's own) changes what it plays.
    ini = results / "pytest.ini"
    ini.write_text("[pytest]\n")
    # No bytecode written: pytest would put its rewritten benchmark module into the package's __pycache__.
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(argv + ["-c", str(ini), "--rootdir", str(results)], cwd=results, check=False, env=env)
    return read_results(results / name / "results.jsonl").records


def _trivial_sessions(cfg: CalibrateConfig, results: Path) -> dict[str, list[RunRecord]]:
    """One session per game the selection touches, every policy of its trivial set as a model; the records by
    policy spec (what baselines.compute takes)."""
    cat = load_catalog(cfg.catalog)
    keep = compile_keywords(cfg.select)
    games = sorted({t.game for t in cat.tasks if keep([t.id, t.game])})
    by_policy: dict[str, list[RunRecord]] = {}
    for game_id in games:
        game = cat.games[game_id]
        for rec in _session(cfg, ",".join(trivial_set(game)), cfg.repeat, results, f"trivial-{game_id}",
                            game_mark(game)):
            by_policy.setdefault(rec.model, []).append(rec)
    return by_policy


def calibrate(cfg: CalibrateConfig) -> tuple[baselines.Baselines, float]:
    """Play one session per agent, write the file (merging a -k or --agents subset into the existing file);
    the wall time."""
    started = time.perf_counter()
    version = catalog_version(cfg.catalog)
    with tempfile.TemporaryDirectory(prefix="gw-calibrate-") as tmp:
        results = cfg.keep or Path(tmp)
        results.mkdir(parents=True, exist_ok=True)
        played = {a: _session(cfg, a, repeats_for(a, cfg.repeat), results) for a in cfg.agents}
        trivial = _trivial_sessions(cfg, results) if cfg.trivial else {}
    wall = time.perf_counter() - started
    if not any(played.values()) and not any(trivial.values()):
        raise NothingPlayed(f"no run was played ({f'-k {cfg.select!r} selects no task, or ' if cfg.select else ''}"
                            f"the sessions did not start: see their output above); {cfg.target} is unchanged")
    made = {"command": "gameworld calibrate", "agents": list(cfg.agents),
            "repeats": {a: repeats_for(a, cfg.repeat) for a in cfg.agents},
            **({"trivial": {"repeats": cfg.repeat, "policies": sorted(trivial)}} if cfg.trivial else {}),
            "seed": cfg.seed, "select": cfg.select, "workers": cfg.workers, "wall_s": round(wall, 1),
            "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "versions": versions()}
    current = task_versions(load_catalog(cfg.catalog))
    fresh = baselines.compute(played, version, made, current, trivial)
    # A -k, --agents or --no-trivial subset lays over the target file, or over the catalog's own when the target
    # is new.
    subset = bool(cfg.select) or set(cfg.agents) != set(baselines.LADDER) or not cfg.trivial
    old = (baselines.load(cfg.target) or baselines.load(cfg.catalog)) if subset else None
    if old is not None:
        fresh = baselines.merge(old, fresh, current)
    cfg.target.parent.mkdir(parents=True, exist_ok=True)
    cfg.target.write_text(json.dumps(baselines_json(fresh), indent=1) + "\n", encoding="utf-8")
    return fresh, wall



def restamp_command(catalog: Path, target: Path, was: Path, now: Path, select: str = "") -> int:
    """`gameworld calibrate --restamp FROM NOW`: re-stamp the target's stale tasks (records/restamp.py), rewrite it
    when any was, print what was done per task; 1 when a selected task stays stale, 2 when a file is unreadable."""
    from ..catalog.keywords import KeywordError, compile_keywords
    from ..catalog.specs import CatalogError
    from .restamp import GoldenFileError, read_goldens, restamp

    try:
        old = baselines.load(target)
        if old is None:
            raise GoldenFileError(f"{target}: no baselines file to re-stamp")
        cat = load_catalog(catalog)
        keep = compile_keywords(select)
        result = restamp(old, task_versions(cat), read_goldens(was), read_goldens(now), catalog_version(catalog),
                         {t.id for t in cat.tasks if keep([t.id, t.game])})
    except (GoldenFileError, CatalogError, baselines.BaselinesError, KeywordError) as exc:
        print(f"gameworld calibrate: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    if result.restamped:
        write_file(target, json.dumps(baselines_json(result.baselines), indent=1) + "\n")
    print("\n".join(result.lines() + [f"{target}: {'rewritten' if result.restamped else 'unchanged'}"]))
    return ExitStatus.FAILED if result.kept else ExitStatus.OK
