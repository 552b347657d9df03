"""Finding and launching the Chromium the games run in, with the sandbox's flags."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from .faults import BrowserNotFound, HarnessError
from .network_seal import SEAL_FLAGS

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

# Every browser context opens a window, and every window of this Chromium built the omnibox's suggestion popup as
# a WebUI page in a renderer of its own: ~0.6 s of CPU at the start of each run, which no game needs
# (docs/performance.md, "What a step costs": a third of the wall time of 38 short runs).
SKIPPED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
# Chromium keeps only the last --disable-features it is given, and Playwright passes its own first: ours must
# carry Playwright's too (what Playwright 1.65 disables; tests/integration/test_browser_flags.py fails when the
# installed Playwright disables one more).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints",
    "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
    # The harness owns time: nothing may throttle a page that is not in front.
    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--disable-features=" + ",".join((*PLAYWRIGHT_DISABLED_FEATURES, *SKIPPED_FEATURES)),
    *SEAL_FLAGS,
]
SYSTEM_BROWSERS = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser(explicit: str | None) -> str | None:
    """The Chromium to launch: explicit path/env, else a system one, else None (Playwright's own)."""
    explicit = explicit or os.environ.get("GW_BROWSER_PATH")
    if explicit:
        found = shutil.which(explicit) or (explicit if Path(explicit).is_file() else None)
        if not found:
            raise BrowserNotFound(f"browser not found at {explicit!r} (from --gw-browser-path or GW_BROWSER_PATH)")
        return found
    for name in SYSTEM_BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


async def launch_browser(playwright: Playwright, executable: str | None, headed: bool = False) -> Browser:
    """Launch Chromium with the sandbox flags; a missing browser is one clear error."""
    try:
        return await playwright.chromium.launch(executable_path=executable, headless=not headed, args=CHROMIUM_FLAGS)
    except Exception as exc:  # Playwright raises a plain Error for a missing executable
        if executable is None and "Executable doesn't exist" in str(exc):
            raise BrowserNotFound(
                "no Chromium found: install one (Debian: apt-get install -y chromium; elsewhere: "
                "python -m playwright install chromium) or pass --gw-browser-path / set GW_BROWSER_PATH"
            ) from None
        raise HarnessError(f"could not launch Chromium ({executable or 'playwright default'}): {exc}") from exc
