"""The gate, resume, concurrent sessions and side-effect-free invocations, end to end in real Chromium."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from failing_agent import write_failing_conftest

from pytest_gameworld.catalog.loader import load_catalog

REPO = Path(__file__).resolve().parents[2]


def pytest_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args]


def run(*args: str, cwd: Path, env: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(pytest_cmd(*args), cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def report(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "report", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def verdict(out: str) -> str:
    return [ln for ln in out.splitlines() if ln.startswith("GameWorld gate:")][-1]


def test_noop_fails_a_pg_gate_with_exit_1_and_writes_the_verdict(tmp_path):
    r = run("--gw-model", "noop", "--gw-gate", "pg>=50", "-k", "2048", "--gw-max-steps", "5", "--gw-results", "out",
            "--gw-session", "s", "--junitxml", "junit.xml", cwd=tmp_path)
    assert r.returncode == 1, r.stdout[-3000:]
    assert "5 passed" in r.stdout and verdict(r.stdout).startswith("GameWorld gate: FAIL (pg ")
    assert verdict(r.stdout).endswith(", needs >= 50)")
    gate = json.loads((tmp_path / "out/s/gate.json").read_text())
    assert gate["verdict"] == "FAIL" and gate["checks"][0]["label"] == "pg" and gate["checks"][0]["runs"] == 5
    props = {p.get("name"): p.get("value") for p in ET.parse(tmp_path / "junit.xml").getroot().iter("property")}
    assert props["gameworld_gate"] == "FAIL" and props["gameworld_runs[noop]"] == "5"


def test_oracle_passes_and_a_drop_from_its_baseline_fails_with_the_table(tmp_path):
    ok = run("--gw-model", "oracle", "--gw-gate", "sr>=100", "-k", "2048", "--gw-results", "out",
             "--gw-session", "base", cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout[-3000:]
    assert verdict(ok.stdout) == "GameWorld gate: PASS (sr 100.0 >= 100)"
    now = run("--gw-model", "noop", "-k", "01_01 or 01_02", "--gw-results", "out", "--gw-session", "now",
              "--gw-baseline", "out/base", "--gw-max-drop", "10", cwd=tmp_path)
    assert now.returncode == 1, now.stdout[-3000:]
    assert "2 passed" in now.stdout and "baseline out/base: 2 shared run(s)" in now.stdout
    table = now.stdout[now.stdout.index("baseline out/base"):]
    assert "PG base" in table and "\n-----" in table
    puzzle = next(ln.split() for ln in table.splitlines() if ln.startswith("noop ") and " puzzle " in ln)
    assert puzzle[2:4] == ["2", "100.0"] and float(puzzle[5]) < -90  # tasks, PG base, ΔPG
    assert "pg[overall,noop] dropped" in verdict(now.stdout) and "FAIL" in verdict(now.stdout)
    # the same judgement on the stored sessions, without re-running them
    again = report("out/now", "--baseline", "out/base", "--max-drop", "10", cwd=tmp_path)
    assert again.returncode == 1 and verdict(again.stdout) == verdict(now.stdout)
    side = report("out/base", "out/now", "--format", "csv", cwd=tmp_path)
    assert side.returncode == 0
    overall = {row.split(",")[0]: row.split(",") for row in side.stdout.splitlines() if ",overall," in row}
    assert overall["base"][5:7] == ["100.0", "100.0"] and overall["now"][5] == "0.0"
    as_json = json.loads(report("out/now", "--format", "json", "--gate", "pg>=0", cwd=tmp_path).stdout)
    assert as_json[0]["models"][0]["runs"] == 2 and as_json[0]["gate"]["verdict"] == "PASS"
    # Markdown and nothing else: the tables, the notes and the verdict as a list; the catalog's separation
    # figures (not a report of this session) on stderr
    md = report("out/now", "--baseline", "out/base", "--max-drop", "10", "--format", "md", cwd=tmp_path)
    assert md.returncode == 1
    assert [ln for ln in md.stdout.splitlines() if ln and not re.match(r"(\|.*\|$|- |  - )", ln)] == []
    assert "\n\n| model | genre | tasks | PG base |" in md.stdout and "\n- GameWorld gate: FAIL (pg\\[overall" in md.stdout
    assert "separation" not in md.stdout and "separation over 2 task(s)" in md.stderr


def test_a_missing_run_fails_the_gate_until_lf_scores_it_in_the_same_session(tmp_path):
    write_failing_conftest(tmp_path, "13_02")
    base = [sys.executable, "-m", "pytest", "-q", "--gw-model", "noop", "-k", "13_01 or 13_02", "--gw-max-steps",
            "3", "--gw-results", "out", "--gw-gate", "pg>=0"]
    r1 = subprocess.run(base + ["--gw-session", "a"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r1.returncode == 1, r1.stdout[-3000:]
    assert verdict(r1.stdout) == "GameWorld gate: FAIL (1 missing run(s) > 0 allowed: runner/13-flappy-bird/13_02[noop])"
    assert report("out/a", "--gate", "pg>=0", cwd=tmp_path).returncode == 1
    assert report("out/a", "--gate", "pg>=0", "--allow-missing", "1", cwd=tmp_path).returncode == 0
    write_failing_conftest(tmp_path, "none")
    r2 = subprocess.run(base + ["--lf"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r2.returncode == 0, r2.stdout[-3000:]
    assert f"1 passed, {len(load_catalog().tasks) - 1} deselected" in r2.stdout  # only the run that did not finish
    assert verdict(r2.stdout) == "GameWorld gate: PASS (pg 0.0 >= 0)"
    summary = r2.stdout[r2.stdout.index("GameWorld summary"):]
    assert "missing runs" not in summary and _cells(summary.splitlines()[3])[4] == "2"  # the whole session
    records = lines(tmp_path / "out/a/results.jsonl")
    assert [(r["task"], r["status"]) for r in records][-1] == ("13_02", "ok") and len(records) == 3
    attempts = sorted(p.name for p in (tmp_path / "out/a/runs/runner/13-flappy-bird/13_02/noop").iterdir())
    assert attempts == ["attempt-1", "attempt-2"]
    # The exit status follows the gate: a missing run it allows does not fail the session on its own.
    write_failing_conftest(tmp_path, "13_02")
    tolerated = subprocess.run(base + ["--gw-session", "b", "--gw-gate-allow-missing", "1"], cwd=tmp_path,
                               capture_output=True, text=True, timeout=600)
    assert tolerated.returncode == 0, tolerated.stdout[-3000:]
    assert "1 failed, 1 passed" in tolerated.stdout
    assert verdict(tolerated.stdout) == "GameWorld gate: PASS (pg 0.0 >= 0; 1 missing run(s) <= 1 allowed)"


def _cells(row: str) -> list[str]:
    return re.split(r"\s{2,}", row.strip())


def _table(out: str) -> list[list[str]]:
    """The summary table without its timing columns: model, genres, overall, IAR, runs."""
    rows = out[out.index("GameWorld summary"):].splitlines()[1:4]
    return [_cells(r)[:5] for r in rows]


def test_resume_after_sigint_plays_only_unfinished_runs_and_matches_an_uninterrupted_session(tmp_path):
    args = ["--gw-model", "noop", "-k", "2048", "--gw-max-steps", "40", "--gw-results", "out", "--gw-seed", "3"]
    proc = subprocess.Popen(pytest_cmd(*args, "--gw-session", "cut"), cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    results = tmp_path / "out/cut/results.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (results.exists() and len(results.read_text().splitlines()) >= 2):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=120)
    before = lines(results)
    scored = {r["task"] for r in before if r["status"] == "ok"}
    assert 2 <= len(scored) < 5, before
    r = run(*args, "--gw-resume", cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-3000:]
    assert f"{5 - len(scored)} passed, {len(scored)} skipped" in r.stdout
    skipped = subprocess.run(pytest_cmd(*args, "--gw-resume", "cut", "-rs"), cwd=tmp_path, capture_output=True,
                             text=True, timeout=300)
    assert "SKIPPED [5]" in skipped.stdout and "scored in cut" in skipped.stdout
    after = lines(results)
    assert sorted(r["task"] for r in after if r["status"] == "ok") == [f"01_0{i}" for i in range(1, 6)]
    assert {r["task"] for r in after[len(before):]} == {f"01_0{i}" for i in range(1, 6)} - scored
    whole = run(*args, "--gw-session", "whole", cwd=tmp_path)
    assert whole.returncode == 0 and _table(r.stdout) == _table(whole.stdout)
    assert _table(r.stdout)[2][4] == "5"  # runs: the whole session


def test_two_concurrent_sessions_into_one_name_keep_every_run_apart(tmp_path):
    """Two processes playing into one session name: distinct attempt folders, every record, each run counted once.

    Not a test of the file locks (appends this small are whole without them): tests/unit/test_record_files.py
    holds a line half-written under the lock and shows a read and an append wait for it.
    """
    args = pytest_cmd("--gw-model", "noop", "-k", "01_01", "--gw-max-steps", "5", "--gw-repeat", "3",
                      "--gw-results", "out", "--gw-session", "shared")
    procs = [subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=600)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs[0][-2000:] + outs[1][-2000:]
    records = lines(tmp_path / "out/shared/results.jsonl")
    assert len(records) == 6 and sorted(r["repeat"] for r in records) == [0, 0, 1, 1, 2, 2]
    assert len({r["trajectory"] for r in records}) == 6
    for rec in records:
        steps = lines(tmp_path / "out/shared" / rec["trajectory"])
        assert [s["event"] for s in steps] == ["start"] + ["step"] * 5 + ["end"]
        assert steps[0]["repeat"] == rec["repeat"]
    summary = report("out/shared", "--format", "json", cwd=tmp_path)
    assert json.loads(summary.stdout)[0]["models"][0]["runs"] == 3  # each run counted once


@pytest.mark.parametrize("flag", ["--collect-only", "--markers", "--fixtures", "--help"])
def test_showing_something_leaves_reports_untouched(tmp_path, flag):
    (tmp_path / "reports/old").mkdir(parents=True)
    (tmp_path / "reports/latest").symlink_to("old")
    r = run("--gw-model", "noop", "--gw-gate", "pg>=1", flag, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == ["latest", "old"]
    assert os.readlink(tmp_path / "reports/latest") == "old" and not any((tmp_path / "reports/old").iterdir())


def test_a_model_alone_selects_the_benchmark_not_the_projects_tests(tmp_path):
    here = run("--gw-model", "noop", "--collect-only", "-k", "01_01", cwd=REPO)
    assert here.returncode == 0, here.stdout[-2000:]
    assert "puzzle/01-2048/01_01[noop]" in here.stdout and "tests/" not in here.stdout
    named = run("--gw-model", "noop", "--collect-only", "tests/unit/test_gate.py", "-k", "01_01 or verdict",
                cwd=REPO)
    assert "test_verdict_folds_thresholds_missing_and_baseline" in named.stdout
    (tmp_path / "test_own.py").write_text("def test_own():\n    pass\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\ngw_model = oracle\n")
    ini = run("--collect-only", "-k", "19_01", cwd=tmp_path)
    assert "puzzle/19-minesweeper/19_01[oracle]" in ini.stdout and "test_own" not in ini.stdout
    env = run("--collect-only", "-k", "19_01", cwd=tmp_path, env={"GW_MODEL": "noop"})
    assert "puzzle/19-minesweeper/19_01[noop]" in env.stdout
    (tmp_path / "pytest.ini").unlink()
    bare = run("--gw-rt", "-k", "platformer", cwd=tmp_path)
    assert bare.returncode == 4
    assert [ln for ln in (bare.stdout + bare.stderr).splitlines() if ln.startswith("ERROR")] == [
        "ERROR: no model to benchmark: name one with --gw-model NAME, gw_model = NAME in the ini file, "
        "or the GW_MODEL environment variable"]
