"""`gameworld view`: the index over three real sessions (one with a damaged line), opened from disk in
Chromium (sorting, filtering, one task side by side, links that resolve), and served on loopback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ASYNC = pytest.mark.asyncio(loop_scope="session")
SESSIONS = {  # session: (models, -k)
    "a-both": ("random,noop", "01_01 or 13_01"),
    "b-random": ("random", "01_01"),
    "c-damaged": ("noop", "01_01"),
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("view")
    (root / "test_own.py").write_text("def test_own():\n    pass\n")
    for name, (models, select) in SESSIONS.items():
        r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--gw-model", models, "-k", select,
                            "--gw-max-steps", "2", "--gw-session", name, "-q", "--gw-keep-frames"],
                           cwd=root, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    with (root / "reports" / "c-damaged" / "results.jsonl").open("a") as fh:
        fh.write('{"item": "puzzle/01-2048/01_01[random]", "task": "01_0\n')  # a record cut short
    return root / "reports"


def _view(cwd: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "view", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, **kw)


async def _cells(page, host: str, col: int) -> list[str]:
    return await page.evaluate(f"[...document.querySelectorAll('#{host} tbody tr')].map(r => r.cells[{col}].textContent)")


@ASYNC
async def test_the_index_sorts_filters_and_compares_one_task_across_sessions(reports: Path, browser, tmp_path):
    out = tmp_path / "site"  # written elsewhere than reports/: every link is relative to it
    r = _view(reports.parent, str(out))
    assert r.returncode == 0, r.stderr
    assert f"wrote {out / 'index.html'}: 3 session(s)" in r.stdout
    page = await browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        await page.goto((out / "index.html").as_uri())
        sessions = await _cells(page, "sessions", 0)
        assert sorted(sessions) == ["a-both", "a-both", "b-random", "c-damaged"], "one row per session and model"
        marks = await page.inner_text("#sessions")
        assert "damaged line" in marks and "c-damaged/results.jsonl:2: not JSON" in marks, "the damaged line is named by file and line"
        assert "non-standard" in marks  # --gw-max-steps 2 is not the standard budget

        await page.click("#sessions th[data-key=session]")
        assert await _cells(page, "sessions", 0) == ["a-both", "a-both", "b-random", "c-damaged"]
        await page.click("#sessions th[data-key=session]")
        assert await _cells(page, "sessions", 0) == ["c-damaged", "b-random", "a-both", "a-both"], "second click: descending"
        await page.fill("#sfilter", "noop")
        assert sorted(await _cells(page, "sessions", 0)) == ["a-both", "c-damaged"]

        assert len(await _cells(page, "runs", 0)) == 6
        await page.select_option("#rmodel", "noop")
        assert set(await _cells(page, "runs", 3)) == {"noop"} and len(await _cells(page, "runs", 0)) == 3
        await page.select_option("#rmodel", "")
        await page.fill("#rfilter", "flappy")
        assert await _cells(page, "runs", 1) == ["13_01", "13_01"]
        await page.fill("#rfilter", "")
        await page.click("#runs th[data-key=steps]")
        steps = [int(s) for s in await _cells(page, "runs", 7)]
        assert steps == sorted(steps)

        await page.select_option("#task", "01_01")
        heads = await page.evaluate("[...document.querySelectorAll('#compare thead th')].map(t => t.textContent)")
        assert heads[1:] == ["a-both", "b-random", "c-damaged"]
        rows = await page.evaluate("""[...document.querySelectorAll('#compare tbody tr')].map(r =>
            [...r.children].map(c => c.textContent))""")
        assert [r[0] for r in rows] == ["noop", "random"]
        noop = dict(zip(heads[1:], rows[0][1:]))
        assert noop["b-random"] == "–" and noop["a-both"].startswith("SR 0/1") and noop["c-damaged"].startswith("SR 0/1")

        await page.fill("#sfilter", "")
        hrefs = await page.evaluate("[...document.querySelectorAll('a')].map(a => a.getAttribute('href'))")
        assert hrefs and all(not h.startswith("/") for h in hrefs), "relative links: the page works from disk"
        assert all((out / h).resolve().is_file() for h in hrefs), [h for h in hrefs if not (out / h).resolve().is_file()]
        assert sum(h.endswith("viewer.html") for h in hrefs) >= 6 and sum(h.endswith("/index.html") for h in hrefs) >= 3
        await page.screenshot(path=str(tmp_path / "index.png"), full_page=True)
        assert errors == []
    finally:
        await page.close()


def test_serve_prints_its_loopback_url_serves_the_index_and_ends_on_ctrl_c(reports: Path):
    proc = subprocess.Popen([sys.executable, "-m", "pytest_gameworld.cli", "view", "--serve", "--serve-for", "60"],
                            cwd=reports.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("wrote reports/index.html")
        line = proc.stdout.readline()
        assert line.startswith("serving ") and "http://127.0.0.1:" in line, line
        url = line.split(" on ", 1)[1].split(" ", 1)[0]
        assert url.endswith("/index.html")
        with urllib.request.urlopen(url, timeout=10) as resp:
            assert resp.status == 200 and "GameWorld sessions" in resp.read().decode()
        with urllib.request.urlopen(url.replace("index.html", "b-random/index.html"), timeout=10) as resp:
            assert resp.status == 200, "the sessions' pages are served too"
        os.kill(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_view_without_a_results_folder_says_so(tmp_path: Path):
    r = _view(tmp_path)
    assert r.returncode == 2 and "reports: no such folder" in r.stderr
