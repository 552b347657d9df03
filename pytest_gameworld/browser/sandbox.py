"""The browser sandbox: Chromium (local or remote), pages under a virtual clock, input, state."""

from __future__ import annotations

import asyncio
import base64
import functools
import json
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from ..catalog.specs import GameSpec
from ..catalog.upstream import append_url_suffix
from ..play.actions import Action
from .faults import BrowserGone, HarnessError, PageUnresponsive, bounded
from .game_origin import GameFiles
from .network_seal import CONTEXT_OPTIONS, seal
from .page_scripts import ADVANCE, CALL_POLL, CALL_START, CANVAS_WATCH, OBSERVE, REPLACED, SKIP_DRAWING, STATUS, navigated
from .page_seed import page_seed_script
from .remote_assets import HOW_TO_SUPPLY
from .seal_proxy import SealProxy, proxy_option

if TYPE_CHECKING:  # Playwright's types only: the module imports it nowhere else
    from playwright.async_api import Browser, BrowserContext, CDPSession, Page, Route

# A fixed virtual epoch (seconds) so Date.now() is part of the deterministic state.
CLOCK_EPOCH_S = 1_700_000_000
READY_STATUSES = ("ready", "playing")
READY_SLICE_MS = 50
READY_MAX_GAME_MS = 10_000
READY_MAX_WALL_S = 20.0
FONTS_MAX_WALL_S = 10.0
# gameAPI.reset's answers that leave the page as it was: the harness then reloads it (upstream's last fallback).
RESET_METHODS = ("inplace", "soft_restart", "reload")
ASSET_TYPES = frozenset({"stylesheet", "image", "media", "font", "script", "texttrack", "manifest"})


class _Reloaded(Exception):
    """The page navigated away (a reload) while a gameAPI call was pending."""


def is_ready(state: dict[str, Any]) -> bool:
    """Upstream's rule: is_actionable when the state has it, else a ready or playing status."""
    if "is_actionable" in state:
        return state["is_actionable"] is True
    return str(state.get("status", "")).lower() in READY_STATUSES


@dataclass(frozen=True)
class PageLimits:
    """Bounds on a page: wall-clock seconds for any one call into it or its clock, and a state's size."""

    timeout_s: float = 30.0
    max_state_bytes: int = 1_000_000


T = TypeVar("T")


@dataclass
class GameSession:
    """One game in a fresh browser context and page, its clock paused, driven by real input."""

    game: GameSpec
    page: Page
    context: BrowserContext
    cdp: CDPSession
    blocked: list[str] = field(default_factory=list)
    # Blocked files a page displays (ASSET_TYPES): --gw-assets can supply them; other blocked requests are leaks.
    wanted_assets: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    # alert()/confirm()/prompt() the page opened (dismissed: nobody is there to answer), as trajectory lines.
    dialogs: list[str] = field(default_factory=list)
    game_time_ms: int = 0
    resets: list[str] = field(default_factory=list)  # how each reset happened: inplace, soft_restart, reload
    limits: PageLimits = field(default_factory=PageLimits)
    hung: str | None = None  # the call the page did not answer: it is not called again, only closed
    captures: dict[str, int] = field(default_factory=dict)  # how pictures were taken: canvas, or why not
    page_calls: int = 0  # round trips into the page, its clock and its input (what a step's cost is made of)
    drawing: bool = True  # False once skip_drawing() made the page's 2d drawing calls do nothing
    direct_clock: bool = True  # False once the page had frames inside or no clock answered ADVANCE (run_for then on)
    proxy: SealProxy | None = None
    _oracle_loaded: bool = False
    _init_config: dict[str, Any] = field(default_factory=dict)
    # Recorded internet assets (remote_assets.AssetStore), or a recorder: anything whose serve(route) answers.
    assets: Any = None

    @classmethod
    async def open(cls, browser: Browser, files: GameFiles, game: GameSpec, seed: int,
                   url_suffix: str | None = None, limits: PageLimits | None = None,
                   local_proxy: bool = True, *, assets: Any = None, trace: Any = None) -> GameSession:
        """A fresh page of the game; a task's URL suffix (levels, options) is appended as upstream does.
        local_proxy: the browser can reach this host's loopback (seal_proxy.reaches_harness); ``assets``
        answers the page's requests to internet hosts (none: they are refused and named); ``trace``
        (plugin/tracing.RunTrace) starts on the new context before any page opens and stops if opening fails."""
        vp = game.viewport
        limits = limits or PageLimits()
        blocked: list[str] = []
        recording = getattr(assets, "reaches_internet", False)  # the asset recorder: requests go out, no seal proxy
        proxy = await SealProxy(files, blocked).start() if local_proxy and not recording else None

        def gone() -> HarnessError:
            return BrowserGone(f"{game.id}: could not open a browser context: no answer within "
                               f"{limits.timeout_s:g} s")

        options: dict[str, Any] = {**({} if recording else {"proxy": proxy_option(proxy)}), **CONTEXT_OPTIONS}
        try:
            context = await bounded(browser.new_context(viewport={"width": vp.width, "height": vp.height},
                                                        device_scale_factor=1, **options), limits.timeout_s, gone)
        except Exception as exc:  # a browser that died (or whose server went away) since the last run
            if proxy is not None:
                await proxy.close()
            if isinstance(exc, BrowserGone):
                raise
            raise BrowserGone(f"{game.id}: could not open a browser context: {str(exc).splitlines()[0]}") from exc
        # page and cdp: set just below, before any use
        session = cls(game, None, context, None, blocked=blocked, limits=limits, proxy=proxy, assets=assets)  # type: ignore[arg-type]
        if trace is not None:
            await trace.start(context)  # bounded, never raises: the load below is in the trace
        try:
            page = session.page = await session._call("open", context.new_page())
            session.cdp = await session._call("open", context.new_cdp_session(page))
            await session._call("open", context.route("**/*", functools.partial(session._route, files)))
            await session._call("open", seal(context, page, session.blocked, session.dialogs))
            page.on("pageerror", lambda err: session.errors.append(f"JS error: {err}"))
            page.on("crash", lambda _: session.errors.append("page crashed"))
            await session._call("open", page.clock.install(time=CLOCK_EPOCH_S))
            # install() lets time flow until paused; pausing a fixed minute later keeps the
            # page's first virtual instant identical on every run.
            await session._call("open", page.clock.pause_at(CLOCK_EPOCH_S + 60))
            await session._call("open", page.add_init_script(
                page_seed_script(seed, CLOCK_EPOCH_S * 1000, game.origin == "upstream") + CANVAS_WATCH))
            await session._call("load", page.goto(append_url_suffix(files.url(game), url_suffix), wait_until="load"))
            if assets is not None:
                await session._fonts_loaded()
        except BaseException as exc:
            if trace is not None:
                await trace.stop(context, failed=True)  # bounded: a load fault keeps its trace (retain-on-failure)
            if not await session.close() and isinstance(exc, Exception):  # bounded, like every page call
                raise BrowserGone(f"{game.id}: the browser did not close a page that stopped answering "
                                  f"({exc})") from exc
            if isinstance(exc, Exception) and not isinstance(exc, HarnessError):
                raise HarnessError(f"{game.id}: could not open the game page: {str(exc).splitlines()[0]}") from exc
            raise
        # Faults while loading (a JS error, a blocked request) are the run's: the runner's first read
        # raises them, so they land in its record instead of failing the fixture with no record.
        return session

    async def _route(self, files: GameFiles, route: Route) -> None:
        url = route.request.url
        if files.owns(url):
            await files.fulfil(route)
        elif self.assets is not None and await self.assets.serve(route):
            return  # answered from the recorded internet assets
        elif urlsplit(url).scheme in ("data", "blob", "about"):
            await route.continue_()
        else:
            self.blocked.append(url)
            if route.request.resource_type in ASSET_TYPES:
                self.wanted_assets.add(url)
            await route.abort("blockedbyclient")

    def check(self, network: bool = True) -> None:
        """Raise the first fault seen so far: JS error, unhandled rejection, crash, or (network) a blocked attempt."""
        if self.errors:
            raise HarnessError(f"{self.game.id}: {self.errors[0]}")
        if network and self.blocked:
            if set(self.blocked) <= self.wanted_assets:  # only files the page wants from the internet
                web = sorted(self.wanted_assets)  # not request order
                where = f"not in {self.assets.source}" if hasattr(self.assets, "source") else "not supplied"
                raise HarnessError(f"{self.game.id} needs {len(web)} internet asset(s) {where}: "
                                   f"{', '.join(web[:20])}{' …' if len(web) > 20 else ''}; {HOW_TO_SUPPLY}")
            raise HarnessError(f"{self.game.id} tried to reach outside the sandbox ({len(self.blocked)} blocked): "
                               f"{', '.join(self.blocked[:5])}")

    async def _call(self, what: str, call: Awaitable[T]) -> T:
        """Every call into the page, its clock and its input goes through here: bounded in wall-clock time.

        A page that does not answer is given up: this and every later call raise PageUnresponsive, and
        only closing its context is left (the owner replaces the context, or the browser when that hangs).
        """
        if self.hung is not None:
            if asyncio.iscoroutine(call):
                call.close()
            raise PageUnresponsive(self.game.id, self.hung, self.limits.timeout_s)

        def gave_up() -> PageUnresponsive:
            self.hung = what
            return PageUnresponsive(self.game.id, what, self.limits.timeout_s)

        self.page_calls += 1
        return await bounded(call, self.limits.timeout_s, gave_up)

    async def _fonts_loaded(self) -> None:
        """Wait (bounded in wall time) until the page's web fonts have loaded: served from memory, they still
        arrive in wall time, and a frame drawn before or after they do would differ between runs."""
        try:
            # Reading a layout property starts the loads of the fonts the page uses, so ready waits for them.
            await asyncio.wait_for(self.page.evaluate("() => { void document.documentElement.offsetHeight; "
                                                      "return document.fonts.ready.then(() => true); }"),
                                   FONTS_MAX_WALL_S)
        except asyncio.TimeoutError:
            raise HarnessError(f"{self.game.id}: the page's web fonts did not load within {FONTS_MAX_WALL_S:g} s") from None

    async def eval(self, expression: str, arg: Any = None, what: str = "a page call") -> Any:
        return await self._guarded(what, self.page.evaluate(expression, arg), "page call")

    async def _guarded(self, what: str, call: Awaitable[T], failed: str) -> T:
        """One bounded page call (_call) whose other failures become one HarnessError line: '<failed> failed: …'."""
        try:
            return await self._call(what, call)
        except HarnessError:
            raise
        except Exception as exc:
            raise HarnessError(f"{self.game.id}: {failed} failed: {str(exc).splitlines()[0]}") from exc

    async def init(self, config: dict[str, Any]) -> dict[str, Any]:
        """Call gameAPI.init and wait until the game is ready."""
        return (await self.init_observed(config, None))[0]

    async def reset(self, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """gameAPI.reset, then the readiness gate (see reset_observed)."""
        return (await self.reset_observed(options, None))[0]

    async def init_observed(self, config: dict[str, Any], fmt: str | None) -> tuple[dict[str, Any], bytes | None]:
        """gameAPI.init until ready; the ready state and, with ``fmt``, its picture, read in one page call."""
        has_api = await self.eval("() => typeof window.gameAPI === 'object' && window.gameAPI !== null", what="init")
        if not has_api:
            raise HarnessError(f"{self.game.id}: window.gameAPI is missing after load")
        self._init_config = config
        try:
            await self._settle("init", config)
        except _Reloaded:
            raise HarnessError(f"{self.game.id}: the page navigated away during gameAPI.init") from None
        return await self.wait_ready(fmt)

    async def reset_observed(self, options: dict[str, Any] | None, fmt: str | None) -> tuple[dict[str, Any], bytes | None]:
        """gameAPI.reset, then the readiness gate; a page that reloads itself or cannot reset is reloaded
        and initialised again. How it happened is appended to ``resets``."""
        try:
            answer = await self._settle("reset", options or {})
        except _Reloaded:
            answer = {"ok": True, "method": "reload"}  # location.reload() tore the call down
        method = answer.get("method") if isinstance(answer, dict) else None
        failed = isinstance(answer, dict) and (answer.get("ok") is False or method not in (None, *RESET_METHODS))
        if failed or method == "reload":
            self.resets.append("reload")
            return await self._reload(self_started=failed, fmt=fmt)  # init already waited for ready
        self.resets.append(method or "inplace")
        return await self.wait_ready(fmt)

    async def _reload(self, self_started: bool, fmt: str | None) -> tuple[dict[str, Any], bytes | None]:
        """Reload the page (or wait for the reload the page started) and call gameAPI.init again."""
        if self_started:
            await self._guarded("reset", self.page.reload(wait_until="load"), "reload")
        started = time.monotonic()
        while True:  # the page's own reload: wait for the new document to finish loading
            try:
                if await self._call("reset", self.page.evaluate(
                        "() => !window.__gwOldDocument && document.readyState === 'complete'")):
                    break
            except PageUnresponsive:
                raise
            except Exception:
                pass  # the old document went away mid-call
            if time.monotonic() - started > READY_MAX_WALL_S:
                raise HarnessError(f"{self.game.id}: the page's reload did not finish within {READY_MAX_WALL_S:g} s")
            await asyncio.sleep(0.02)
        return await self.init_observed(self._init_config, fmt)

    async def wait_ready(self, fmt: str | None = None) -> tuple[dict[str, Any], bytes | None]:
        """Advance the clock in small slices until status is ready/playing (bounded in game and wall time);
        the ready state and, with ``fmt``, the picture of it."""
        started = time.monotonic()
        spent = 0
        while True:
            state, picture = await self.observe(fmt)
            if is_ready(state):
                return state, picture
            wall = time.monotonic() - started
            if spent >= READY_MAX_GAME_MS or wall > READY_MAX_WALL_S:
                raise HarnessError(f"{self.game.id}: not ready after {spent} ms of game time ({wall:.1f} s wall); "
                                   f"stuck in status {state.get('status')!r}")
            await self.advance(READY_SLICE_MS)
            spent += READY_SLICE_MS

    async def _settle(self, method: str, arg: Any) -> Any:
        """Call gameAPI.<method>(arg) and let game time pass in slices until its promise settles: the page's
        timers and animation frames run meanwhile. Bounded in game and wall time; raises _Reloaded if the
        page navigated away, HarnessError naming the status it is stuck in if the call never settles."""
        started = time.monotonic()
        spent = 0
        box = await self._settle_call(method, CALL_START, [method, arg])
        while True:
            if box is None:  # a new document: the page reloaded itself
                raise _Reloaded()
            if box.get("replaced"):
                raise HarnessError(f"{self.game.id}: {REPLACED} (seen at gameAPI.{method})")
            if box["done"]:
                if box["error"] is not None:
                    raise HarnessError(f"{self.game.id}: gameAPI.{method} failed: {box['error']}")
                return box["value"]
            self.check()
            wall = time.monotonic() - started
            if spent >= READY_MAX_GAME_MS or wall > READY_MAX_WALL_S:
                status = await self.eval(STATUS, what=method)
                raise HarnessError(f"{self.game.id}: gameAPI.{method} did not settle after {spent} ms of game time "
                                   f"({wall:.1f} s wall); stuck in status {status!r}")
            try:
                await self.advance(READY_SLICE_MS)
            except HarnessError as exc:
                if navigated(exc):
                    raise _Reloaded() from None
                raise
            spent += READY_SLICE_MS
            box = await self._settle_call(method, CALL_POLL)

    async def _settle_call(self, method: str, script: str, arg: Any = None) -> Any:
        """One bounded evaluate of _settle's; _Reloaded when the page navigated away meanwhile."""
        try:
            return await self._call(method, self.page.evaluate(script, arg))
        except HarnessError:
            raise
        except Exception as exc:
            if navigated(exc):
                raise _Reloaded() from None
            raise HarnessError(f"{self.game.id}: page call failed: {str(exc).splitlines()[0]}") from exc

    async def state(self) -> dict[str, Any]:
        """The game's state; one larger than the bound (serialized) is a fault naming its size."""
        return (await self.observe(None))[0]

    async def skip_drawing(self) -> None:
        """For a run nobody will see: the page's 2d drawing calls do nothing from now on (its state is unchanged)."""
        await self.eval(SKIP_DRAWING, what="skip drawing")
        self.drawing = False

    def _refuse_if_not_drawing(self) -> None:
        if not self.drawing:  # a blank picture would pass for the game's screen
            raise HarnessError(f"{self.game.id}: a picture was asked of a page that skips drawing")

    async def observe(self, fmt: str | None, quality: int = 80,
                      unless_ended: bool = False) -> tuple[dict[str, Any], bytes | None]:
        """The state and, with ``fmt``, the picture of that same instant: read back from the canvas in the same
        page call when the page is one opaque canvas, else a screenshot. ``unless_ended``: no picture (None) of a
        state that ended its episode."""
        if fmt:
            self._refuse_if_not_drawing()
        image = [f"image/{fmt}", quality / 100] if fmt else None
        read = await self.eval(OBSERVE, [self.limits.max_state_bytes, image, unless_ended], what="getState")
        self.check()
        if not isinstance(read, dict):
            raise HarnessError(f"{self.game.id}: getState() could not be read")
        if read.get("replaced"):
            raise HarnessError(f"{self.game.id}: {REPLACED}")
        if read.get("gone"):
            raise HarnessError(f"{self.game.id}: window.gameAPI is gone: the page navigated away to {read['gone']}")
        size, text = read.get("size"), read.get("text")
        if isinstance(size, int) and size > self.limits.max_state_bytes:
            raise HarnessError(f"{self.game.id}: getState() returned {size} bytes of JSON, more than the bound of "
                               f"{self.limits.max_state_bytes} (--gw-max-state-bytes)")
        if read.get("error"):
            raise HarnessError(f"{self.game.id}: getState() returned a value JSON cannot hold: {read['error']}")
        state = json.loads(text) if isinstance(text, str) else None
        if not isinstance(state, dict):
            raise HarnessError(f"{self.game.id}: getState() returned {type(state).__name__}, not an object")
        if fmt is None or read.get("ended") is True:
            return state, None
        how = read.get("why") or "canvas"
        self.captures[how] = self.captures.get(how, 0) + 1
        url = read.get("image")
        if isinstance(url, str) and url.startswith(f"data:image/{fmt};base64,"):
            return state, base64.b64decode(url.split(",", 1)[1])
        return state, await self.screenshot(fmt, quality)

    async def advance(self, ms: int) -> None:
        """Let ``ms`` of game time pass: the page's timers and animation frames run (one page call when the
        page is a single frame and its clock answers, else Playwright's run_for)."""
        if ms > 0:
            try:
                if not (self.direct_clock and len(self.page.frames) == 1
                        and await self._call("advance", self.page.evaluate(ADVANCE, ms)) is True):
                    self.direct_clock = False
                    await self._call("advance", self.page.clock.run_for(ms))
            except HarnessError:
                raise
            except Exception as exc:
                if navigated(exc):  # the page's own script left the game while its timers ran
                    raise HarnessError(f"{self.game.id}: window.gameAPI is gone: the page navigated away to "
                                       f"{await self._where_it_went()}") from exc
                raise HarnessError(f"{self.game.id}: clock advance failed: {str(exc).splitlines()[0]}") from exc
            self.game_time_ms += ms

    async def _where_it_went(self, within_s: float = 2.0) -> str:
        """The address a navigating page is going to: Playwright learns it when the navigation commits, a moment
        after the page's context was destroyed (polled for at most ``within_s``)."""
        left = self.page.url
        deadline = asyncio.get_running_loop().time() + within_s
        while self.page.url == left and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        return self.page.url if self.page.url != left else f"a page that had not loaded within {within_s:g} s"

    async def screenshot(self, fmt: str = "png", quality: int = 80) -> bytes:
        """A viewport screenshot through CDP (about half the cost of page.screenshot)."""
        self._refuse_if_not_drawing()
        params: dict[str, Any] = {"format": fmt, "optimizeForSpeed": True}
        if fmt == "jpeg":
            params["quality"] = quality
        shot = await self._guarded("screenshot", self.cdp.send("Page.captureScreenshot", params), "screenshot")
        return base64.b64decode(shot["data"])

    async def execute(self, action: Action) -> None:
        """Run one action as real input events while the clock advances by its duration."""
        await self.execute_together([action])

    async def execute_together(self, actions: Sequence[Action]) -> None:
        """Run several roles' actions in one time window (docs/games.md 1.10).

        Every action starts at the same virtual instant (in the order given); the clock then runs to
        each action's end in turn, shortest first, where that action ends (its keys come up). The
        clock advances by the longest duration in all.
        """
        try:
            for a in actions:
                await self._begin(a)
            elapsed = 0
            for a in sorted(actions, key=lambda a: a.duration_ms):  # stable: equal ends in the given order
                await self.advance(a.duration_ms - elapsed)
                elapsed = max(elapsed, a.duration_ms)
                await self._end(a)
        except HarnessError:
            raise
        except Exception as exc:
            raise HarnessError(f"{self.game.id}: input failed: {str(exc).splitlines()[0]}") from exc
        self.check()

    async def _begin(self, a: Action) -> None:
        """The input events that start an action, sent at its first instant."""
        kb, mouse = self.page.keyboard, self.page.mouse
        if a.kind in ("press_key", "press_keys"):
            for k in a.keys:
                await self._call("input", kb.down(k))
        elif a.kind == "type":
            # One call for the whole text (not one per character); a character with no key
            # (e.g. "é") is inserted as text instead of failing the run.
            await self._call("input", kb.type(a.text))
        elif a.kind in ("click", "right_click"):
            await self._call("input", mouse.click(*a.at(), button=a.button))
        elif a.kind == "click_hold":
            await self._call("input", mouse.move(*a.at()))
            await self._call("input", mouse.down(button=a.button))
        elif a.kind == "drag":
            await self._call("input", mouse.move(*a.at()))
            await self._call("input", mouse.down(button=a.button))
            await self._call("input", mouse.move(*a.to(), steps=8))
        elif a.kind in ("mouse_move", "scroll"):
            await self._call("input", mouse.move(*a.at()))
            if a.to_x is not None:  # a look: from (x, y) on to (to_x, to_y)
                await self._call("input", mouse.move(*a.to()))
            if a.kind == "scroll":
                await self._call("input", mouse.wheel(a.dx, a.dy))
        # wait: nothing starts, only time passes

    async def _end(self, a: Action) -> None:
        """The input events that end an action once its duration has passed (held keys and buttons up)."""
        if a.kind in ("press_key", "press_keys"):
            for k in reversed(a.keys):
                await self._call("input", self.page.keyboard.up(k))
        elif a.kind in ("click_hold", "drag"):
            await self._call("input", self.page.mouse.up(button=a.button))

    async def oracle_act(self, task: dict[str, Any], role: str) -> Any:
        """Ask the game's oracle.js for its next control (loaded on first use)."""
        if not self._oracle_loaded:
            path = self.game.path / "oracle.js"
            if not path.exists():
                raise HarnessError(f"{self.game.id}: no oracle.js")
            await self._call("oracle", self.page.add_script_tag(path=str(path)))
            self._oracle_loaded = True
        return await self.eval(
            "([t, r]) => window.gameOracle.act(window.gameAPI.getState(), t, r)", [task, role], what="oracle")

    async def close(self) -> bool:
        """Close the context (its renderer with it, hung or not); False when even that did not finish in time."""
        if self.proxy is not None:
            await self.proxy.close()
        try:
            await asyncio.wait_for(self.context.close(), self.limits.timeout_s)
        except asyncio.TimeoutError:
            return False
        except Exception:  # a crashed browser has nothing left to close
            pass
        return True
