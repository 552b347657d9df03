"""Secrets the harness holds (API keys, a password in a base URL) are masked wherever text is stored or printed.

The harness remembers each secret when it reads one (agents/providers/connection.py); every writer of
records and trajectories (records/jsonl.py) and the plugin's reports, logs and junit properties pass their
text through redact(). An endpoint that quotes the key back in an error then leaves no copy anywhere.
"""

from __future__ import annotations

from typing import Any

MASK = "***"
# Shorter values are not taken for secrets: masking them would garble ordinary text (and real keys are longer).
MIN_SECRET_LENGTH = 8

_secrets: set[str] = set()


def remember(*values: str | None) -> None:
    """Mask these values from now on (empty or short ones are ignored)."""
    for value in values:
        if value and len(value) >= MIN_SECRET_LENGTH:
            _secrets.add(value)


def redact(text: str) -> str:
    """The text with every known secret replaced by ***."""
    for secret in _ordered():
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def redact_value(value: Any) -> Any:
    """Strings masked inside lists, tuples and dicts (keys too); anything else unchanged."""
    if not _secrets:
        return value
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_value(k): redact_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(redact_value(v) for v in value)
    return value


def active() -> bool:
    """Whether any secret is known (nothing to mask otherwise)."""
    return bool(_secrets)


def _ordered() -> list[str]:
    # Longest first: a secret that contains another is masked whole.
    return sorted(_secrets, key=len, reverse=True)
