"""Traits of real upstream pages, carried by the fixture checkout's own games, in real Chromium: a start that
waits on the page's timers and frames, a page that never gets ready, the page's own seeded randomness and
clock, a CSS transition (tests/fixtures/upstream_checkout, game 94_lazy-dice)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from pytest_gameworld.browser.faults import HarnessError
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.play.actions import Action

ASYNC = pytest.mark.asyncio(loop_scope="session")
ROLL = Action(kind="press_key", keys=["ArrowUp"], duration_ms=200)


@pytest.fixture
def open_dice(open_upstream):
    """Open the lazy dice page with a seed and a URL suffix (closed at teardown)."""

    async def _open(seed: int = 1, suffix: str | None = None) -> GameSession:
        return await open_upstream("94_lazy-dice", seed, suffix)

    return _open


@ASYNC
async def test_init_and_reset_that_wait_on_the_pages_timers_and_frames_settle_in_game_time(open_dice):
    session = await open_dice()
    state = await session.init({"seed": 1})
    # 150 ms timer, a frame, then init's own 120 ms timer: none of it runs unless game time passes.
    assert state["status"] == "playing" and state["is_actionable"] is True
    assert 270 <= session.game_time_ms <= 600
    before = session.game_time_ms
    state = await session.reset({})
    assert session.resets == ["inplace"] and state["metrics"]["attempts"] == 2
    assert session.game_time_ms - before >= 100  # reset's 100 ms timer ran


@ASYNC
@pytest.mark.parametrize("suffix, message", [
    ("?stuck=1", r"not ready after 10000 ms of game time \(.* s wall\); stuck in status 'loading'"),
    ("?hang=1", r"gameAPI.init did not settle after 10000 ms of game time \(.* s wall\); stuck in status 'ready'"),
])
async def test_a_page_that_never_gets_ready_is_given_up_on_and_names_its_status(open_dice, suffix, message):
    session = await open_dice(suffix=suffix)
    with pytest.raises(HarnessError, match=message):
        await session.init({"seed": 1})


async def _play(session: GameSession, rolls: int) -> list[Any]:
    seen = [await session.init({"seed": 0})]
    frames = []
    for _ in range(rolls):
        await session.execute(ROLL)
        seen.append(await session.state())
        frames.append(await session.screenshot())
    seen.append(await session.reset({}))
    return seen + [frames]


@ASYNC
async def test_the_pages_own_seeded_random_and_clock_do_not_defeat_the_runs_seed(open_dice):
    # The page replaces Math.random and crypto.getRandomValues with generators of its own fixed seed,
    # and the clock with its own; the run's seed must still decide the dice, and decide them alone.
    first, again, other = [await _play(await open_dice(seed), 4) for seed in (11, 11, 12)]
    assert first == again

    def dice(run: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
        return [(s["game_state"]["environment"]["dice"], s["game_state"]["environment"]["bonus"]) for s in run[:-1]]

    # The CSS transition of the roll counter (2 s of wall time in a browser) has ended in every frame: the
    # badge stands where the last roll put it, whatever the machine's load.
    for rolls, frame in enumerate(first[-1], start=1):
        picture = Image.open(io.BytesIO(frame)).convert("RGB")
        assert picture.getpixel((rolls * 100 + 30, 70)) == (238, 51, 51)
        assert picture.getpixel(((rolls - 1) * 100 + 30, 70)) != (238, 51, 51)
    assert dice(first) != dice(other)
    assert [s["game_state"]["environment"]["bonus"] for s in first[:-1]] != \
        [s["game_state"]["environment"]["bonus"] for s in other[:-1]]  # crypto too, not only Math.random
    # The page's generator restart (its __resetRandom) restarts the run's stream: the reset deals the first hand again.
    assert dice(first)[-1] == dice(first)[0]
    assert first[1]["timestampMs"] == first[0]["timestampMs"] + 200  # the page's clock reads the harness's
