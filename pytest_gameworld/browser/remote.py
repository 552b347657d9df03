"""Remote browsers: which Playwright browser server a worker uses, and connecting to it."""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING, Any

from .faults import HarnessError
from .launch import CHROMIUM_FLAGS

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

CONNECT_TIMEOUT_S = 15.0
# A server that is restarting gets a few chances before the endpoint counts as gone.
CONNECT_ATTEMPTS = 3
CONNECT_PAUSE_S = 1.0


class BrowserUnreachable(HarnessError):
    """The browser server cannot be reached: no later run could start either, so the session stops."""


def worker_index(worker_id: str | None) -> int:
    """xdist's worker number (gw3 → 3); 0 without xdist."""
    match = re.fullmatch(r"gw(\d+)", worker_id or "")
    return int(match.group(1)) if match else 0


def pick_endpoint(endpoints: list[str], worker_id: str | None) -> str | None:
    """The endpoint a worker uses: round-robin over the list by worker number, None for a local browser."""
    if not endpoints:
        return None
    return endpoints[worker_index(worker_id) % len(endpoints)]


def launch_options(executable: str | None, headed: bool) -> dict[str, Any]:
    """What the server launches for us: our flags and (a server started with --unsafe honours them) a path."""
    options: dict[str, Any] = {"headless": not headed, "args": CHROMIUM_FLAGS}
    if executable:
        options["executablePath"] = executable
    return options


async def connect_browser(playwright: Playwright, endpoint: str, executable: str | None = None,
                          headed: bool = False) -> Browser:
    """Connect to a Playwright browser server (`playwright run-server`); BrowserUnreachable when it is gone."""
    header = {"x-playwright-launch-options": json.dumps(launch_options(executable, headed))}
    last = ""
    for attempt in range(CONNECT_ATTEMPTS):
        if attempt:
            await asyncio.sleep(CONNECT_PAUSE_S)
        try:
            return await playwright.chromium.connect(endpoint, timeout=CONNECT_TIMEOUT_S * 1000, headers=header)
        except Exception as exc:  # Playwright raises its plain Error for refused, timed out and version clashes
            last = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if "version" in last.lower():
                break  # a client/server version clash does not heal by retrying
    raise BrowserUnreachable(f"browser endpoint {endpoint} unreachable after {attempt + 1} attempt(s): {last}")
