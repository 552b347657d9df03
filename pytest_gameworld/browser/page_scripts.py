"""The scripts the harness evaluates in a game page: reading its state with its size, and gameAPI calls polled
under the paused clock."""

# The state with its JSON size (UTF-8 bytes, -1 when it does not serialize), measured in the page so a huge
# state never crosses over; the state itself still travels as Playwright serializes it (NaN stays NaN).
# The state travels as its JSON text (one serialization, parsed in Python); a state over the bound stays in
# the page and only its size comes back. With `image` set ([mime, quality]) the same call reads the picture
# back from the canvas when the page is nothing but one 2d canvas covering the viewport: the canvas holds exactly
# what a screenshot would show, without waiting for the compositor's next frames. Any other page gets
# `image: null` and a reason, and the harness takes a screenshot instead. With `unlessEnded` no picture is taken of a
# state that ended its episode (`terminal.isTerminal` or status 'terminal', as the evaluator reads it): the run
# resets or stops there, so nobody would see it (`ended: true` says so).
OBSERVE = r"""([max, image, unlessEnded]) => {
  const held = window.__gwApi ? window.__gwApi(false) : {api: window.gameAPI, replaced: false};
  if (held.replaced) return {replaced: true};
  // A page that navigated away (to a document without the game) would fail below on 'getState' of undefined.
  if (!held.api || typeof held.api.getState !== 'function') return {gone: String(location.href)};
  const state = held.api.getState();
  let text = null, size = -1, error = null;
  try {
    // NaN and ±Infinity would arrive as null, and a score field would then read "None": kept as their names.
    text = JSON.stringify(state, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
    if (text === undefined) text = null;
    else size = text.length > max / 3 ? new TextEncoder().encode(text).length : text.length;
  } catch (e) { error = String((e && e.message) || e); }
  const out = {size, text: size > max ? null : text, error, image: null, why: null};
  if (!image) return out;
  const term = state && state.terminal;
  if (unlessEnded && ((term && typeof term === 'object' && term.isTerminal) || (state && state.status === 'terminal'))) {
    out.ended = true;
    return out;
  }
  const canvases = document.getElementsByTagName('canvas');
  const c = canvases[0];
  const others = () => [...document.body.querySelectorAll('*')].some((e) => e !== c && !['SCRIPT', 'STYLE'].includes(e.tagName)
    && !e.contains(c) && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden');
  if (canvases.length !== 1) out.why = `${canvases.length} canvases`;
  else if (devicePixelRatio !== 1) out.why = `device pixel ratio ${devicePixelRatio}`;
  else {
    const r = c.getBoundingClientRect(), css = getComputedStyle(c);
    const ctx = window.__gwCanvasContext ? window.__gwCanvasContext(c) : null;
    if (c.width !== innerWidth || c.height !== innerHeight || r.left !== 0 || r.top !== 0
        || r.width !== innerWidth || r.height !== innerHeight) out.why = 'the canvas does not cover the viewport 1:1';
    else if (css.opacity !== '1' || css.filter !== 'none' || css.transform !== 'none' || css.visibility !== 'visible')
      out.why = 'the canvas is styled';
    else if (others()) out.why = 'other elements are shown';
    else if (!ctx || ctx.type !== '2d') out.why = 'not a 2d canvas';
    else if (ctx.alpha === false) out.image = c.toDataURL(image[0], image[1]);
    else {
      // A transparent canvas shows the page's background through it: over a plain colour, draw it as the
      // compositor does, on an opaque canvas of that colour.
      const plain = (e) => { const s = getComputedStyle(e); return s.backgroundImage === 'none' ? s.backgroundColor : null; };
      const colours = [plain(document.body), plain(document.documentElement)];
      const under = colours.find((col) => col !== 'rgba(0, 0, 0, 0)');
      if (colours.includes(null) || (under && !/^rgb\(/.test(under))) out.why = 'a transparent canvas over a patterned page';
      else {
        const flat = window.__gwFlat || (window.__gwFlat = document.createElement('canvas'));
        if (flat.width !== c.width || flat.height !== c.height) { flat.width = c.width; flat.height = c.height; }
        const g = flat.getContext('2d', {alpha: false});
        g.fillStyle = under || 'rgb(255, 255, 255)';
        g.fillRect(0, 0, flat.width, flat.height);
        g.drawImage(c, 0, 0);
        out.image = flat.toDataURL(image[0], image[1]);
      }
    }
  }
  return out;
}"""

# Notes which kind of context each canvas got (never creating one itself), so OBSERVE knows an opaque 2d
# canvas from a WebGL or transparent one.
CANVAS_WATCH = """;(() => {
  const contexts = new WeakMap();
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attributes) {
    const ctx = getContext.apply(this, arguments);
    if (ctx && !contexts.has(this)) {
      const attrs = typeof ctx.getContextAttributes === 'function' ? ctx.getContextAttributes() : null;
      contexts.set(this, {type: String(type), alpha: attrs ? attrs.alpha : true});
    }
    return ctx;
  };
  Object.defineProperty(window, '__gwCanvasContext', {value: (c) => contexts.get(c) || null});
})();
"""

# Starts gameAPI[method](arg) and keeps its outcome on the page: a call that awaits the page's timers or
# animation frames settles only while the harness lets game time pass, so the harness polls this box between
# slices of game time instead of awaiting the promise (which would wait forever on a paused clock).
# __gwOldDocument tells this document from a new one, should the page reload itself meanwhile.
# CALL_START answers like CALL_POLL after a few microtask turns, so a call that settles without game time
# (most resets) needs no second page call; the turns cannot wait on the paused clock.
_CALL_BOX = """
  if (window.__gwApi && window.__gwApi(false).replaced) return {done: true, value: null, error: null, replaced: true};
  let value = null;
  try { value = box.done ? JSON.parse(JSON.stringify(box.value)) : null; } catch (e) { value = null; }
  return {done: box.done, value: value, error: box.error};"""
CALL_START = """async ([method, arg]) => {
  window.__gwOldDocument = true;
  const box = window.__gwCall = {done: false, value: null, error: null};
  let promise;
  const held = window.__gwApi ? window.__gwApi(false) : {api: window.gameAPI, replaced: false};
  if (held.replaced) return {done: true, value: null, error: null, replaced: true};
  try { promise = Promise.resolve(held.api[method](arg)); } catch (e) { promise = Promise.reject(e); }
  // Once init has settled, the object it was called on is the one every later call must find (__gwApi).
  promise.then((v) => { if (method === 'init' && window.__gwApi) window.__gwApi(true);
                        box.done = true; box.value = v === undefined ? null : v; },
               (e) => { box.done = true; box.error = String((e && e.message) || e); });
  for (let turn = 0; turn < 4 && !box.done; turn++) await null;""" + _CALL_BOX + "\n}"
CALL_POLL = """() => {
  const box = window.__gwCall;
  if (!box) return null;""" + _CALL_BOX + "\n}"
# A run nobody will see (no agent looks, no frame is kept, no trace): the 2d context's drawing calls do nothing,
# so game time costs the game's logic alone (2-25x less per run_for on most games, measured). Calls that answer
# something (get*, create*, measure*, is*) still work; no game's state depends on its pixels (test_contract).
SKIP_DRAWING = """() => {
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor' || /^(get|create|measure|is)/.test(name)) continue;
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (d && typeof d.value === 'function') proto[name] = function () {};
  }
}"""
# Runs the clock Playwright installed, in this document only: page.clock.run_for also adds an init script to
# the context on every call (its log, replayed should the page navigate) and evaluates in every frame, one more
# round trip a step and one more init script per step. False when there is no such clock (run_for then).
ADVANCE = """(ms) => {
  const clock = globalThis.__pwClock && globalThis.__pwClock.controller;
  if (!clock || typeof clock.runFor !== 'function') return false;
  return Promise.resolve(clock.runFor(ms)).then(() => true);
}"""
# What a run's fault says when OBSERVE or a gameAPI call answers `replaced` (the check is page_seed's __gwApi).
REPLACED = "window.gameAPI was replaced by another object after init (the run scored only the object it initialised)"
STATUS = "() => { try { return String(window.gameAPI.getState().status); } catch (e) { return 'unreadable'; } }"


def navigated(exc: Exception) -> bool:
    """Whether a page call failed because the page navigated away (a reload) while it ran."""
    text = str(exc)
    return "Execution context was destroyed" in text or "navigation" in text.lower()
