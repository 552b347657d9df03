"""`gameworld view --serve`: the index and the sessions it links, served read-only on a loopback port, and under
``/_live/`` each session as it runs (report/live_page.py: built from its files on every request)."""

from __future__ import annotations

import functools
import http.server
import threading
import urllib.parse
from collections.abc import Callable
from pathlib import Path

REQUEST_TIMEOUT_S = 10.0  # a client that stops sending or reading is dropped after this long


class _Quiet(http.server.SimpleHTTPRequestHandler):
    timeout = REQUEST_TIMEOUT_S
    results: Path | None = None  # the sessions' folder the live view reads (None: no live view)

    def do_GET(self) -> None:  # noqa: N802 (the base class's name)
        path = urllib.parse.urlsplit(self.path).path
        if self.results is None or not (path == "/_live" or path.startswith("/_live/")):
            return super().do_GET()
        from .live_page import live_sessions, render_live, render_sessions

        name = path[len("/_live"):].strip("/")
        session = next((d for d in live_sessions(self.results) if d.name == name), None) if name else None
        if name and session is None:
            return self.send_error(404, f"no session {name!r} under {self.results}")
        root = Path(self.directory)
        body = (render_live(session, root) if session else render_sessions(self.results, root)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


def start(root: Path, port: int = 0, results: Path | None = None) -> http.server.ThreadingHTTPServer:
    """A server for the files under ``root`` on 127.0.0.1 (port 0: any free one), answering in a thread; with
    ``results`` (a folder under ``root``), the live view of its sessions under /_live/."""
    cls = type("_Handler", (_Quiet,), {"results": results.resolve() if results else None})
    handler = functools.partial(cls, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="gameworld-view", daemon=True).start()
    return server


def serve(root: Path, page: Path, port: int = 0, seconds: float | None = None,
          say: Callable[[str], None] = print, results: Path | None = None) -> int:
    """Serve until Ctrl-C (or ``seconds``), after printing the page's URL; 0 when it ended as asked."""
    server = start(root, port, results)
    rel = page.resolve().relative_to(root.resolve()).as_posix()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    say(f"serving {root} on {url}/{rel} (Ctrl-C ends it)")
    if results is not None:
        say(f"live view of running sessions: {url}/_live/ (refreshed every few seconds)")
    try:
        threading.Event().wait(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0
