"""--gw-tracing: a Playwright trace (screenshots, DOM snapshots, console) of each run, written beside its
steps.jsonl as trace.zip; under retain-on-failure only a run that faulted keeps it.

The trace starts as soon as the run's browser context exists, before the game page is opened and navigated, so
a fault while loading (a page that never settles, a missing asset) is in it; it stops before the page closes,
when the run ends or when opening the page fails. Both calls are bounded like every page call, so a hung page
costs its trace, never the session.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..browser.faults import bounded
from ..report.run_viewer import TRACE_NAME


class TraceTimeout(RuntimeError):
    """The browser did not answer a tracing call in time."""


def keeps_trace(mode: str, failed: bool) -> bool:
    """Whether a run's trace is written: always under `on`, for a faulted run under `retain-on-failure`."""
    return mode == "on" or (mode == "retain-on-failure" and failed)


def _first_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


@dataclass
class RunTrace:
    """One run's trace: started on its context as it is created (GameSession.open calls start), stopped once."""

    mode: str
    timeout_s: float
    run_dir: Path
    problem: str | None = None  # why tracing could not start (the run goes on without it)
    started: bool = False

    async def start(self, context: Any) -> None:
        """Start tracing a fresh context; a failure is noted in ``problem``, never raised."""
        self.started, self.problem = False, None  # a renewed browser's context is traced anew
        if self.mode == "off":
            return
        try:
            await bounded(context.tracing.start(screenshots=True, snapshots=True, sources=False), self.timeout_s,
                          lambda: TraceTimeout(f"tracing did not start within {self.timeout_s:g} s"))
        except Exception as exc:  # noqa: BLE001 (a trace is a help, never a reason to fault a run)
            self.problem = _first_line(exc)
            return
        self.started = True

    async def stop(self, context: Any, failed: bool) -> Path | None:
        """Stop tracing; the trace file when it was kept and written in time, else None (a hung page: none)."""
        if not self.started:
            return None
        self.started = False
        keep = keeps_trace(self.mode, failed)
        path = self.run_dir / TRACE_NAME
        call = context.tracing.stop(path=str(path)) if keep else context.tracing.stop()
        try:
            await bounded(call, self.timeout_s, lambda: TraceTimeout(f"tracing did not stop within {self.timeout_s:g} s"))
        except Exception:  # noqa: BLE001 (a closed context, a hung page: the run's record stands)
            return None
        return path if keep and path.is_file() else None
