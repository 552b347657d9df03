"""Two-role co-op play in real Chromium, on the test-only game tests/fixtures/coop_catalog (99-coop-pads)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from pytest_gameworld.agents import AgentReply, Observation, RunContext, make_agent
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.contents import Catalog
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.actions import Action, Proposal
from pytest_gameworld.play.runner import RunConfig, play
from pytest_gameworld.records.jsonl import read_jsonl
from pytest_gameworld.records.shared_values import resolve

ASYNC = pytest.mark.asyncio(loop_scope="session")
COOP = Path(__file__).resolve().parent.parent / "fixtures" / "coop_catalog"
GAME = "99-coop-pads"
KEY_ENV = "GW_COOP_KEY"


@pytest.fixture(scope="module")
def coop() -> Catalog:
    return load_catalog(COOP)


@pytest.fixture(scope="module")
def coop_files(coop: Catalog) -> GameFiles:
    return GameFiles(coop.root / "games")


@pytest_asyncio.fixture(loop_scope="session")
async def coop_game(browser: Any, coop_files: GameFiles, coop: Catalog):
    opened: list[GameSession] = []

    async def _open(seed: int = 1) -> GameSession:
        s = await GameSession.open(browser, coop_files, coop.games[GAME], seed)
        opened.append(s)
        return s

    yield _open
    for s in opened:
        await s.close()


@pytest_asyncio.fixture(loop_scope="session")
async def play_coop(coop_game, coop: Catalog, tmp_path: Path):
    """Play a task of the test game through the real runner: a model spec name, a spec, or agents per role."""
    counter = iter(range(1000))

    async def _play(task_id: str, model: Any, max_steps: int | None = None, spec=None):
        task = next(t for t in coop.tasks if t.id == task_id)
        if isinstance(model, str):
            spec = coop.resolve_model(model)
            model = make_agent(spec)
        spec = spec or coop.resolve_model("noop")
        run_dir = tmp_path / f"run{next(counter)}"
        cfg = RunConfig(item_id=f"{GAME}/{task_id}", game=coop.games[GAME], task=task, model=spec, seed=3, repeat=0,
                        run_dir=run_dir, results_path=tmp_path / "results.jsonl", prompts_dir=coop.root / "prompts",
                        max_steps=max_steps)
        record, final = await play(await coop_game(), model, cfg)
        lines = resolve(read_jsonl(run_dir / "steps.jsonl"))  # shared lines put back
        return record, final, lines, run_dir / "steps.jsonl"

    return _play


class Scripted:
    """A built-in-like agent that proposes a fixed list of controls, then waits."""

    interface = "generalist"
    needs_pixels = False

    def __init__(self, controls: list[str]) -> None:
        self.controls = controls
        self.role = ""

    async def begin(self, ctx: RunContext) -> None:
        self.role = ctx.role_name

    async def act(self, obs: Observation) -> AgentReply:
        name = self.controls[obs.step] if obs.step < len(self.controls) else "wait"
        return AgentReply(calls=[Proposal(name)])

    async def close(self) -> None:
        pass


def step_lines(lines: list[dict]) -> list[dict]:
    return [ln for ln in lines if ln.get("event") == "step"]


@ASYNC
@pytest.mark.parametrize("task_id", ["99_01", "99_02"])
async def test_oracle_solves_with_both_roles_acting(play_coop, task_id):
    record, final, lines, _ = await play_coop(task_id, "oracle")
    assert record.status == "ok" and record.success and record.stop_reason == "success"
    assert record.role == "blue+red"
    steps = step_lines(lines)
    assert len(steps) == record.steps
    assert all(set(s["roles"]) == {"blue", "red"} for s in steps)
    # Both squares moved: each role's oracle acted through its own keys.
    assert final["metrics"]["blue_gems"] >= 1 and final["metrics"]["red_gems"] >= 1
    assert {s["roles"]["blue"]["verdict"]["action"]["keys"][0] for s in steps} <= {"w", "a", "s", "d"}
    assert {s["roles"]["red"]["verdict"]["action"]["keys"][0] for s in steps} <= {
        "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"}
    assert record.roles == {"blue": {"valid": record.steps, "ntc": 0, "oos": 0, "extra_calls": 0},
                            "red": {"valid": record.steps, "ntc": 0, "oos": 0, "extra_calls": 0}}
    assert record.valid == 2 * record.steps
    start = lines[0]
    prompts = {role: p["prompt"]["Role and Controls"] for role, p in start["roles"].items()}
    assert "You are Blue" in prompts["blue"] and "You are Red" in prompts["red"]
    assert "slow_right" in prompts["blue"] and "slow_right" not in prompts["red"]


@ASYNC
async def test_noop_and_random_play_every_role(play_coop):
    record, final, _, _ = await play_coop("99_01", "noop")
    assert record.steps == 30 and not record.success and record.stop_reason == "max_steps"
    assert final["metrics"]["blue_moves"] == final["metrics"]["red_moves"] == 0
    assert record.roles["blue"]["valid"] == record.roles["red"]["valid"] == 30

    record, final, lines, _ = await play_coop("99_02", "random")
    assert record.status == "ok"
    steps = step_lines(lines)
    blue = [s["roles"]["blue"]["verdict"]["control"] for s in steps]
    red = [s["roles"]["red"]["verdict"]["control"] for s in steps]
    assert blue != red, "each role draws its own random stream"
    assert final["metrics"]["blue_moves"] > 0 and final["metrics"]["red_moves"] > 0
    assert sum(sum(c for k, c in r.items() if k != "extra_calls") for r in record.roles.values()) == 2 * record.steps


@ASYNC
async def test_replay_reproduces_a_two_role_run(play_coop, coop):
    rec1, final1, lines1, path = await play_coop("99_02", "random")
    rec2, final2, lines2, _ = await play_coop("99_02", f"replay:{path}")
    assert final2 == final1 and final1["metrics"]["blue_moves"] > 0
    assert rec2.steps == rec1.steps and rec2.roles == rec1.roles
    assert len(step_lines(lines2)) == rec1.steps
    for a, b in zip(step_lines(lines1), step_lines(lines2)):
        for role in ("blue", "red"):
            va, vb = a["roles"][role]["verdict"], b["roles"][role]["verdict"]
            assert (va["validity"], va["action"]) == (vb["validity"], vb["action"])
        assert a["state"] == b["state"]


@ASYNC
async def test_keys_go_down_together_and_the_shorter_comes_up_first(coop_game, coop):
    session = await coop_game()
    await session.init({"seed": 1, "level": 1})
    clock = session.game_time_ms
    await session.execute_together([Action("press_key", 400, keys=("d",)), Action("press_key", 200, keys=("ArrowRight",))])
    assert session.game_time_ms - clock == 400  # the clock ran for the longer action only
    await session.advance(50)  # the game sees the last key-up at its next tick
    state = await session.state()
    keys = state["game_state"]["keys"]
    assert keys["d"]["down"] == keys["ArrowRight"]["down"]  # the same virtual instant (the same tick)
    # 1/60 s ticks on 16 ms frames: a hold spans its length in ticks, give or take one.
    assert abs(keys["ArrowRight"]["up"] - keys["ArrowRight"]["down"] - 12) <= 1
    assert abs(keys["d"]["up"] - keys["d"]["down"] - 24) <= 1
    assert keys["ArrowRight"]["up"] < keys["d"]["up"]  # the shorter came up first
    assert (state["game_state"]["blue"]["x"], state["game_state"]["red"]["x"]) == (2, 15)  # each moved right


@ASYNC
async def test_one_window_per_step_and_an_invalid_action_stops_only_its_role(play_coop):
    agents = {"blue": Scripted(["slow_right", "jump", "move_right"]), "red": Scripted(["move_left", "move_left", "fly"])}
    record, final, lines, _ = await play_coop("99_01", agents, max_steps=3)
    steps = step_lines(lines)
    # Each step lasts as long as its longer action (1/60 s ticks: within one tick).
    times = [s["state"]["gameTimeMs"] for s in steps]
    assert all(abs(t - ms) <= 17 for t, ms in zip(times, [400, 600, 800])), times
    assert [s["roles"]["blue"]["verdict"]["validity"] for s in steps] == ["valid", "oos", "valid"]
    assert [s["roles"]["red"]["verdict"]["validity"] for s in steps] == ["valid", "valid", "oos"]
    gs = final["game_state"]
    assert (gs["blue"]["x"], gs["red"]["x"]) == (3, 12)  # blue: 2 moves of 3, red: 2 of 3
    assert record.roles["blue"] == {"valid": 2, "ntc": 0, "oos": 1, "extra_calls": 0}
    assert record.roles["red"] == {"valid": 2, "ntc": 0, "oos": 1, "extra_calls": 0}
    assert (record.valid, record.invalid_oos, record.steps) == (4, 2, 3)


@ASYNC
async def test_level_finished_with_a_requirement_unmet_is_a_failed_episode(play_coop):
    # Blue takes all three of its gems (score 3 = target) and goes home; Red goes home with none.
    blue = ["move_right"] * 6 + ["move_left"] * 6 + ["move_down"] * 5
    red = ["move_down"] * 5
    record, final, lines, _ = await play_coop("99_02", {"blue": Scripted(blue), "red": Scripted(red)}, max_steps=20)
    steps = step_lines(lines)
    done = steps[16]
    assert done["state"]["terminal"]["outcome"] == "success" and done["score"] == 3
    assert done["reset"] and not done["success"]
    assert not record.success and record.episodes == 2 and record.steps == 20
    assert final["metrics"]["attempts"] == 2


@ASYNC
async def test_a_provider_model_plays_both_roles_through_gameworld_serve(serve, play_coop, coop, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-coop-test")
    # Every reply calls slow_right after 0.3 s: Blue's control, unknown to Red.
    server = serve("openai", [{"delay_s": 0.3, "calls": [{"name": "slow_right", "arguments": {}}]}])
    spec = coop.resolve_model("glm-4.6v", {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV})
    record, final, lines, _ = await play_coop("99_01", make_agent(spec), max_steps=3, spec=spec)
    assert record.status == "ok" and record.steps == 3
    posts = server.posts(count=6)
    assert len(posts) == 6
    spans = sorted((p["ts"] - p["elapsed_s"], p["ts"]) for p in posts)
    for first, second in zip(spans[0::2], spans[1::2]):
        assert second[0] < first[1], f"the two requests of a step overlap in time: {spans}"
    systems = {json.dumps(p["request"]["messages"][0]) for p in posts}
    assert len(systems) == 2 and any("You are Blue" in s for s in systems) and any("You are Red" in s for s in systems)
    assert record.roles["blue"] == {"valid": 3, "ntc": 0, "oos": 0, "extra_calls": 0}
    assert record.roles["red"] == {"valid": 0, "ntc": 0, "oos": 3, "extra_calls": 0}
    assert (record.valid, record.invalid_ntc, record.invalid_oos) == (3, 0, 3)
    assert final["game_state"]["blue"]["x"] == 4 and final["game_state"]["red"]["x"] == 14
    assert sum(p["usage"]["input_tokens"] for p in posts) == record.tokens_in
    for s in step_lines(lines):
        assert s["roles"]["blue"]["request"] and s["roles"]["red"]["request"]


def test_the_plugin_plays_and_replays_a_two_role_task(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--gw-catalog={COOP}",
                               "--gw-results", "out", "-k", "99_01 and not 99_02", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600)

    r = run("--gw-model", "random", "--gw-session", "a")
    assert r.returncode == 0, r.stdout[-3000:]
    rec = json.loads((tmp_path / "out" / "a" / "results.jsonl").read_text().splitlines()[0])
    assert set(rec["roles"]) == {"blue", "red"} and rec["valid"] == 2 * rec["steps"]
    path = tmp_path / "out" / "a" / rec["trajectory"]
    r = run("--gw-model", f"replay:{path}", "--gw-session", "b")
    assert r.returncode == 0, r.stdout[-3000:]  # the plugin fails a replay whose final state differs
    again = json.loads((tmp_path / "out" / "b" / "results.jsonl").read_text().splitlines()[0])
    assert (again["score_best"], again["steps"], again["roles"]) == (rec["score_best"], rec["steps"], rec["roles"])
