"""The network seal around a game page: only the games' origin is reachable; every other attempt is logged.

HTTP(S) requests are answered or refused by the context's route (sandbox.GameSession._route); this module
adds what a route does not see: WebSockets, WebRTC, popups, service workers, link hints, file:// loads,
WebTransport (the context's proxy, seal_proxy.py, refuses it: QUIC does not go through an HTTP proxy).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Playwright's types only: the module imports it nowhere else
    from playwright.async_api import BrowserContext, ConsoleMessage, Dialog, Page, WebSocketRoute

# WebRTC may not send UDP except through a proxy (there is none), so no STUN/ICE packet leaves.
SEAL_FLAGS = [
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--dns-prefetch-disable",
]
CONTEXT_OPTIONS: dict[str, Any] = {"service_workers": "block", "accept_downloads": False}
BINDING = "__gwBlocked"
# What Chromium itself writes on the console (page scripts cannot silence it) when it refuses a channel the
# route never sees; dedicated workers' console reaches the page's too. (pattern, blocked-log prefix)
_CONSOLE_REFUSALS = [
    (re.compile(r"Not allowed to load local resource: (\S+)"), "file"),
    (re.compile(r"Failed to establish a connection to (\S+): net::ERR_"), "webtransport"),
]

# Runs before any page script in every frame. The APIs that open channels a route cannot see are
# replaced by stubs that report the attempt and fail; link hints to other origins are removed.
SEAL_SCRIPT = """
(() => {
  const report = (what) => { try { window.%(binding)s(String(what)); } catch (e) {} };
  const origin = location.origin;
  const refuse = (name) => function (...args) {
    let target = '';
    try { target = JSON.stringify(args[0] && args[0].iceServers ? args[0].iceServers : args[0]); } catch (e) {}
    report(`webrtc ${name} ${target || ''}`.trim());
    throw new DOMException(`${name} is disabled in the GameWorld sandbox`, 'NotAllowedError');
  };
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCIceTransport',
                      'RTCSctpTransport', 'RTCDtlsTransport', 'RTCRtpSender', 'RTCRtpReceiver']) {
    if (name in window) {
      try { Object.defineProperty(window, name, {value: refuse(name), configurable: false, writable: false}); }
      catch (e) {}
    }
  }
  window.open = function (url) { report(`popup ${url === undefined ? '' : new URL(url, location.href).href}`); return null; };
  if (window.ServiceWorkerContainer) {
    ServiceWorkerContainer.prototype.register = function (url) {
      report(`serviceworker ${new URL(url, location.href).href}`);
      return Promise.reject(new DOMException('service workers are disabled in the GameWorld sandbox', 'SecurityError'));
    };
  }
  const HINTS = /(^|\\s)(preconnect|dns-prefetch|prefetch|prerender|preload|modulepreload)(\\s|$)/i;
  const foreign = (el) => {
    try { return new URL(el.href, location.href).origin !== origin; } catch (e) { return true; }
  };
  const screen = (node) => {
    if (node && node.tagName === 'LINK' && HINTS.test(node.rel || '') && foreign(node)) {
      report(`link ${node.rel} ${node.href}`);
      node.remove();
    }
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') screen(r.target);
      for (const n of r.addedNodes || []) {
        screen(n);
        if (n.querySelectorAll) n.querySelectorAll('link').forEach(screen);
      }
    }
  }).observe(document, {childList: true, subtree: true, attributes: true, attributeFilter: ['rel', 'href']});
})();
""" % {"binding": BINDING}  # noqa: UP031 (str.format would need every brace of the script doubled)


async def seal(context: BrowserContext, page: Page, blocked: list[str], dialogs: list[str]) -> None:
    """Install the seal on a fresh context and its page; every refused attempt is appended to ``blocked``, every
    dialog the page opened (alert, confirm, prompt: dismissed, nobody is there to answer) to ``dialogs``."""
    await context.expose_binding(BINDING, lambda _source, what: blocked.append(str(what)[:500]))
    await context.add_init_script(SEAL_SCRIPT)

    # No server stands behind the games' origin, so no WebSocket has anywhere legitimate to go
    # (connecting one to *.localhost would reach the browser host's own loopback).
    async def websocket(ws: WebSocketRoute) -> None:
        blocked.append(f"websocket {ws.url}")
        await ws.close(code=1008, reason="blocked by the GameWorld sandbox")

    await context.route_web_socket(lambda _url: True, websocket)
    context.on("page", _close_popup(page, blocked))
    page.on("console", _console_refusals(blocked))
    page.on("download", lambda d: blocked.append(f"download {d.url}"))
    page.on("dialog", _dismiss(dialogs))


def _dismiss(dialogs: list[str]) -> Callable[[Dialog], Any]:
    async def dismiss(dialog: Dialog) -> None:
        dialogs.append(f"{dialog.type}({json.dumps(str(dialog.message)[:200])}) dismissed")
        try:
            await dialog.dismiss()
        except Exception:  # the page closed meanwhile
            pass

    return dismiss


def _close_popup(page: Page, blocked: list[str]) -> Callable[[Page], Any]:
    async def close(other: Page) -> None:
        if other is not page:
            blocked.append(f"popup {other.url}")
            await other.close()

    return close


def _console_refusals(blocked: list[str]) -> Callable[[ConsoleMessage], None]:
    """Chromium names some refusals only on the console (file://, WebTransport): those are our log lines."""

    def seen(msg: ConsoleMessage) -> None:
        if msg.type != "error":
            return
        for pattern, what in _CONSOLE_REFUSALS:
            found = pattern.match(msg.text)
            if found:
                blocked.append(f"{what} {found.group(1).rstrip('.')}")

    return seen
