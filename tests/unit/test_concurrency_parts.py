"""The pure parts of many runs in flight: the default concurrency, the start order, the endpoint throttle
(connection slots, shared back-off), the step limit that does not count the queue, the server's latency."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from pytest_gameworld.agents.base import AgentError, AgentReply
from pytest_gameworld.agents.providers.retry import Failure, call_with_retries
from pytest_gameworld.agents.providers.throttle import EndpointThrottle, throttle_for
from pytest_gameworld.endpoint.server import Latency
from pytest_gameworld.play.concurrency import auto_concurrency, available_mb, next_to_start
from pytest_gameworld.play.loop_thread import LoopThread
from pytest_gameworld.play.runner import act_within


def test_the_default_is_one_for_built_in_agents_and_bounded_by_memory_for_models():
    assert auto_concurrency(False, 64_000, 1) == 1
    assert auto_concurrency(True, 64_000, 1) == 16
    assert auto_concurrency(True, 24_000, 2) == 16  # (24000-1024) // (120*2) = 95, capped
    assert auto_concurrency(True, 3_000, 2) == 8  # (3000-1024) // 240
    assert auto_concurrency(True, 900, 4) == 1
    assert auto_concurrency(True, None, 1) == 4


def test_available_memory_is_read_from_meminfo(tmp_path: Path):
    (tmp_path / "m").write_text("MemTotal: 100 kB\nMemAvailable:   2097152 kB\n")
    assert available_mb(tmp_path / "m") == 2048
    assert available_mb(tmp_path / "missing") is None


def test_runs_start_in_the_order_they_will_be_reported_skipping_started_and_unplayable():
    upcoming = ["a", "b", "c", "d", "e"]
    assert next_to_start(upcoming, started={"a"}, playable={"a", "b", "d", "e"}, in_flight=1, limit=3) == ["b", "d"]
    assert next_to_start(upcoming, started=set(), playable=set(upcoming), in_flight=3, limit=3) == []


def test_the_connection_limit_holds_over_every_caller_of_an_endpoint():
    async def main() -> tuple[int, list[float]]:
        waited: list[float] = []

        async def call() -> None:
            async with throttle_for("http://x/v1", 2).slot(waited):
                await asyncio.sleep(0.05)

        await asyncio.gather(*(call() for _ in range(6)))
        return throttle_for("http://x/v1", None).peak, waited

    peak, waited = asyncio.run(main())
    assert peak == 2 and sum(w > 0.03 for w in waited) >= 3  # four of six waited for a slot


def test_a_back_off_holds_every_callers_next_request():
    now = [100.0]
    throttle = EndpointThrottle(None, clock=lambda: now[0])
    throttle.back_off(2.0)
    throttle.back_off(0.5)  # a shorter one never shortens it
    assert throttle.not_before == 102.0


def test_a_429_backs_off_the_others_and_their_wait_does_not_count_against_their_deadline():
    async def main() -> tuple[float, float, float, list[float]]:
        throttle = EndpointThrottle(None)
        attempts = {"n": 0}

        async def first() -> str:
            attempts["n"] += 1
            if attempts["n"] == 1:
                raise RuntimeError("429")
            return "ok"

        def classify(exc: BaseException) -> Failure:
            return Failure("rate limited", retryable=True, status=429, retry_after=0.4)

        queued: list[float] = []

        async def other() -> tuple[float, float, float]:
            limit = time.monotonic() + 5.0
            while throttle.not_before == 0.0 and time.monotonic() < limit:  # until the 429 set the back-off
                await asyncio.sleep(0.001)
            t0, until = time.monotonic(), throttle.not_before
            # Its own step deadline (0.2 s) is shorter than the back-off: the queue's wait is not counted.
            await call_with_retries(lambda: asyncio.sleep(0.0), classify, what="other", max_retries=0,
                                    timeout_s=5, deadline_s=0.2, throttle=throttle, queued=queued)
            return t0, until, time.monotonic()

        _, (t0, until, ended) = await asyncio.gather(
            call_with_retries(first, classify, what="first", max_retries=2, timeout_s=5, throttle=throttle),
            other())
        return t0, until, ended, queued

    t0, until, ended, queued = asyncio.run(main())
    assert until > t0, "the 429 set a shared back-off"
    # However late the other caller came (a loaded machine), it left no earlier than the back-off's end and its
    # wait was recorded as queue time, not as its own latency (which would have broken its 0.2 s deadline).
    assert ended >= until - 0.005 and sum(queued) >= (until - t0) - 0.02, (t0, until, ended, queued)


class _Queued:
    """An agent whose reply takes 0.55 s, of which 0.5 s is spent waiting for a connection slot."""

    interface, needs_pixels = "generalist", False

    def __init__(self) -> None:
        self.queued_s = 0.0

    async def act(self, obs: object) -> AgentReply:
        for _ in range(5):
            await asyncio.sleep(0.1)
            self.queued_s += 0.1
        await asyncio.sleep(0.05)
        return AgentReply()


def test_the_step_limit_does_not_count_the_wait_for_a_connection_slot():
    reply = asyncio.run(act_within(_Queued(), object(), limit_s=-0.7))  # 0.3 s with the grace: the model's 0.05
    assert isinstance(reply, AgentReply)

    class Slow(_Queued):
        async def act(self, obs: object) -> AgentReply:
            await asyncio.sleep(0.8)
            return AgentReply()

    with pytest.raises(AgentError, match="step limit"):
        asyncio.run(act_within(Slow(), object(), limit_s=-0.7))


def test_served_latency_is_the_same_for_the_same_request_and_varies_within_the_jitter():
    lat = Latency(1500, 300, seed=1)
    assert lat.seconds(b"a") == lat.seconds(b"a")
    spread = [lat.seconds(bytes([i])) for i in range(200)]
    assert all(1.2 <= s <= 1.8 for s in spread) and max(spread) - min(spread) > 0.4
    assert Latency().seconds(b"a") == 0.0


def test_a_loop_thread_plays_while_the_caller_blocks_and_stops_what_is_left():
    loop = LoopThread("t")
    started = loop.submit(asyncio.sleep(30))
    assert loop.call(asyncio.sleep, 0.01, timeout_s=5, what="a short sleep") is None
    with pytest.raises(TimeoutError, match="a long sleep did not finish within 0.1 s"):
        loop.call(asyncio.sleep, 10, timeout_s=0.1, what="a long sleep")
    loop.stop(2.0)
    assert started.cancelled() and not loop.running
