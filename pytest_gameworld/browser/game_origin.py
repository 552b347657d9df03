"""The games' origin: requests for it are answered from the catalog folder inside the browser context.

No server listens anywhere, so a browser on another machine (a Playwright browser server) loads a game
exactly like a local one, and the network seal is one rule: the origin is fulfilled, the rest refused.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Playwright's types only
    from playwright.async_api import Route
from urllib.parse import unquote, urlsplit

from ..catalog.specs import GameSpec

# *.localhost never resolves off the browser's host and is a secure context, like the games' original pages.
ORIGIN = "http://gameworld.localhost"
_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".html": "text/html", ".json": "application/json",
          ".wasm": "application/wasm", ".css": "text/css", ".svg": "image/svg+xml"}


@dataclass(frozen=True)
class Reply:
    """What the origin answers for one URL."""

    status: int
    body: bytes
    content_type: str


class GameFiles:
    """A folder's files under ORIGIN; bytes are read once per session (the catalog is fixed while it runs)."""

    def __init__(self, root: Path, origin: str = ORIGIN) -> None:
        self.root = root.resolve()
        self.origin = origin
        self._cache: dict[Path, bytes] = {}

    def url(self, game: GameSpec) -> str:
        return f"{self.origin}/{game.id}/{game.entry}"

    def owns(self, url: str) -> bool:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}" == self.origin

    def reply(self, url: str) -> Reply:
        """The file a URL of the origin names (query and fragment ignored); 404 outside the folder or absent."""
        rel = unquote(urlsplit(url).path).lstrip("/")
        path = (self.root / rel).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            return Reply(404, b"not found", "text/plain")
        body = self._cache.get(path)
        if body is None:
            body = self._cache[path] = path.read_bytes()
        kind = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return Reply(200, body, kind)

    async def fulfil(self, route: Route) -> None:
        r = self.reply(route.request.url)
        await route.fulfill(status=r.status, body=r.body, content_type=r.content_type,
                            headers={"Cache-Control": "no-store"})
