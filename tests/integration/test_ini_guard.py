"""A --gw-* value written after a space cannot cost a session its pytest.ini or its conftest.py (issue 37: 1, 11)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CONFTEST = '''
import os
import pytest
from pytest_gameworld.agents import make_agent

@pytest.fixture
def gw_agent(gw_case):
    # The user's own agent: the built-in one, leaving a mark that this fixture played.
    with open(os.path.join(os.path.dirname(__file__), "mine.txt"), "a") as f:
        f.write(gw_case.node_id + "\\n")
    return make_agent(gw_case.model)
'''


def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "pytest.ini").write_text("[pytest]\ngw_gate = pg>=99\ngw_max_steps = 2\n")
    (proj / "conftest.py").write_text(CONFTEST)
    return proj


def run(proj: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GW_BROWSER_PATH"}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
                           "--gw-model", "random", "-k", "01_01", *args], cwd=proj, capture_output=True, text=True,
                          timeout=300, env=env)


def test_an_existing_results_folder_after_a_space_stops_the_session_in_one_line(tmp_path):
    proj, out = project(tmp_path), tmp_path / "x"
    out.mkdir()
    r = run(proj, "--gw-results", str(out))
    errors = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("ERROR")]
    assert r.returncode == 4 and len(errors) == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert f"instead of ini file {proj / 'pytest.ini'}" in errors[0]
    assert errors[0].endswith(f"write --gw-results={out}")
    assert not (proj / "mine.txt").exists() and not list(out.iterdir()), "nothing played"


def test_workers_keep_the_ini_and_the_conftest_once_the_controller_created_the_folder(tmp_path):
    proj, out = project(tmp_path), tmp_path / "x"  # not there yet: the controller finds the ini, then creates it
    r = run(proj, "--gw-results", str(out), "--gw-repeat", "2", "-n", "2")
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]  # the ini's gate (pg>=99) judged and failed
    assert "GameWorld gate: FAIL" in r.stdout and "needs >= 99" in r.stdout
    played = sorted((proj / "mine.txt").read_text().split())
    assert played == ["puzzle/01-2048/01_01[random-r0]", "puzzle/01-2048/01_01[random-r1]"], "the user's agent"
    steps = [len((d / "steps.jsonl").read_text().splitlines()) for d in out.glob("*/runs/**/attempt*")
             if (d / "steps.jsonl").exists()]
    assert steps and max(steps) <= 4, steps  # 2 steps (gw_max_steps = 2 from the ini) and the run's own lines


def test_the_equals_form_keeps_the_ini_with_or_without_workers(tmp_path):
    proj, out = project(tmp_path), tmp_path / "x"
    out.mkdir()
    r = run(proj, f"--gw-results={out}", "-n", "2")
    assert r.returncode == 1 and "needs >= 99" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    assert (proj / "mine.txt").read_text().split() == ["puzzle/01-2048/01_01[random]"]
