"""Bounded retries with exponential backoff, honouring Retry-After, around one provider call."""

from __future__ import annotations

import asyncio
import email.utils
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping

from ..base import AgentError

RETRYABLE_STATUS = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))
MAX_WAIT_S = 120.0  # a Retry-After longer than this is capped: a run should not stall for minutes


@dataclass(frozen=True)
class Failure:
    """What went wrong with one attempt and whether another attempt may help."""

    message: str
    retryable: bool
    status: int | None = None
    retry_after: float | None = None


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from `retry-after-ms` or `Retry-After` (seconds or an HTTP date)."""
    if not headers:
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        if lower.get("retry-after-ms"):
            return max(0.0, float(lower["retry-after-ms"]) / 1000)
        value = lower.get("retry-after")
        if not value:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def backoff(attempt: int, base_s: float, cap_s: float = 30.0) -> float:
    """Exponential delay before retry number ``attempt`` (0-based)."""
    return min(cap_s, base_s * (2 ** attempt))


async def call_with_retries(
    send: Callable[[], Awaitable[Any]],
    classify: Callable[[BaseException], Failure | None],
    *,
    what: str,
    max_retries: int,
    timeout_s: float,
    backoff_s: float = 1.0,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> Any:
    """Await ``send()`` with a per-attempt timeout; retry transient failures; AgentError when out of tries.

    ``classify`` turns an exception into a Failure, or None for an unexpected exception
    (which propagates unchanged: it is a bug, not an endpoint problem).
    """
    attempts = max_retries + 1
    for attempt in range(attempts):
        try:
            return await asyncio.wait_for(send(), timeout=timeout_s)
        except asyncio.TimeoutError:
            failure = Failure(f"no answer within {timeout_s:g} s", retryable=True)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - classified below
            classified = classify(exc)
            if classified is None:
                raise
            failure = classified
        if not failure.retryable:
            raise AgentError(f"{what} failed: {failure.message}")
        if attempt + 1 >= attempts:
            tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
            raise AgentError(f"{what} failed after {tries}: {failure.message}")
        wait = failure.retry_after if failure.retry_after is not None else backoff(attempt, backoff_s)
        await sleep(min(wait, MAX_WAIT_S))
    raise AssertionError("unreachable")  # pragma: no cover
