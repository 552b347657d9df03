"""Paused and real-time protocols, and exact replay of recorded runs."""

from __future__ import annotations

import asyncio
import json

import pytest

from pytest_gameworld.agents import AgentReply, Observation, RunContext
from pytest_gameworld.agents.builtin import ReplayAgent
from pytest_gameworld.play.actions import Proposal

pytestmark = pytest.mark.asyncio(loop_scope="session")
FLAPPY = "13_02"


class ScriptedAgent:
    """Flaps on a fixed schedule, optionally thinking (sleeping) before each answer."""

    interface = "generalist"
    needs_pixels = False

    def __init__(self, think_s: float = 0.0, steps: int = 6, plan: list[str] | None = None) -> None:
        self.think_s = think_s
        self.game_times: list[int] = []
        self.plan = (plan or ["flap", "wait", "wait", "flap", "wait", "flap"])[:steps]

    async def begin(self, ctx: RunContext) -> None:
        pass

    async def act(self, obs: Observation) -> AgentReply:
        self.game_times.append(obs.state["gameTimeMs"])
        await asyncio.sleep(self.think_s)
        return AgentReply(calls=[Proposal(self.plan[obs.step % len(self.plan)])])

    async def close(self) -> None:
        pass


async def test_paused_protocol_thinking_costs_no_game_time(play_task):
    fast = ScriptedAgent(0.0, steps=3)
    slow = ScriptedAgent(2.0, steps=3)
    rec_fast, final_fast, _ = await play_task(FLAPPY, fast, max_steps=3)
    rec_slow, final_slow, _ = await play_task(FLAPPY, slow, max_steps=3)
    assert slow.game_times == fast.game_times
    assert final_slow == final_fast
    assert rec_slow.latency_per_step >= 2.0 > rec_fast.latency_per_step


async def test_realtime_protocol_advances_the_clock_by_latency_and_replays_exactly(play_task):
    agent = ScriptedAgent(0.3, steps=3, plan=["flap"])
    rec, final, steps_path = await play_task(FLAPPY, agent, max_steps=3, realtime=True)
    steps = [json.loads(x) for x in steps_path.read_text().splitlines() if '"event": "step"' in x]
    assert all(s["latency_ms"] >= 300 for s in steps)
    # Once playing, a step costs the measured latency plus the action's 200 ms of game time.
    t = agent.game_times
    assert t[2] - t[1] >= 500
    paused = ScriptedAgent(0.3, steps=3, plan=["flap"])
    await play_task(FLAPPY, paused, max_steps=3)
    assert paused.game_times[2] - paused.game_times[1] < 250
    replay = ReplayAgent(str(steps_path))
    rec2, final2, _ = await play_task(FLAPPY, replay, max_steps=3, realtime=True)
    assert final2 == final and rec2.protocol == "realtime"


async def test_replay_reproduces_a_recorded_run_and_detects_tampering(play_task, tmp_path):
    rec, final, steps_path = await play_task("19_04", "random", max_steps=15)
    replay = ReplayAgent(str(steps_path))
    _, final2, _ = await play_task("19_04", replay, max_steps=15)
    assert final2 == final and replay.final_state == final
    lines = steps_path.read_text().splitlines()
    tampered = tmp_path / "tampered.jsonl"
    out = []
    for line in lines:
        rec_ = json.loads(line)
        if rec_.get("event") == "step" and rec_["verdict"]["action"]["kind"] in ("click", "right_click"):
            rec_["verdict"]["action"]["x"] += 56  # one column over
        out.append(json.dumps(rec_))
    tampered.write_text("\n".join(out))
    _, final3, _ = await play_task("19_04", ReplayAgent(str(tampered)), max_steps=15)
    assert final3 != final


async def test_a_builtin_agent_with_simulated_latency_loses_exactly_that_game_time_in_realtime(play_task, catalog):
    spec = catalog.resolve_model("noop", {"extra.latency_ms": 500})

    async def game_times(realtime: bool) -> tuple[list[int], dict]:
        _, final, path = await play_task("01_01", "noop", realtime=realtime, max_steps=4, model_spec=spec)
        steps = [json.loads(x) for x in path.read_text().splitlines() if '"event": "step"' in x]
        assert [s["latency_ms"] for s in steps] == [500] * 4
        return [s["state"]["gameTimeMs"] for s in steps], final

    rt, final = await game_times(True)
    # A 1 s wait plus 500 ms of thinking per step, give or take one 1/60 s tick of frame phase.
    assert all(abs(b - a - 1500) <= 17 for a, b in zip(rt, rt[1:])), rt
    assert (await game_times(True)) == (rt, final), "the simulated latency replays exactly"
    paused, _ = await game_times(False)
    assert all(abs(b - a - 1000) <= 17 for a, b in zip(paused, paused[1:])), paused


async def test_simulated_latency_must_be_whole_milliseconds(catalog):
    from pytest_gameworld.agents import make_agent
    from pytest_gameworld.catalog.specs import CatalogError

    with pytest.raises(CatalogError, match="extra.latency_ms"):
        make_agent(catalog.resolve_model("oracle", {"extra.latency_ms": -5}))
