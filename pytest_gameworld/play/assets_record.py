"""`gameworld assets record`: open each game page of a catalog with internet access and keep what it fetched
from internet hosts, as a folder `--gw-assets` serves offline. Needs a machine that reaches those hosts."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..browser.faults import HarnessError
from ..browser.game_origin import GameFiles
from ..browser.launch import CHROMIUM_FLAGS, find_browser
from ..browser.remote_assets import Recorded, write_folder
from ..browser.sandbox import GameSession
from ..catalog.contents import Catalog

PLAY_MS = 3000  # game time each page runs after init, so assets requested after the start are seen too
RESPONSE_WAIT_S = 30.0


@dataclass
class AssetRecorder:
    """Lets a page's requests to other hosts through (the browser fetches them) and keeps each response."""

    reaches_internet = True  # GameSession.open: no seal proxy, the page's requests go out to be recorded
    recorded: list[Recorded] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    _pending: list[asyncio.Task[None]] = field(default_factory=list)

    async def serve(self, route: Any) -> bool:
        if not route.request.url.startswith(("http://", "https://")):
            return False
        await route.continue_()
        self._pending.append(asyncio.create_task(self._keep(route.request)))
        return True

    async def _keep(self, request: Any) -> None:
        try:
            response = await asyncio.wait_for(request.response(), RESPONSE_WAIT_S)
        except Exception as exc:
            self.failed.append(f"{request.url}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
            return
        if response is None:
            self.failed.append(f"{request.url}: {request.failure or 'no response'}")
            return
        try:
            body = b"" if 300 <= response.status < 400 else await asyncio.wait_for(response.body(), RESPONSE_WAIT_S)
        except Exception as exc:
            self.failed.append(f"{request.url}: body not readable: {str(exc).splitlines()[0]}")
            return
        self.recorded.append(Recorded(request.url, response.status, await response.all_headers(), body))

    async def settle(self) -> None:
        """Wait for every response still being read."""
        pending, self._pending = self._pending, []
        await asyncio.gather(*pending, return_exceptions=True)


@dataclass
class GameRecording:
    game: str
    urls: list[str]
    problems: list[str]


async def record_assets(catalog: Catalog, out: Path, games: list[str] | None = None, proxy: str | None = None,
                        browser_path: str | None = None, play_ms: int = PLAY_MS) -> tuple[list[GameRecording], Path]:
    """Open each selected game at each of its tasks' URL suffixes, init it and let it run; write the folder."""
    from playwright.async_api import async_playwright

    files = GameFiles(catalog.games_dir)
    chosen = games or sorted(catalog.games)
    unknown = [g for g in chosen if g not in catalog.games]
    if unknown:
        raise ValueError(f"not a game of {catalog.root} with a page: {', '.join(unknown)}")
    results: list[GameRecording] = []
    everything: list[Recorded] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_browser(browser_path), args=CHROMIUM_FLAGS,
                                           proxy={"server": proxy} if proxy else None)
        try:
            for game_id in chosen:
                game = catalog.games[game_id]
                suffixes = sorted({t.url_suffix or "" for t in catalog.tasks if t.game == game_id}) or [""]
                recorder, problems = AssetRecorder(), []
                for suffix in suffixes:
                    try:
                        session = await GameSession.open(browser, files, game, 0, suffix or None, assets=recorder)
                    except HarnessError as exc:
                        problems.append(str(exc))
                        continue
                    try:
                        await session.init({})
                        await session.advance(play_ms)
                    except HarnessError as exc:
                        problems.append(str(exc))
                    finally:
                        await recorder.settle()
                        await session.close()
                problems += [f"could not fetch {line}" for line in recorder.failed]
                results.append(GameRecording(game_id, sorted({r.url for r in recorder.recorded}), problems))
                everything += recorder.recorded
        finally:
            await browser.close()
    return results, write_folder(out, everything)
