"""An xdist worker killed with -9: pytest's exit status, the summary, the records, the gate and `gameworld report`
agree on every run, and a run killed mid-play is labelled by what its attempt folder holds.

The kills are real: the worker process sends itself SIGKILL, once right after a run wrote its record (before its
report reached the controller), once in the middle of a run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("xdist")

KILL_AT = 9  # the step of 01_02 at which its worker dies (9 steps played)

# The agent: the built-in random one, whose worker kills itself in 01_02 once 9 steps are written.
_CONFTEST = '''
import os
import signal
import time
from pathlib import Path

import pytest

from pytest_gameworld.agents import make_agent

KILL_AT = {kill_at}


def once(name):
    flag = Path(os.environ["GW_TEST_MARKS"]) / name
    if flag.exists():
        return False
    flag.touch()
    return True


def steps_written(task):
    return sum(p.read_text().count('"event": "step"') for p in Path("out").glob(f"s/runs/*/*/{{task}}/*/attempt-*/steps.jsonl"))


class Killing:
    def __init__(self, inner, task):
        self.inner, self.task = inner, task
        self.interface, self.needs_pixels = inner.interface, inner.needs_pixels

    async def begin(self, ctx):
        await self.inner.begin(ctx)

    async def act(self, obs):
        if self.task == "01_02" and obs.step == KILL_AT and once("mid-play"):
            deadline = time.monotonic() + 10  # the trajectory's writer thread has the last lines: let it finish
            while steps_written(self.task) < KILL_AT and time.monotonic() < deadline:
                time.sleep(0.01)
            os.kill(os.getpid(), signal.SIGKILL)
        return await self.inner.act(obs)

    async def close(self):
        await self.inner.close()


@pytest.fixture
def gw_agent(gw_case):
    return Killing(make_agent(gw_case.model), gw_case.task.id)
'''

# A plugin (-p), so its hook wraps the packaged benchmark items too: the worker dies after 01_01 wrote its record,
# before the call report is made.
_PLUGIN = '''
import os
import signal

import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    flag = os.path.join(os.environ["GW_TEST_MARKS"], "after-record")
    if "01_01" in item.nodeid and not os.path.exists(flag):
        open(flag, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return result
'''


def _run(proj: Path, *args: str) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "GW_TEST_MARKS": str(proj)}
    return subprocess.run([sys.executable, *args], cwd=proj, env=env, capture_output=True, text=True, timeout=900)


def _pytest(proj: Path, *args: str) -> subprocess.CompletedProcess:
    return _run(proj, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "-p", "crash_plugin",
                "--gw-model", "random", "-k", "01_01 or 01_02 or 01_03 or 01_04", "--gw-max-steps", "12",
                "--gw-results=out", "--gw-session", "s", "-n", "2", *args)


def test_exit_status_summary_records_and_gate_agree_after_workers_are_killed(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "conftest.py").write_text(_CONFTEST.format(kill_at=KILL_AT))
    (proj / "crash_plugin.py").write_text(_PLUGIN)
    r = _pytest(proj, "--gw-gate", "pg>=0", "--gw-gate-allow-missing", "1")
    out = r.stdout
    assert (proj / "after-record").exists() and (proj / "mid-play").exists(), out[-3000:]  # both workers died
    records = {x["task"]: x for x in map(json.loads, (proj / "out/s/results.jsonl").read_text().splitlines())}
    assert records["01_01"]["status"] == "ok" and records["01_03"]["status"] == "ok", records
    crashed = records["01_02"]
    assert crashed["status"] == "interrupted" and crashed["steps"] == KILL_AT, crashed
    assert crashed["error"].startswith(f"interrupted after {KILL_AT} step(s) (worker 'gw") and "crashed" in crashed["error"]
    # 01_01 was scored before its worker died: it passes; 01_02 is the one missing run, and the gate allows one.
    assert "1 failed, 3 passed" in out and "FAILED puzzle/01-2048/01_01" not in out, out[-3000:]
    assert "missing runs (not scored, re-run with --lf): 1" in out, out[-3000:]
    assert f"puzzle/01-2048/01_02[random]: interrupted after {KILL_AT} step(s) (worker 'gw" in out
    assert "never started" not in out
    gate = json.loads((proj / "out/s/gate.json").read_text())
    # before: PASS, yet exit status 1
    assert gate["verdict"] == "PASS" and gate["missing"]["count"] == 1 and r.returncode == 0, (gate, out[-3000:])
    # The same session judged again from its files: the same one missing run.
    rep = _run(proj, "-m", "pytest_gameworld.cli", "report", "out/s", "--gate", "pg>=0")
    assert rep.returncode == 1 and "FAIL (1 missing run(s) > 0 allowed: puzzle/01-2048/01_02[random])" in rep.stdout, \
        rep.stdout[-2000:] + rep.stderr[-2000:]
    # Resuming the session plays the interrupted run again, and only it.
    again = _pytest(proj, "--gw-resume", "s", "--gw-gate", "pg>=0")
    assert again.returncode == 0 and "1 passed" in again.stdout, again.stdout[-3000:]
