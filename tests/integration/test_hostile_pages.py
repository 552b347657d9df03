"""Pages that hang, flood and leak (hostile copies of 01-2048, see hostile_pages.py) cost at most their own run.

Every call into a page is bounded; a page that stops answering faults its run naming what hung, its context
(or, when that hangs too, its browser) is replaced and the next run plays normally; a huge state is refused
naming its size; workers are sealed; no process outlives a session, however it is stopped.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hostile_pages import build_catalog, game_id, task_id
from loopback import Listener
from session_processes import SessionProcesses, alive, stat

from pytest_gameworld.agents import make_agent
from pytest_gameworld.browser.faults import HarnessError, PageUnresponsive
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.host import BrowserHost
from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.runner import RunConfig, play
from pytest_gameworld.plugin.options import Settings

ASYNC = pytest.mark.asyncio(loop_scope="session")
HANGS = {"raf-loop": "advance", "getstate-loop": "getState", "init-never": "init"}
# A page whose gameAPI.init never settles keeps answering the harness's polls: it is given up after the loading
# bound (game time passing under the paused clock), naming the status it is stuck in, not as unresponsive.
NEVER_READY = "gameAPI.init did not settle after 10000 ms of game time"


def expected_error(name: str, what: str, steps: int, bound_s: int) -> str | None:
    """The record's error for a hung page (None: the init-never page, checked by its prefix)."""
    if name == "init-never":
        return None
    # The step in flight, numbered from 1 as the viewer shows it: a run that completed `steps` was in the next.
    return (f"PageUnresponsive: {game_id(name)}: page unresponsive during {what} at step {steps + 1} "
            f"(no answer within {bound_s} s)")
PAGE_TIMEOUT_S = 10  # small enough to keep hung runs short, large enough for a loaded machine
GUARD_S = 180


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    root = tmp_path_factory.mktemp("hostile") / "catalog"
    return load_catalog(build_catalog(root, [*HANGS, "huge-state", "load-loop"]))


async def play_on(host: BrowserHost, catalog: Catalog, game: str, run_dir: Path) -> Any:
    """Play the game's 01 task (3 random steps) on the host's browser; the record, or the fault raised."""
    task = next(t for t in catalog.tasks if t.game == game)
    spec = catalog.resolve_model("random")
    cfg = RunConfig(item_id=f"{game}/{task.id}", game=catalog.games[game], task=task, model=spec, seed=5, repeat=0,
                    run_dir=run_dir, results_path=run_dir.parent / "results.jsonl",
                    prompts_dir=catalog.root / "prompts", max_steps=3)
    session = await host.open(GameFiles(catalog.games_dir), catalog.games[game], 5)
    try:
        # A guard far above the page bound: without the bound a hung page would hold this test for good.
        record, _ = await asyncio.wait_for(play(session, make_agent(spec), cfg), GUARD_S)
        return record
    except HarnessError as exc:
        return exc
    finally:
        await host.release(session)


@ASYNC
async def test_a_page_that_stops_answering_faults_its_run_and_the_next_run_plays_normally(hostile, tmp_path):
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        host = BrowserHost(pw, Settings(page_timeout=PAGE_TIMEOUT_S))
        try:
            for name, what in HANGS.items():
                started = time.monotonic()
                fault = await play_on(host, hostile, game_id(name), tmp_path / name)
                assert time.monotonic() - started < 60, "the run ends at the bound, not when the page would"
                record = json.loads((tmp_path / "results.jsonl").read_text().splitlines()[-1])
                assert record["status"] == "error", record
                want = expected_error(name, what, record["steps"], PAGE_TIMEOUT_S)
                if want is None:
                    assert isinstance(fault, HarnessError) and NEVER_READY in str(fault), fault
                    assert "stuck in status 'loading'" in record["error"], record["error"]
                else:
                    # The step it hung in is the first the record does not count (steps.jsonl's numbering).
                    assert isinstance(fault, PageUnresponsive), fault
                    assert record["error"] == want
                after = await play_on(host, hostile, "01-2048", tmp_path / f"{name}-next")
                assert not isinstance(after, Exception) and after.status == "ok" and after.steps == 3, after
        finally:
            await host.close()


@ASYNC
async def test_a_browser_that_stops_answering_is_killed_and_the_next_run_gets_a_new_one(hostile, tmp_path):
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        host = BrowserHost(pw, Settings(page_timeout=PAGE_TIMEOUT_S))
        try:
            session = await host.open(GameFiles(hostile.games_dir), hostile.games["01-2048"], 5)
            await session.init({"seed": 5})
            stopped = set(host.groups)
            assert len(stopped) == 1
            for group in stopped:
                os.killpg(group, signal.SIGSTOP)  # the whole browser: no call into it returns
            with pytest.raises(PageUnresponsive, match="during getState"):
                await asyncio.wait_for(session.state(), GUARD_S)
            await host.release(session)  # closing the context hangs too: the browser is killed
            assert _wait_group_gone(next(iter(stopped))), "the stopped browser was killed"
            after = await play_on(host, hostile, "01-2048", tmp_path / "next")
            assert not isinstance(after, Exception) and after.status == "ok", after
            assert host.groups and host.groups != stopped
        finally:
            await host.close()


@ASYNC
async def test_only_a_browser_that_is_gone_is_renewed(hostile, tmp_path):
    """A browser closed mid-session, or one that stopped answering, is replaced for the next run; a game that
    will not open is not retried on a fresh browser."""
    from playwright.async_api import async_playwright

    files = GameFiles(hostile.games_dir)
    async with async_playwright() as pw:
        host = BrowserHost(pw, Settings(page_timeout=PAGE_TIMEOUT_S))
        try:
            session = await host.open(files, hostile.games["01-2048"], 5)
            await session.init({"seed": 5})
            first = host.browser
            await first.close()  # gone mid-run, as after a crash
            with pytest.raises(HarnessError, match="01-2048"):
                await session.state()
            await host.release(session)
            after = await play_on(host, hostile, "01-2048", tmp_path / "after")
            assert not isinstance(after, Exception) and after.status == "ok", after
            second = host.browser
            assert second is not first and second.is_connected()
            # A browser that stopped answering still looks connected: opening the next game finds it gone.
            stopped = next(iter(host.groups))
            os.killpg(stopped, signal.SIGSTOP)
            again = await host.open(files, hostile.games["01-2048"], 5)
            assert host.browser is not second and (await again.init({"seed": 5}))["status"] == "playing"
            await host.release(again)
            assert _wait_group_gone(stopped), "the browser that stopped answering was killed"
            third = host.browser
            with pytest.raises(PageUnresponsive, match=f"{game_id('load-loop')}: page unresponsive during load"):
                await host.open(files, hostile.games[game_id("load-loop")], 5)
            assert host.browser is third, "the game's own fault: its browser is kept"
        finally:
            await host.close()


def _wait_group_gone(group: int, timeout_s: float = 30.0) -> bool:
    """Wait until no live process is left in a process group (the kernel takes a moment to end them)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        members = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()
                   and (f := stat(int(p.name))) and int(f[2]) == group]
        if not any(alive(p) for p in members):
            return True
        time.sleep(0.2)
    return False


@ASYNC
async def test_a_huge_state_faults_its_run_naming_its_size(hostile, tmp_path):
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        host = BrowserHost(pw, Settings(max_state_bytes=1_000_000))
        try:
            fault = await play_on(host, hostile, game_id("huge-state"), tmp_path / "huge")
            normal = await play_on(host, hostile, "01-2048", tmp_path / "normal")
        finally:
            await host.close()
    assert isinstance(fault, HarnessError) and not isinstance(fault, PageUnresponsive)
    size = int(str(fault).split("returned ")[1].split(" bytes")[0])
    assert size > 10 * 1024 * 1024 and "more than the bound of 1000000 (--gw-max-state-bytes)" in str(fault)
    assert normal.status == "ok"
    steps = (tmp_path / "normal" / "steps.jsonl").read_text().splitlines()
    assert all(len(line) < 1_000_000 for line in steps), "each stored state summary is within the bound"


def pytest_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", *args]


def test_hanging_pages_and_a_worker_websocket_end_a_parallel_session_by_themselves(tmp_path):
    """The acceptance session: three hanging pages and a worker's WebSocket, -n 2, one error record each."""
    listener = Listener()
    procs = SessionProcesses()
    try:
        tcp, _ = listener.ports
        build_catalog(tmp_path / "cat", [*HANGS, "workers"], port=tcp)
        r = subprocess.run(pytest_cmd("--gw-model", "random", "--gw-catalog", "cat", "--gw-page-timeout", "10",
                                      "--gw-max-steps", "3", "-n", "2", "--gw-results", "out", "--gw-session", "s"),
                           cwd=tmp_path, capture_output=True, text=True, timeout=900, env=procs.env())
        records = {json.loads(x)["task"]: json.loads(x) for x in
                   (tmp_path / "out/s/results.jsonl").read_text().splitlines()}
        assert r.returncode == 1 and "4 failed, 1 passed" in r.stdout, r.stdout[-3000:]
        for name, what in HANGS.items():
            rec = records[task_id(name)]
            assert rec["status"] == "error", rec
            want = expected_error(name, what, rec["steps"], 10)
            assert (NEVER_READY in rec["error"]) if want is None else rec["error"] == want, rec["error"]
        blocked = records[task_id("workers")]
        assert blocked["status"] == "error" and "tried to reach outside the sandbox" in blocked["error"], blocked
        assert f"localhost:{tcp}" in blocked["error"], blocked["error"]
        assert records["01_01"]["status"] == "ok" and records["01_01"]["steps"] == 3
        time.sleep(0.5)
        assert (bytes(listener.received), listener.connections) == (b"", 0), "nothing reached the listener"
        assert procs.wait_gone(timeout_s=30) == {}, "no process of the session remains"
    finally:
        listener.close()
        procs.kill_all()


@pytest.mark.parametrize("worker_signal, controller_signal", [(signal.SIGTERM, signal.SIGINT),
                                                               (signal.SIGINT, signal.SIGTERM)])
def test_signals_to_a_worker_and_the_controller_leave_no_process_behind(tmp_path, worker_signal, controller_signal):
    build_catalog(tmp_path / "cat", list(HANGS), keep_source=False)
    procs = SessionProcesses()
    controller = subprocess.Popen(
        pytest_cmd("--gw-model", "random", "--gw-catalog", "cat", "--gw-page-timeout", "600", "--gw-max-steps", "3",
                   "-n", "2", "--gw-results", "out", "--gw-session", "s"),
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=procs.env(),
        start_new_session=True)
    try:
        # Two runs in flight, each stuck in a page that no longer answers, a browser per worker.
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not (len(list((tmp_path / "out").rglob("steps.jsonl"))) >= 2
                                                   and len(procs.browsers()) >= 4):
            time.sleep(0.5)
        time.sleep(3)
        workers = sorted(p for p in procs.below(controller.pid)
                         if "python" in procs.find().get(p, "") and p != controller.pid
                         and (f := stat(p)) is not None and int(f[1]) == controller.pid)
        assert len(workers) == 2, procs.find()
        worker = workers[0]
        its_own = procs.below(worker)  # its Playwright driver and browser
        assert any("chrom" in procs.find().get(p, "") for p in its_own), "the worker's browser is running"
        os.kill(worker, worker_signal)
        # The worker stops (xdist keeps its process until the controller lets it go); what it started ends.
        left = procs.wait_gone(its_own, timeout_s=90)
        assert left == {}, f"the worker's driver and browser outlived its stop: {left}"
        if controller.poll() is None:
            os.kill(controller.pid, controller_signal)
        out = controller.communicate(timeout=300)[0]
        assert "INTERNALERROR" not in out, out[-3000:]
        assert procs.wait_gone(timeout_s=60) == {}, "no process of the session remains"
    finally:
        if controller.poll() is None:
            controller.kill()
            controller.communicate()
        procs.kill_all()
