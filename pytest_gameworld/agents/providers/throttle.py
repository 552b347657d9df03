"""What one endpoint takes from all of a process's runs at once: a bound on requests in flight (a spec's
``max_connections``) and a shared back-off (a 429 or Retry-After seen by one run holds every run's next request
to that endpoint until then), so many runs in flight slow down together instead of each hammering it alone.

Time spent waiting here is the queue's, not the model's: callers record it apart and do not count it against
the step limit or, under --gw-rt, as the model's latency.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager


class EndpointThrottle:
    """One endpoint's slots and not-before time, on one event loop."""

    def __init__(self, limit: int | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._slots = asyncio.Semaphore(limit) if limit else None
        self._clock = clock
        self.not_before = 0.0  # no request leaves before this clock time (a shared back-off)
        self.in_flight = 0
        self.peak = 0

    def narrow(self, limit: int | None) -> None:
        """Another spec names the same endpoint with a smaller bound: the smaller one holds (before first use)."""
        if limit and (self.limit is None or limit < self.limit) and self.in_flight == 0:
            self.limit = limit
            self._slots = asyncio.Semaphore(limit)

    def back_off(self, seconds: float) -> None:
        """Every run's next request to this endpoint waits until ``seconds`` from now."""
        self.not_before = max(self.not_before, self._clock() + max(0.0, seconds))

    @asynccontextmanager
    async def slot(self, waited: list[float]) -> AsyncIterator[None]:
        """Hold one of the endpoint's slots for one request; the seconds spent waiting are appended to
        ``waited`` (for the back-off, then for the slot)."""
        t0 = self._clock()
        while self._clock() < self.not_before:
            await asyncio.sleep(self.not_before - self._clock())
        if self._slots is not None:
            await self._slots.acquire()
        waited.append(self._clock() - t0)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            yield
        finally:
            self.in_flight -= 1
            if self._slots is not None:
                self._slots.release()


# Per event loop (a semaphore belongs to one), per endpoint.
_THROTTLES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, EndpointThrottle]] = \
    weakref.WeakKeyDictionary()


def throttle_for(endpoint: str, limit: int | None) -> EndpointThrottle:
    """The running loop's throttle for ``endpoint`` (a base URL, or the provider's name for its default one)."""
    loop = asyncio.get_running_loop()
    table = _THROTTLES.setdefault(loop, {})
    throttle = table.get(endpoint)
    if throttle is None:
        throttle = table[endpoint] = EndpointThrottle(limit)
    else:
        throttle.narrow(limit)
    return throttle
