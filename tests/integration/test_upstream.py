"""An upstream-format checkout (tests/fixtures/upstream_checkout) played in real Chromium: levels from the URL
suffix, is_actionable readiness, reset fallbacks, determinism across sessions, and `gameworld validate`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_gameworld.agents import AgentReply, Observation, RunContext
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.actions import Proposal
from pytest_gameworld.play.runner import RunConfig, play

ASYNC = pytest.mark.asyncio(loop_scope="session")
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"


def task_of(cat: Catalog, task_id: str):
    return next(t for t in cat.tasks if t.id == task_id)


@pytest.fixture
def open_task(open_upstream, upstream: Catalog):
    """Open a task's game page at its URL suffix (closed at teardown)."""

    async def _open(task_id: str, seed: int = 1) -> GameSession:
        task = task_of(upstream, task_id)
        return await open_upstream(task.game, seed, task.url_suffix)

    return _open


@ASYNC
@pytest.mark.parametrize("task_id, level, goal, harmless", [("91_01", 1, 6, False), ("91_02", 2, 8, False),
                                                           ("91_03", 3, 10, True)])
async def test_levels_and_options_arrive_through_the_url_suffix(open_task, task_id, level, goal, harmless):
    session = await open_task(task_id)
    state = await session.init({})
    env = state["game_state"]["environment"]
    assert (state["game_state"]["level"], env["goal"], env["harmless_pits"]) == (level, goal, harmless)
    assert len(env["pits"]) == level  # the page built the level it read from its URL


@ASYNC
async def test_readiness_waits_for_is_actionable_although_status_is_playing(open_task):
    session = await open_task("92_01")
    state = await session.init({})
    # The page says 'playing' from its start, but is not actionable during its 600 ms countdown.
    assert state["status"] == "playing" and state["is_actionable"] is True
    assert state["gameTimeMs"] >= 600


@ASYNC
@pytest.mark.parametrize("task_id, method, attempts", [("91_01", "soft_restart", 2), ("92_01", "inplace", 2),
                                                      ("92_02", "reload", 1), ("92_03", "reload", 1)])
async def test_reset_falls_back_as_upstream_does_and_says_how(open_task, task_id, method, attempts):
    session = await open_task(task_id)
    await session.init({})
    state = await session.reset({})
    assert session.resets == [method]
    # A reload starts the page over (its first attempt again); an in-page reset is the page's second game.
    assert state["metrics"]["attempts"] == attempts
    assert state["status"] == "playing" and state.get("is_actionable", True) is True
    state = await session.reset({})
    assert session.resets == [method, method]


class MineFinder:
    """Clicks a mine (read from the page's debug block) every time: each step ends an episode."""

    interface = "generalist"
    needs_pixels = False

    async def begin(self, ctx: RunContext) -> None:
        pass

    async def act(self, obs: Observation) -> AgentReply:
        return AgentReply(calls=[Proposal("reveal_cell", {"cell": obs.state["debug"]["mines"][0]})])

    async def close(self) -> None:
        pass


@ASYNC
@pytest.mark.parametrize("task_id, method", [("92_01", "inplace"), ("92_03", "reload")])
async def test_a_run_records_how_each_reset_happened(open_task, upstream, tmp_path, task_id, method):
    task = task_of(upstream, task_id)
    spec = upstream.resolve_model("noop").model_copy(update={"name": "MineFinder"})
    cfg = RunConfig(item_id=task_id, game=upstream.games[task.game], task=task, model=spec, seed=5, repeat=0,
                    run_dir=tmp_path / "run", results_path=tmp_path / "results.jsonl",
                    prompts_dir=upstream.prompts_dir, max_steps=3, catalog_source=upstream.source)
    record, final = await play(await open_task(task_id, 5), MineFinder(), cfg)
    assert record.status == "ok" and record.steps == 3 and record.episodes == 3
    assert record.resets == [method, method] and record.catalog["format"] == "upstream"
    lines = [json.loads(x) for x in (tmp_path / "run" / "steps.jsonl").read_text().splitlines()]
    assert [ln["method"] for ln in lines if ln["event"] == "reset"] == [method, method]
    saved = json.loads((tmp_path / "results.jsonl").read_text())
    assert saved["resets"] == [method, method] and saved["catalog"]["path"] == str(FIXTURE)


def _pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--gw-catalog={FIXTURE}",
                           "--gw-results=out", *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_two_plugin_sessions_with_the_same_seed_play_the_same_runs(tmp_path):
    # A reload task and a soft-restart task: the resets are part of what must repeat.
    pick = ["-k", "91_02 or 92_02", "--gw-model", "random", "--gw-seed", "4", "--gw-max-steps", "10"]
    for name in ("a", "b"):
        r = _pytest(tmp_path, *pick, "--gw-session", name)
        assert r.returncode == 0, r.stdout[-3000:]
    assert "1 of 5 upstream games left out" in r.stdout and "gameworld: upstream catalog" in r.stdout
    runs = {}
    for name in ("a", "b"):
        recs = [json.loads(x) for x in (tmp_path / "out" / name / "results.jsonl").read_text().splitlines()]
        runs[name] = {}
        for rec in recs:
            steps = [json.loads(x) for x in (tmp_path / "out" / name / rec["trajectory"]).read_text().splitlines()]
            states = [(s.get("event"), s.get("state"), s.get("method"), s.get("verdict")) for s in steps]
            runs[name][rec["item"]] = ({k: rec[k] for k in ("score_best", "progress", "steps", "episodes", "resets",
                                                            "stop_reason", "valid", "seed")}, states, rec["catalog"])
    assert sorted(runs["a"]) == ["upstream/arcade/91_line-walker/91_02[random]",
                                 "upstream/arcade/92_mine-clicker/92_02[random]"]
    assert runs["a"] == runs["b"]
    assert any(r[0]["resets"] for r in runs["a"].values()), "the random runs should reach a reset"


def test_validate_reports_every_declared_game_and_what_did_not_map(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "validate", "--catalog", str(FIXTURE)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    lines = r.stdout.splitlines()
    models = len(load_catalog(FIXTURE).models)
    assert lines[-1] == f"upstream catalog {FIXTURE}: 4 games, 8 tasks, {models} models, 1 problem(s)", r.stdout
    progress = [ln for ln in r.stderr.splitlines() if ln.startswith("validate [")]
    assert len(progress) == 4 and "95_web-sprites: 1 task(s), 1 problem(s)" in progress[-1], r.stderr
    assert r.returncode == 1 and [ln for ln in r.stderr.splitlines() if ln not in progress] == [
        "95_web-sprites needs 2 internet asset(s) not supplied: http://fonts.gw-fixture.test/css?family=Fixture+Hand, "
        "http://img.gw-fixture.test/sprites.png; supply them offline with --gw-assets PATH (a folder written by "
        "`gameworld assets record` on a machine with internet, or a HAR file)"]
    assert "page 93_absent-game: absent: no folder games/benchmark/93_absent-game/ (1 tasks)" in lines
    assert "page 94_lazy-dice: present (1 tasks)" in lines
    assert "5 games declared (4 with a page, 1 left out), 9 tasks declared (8 playable)" in lines
    assert any(ln.startswith("left out: 1 of 5 upstream games left out") and "93_absent-game" in ln for ln in lines)
    assert any(ln.startswith("warning: 92_mine-clicker role player: computer_use_controls.allowed_keys is empty")
               for ln in lines)
    game, task = (FIXTURE / "catalog" / "games" / "93_absent-game.yaml",
                  FIXTURE / "catalog" / "tasks" / "93_absent-game" / "93_01.yaml")
    for where, field in [(game, "soundtrack"), (game, "game_roles[0].semantic_controls[0].binding.easing"),
                         (task, "evaluator_config.score_scale")]:
        assert f"warning: {where}: field '{field}' is not mapped (not a field of the upstream format)" in lines


def test_results_stay_in_the_working_directory_not_in_the_checkout(tmp_path):
    # pytest takes a spaced --gw-catalog value for a test path when it looks for its ini file, so a checkout
    # with a pyproject.toml would become the ini file's folder: that form is refused in one line naming the
    # `=` form, and with the `=` form the default results folder stays in the working directory.
    import shutil

    checkout = tmp_path / "GameWorld"
    shutil.copytree(FIXTURE, checkout)
    (checkout / "pyproject.toml").write_text('[project]\nname = "gameworld"\n')
    cwd = tmp_path / "work"
    cwd.mkdir()
    rest = ["-k", "91_01", "--gw-model", "noop", "--gw-max-steps", "2", "--gw-session", "s"]
    spaced = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-catalog", str(checkout),
                             *rest], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert spaced.returncode == 4, spaced.stdout[-3000:]
    refusals = [ln for ln in spaced.stderr.splitlines() if ln.startswith("ERROR: `--gw-catalog ")]
    assert len(refusals) == 1 and f"write --gw-catalog={checkout}" in refusals[0], spaced.stderr[-2000:]
    assert not (checkout / "reports").exists() and not (cwd / "reports").exists()
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--gw-catalog={checkout}", *rest],
                       cwd=cwd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:]
    assert (cwd / "reports" / "s" / "results.jsonl").is_file() and not (checkout / "reports").exists()
