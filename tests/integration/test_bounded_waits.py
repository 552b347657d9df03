"""A hanging agent cannot hold a session: each step is bounded (by the runner, whatever the agent, and by a
provider's own deadline) and the circuit breaker stops the model."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from pytest_gameworld.agents import AgentError

KEY_ENV = "GW_HANG_KEY"
STEP_S, K = 2, 2


def test_a_hanging_endpoint_ends_the_session_within_the_step_bound_times_k(serve, tmp_path: Path) -> None:
    server = serve("openai", [{"delay_s": 3600, "text": "never sent"}], extra=("--model", "glm-4.6v"))
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    started = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "--gw-model", "glm-4.6v",
         "--gw-model-opt", f"endpoint.base_url={server.url}", "--gw-model-opt", f"endpoint.api_key_env={KEY_ENV}",
         "--gw-step-timeout", str(STEP_S), "--gw-max-consecutive-faults", str(K), "-k", "01-2048",
         "--gw-max-steps", "3", "--gw-results", "out", "--gw-session", "s", "-rs",
         "--gw-concurrency", "1"],  # the breaker counts runs in a row: one at a time (in flight together below)
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**env, KEY_ENV: "sk-hang"})
    elapsed = time.monotonic() - started
    out = r.stdout
    assert r.returncode == 1, out[-3000:]
    assert "2 failed" in out and "3 errors" in out and "skipped" not in out, out[-3000:]
    records = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    assert [x["status"] for x in records] == ["error", "error"] + ["not_played"] * 3
    lines = records[:2]
    assert all("step limit of 2 s" in x["error"] for x in lines), [x["error"] for x in lines]
    breaker = [ln for ln in out.splitlines() if ln.startswith("circuit breaker: glm-4.6v failed 2 runs in a row")]
    assert len(breaker) == 1 and breaker[0].endswith("3 remaining run(s) not played"), out[-3000:]
    assert "3 planned run(s) not played (circuit breaker)" in out
    # Two runs of one bounded step each; the rest is pytest, Chromium and the SDK starting up.
    at = [(datetime.fromisoformat(x["started_at"]), datetime.fromisoformat(x["finished_at"])) for x in lines]
    played = (at[-1][1] - at[0][0]).total_seconds()
    # Each run: opening the game (a few seconds on a loaded machine) and one step cut at the bound.
    assert played < STEP_S * K + 20, played
    print(f"hanging endpoint: runs played in {played:.1f} s, session of 5 runs ended in {elapsed:.1f} s "
          f"(step bound {STEP_S} s x K={K})")
    assert elapsed < STEP_S * K + 150  # pytest, Chromium and the SDK starting up on a shared machine


def test_runs_in_flight_together_on_a_hanging_endpoint_each_end_at_the_step_bound(serve, tmp_path: Path) -> None:
    # Five runs start at once (--gw-concurrency 5): each is cut at its own step bound, none waits on another.
    server = serve("openai", [{"delay_s": 3600, "text": "never sent"}], extra=("--model", "glm-4.6v"))
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "glm-4.6v",
         "--gw-model-opt", f"endpoint.base_url={server.url}", "--gw-model-opt", f"endpoint.api_key_env={KEY_ENV}",
         "--gw-step-timeout", str(STEP_S), "-k", "01-2048", "--gw-max-steps", "3", "--gw-results", "out",
         "--gw-session", "s", "--gw-concurrency", "5", "--gw-max-consecutive-faults", "10"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**env, KEY_ENV: "sk-hang"})
    assert r.returncode == 1 and "5 failed" in r.stdout, r.stdout[-3000:]
    records = [json.loads(x) for x in (tmp_path / "out" / "s" / "results.jsonl").read_text().splitlines()]
    assert [x["status"] for x in records] == ["error"] * 5, [(x["status"], x.get("error")) for x in records]
    assert all("step limit of 2 s" in x["error"] for x in records), [x["error"] for x in records]
    at = [(datetime.fromisoformat(x["started_at"]), datetime.fromisoformat(x["finished_at"])) for x in records]
    # Played side by side: all five within about one bound (plus opening pages), not five bounds in a row.
    assert (max(e for _, e in at) - min(s for s, _ in at)).total_seconds() < STEP_S * 5, at


class Silent:
    """An agent that is not a provider (no deadline of its own) and never answers."""

    interface = "generalist"
    needs_pixels = False

    async def begin(self, ctx) -> None:
        pass

    async def act(self, obs):
        await asyncio.Event().wait()

    async def close(self) -> None:
        pass


@pytest.mark.asyncio(loop_scope="session")
async def test_the_runner_cuts_an_agent_that_never_answers_at_the_step_limit(catalog, play_task, tmp_path):
    spec = catalog.resolve_model("noop", {"step_timeout_s": 1}).model_copy(update={"name": "silent"})
    try:
        # Without the runner's own limit nothing would end this run: the guard turns that into a failure.
        await asyncio.wait_for(play_task("01_01", Silent(), model_spec=spec, max_steps=3), 120)
    except AgentError as exc:
        assert str(exc) == "no reply within the step limit of 1 s"
    else:
        pytest.fail("the run ended without the agent ever answering")
    record = json.loads((tmp_path / "results.jsonl").read_text())
    assert record["status"] == "error" and record["error"] == "AgentError: no reply within the step limit of 1 s"
    assert record["steps"] == 0
