"""Damaged records, from a real session: every reader names the bad line by file and line, once, and goes on.

`gameworld report` skips the line (its run counts as missing), `--gw-resume` plays that run again, a viewer is
written from the readable part of a cut trajectory; no traceback, no INTERNALERROR.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_gameworld.report.run_viewer import read_viewer_data

RUNS = ["-k", "01_01 or 01_02 or 01_03", "--gw-model", "noop", "--gw-max-steps", "2"]


def pytest_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def report(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "report", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session of three scored runs, to copy and damage."""
    cwd = tmp_path_factory.mktemp("played")
    r = pytest_run(*RUNS, "--gw-results", "out", "--gw-session", "s", cwd=cwd)
    assert r.returncode == 0, r.stdout[-3000:]
    return cwd / "out" / "s"


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def cut_last(lines: list[str]) -> list[str]:
    return lines[:-1] + [lines[-1][: len(lines[-1]) // 2]]  # a writer killed mid-line: no newline either


def progress_five(lines: list[str]) -> list[str]:
    rec = json.loads(lines[1])
    rec["progress"] = 5.0
    return [lines[0], json.dumps(rec) + "\n", lines[2]]


# name → (how the file is damaged, the damaged line's number, why it is named, runs still scored, runs missing):
# a line that names a run not recorded otherwise is that run, missing; a line naming none is damage only.
CASES: dict[str, tuple[Callable[[list[str]], list[str]], int, str, int, int]] = {
    "truncated last line": (cut_last, 3, "(cut short: the file ends inside this line) (record of "
                                         "puzzle/01-2048/01_03[noop] skipped)", 2, 1),
    "garbage line": (lambda ls: [ls[0], "}{ not json\n", *ls[1:]], 2, "not JSON: Expecting value (column 1)", 3, 0),
    "not a record": (lambda ls: [*ls[:2], '{"item": "x"}\n', ls[2]], 3,
                     "not a run record: field 'task': Field required (and 10 more) (record of x skipped)", 3, 1),
    "an array": (lambda ls: [ls[0], "[]\n", *ls[1:]], 2,
                 "an array, not a JSON object (no run can be told from what is left of it)", 3, 0),
    "progress 5.0": (progress_five, 2, "not a run record: field 'progress': Input should be less than or equal "
                                       "to 1 (record of puzzle/01-2048/01_02[noop] skipped)", 2, 1),
}


def damaged_copy(played: Path, where: Path, damage: Callable[[list[str]], list[str]]) -> Path:
    session = where / "out" / "s"
    shutil.copytree(played, session)
    results = session / "results.jsonl"
    results.write_text("".join(damage(lines_of(results))))
    return session


@pytest.mark.parametrize("case", list(CASES))
def test_report_names_the_damaged_line_once_and_counts_its_run_missing(played, tmp_path, case):
    damage, number, why, runs, missing = CASES[case]
    damaged_copy(played, tmp_path, damage)
    r = report("out/s", cwd=tmp_path)
    out = r.stdout + r.stderr
    print(f"$ gameworld report out/s   # {case}\nexit {r.returncode}\n{out}")
    assert r.returncode == 0 and "Traceback" not in out, out
    named = [ln for ln in out.splitlines() if f"results.jsonl:{number}:" in ln]
    where = f"out/s/results.jsonl:{number}: "  # a missing run's line, or (naming no run) a note of damage
    assert len(named) == 1 and why in named[0] and (named[0].strip().startswith(where) if missing else
                                                    named[0].startswith(f"s: damaged line skipped: {where}")), named
    assert (f"s: missing runs (not scored): {missing}" in out) if missing else "missing runs" not in out, out
    table = json.loads(report("out/s", "--format", "json", cwd=tmp_path).stdout)[0]["models"][0]
    assert table["runs"] == runs, "a damaged record is not counted (a progress of 5.0 is never summed)"


def test_resume_plays_the_damaged_run_again_and_says_so_once(played, tmp_path):
    session = damaged_copy(played, tmp_path, cut_last)
    r = pytest_run(*RUNS, "--gw-results", "out", "--gw-resume", "s", "-rs", cwd=tmp_path)
    print(r.stdout[-2500:])
    assert r.returncode == 0 and "INTERNALERROR" not in r.stdout + r.stderr, r.stdout[-3000:] + r.stderr[-2000:]
    assert "1 passed, 2 skipped" in r.stdout
    named = [ln for ln in r.stdout.splitlines() if "results.jsonl:3:" in ln]
    assert len(named) == 1 and named[0].startswith("damaged line skipped: ") and "not JSON" in named[0], named
    assert "01_03[noop] skipped); the run is recorded again" in named[0] and "missing runs" not in r.stdout
    records = [json.loads(x) for x in lines_of(session / "results.jsonl")[3:]]
    assert len(records) == 1 and records[0]["status"] == "ok", "the run is played again, on a line of its own"


def test_a_cut_trajectory_gets_a_viewer_of_its_readable_part_with_a_note(played, tmp_path):
    session = damaged_copy(played, tmp_path, lambda ls: ls)
    first = json.loads(lines_of(session / "results.jsonl")[0])
    steps = session / first["trajectory"]
    kept = lines_of(steps)
    steps.write_text("".join(kept[:2]) + kept[2][:10])  # start, one step, then a line cut short
    for viewer in session.rglob("viewer.html"):
        viewer.unlink()
    r = report("out/s", "--html", cwd=tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    viewer = steps.parent / "viewer.html"
    text = viewer.read_text()
    assert "This trajectory is damaged: steps.jsonl:3: not JSON" in text and "Shown: the 2 line(s) before it." in text
    assert [s["step"] for s in read_viewer_data(text)["steps"]] == [0], "the readable step is shown"
    page = (session / "index.html").read_text()
    assert f'{first["trajectory"].rsplit("/", 1)[0]}/viewer.html' in page, "the results page links the viewer"
