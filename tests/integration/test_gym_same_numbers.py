"""An episode through the Gymnasium environment gives the benchmark's numbers: a real `pytest --gw-model random`
session plays five tasks of five genres, then each run's seed and recorded actions are replayed through
`gymnasium.make` and every step's state summary, verdict, score, progress, episode and stop must be the ones
its steps.jsonl holds, the final observable state the one its end line holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium
import pytest

import pytest_gameworld.gym  # noqa: F401  (registers GameWorld/<task>-v0)
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.prompt_sections import state_text

# One task of each genre; within 30 steps these end by success (10_01), reset failed episodes (13_01, 05_01),
# move the score (01_02) and play two roles at once (12_01).
TASKS = {"puzzle": "01_02", "runner": "13_01", "arcade": "05_01", "platformer": "10_01", "simulation": "12_01"}
BUDGET = 30


@pytest.fixture(scope="module")
def benchmark_session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's own runs of the five tasks (a pytest session in a subprocess, as a user starts one)."""
    folder = tmp_path_factory.mktemp("benchmark")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "random",
                        "-k", " or ".join(TASKS.values()), "--gw-max-steps", str(BUDGET), "--gw-results", "out",
                        "--gw-session", "s"], cwd=folder, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    return folder / "out" / "s"


def _recorded(session: Path, task: str) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """A task's results line, its step lines and its end line."""
    record = next(rec for line in (session / "results.jsonl").read_text().splitlines()
                  if (rec := json.loads(line))["task"] == task)
    lines = [json.loads(x) for x in (session / record["trajectory"]).read_text().splitlines()]
    steps = [ln for ln in lines if ln.get("event") == "step"]
    return record, steps, next(ln for ln in lines if ln.get("event") == "end")


def _turns(line: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A step line's turns by role (a single-role line has its turn at the top)."""
    return line["roles"] if "roles" in line else {"": line}


def _action(turn: dict[str, Any]) -> dict[str, Any]:
    """The random agent's call, as the env takes a control by name: {"control", "args"}."""
    (call,) = turn["calls"]
    return {"control": call["name"], "args": call["args"]}


@pytest.mark.parametrize("genre", list(TASKS))
def test_the_env_replays_the_benchmarks_run_with_the_same_numbers(benchmark_session: Path, genre: str) -> None:
    task = TASKS[genre]
    record, steps, end = _recorded(benchmark_session, task)
    assert record["genre"] == genre and record["status"] == "ok" and steps
    env = gymnasium.make(f"GameWorld/{task}-v0", obs="state", max_steps=BUDGET)
    try:
        _, info = env.reset(seed=record["seed"])
        assert info["seed"] == record["seed"] and info["episode"] == 1
        terminated = truncated = False
        for line in steps:
            assert not (terminated or truncated), f"{task}: the env ended before step {line['step']}"
            turns = _turns(line)
            action = _action(turns[""]) if "" in turns else {name: _action(t) for name, t in turns.items()}
            obs, reward, terminated, truncated, info = env.step(action)
            where = f"{task} step {line['step']}"
            assert info["step"] == line["step"] + 1, where
            assert info["state"] == line["state"], where
            assert (info["score"], info["best"], info["progress"], info["success"]) == \
                (line["score"], line["best"], line["progress"], line["success"]), where
            assert (info["episode"], info["episode_reset"], info["stop"]) == \
                (line["episode"], line["reset"], line["stop"]), where
            if "roles" in line:
                assert info["roles"] == {name: t["verdict"] for name, t in turns.items()}, where
            else:
                assert {key: info[key] for key in line["verdict"]} == line["verdict"], where
        assert terminated or truncated, f"{task}: the env did not end where the benchmark's run did"
        assert terminated == (end["stop"] == "success") and truncated == (end["stop"] == "max_steps")
        # The results line rounds progress to 6 places (run_record.py); 2048's tile tasks count from the opening
        # tile, so their progress is no longer a binary fraction that survives the rounding unchanged.
        assert (round(info["progress"], 6), info["success"]) == (record["progress"], record["success"])
        assert info["counts"] == {"valid": record["valid"], "ntc": record["invalid_ntc"], "oos": record["invalid_oos"]}
        catalog = load_catalog()
        game = catalog.task_game(next(t for t in catalog.tasks if t.id == task))
        assert obs == state_text(end["final_state"], game.observable), f"{task}: final observable state differs"
    finally:
        env.close()
