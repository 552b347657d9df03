// Stack for pytest-gameworld.
//
// Layout of this file:
//   1. constants and helpers (isometric projection)               - pure
//   2. createCore(seed, level): the simulation                    - pure, no DOM, no clock
//   3. renderer: cached layers (sky, tower, HUD) + the moving slab
//   4. browser shell: the keyboard queue, fixed-tick rAF loop, episodes and
//      window.gameAPI's mounting from the shared shell (catalog/games/_shell)
//
// World units: slabs are w x d units on the ground plane (x to the lower
// right of the screen, z to the lower left) and 30 px tall. The slab that
// slides moves 10 units per tick (600 units/s) and its offsets are whole
// units, so the state's numbers are exactly what is drawn.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "27-stack";
  const TICK_MS = 1000 / 60;
  const W = 1280;
  const H = 720;
  const HUD_H = 56;

  const SLAB = 300; // starting width and depth (units)
  const SLAB_H = 30; // slab height (px)
  const SPEED = 600; // units per second
  const STEP = SPEED / 60; // 10 units per tick
  const MARGIN = 40; // the slide turns back at +-(width + MARGIN)
  const PERFECT = 15; // |offset| <= 15 snaps exactly onto the tower
  const REGROW_EVERY = 4; // this many perfects in a row ...
  const REGROW = 10; // ... regrow the slab by this much along the drop axis
  // A new slab starts where it reaches the tower's centre one, two or three
  // 0.2 s steps (START_STEP_TICKS each) later, drawn per slab from the seed,
  // give or take a seeded START_JITTER units: one step moves it 120 units, so
  // only a drop on the right step lands well, and a fixed tapping rhythm
  // (drop every k-th step) meets the centre on about a third of the slabs.
  const START_STEP_TICKS = 12;
  const START_STEPS = [1, 2, 3];
  const START_JITTER = 4;
  const SCORE_FOR_FULL_PROGRESS = 30; // hardest task target; progress is diagnostic

  // Isometric projection: screen = (cx + (x - z) * KX, topY + (x + z) * KY - height).
  const KX = 0.75;
  const KY = 0.375;
  const CX = 640;
  const TOP_Y = 340; // screen y of the tower's top face centre (the camera follows it)

  const Shell = window.GameShell;
  // Seeded randomness (catalog/games/_shell): hash32 so that nearby seeds give
  // unrelated streams, mulberry32 on {s} so that a clone copies the stream.
  const { hash32, makeRng, nextRandom } = Shell;

  // Slab n (1-based: the first slab placed on the base is 1) slides along x
  // when n is odd and along z when n is even.
  function axisOf(n) {
    return n % 2 === 1 ? "x" : "z";
  }

  // ----------------------------------------------------------------- 2. core
  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the level stream draws each slab's start
    // offset in slab order; the runtime stream is reserved (no runtime events).
    core.levelRng = makeRng(hash32(GAME_ID, seed, level, "slabs"));
    core.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    core.starts = []; // start offset of slab n at index n - 1
    // The tower, base first: {x, z, w, d} centres and extents in units.
    core.tower = [{ x: 0, z: 0, w: SLAB, d: SLAB }];
    core.score = 0;
    core.drops = 0;
    core.perfects = 0;
    core.streak = 0;
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.ticks = 0; // every tick, for cosmetic animation
    core.playTicks = 0; // ticks while playing -> gameTimeMs
    core.debris = []; // cut-off pieces falling away (cosmetic): {x, z, w, d, level, tick}
    core.flashTick = -1000; // tick of the last perfect drop (cosmetic ring)
    core.spawn();
    return core;
  }

  function Core() {}

  // Slab n's arrival: the ticks until it passes the tower's centre (its steps x
  // START_STEP_TICKS) and a whole number of units within +-START_JITTER it is
  // off the centre then. Drawn in slab order from the level stream.
  Core.prototype.startOffset = function (n) {
    while (this.starts.length < n) {
      // never the previous slab's count again, so no fixed rhythm meets two in a row
      const prev = this.starts.length ? this.starts[this.starts.length - 1].ticks / START_STEP_TICKS : 0;
      const choices = START_STEPS.filter((n) => n !== prev);
      const steps = choices[Math.floor(nextRandom(this.levelRng) * choices.length)];
      const jitter = Math.round((2 * nextRandom(this.levelRng) - 1) * START_JITTER);
      this.starts.push({ ticks: steps * START_STEP_TICKS, jitter: jitter });
    }
    return this.starts[n - 1];
  };

  // Where a slab must start to be `jitter` units off the centre, moving
  // forward, `ticks` later: the slide run backwards, turning at +-reach, so a
  // long wait starts it on its way out rather than beyond the turning point.
  function rewind(ticks, jitter, reach) {
    let o = jitter;
    let d = 1;
    for (let t = 0; t < ticks; t++) {
      o -= d * STEP;
      if (o < -reach) { o = -2 * reach - o; d = -d; }
      else if (o > reach) { o = 2 * reach - o; d = -d; }
    }
    return { offset: o, dir: d };
  }

  Core.prototype.top = function () {
    return this.tower[this.tower.length - 1];
  };

  // A new slab, the size of the top one, slides in towards the tower.
  Core.prototype.spawn = function () {
    const n = this.tower.length; // the slab about to be placed is number n
    this.axis = axisOf(n);
    const a = this.startOffset(n);
    const start = rewind(a.ticks, a.jitter, this.reach());
    this.offset = start.offset;
    this.dir = start.dir;
  };

  // The sliding slab's box in units.
  Core.prototype.movingBox = function () {
    const t = this.top();
    return {
      x: this.axis === "x" ? t.x + this.offset : t.x,
      z: this.axis === "z" ? t.z + this.offset : t.z,
      w: t.w,
      d: t.d,
    };
  };

  // The farthest the slab slides either way before turning back: a little
  // beyond a full-size slab's edge whatever the slab's size, so a narrow slab
  // spends most of its slide off the tower and a blind drop seldom lands.
  Core.prototype.reach = function () {
    return SLAB + MARGIN;
  };

  // input = {drop: boolean}: true on the tick a Space press edge arrives. The
  // drop uses the offset the state showed before this tick (so an agent that
  // reads the state knows exactly where its slab will land); then the new
  // slab moves like any other.
  Core.prototype.tick = function (input) {
    this.ticks++;
    this.debris = this.debris.filter((p) => this.ticks - p.tick < 90);
    if (this.status !== "playing") return;
    this.playTicks++;
    if (input && input.drop) this.drop();
    if (this.status !== "playing") return;
    this.offset += this.dir * STEP;
    const reach = this.reach();
    if (this.offset >= reach) {
      this.offset = 2 * reach - this.offset;
      this.dir = -1;
    } else if (this.offset <= -reach) {
      this.offset = -2 * reach - this.offset;
      this.dir = 1;
    }
  };

  // Where the sliding slab would rest if dropped now: the overlap [lo, hi] of
  // its extent and the top's along the slide axis, empty (hi <= lo) for a
  // miss. drop() lands by it; the oracle asks it whether a drop can land.
  Core.prototype.landing = function () {
    const t = this.top();
    const m = this.movingBox();
    const key = this.axis === "x" ? "x" : "z";
    const size = this.axis === "x" ? "w" : "d";
    return {
      lo: Math.max(t[key] - t[size] / 2, m[key] - m[size] / 2),
      hi: Math.min(t[key] + t[size] / 2, m[key] + m[size] / 2),
    };
  };

  Core.prototype.drop = function () {
    const t = this.top();
    const m = this.movingBox();
    const key = this.axis === "x" ? "x" : "z";
    const size = this.axis === "x" ? "w" : "d";
    const level = this.tower.length;
    this.drops++;
    if (Math.abs(this.offset) <= PERFECT) {
      // Perfect: snaps exactly onto the tower; every 4th in a row regrows it.
      const next = { x: t.x, z: t.z, w: t.w, d: t.d };
      this.streak++;
      this.perfects++;
      if (this.streak % REGROW_EVERY === 0) next[size] = Math.min(SLAB, next[size] + REGROW);
      this.tower.push(next);
      this.flashTick = this.ticks;
    } else {
      const { lo, hi } = this.landing();
      this.streak = 0;
      if (hi - lo <= 0) {
        this.debris.push(Object.assign({ level, tick: this.ticks, side: Math.sign(this.offset) }, m));
        this.status = "terminal";
        this.outcome = "fail";
        this.reason = "missed";
        return;
      }
      const next = { x: t.x, z: t.z, w: t.w, d: t.d };
      next[key] = (lo + hi) / 2;
      next[size] = hi - lo;
      this.tower.push(next);
      // The overhang falls away on the side the slab overshot.
      const cut = { x: m.x, z: m.z, w: m.w, d: m.d, level, tick: this.ticks, side: Math.sign(this.offset) };
      const mLo = m[key] - m[size] / 2;
      const mHi = m[key] + m[size] / 2;
      const [a, b] = this.offset > 0 ? [hi, mHi] : [mLo, lo];
      cut[key] = (a + b) / 2;
      cut[size] = b - a;
      this.debris.push(cut);
    }
    this.score++;
    this.spawn();
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.starts = this.starts.slice();
    c.tower = this.tower.map((s) => ({ x: s.x, z: s.z, w: s.w, d: s.d }));
    c.debris = this.debris.slice(); // pieces are never mutated after creation
    return c;
  };

  function box(s) {
    return { x: s.x, z: s.z, w: s.w, d: s.d };
  }

  // The state as a fresh plain object (getState() without the wall-clock timestamp).
  Core.prototype.snapshot = function (attempts) {
    const t = this.top();
    const m = this.movingBox();
    const playing = this.status === "playing";
    const slabs = [];
    for (let i = this.tower.length - 1; i >= 0 && slabs.length < 10; i--) {
      slabs.push(Object.assign({ type: i === 0 ? "base" : "slab", index: i, y: i * SLAB_H }, box(this.tower[i])));
    }
    const height = this.tower.length * SLAB_H; // world px of the sliding slab's bottom
    return {
      gameId: GAME_ID,
      seed: this.seed,
      gameTimeMs: Math.round((this.playTicks * 1000) / 60),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        score: this.score,
        level: this.level,
        completion_progress: Math.min(1, this.score / SCORE_FOR_FULL_PROGRESS),
        top: box(t),
        moving: {
          axis: this.axis,
          offset: this.offset,
          speed: SPEED,
          dir: this.dir,
          reach: this.reach(),
          active: playing,
        },
        perfect_streak: this.streak,
        // The sliding slab is the player: its centre in units, its height in px.
        player: { x: m.x, z: m.z, y: height, w: m.w, d: m.d, alive: this.outcome !== "fail" },
        entities: slabs,
        environment: {
          blocks_count: this.tower.length,
          top_stable_block: Object.assign({ index: this.tower.length - 1, y: (this.tower.length - 1) * SLAB_H }, box(t)),
          camera_y: (this.tower.length - 1) * SLAB_H,
        },
      },
      metrics: {
        primary_score: this.score,
        drops: this.drops,
        perfects: this.perfects,
        width_remaining: Math.min(t.w, t.d),
        attempts,
        deaths: this.outcome === "fail" ? 1 : 0,
      },
      raw: { ticks: this.ticks, perfect_within: PERFECT, start_ticks: this.starts.slice(-3).map((a) => a.ticks) },
    };
  };

  // ------------------------------------------------------------- 3. renderer
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  // Tower slabs shift hue layer by layer through warm and green tones (never
  // blue: the sliding slab, the player, is the only blue object).
  function layerHue(i) {
    const k = (i * 9) % 300; // 0..299 walks 20 -> 170 and back
    return 20 + (k < 150 ? k : 300 - k);
  }
  function layerColours(i) {
    const h = layerHue(i);
    return [`hsl(${h},48%,66%)`, `hsl(${h},42%,52%)`, `hsl(${h},40%,40%)`];
  }
  const PLAYER_COLOURS = ["#2D7DF6", "#1F62C7", "#174C9A"];

  function outlined(c, text, x, y, font, align) {
    c.font = font;
    c.textAlign = align;
    c.textBaseline = "middle";
    c.lineJoin = "round";
    c.lineWidth = 3;
    c.strokeStyle = "#111";
    c.strokeText(text, x, y);
    c.fillStyle = "#fff";
    c.fillText(text, x, y);
  }

  // Draw one slab box. `lift` is the height (px) of its top face above the
  // tower's top face; `tall` its visible thickness (the base reaches down off
  // screen). Faces: top, then the +x side (lower right) and +z side (lower left).
  function drawSlab(c, s, lift, tall, colours, outline) {
    const x0 = s.x - s.w / 2;
    const x1 = s.x + s.w / 2;
    const z0 = s.z - s.d / 2;
    const z1 = s.z + s.d / 2;
    const px = (x, z) => CX + (x - z) * KX;
    const py = (x, z) => TOP_Y + (x + z) * KY - lift;
    const top = [[px(x0, z0), py(x0, z0)], [px(x1, z0), py(x1, z0)], [px(x1, z1), py(x1, z1)], [px(x0, z1), py(x0, z1)]];
    const poly = (pts, fill) => {
      c.beginPath();
      c.moveTo(pts[0][0], pts[0][1]);
      for (let i = 1; i < pts.length; i++) c.lineTo(pts[i][0], pts[i][1]);
      c.closePath();
      c.fillStyle = fill;
      c.fill();
    };
    const down = (p) => [p[0], p[1] + tall];
    poly([top[1], top[2], down(top[2]), down(top[1])], colours[1]);
    poly([top[3], top[2], down(top[2]), down(top[3])], colours[2]);
    poly(top, colours[0]);
    if (outline) {
      c.strokeStyle = "#fff";
      c.lineWidth = 2;
      c.beginPath();
      c.moveTo(top[0][0], top[0][1]);
      c.lineTo(top[1][0], top[1][1]);
      c.lineTo(down(top[1])[0], down(top[1])[1]);
      c.lineTo(down(top[2])[0], down(top[2])[1]);
      c.lineTo(down(top[3])[0], down(top[3])[1]);
      c.lineTo(top[3][0], top[3][1]);
      c.closePath();
      c.moveTo(top[3][0], top[3][1]);
      c.lineTo(top[2][0], top[2][1]);
      c.lineTo(top[1][0], top[1][1]);
      c.moveTo(top[2][0], top[2][1]);
      c.lineTo(down(top[2])[0], down(top[2])[1]);
      c.stroke();
    }
  }

  function makeLayer(w, h) {
    const layer = document.createElement("canvas");
    layer.width = w;
    layer.height = h;
    return layer;
  }

  // Sky: a dark, low-saturation gradient, painted once.
  let skyLayer = null;
  function skyImage() {
    if (skyLayer) return skyLayer;
    skyLayer = makeLayer(W, H);
    const s = skyLayer.getContext("2d");
    const g = s.createLinearGradient(0, 0, 0, H);
    g.addColorStop(0, "#2A2833");
    g.addColorStop(1, "#4A4550");
    s.fillStyle = g;
    s.fillRect(0, 0, W, H);
    return skyLayer;
  }

  // The tower below the sliding slab changes only when a slab is placed: it
  // is painted onto its own transparent layer then, and copied every frame.
  // The camera keeps the top face at TOP_Y, so only the top ~15 slabs show.
  const TOWER_RECT = { x: 380, y: 180, w: 520, h: H - 180 };
  let towerLayer = null;
  let towerKey = "";
  function towerImage(core) {
    const key = `${ep.attempts} ${core.tower.length}`;
    if (towerLayer && key === towerKey) return towerLayer;
    towerKey = key;
    if (!towerLayer) towerLayer = makeLayer(TOWER_RECT.w, TOWER_RECT.h);
    const t = towerLayer.getContext("2d");
    t.clearRect(0, 0, TOWER_RECT.w, TOWER_RECT.h);
    t.save();
    t.translate(-TOWER_RECT.x, -TOWER_RECT.y);
    const n = core.tower.length;
    const first = Math.max(0, n - 16);
    for (let i = first; i < n; i++) {
      const lift = (i - (n - 1)) * SLAB_H; // <= 0: lower slabs sit lower on screen
      const tall = i === 0 || i === first ? H : SLAB_H;
      drawSlab(t, core.tower[i], lift, tall, layerColours(i), false);
    }
    t.restore();
    return towerLayer;
  }

  // The HUD strip changes with the score and the streak only.
  let hudLayer = null;
  let hudKey = "";
  function hudImage(core) {
    const key = `${ep.attempts} ${core.score} ${core.streak}`;
    if (hudLayer && key === hudKey) return hudLayer;
    hudKey = key;
    if (!hudLayer) hudLayer = makeLayer(W, HUD_H);
    const h = hudLayer.getContext("2d");
    h.clearRect(0, 0, W, HUD_H);
    h.fillStyle = "rgba(0,0,0,0.55)";
    h.fillRect(0, 0, W, HUD_H);
    outlined(h, "Stack", 24, 28, "bold 28px sans-serif", "left");
    outlined(h, `Slabs stacked ${core.score}`, W / 2, 28, "bold 28px sans-serif", "center");
    outlined(h, `Perfect streak ${core.streak}`, W - 24, 28, "20px sans-serif", "right");
    return hudLayer;
  }

  // A falling cut-off piece (cosmetic): drops with gravity and is gone after 1.5 s.
  function drawDebris(core, p) {
    const t = (core.ticks - p.tick) / 60;
    const fall = 0.5 * 1400 * t * t;
    const lift = (p.level - (core.tower.length - 1)) * SLAB_H - fall;
    drawSlab(ctx, p, lift, SLAB_H, layerColours(p.level), false);
  }

  // Behind or in front of the tower: pieces on the far side (negative offset)
  // are hidden by it as they fall.
  function drawDebrisSide(core, front) {
    for (const p of core.debris) if ((p.side > 0) === front) drawDebris(core, p);
  }

  // A white ring widens from a perfect drop for 8 ticks: gone before the
  // step's screenshot, so it is never mistaken for part of the tower.
  const FLASH_TICKS = 8;
  function drawFlash(core) {
    const age = core.ticks - core.flashTick;
    if (age < 0 || age > FLASH_TICKS) return;
    const t = core.top();
    const grow = 1 + age / 20;
    ctx.save();
    ctx.globalAlpha = 1 - age / FLASH_TICKS;
    drawSlab(ctx, { x: t.x, z: t.z, w: t.w * grow, d: t.d * grow }, 0, 0, ["rgba(0,0,0,0)", "rgba(0,0,0,0)", "rgba(0,0,0,0)"], true);
    ctx.restore();
  }

  function drawTerminal(core) {
    ctx.fillStyle = "rgba(10, 10, 14, 0.78)";
    ctx.fillRect(390, 250, 500, 170);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(390, 250, 500, 170);
    outlined(ctx, "GAME OVER \u2013 missed", W / 2, 298, "bold 36px sans-serif", "center");
    outlined(ctx, `Slabs stacked ${core.score}`, W / 2, 348, "bold 28px sans-serif", "center");
    if (!window.__GW_HARNESS__) outlined(ctx, "Press Enter to play again", W / 2, 392, "20px sans-serif", "center");
  }

  function render(core) {
    ctx.drawImage(skyImage(), 0, 0);
    if (!core) return;
    drawDebrisSide(core, false);
    ctx.drawImage(towerImage(core), TOWER_RECT.x, TOWER_RECT.y);
    drawFlash(core);
    if (core.status === "playing") drawSlab(ctx, core.movingBox(), SLAB_H, SLAB_H, PLAYER_COLOURS, true);
    drawDebrisSide(core, true);
    ctx.drawImage(hudImage(core), 0, 0);
    if (core.status === "terminal") drawTerminal(core);
  }

  // ------------------------------------------------------- 4. browser shell
  let core = null;
  const keys = Shell.keyboard({
    keys: [" ", "Enter"],
    // Humans restart from the game-over panel; the harness resets by API.
    onDown(key) {
      if (key !== "Enter" || window.__GW_HARNESS__ || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // Drain the queue: a Space edge this tick drops the slab (holding does not
  // drop again; a press and release between two ticks still counts).
  function takeInput() {
    return { drop: keys.take().pressed.has(" ") };
  }

  // The shell's rAF loop: fixed 1/60 s ticks from an accumulator over rAF
  // timestamps (virtual under the harness), a tick's backlog kept after a stall.
  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const input = takeInput();
      if (core) core.tick(input);
    },
    render() {
      const key = viewKey(core);
      if (key !== drawnKey) render(core);
      drawnKey = key;
    },
  });

  // Redraw when a tick moved something: always while the slab slides or a
  // piece falls; a finished game is drawn once.
  let drawnKey = "";
  function viewKey(core) {
    if (!core) return "none";
    const moving = core.status === "playing" || core.debris.length > 0;
    return moving ? `${ep.attempts} ${core.ticks}` : `${ep.attempts} ${core.status} ${core.score}`;
  }

  // Stack has a single level; anything else is treated as level 1.
  function pickLevel(level) {
    if (level !== undefined && level !== null && Number(level) !== 1) {
      console.warn(`${GAME_ID} has only level 1; got level ${level}`);
    }
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render(core);
      drawnKey = viewKey(core);
    },
  });

  const api = {
    capabilities: {
      supports_seed: true,
      supports_inplace_reset: true,
      supports_level_select: false,
    },
    init: ep.init,
    reset: ep.reset,
    getState() {
      const state = core ? core.snapshot(ep.attempts) : loadingSnapshot();
      // Date.now() is the harness's virtual clock, so this stays deterministic.
      state.timestampMs = Date.now();
      return state;
    },
  };

  // A state for the moment before init() (every scored path is 0).
  function loadingSnapshot() {
    const s = createCore(42, 1).snapshot(0);
    s.seed = null;
    s.status = "loading";
    return s;
  }

  // __gwCore: private handle for oracle.js only (it may clone and simulate ahead).
  Shell.mount({ api, core: () => core, canvas, first: () => render(null), loop });
})();
