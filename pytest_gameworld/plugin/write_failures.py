"""A session that cannot write its files stops at the first failed write, in one line naming the path and errno.

A full disk or an unwritable results folder would otherwise let every run call its model for all its steps while
nothing is kept. The first RecordWriteError of a run (records/jsonl.py) becomes its one-line failure and the
session's stop reason (``session.shouldstop``: pytest, and each xdist worker, start no further run); files that
cannot be written at the session's end (the results page, gate.json, pytest-html's report) are named in the
summary instead of ending it in a traceback. What was written before stays readable: runs not recorded are
missing and --lf or --gw-resume plays them again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ..records.jsonl import RecordWriteError

UNWRITTEN = pytest.StashKey[list[str]]()  # files the session's end could not write, one line each


def write_error(exc: BaseException | None) -> RecordWriteError | None:
    """The RecordWriteError a run failed on (also when it is the cause of another error), else None."""
    while exc is not None:
        if isinstance(exc, RecordWriteError):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def stop_on_write_failure(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
    """A run that failed to write: its report is the one line, and the session starts no further run."""
    exc = write_error(call.excinfo.value if call.excinfo is not None else None)
    if exc is None or not report.failed:
        return
    line = str(exc)
    report.longrepr = f"{type(exc).__name__}: {line}"
    if not item.session.shouldstop:
        item.session.shouldstop = line


def before_any_run(write: Callable[[], Any]) -> None:
    """A file the session writes before any run (its plan, its named models) that cannot be written: a usage error
    in one line, so nothing is played into a folder that cannot keep it."""
    try:
        write()
    except RecordWriteError as exc:
        raise pytest.UsageError(str(exc)) from None


def probe_session_dir(session_dir: Path, inert: bool) -> None:
    """Create the session's folder before anything is written into it (pytest-html makes its report's folder at
    configure time and would end in an INTERNALERROR): a folder that cannot be made is a usage error, one line.
    An invocation that only shows something (``inert``) creates nothing."""
    if inert:
        return
    try:
        session_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise pytest.UsageError(str(RecordWriteError.of(session_dir, exc))) from None


def unwritten(config: pytest.Config) -> list[str]:
    return config.stash.setdefault(UNWRITTEN, [])


def note_unwritten(config: pytest.Config, exc: OSError, path: Path | None = None) -> None:
    """A file the session's end could not write, as one summary line (path and errno)."""
    if not isinstance(exc, RecordWriteError):
        exc = RecordWriteError.of(path or Path(exc.filename or "?"), exc)
    unwritten(config).append(str(exc))


def keep_going(config: pytest.Config, write: Callable[[], Any]) -> Any:
    """What write() returns, or None when it failed to write a file: the failure is noted for the summary."""
    try:
        return write()
    except OSError as exc:
        note_unwritten(config, exc)
        return None


def summary_lines(config: pytest.Config) -> list[str]:
    return [f"not written: {line}" for line in unwritten(config)]
