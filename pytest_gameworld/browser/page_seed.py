"""The script that makes a page deterministic: seeded randomness, and time read from the virtual clock.

It runs before any page script, after Playwright's clock script (so it wraps the fake timers). A page may
carry its own block that replaces ``Math.random`` or ``crypto.getRandomValues`` with a generator of a fixed
seed (upstream pages carry a ``[DETERMINISTIC_RANDOM]`` block); that must not defeat the run's seed. So both
stay the harness's: assigning them is taken as the page asking for a freshly seeded generator, and the
harness's stream restarts at the run's seed, as the page's own generator would restart at its seed.
A page that replaces the clock (Date.now, performance.now, timers, animation frames) builds on these
functions, which all read Playwright's virtual clock, so its time stays the harness's too.

Pages written for a browser rather than for the harness (upstream's) get two more things:
- the browser's timer delays, a whole number of milliseconds (at least 1 for any positive delay).
  Playwright's clock keeps a delay of 1000/60 as it is, and the float sums of such delays then tie or not
  depending on where the clock's tick count started, a few wall-clock milliseconds that differ from run to
  run: two timers due at "the same" instant fired in either order, and identical runs drifted a frame apart;
- CSS transitions and animations that end at once. They run on wall time, outside the virtual clock, so a
  screenshot caught them wherever the machine's load left them (upstream 2048 showed a moved tile at its
  old place in one run and its new one in the next); ended, the picture is the page's state after the step.
"""

from __future__ import annotations

# performance.now and requestAnimationFrame are tied to the virtual Date.now: the clock's own frame grid
# follows performance.now, whose origin depends on wall time spent before the clock was paused, so
# identical runs could see frames one tick apart.
_SCRIPT = """
window.__GW_HARNESS__ = true;
(() => {
  // The gameAPI object init was called on is the run's: __gwApi() answers window.gameAPI and says when the page
  // has put another object there since (a page that swaps in its own getState would score whatever it likes).
  // Non-writable and non-configurable, so no page script can replace the check itself.
  let offered = null;
  const api = (mark) => {
    const now = window.gameAPI;
    if (mark) offered = now;
    return {api: now, replaced: offered !== null && now !== offered};
  };
  Object.defineProperty(window, '__gwApi', {value: api, writable: false, enumerable: false, configurable: false});
})();
(() => {
  const stream = (seed) => {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x6D2B79F5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    next.restart = () => { s = seed >>> 0; };
    return next;
  };
  const draw = stream(%(seed)d);
  const random = function random() { return draw(); };
  Object.defineProperty(Math, 'random', {get: () => random, set: () => draw.restart(),
                                         enumerable: false, configurable: false});
  const bytes = stream(%(seed)d ^ 0x5F3759DF);
  const fill = function getRandomValues(array) {
    if (!ArrayBuffer.isView(array)) throw new TypeError('getRandomValues expects a typed array');
    const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < view.length; i++) view[i] = (bytes() * 256) | 0;
    return array;
  };
  const uuid = function randomUUID() {
    const b = fill(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  if (window.crypto) {
    for (const [name, value] of [['getRandomValues', fill], ['randomUUID', uuid]]) {
      Object.defineProperty(window.crypto, name, {get: () => value, set: () => bytes.restart(),
                                                  enumerable: false, configurable: false});
    }
  }
  if (%(browser_page)s) {
    const ended = '*, *::before, *::after { transition-duration: 0s !important; transition-delay: 0s !important; ' +
                  'animation-duration: 0s !important; animation-delay: 0s !important; }';
    const addStyle = () => {
      if (!document.head) return false;
      const style = document.createElement('style');
      style.textContent = ended;
      document.head.appendChild(style);
      return true;
    };
    if (!addStyle()) {
      new MutationObserver((_, watch) => { if (addStyle()) watch.disconnect(); })
        .observe(document, {childList: true, subtree: true});
    }
    const whole = (delay) => { const d = Number(delay) | 0; return d <= 0 && Number(delay) > 0 ? 1 : d; };
    for (const name of ['setTimeout', 'setInterval']) {
      const fake = window[name];
      window[name] = function (fn, delay, ...args) { return fake.call(this, fn, whole(delay), ...args); };
    }
  }
  const origin = %(origin_ms)d;
  const now = () => Date.now() - origin;
  performance.now = now;
  window.requestAnimationFrame = (cb) => setTimeout(() => cb(now()), 16 - (Date.now() %% 16));
  window.cancelAnimationFrame = (id) => clearTimeout(id);
})();
"""


def page_seed_script(seed: int, origin_ms: int, browser_page: bool = False) -> str:
    """The script for a run of this seed; ``origin_ms`` is the virtual instant performance.now counts from;
    ``browser_page``: a page written for a browser, not for the harness (whole-millisecond timers, CSS
    transitions and animations ended at once)."""
    return _SCRIPT % {"seed": seed & 0xFFFFFFFF, "origin_ms": origin_ms,
                      "browser_page": "true" if browser_page else "false"}
