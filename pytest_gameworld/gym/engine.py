"""The engine behind the environments: one asyncio loop in a background thread of its own (the LoopThread the
benchmark's concurrent runs play on), with Playwright and the process's one BrowserHost in it. Gymnasium's API
is synchronous; each reset and step is a coroutine run on this loop, so a vector of environments steps all
its games at once on the one browser (a context each).

Environments made with the same browser options share an engine; the last one to close it closes the browser,
stops Playwright's driver and ends the thread, leaving no process behind.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from ..browser.host import BrowserHost
from ..browser.processes import kill_launched
from ..play.loop_thread import LoopThread
from .options import BrowserOptions

T = TypeVar("T")
START_TIMEOUT_S = 60.0  # Playwright's driver starting (at least; twice the page timeout when that is longer)


class EngineTimeout(RuntimeError):
    """An operation of the engine did not finish within its bound."""


class Engine:
    """A loop thread, Playwright and a BrowserHost, shared by the environments of one set of browser options."""

    _shared: dict[tuple[Any, ...], Engine] = {}
    _lock = threading.Lock()

    def __init__(self, options: BrowserOptions) -> None:
        self.options = options
        self.users = 0
        self.loop_thread = LoopThread("gameworld-gym")
        self.playwright: Any = None
        self.host: Any = None  # its cap on games opening at once bounds a vector's resets too (browser/host.py)
        try:
            self.run(self._start(), max(START_TIMEOUT_S, 2 * options.page_timeout), "Playwright's driver to start")
        except BaseException:
            self.loop_thread.stop(10.0)
            raise

    @classmethod
    def acquire(cls, options: BrowserOptions) -> Engine:
        """The engine of these browser options (started on first use), counted as used once more."""
        with cls._lock:
            engine = cls._shared.get(options.key())
            if engine is None:
                engine = cls._shared[options.key()] = cls(options)
            engine.users += 1
            return engine

    def release(self) -> None:
        """One user fewer; the last one shuts the engine down (browser, driver, thread)."""
        with self._lock:
            self.users -= 1
            if self.users > 0:
                return
            self._shared.pop(self.options.key(), None)
        self.shutdown()

    @property
    def bound_s(self) -> float:
        """The longest one reset or step may take: every page call in it is bounded by the page timeout, and
        opening a game, its readiness gate and a reload make a few dozen of them in the worst case."""
        return 4 * self.options.page_timeout + 60.0

    def run(self, coro: Coroutine[Any, Any, T], timeout_s: float | None = None, what: str = "a step") -> T:
        """Run a coroutine on the engine's loop and wait for its result (bounded: EngineTimeout names it)."""
        if self.loop_thread.on_it:
            raise RuntimeError("an environment was called from inside its own engine's loop")
        future = self.loop_thread.submit(coro)
        limit = self.bound_s if timeout_s is None else timeout_s
        try:
            return future.result(limit)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise EngineTimeout(f"gameworld env: {what} did not finish within {limit:g} s") from None

    async def _start(self) -> None:
        from playwright.async_api import async_playwright

        self.playwright = await async_playwright().start()
        self.host = BrowserHost(self.playwright, self.options)

    async def _stop(self) -> None:
        try:
            if self.host is not None:
                await self.host.close()  # bounded; a browser that does not close is killed
        finally:
            if self.playwright is not None:
                await asyncio.wait_for(self.playwright.stop(), self.options.page_timeout)

    def shutdown(self) -> None:
        """Close the browser and Playwright, then end the loop's thread (bounded)."""
        if not self.loop_thread.running:
            return
        try:
            self.run(self._stop(), 2 * self.options.page_timeout + 10, "closing the browser")
        except Exception:
            kill_launched()  # whatever did not close in time
        finally:
            self.loop_thread.stop(10.0)


@atexit.register
def _shutdown_all() -> None:
    """At interpreter exit, every engine still open is shut down (no browser left behind)."""
    for engine in list(Engine._shared.values()):
        Engine._shared.pop(engine.options.key(), None)
        engine.shutdown()
