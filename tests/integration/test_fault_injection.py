"""Fault injection: each file the harness writes and reads back, damaged four ways (cut short, a line of NUL bytes,
valid JSON of the wrong shape, emptied), under every command that reads it: `gameworld report` (table, --html,
--gate) and `gameworld merge` in-process, `--gw-resume` and `--lf` as real pytest sessions.

Each answers with a line naming the damaged file (and its line, where the file has one), never a traceback, and
loses nothing: the damaged file is left as it was, the other run stays scored, and a damaged run is listed missing
until a resume or --lf plays it again. One small session is played once for the module; each case works on a copy.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_gameworld import cli

SESSION = ["--gw-model", "random", "-k", "01_01 or 01_02", "--gw-max-steps", "2"]
STEPS = "runs/puzzle/01-2048/01_01/random/attempt-1/steps.jsonl"
FILES = {"results.jsonl": "results.jsonl", "plan.json": "plan.json", "steps.jsonl": STEPS}


def _cut(path: Path) -> None:
    """Cut short: a JSONL file inside its last line, a whole-file JSON in its middle."""
    data = path.read_bytes()
    if path.suffix == ".jsonl":
        last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1]
        path.write_bytes(data[: len(data.rstrip(b"\n")) - len(last) // 2])
    else:
        path.write_bytes(data[: len(data) // 2])


def _nul(path: Path) -> None:
    """Line 2 becomes NUL bytes of its own length (what a crash leaves in a file whose blocks were not written)."""
    lines = path.read_bytes().split(b"\n")
    lines[1] = b"\0" * len(lines[1])
    path.write_bytes(b"\n".join(lines))


def _shape(path: Path) -> None:
    """Valid JSON of the wrong shape: a plan whose runs are a number, a JSONL line that is an array."""
    if path.suffix == ".json":
        path.write_text('{"runs": 5}\n')
        return
    lines = path.read_bytes().split(b"\n")
    lines[1] = b"[1, 2]"
    path.write_bytes(b"\n".join(lines))


def _empty(path: Path) -> None:
    path.write_bytes(b"")


DAMAGES: dict[str, Callable[[Path], None]] = {"cut": _cut, "nul": _nul, "shape": _shape, "empty": _empty}

# file × damage → what the answer names (file:line and why). An emptied results.jsonl has no line to name: its two
# runs are listed missing, each with the trajectory that holds what was played.
NAMED = {
    ("results.jsonl", "cut"): "results.jsonl:2: not JSON",
    ("results.jsonl", "nul"): "results.jsonl:2: not JSON",
    ("results.jsonl", "shape"): "results.jsonl:2: an array, not a JSON object",
    ("results.jsonl", "empty"): "interrupted after 2 step(s) (no record: the process playing it stopped; "
                                "runs/puzzle/01-2048/01_01/random/attempt-1/steps.jsonl holds what was played)",
    ("plan.json", "cut"): "plan.json:",
    ("plan.json", "nul"): "plan.json:2: not JSON",
    ("plan.json", "shape"): "plan.json:1: not a plan: field 'runs'",
    ("plan.json", "empty"): "plan.json:1: not JSON",
    ("steps.jsonl", "cut"): "steps.jsonl:4: not JSON",
    ("steps.jsonl", "nul"): "steps.jsonl:2: not JSON",
    ("steps.jsonl", "shape"): "steps.jsonl:2: an array, not a JSON object",
    ("steps.jsonl", "empty"): "steps.jsonl: empty",
}
CASES = [pytest.param(f, d, id=f"{f}-{d}") for f, d in NAMED]


def run_pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    cache = [] if "--lf" in args else ["-p", "no:cacheprovider"]  # --lf is the cache provider's option
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", *cache, "-q",
                           "--gw-results=out", "--gw-progress", "off", *SESSION, *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small session (two 2-step runs of the random agent), played once for the module."""
    root = tmp_path_factory.mktemp("played")
    r = run_pytest(root, "--gw-session=s")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return root / "out" / "s"


def damaged_copy(played: Path, root: Path, file: str, damage: str) -> Path:
    session = root / "out" / "s"
    shutil.copytree(played, session)
    DAMAGES[damage](session / FILES[file])
    return session


def gameworld(*argv: str) -> tuple[int, str]:
    """A `gameworld` command in this process: its exit status and everything it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = cli.main(list(argv))
    return status, out.getvalue()


def snapshot(session: Path) -> dict[str, bytes]:
    return {str(p.relative_to(session)): p.read_bytes() for p in sorted(session.rglob("*"))
            if p.is_file() and p.suffix in (".jsonl", ".json")}


@pytest.mark.parametrize("file, damage", CASES)
def test_report_gate_and_merge_name_the_damage_and_lose_nothing(played, tmp_path, file, damage):
    session = damaged_copy(played, tmp_path, file, damage)
    before = snapshot(session)
    named = NAMED[file, damage]
    answers = {
        "report": gameworld("report", str(session)),
        "report --html": gameworld("report", str(session), "--html"),
        "gate": gameworld("report", str(session), "--gate", "pg>=0"),
        "merge": gameworld("merge", str(session), "--out", str(tmp_path / "merged")),
    }
    for command, (_status, text) in answers.items():
        assert "Traceback" not in text and "Error:" not in text.replace("HarnessError:", ""), (command, text)
        assert named in text, (command, named, text)
    assert answers["report"][0] == 0 and answers["report --html"][0] == 0
    gate_status, gate_text = answers["gate"]
    assert gate_status == 1 and "GameWorld gate: FAIL (" in gate_text, "damage is never a passing gate"
    merge_status, merge_text = answers["merge"]
    if (file, damage) == ("results.jsonl", "empty"):  # no record to lose: both runs merge as gaps, their steps kept
        assert merge_status == 0 and "0 scored run(s)" in merge_text and "2 gap(s)" in merge_text, merge_text
        assert (tmp_path / "merged" / STEPS).read_bytes() == (session / STEPS).read_bytes()
    else:
        lines = [ln for ln in merge_text.splitlines() if ln.startswith("gameworld merge: ")]
        assert merge_status == 2 and len(lines) == 1 and named in lines[0], merge_text
    after = snapshot(session)
    assert {k: v for k, v in after.items() if k in before} == before, "no reader rewrote or removed a file"
    if file != "results.jsonl":  # the run whose record is intact stays scored
        assert "puzzle/01-2048/01_02[random]" not in answers["report"][1].split("missing runs")[-1]


# A resume and an --lf pass over damage: the damaged run is played again, the session's gate then passes.
REPLAYS = [pytest.param("results.jsonl", "nul", ["--gw-resume=s"], id="results-nul-resume"),
           pytest.param("plan.json", "cut", ["--lf", "--gw-session=s"], id="plan-cut-lf"),
           pytest.param("steps.jsonl", "empty", ["--gw-resume=s"], id="steps-empty-resume")]


@pytest.mark.parametrize("file, damage, option", REPLAYS)
def test_resume_and_lf_replay_what_the_damage_cost(played, tmp_path, file, damage, option):
    session = damaged_copy(played, tmp_path, file, damage)
    before = gameworld("report", str(session), "--gate", "pg>=0")
    assert before[0] == 1, before[1]
    r = run_pytest(tmp_path, *option)
    text = r.stdout + r.stderr
    assert r.returncode == 0 and "Traceback" not in text and "INTERNALERROR" not in text, text[-3000:]
    status, after = gameworld("report", str(session), "--gate", "pg>=0")
    assert status == 0 and "GameWorld gate: PASS (pg " in after, after
    assert "missing runs" not in after, after
