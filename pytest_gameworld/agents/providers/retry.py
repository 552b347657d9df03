"""Bounded retries with exponential backoff, honouring Retry-After, around one provider call."""

from __future__ import annotations

import asyncio
import email.utils
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..base import AgentError
from .throttle import EndpointThrottle

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
    deadline_s: float | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    failures: list[str] | None = None,
    throttle: EndpointThrottle | None = None,
    queued: list[float] | None = None,
) -> Any:
    """Await ``send()`` with a per-attempt timeout; retry transient failures; AgentError when out of tries.

    With ``deadline_s`` every attempt and every wait ends within that many seconds from the start:
    an attempt gets at most the time left, and a Retry-After beyond it ends the call at once.
    ``classify`` turns an exception into a Failure, or None for an unexpected exception
    (which propagates unchanged: it is a bug, not an endpoint problem). Each retried failure's message is
    appended to ``failures`` when given (the step record shows them).

    With a ``throttle`` every attempt holds one of the endpoint's slots and waits out its shared back-off first;
    those waits are appended to ``queued`` and are not counted against ``deadline_s``. A 429 or a Retry-After
    backs off every run of the endpoint, not only this one.
    """
    attempts = max_retries + 1
    started = clock()
    waits: list[float] = queued if queued is not None else []

    def left() -> float:
        return math.inf if deadline_s is None else deadline_s - (clock() - started - sum(waits))

    async def attempt_once() -> Any:
        if throttle is None:
            return await asyncio.wait_for(send(), timeout=min(timeout_s, left()))
        async with throttle.slot(waits):
            return await asyncio.wait_for(send(), timeout=min(timeout_s, left()))

    for attempt in range(attempts):
        limit = min(timeout_s, left())
        try:
            return await attempt_once()
        except asyncio.TimeoutError:
            failure = Failure(f"no answer within {limit:.3g} s", retryable=True)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - classified below
            classified = classify(exc)
            if classified is None:
                raise
            failure = classified
        if not failure.retryable:
            raise AgentError(f"{what} failed: {failure.message}")
        tries = "1 attempt" if attempt == 0 else f"{attempt + 1} attempts"
        if attempt + 1 >= attempts:
            raise AgentError(f"{what} failed after {tries}: {failure.message}")
        wait = failure.retry_after if failure.retry_after is not None else backoff(attempt, backoff_s)
        wait = min(wait, MAX_WAIT_S)
        if throttle is not None and (failure.status == 429 or failure.retry_after is not None):
            throttle.back_off(wait)  # the endpoint said slow down: to every run of this process
        if wait >= left():
            raise AgentError(f"{what} failed after {tries} within the step limit of {deadline_s:g} s: "
                             f"{failure.message}")
        if failures is not None:
            failures.append(failure.message)
        await sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover
