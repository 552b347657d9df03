"""The flags Chromium runs with: no browser-UI page per game window, and Playwright's own disabled features kept."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_gameworld.browser.launch import SKIPPED_FEATURES
from pytest_gameworld.browser.processes import descendants

ASYNC = pytest.mark.asyncio(loop_scope="session")


def browser_command_lines() -> list[list[str]]:
    """The command lines of the Chromium browser processes this test process started (not their children)."""
    out = []
    for pid in descendants(os.getpid()):
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        argv = [a.decode(errors="replace") for a in args if a]
        # Chromium's helper processes (--type=...) may rewrite their command line as one string.
        if argv and "chrom" in Path(argv[0].split(" ")[0]).name and "--type=" not in " ".join(argv):
            out.append(argv)
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the browser's command line from /proc")
@ASYNC
async def test_the_last_disable_features_flag_carries_every_feature_the_earlier_ones_disable(browser: Any):
    lines = browser_command_lines()
    assert lines, "no Chromium browser process found under this test process"
    for argv in lines:
        lists = [a.split("=", 1)[1].split(",") for a in argv if a.startswith("--disable-features=")]
        assert lists, f"no --disable-features in {argv}"
        effective = set(lists[-1])  # Chromium keeps the last one only
        dropped = set().union(*lists[:-1]) - effective
        assert not dropped, f"Playwright disables {sorted(dropped)}, which our --disable-features would turn back on"
        assert set(SKIPPED_FEATURES) <= effective


@ASYNC
async def test_a_game_window_starts_no_browser_ui_page(browser: Any, open_game: Any):
    await open_game("01-2048")  # a game window, whose start must open no browser-UI page
    cdp = await browser.new_browser_cdp_session()
    try:
        targets = (await cdp.send("Target.getTargets"))["targetInfos"]
    finally:
        await cdp.detach()
    ui = [t["url"] for t in targets if t["type"] == "browser_ui" or t["url"].startswith("chrome://")]
    assert ui == [], f"browser-UI pages beside the games: {ui}"
    assert any(t["url"].endswith("/01-2048/index.html") for t in targets)
