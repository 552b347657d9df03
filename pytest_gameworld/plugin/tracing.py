"""--gw-tracing: a Playwright trace (screenshots, DOM snapshots, console) of each run, written beside its
steps.jsonl as trace.zip; under retain-on-failure only a run that faulted keeps it.

The trace starts once the game page is open (the context is the sandbox's) and stops before the page closes;
both calls are bounded like every page call, so a hung page costs its trace, never the session.
"""

from __future__ import annotations

from pathlib import Path

from ..browser.sandbox import GameSession, bounded
from ..report.run_viewer import TRACE_NAME


class TraceTimeout(RuntimeError):
    """The browser did not answer a tracing call in time."""


async def start_trace(session: GameSession, mode: str, timeout_s: float) -> str | None:
    """Start tracing the run's context; None when started (or off), else why it could not start."""
    if mode == "off":
        return None
    try:
        await bounded(session.context.tracing.start(screenshots=True, snapshots=True, sources=False), timeout_s,
                      lambda: TraceTimeout(f"tracing did not start within {timeout_s:g} s"))
    except Exception as exc:  # noqa: BLE001 (a trace is a help, never a reason to fault a run)
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return None


def keeps_trace(mode: str, failed: bool) -> bool:
    """Whether a run's trace is written: always under `on`, for a faulted run under `retain-on-failure`."""
    return mode == "on" or (mode == "retain-on-failure" and failed)


async def stop_trace(session: GameSession, mode: str, failed: bool, run_dir: Path, timeout_s: float) -> Path | None:
    """Stop tracing; the trace file when it was kept and written in time, else None (a hung page: none)."""
    if mode == "off":
        return None
    keep = keeps_trace(mode, failed)
    path = run_dir / TRACE_NAME
    call = session.context.tracing.stop(path=str(path)) if keep else session.context.tracing.stop()
    try:
        await bounded(call, timeout_s, lambda: TraceTimeout(f"tracing did not stop within {timeout_s:g} s"))
    except Exception:  # noqa: BLE001 (not started, a closed context, a hung page: the run's record stands)
        return None
    return path if keep and path.is_file() else None
