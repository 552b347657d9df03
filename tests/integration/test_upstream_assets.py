"""A page that loads a web font and a sprite sheet from internet hosts (fixture game 95_web-sprites), in real
Chromium: refused and named without recorded assets; recorded by `gameworld assets record` through a proxy on
127.0.0.1 that stands in for the internet; served offline from that folder or from a HAR Playwright wrote."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from PIL import Image

from pytest_gameworld.browser.faults import HarnessError
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.remote_assets import MANIFEST, AssetStore
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.loader import load_catalog

ASYNC = pytest.mark.asyncio(loop_scope="session")
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "upstream_checkout"
CSS_URL = "http://fonts.gw-fixture.test/css?family=Fixture+Hand"
FONT_URL = "http://fonts-static.gw-fixture.test/fixture-hand.ttf"
SPRITE_URL = "http://img.gw-fixture.test/sprites.png"


def box_font(family: str) -> bytes:
    """A TrueType font whose every printable character is a box (so a page drawn with it looks different)."""
    fb = FontBuilder(1000, isTTF=True)
    names = [".notdef", "space"] + [f"c{i}" for i in range(33, 127)]
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{i: f"c{i}" for i in range(33, 127)}})
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0)), pen.lineTo((50, 700)), pen.lineTo((550, 700)), pen.lineTo((550, 0)), pen.closePath()
    box = pen.glyph()
    fb.setupGlyf({n: (TTGlyphPen(None).glyph() if n == "space" else box) for n in names})
    fb.setupHorizontalMetrics({n: (600, 50) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    buf = io.BytesIO()
    fb.save(buf)
    return buf.getvalue()


def sprite_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (32, 32), (230, 60, 40)).save(buf, format="PNG")
    return buf.getvalue()


class _Internet(BaseHTTPRequestHandler):
    """A forward HTTP proxy answering for the fixture's internet hosts (absolute-URI requests)."""

    files: dict[str, tuple[str, bytes]] = {}
    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802
        self.seen.append(self.path)
        kind, body = self.files.get(self.path, ("text/plain", b"not found"))
        self.send_response(200 if self.path in self.files else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Access-Control-Allow-Origin", "*")  # as font hosts answer (fonts load with CORS)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def internet() -> Iterator[str]:
    """The proxy's URL; it serves the web font stylesheet, the font and the sprite sheet."""
    css = f"@font-face {{ font-family: 'Fixture Hand'; src: url({FONT_URL}) format('truetype'); }}\n".encode()
    _Internet.files = {CSS_URL: ("text/css", css), FONT_URL: ("font/ttf", box_font("Fixture Hand")),
                       SPRITE_URL: ("image/png", sprite_png())}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Internet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def recorded(internet: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`gameworld assets record` of the fixture's web-sprites page, through the proxy."""
    out = tmp_path_factory.mktemp("assets") / "recorded"
    r = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "assets", "record", str(FIXTURE),
                        "--game", "95_web-sprites", "--out", str(out), "--proxy", internet, "--play-ms", "500"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "95_web-sprites: 3 internet asset(s) recorded" in r.stdout
    assert f"wrote {out / MANIFEST}: 3 URL(s) from 1 game(s)" in r.stdout
    return out


def _pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--gw-catalog={FIXTURE}",
                           "--gw-results", "out", "-k", "95_01", "--gw-model", "random", "--gw-seed", "3", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)


def test_without_recorded_assets_the_run_errors_naming_the_urls(tmp_path):
    r = _pytest(tmp_path, "--gw-session", "bare")
    assert r.returncode == 1, r.stdout[-3000:]
    assert (f"95_web-sprites needs 2 internet asset(s) not supplied: {CSS_URL}, {SPRITE_URL}; "
            "supply them offline with --gw-assets PATH") in r.stdout
    record = json.loads((tmp_path / "out" / "bare" / "results.jsonl").read_text().splitlines()[-1])
    assert record["status"] != "ok" and SPRITE_URL in record["error"]


def test_recorded_assets_play_offline_and_two_sessions_match(tmp_path, recorded):
    runs = []
    for name in ("a", "b"):
        r = _pytest(tmp_path, f"--gw-assets={recorded}", "--gw-session", name, "--gw-keep-frames")
        assert r.returncode == 0, r.stdout[-3000:]
        [record] = [json.loads(x) for x in (tmp_path / "out" / name / "results.jsonl").read_text().splitlines()]
        steps = [json.loads(x) for x in (tmp_path / "out" / name / record["trajectory"]).read_text().splitlines()]
        frames = sorted((tmp_path / "out" / name / record["trajectory"]).parent.glob("frames/*.png"))
        runs.append(({k: record[k] for k in ("status", "score_best", "steps", "valid")},
                     [(s.get("state"), s.get("verdict")) for s in steps], [f.read_bytes() for f in frames]))
    assert runs[0] == runs[1] and runs[0][0]["status"] == "ok" and runs[0][2]
    # The first frame shows the sprite the recording served (the page draws nothing where it is missing).
    assert Image.open(io.BytesIO(runs[0][2][0])).convert("RGB").getpixel((140, 340)) == (230, 60, 40)


@ASYNC
async def test_a_har_written_by_playwright_serves_the_page(browser, internet, tmp_path):
    cat = load_catalog(FIXTURE)
    files = GameFiles(cat.games_dir)
    har = tmp_path / "web.har"
    context = await browser.new_context(record_har_path=str(har), proxy={"server": internet})

    async def route(r: Any) -> None:
        await (files.fulfil(r) if files.owns(r.request.url) else r.continue_())

    await context.route("**/*", route)
    page = await context.new_page()
    await page.goto(files.url(cat.games["95_web-sprites"]), wait_until="load")
    await page.evaluate("() => { void document.body.offsetHeight; return document.fonts.ready.then(() => 1); }")
    await context.close()  # writes the HAR
    session = await GameSession.open(browser, files, cat.games["95_web-sprites"], 1, None,
                                     assets=AssetStore.load(har))
    try:
        state = await session.init({})
        assert state["game_state"]["environment"] == {"sprite_loaded": True, "font_loaded": True}
    finally:
        await session.close()


@ASYNC
async def test_a_recording_that_misses_a_url_names_it(browser, recorded, tmp_path):
    partial = tmp_path / "partial"
    shutil.copytree(recorded, partial)
    manifest = json.loads((partial / MANIFEST).read_text())
    manifest["entries"] = [e for e in manifest["entries"] if e["url"] != SPRITE_URL]
    (partial / MANIFEST).write_text(json.dumps(manifest))
    cat = load_catalog(FIXTURE)
    session = await GameSession.open(browser, GameFiles(cat.games_dir), cat.games["95_web-sprites"], 1, None,
                                     assets=AssetStore.load(partial))
    try:
        with pytest.raises(HarnessError, match=f"needs 1 internet asset\\(s\\) not in {partial}: {SPRITE_URL};"):
            await session.init({})
    finally:
        await session.close()


def test_validate_with_the_recorded_assets_has_no_problem(tmp_path, recorded):
    r = subprocess.run([sys.executable, "-m", "pytest_gameworld.cli", "validate", "--catalog", str(FIXTURE),
                        "--assets", str(recorded)], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stdout.splitlines()[-1].endswith(", OK"), r.stdout + r.stderr
