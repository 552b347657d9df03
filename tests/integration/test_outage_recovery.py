"""A model team's CI after an outage: a real endpoint (`gameworld serve`) killed mid-session and restarted on the
same port; recovery replays exactly the runs that were not scored, and the gate tells the truth at every stage."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from failing_agent import write_failing_conftest

from pytest_gameworld.endpoint.process import spawn_endpoint

MODEL = "my-org/my-model"
SELECT = ["-k", "01_0"]  # the five 2048 tasks
RUNS = {f"puzzle/01-2048/01_0{i}[my-model]" for i in range(1, 6)}


def spec_file(folder: Path, url: str, price: float = 0.0) -> Path:
    """A model team's own spec, pointed at the loopback server (no key needed)."""
    path = folder / "my-model.yaml"
    path.write_text(f"""name: my-model
interface: generalist
provider: openai-compatible
api: chat
model: {MODEL}
endpoint: {{base_url: "{url}", api_key_required: false}}
timeout_s: 10
step_timeout_s: 20
max_retries: 0
price_per_mtok: {{input: {price}, output: {price}}}
""")
    return path


def pytest_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:randomly", "--gw-model", "my-model.yaml", *SELECT,
            "--gw-max-steps", "2", "--gw-results", "out", "--gw-progress", "off",
            # One run at a time: the breaker is judged run by run (with runs in flight, those already started
            # when it trips are played out: docs/concurrency.md).
            "--gw-concurrency", "1", *args]


def session(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(pytest_argv(*args), cwd=folder, capture_output=True, text=True, timeout=600,
                          env=_env())


def report(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "report", *args], cwd=folder,
                          capture_output=True, text=True, timeout=120)


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}


def records(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "out/s/results.jsonl").read_text().splitlines()]


def verdict(out: str) -> str:
    return [ln for ln in out.splitlines() if ln.startswith("GameWorld gate:")][-1]


def start_server(folder: Path, name: str, port: int = 0):
    return spawn_endpoint("openai", "random", workdir=folder, extra=("--model", MODEL, "--port", str(port)), name=name)


def outage(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess, int]:
    """A session whose endpoint dies once the first run is scored; (its result, the endpoint's port)."""
    server = start_server(folder, "before")
    spec_file(folder, server.url)
    proc = subprocess.Popen(pytest_argv(*args), cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env())
    results = folder / "out/s/results.jsonl"
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and not (results.exists() and '"status": "ok"' in results.read_text()):
            time.sleep(0.05)
    finally:
        server.stop()
    out, err = proc.communicate(timeout=600)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), urlsplit(server.url).port or 0


@pytest.mark.parametrize("recover", [["--lf"], ["--gw-resume", "s"]], ids=["lf", "resume"])
def test_an_outage_trips_the_breaker_fails_the_gate_and_recovery_replays_exactly_the_unscored_runs(tmp_path, recover):
    first, port = outage(tmp_path, "--gw-session", "s", "--gw-max-consecutive-faults", "2", "--gw-gate", "pg>=0")
    out = first.stdout
    before = records(tmp_path)
    scored = {r["item"] for r in before if r["status"] == "ok"}
    faulted = [r["item"] for r in before if r["status"] == "error"]
    held = [r["item"] for r in before if r["status"] == "not_played"]
    assert first.returncode == 1, out[-3000:]
    assert 1 <= len(scored) <= 3 and len(faulted) == 2 and len(held) == 5 - len(scored) - 2, before
    assert all("cannot connect" in r["error"] for r in before if r["status"] == "error")
    breaker = [ln for ln in out.splitlines() if ln.startswith("circuit breaker: my-model failed 2 runs in a row")]
    assert breaker and breaker[0].endswith(f"; {len(held)} remaining run(s) not played"), out[-3000:]
    assert f"{len(held)} planned run(s) not played (circuit breaker)" in out
    line = verdict(out)
    assert line.startswith(f"GameWorld gate: FAIL ({len(faulted) + len(held)} missing run(s) > 0 allowed: ")
    assert all(item in line for item in faulted + held) and not any(item in line for item in scored)
    stored = report(tmp_path, "out/s", "--gate", "pg>=0")
    assert stored.returncode == 1 and verdict(stored.stdout) == line, stored.stdout + stored.stderr

    restarted = start_server(tmp_path, "after", port)
    try:
        second = session(tmp_path, *recover, "--gw-gate", "pg>=0", "--gw-max-consecutive-faults", "2")
    finally:
        restarted.stop()
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-2000:]
    assert verdict(second.stdout).startswith("GameWorld gate: PASS (pg ")
    replayed = [r["item"] for r in records(tmp_path)[len(before):]]
    assert sorted(replayed) == sorted(faulted + held), "exactly the runs that were not scored, each once"
    assert "circuit breaker" not in second.stdout and "missing runs" not in second.stdout
    after = {r["item"] for r in records(tmp_path) if r["status"] == "ok"}
    assert after == RUNS
    assert report(tmp_path, "out/s", "--gate", "pg>=0").returncode == 0


def test_a_cost_limit_fails_the_gate_naming_the_runs_it_did_not_play(serve, tmp_path):
    server = serve("openai", extra=("--model", MODEL))
    spec_file(tmp_path, server.url, price=1000.0)  # the first reply alone is over the limit
    r = session(tmp_path, "--gw-session", "s", "--gw-max-cost", "0.01", "--gw-gate", "pg>=0")
    out = r.stdout
    assert r.returncode == 1, out[-3000:]
    played = [x for x in records(tmp_path) if x["status"] == "ok"]
    held = [x["item"] for x in records(tmp_path) if x["status"] == "not_played"]
    assert len(played) == 1 and played[0]["cost_usd"] > 0.01 and len(held) == 4
    assert "4 planned run(s) not played (--gw-max-cost reached)" in out
    assert "1 passed, 165 deselected, 4 errors" in out and "NOT PLAYED puzzle/01-2048/01_05[my-model] - " in out
    line = verdict(out)
    assert line == f"GameWorld gate: FAIL (4 missing run(s) > 0 allowed: {', '.join(sorted(held))})"
    stored = report(tmp_path, "out/s", "--gate", "pg>=0")
    assert stored.returncode == 1 and verdict(stored.stdout) == line
    assert "4 planned run(s) not played (--gw-max-cost reached)" in stored.stdout
    allowed = report(tmp_path, "out/s", "--gate", "pg>=0", "--allow-missing", "4")
    assert allowed.returncode == 0 and verdict(allowed.stdout).startswith("GameWorld gate: PASS")


def test_an_interrupt_records_where_the_run_stopped_lists_the_unstarted_and_lf_plays_them(tmp_path):
    """pytest's last-failed list knows only 01_01 (a fault); --lf must also play the interrupted and unstarted runs."""
    write_failing_conftest(tmp_path, "01_01")
    args = [sys.executable, "-m", "pytest", "-p", "no:randomly", "--gw-model", "noop", *SELECT, "--gw-max-steps", "60",
            "--gw-results", "out", "--gw-session", "s", "--gw-progress", "off"]
    proc = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    third = tmp_path / "out/s/runs/puzzle/01-2048/01_03/noop/attempt-1/steps.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (third.exists() and third.read_text().count("\n") >= 4):
        time.sleep(0.02)  # the third run is a few steps in
    proc.send_signal(signal.SIGINT)
    out = proc.communicate(timeout=120)[0]
    before = records(tmp_path)
    assert [(r["task"], r["status"]) for r in before] == [("01_01", "error"), ("01_02", "ok"),
                                                          ("01_03", "interrupted")], before
    where = re.fullmatch(r"interrupted by the user during step (\d+) of 60 \((\d+) completed\)", before[2]["error"])
    assert where and int(where[1]) == int(where[2]) + 1 == before[2]["steps"] + 1, before[2]
    assert "2 planned run(s) not played (the session was interrupted)" in out, out[-3000:]
    assert "missing runs (not scored, re-run with --lf): 4" in out
    write_failing_conftest(tmp_path, "none")
    again = subprocess.run(args + ["--lf"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout[-3000:]
    assert sorted(r["task"] for r in records(tmp_path)[len(before):]) == ["01_01", "01_03", "01_04", "01_05"]
    assert "4 passed, 166 deselected" in again.stdout and "missing runs" not in again.stdout
