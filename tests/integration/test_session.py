"""The plugin end to end: collection, ids, marks, options, errors, xdist, results, summary, --lf."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from failing_agent import write_failing_conftest

from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.catalog.native import default_catalog_dir

CAT = load_catalog()
N_TASKS = len(CAT.tasks)
# The measurements every run puts on item.user_properties (junit-xml properties, pytest-html).
PROPERTIES = {"success", "progress", "score_best", "score_start", "score_target", "steps", "episodes", "invalid_ntc",
              "invalid_oos", "sec_per_step", "tokens_in", "tokens_out", "tokens_cached", "cost_usd", "stop_reason",
              "seed", "protocol", "game", "genre", "level", "model", "interface", "task", "repeat", "run_dir"}


def run_pytest(*args: str, cwd: Path, timeout: int = 900) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def collected(out: str) -> list[str]:
    return [ln.strip() for ln in out.splitlines() if "[" in ln and ln.strip().split("/")[0] in
            ("arcade", "platformer", "puzzle", "runner", "simulation")]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An unrelated project that only installed the package."""
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert 1 + 1 == 2\n")
    return tmp_path


def test_without_gw_model_no_benchmark_items(project):
    r = run_pytest("--collect-only", "-q", cwd=project)
    assert r.returncode == 0, r.stdout + r.stderr
    assert collected(r.stdout) == [] and "test_own.py::test_own" in r.stdout


def test_items_have_natural_ids_and_select_with_k_and_m(project):
    r = run_pytest("--collect-only", "-q", "--gw-model", "random,noop", "--strict-markers", cwd=project)
    ids = collected(r.stdout)
    assert len(ids) == 2 * N_TASKS, r.stdout[-2000:] + r.stderr
    assert "puzzle/01-2048/01_03[random]" in ids
    order = [(i.split("/")[1], i.split("/")[2].split("[")[0], i.split("[")[1]) for i in ids]
    assert order == sorted(order), "items are collected sorted by game, task, model"
    k = collected(run_pytest("--collect-only", "-q", "--gw-model", "random,noop", "-k", "flappy", cwd=project).stdout)
    assert k and all("13-flappy-bird" in i for i in k)
    k2 = collected(run_pytest("--collect-only", "-q", "--gw-model", "random,noop", "-k", "01_03 and random",
                              cwd=project).stdout)
    assert k2 == ["puzzle/01-2048/01_03[random]"]
    m = collected(run_pytest("--collect-only", "-q", "--gw-model", "noop", "--strict-markers", "-m",
                             "runner and L2", cwd=project).stdout)
    assert len(m) == 5 * 8 and all(i.startswith("runner/") for i in m), "the paper's eight runners are all L2"
    l2 = collected(run_pytest("--collect-only", "-q", "--gw-model", "noop", "--strict-markers", "-m", "L2",
                              cwd=project).stdout)
    assert len(l2) == 5 * len(PAPER_LEVELS[2]), "-m L2 selects the tasks of the paper's L2 games, no others"
    g = collected(run_pytest("--collect-only", "-q", "--gw-model", "noop", "-m", "game_minesweeper",
                             cwd=project).stdout)
    assert len(g) == 5 and all("19-minesweeper" in i for i in g)


# The paper's curriculum levels (each game.yaml's `level`; docs/games.md lists them): level → game numbers.
PAPER_LEVELS = {1: {5, 8, 27}, 2: {4, 7, 9, 10, 11, 13, 14, 21, 24, 26, 28, 30},
                3: {2, 3, 6, 15, 17, 22, 23, 25, 31, 33, 34}, 4: {1, 16, 19, 29, 32}, 5: {12, 18, 20}}
MARKS_CONFTEST = """
def pytest_collection_finish(session):
    for item in session.items:
        print("MARKS", item.nodeid, " ".join(sorted(m.name for m in item.iter_markers())))
"""


def test_each_item_carries_its_games_level_as_in_the_papers_table(project):
    (project / "conftest.py").write_text(MARKS_CONFTEST)
    r = run_pytest("--collect-only", "-q", "--gw-model", "noop", cwd=project)
    marks = {ln.split()[1]: set(ln.split()[2:]) for ln in r.stdout.splitlines() if ln.startswith("MARKS ")}
    assert len(marks) == N_TASKS, r.stdout[-2000:]
    for item, names in marks.items():
        number = int(item.split("/")[1][:2])
        levels = sorted(n for n in names if n in {f"L{k}" for k in PAPER_LEVELS})
        assert levels == [f"L{k}" for k, games in PAPER_LEVELS.items() if number in games], (item, names)
    counts = {k: sum(f"L{k}" in names for names in marks.values()) for k in PAPER_LEVELS}
    assert counts == {1: 15, 2: 60, 3: 55, 4: 25, 5: 15}


def test_limit_plays_the_first_runs_of_the_selection_and_deselects_the_rest(project):
    r = run_pytest("--collect-only", "-q", "--gw-model", "random,noop", "-k", "puzzle", "--gw-limit", "3", cwd=project)
    assert collected(r.stdout) == ["puzzle/01-2048/01_01[noop]", "puzzle/01-2048/01_01[random]",
                                   "puzzle/01-2048/01_02[noop]"]
    puzzle = 2 * sum(CAT.games[t.game].genre == "puzzle" for t in CAT.tasks)
    assert f"3/{2 * N_TASKS} tests collected ({2 * N_TASKS - 3} deselected)" in r.stdout, r.stdout[-500:]
    assert puzzle > 3


def test_ini_options_mirror_the_command_line(project):
    (project / "pytest.ini").write_text("[pytest]\ngw_model = noop\ngw_repeat = 2\n")
    ids = collected(run_pytest("--collect-only", "-q", "-k", "19_01", cwd=project).stdout)
    assert ids == ["puzzle/19-minesweeper/19_01[noop-r0]", "puzzle/19-minesweeper/19_01[noop-r1]"]


def test_repeat_multiplies_items(project):
    ids = collected(run_pytest("--collect-only", "-q", "--gw-model", "noop", "--gw-repeat", "3", "-k", "13_01",
                               cwd=project).stdout)
    assert ids == [f"runner/13-flappy-bird/13_01[noop-r{i}]" for i in range(3)]


def test_broken_task_yaml_fails_collection_with_one_line(project, tmp_path):
    cat = tmp_path / "cat"
    shutil.copytree(default_catalog_dir(), cat)
    bad = cat / "tasks" / "13-flappy-bird" / "13_02.yaml"
    bad.write_text(bad.read_text().replace("target: 3", "target: three"))
    r = run_pytest("--gw-model", "noop", "--gw-catalog", str(cat), cwd=project)
    assert r.returncode == 4
    errors = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("ERROR")]
    assert errors == [f"ERROR: {bad}: field 'target': Input should be a valid number, "
                      "unable to parse string as a number"]


def test_unknown_model_is_one_clear_error(project):
    r = run_pytest("--gw-model", "gpt-99", cwd=project)
    assert r.returncode == 4 and "unknown model 'gpt-99'" in r.stderr


def test_random_agent_parallel_session_writes_results_and_summary(project):
    results = project / "out"
    # Three games of three genres keep it quick; what is checked does not grow with the catalog.
    games = ("01-2048", "13-flappy-bird", "19-minesweeper")
    tasks = [t for t in CAT.tasks if t.game in games]
    r = run_pytest("--gw-model", "random", "-n", "2", "--gw-results", str(results), "--gw-session", "s1",
                   "--junitxml", str(project / "junit.xml"), "-v", "-k", " or ".join(games),
                   "--gw-progress-interval", "1", cwd=project)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    lines = [json.loads(x) for x in (results / "s1" / "results.jsonl").read_text().splitlines()]
    assert len(lines) == len(tasks)
    assert {ln["task"] for ln in lines} == {t.id for t in tasks}
    assert all(ln["status"] == "ok" and ln["steps"] > 0 and ln["model"] == "random" for ln in lines)
    assert "GameWorld summary" in r.stdout and "random (generalist)" in r.stdout
    # One outcome word per run, matching its record: SOLVED, else PG <progress>%.
    words = {item: word for word, item in re.findall(r"(SOLVED|PG \d+%) (\S+\[random\])", r.stdout)}
    assert len(words) == len(tasks), r.stdout[-3000:]
    for ln in lines:
        expected = "SOLVED" if ln["success"] else f"PG {100 * ln['progress']:.0f}%"
        assert words[ln["item"]] == expected, (ln["item"], words[ln["item"]], expected)
    # The benchmark alone: with a model and no path, the project's own test_own.py is not collected.
    assert f"{len(tasks)} passed" in r.stdout and "test_own" not in r.stdout
    for ln in lines:
        assert ln["trajectory"] == f"runs/{ln['genre']}/{ln['game']}/{ln['task']}/random/attempt-1/steps.jsonl"
        assert (results / "s1" / ln["trajectory"]).exists()
    # Output is piped: progress comes as plain lines, from the workers' step records (step n/max of a run).
    plain = [ln for ln in r.stdout.splitlines() if ln.startswith("[gameworld] ")]
    assert any(re.match(rf"\[gameworld\] runs \d+/{len(tasks)} done · \d in flight · elapsed", ln) for ln in plain)
    assert any(re.search(r"\[random\]  step [1-9]\d*/\d+  score", ln) for ln in plain), plain
    assert "\x1b[" not in "".join(plain)
    page = (results / "s1" / "report.html").read_text()
    assert ">GameWorld benchmark — session s1</title>" in page and '<table class="gw-table">' in page
    rows = html_rows(page)
    for ln in lines:  # every row links to its run's viewer, relative to the report, and says how it ended
        row = rows[ln["item"]]
        assert f'<a href="{ln["trajectory"].rsplit("/", 1)[0]}/viewer.html">viewer</a>' in row
        assert ("gw-solved" in row) == ln["success"] and ("gw-unsolved" in row) == (not ln["success"])
    # junit-xml: every run's measurements as properties of its testcase, as its record has them.
    cases = ET.parse(project / "junit.xml").getroot().findall(".//testcase")
    props = [{p.get("name"): p.get("value") for p in c.findall("properties/property")} for c in cases]
    assert len(props) == len(lines) and all(PROPERTIES <= set(p) for p in props), props[:1]
    by_task = {p["task"]: p for p in props}
    for ln in lines:
        p = by_task[ln["task"]]
        assert (p["progress"], p["success"], p["steps"], p["seed"]) == (
            str(ln["progress"]), str(ln["success"]), str(ln["steps"]), str(ln["seed"])), (p, ln)


def html_rows(page: str) -> dict[str, str]:
    """pytest-html's rows (its data blob) by test id, each row's cells joined."""
    blob = json.loads(html.unescape(re.search(r'data-jsonblob="([^"]*)"', page).group(1)))
    return {t["testId"]: "".join(t["resultsTableRow"]) for runs in blob["tests"].values() for t in runs}


def test_harness_fault_errors_that_run_only_and_lf_reruns_it(tmp_path):
    proj = tmp_path / "p"
    proj.mkdir()
    write_failing_conftest(proj, "13_02")
    args = ["--gw-model", "noop", "-k", "flappy", "--gw-max-steps", "3", "--gw-results", "out", "-v"]
    cmd = [sys.executable, "-m", "pytest", *args]
    r1 = subprocess.run(cmd + ["--gw-session", "a", "--gw-progress-interval", "0.5"], cwd=proj, capture_output=True,
                        text=True, timeout=600)
    assert r1.returncode == 1, r1.stdout[-3000:]
    assert "4 passed" in r1.stdout and "1 failed" in r1.stdout
    assert "missing runs (not scored, re-run with --lf): 1" in r1.stdout
    lines = [json.loads(x) for x in (proj / "out" / "a" / "results.jsonl").read_text().splitlines()]
    failed = [ln for ln in lines if ln["status"] == "error"]
    assert [ln["task"] for ln in failed] == ["13_02"] and "endpoint down" in failed[0]["error"]
    assert (proj / "out" / "a" / failed[0]["trajectory"]).exists()
    # The fault's report is its error line and its run folder: no traceback, no fixture source.
    out = r1.stdout.splitlines()
    start = next(i for i, ln in enumerate(out) if ln.startswith("=") and " FAILURES " in ln)
    end = next(i for i, ln in enumerate(out) if ln.startswith("=") and " GameWorld summary " in ln)
    run_dir = failed[0]["trajectory"].rsplit("/", 1)[0]
    assert out[start + 1].startswith("_") and "13_02" in out[start + 1]
    assert out[start + 2:end] == ["AgentError: endpoint down after retries", f"run folder: out/a/{run_dir}"]
    assert "FAILED runner/13-flappy-bird/13_02[noop] - AgentError: endpoint down" in r1.stdout
    # Without xdist the display thread writes while a test holds fd 1 captured; its lines still show.
    assert re.search(r"^\[gameworld\] runs \d/5 done", r1.stdout, re.M), r1.stdout[-3000:]
    assert "gw-fault" in html_rows((proj / "out" / "a" / "report.html").read_text())["runner/13-flappy-bird/13_02[noop]"]
    write_failing_conftest(proj, "none")
    r2 = subprocess.run(cmd + ["--gw-session", "b", "--lf"], cwd=proj, capture_output=True, text=True, timeout=600)
    assert r2.returncode == 0, r2.stdout[-3000:]
    assert "1 passed" in r2.stdout and "runner/13-flappy-bird/13_02[noop]" in r2.stdout


def test_gameworld_validate_checks_files_and_start_states(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "validate"], capture_output=True, text=True,
                        timeout=900)  # 170 pages on a loaded CI machine
    assert ok.returncode == 0, ok.stderr
    assert f"{len(CAT.games)} games, {N_TASKS} tasks" in ok.stdout and ok.stdout.rstrip().endswith("OK")
    progress = [ln for ln in ok.stderr.splitlines() if ln.startswith("validate [")]  # one line per game, as it goes
    assert len(progress) == len(CAT.games), ok.stderr[-2000:]
    assert progress[0].startswith(f"validate [1/{len(CAT.games)}] 01-2048: 5 task(s), ok (")
    # A damaged copy of two of its games (the whole catalog was just checked; two games keep this one short).
    cat = tmp_path / "cat"
    shutil.copytree(default_catalog_dir(), cat)
    for kind in ("games", "tasks"):
        for folder in (cat / kind).iterdir():
            if folder.name not in ("01-2048", "13-flappy-bird", "_shell"):  # 13 loads the shared shell
                shutil.rmtree(folder)
    task = cat / "tasks" / "01-2048" / "01_02.yaml"
    task.write_text(task.read_text().replace("score: game_state.level", "score: game_state.levl"))
    bad = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "validate", str(cat)], capture_output=True,
                         text=True, timeout=300)
    assert bad.returncode == 1
    assert "01-2048/01_02: score field 'game_state.levl' is missing from the state" in bad.stderr
    assert "validate [1/2] 01-2048: 5 task(s), 1 problem(s) (" in bad.stderr
    assert "validate [2/2] 13-flappy-bird: 5 task(s), ok (" in bad.stderr


CRASHING_CONFTEST = '''
import pytest
from pytest_gameworld.agents import AgentReply
from pytest_gameworld.play.actions import Proposal

class Crasher:
    """Kills the whole browser in the middle of its run."""
    interface = "generalist"
    needs_pixels = False
    async def begin(self, ctx): self.ctx = ctx
    async def act(self, obs):
        if obs.step == 2:
            await self.ctx.session.context.browser.close()
        return AgentReply(calls=[Proposal("wait")])
    async def close(self): pass

@pytest.fixture
def gw_agent(gw_case):
    from pytest_gameworld.agents import make_agent
    return Crasher() if gw_case.task.id == "13_01" else make_agent(gw_case.model)
'''


def test_browser_crash_errors_that_run_keeps_its_trajectory_and_the_session_goes_on(tmp_path):
    (tmp_path / "conftest.py").write_text(CRASHING_CONFTEST)
    r = run_pytest("--gw-model", "noop", "-k", "13_01 or 13_02", "--gw-max-steps", "4", "--gw-results", "out",
                   "--gw-session", "c", "-v", cwd=tmp_path)
    assert r.returncode == 1, r.stdout[-3000:]
    assert "1 failed, 1 passed" in r.stdout
    lines = {json.loads(x)["task"]: json.loads(x) for x in (tmp_path / "out/c/results.jsonl").read_text().splitlines()}
    assert lines["13_01"]["status"] == "error" and lines["13_02"]["status"] == "ok"
    steps = (tmp_path / "out/c" / lines["13_01"]["trajectory"]).read_text().splitlines()
    assert len([s for s in steps if '"event": "step"' in s]) == 2 and '"status": "error"' in steps[-1]
