"""The trajectory viewer of a real run whose model replies carry script payloads, opened in real Chromium."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from pytest_gameworld.agents import make_agent
from pytest_gameworld.play.runner import RunConfig, play
from pytest_gameworld.report.run_viewer import write_viewer

ASYNC = pytest.mark.asyncio(loop_scope="session")
KEY_ENV = "GW_VIEWER_KEY"

# Each payload would set window.__gwPwned (or open a dialog) if it ever ran.
PAYLOADS = [
    "<script>window.__gwPwned = 1</script>",
    '<img src=x onerror="window.__gwPwned = 2">',
    "</script><script>window.__gwPwned = 3</script>",
    '<svg onload="alert(4)"></svg>',
    '"><iframe srcdoc="<script>parent.__gwPwned = 5</script>"></iframe>',
]
SCRIPT = [
    {"text": PAYLOADS[0], "reasoning": PAYLOADS[1], "calls": [{"name": "reveal_cell", "arguments": {"cell": "e5"}}]},
    {"text": PAYLOADS[2]},  # no call: an NTC no-op whose whole reply is the payload
    {"reasoning": PAYLOADS[3], "calls": [{"name": "flag_cell", "arguments": {"cell": PAYLOADS[4]}}]},  # OOS
    {"text": "plain", "calls": [{"name": "wait", "arguments": {}}]},
]


@ASYNC
async def test_model_payloads_never_run_in_the_viewer_and_show_as_text(serve, catalog, open_game, browser, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-viewer-test")
    server = serve("openai", SCRIPT)
    spec = catalog.resolve_model("glm-4.6v", {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV,
                                              "extra.retry_backoff_s": 0.01})
    task = next(t for t in catalog.tasks if t.id == "19_05")
    run_dir = tmp_path / "sess" / "runs" / "puzzle" / task.game / task.id / "glm" / "attempt-1"
    cfg = RunConfig(item_id=f"puzzle/{task.game}/{task.id}[glm-4.6v]", game=catalog.games[task.game], task=task,
                    model=spec, seed=3, repeat=0, run_dir=run_dir, results_path=tmp_path / "sess" / "results.jsonl",
                    prompts_dir=catalog.root / "prompts", max_steps=len(SCRIPT), keep_frames=True, compact_frames=True)
    record, _ = await play(await open_game(task.game, 3), make_agent(spec), cfg)
    assert (record.valid, record.invalid_ntc, record.invalid_oos) == (2, 1, 1)
    steps_text = (run_dir / "steps.jsonl").read_text()
    assert all(json.dumps(p)[1:-1] in steps_text for p in PAYLOADS), "the payloads are in the trajectory"

    path = write_viewer(run_dir)
    html = path.read_text()
    assert not any(p in html for p in PAYLOADS), "escaped on write: no payload appears as markup"

    page = await browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        await page.goto(path.as_uri())
        await page.wait_for_selector("body[data-ready]", state="attached", timeout=10_000)  # its data unpacked
        shown = []
        for i in range(len(SCRIPT)):
            await page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            shown.append(await page.inner_text("#turns"))
            assert await page.inner_text("#stepno") == f"step {i + 1} / {len(SCRIPT)}"
            frame = await page.get_attribute("#frame", "src")
            assert frame and frame.startswith(("data:image/webp;base64,", "frames/")), "each step names its frame"
            await page.wait_for_function("() => document.getElementById('frame').complete", timeout=5000)
            assert await page.evaluate("document.getElementById('frame').naturalWidth") == 1280, \
                "the compact frame is shown (a linked one loads from beside the viewer, under its CSP)"
            await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowLeft")
        assert await page.inner_text("#stepno") == f"step {len(SCRIPT) - 1} / {len(SCRIPT)}", "← goes back"
        await page.wait_for_timeout(300)  # time for an injected onerror/onload to fire, were there one
        assert await page.evaluate("window.__gwPwned") is None
        assert dialogs == [] and errors == []
        counts = await page.evaluate("""() => ({scripts: document.scripts.length,
            iframes: document.querySelectorAll('iframe').length,
            imgs: document.images.length - document.querySelectorAll('figure.thumb img').length,
            foreign: [...document.images].filter(i => !/^(data:image[/]|frames[/][0-9]{4}[.]webp$)/.test(
                i.getAttribute('src'))).length,
            svgs: document.querySelectorAll('svg').length})""")
        # One frame, the history thumbnails (frames too), the chart and the pointer overlay: nothing else.
        assert counts == {"scripts": 2, "iframes": 0, "imgs": 1, "foreign": 0, "svgs": 2}, \
            "no element came from model text"
        text = "\n".join(shown)
        for p in PAYLOADS[:4]:
            assert p in text, f"shown literally: {p}"
        assert "cell" in shown[2] and "iframe srcdoc" in shown[2], "the OOS call's argument is shown as text"
        assert "NTC" in shown[1] and "OOS" in shown[2]
    finally:
        await page.close()


def test_a_session_writes_its_results_page_linking_every_run_viewer(tmp_path):
    (tmp_path / "test_own.py").write_text("def test_own():\n    pass\n")
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", "noop,random", "-k", "13_01",
           "--gw-max-steps", "3", "--gw-session", "s1", "-q"]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    session = tmp_path / "reports" / "s1"
    assert "results page: reports/s1/index.html" in r.stdout
    page = (session / "index.html").read_text()
    links = sorted(set(re.findall(r'href="(runs/[^"]+/viewer\.html)"', page)))
    assert len(links) == 2 and all((session / link).is_file() for link in links)
    assert not list(session.rglob("frames")), "built-in agents keep no frames by default"
