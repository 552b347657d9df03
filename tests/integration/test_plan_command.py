"""`gameworld plan` selects what `gameworld play` with the same arguments plays (a real play session's plan.json
is the judge), opens no browser, and prices the whole catalog per spec (n/a where unpriced)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest_gameworld

ENV = {**os.environ, "PYTHONPATH": str(Path(pytest_gameworld.__file__).resolve().parent.parent)}


def cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", *args], cwd=folder, capture_output=True,
                          text=True, timeout=900, env=ENV)


def planned_runs(out: str) -> list[str]:
    lines = out.split("\nruns:\n", 1)[1].splitlines()
    return [ln.split()[0] for ln in lines if ln.startswith("  ")]


def test_plan_selects_exactly_what_play_plays(tmp_path: Path) -> None:
    select = ["-k", "puzzle or arcade", "--gw-sample", "3", "--gw-seed", "5", "--gw-max-steps", "1"]
    # No browser is opened: a browser path that does not exist, which play would refuse, does not matter.
    plan = cli(tmp_path, "plan", "--model", "random", "--runs", *select, "--gw-browser-path=/no/such/chromium")
    assert plan.returncode == 0, plan.stdout + plan.stderr
    runs = planned_runs(plan.stdout)
    assert len(runs) == 3 and "--gw-sample 3" in plan.stdout
    assert not (tmp_path / "reports").exists(), "plan writes no session"
    play = cli(tmp_path, "play", "--model", "random", *select, "--gw-results=out", "--gw-session=s",
               "--gw-progress=off")
    assert play.returncode == 0, play.stdout[-3000:]
    plan_file = json.loads((tmp_path / "out/s/plan.json").read_text())
    assert sorted(plan_file["selected"]) == sorted(runs)
    assert plan_file["options"]["sample"] == 3


def test_plan_for_the_catalog_with_three_specs(tmp_path: Path) -> None:
    done = cli(tmp_path, "plan", "--model", "gpt-5.2,claude-sonnet-4.6,openai-compatible/my-model")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {ln.split()[0]: ln for ln in done.stdout.splitlines()}
    assert "510 run(s)" in done.stdout
    for name in ("gpt-5.2", "claude-sonnet-4.6"):
        assert rows[name].split()[1] == "170" and "1280x720 png" in rows[name] and "$" in rows[name]
    mine = next(v for k, v in rows.items() if "my-model" in k)
    assert "n/a (no price)" in mine and "$0" not in mine
    assert "+ n/a" in rows["total"]
