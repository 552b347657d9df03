"""The live view (`gameworld view --serve`, /_live/): a real session against a slow `gameworld serve` is looked
at in Chromium while it runs (its run in flight with its last frame) and again when it has ended (the table)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import pytest_gameworld

ASYNC = pytest.mark.asyncio(loop_scope="session")
MODEL = "my-org/slow-model"
ENV = {**os.environ, "PYTHONPATH": str(Path(pytest_gameworld.__file__).resolve().parent.parent)}
STEPS = 6


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.read().decode()


def _page_if(url: str, test) -> str | None:
    page = _get(url)
    return page if test(page) else None


def _until(what: str, probe, timeout_s: float = 300.0):
    """Poll ``probe`` until it returns something true; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        got = probe()
        if got:
            return got
        time.sleep(0.5)
    pytest.fail(f"waited {timeout_s:.0f} s for {what}")


@ASYNC
async def test_the_live_view_shows_a_run_in_flight_with_its_frame_then_the_table(serve, browser, tmp_path: Path):
    server = serve("openai", [{"delay_s": 1.5, "calls": [{"name": "move_left", "arguments": {}}]}],
                   extra=("--model", MODEL))
    (tmp_path / "slow.yaml").write_text(f"""name: slow
interface: generalist
provider: openai-compatible
api: chat
model: {MODEL}
endpoint: {{base_url: "{server.url}", api_key_required: false}}
timeout_s: 20
step_timeout_s: 30
max_retries: 0
price_per_mtok: {{input: 1.0, output: 2.0}}
""")
    (tmp_path / "out").mkdir()
    session = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", "--gw-model", "slow.yaml", "-k", "01_01",
         "--gw-max-steps", str(STEPS), "--gw-results", "out", "--gw-session", "s1", "--gw-progress", "off"],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    view = subprocess.Popen([sys.executable, "-m", "pytest_gameworld.cli", "view", "--serve", "--results", "out",
                             "--serve-for", "600"], cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, text=True)
    page = await browser.new_page()
    try:
        lines = [view.stdout.readline() for _ in range(3)]
        live = next(ln for ln in lines if ln.startswith("live view")).split(": ", 1)[1].split(" ")[0]
        assert live.endswith("/_live/"), lines
        listed = _until("the session to appear on /_live/", lambda: _page_if(live, lambda h: "_live/s1/" in h))
        assert 'href="/_live/s1/"' in listed
        url = live + "s1/"
        # Mid-session: the run is in flight past its second step, with a frame written.
        mid = _until("the run to be in flight at step 2 or later",
                     lambda: _page_if(url, lambda h: re.search(rf"step [2-9]/{STEPS}", h) and "<img" in h))
        assert "0/1 runs done · 1 in flight" in mid and "puzzle/01-2048/01_01[slow]" in mid
        assert session.poll() is None, "the session was still running when the page was read"
        await page.goto(url)
        assert await page.locator(".card").count() == 1
        await page.wait_for_function(  # bounded: Playwright's default 30 s
            "() => { const i = document.querySelector('.card img'); return i && i.complete && i.naturalWidth > 0 }")
        await page.screenshot(path=str(tmp_path / "live-mid.png"), full_page=True)
        assert session.wait(timeout=600) == 0, session.stdout.read()[-3000:]
        done = _until("the finished run on the page", lambda: _page_if(url, lambda h: "1/1 runs done" in h))
        assert "0 in flight" in done and "no run in flight" in done
        assert "Table so far" in done and "slow" in done.split("Table so far", 1)[1]
        # The page open since mid-session refreshed itself: no reload here.
        await page.wait_for_function("() => document.body.innerText.includes('1/1 runs done')")
        assert "Table so far" in await page.inner_text("body")
        await page.screenshot(path=str(tmp_path / "live-end.png"), full_page=True)
    finally:
        await page.close()
        for proc in (session, view):
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
