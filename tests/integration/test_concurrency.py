"""Many runs in flight per process (--gw-concurrency) against a real loopback model server that takes its time:
the records are those of one-at-a-time play, the connection limit and the shared back-off hold across runs, a
stop (Ctrl-C, the cost cap) costs only what was in flight, and under xdist no run is played twice."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_gameworld.browser.launch import find_browser
from pytest_gameworld.endpoint.server import EndpointServer, run_in_thread

try:
    CHROMIUM = find_browser(None)
except Exception:  # noqa: BLE001
    CHROMIUM = None
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")

# Four runs of four games, short: enough to have several in flight and to compare them run by run.
SELECT = ["-k", "01_01 or 05_01 or 13_01 or 19_01", "--gw-max-steps", "6"]
MODEL = "qwen3-vl-30b"


def pytest_run(*args: str, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def at(server: EndpointServer, *extra: str, served_as: str = "gameworld-random") -> list[str]:
    """The options that point the model spec at ``server`` (no key, fast retries)."""
    return ["--gw-model", MODEL, f"--gw-model-opt=endpoint.base_url={server.base_url}",
            "--gw-model-opt", "endpoint.api_key_required=false", "--gw-model-opt", "extra.retry_backoff_s=0.05",
            "--gw-model-opt", f"model={served_as}",
            *extra]


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[EndpointServer]:
    """A random-policy model that answers in 250 ms ± 200 ms: replies arrive in a different order every time."""
    server = run_in_thread("openai", "random", seed=3, log=str(tmp_path / "served.jsonl"), latency_ms=250,
                           jitter_ms=200)
    yield server
    server.stop()


def served(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (tmp_path / "served.jsonl").read_text().splitlines() if x.strip()]


VOLATILE = {"base_url", "latency_ms", "queue_ms", "ts", "time", "started", "ended", "elapsed_s", "sec_per_step", "raw"}


def _stable(value: Any) -> Any:
    """A step line without what depends on timing (latencies, clocks, the SDK's response ids)."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE and not k.endswith("_at")}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def session_runs(session: Path) -> dict[str, tuple[Any, ...]]:
    """Per run: its status, score, progress and every step line (timing left out)."""
    out = {}
    for line in (session / "results.jsonl").read_text().splitlines():
        r = json.loads(line)
        steps = [_stable(json.loads(s)) for s in (session / r["trajectory"]).read_text().splitlines()]
        out[r["item"]] = (r["status"], r.get("steps"), r.get("progress"), r.get("success"),
                          [s for s in steps if s.get("event") in ("step", "reset", "end")])
    return out


@needs_chromium
def test_many_runs_in_flight_give_the_records_of_one_at_a_time(tmp_path: Path, slow_server: EndpointServer) -> None:
    one = pytest_run(*SELECT, *at(slow_server), "--gw-concurrency", "1", "--gw-results=out", "--gw-session", "one",
                     cwd=tmp_path)
    assert one.returncode == 0, one.stdout[-3000:] + one.stderr[-2000:]
    alone = max(r.get("in_flight", 0) for r in served(tmp_path))
    # The same model afresh (the random policy answers the n-th request of each conversation alike).
    again = run_in_thread("openai", "random", seed=3, log=str(tmp_path / "served.jsonl"), latency_ms=250,
                          jitter_ms=200)
    try:
        many = pytest_run(*SELECT, *at(again), "--gw-concurrency", "4", "--gw-results=out", "--gw-session",
                          "many", cwd=tmp_path)
    finally:
        again.stop()
    assert many.returncode == 0, many.stdout[-3000:] + many.stderr[-2000:]
    first, second = session_runs(tmp_path / "out" / "one"), session_runs(tmp_path / "out" / "many")
    assert len(first) == 4 and first.keys() == second.keys()
    for item in first:
        assert first[item] == second[item], f"{item} differs between --gw-concurrency 1 and 4"
    assert "4 passed" in many.stdout
    assert alone == 1 and max(r.get("in_flight", 0) for r in served(tmp_path)) >= 2, "runs overlapped"


@needs_chromium
def test_the_connection_limit_holds_across_runs_and_the_wait_is_the_queues(tmp_path: Path,
                                                                             slow_server: EndpointServer) -> None:
    r = pytest_run(*SELECT, *at(slow_server, "--gw-model-opt", "max_connections=1"), "--gw-concurrency", "4",
                   "--gw-results=out", "--gw-session", "s", cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert slow_server.peak_in_flight == 1, "one request at a time, four runs waiting on it"
    queued = [json.loads(s).get("queue_ms", 0) for f in (tmp_path / "out" / "s" / "runs").rglob("steps.jsonl")
              for s in f.read_text().splitlines()]
    assert sum(1 for q in queued if q > 0) >= 2, "the waits for a slot are written down, apart from latency"


@needs_chromium
def test_a_429_slows_every_run_of_the_endpoint(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    # The third request of the session, whichever run sends it, is told to wait 2 s; every other one is answered.
    script.write_text(json.dumps({"entries": [{}, {}, {"status": 429, "retry_after": 2}, {}], "loop": False}))
    server = run_in_thread("openai", f"scripted:{script}", log=str(tmp_path / "served.jsonl"), latency_ms=100)
    try:
        r = pytest_run(*SELECT, *at(server, served_as="gameworld-scripted"), "--gw-concurrency", "4", "--gw-results=out",
                       "--gw-session", "s", cwd=tmp_path)
    finally:
        server.stop()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    log = [x for x in served(tmp_path) if x.get("method") == "POST" and "status" in x]
    hit = next(i for i, x in enumerate(log) if x["status"] == 429)
    arrived = [x["ts"] - x["elapsed_s"] for i, x in enumerate(log) if i != hit]  # when each other request came
    told = log[hit]["ts"]
    # Requests sent before the 429 reached its run are answered (a few ms of transit on a busy machine); none
    # may arrive later in the back-off.
    during = [round(a - told, 3) for a in arrived if told + 0.25 < a < told + 1.8]
    assert not during, f"requests sent during the back-off (s after the 429): {during}"
    assert any(a >= told + 1.8 for a in arrived), "the runs went on after the back-off"


@needs_chromium
def test_ctrl_c_with_many_runs_in_flight_writes_each_down_as_interrupted(tmp_path: Path) -> None:
    server = run_in_thread("openai", "random", log=str(tmp_path / "served.jsonl"), latency_ms=400)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *SELECT[:2],
                                 "--gw-max-steps", "200", *at(server), "--gw-concurrency", "4",
                                 "--gw-results=out", "--gw-session", "s"], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and len(served(tmp_path) if (tmp_path / "served.jsonl").exists() else []) < 12:
            time.sleep(0.5)  # until several runs are well into play
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
    finally:
        server.stop()
    assert proc.returncode == 2, out[-3000:]
    records = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    assert len(records) == 4 and {r["status"] for r in records} == {"interrupted"}, [r["status"] for r in records]
    assert sum(r.get("steps", 0) > 0 for r in records) >= 3, "several were in flight, each kept its steps"


@needs_chromium
def test_the_cost_cap_counts_the_runs_in_flight(tmp_path: Path, slow_server: EndpointServer) -> None:
    # Every reply costs the same (the server's usage at this price): the cap is reached during the first runs.
    priced = ["--gw-model-opt", "price_per_mtok.input=1000", "--gw-model-opt", "price_per_mtok.output=1000"]
    r = pytest_run("-k", "_01", "--gw-max-steps", "3", *at(slow_server, *priced), "--gw-concurrency", "3",
                   "--gw-max-cost", "0.5", "--gw-results=out", "--gw-session", "s", cwd=tmp_path)
    records = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    played = [x for x in records if x["status"] == "ok"]
    held = [x for x in records if x["status"] != "ok"]
    assert r.returncode == 1 and "NOT PLAYED" in r.stdout, r.stdout[-3000:]
    per_run = played[0]["cost_usd"]
    assert per_run > 0 and len(played) <= 3 + int(0.5 // per_run), "no run started once the cap was reached"
    assert held and all("--gw-max-cost" in (x.get("error") or "") for x in held)


@needs_chromium
def test_under_xdist_every_run_is_played_once(tmp_path: Path, slow_server: EndpointServer) -> None:
    r = pytest_run("-k", "_01 and (puzzle or runner)", "--gw-max-steps", "3", *at(slow_server),
                   "--gw-concurrency", "3", "-n", "2", "--dist", "worksteal", "--gw-results=out", "--gw-session", "s",
                   cwd=tmp_path, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    records = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    items = [x["item"] for x in records]
    assert len(items) == len(set(items)) >= 6, "each planned run played exactly once"
    plan = json.loads((tmp_path / "out" / "s" / "plan.json").read_text())
    assert len(plan["runs"]) == len(items)
    assert f"{len(items)} passed" in r.stdout
