"""SIGTERM ends a benchmark session the way Ctrl-C does, and no browser outlives the process that launched it.

pytest (and xdist, in the controller and each worker) tears a session down in order on KeyboardInterrupt:
runs in flight are written down, fixtures close their browsers, workers are told to stop. SIGTERM's default
ends the process at once instead, so it is turned into the same KeyboardInterrupt. Whatever still runs of
the browsers this process launched when it exits (a teardown cut short) is killed at exit.
"""

from __future__ import annotations

import atexit
import signal
import threading
from collections.abc import Callable
from typing import Any

from ..browser.processes import kill_launched


def _interrupt(signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


def install() -> Callable[[], None]:
    """Take over SIGTERM (unless someone else already has) and kill leftover browsers at exit; returns the undo."""
    atexit.unregister(kill_launched)  # once, however many sessions one process runs
    atexit.register(kill_launched)
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        return lambda: None
    signal.signal(signal.SIGTERM, _interrupt)

    def undo() -> None:
        if signal.getsignal(signal.SIGTERM) is _interrupt:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    return undo
