"""A session whose results cannot be written stops at the first failed write: one line naming the path and errno,
before more model calls are spent, and what was written is read back and resumed once there is room.

The disk is real: a 2 MiB tmpfs mounted for the test (root only), filled by the agent itself at a chosen step.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_gameworld.play.runner import WRITE_LAG_STEPS
from pytest_gameworld.records.sessions import read_session

FILL_AT = 3  # the step at which the agent fills the disk
STEPS = 20

# The built-in random agent, logging each call it is asked for (outside the disk) and filling the disk at FILL_AT.
_CONFTEST = '''
import os
from pathlib import Path

import pytest

from pytest_gameworld.agents import make_agent

DISK, LOG = Path(os.environ["GW_TEST_DISK"]), Path(os.environ["GW_TEST_LOG"])
FILL_AT = int(os.environ["GW_TEST_FILL_AT"])


def fill(path):
    """Write until the disk refuses even one byte more."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    os.write(fd, b"\\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)


class Filling:
    def __init__(self, inner, item):
        self.inner, self.item = inner, item
        self.interface, self.needs_pixels = inner.interface, inner.needs_pixels

    async def begin(self, ctx):
        await self.inner.begin(ctx)

    async def act(self, obs):
        with LOG.open("a") as fh:
            fh.write(self.item + "\\n")
        if obs.step == FILL_AT and not LOG.with_name("filled").exists():  # once per test
            LOG.with_name("filled").touch()
            fill(DISK / "ballast")
        return await self.inner.act(obs)

    async def close(self):
        await self.inner.close()


@pytest.fixture
def gw_agent(gw_case):
    return Filling(make_agent(gw_case.model), gw_case.task.id)
'''


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs, unmounted after the test."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"a real full disk needs a tmpfs mount, which is not permitted here: {r.stderr.strip()}")
    try:
        yield mnt
    finally:
        if subprocess.run(["umount", str(mnt)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def _pytest(proj: Path, disk: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GW_TEST_DISK": str(disk), "GW_TEST_LOG": str(proj / "calls.log"),
           "GW_TEST_FILL_AT": str(FILL_AT)}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider",
                           "--gw-model", "random", "-k", "01_01 or 01_02 or 01_03", "--gw-max-steps", str(STEPS),
                           f"--gw-results={disk / 'r'}", "--gw-session", "s", *args],
                          cwd=proj, env=env, capture_output=True, text=True, timeout=900)


def _calls(proj: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in (proj / "calls.log").read_text().split():
        out[line] = out.get(line, 0) + 1
    return out


def _check_stopped(r: subprocess.CompletedProcess, disk: Path) -> None:
    out = r.stdout + r.stderr
    assert r.returncode == 2, out[-3000:]  # stopped (interrupted by the harness), not played to the end
    assert "Traceback" not in out and "INTERNALERROR" not in out, out[-3000:]
    stop = [ln for ln in r.stdout.splitlines() if ln.startswith("!") and "Interrupted" in ln]
    assert len(stop) == 1 and f"cannot write {disk}/r/s/" in stop[0] and "[Errno 28 ENOSPC]" in stop[0], stop
    session = disk / "r" / "s"
    for name in ("index.html", "report.html"):  # whole or absent, never begun and cut short
        assert not (session / name).exists() or (session / name).stat().st_size > 1000, name
    assert "Generated html report" not in r.stdout or (session / "report.html").exists()


def test_a_full_disk_stops_the_session_at_its_first_failed_write_and_it_resumes_once_freed(tmp_path, disk):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "conftest.py").write_text(_CONFTEST)
    r = _pytest(proj, disk)
    _check_stopped(r, disk)
    calls = _calls(proj)
    # Before: every run asked its agent for all 20 steps while nothing was kept. Now the run stops at most
    # WRITE_LAG_STEPS steps after its first write that failed: the lines appended after the disk filled still fit
    # in the file's last allocated page (tmpfs allocates by page), so that write comes a few steps after FILL_AT.
    (traj,) = (disk / "r" / "s" / "runs").rglob("steps.jsonl")
    kept = sum(1 for ln in traj.read_bytes().split(b"\n") if ln.startswith(b'{"event":"step"') or b'"event": "step"' in ln)
    assert FILL_AT <= kept < STEPS - WRITE_LAG_STEPS - 1, kept
    assert calls.get("01_01", 0) <= kept + WRITE_LAG_STEPS + 1 and "01_02" not in calls and "01_03" not in calls, (calls, kept)
    assert "not written: cannot write" in r.stdout, r.stdout[-3000:]  # the pages, named in the summary
    read = read_session(disk / "r" / "s")
    assert not any(r.scored for r in read.records), "nothing is scored from a cut trajectory"
    (disk / "ballast").unlink()  # room again: the same session continues, nothing edited by hand
    (proj / "calls.log").unlink()
    again = _pytest(proj, disk, "--gw-resume", "s", "--gw-gate", "pg>=0")
    assert again.returncode == 0 and "3 passed" in again.stdout, again.stdout[-3000:]
    assert set(_calls(proj)) == {"01_01", "01_02", "01_03"}
    read = read_session(disk / "r" / "s")
    assert not read.damaged and sorted(r.task for r in read.records if r.scored) == \
        ["01_01", "01_02", "01_03"]
    gate = json.loads((disk / "r" / "s" / "gate.json").read_text())
    assert gate["verdict"] == "PASS" and gate["missing"]["count"] == 0, gate


def test_under_xdist_no_worker_plays_on_after_the_disk_is_full(tmp_path, disk):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "conftest.py").write_text(_CONFTEST)
    r = _pytest(proj, disk, "-n", "2")
    _check_stopped(r, disk)
    calls = _calls(proj)
    assert all(n < STEPS for n in calls.values()) and len(calls) <= 2, calls  # two runs at most were in flight


def test_a_results_folder_that_cannot_be_made_is_one_line_before_any_run(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "random",
                        "-k", "01_01", "--gw-max-steps", "2", "--gw-results=/proc/gw"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    lines = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
    assert r.returncode == 4 and len(lines) == 1, lines[-20:]  # before: a 44-line INTERNALERROR
    assert lines[0].startswith("ERROR: cannot write /proc/gw") and "[Errno 2 ENOENT]" in lines[0], lines
