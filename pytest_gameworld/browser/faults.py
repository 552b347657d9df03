"""The browser side's faults: what goes wrong outside the game's rules (the run is not scored), and the time
bound that turns a call that does not answer into one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def bounded(call: Awaitable[T], timeout_s: float, on_timeout: Callable[[], BaseException]) -> T:
    """Await a call for at most timeout_s seconds; past that, raise what on_timeout() returns (every call into a
    page, its context or its clock is bounded this way)."""
    try:
        return await asyncio.wait_for(call, timeout_s)
    except asyncio.TimeoutError:
        raise on_timeout() from None


class HarnessError(RuntimeError):
    """An infrastructure fault (browser, page, game JS, readiness): the run is not scored."""


class BrowserGone(HarnessError):
    """The browser would not open a context: it died (or its server went away) since the last run."""


class BrowserNotFound(HarnessError):
    pass


class PageUnresponsive(HarnessError):
    """A call into the page did not return within its bound; the page (and its context) is given up."""

    def __init__(self, game: str, what: str, timeout_s: float) -> None:
        super().__init__(game, what, timeout_s)
        self.game, self.what, self.timeout_s = game, what, timeout_s
        self.step: int | None = None  # the runner adds the step it was in (0-based, as steps.jsonl)

    def __str__(self) -> str:
        at = f" at step {self.step + 1}" if self.step is not None else ""  # 1-based, as the viewer shows steps
        return f"{self.game}: page unresponsive during {self.what}{at} (no answer within {self.timeout_s:g} s)"
