"""The seal's backstop: a loopback HTTP proxy per browser context that every request the route misses reaches.

A context's route sees the page and its dedicated workers' requests, but not WebSockets opened by workers,
nor shared or nested workers' requests. With this proxy set on the context (Playwright proxies loopback too)
those arrive here instead of the network: the games' origin is answered from the catalog folder (a nested
worker's script loads like any other file), everything else is refused with 403 and logged as blocked.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any
from urllib.parse import urlsplit

from .game_origin import GameFiles

READ_TIMEOUT_S = 10.0  # a client that never finishes its request head is dropped
MAX_HEAD_BYTES = 64 * 1024
LOG_LIMIT = 500  # characters of one logged target


class SealProxy:
    """One context's proxy: serves the origin's files, refuses and logs the rest into ``blocked``."""

    def __init__(self, files: GameFiles, blocked: list[str]) -> None:
        self.files = files
        self.blocked = blocked
        self._server: asyncio.Server | None = None

    async def start(self) -> SealProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, limit=MAX_HEAD_BYTES)
        return self

    @property
    def server(self) -> str:
        """The proxy's URL, for the context's ``proxy`` option."""
        assert self._server is not None, "start() first"
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT_S)
            method, target = _request_line(head)
            if method in ("GET", "HEAD") and self.files.owns(target):
                reply = self.files.reply(target)
                body = reply.body if method == "GET" else b""
                writer.write(_response(reply.status, reply.content_type, len(reply.body)) + body)
            else:
                self.blocked.append(f"{method} {target}"[:LOG_LIMIT])
                writer.write(_response(403, "text/plain", 0))
            await writer.drain()
        except Exception:  # noqa: BLE001 - a broken or abandoned client request: nothing to answer
            pass
        finally:
            writer.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None


def _request_line(head: bytes) -> tuple[str, str]:
    """(method, target) of a request head; an unreadable line gives ("?", what there was)."""
    first = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = first.split(" ")
    return (parts[0], parts[1]) if len(parts) >= 2 else ("?", first)


def _response(status: int, content_type: str, length: int) -> bytes:
    reason = {200: "OK", 403: "Forbidden", 404: "Not Found"}.get(status, "")
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n").encode("latin-1")


# For a browser on another host (a browser server), which cannot reach the harness's proxy: an address that
# refuses every connection there, so what the route misses is refused (not logged) and never reaches out.
REFUSING_PROXY = "http://127.0.0.1:1"


def proxy_option(proxy: SealProxy | None) -> dict[str, Any]:
    """The context option that sends everything the route misses, loopback included, to the proxy."""
    return {"server": proxy.server if proxy is not None else REFUSING_PROXY}


def reaches_harness(endpoint: str | None) -> bool:
    """Whether a browser (local, or on a browser server at this endpoint) can reach the harness's loopback."""
    if endpoint is None:
        return True
    host = urlsplit(endpoint).hostname or ""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
