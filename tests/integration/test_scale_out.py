"""Remote browsers (real `playwright run-server` processes on loopback), shards and `gameworld merge`, end to end."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_gameworld.browser.faults import HarnessError
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.host import BrowserHost
from pytest_gameworld.browser.launch import find_browser
from pytest_gameworld.browser.remote import BrowserUnreachable
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.plugin.options import Settings

SELECT = ["-k", "01_01 or 19_01", "--gw-repeat", "2", "--gw-max-steps", "3", "--gw-model", "random"]


def _chromium() -> str | None:
    """A Chromium to hand to the browser server: the system's, else Playwright's own (what ./gw installs)."""
    found = find_browser(None)
    if found:
        return found
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        own = pw.chromium.executable_path
    return own if Path(own).is_file() else None


CHROMIUM = _chromium()
# Without any Chromium this skips; under CI that fails the run (conftest.py: no skip CI does not expect).
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium to hand to the browser server")


class BrowserServer:
    """A `playwright run-server` on 127.0.0.1 (its own process group, so a kill takes its browsers too)."""

    def __init__(self, port: int = 0) -> None:
        env = {**os.environ, "DEBUG": "pw:server"}
        self.proc = subprocess.Popen([sys.executable, "-m", "playwright", "run-server", "--host", "127.0.0.1",
                                      "--port", str(port), "--unsafe"], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
        line = self.proc.stdout.readline()
        match = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
        assert match, f"run-server did not start: {line!r}"
        self.port = int(match.group(1))
        self.endpoint = f"ws://127.0.0.1:{self.port}/"

    def kill(self) -> str:
        """Kill the server and its browsers; return what it logged."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        _, err = self.proc.communicate(timeout=30)
        return err


@pytest.fixture
def servers() -> Iterator[list[BrowserServer]]:
    started: list[BrowserServer] = []
    yield started
    for s in started:
        s.kill()


def pytest_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def runs(session: Path) -> dict[str, tuple[Any, ...]]:
    """Each run's outcome, and the score it saw at every step."""
    out = {}
    for line in (session / "results.jsonl").read_text().splitlines():
        r = json.loads(line)
        steps = [json.loads(s) for s in (session / r["trajectory"]).read_text().splitlines()] if r.get(
            "trajectory") and (session / r["trajectory"]).is_file() else []
        out[r["item"]] = (r["status"], r["seed"], r["steps"], r["score_best"], r["success"],
                          [s.get("score") for s in steps])
    return out


@pytest.fixture(scope="module")
def local_session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The unsharded, local-browser session every other way of playing must reproduce."""
    cwd = tmp_path_factory.mktemp("local")
    r = pytest_run(*SELECT, "--gw-results", "out", "--gw-session", "local", cwd=cwd)
    assert r.returncode == 0, r.stdout[-3000:]
    return cwd / "out" / "local"


@needs_chromium
def test_a_session_on_two_browser_servers_equals_a_local_one(tmp_path, servers, local_session):
    servers += [BrowserServer(), BrowserServer()]
    args = [f"--gw-browser-endpoint={s.endpoint}" for s in servers]
    r = pytest_run(*SELECT, *args, "--gw-browser-path=" + CHROMIUM, "-n", "2", "--gw-results", "out",
                   "--gw-session", "remote", cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    remote = runs(tmp_path / "out" / "remote")
    assert len(remote) == 4 and remote == runs(local_session)
    logs = [s.kill() for s in servers]
    assert all("Connected client" in log and 'launch mode for "chromium"' in log for log in logs), \
        "each worker used its own server"


@needs_chromium
@pytest.mark.asyncio(loop_scope="session")
async def test_a_killed_server_errors_the_run_in_flight_and_the_next_run_reconnects(servers):
    from playwright.async_api import async_playwright

    catalog = load_catalog()
    files = GameFiles(catalog.root / "games")
    first = BrowserServer()
    servers.append(first)
    settings = Settings(browser_endpoints=[first.endpoint], browser_path=CHROMIUM)
    async with async_playwright() as pw:
        host = BrowserHost(pw, settings, "gw0")
        session = await host.open(files, catalog.games["01-2048"], seed=3)
        await session.init({"seed": 3, "level": 1})
        first.kill()
        with pytest.raises(HarnessError, match="01-2048"):
            await session.state()  # the run in flight errors (a HarnessError: recorded, not scored)
        await session.close()
        servers.append(BrowserServer(first.port))  # the same endpoint comes back
        again = await host.open(files, catalog.games["01-2048"], seed=3)
        state = await again.init({"seed": 3, "level": 1})
        assert state["status"] == "playing"
        await again.close()
        servers[-1].kill()
        await host.close()  # drop the browser: the next get() connects anew
        with pytest.raises(BrowserUnreachable, match=f"browser endpoint {first.endpoint} unreachable"):
            await host.get()


def test_a_gone_endpoint_stops_the_session_after_one_run_with_one_line(tmp_path):
    gone = BrowserServer()
    endpoint = gone.endpoint
    gone.kill()
    r = pytest_run(*SELECT, f"--gw-browser-endpoint={endpoint}", "--gw-results", "out", "--gw-session", "s",
                   cwd=tmp_path)
    assert r.returncode != 0
    interrupted = [ln for ln in r.stdout.splitlines() if "Interrupted:" in ln]
    assert len(interrupted) == 1 and f"browser endpoint {endpoint} unreachable" in interrupted[0], r.stdout[-3000:]
    assert "1 failed" in r.stdout and "passed" not in r.stdout
    # the runs it never started are missing too, with why
    assert f"3 planned run(s) not played (the session stopped: browser endpoint {endpoint} unreachable" in r.stdout
    assert "missing runs (not scored, re-run with --lf): 4" in r.stdout


def merge(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "merge", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_four_shards_merged_equal_the_unsharded_session_and_a_missing_shard_fails_the_gate(tmp_path, local_session):
    for k in range(1, 5):
        r = pytest_run(*SELECT, "--gw-shard", f"{k}/4", "--gw-results", "out", "--gw-session", f"s{k}", cwd=tmp_path)
        assert r.returncode == 0 and "1 passed" in r.stdout, r.stdout[-3000:]
    shards = [f"out/s{k}" for k in range(1, 5)]
    m = merge(*shards, "--out", "merged", cwd=tmp_path)
    assert m.returncode == 0, m.stderr
    assert "4 scored run(s), 0 duplicate(s), 0 gap(s)" in m.stdout
    assert runs(tmp_path / "merged") == runs(local_session)
    m3 = merge(shards[0], shards[1], shards[3], "--out", "merged3", cwd=tmp_path)
    assert "1 gap(s)" in m3.stdout and "gap: shard 3/4 was not merged" in m3.stdout
    gate = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "report", "merged3", "--gate", "sr>=0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert gate.returncode == 1 and "GameWorld gate: FAIL (1 missing run(s) > 0 allowed: " in gate.stdout
