"""Two-role runs without a browser: one agent per role, per-role counts and IAR over every proposal."""

from pathlib import Path

import pytest

from pytest_gameworld.agents.base import AgentReply
from pytest_gameworld.agents.builtin import NoopAgent, RandomAgent
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.play.actions import Proposal
from pytest_gameworld.play.evaluator import Evaluator
from pytest_gameworld.play.runner import seat_agents
from pytest_gameworld.play.semantic import classify
from pytest_gameworld.play.tally import Tally
from pytest_gameworld.records.run_record import Measured, RunRecord
from pytest_gameworld.report.aggregate import aggregate

COOP = Path(__file__).resolve().parent.parent / "fixtures" / "coop_catalog"


@pytest.fixture(scope="module")
def coop():
    return load_catalog(COOP)


def test_a_single_agent_takes_the_first_role_and_the_others_get_fresh_agents_of_the_spec(coop):
    game, spec = coop.games["99-coop-pads"], coop.resolve_model("random")
    mine = RandomAgent()
    seats = seat_agents(mine, game, spec)
    assert list(seats) == ["blue", "red"] and seats["blue"] is mine
    assert isinstance(seats["red"].agent, RandomAgent) and seats["red"] is not mine  # wrapped: SimulatedLatency
    assert seat_agents({"red": NoopAgent(), "blue": mine}, game, spec)["blue"] is mine  # game.yaml's order
    with pytest.raises(ValueError, match="no agent for role"):
        seat_agents({"blue": mine}, game, spec)


def test_legality_is_per_role(coop):
    game = coop.games["99-coop-pads"]
    blue, red = game.roles["blue"], game.roles["red"]
    assert classify([Proposal("slow_right")], "generalist", blue, game.viewport).validity == "valid"
    assert classify([Proposal("slow_right")], "generalist", red, game.viewport).validity == "oos"
    cua_left = [Proposal("press_key", {"key": "ArrowLeft"})]
    assert classify(cua_left, "cua", red, game.viewport).validity == "valid"
    verdict = classify(cua_left, "cua", blue, game.viewport)
    assert verdict.validity == "oos" and verdict.action.kind == "wait"  # a no-op for that role only


def test_the_record_keeps_each_roles_counts_and_iar_counts_every_proposal(coop):
    task = next(t for t in coop.tasks if t.id == "99_01")
    game, spec = coop.games["99-coop-pads"], coop.resolve_model("noop")
    blue, red, total = Tally(), Tally(), Tally()
    for i in range(10):  # ten steps: blue always valid, red invalid every other step
        for tally, validity in ((blue, "valid"), (red, "valid" if i % 2 else "oos")):
            verdict = classify([Proposal("wait" if validity == "valid" else "fly")], "generalist",
                               game.roles["blue"], game.viewport)
            for t in (tally, total):
                t.count(verdict, AgentReply(), 0.0, 0.0)
    record = RunRecord.begin(item="i", task=task, game=game, model=spec, role="blue+red", seed=0, repeat=0,
                             protocol="paused", max_steps=30, catalog_version="", session="s", trajectory="t", now="x")
    record.finish(Measured(Evaluator(task), 10, total, 1.0, "y", {"blue": blue, "red": red}), "max_steps")
    assert record.roles == {"blue": {"valid": 10, "ntc": 0, "oos": 0, "extra_calls": 0},
                            "red": {"valid": 5, "ntc": 0, "oos": 5, "extra_calls": 0}}
    assert (record.valid, record.invalid_oos, record.steps) == (15, 5, 10)
    s = aggregate([record])["noop"]
    assert s.proposed == 20 and s.iar == pytest.approx((25.0, 0.0, 25.0))  # 5 of 20 proposals, not of 10 steps
