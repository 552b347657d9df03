"""The short report of a run stopped by a fault: the error line and the run folder, no traceback (pure)."""

from __future__ import annotations

import os
from pathlib import Path

from ..agents.base import AgentError
from ..browser.faults import HarnessError
from ..records.redact import redact

# Faults of the harness or of a model endpoint: their message says everything, a traceback adds noise.
FAULTS: tuple[type[BaseException], ...] = (HarnessError, AgentError)


def is_fault(exc: BaseException) -> bool:
    return isinstance(exc, FAULTS)


def fault_text(exc: BaseException, run_dir: Path | None, cwd: Path | None = None) -> str:
    """`HarnessError: <message>` on the first line (pytest's short summary shows it), then the run folder."""
    lines = [redact(f"{type(exc).__name__}: {exc}")]
    if run_dir is not None:
        lines.append(f"run folder: {os.path.relpath(run_dir, cwd or Path.cwd())}")
    return "\n".join(lines)
