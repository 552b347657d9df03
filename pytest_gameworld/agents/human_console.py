"""The console a person plays through: our page served on 127.0.0.1, what it shows, the input it sends back,
and (unless told not to) a Chromium app window that shows it. One console serves every run of a process."""

from __future__ import annotations

import atexit
import json
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .human_page import PAGE

PORT_ENV = "GW_HUMAN_PORT"  # the port the page is served on (0 or unset: any free one)
WINDOW_ENV = "GW_HUMAN_WINDOW"  # "0": open no window (the page is opened by hand, or by a test's browser)
LONG_POLL_S = 20.0  # a page's request for the next view waits at most this long
MAX_BODY = 4096  # an input event is a few dozen bytes
MAX_PENDING = 64  # input events waiting to be read; more are dropped (a stuck key, a script)
WINDOW_CLOSE_S = 5.0


@dataclass(frozen=True)
class Input:
    """One event from the page: a key (KeyboardEvent.key) or a click in viewport pixels, for view ``version``."""

    version: int
    kind: str
    key: str = ""
    x: int = 0
    y: int = 0


def read_input(body: bytes) -> Input | None:
    """An input event from a request body, or None for anything else (the page is ours, its sender may not be)."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("version"), int):
        return None
    kind = data.get("kind")
    if kind == "key" and isinstance(data.get("key"), str) and 0 < len(data["key"]) <= 32:
        return Input(data["version"], "key", key=data["key"])
    if kind in ("click", "right_click") and all(isinstance(data.get(k), int) and not isinstance(data.get(k), bool)
                                                for k in ("x", "y")):
        return Input(data["version"], kind, x=data["x"], y=data["y"])
    return None


class Console:
    """The served page's state: the current view (numbered), the input queue, and whether the page was closed."""

    def __init__(self, port: int = 0, window: bool = True, browser: str | None = None) -> None:
        self._cond = threading.Condition()
        self._view: dict[str, Any] = {"version": 0}
        self.inputs: queue.Queue[Input] = queue.Queue(MAX_PENDING)
        self.closed_page = False
        self.busy = False  # one role at a time holds the page (two-role games take turns)
        self.server = _server(port, _handler(self))
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        self.window: subprocess.Popen[bytes] | None = None
        self._profile: str | None = None
        if window:
            try:
                self._open_window(browser)
            except BaseException:
                self.server.server_close()
                raise
        threading.Thread(target=self.server.serve_forever, name="gameworld-human-page", daemon=True).start()

    def _open_window(self, browser: str | None) -> None:
        if browser is None:
            raise RuntimeError(f"no Chromium to open the human page's window: open {self.url} in a browser "
                               "and run with --no-window, or pass --browser-path")
        self._profile = tempfile.mkdtemp(prefix="gameworld-human-")
        self.window = subprocess.Popen(
            [browser, f"--app={self.url}", f"--user-data-dir={self._profile}", "--no-first-run",
             "--no-default-browser-check", "--window-size=1460,820"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    # ------------------------------------------------------------------ views

    def show(self, view: dict[str, Any]) -> int:
        """Publish a new view; its number (the page's input for it carries the number back)."""
        with self._cond:
            version = int(self._view["version"]) + 1
            self._view = {**view, "version": version}
            self._cond.notify_all()
        return version

    def view_after(self, seen: int, timeout_s: float = LONG_POLL_S) -> dict[str, Any]:
        """The current view once it is newer than ``seen`` (or the current one when the wait runs out)."""
        with self._cond:
            self._cond.wait_for(lambda: int(self._view["version"]) > seen, timeout=timeout_s)
            return self._view

    # ------------------------------------------------------------------ input

    def drain(self) -> None:
        """Forget input sent for earlier views (a key pressed while the game ran is not the next action)."""
        while True:
            try:
                self.inputs.get_nowait()
            except queue.Empty:
                return

    def next_input(self, version: int) -> Input | None:
        """The first waiting event sent for view ``version`` (older ones are dropped), or None."""
        while True:
            try:
                event = self.inputs.get_nowait()
            except queue.Empty:
                return None
            if event.version == version:
                return event

    def problem(self) -> str | None:
        """Why nobody can play any more: the window was closed or the page said it was left; else None."""
        if self.window is not None and self.window.poll() is not None:
            return ("the human page's window was closed (or could not open: no display? run with --no-window and "
                    f"open {self.url} in a browser)")
        if self.closed_page:
            return "the human page was closed"
        return None

    def close(self) -> None:
        """Stop serving and close the window (bounded), removing its profile."""
        self.server.shutdown()
        self.server.server_close()
        if self.window is not None and self.window.poll() is None:
            self.window.terminate()
            try:
                self.window.wait(timeout=WINDOW_CLOSE_S)
            except subprocess.TimeoutExpired:
                self.window.kill()
                self.window.wait(timeout=WINDOW_CLOSE_S)
        if self._profile:
            shutil.rmtree(self._profile, ignore_errors=True)


def _handler(console: Console) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass  # the page polls: a line per request would drown the terminal

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlsplit(self.path)
            if url.path == "/":
                self._send(200, PAGE.encode(), "text/html; charset=utf-8")
            elif url.path == "/view":
                try:
                    seen = int(parse_qs(url.query).get("after", ["0"])[0])
                except ValueError:
                    seen = 0
                self._send(200, json.dumps(console.view_after(seen)).encode(), "application/json")
            else:
                self._send(404, b"not found", "text/plain")

        def do_POST(self) -> None:  # noqa: N802
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if not 0 <= length <= MAX_BODY:
                self._send(413, b"no body of at most 4096 bytes", "text/plain")
                return
            body = self.rfile.read(length)
            if self.path == "/closed":
                console.closed_page = True
            elif self.path == "/input":
                event = read_input(body)
                if event is None:
                    self._send(400, b"not an input event", "text/plain")
                    return
                try:
                    console.inputs.put_nowait(event)
                except queue.Full:
                    pass
            self._send(204, b"", "text/plain")

    return Handler


_RESERVED: socket.socket | None = None  # the listening socket reserve_port bound, until a console serves on it


def reserve_port(port: int = 0) -> int:
    """Listen on 127.0.0.1:port now (0: any free port) and return the port; the console serves on that socket.

    The URL is printed before the first game loads: held from then on, no other program can take the port."""
    global _RESERVED
    sock = socket.create_server(("127.0.0.1", port))
    if _RESERVED is not None:
        _RESERVED.close()
    _RESERVED = sock
    return int(sock.getsockname()[1])


def _server(port: int, handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """The page's server: on the reserved socket when there is one (a browser that came early is answered once
    serving starts), else bound on ``port`` now."""
    global _RESERVED
    if _RESERVED is None or port not in (0, _RESERVED.getsockname()[1]):
        return ThreadingHTTPServer(("127.0.0.1", port), handler)
    server = ThreadingHTTPServer(_RESERVED.getsockname(), handler, bind_and_activate=False)
    server.socket.close()
    server.socket, _RESERVED = _RESERVED, None
    server.server_name, server.server_port = "127.0.0.1", server.server_address[1]  # what server_bind would set
    return server


_CONSOLE: Console | None = None


def shared_console(browser: str | None) -> Console:
    """The process's console, started on first use (GW_HUMAN_PORT, GW_HUMAN_WINDOW) and closed at exit."""
    global _CONSOLE
    if _CONSOLE is None:
        port = int(os.environ.get(PORT_ENV) or 0)
        window = os.environ.get(WINDOW_ENV, "1") != "0"
        _CONSOLE = Console(port, window, browser)
        atexit.register(_CONSOLE.close)
    return _CONSOLE
