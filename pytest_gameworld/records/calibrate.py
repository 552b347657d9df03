"""`gameworld calibrate`: play random (N repeats) and oracle on the catalog's tasks and write baselines.json."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import baselines
from .run_record import read_results
from .run_record import versions
from ..catalog.loader import load_catalog
from .sessions import catalog_version, task_versions


@dataclass
class CalibrateConfig:
    catalog: Path
    repeat: int = 5
    workers: int = 2
    select: str = ""
    seed: int = 0
    out: Path | None = None
    keep: Path | None = None  # keep the two sessions here instead of a temporary folder

    @property
    def target(self) -> Path:
        return self.out or self.catalog / baselines.FILE_NAME


def _session(cfg: CalibrateConfig, model: str, repeat: int, results: Path) -> list[dict]:
    """One pytest session of the benchmark with one built-in model; its records (faults included)."""
    argv = [sys.executable, "-m", "pytest", "--pyargs", "pytest_gameworld.plugin.benchmark", "-p", "no:cacheprovider",
            "-p", "no:html", "-W", "ignore::pytest.PytestAssertRewriteWarning",
            "--gw-model", model, "--gw-repeat", str(repeat), "--gw-seed", str(cfg.seed),
            "--gw-catalog", str(cfg.catalog), "--gw-results", str(results), "--gw-session", model,
            "--gw-max-consecutive-faults", "0"]
    if cfg.workers > 0:
        argv += ["-n", str(cfg.workers)]
    if cfg.select:
        argv += ["-k", cfg.select]
    # The child runs in the results folder with an empty ini file of its own, so no project conftest.py or
    # ini file (here or the package's own) changes what it plays.
    ini = results / "pytest.ini"
    ini.write_text("[pytest]\n")
    subprocess.run(argv + ["-c", str(ini), "--rootdir", str(results)], cwd=results, check=False)
    return read_results(results / model / "results.jsonl").records


def calibrate(cfg: CalibrateConfig) -> tuple[baselines.Baselines, float]:
    """Play both sessions, write the file (merging a -k subset into the existing file); the wall time."""
    started = time.perf_counter()
    version = catalog_version(cfg.catalog)
    with tempfile.TemporaryDirectory(prefix="gw-calibrate-") as tmp:
        results = cfg.keep or Path(tmp)
        results.mkdir(parents=True, exist_ok=True)
        rnd = _session(cfg, "random", cfg.repeat, results)
        orc = _session(cfg, "oracle", 1, results)
    wall = time.perf_counter() - started
    made = {"command": "gameworld calibrate", "random_repeats": cfg.repeat, "oracle_repeats": 1, "seed": cfg.seed,
            "select": cfg.select, "workers": cfg.workers, "wall_s": round(wall, 1),
            "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "versions": versions()}
    current = task_versions(load_catalog(cfg.catalog))
    fresh = baselines.compute(rnd, orc, version, made, current)
    old = baselines.load(cfg.target) if cfg.select else None
    if old is not None:
        fresh = baselines.merge(old, fresh, current)
    cfg.target.parent.mkdir(parents=True, exist_ok=True)
    cfg.target.write_text(json.dumps(baselines.to_json(fresh), indent=1) + "\n", encoding="utf-8")
    return fresh, wall
