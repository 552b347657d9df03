"""--gw-tracing: real sessions keep a Playwright trace per run (on) or only for faulted runs
(retain-on-failure), linked from the results page and the run's viewer; the trace starts before the game page
loads, so a page that never loads keeps a trace of its navigation; a tracing call that never answers is bounded."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

from failing_agent import write_failing_conftest
from hostile_pages import build_catalog, game_id, task_id

from pytest_gameworld.plugin.tracing import RunTrace


def _session(folder: Path, name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "random", "-k",
                           "01_01 or 13_01", "--gw-max-steps", "3", "--gw-session", name, "-q", *args],
                          cwd=folder, capture_output=True, text=True, timeout=400)


def _runs(session: Path) -> dict[str, Path]:
    recs = [json.loads(x) for x in (session / "results.jsonl").read_text().splitlines()]
    return {r["task"]: (session / r["trajectory"]).parent for r in recs}


def test_retain_on_failure_keeps_the_faulted_runs_trace_only_and_links_it(tmp_path: Path):
    write_failing_conftest(tmp_path, "13_01")
    r = _session(tmp_path, "s", "--gw-tracing", "retain-on-failure")
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    session = tmp_path / "reports" / "s"
    runs = _runs(session)
    assert not (runs["01_01"] / "trace.zip").exists(), "a scored run keeps no trace under retain-on-failure"
    trace = runs["13_01"] / "trace.zip"
    with zipfile.ZipFile(trace) as z:
        names = z.namelist()
        events = z.read("trace.trace").decode()
    assert "trace.trace" in names and '"type":"context-options"' in events.replace(" ", "")
    assert "frame-snapshot" in events, "DOM snapshots are in the trace"
    viewer = (runs["13_01"] / "viewer.html").read_text()
    assert 'href="trace.zip"' in viewer and 'href="trace.zip"' not in (runs["01_01"] / "viewer.html").read_text()
    page = (session / "index.html").read_text()
    link = (runs["13_01"] / "trace.zip").relative_to(session).as_posix()
    assert page.count("trace.zip") == 1 and f'href="{link}"' in page


def test_on_keeps_every_runs_trace_and_a_bad_mode_is_a_usage_error(tmp_path: Path):
    r = _session(tmp_path, "s", "--gw-tracing", "on")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    runs = _runs(tmp_path / "reports" / "s")
    for task, run_dir in runs.items():
        with zipfile.ZipFile(run_dir / "trace.zip") as z:
            assert "screencast-frame" in z.read("trace.trace").decode(), f"{task}: screenshots are in the trace"
    bad = _session(tmp_path, "t", "--gw-tracing", "always")
    assert bad.returncode == 4 and "--gw-tracing (ini gw_tracing): invalid value 'always'" in bad.stderr


def test_a_tracing_stop_that_never_answers_is_bounded(tmp_path: Path):
    async def never(**_: object) -> None:
        await asyncio.Event().wait()

    context = SimpleNamespace(tracing=SimpleNamespace(stop=never))
    trace = RunTrace("on", 0.2, tmp_path, started=True)
    kept = asyncio.run(asyncio.wait_for(trace.stop(context, False), 10))
    assert kept is None and not (tmp_path / "trace.zip").exists()


def _trace_events(trace: Path) -> list[dict]:
    """The trace's events (one JSON object per line of every *.trace file in the zip)."""
    with zipfile.ZipFile(trace) as z:
        return [json.loads(line) for name in z.namelist() if name.endswith(".trace")
                for line in z.read(name).decode().splitlines() if line.strip()]


def test_a_page_that_never_loads_keeps_a_trace_of_its_navigation(tmp_path: Path):
    build_catalog(tmp_path / "cat", ["load-loop"], keep_source=False)
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "random",
                        "--gw-catalog", "cat", "--gw-page-timeout", "10", "--gw-max-steps", "3", "--gw-session", "s",
                        "--gw-tracing", "retain-on-failure", "-q", "-k", task_id("load-loop")],
                       cwd=tmp_path, capture_output=True, text=True, timeout=400)
    assert r.returncode == 1 and "page unresponsive during load" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    traces = list((tmp_path / "reports" / "s" / "runs").rglob("trace.zip"))
    assert len(traces) == 1, "the run that faulted while loading keeps its trace"
    events = _trace_events(traces[0])
    goto = [e for e in events if e.get("type") == "before" and e.get("method") == "goto"]
    assert goto and game_id("load-loop") in goto[0]["params"]["url"], "the navigation to the game is in the trace"
    assert any(e.get("type") == "log" and e.get("callId") == goto[0]["callId"] and "navigating to" in e["message"]
               for e in events), "the navigation's own log"
    assert not any(e.get("type") == "after" and e.get("callId") == goto[0]["callId"] and not e.get("error")
                   for e in events), "the load never finished"
