// The games' shared shell: what every game of the catalog needs around its rules.
//
// Loaded by each game's index.html in a <script> before its game.js; it defines window.GameShell
// and nothing else. Plain ES2020, no build step. The catalog loader skips this folder (its name
// starts with "_"), and the games' origin serves it like any game file.
//
// What it holds, and why each game may rely on it staying exactly as it is (the benchmark holds
// every game's states and frames fixed for a seed and a list of actions):
//   - seeded randomness: hash32 / fnv32 (seed parts -> 32-bit state), mulberry32 on a {s} object
//     (a plain object, so cloning a core copies the stream's position);
//   - the keyboard queue: key events queued as they arrive and drained at the start of each tick,
//     so a tap shorter than a tick still counts for one tick;
//   - the loop: one requestAnimationFrame loop for the page's lifetime, fixed ticks from an
//     accumulator over the frames' timestamps (the harness's virtual clock);
//   - episodes: init/reset with the seed and level carried over and the attempts counted;
//   - mounting: window.gameAPI, the oracle's window.__gwCore, the canvas fitted for humans.
(function () {
  "use strict";

  // ------------------------------------------------------------- seeded randomness
  function fnvText(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h;
  }

  // FNV-1a over the parts joined by "|" (as Array.join writes them: null and undefined as ""): the plain hash
  // some games seed from.
  function fnv32(...parts) {
    return fnvText(parts.join("|")) >>> 0;
  }

  // FNV-1a, then murmur3's finaliser, so that nearby seeds give unrelated streams.
  function hash32(...parts) {
    let h = fnvText(parts.join("|"));
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  }

  function makeRng(seed) {
    return { s: seed >>> 0 };
  }

  // mulberry32: the next number in [0, 1), advancing rng.s.
  function nextRandom(rng) {
    rng.s = (rng.s + 0x6d2b79f5) >>> 0;
    let t = rng.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  // ------------------------------------------------------------- keyboard
  // A key as the games name it: single characters lower-cased ("a", " "), others as the browser
  // names them ("ArrowLeft", "Enter").
  function keyName(e) {
    return e.key.length === 1 ? e.key.toLowerCase() : e.key;
  }

  // Queues the page's key events. opts.keys: the keys whose browser default is prevented (so an
  // arrow or Space never scrolls); opts.alias: {key: the key it counts as} (arrows as w/a/s/d, say);
  // opts.onDown(key, e): called for each key press before it is queued (auto-repeats are dropped
  // first); returning true swallows the press (a human's Enter on the end panel, say).
  function keyboard(opts) {
    const used = new Set(opts.keys || []);
    const alias = opts.alias || {};
    const queue = [];
    const held = new Set();
    function onKey(e, down) {
      const name = keyName(e);
      if (used.has(name)) e.preventDefault();
      if (down && e.repeat) return;
      const key = alias[name] || name;
      if (down && opts.onDown && opts.onDown(key, e)) return;
      queue.push({ key, down });
    }
    window.addEventListener("keydown", (e) => onKey(e, true));
    window.addEventListener("keyup", (e) => onKey(e, false));
    return {
      queue,
      held,
      // Drains the queue. pressed: keys that went down from up since the last tick; downs: every key
      // that went down (held or not); down: the keys down now. A press and release between two ticks
      // is in pressed and downs, not in down: each game says whether that counts as held for a tick.
      take() {
        const pressed = new Set();
        const downs = new Set();
        for (const ev of queue) {
          if (ev.down) {
            if (!held.has(ev.key)) pressed.add(ev.key);
            downs.add(ev.key);
            held.add(ev.key);
          } else {
            held.delete(ev.key);
          }
        }
        queue.length = 0;
        return { pressed, downs, down: new Set(held) };
      },
      // The raw events since the last tick ({key, down}, in arrival order), for a game that reads
      // them itself (counting presses, say); it keeps `held` up to date if it uses it.
      drain() {
        return queue.splice(0, queue.length);
      },
      clear() {
        queue.length = 0;
        held.clear();
      },
    };
  }

  // ------------------------------------------------------------- the loop
  // Under the harness's virtual clock a step ends on a multiple of 50 ms and frames fire every
  // 16 ms, so only the last frame before each 50 ms mark can be photographed; a game that draws
  // only those frames (opts.visibleOnly) skips two draws in three. A human gets every frame.
  function frameCanBeSeen(now) {
    if (!window.__GW_HARNESS__) return true;
    return Math.ceil(now / 50) * 50 < now + 16;
  }

  // opts: tickMs; tick(): one fixed tick (input drained by the game); render(now): draw a frame;
  // visibleOnly: call render only for frames that can be seen; maxTicks (15) per frame, frames
  // longer than maxFrameMs (250) counted as that; after a frame that hit maxTicks the backlog is
  // dropped (acc 0) or, with keepTick, kept up to one tick. start() requests the first frame.
  function loop(opts) {
    const tickMs = opts.tickMs;
    const maxTicks = opts.maxTicks || 15;
    const maxFrameMs = opts.maxFrameMs || 250;
    const state = { acc: 0, lastFrame: null };
    function frame(now) {
      requestAnimationFrame(frame);
      if (state.lastFrame !== null) {
        state.acc += Math.min(Math.max(now - state.lastFrame, 0), maxFrameMs);
        let n = 0;
        while (state.acc >= tickMs && n < maxTicks) {
          opts.tick();
          state.acc -= tickMs;
          n++;
        }
        if (n === maxTicks) state.acc = opts.keepTick ? Math.min(state.acc, tickMs) : 0;
      }
      state.lastFrame = now;
      if (!opts.visibleOnly || frameCanBeSeen(now)) opts.render(now);
    }
    return {
      state,
      start() {
        requestAnimationFrame(frame);
      },
    };
  }

  // ------------------------------------------------------------- episodes
  // init(config): seed config.seed (42 when absent), level pickLevel(config.level ?? 1), attempts 1;
  // reset(options): the same seed and level unless the options name others, attempts + 1. Each
  // calls opts.start(seed, level, config, attempts) to build the episode.
  function episodes(opts) {
    const pick = opts.pickLevel || ((level) => level);
    const ep = { seed: 42, level: 1, attempts: 0, config: {} };
    ep.init = function (config) {
      const cfg = config || {};
      ep.config = cfg;
      ep.seed = cfg.seed ?? 42;
      ep.level = pick(cfg.level ?? 1);
      ep.attempts = 1;
      opts.start(ep.seed, ep.level, cfg, ep.attempts);
      return { ok: true, method: "init" };
    };
    ep.reset = function (options) {
      const o = options || {};
      ep.seed = o.seed ?? ep.seed;
      ep.level = pick(o.level ?? ep.level);
      ep.attempts += 1;
      opts.start(ep.seed, ep.level, ep.config, ep.attempts);
      return { ok: true, method: "inplace" };
    };
    return ep;
  }

  // ------------------------------------------------------------- mounting
  // opts: api (window.gameAPI), core() (the live core, the oracle's window.__gwCore), handles
  // ({name: getter}, more private handles for oracle.js), canvas with width/height (fitted to a
  // human's window; the backing store keeps its size), first() (the page's first drawing), loop
  // (started), human (the init config a human's page starts with; none under the harness).
  function mount(opts) {
    window.gameAPI = opts.api;
    Object.defineProperty(window, "__gwCore", { get: opts.core, configurable: true });
    for (const [name, get] of Object.entries(opts.handles || {})) {
      Object.defineProperty(window, name, { get, configurable: true });
    }
    const canvas = opts.canvas;
    if (!window.__GW_HARNESS__ && canvas) {
      const fit = () => {
        const scale = Math.min(window.innerWidth / canvas.width, window.innerHeight / canvas.height);
        canvas.style.width = Math.floor(canvas.width * scale) + "px";
        canvas.style.height = Math.floor(canvas.height * scale) + "px";
      };
      window.addEventListener("resize", fit);
      fit();
    }
    if (opts.first) opts.first();
    if (opts.loop) opts.loop.start();
    if (!window.__GW_HARNESS__ && opts.human !== null) opts.api.init(opts.human || { seed: 42, level: 1 });
  }

  window.GameShell = {
    fnv32, hash32, makeRng, nextRandom, keyName, keyboard, frameCanBeSeen, loop, episodes, mount,
  };
})();
