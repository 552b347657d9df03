"""The trivial policies played for real: const:/cycle: through the runner and through pytest (the trajectory's
actions), an illegal const-key: refused at collection, and 2048's opening tile earning noop no progress."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")


def _steps(steps_path: Path) -> list[dict]:
    return [s for s in map(json.loads, steps_path.read_text().splitlines()) if s.get("event") == "step"]


def run_pytest(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_const_through_pytest_plays_its_control_every_step(tmp_path: Path):
    r = run_pytest("--gw-model", "const:flap", "-k", "13_01", "--gw-max-steps", "4", "--gw-results=out",
                   "--gw-session", "s", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stdout[-3000:] + r.stderr[-2000:]
    (line,) = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    assert (line["model"], line["status"]) == ("const:flap", "ok")
    steps = _steps(tmp_path / "out" / "s" / line["trajectory"])
    assert steps and [s["calls"] for s in steps] == [[{"name": "flap", "args": {}}]] * len(steps)
    assert {s["verdict"]["control"] for s in steps} == {"flap"} and {s["verdict"]["validity"] for s in steps} == {"valid"}


def test_an_illegal_const_key_is_refused_at_collection_naming_the_allowed_keys(tmp_path: Path):
    r = run_pytest("--gw-model", "const-key:ArrowUp", "-k", "05_01", "--gw-results=out", cwd=tmp_path)
    assert r.returncode == 4, r.stdout[-2000:] + r.stderr[-2000:]
    assert ("const-key:ArrowUp: 05-breakout role 'player' does not allow key 'ArrowUp'; allowed keys: ArrowLeft, "
            "ArrowRight") in r.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("steps.jsonl"))  # nothing played


@SESSION_LOOP
async def test_cycle_alternates_its_controls_through_the_runner(play_task):
    record, _, steps_path = await play_task("05_01", "cycle:move_left+move_right", max_steps=6)
    assert [s["verdict"]["control"] for s in _steps(steps_path)] == ["move_left", "move_right"] * 3
    assert record.invalid_ntc == record.invalid_oos == 0


@SESSION_LOOP
async def test_const_key_presses_its_key_every_step(play_task):
    _, _, steps_path = await play_task("05_01", "const-key:ArrowLeft", max_steps=3)
    actions = [s["verdict"]["action"] for s in _steps(steps_path)]
    assert [(a["kind"], a["keys"]) for a in actions] == [("press_key", ["ArrowLeft"])] * 3, actions


@SESSION_LOOP
@pytest.mark.parametrize("task_id", ["01_01", "01_02", "01_03"])
async def test_2048s_opening_tile_is_no_progress(play_task, task_id):
    """The opening board already holds a 2 or a 4: the tile tasks count from it, so waiting earns PG 0."""
    record, _, steps_path = await play_task(task_id, "noop", max_steps=3)
    assert record.score_best >= 2 and record.progress == 0.0, (record.score_best, record.progress)
    assert all(s["progress"] == 0.0 for s in _steps(steps_path))
