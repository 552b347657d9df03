"""A page's internet assets (web fonts, sprites) served offline, and recorded once on a machine with internet.

A game page that loads files from internet hosts cannot run in the sandbox as it is: every such request is
refused. `--gw-assets PATH` names the recorded answers: a folder written by `gameworld assets record`
(``assets.json`` and the bodies under ``files/``), or a HAR file (any recorder's: Playwright, a browser's
devtools). A request for a recorded URL is answered from memory inside the browser context, like the games'
own files; any other request is still refused and named.
"""

from __future__ import annotations

import base64
import hashlib
import json
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Playwright's types only
    from playwright.async_api import Route
from urllib.parse import urlsplit, urlunsplit

MANIFEST = "assets.json"
FORMAT = "gameworld-assets/1"
HOW_TO_SUPPLY = ("supply them offline with --gw-assets PATH (a folder written by `gameworld assets record` "
                 "on a machine with internet, or a HAR file)")
# Response headers worth replaying; the rest (dates, cookies, caching) would only make replies differ.
_KEPT_HEADERS = ("content-type", "location", "access-control-allow-origin")


class AssetsError(ValueError):
    """A recorded-assets folder or HAR file that cannot be used; the message names the file (and line)."""


@dataclass(frozen=True)
class AssetReply:
    """A recorded answer: status, the kept headers, the body."""

    status: int
    headers: dict[str, str]
    body: bytes


def asset_key(url: str) -> str:
    """The URL a recording is found by: without its fragment (never sent to a server)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise AssetsError(f"{path}: line {exc.lineno}: invalid JSON: {exc.msg}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AssetsError(f"{path}: cannot read: {exc}") from None


def _headers(raw: Any) -> dict[str, str]:
    """Kept headers, lower-cased, from a mapping or HAR's [{name, value}] list."""
    pairs = raw.items() if isinstance(raw, dict) else ((h.get("name"), h.get("value")) for h in raw or []
                                                        if isinstance(h, dict))
    return {str(k).lower(): str(v) for k, v in pairs if k and str(k).lower() in _KEPT_HEADERS and v is not None}


@dataclass
class AssetStore:
    """Recorded answers by URL, loaded once per session."""

    source: Path
    replies: dict[str, AssetReply]

    @classmethod
    def load(cls, path: Path) -> AssetStore:
        """A folder of `gameworld assets record` or a HAR file."""
        path = Path(path)
        if path.is_dir():
            return cls(path, _read_folder(path))
        if path.is_file():
            return cls(path, _read_har(path))
        raise AssetsError(f"{path}: no such folder or HAR file (--gw-assets)")

    def reply(self, url: str) -> AssetReply | None:
        return self.replies.get(asset_key(url))

    async def serve(self, route: Route) -> bool:
        """Answer a request from the recording; False when it holds nothing for the URL."""
        found = self.reply(route.request.url)
        if found is None:
            return False
        await route.fulfill(status=found.status, headers={**found.headers, "cache-control": "no-store"},
                            body=found.body)
        return True


def _read_folder(folder: Path) -> dict[str, AssetReply]:
    manifest = folder / MANIFEST
    data = _json(manifest)
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("entries"), list):
        raise AssetsError(f"{manifest}: not a recorded-assets manifest (expected format {FORMAT!r} and entries)")
    replies: dict[str, AssetReply] = {}
    for i, entry in enumerate(data["entries"]):
        where = f"{manifest}: entries[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("url"), str) \
                or not isinstance(entry.get("status"), int):
            raise AssetsError(f"{where}: needs a string url and an integer status")
        body = b""
        if entry.get("file"):
            file = (folder / str(entry["file"])).resolve()
            if not file.is_relative_to(folder.resolve()) or not file.is_file():
                raise AssetsError(f"{where}: file {entry['file']!r} is missing from {folder}")
            body = file.read_bytes()
        replies[asset_key(entry["url"])] = AssetReply(entry["status"], _headers(entry.get("headers")), body)
    return replies


def _read_har(har: Path) -> dict[str, AssetReply]:
    data = _json(har)
    entries = data.get("log", {}).get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise AssetsError(f"{har}: not a HAR file (no log.entries)")
    replies: dict[str, AssetReply] = {}
    for i, entry in enumerate(entries):
        request, response = (entry.get("request"), entry.get("response")) if isinstance(entry, dict) else (None, None)
        if not isinstance(request, dict) or not isinstance(response, dict) or request.get("method", "GET") != "GET":
            continue
        status = response.get("status")
        if not isinstance(status, int) or status <= 0:  # a request that failed: nothing to replay
            continue
        content = response.get("content") or {}
        headers = _headers(response.get("headers"))
        if content.get("mimeType") and "content-type" not in headers:
            headers["content-type"] = str(content["mimeType"])
        if response.get("redirectURL") and "location" not in headers:
            headers["location"] = str(response["redirectURL"])
        replies.setdefault(asset_key(str(request.get("url"))),
                           AssetReply(status, headers, _har_body(har, content, f"{har}: log.entries[{i}]")))
    return replies


def _har_body(har: Path, content: dict[str, Any], where: str) -> bytes:
    if content.get("_file"):  # Playwright's HAR with content attached as files beside it
        file = har.parent / str(content["_file"])
        if not file.is_file():
            raise AssetsError(f"{where}: content file {content['_file']!r} is missing beside {har}")
        return file.read_bytes()
    text = content.get("text")
    if text is None:
        return b""
    if content.get("encoding") == "base64":
        try:
            return base64.b64decode(text, validate=True)
        except ValueError:
            raise AssetsError(f"{where}: content.text is not valid base64") from None
    return str(text).encode("utf-8")


@dataclass
class Recorded:
    """One response seen while recording."""

    url: str
    status: int
    headers: dict[str, str]
    body: bytes


def write_folder(out: Path, recorded: list[Recorded]) -> Path:
    """Write the recordings as a folder `--gw-assets` reads (one entry per URL, the first response kept)."""
    files = out / "files"
    files.mkdir(parents=True, exist_ok=True)
    entries, seen = [], set()
    for r in sorted(recorded, key=lambda r: asset_key(r.url)):
        key = asset_key(r.url)
        if key in seen:
            continue
        seen.add(key)
        entry: dict[str, Any] = {"url": key, "status": r.status, "headers": _headers(r.headers)}
        if r.body:
            kind = (entry["headers"].get("content-type") or "").split(";")[0].strip()
            ext = mimetypes.guess_extension(kind) or Path(urlsplit(key).path).suffix or ".bin"
            name = f"files/{hashlib.sha256(key.encode()).hexdigest()[:16]}{ext}"
            (out / name).write_bytes(r.body)
            entry["file"] = name
        entries.append(entry)
    manifest = out / MANIFEST
    manifest.write_text(json.dumps({"format": FORMAT, "entries": entries}, indent=1) + "\n", encoding="utf-8")
    return manifest
