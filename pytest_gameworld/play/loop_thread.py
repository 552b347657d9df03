"""An asyncio loop on a thread of its own, so runs go on while the caller's thread does something else.

pytest runs one item at a time on its main thread and, between items, does its own work (reports, xdist's
wait for the next item): runs played on a loop of that thread would stand still meanwhile. Here many runs
play on this loop while the main thread waits for the one its current item reports.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """One event loop on a daemon thread; coroutines are submitted from any thread."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    @property
    def on_it(self) -> bool:
        """Whether the caller runs on this loop's own thread (waiting there for its own loop would hang)."""
        return threading.current_thread() is self._thread

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and not self.loop.is_closed()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule ``coro`` on the loop; its future, to wait on from another thread."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def call(self, fn: Callable[..., Awaitable[T]], *args: Any, timeout_s: float, what: str) -> T:
        """Run ``fn(*args)`` on the loop and wait for it, at most ``timeout_s`` (TimeoutError names ``what``)."""
        future = self.submit(_called(fn, *args))
        try:
            return future.result(timeout_s)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"{what} did not finish within {timeout_s:g} s") from None

    def stop(self, timeout_s: float) -> None:
        """Cancel what still runs (each task gets ``timeout_s`` to finish its own clean-up), stop the loop and
        join the thread, bounded."""
        if not self.running:
            return

        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            if tasks:
                await asyncio.wait(tasks, timeout=timeout_s)

        try:
            self.submit(cancel_all()).result(timeout_s + 1.0)
        except (concurrent.futures.TimeoutError, RuntimeError):
            pass  # a task that ignores cancellation: the loop stops under it
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout_s)
        if not self._thread.is_alive():
            self.loop.close()


async def _called(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    return await fn(*args)
