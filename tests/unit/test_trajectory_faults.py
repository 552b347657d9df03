"""A trajectory write that fails (here on /dev/full, which refuses every write with ENOSPC) is raised once, from
the step that waits for it, and leaves nothing for asyncio to print at exit: CI once saw "Future exception was
never retrieved" with a traceback after a full-disk session had already ended correctly."""

from __future__ import annotations

import asyncio
import errno
import gc
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_gameworld.play.runner import WRITE_LAG_STEPS, Trajectory
from pytest_gameworld.records.jsonl import RecordWriteError
from pytest_gameworld.records.run_events import EpisodeReset

FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
def test_a_write_that_fails_while_a_step_waits_for_it_is_raised_and_leaves_no_unread_exception(
        tmp_path: Path) -> None:
    (tmp_path / "steps.jsonl").symlink_to(FULL)
    unread: list[dict[str, Any]] = []
    raised: list[str] = []  # the message only: a kept exception's traceback would keep the step's views alive

    async def play() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: unread.append(ctx))
        traj = Trajectory(tmp_path)
        # Hold the writer so the steps' writes are still queued when a step waits for them: the failure then
        # arrives during the wait (on a loaded CI machine the niced writer thread lags like this by itself).
        traj._writer.submit(time.sleep, 0.3)
        try:
            for step in range(WRITE_LAG_STEPS + 2):
                traj.write(EpisodeReset(step, "inplace", "lost", "lost", None))
                await traj.raise_failed()
        except RecordWriteError as e:
            raised.append(str(e))
        traj.close()
        del traj
        gc.collect()  # a view of a failed write reports an unread exception when it is collected
        await asyncio.sleep(0)

    asyncio.run(play())
    assert len(raised) == 1 and "steps.jsonl" in raised[0] and str(errno.ENOSPC) in raised[0], raised
    assert unread == [], [c.get("message") for c in unread]
