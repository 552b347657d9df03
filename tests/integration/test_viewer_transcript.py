"""The viewer's transcript of real runs through `gameworld serve` over the providers' SDKs, opened in Chromium:
the messages each step sent (history images as the frames of their steps), tokens, cost, retries, and the
computer-use pointer drawn on the kept frame in that frame's own pixels."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_gameworld.agents import make_agent
from pytest_gameworld.play.runner import RunConfig, play
from pytest_gameworld.records.jsonl import read_jsonl
from pytest_gameworld.records.shared_values import resolve
from pytest_gameworld.report.run_viewer import write_viewer

ASYNC = pytest.mark.asyncio(loop_scope="session")
KEY_ENV = "GW_TRANSCRIPT_KEY"
USAGE = {"input_tokens": 1234, "output_tokens": 56, "cached_tokens": 7}


async def _play(catalog, open_game, tmp_path: Path, spec, task_id: str, steps: int, compact: bool,
                frame_width: int = 0) -> Path:
    task = next(t for t in catalog.tasks if t.id == task_id)
    run_dir = tmp_path / "sess" / "runs" / "x" / task.game / task.id / spec.name / "attempt-1"
    cfg = RunConfig(item_id=f"x/{task.game}/{task.id}[{spec.name}]", game=catalog.games[task.game], task=task,
                    model=spec, seed=5, repeat=0, run_dir=run_dir, results_path=tmp_path / "sess" / "results.jsonl",
                    prompts_dir=catalog.root / "prompts", max_steps=steps, keep_frames=True, compact_frames=compact,
                    frame_width=frame_width)
    record, _ = await play(await open_game(task.game, 5), make_agent(spec), cfg)
    assert record.status == "ok", record.error
    return run_dir


async def _open(browser, path: Path):
    page = await browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(path.as_uri())
    await page.wait_for_selector("body[data-ready]", state="attached", timeout=10_000)  # its data unpacked
    return page, errors


@ASYNC
@pytest.mark.parametrize(("compact", "frame_width"), [(True, 0), (False, 0), (True, 640)],
                         ids=["compact-webp", "as-taken-png", "compact-webp-640-wide"])
async def test_a_cua_click_is_drawn_where_it_landed_in_the_frame_with_tokens_cost_and_retries(
        serve, catalog, open_game, browser, tmp_path, monkeypatch, compact, frame_width):
    monkeypatch.setenv(KEY_ENV, "sk-transcript")
    server = serve("openai", [
        {"status": 503, "message": "overloaded"},  # the first attempt fails and is retried
        {"reasoning": "the top-left tile", "computer": {"action": "click", "x": 320, "y": 180}, "usage": USAGE},
        {"computer": {"action": "drag", "path": [{"x": 320, "y": 180}, {"x": 960, "y": 540}],
                      "openai": {"type": "drag", "start_x": 320, "start_y": 180, "end_x": 960, "end_y": 540}}},
    ])
    spec = catalog.resolve_model("openai-computer-use", {"endpoint.base_url": server.url,
                                                         "endpoint.api_key_env": KEY_ENV,
                                                         "extra.retry_backoff_s": 0.01})
    run_dir = await _play(catalog, open_game, tmp_path, spec, "01_01", 2, compact, frame_width)
    lines = resolve(read_jsonl(run_dir / "steps.jsonl"))  # shared lines put back
    assert lines[0]["viewport"] == {"width": 1280, "height": 720} and lines[0]["priced"] is True
    assert len(lines[1]["retries"]) == 1 and "503" in lines[1]["retries"][0], lines[1]["retries"]
    assert lines[2]["retries"] == []

    page, errors = await _open(browser, write_viewer(run_dir))
    try:
        await page.wait_for_function("document.getElementById('frame').complete")
        natural = await page.evaluate("[frame.naturalWidth, frame.naturalHeight]")
        # The frame is what the model saw, at its size unless --gw-frame-width keeps it narrower.
        assert natural == ([640, 360] if frame_width else [1280, 720])
        src = await page.evaluate("frame.getAttribute('src')")
        assert src.startswith("data:image/webp" if compact else "data:image/png") or \
            src.endswith(".webp" if compact else ".png"), src[:60]
        circle = await page.evaluate("""() => { const c = document.querySelector('#pointer circle.ptr.ok');
            return c && [+c.getAttribute('cx'), +c.getAttribute('cy'), document.getElementById('pointer').hidden]; }""")
        scale = natural[0] / 1280
        assert circle == [pytest.approx(320 * scale), pytest.approx(180 * scale), False], circle
        assert "click at (320, 180) on the 1280×720 screen" in await page.inner_text("#pointercap")
        # The marker sits over the frame where the click landed, in page pixels too.
        box = await page.evaluate("""() => { const f = frame.getBoundingClientRect(),
            c = document.querySelector('#pointer circle.ptr.ok').getBoundingClientRect();
            return [(c.x + c.width / 2 - f.x) / f.width, (c.y + c.height / 2 - f.y) / f.height]; }""")
        assert box == [pytest.approx(0.25, abs=0.01), pytest.approx(0.25, abs=0.01)]
        facts = await page.inner_text("#turns")
        assert "in 1234 · out 56 · cached 7" in facts
        assert "$0.0" in facts and "$ n/a" not in facts
        assert "retries\n1: " in facts and "503" in facts
        await page.click("details.sent > summary")
        sent = await page.evaluate("document.querySelector('details.sent').textContent")
        assert "Task Instruction" in sent or "task" in sent.lower()
        assert "computer_use_preview" in await page.evaluate(
            "[...document.querySelectorAll('details.sent details')].map(d => d.textContent).join(' ')")
        await page.keyboard.press("ArrowRight")
        path = await page.evaluate("""() => [...document.querySelectorAll('#pointer line.ptr:not(.cross)')].map(l =>
            ['x1', 'y1', 'x2', 'y2'].map(a => +l.getAttribute(a)))""")
        assert path == [[pytest.approx(v * scale) for v in (320, 180, 960, 540)]], "a drag is drawn as its path"
        assert await page.inner_text("#turns") and "retries\nnone" in await page.inner_text("#turns")
        assert errors == []
    finally:
        await page.close()


@ASYNC
async def test_the_history_images_a_generalist_was_sent_are_the_frames_of_their_steps(
        serve, catalog, open_game, browser, tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-transcript")
    server = serve("openai", policy="random", extra=("--model", "glm-4.6v"))
    spec = catalog.resolve_model("glm-4.6v", {"endpoint.base_url": server.url, "endpoint.api_key_env": KEY_ENV})
    assert spec.memory_rounds == 2
    run_dir = await _play(catalog, open_game, tmp_path, spec, "13_01", 4, True)  # a runner: every frame differs
    page, errors = await _open(browser, write_viewer(run_dir))
    try:
        await page.keyboard.press("End")  # step 4: two remembered rounds and the current screen
        await page.click("details.sent > summary")
        thumbs = await page.evaluate("""() => [...document.querySelectorAll('details.sent figure')].map(f =>
            [f.querySelector('img') && f.querySelector('img').getAttribute('src'), f.textContent])""")
        assert [t[1].rsplit("the screen of step ", 1)[1] for t in thumbs] == ["2", "3", "4"], thumbs
        own = {}
        for step in (2, 3, 4):
            await page.evaluate(f"document.getElementById('slider').value = {step - 1}")
            await page.dispatch_event("#slider", "input")
            own[step] = await page.get_attribute("#frame", "src")
        assert [t[0] for t in thumbs] == [own[2], own[3], own[4]], "each history image is that step's kept frame"
        assert len(set(own.values())) == 3, "three different screens, so a mix-up would show"
        roles = await page.evaluate("[...document.querySelectorAll('details.sent .msgrole')].map(r => r.textContent)")
        assert roles == ["system", "user"]
        sent = await page.evaluate("document.querySelector('details.sent').textContent")
        assert "## Action History" in sent and "Action: {" in sent
        controls = len(catalog.games["13-flappy-bird"].roles["player"].controls)
        assert f"tool schema ({controls} tools)" in sent, sent[-400:]
        assert errors == []
    finally:
        await page.close()
