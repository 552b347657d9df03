"""Mistakes are caught before a paid session starts: each is one line and exit 4, and no run is played."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Should a check regress, the session it lets through stays small: one task, two steps.
SMALL = ["-p", "no:randomly", "-p", "no:cacheprovider", "--gw-results", "out", "--gw-max-steps", "2"]


def pytest_run(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GW_BROWSER_PATH"}
    return subprocess.run([sys.executable, "-m", "pytest", *SMALL, *args], cwd=folder, capture_output=True, text=True,
                          timeout=300, env=env)


def one_error(r: subprocess.CompletedProcess) -> str:
    errors = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("ERROR")]
    assert r.returncode == 4 and len(errors) == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "passed" not in r.stdout and "failed" not in r.stdout
    return errors[0].removeprefix("ERROR: ")


@pytest.mark.parametrize("args, message", [
    (["--gw-gate", "pg[puzle]>=10", "-k", "01_01"],
     "gate 'pg[puzle]>=10': scope 'puzle' matches no run of this session (genres arcade, platformer, puzzle, runner, "
     "simulation; "),
    (["--gw-gate", "sr[puzzle]>=1", "-k", "13_01"],
     "gate 'sr[puzzle]>=1': scope 'puzzle' matches no run of this session (genres runner; levels L2; "
     "games 13-flappy-bird; models random)"),
    (["--gw-gate", "sr[puzle]>=1", "-k", "13_01", "-n", "2"], "gate 'sr[puzle]>=1': scope 'puzle' matches no run"),
    (["--gw-gate", "sr[puzzle]>=1", "-k", "13_01", "-n", "2"],
     "gate 'sr[puzzle]>=1': scope 'puzzle' matches no run of this session (genres runner; "),
    (["--gw-browser-path", "/nonexistent", "-k", "01_01"],
     "browser not found at '/nonexistent' (from --gw-browser-path or GW_BROWSER_PATH)"),
    (["--gw-max-steps", "-3"], "--gw-max-steps (ini gw_max_steps) must be at least 0, got -3"),
    (["--gw-repeat", "0"], "--gw-repeat (ini gw_repeat) must be at least 1, got 0"),
    (["--gw-limit", "-1"], "--gw-limit (ini gw_limit) must be at least 0, got -1"),
    (["--gw-max-cost", "-1"], "--gw-max-cost (ini gw_max_cost) must be at least 0, got -1"),
    (["--gw-baselines", "nowhere.json", "-k", "01_01"],
     "--gw-baselines nowhere.json: no such file (`gameworld calibrate --out nowhere.json` writes one)"),
    # Issue 37 item 10: an impossible gate, a repeat count that would collect for minutes, a selection of nothing.
    (["--gw-gate", "pg>=400", "-k", "01_01"],
     "gate expression 'pg>=400': pg is a percentage (0-100), so >=400 can never pass"),
    (["--gw-repeat", "100000"], "--gw-repeat (ini gw_repeat) must be at most 100, got 100000"),
    (["-m", "puzle"], "-m 'puzle' selects none of the 170 benchmark run(s); no marker matches 'puzle' "
                      "(closest: puzzle)"),
    (["-k", "2O48"], "-k '2O48' selects none of the 170 benchmark run(s); no name matches '2O48' (closest: 2048)"),
    (["-k", "2O48", "-n", "2"], "-k '2O48' selects none of the 170 benchmark run(s); no name matches '2O48'"),
], ids=["scope-typo", "scope-not-selected", "scope-typo-xdist", "scope-not-selected-xdist", "browser-path",
        "max-steps", "repeat", "limit", "max-cost", "baselines", "impossible-gate", "huge-repeat", "mark-typo",
        "keyword-typo", "keyword-typo-xdist"])
def test_a_mistake_is_one_line_and_exit_4_before_any_game_starts(tmp_path, args, message):
    r = pytest_run(tmp_path, "--gw-model", "random", *args)
    assert one_error(r).startswith(message)
    assert not (tmp_path / "out").exists(), "no session folder: nothing was played or planned"


def test_the_suggestion_names_the_closest_scope(tmp_path):
    r = pytest_run(tmp_path, "--gw-model", "random", "--gw-gate", "pg[puzle]>=10", "-k", "01_01")
    assert one_error(r).endswith("did you mean 'puzzle'?")


def test_an_ini_value_out_of_range_names_the_option(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\ngw_model = random\ngw_repeat = 0\n")
    assert one_error(pytest_run(tmp_path)) == "--gw-repeat (ini gw_repeat) must be at least 1, got 0"


def test_list_takes_a_pytest_keyword_expression_like_every_other_command(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "list", "-k", "wordle or minesweeper"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "2 games", r.stdout
    bad = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "list", "--genre", "puzzel"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 4 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    assert bad.stderr.strip().endswith("did you mean 'puzzle'?")
