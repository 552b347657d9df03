"""One browser per process, shared by every run in flight: each run has a context (and page) of its own.

Runs open and close their contexts at any time, many at once (`--gw-concurrency`). A browser that misbehaves
is never closed under the other runs still playing on it: it is *retired* (no new run opens on it, the next
one gets a fresh browser) and closed once its last run has released its page.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from ..catalog.specs import GameSpec

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright
from .faults import BrowserGone, HarnessError
from .game_origin import GameFiles
from .launch import find_browser, launch_browser
from .processes import LAUNCHED, browser_groups, kill_groups, launched
from .remote import BrowserUnreachable, connect_browser, pick_endpoint
from .remote_assets import AssetStore
from .sandbox import GameSession, PageLimits
from .seal_proxy import reaches_harness

# Games opening at once on one host. Opening (a context, the page's load, its readiness gate) is the heavy part
# of a run's start: 32 runs starting together would load 32 pages at once and, on a busy machine, each would
# wait past its page timeout. Waiting here is not timed by the page timeout; playing is not limited.
OPENS_AT_ONCE = 4


class HostSettings(Protocol):
    """What a host needs of the session's settings (plugin/options.py Settings has it all)."""

    # Read-only properties: the gym engine passes a frozen dataclass (gym/options.py BrowserOptions).
    @property
    def browser_endpoints(self) -> list[str]: ...
    @property
    def browser_path(self) -> str | None: ...
    @property
    def headed(self) -> bool: ...
    @property
    def page_timeout(self) -> float: ...
    @property
    def max_state_bytes(self) -> int: ...


class _Browser:
    """A browser and what the host knows of it: the runs on it, whether it takes new ones, its processes."""

    def __init__(self, handle: Browser, groups: set[int]) -> None:
        self.handle = handle
        self.groups = groups  # the process groups of a browser launched here (killed if it hangs)
        self.users = 0
        self.retired = False

    def alive(self) -> bool:
        return bool(self.handle.is_connected())


class BrowserHost:
    """The process's browser, launched here or on a browser server; renewed after a crash so the session goes on."""

    def __init__(self, playwright: Playwright, settings: HostSettings, worker_id: str | None = None) -> None:
        self.playwright = playwright
        self.settings = settings
        self.endpoint = pick_endpoint(settings.browser_endpoints, worker_id)
        # A remote server's browser lives on its host: only an explicit path is passed on, never a local guess.
        self.executable = settings.browser_path if self.endpoint else find_browser(settings.browser_path)
        self.limits = PageLimits(settings.page_timeout, settings.max_state_bytes)
        self.local_proxy = reaches_harness(self.endpoint)
        self._current: _Browser | None = None
        self._of: dict[int, _Browser] = {}  # id(GameSession) -> the browser it was opened on
        self._draining: set[_Browser] = set()  # retired browsers that still have runs on them
        self._launching = asyncio.Lock()  # many runs may ask for the first browser at once: one launch
        self._opening = asyncio.Semaphore(OPENS_AT_ONCE)

    @property
    def browser(self) -> Browser | None:
        """The browser new runs open on (None before the first run or after a close)."""
        return self._current.handle if self._current is not None else None

    @property
    def groups(self) -> set[int]:
        """The process groups of the browser new runs open on (empty for a remote one, or before the first)."""
        return set(self._current.groups) if self._current is not None else set()

    async def get(self) -> Browser:
        return (await self._take()).handle

    async def _take(self) -> _Browser:
        async with self._launching:
            current = self._current
            if current is None or current.retired or not current.alive():
                if current is not None:
                    self._retire(current)
                if self.endpoint:
                    handle = await connect_browser(self.playwright, self.endpoint, self.executable,
                                                   self.settings.headed)
                    current = _Browser(handle, set())
                else:
                    before = browser_groups()
                    handle = await launch_browser(self.playwright, self.executable, self.settings.headed)
                    current = _Browser(handle, launched(before))
                self._current = current
            return current

    async def open(self, files: GameFiles, game: GameSpec, seed: int, url_suffix: str | None = None,
                   assets: AssetStore | None = None, trace: Any = None) -> GameSession:
        """A game page in a context of its own; a browser found dead on the way (crashed, or its server gone)
        is renewed once."""
        async with self._opening:
            return await self._open(files, game, seed, url_suffix, assets, trace)

    async def _open(self, files: GameFiles, game: GameSpec, seed: int, url_suffix: str | None,
                    assets: AssetStore | None, trace: Any) -> GameSession:
        target = await self._take()
        try:
            session = await self._open_on(target, files, game, seed, url_suffix, assets, trace)
        except BrowserUnreachable:
            raise
        except HarnessError as exc:
            if not isinstance(exc, BrowserGone) and target.alive():
                raise  # the game's own fault (e.g. it never loads): a fresh browser would only wait for it again
            # The disconnect may not have been noticed yet: retire the browser and try once on a fresh one.
            self._retire(target)
            await self._close_if_idle(target)
            session = await self._open_on(await self._take(), files, game, seed, url_suffix, assets, trace)
        return session

    async def _open_on(self, target: _Browser, files: GameFiles, game: GameSpec, seed: int, url_suffix: str | None,
                       assets: AssetStore | None, trace: Any) -> GameSession:
        target.users += 1
        try:
            session = await GameSession.open(target.handle, files, game, seed, url_suffix, self.limits,
                                             self.local_proxy, assets=assets, trace=trace)
        except BaseException:
            target.users -= 1
            raise
        self._of[id(session)] = target
        return session

    async def release(self, session: GameSession) -> None:
        """Close a run's context; when even that hangs (a renderer or browser that stopped answering), its
        browser is retired: the next run gets a fresh one, and the runs still playing on it finish first."""
        target = self._of.pop(id(session), None)
        closed = await session.close()
        if target is None:
            return
        target.users -= 1
        if not closed:
            self._retire(target)
        await self._close_if_idle(target)

    def _retire(self, target: _Browser) -> None:
        target.retired = True
        if self._current is target:
            self._current = None
        self._draining.add(target)

    async def _close_if_idle(self, target: _Browser) -> None:
        if target.retired and target.users <= 0 and target in self._draining:
            self._draining.discard(target)
            await self._shut(target)

    async def _shut(self, target: _Browser) -> None:
        """Close one browser, bounded; one that does not close in time is killed (a local one)."""
        LAUNCHED.difference_update(target.groups)
        if not target.alive():
            kill_groups(target.groups)  # whatever a browser that died left behind
            return
        try:
            await asyncio.wait_for(target.handle.close(), self.limits.timeout_s)
        except asyncio.TimeoutError:
            kill_groups(target.groups)
        except Exception:
            pass  # already gone

    async def close(self) -> None:
        """Close every browser of this host (the current one and any still draining). Next get() launches or
        connects anew."""
        targets = [*self._draining, *([self._current] if self._current is not None else [])]
        self._current, self._draining = None, set()
        self._of.clear()
        for target in targets:
            await self._shut(target)
