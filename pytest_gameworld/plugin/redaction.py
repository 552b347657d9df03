"""What pytest shows and stores of a run, masked: reports (terminal, junit-xml, pytest-html) and log records.

Records and trajectories are masked where they are written (records/jsonl.py); this covers what pytest
itself prints and keeps: a failure's text, captured output and logs, user properties, and log lines.
"""

from __future__ import annotations

import logging
from typing import Any

from ..records.redact import active, redact, redact_value


def redact_report(report: Any) -> None:
    """Mask known secrets in a test report, in place (before xdist sends it, junit-xml or pytest-html read it)."""
    if not active():
        return
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):  # a skip: (path, line, reason)
        report.longrepr = tuple(redact_value(longrepr))
    elif longrepr is not None:
        text = str(longrepr)
        masked = redact(text)
        if masked != text:
            report.longrepr = masked  # the rendered text: a traceback object would still hold the secret
    report.sections = [(title, redact(content)) for title, content in report.sections]
    report.user_properties = [(name, redact_value(value)) for name, value in report.user_properties]


def install_log_redaction() -> None:
    """Mask known secrets in every log record as it is made, whichever handler prints or keeps it."""
    make = logging.getLogRecordFactory()
    if getattr(make, "gw_redacting", False):
        return

    def masked(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        if active():
            message = record.getMessage()
            if redact(message) != message:
                record.msg, record.args = redact(message), ()
            if record.exc_info and not record.exc_text:
                record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return record

    masked.gw_redacting = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(masked)
