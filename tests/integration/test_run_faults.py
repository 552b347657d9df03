"""Harness faults mid-run (a blocked request, a JS error, an unhandled rejection) error the run's record, with the cause."""

from __future__ import annotations

import json

import pytest

from pytest_gameworld.agents.base import AgentReply, Observation, RunContext
from pytest_gameworld.browser.faults import HarnessError
from pytest_gameworld.play.actions import Proposal
from pytest_gameworld.records.jsonl import read_jsonl, strict_loads
from pytest_gameworld.records.run_record import read_results
from pytest_gameworld.report.aggregate import aggregate

ASYNC = pytest.mark.asyncio(loop_scope="session")


class Saboteur:
    """Moves left; at step 2 runs a piece of script in the game page."""

    interface = "generalist"
    needs_pixels = False

    def __init__(self, script: str) -> None:
        self.script = script
        self.ctx: RunContext | None = None

    async def begin(self, ctx: RunContext) -> None:
        self.ctx = ctx

    async def act(self, obs: Observation) -> AgentReply:
        if obs.step == 2 and self.ctx is not None:
            await self.ctx.session.page.evaluate(self.script)
        return AgentReply(calls=[Proposal("move_left")])

    async def close(self) -> None:
        pass


@ASYNC
@pytest.mark.parametrize("script, cause", [
    ("() => { fetch('http://127.0.0.1:9/leak').catch(() => {}); }", "tried to reach outside the sandbox"),
    ("() => { new WebSocket('ws://127.0.0.1:9/leak'); }", "websocket ws://127.0.0.1:9/leak"),
    ("() => { setTimeout(() => { throw new Error('kaboom'); }, 0); }", "Error: kaboom"),
    ("() => { Promise.reject(new Error('nobody caught me')); }", "nobody caught me"),
], ids=["fetch", "websocket", "js-error", "rejection"])
async def test_a_fault_mid_run_errors_the_record_with_its_cause(play_task, tmp_path, script, cause):
    with pytest.raises(HarnessError, match="01-2048") as info:
        await play_task("01_01", Saboteur(script), max_steps=6)
    assert cause in str(info.value)
    (record,) = read_jsonl(tmp_path / "results.jsonl")
    assert record["status"] == "error" and cause in record["error"]
    summary = aggregate(read_results(tmp_path / "results.jsonl").records)[record["model"]]
    assert summary.overall.runs == 0 and len(summary.missing) == 1 and cause in summary.missing[0]
    for line in (tmp_path / "results.jsonl").read_text().splitlines():
        strict_loads(line)
    steps = [json.loads(x) for x in next(tmp_path.glob("run*/steps.jsonl")).read_text().splitlines()]
    assert steps[-1]["event"] == "end" and steps[-1]["status"] == "error" and cause in steps[-1]["error"]
