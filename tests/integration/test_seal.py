"""The sealed sandbox: a probe page tries every channel out against a loopback listener; nothing arrives, all is logged."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from loopback import Listener

from pytest_gameworld.browser.faults import HarnessError
from pytest_gameworld.browser.game_origin import GameFiles
from pytest_gameworld.browser.sandbox import GameSession
from pytest_gameworld.catalog.specs import CuaControls, GameSpec, Role

ASYNC = pytest.mark.asyncio(loop_scope="session")
PROBE_SITE = Path(__file__).parent / "probe_site"
# What the page itself tries (window.probe.tried), in order; navigating away comes last, on its own.
TRIED = ["fetch", "xhr", "img", "css", "font", "websocket", "eventsource", "beacon", "prefetch", "preconnect",
         "iframe", "window.open", "link-popup", "file", "serviceworker", "workers", "webtransport", "webrtc"]
WORKERS = ("dedicated", "nested", "shared")  # nested: started by the dedicated one (shared workers cannot)


def channels(tcp: int, udp: int) -> dict[str, str]:
    """channel → a pattern of the blocked-log line its attempt must leave (re.search)."""
    page = {name: re.escape(mark) for name, mark in {
        "fetch": "/fetch", "xhr": "/xhr", "img": "/img", "css": "/css", "font": "/font",
        "websocket": f"websocket ws://127.0.0.1:{tcp}/ws", "eventsource": "/es", "beacon": "/beacon",
        "prefetch": "/prefetch", "preconnect": "link preconnect", "iframe": "/iframe",
        "window.open": "popup http://127.0.0.1", "link-popup": "/tab", "file": "file file:///etc/hostname",
        "serviceworker": "serviceworker ", "workers": "dedicated.localhost:",
        "webtransport": f"webtransport https://127.0.0.1:{udp}/wt", "webrtc": "webrtc RTCPeerConnection",
        "navigation away": "/nav"}.items()}
    # A worker's request is logged by the route as its URL, or by the seal proxy as "GET <url>"; a worker's
    # WebSocket by the proxy as "CONNECT <host:port>" (or by the route's WebSocket handler as its URL).
    workers: dict[str, str] = {}
    for who in (*WORKERS, "blob"):
        host = re.escape(f"{who}.localhost:{tcp}")
        workers[f"{who} worker fetch"] = f"{host}/worker-fetch"
        workers[f"{who} worker websocket"] = f"^(CONNECT {host}$|websocket ws://{host}/)"
        if who == "blob":  # a blob: worker (started by the dedicated one) tries these two only
            continue
        workers |= {f"{who} worker xhr": f"{host}/worker-xhr", f"{who} worker eventsource": f"{host}/worker-es",
                    f"{who} worker importScripts": f"{host}/worker-import"}
        if who != "shared":  # a shared worker's console does not reach the page: its WebTransport is
            # refused (nothing reaches the listener) but not logged
            workers[f"{who} worker webtransport"] = re.escape(f"webtransport https://127.0.0.1:{udp}/worker-wt-{who}")
    ip = re.escape(f"127.0.0.1:{tcp}")  # the plain case: every worker's WebSocket to 127.0.0.1 itself
    workers["worker websocket to 127.0.0.1"] = f"^(CONNECT {ip}$|websocket ws://{ip}/worker-ws)"
    return page | workers


@pytest.fixture
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


@pytest.fixture(scope="module")
def probe_files() -> GameFiles:
    return GameFiles(PROBE_SITE)


def probe_game(tcp_port: int, udp_port: int) -> GameSpec:
    role = Role(description="probe", cua=CuaControls(keys=[]), controls=[])
    return GameSpec(id="probe", name="Probe", genre="puzzle", level=1, rules="A sandbox probe.",
                    entry=f"index.html?port={tcp_port}&udp={udp_port}", roles={"probe": role})


def missing(blocked: list[str], expected: dict[str, str]) -> list[str]:
    return [name for name, pattern in expected.items() if not any(re.search(pattern, line) for line in blocked)]


async def logged(blocked: list[str], expected: dict[str, str]) -> None:
    """Wait until each channel's attempt is logged (as it happens; the slowest, a popup, takes a while)."""
    for _ in range(300):
        if not missing(blocked, expected):
            return
        await asyncio.sleep(0.1)


@ASYNC
async def test_every_channel_out_is_refused_and_logged(browser, probe_files: GameFiles, listener: Listener) -> None:
    session = await GameSession.open(browser, probe_files, probe_game(*listener.ports), seed=1)
    try:
        assert session.blocked == [], "the probe tries nothing before it is told to"
        expected = channels(*listener.ports)
        tried = await session.eval("() => { window.probe.run(); return window.probe.tried; }")
        assert [t.split(":")[0] for t in tried] == TRIED
        await logged(session.blocked, {c: p for c, p in expected.items() if c != "navigation away"})
        await session.eval("() => window.probe.navigateAway()")  # last: leaving the page ends its workers
        await logged(session.blocked, expected)
        await asyncio.sleep(0.5)  # anything that did get out has now reached the listener
        assert missing(session.blocked, expected) == [], session.blocked
        assert (bytes(listener.received), listener.connections, listener.datagrams) == (b"", 0, 0)
        assert len(session.context.pages) == 1, "popups are closed"
        with pytest.raises(HarnessError, match="tried to reach outside the sandbox"):
            session.check()
    finally:
        await session.close()


@ASYNC
async def test_a_game_stuck_before_ready_names_its_status(browser, probe_files: GameFiles) -> None:
    game = probe_game(9, 9).model_copy(update={"id": "stuck", "entry": "index.html"})
    session = await GameSession.open(browser, probe_files, game, seed=1)
    try:
        with pytest.raises(HarnessError, match="stuck: not ready after .* stuck in status 'loading-assets'"):
            await session.init({"seed": 1})
    finally:
        await session.close()


@ASYNC
async def test_a_js_error_at_load_opens_the_session_and_faults_its_first_read(browser, probe_files: GameFiles) -> None:
    """Raised by the runner's first read (so the run's record says error), not by opening the page."""
    game = probe_game(9, 9).model_copy(update={"id": "throws", "entry": "index.html"})
    session = await GameSession.open(browser, probe_files, game, seed=1)
    try:
        with pytest.raises(HarnessError, match="throws: JS error: broken at load"):
            await session.state()
    finally:
        await session.close()
