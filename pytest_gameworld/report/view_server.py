"""`gameworld view --serve`: the index and the sessions it links, served read-only on a loopback port."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Callable

REQUEST_TIMEOUT_S = 10.0  # a client that stops sending or reading is dropped after this long


class _Quiet(http.server.SimpleHTTPRequestHandler):
    timeout = REQUEST_TIMEOUT_S

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


def start(root: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """A server for the files under ``root`` on 127.0.0.1 (port 0: any free one), answering in a thread."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="gameworld-view", daemon=True).start()
    return server


def serve(root: Path, page: Path, port: int = 0, seconds: float | None = None,
          say: Callable[[str], None] = print) -> int:
    """Serve until Ctrl-C (or ``seconds``), after printing the page's URL; 0 when it ended as asked."""
    server = start(root, port)
    rel = page.resolve().relative_to(root.resolve()).as_posix()
    say(f"serving {root} on http://127.0.0.1:{server.server_address[1]}/{rel} (Ctrl-C ends it)")
    try:
        threading.Event().wait(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0
