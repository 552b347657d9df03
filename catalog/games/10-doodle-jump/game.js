// Doodle Jump for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer, and window.gameAPI; the keyboard queue, the one
// requestAnimationFrame loop with fixed 1/60 s ticks and the episodes come from
// the shared shell (catalog/games/_shell/shell.js). The oracle clones the core
// through window.__gwCore to look ahead, with the rules' constants from
// window.__gwDoodleJump.
//
// World coordinates: x in [0, 540) across the wrapping playfield (doodle centre),
// y grows downwards with the starting platform's top at y = 0, so the altitude of
// a point is -y. The doodle's y is its feet.
(function () {
  "use strict";

  const GAME_ID = "10-doodle-jump";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 10). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const FIELD_X = 370;            // playfield on screen: x 370-910, y 56-720
  const FIELD_W = 540;
  const FIELD_H = H - HUD_H;      // 664
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const DOODLE = 50;              // doodle box, px
  const GRAVITY = 3000;
  const BOUNCE_VY = -1500;        // apex 375 px
  const SPRING_VY = -3300;        // apex ~1815 px
  const ACCEL = 3000;
  const DECEL = 2500;
  const MAX_VX = 450;

  const PLAT_W = 90;
  const PLAT_H = 18;
  const SPRING_W = 40;            // the spring's width on its platform (centred)
  const MOVE_SPEED = 120;         // blue platforms, px/s
  const GAP_MIN = 90;
  const GAP_MAX = 250;
  const MAX_STEP_DX = 220;        // horizontal offset cap between consecutive bounceable platforms
  // Share of green platforms (above 250 px) with a spring: spec 10 %, tuned up
  // so that 10 000 px fit in 100 steps of 0.2 s (docs/games.md asks to tune the rate).
  const SPRING_RATE = 0.2;
  const SPRING_EVERY = 5;
  const START_X = FIELD_W / 2;
  // Platforms in the first NOOP_CLEAR px above the start sit off the doodle's column
  // and none of them moves, so bouncing in place (the `wait`-only agent) never climbs.
  const NOOP_CLEAR = 480;
  const NOOP_DX = 85;
  // Holding one arrow from the start drifts at full speed and, with the wrap,
  // sweeps most of the field on the first fall. No bounceable platform sits
  // within SWEEP_MARGIN of where such a drift comes down (either arrow), so the
  // first climb needs steering and then letting go. The margin covers a few
  // ticks of timing error (7.5 px a tick at full speed).
  const SWEEP_MARGIN = 25;
  const SWEEP_TRIES = 60;

  // Camera: the doodle's feet never rise above this line of the view; the view never
  // scrolls back down. Falling with the head below the view's bottom is fatal.
  const CAMERA_LINE = Math.round(FIELD_H * 0.45);
  const START_SCREEN_Y = FIELD_H - 70;      // the start platform's top, in view px

  const PLATFORMS_IN_STATE = 16;

  // Type mix by altitude: [green, blue, red, white] in percent (docs/games.md).
  const MIXES = [
    { below: 2000, mix: [85, 10, 5, 0] },
    { below: 6000, mix: [60, 25, 10, 5] },
    { below: Infinity, mix: [45, 30, 15, 10] },
  ];

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------

  // FNV-1a over the parts joined by "|" and mulberry32 on {s}, so the core can be
  // cloned (catalog/games/_shell): stable across hosts, no Math.random.
  const { fnv32: hash32, nextRandom: rngNext } = window.GameShell;
  function rngRange(rng, lo, hi) {
    return lo + rngNext(rng) * (hi - lo);
  }

  function wrapX(x) {
    x %= FIELD_W;
    return x < 0 ? x + FIELD_W : x;
  }
  // Shortest signed horizontal distance from a to b around the wrap.
  function wrapDelta(a, b) {
    let d = wrapX(b - a);
    if (d > FIELD_W / 2) d -= FIELD_W;
    return d;
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the level stream builds the tower of
    // platforms; the runtime stream is reserved for runtime events (there are
    // none), so adding some later could never shift the layout.
    core.levelRng = { s: hash32(GAME_ID, seed, level) };
    core.runtimeRng = { s: hash32(GAME_ID, seed, level, "runtime") };
    // Platforms: {id, x, y, type, spring, broken, phase}. Generated in index
    // order from the level stream, never by frame.
    core.platforms = [{ id: 0, x: START_X, y: 0, type: "green", spring: false, broken: false, phase: 0 }];
    core.chainX = START_X;      // last bounceable platform (the guaranteed route)
    core.chainY = 0;
    core.greensSinceSpring = 0;
    core.sweeps = [driftSweep(-1), driftSweep(1)];
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.x = START_X;
    core.y = 0;
    core.vx = 0;
    core.vy = BOUNCE_VY;
    core.dir = 1;
    core.cameraY = -START_SCREEN_Y;   // world y of the view's top edge
    core.score = 0;
    core.springsUsed = 0;
    core.bounces = 0;
    core.ensurePlatforms(core.cameraY - FIELD_H);
    return core;
  }

  function Core() {}

  // The descending path of a doodle that holds one arrow (steer -1 or 1) from
  // the start until it falls past the start platform: [prevY, y, x] per tick,
  // with the tick's own physics, so the layout can keep off it.
  function driftSweep(steer) {
    const path = [];
    let x = START_X, y = 0, vx = 0, vy = BOUNCE_VY;
    while (y <= DOODLE) {
      vx = Math.max(-MAX_VX, Math.min(MAX_VX, vx + steer * ACCEL * DT));
      x = wrapX(x + vx * DT);
      const prevY = y;
      y += vy * DT + 0.5 * GRAVITY * DT * DT;
      vy += GRAVITY * DT;
      if (vy > 0) path.push([prevY, y, x]);
    }
    return path;
  }

  // Spots for a chain platform at height y: within MAX_STEP_DX of the last one,
  // off the wait-only column and off both drift sweeps (5 px grid).
  Core.prototype.freeSpots = function (y) {
    const spots = [];
    for (let d = -MAX_STEP_DX; d <= MAX_STEP_DX; d += 5) {
      const x = wrapX(this.chainX + d);
      if (Math.abs(wrapDelta(START_X, x)) >= NOOP_DX && !this.onSweep(x, y)) spots.push(x);
    }
    return spots;
  };
  Core.prototype.sweepBlocks = function (y) {
    return -y <= NOOP_CLEAR && this.freeSpots(y).length === 0;
  };

  // Whether a bounceable platform at (x, y) would catch a one-arrow drift.
  Core.prototype.onSweep = function (x, y) {
    const reach = (PLAT_W + DOODLE) / 2 + SWEEP_MARGIN;
    return this.sweeps.some((path) => path.some(
      ([y0, y1, px]) => y >= y0 && y <= y1 && Math.abs(wrapDelta(px, x)) < reach));
  };

  function pickType(rng, altitude) {
    const mix = MIXES.find((m) => altitude < m.below).mix;
    let r = rngNext(rng) * 100;
    const types = ["green", "blue", "red", "white"];
    for (let i = 0; i < 4; i++) {
      if (r < mix[i]) return types[i];
      r -= mix[i];
    }
    return "green";
  }

  // Extend the tower until it reaches world y `topY` (more negative = higher).
  // The bounceable platforms form a chain: each is 90-250 px above the last and at
  // most MAX_STEP_DX to the side, so a route always exists. A red pick adds a
  // brittle decoy between two chain platforms instead of a chain link, so red is
  // never the only option.
  Core.prototype.ensurePlatforms = function (topY) {
    const rng = this.levelRng;
    while (this.chainY > topY) {
      let gap = rngRange(rng, GAP_MIN, GAP_MAX);
      // Within the first bounce's reach, re-draw the height and spot until the
      // platform is off both drift sweeps (SWEEP_MARGIN).
      for (let k = 0; k < SWEEP_TRIES && this.sweepBlocks(this.chainY - gap); k++) {
        gap = rngRange(rng, GAP_MIN, GAP_MAX);
      }
      const y = this.chainY - gap;
      let type = pickType(rng, -y);
      if (type === "red") {
        const ry = this.chainY - gap * rngRange(rng, 0.3, 0.7);
        this.platforms.push({
          id: this.platforms.length, x: rngRange(rng, PLAT_W / 2, FIELD_W - PLAT_W / 2), y: ry,
          type: "red", spring: false, broken: false, phase: 0,
        });
        type = rngNext(rng) < 0.7 ? "green" : "blue";
      }
      let x;
      for (let k = 0; ; k++) {
        x = wrapX(this.chainX + rngRange(rng, -MAX_STEP_DX, MAX_STEP_DX));
        if (k > 50) break;
        if (-y > NOOP_CLEAR) break;
        if (Math.abs(wrapDelta(START_X, x)) >= NOOP_DX && !this.onSweep(x, y)) break;
      }
      const spots = -y <= NOOP_CLEAR ? this.freeSpots(y) : [];
      if (spots.length && !spots.includes(x) && (Math.abs(wrapDelta(START_X, x)) < NOOP_DX || this.onSweep(x, y))) {
        const from = x;
        x = spots.reduce((a, b) => (Math.abs(wrapDelta(from, b)) < Math.abs(wrapDelta(from, a)) ? b : a));
      }
      if (-y <= NOOP_CLEAR && Math.abs(wrapDelta(START_X, x)) < NOOP_DX) {
        x = wrapX(START_X + (wrapDelta(START_X, x) < 0 ? -NOOP_DX : NOOP_DX));
      }
      let spring = false;
      if (type === "green" && -y > 250) {
        // A spring on SPRING_RATE of green platforms, and at the latest on the
        // SPRING_EVERY-th green one since the last, so no seed is spring-starved.
        this.greensSinceSpring++;
        spring = rngNext(rng) < SPRING_RATE || this.greensSinceSpring >= SPRING_EVERY;
        if (spring) this.greensSinceSpring = 0;
      }
      if (type === "blue" && -y <= NOOP_CLEAR) type = "green";
      const phase = type === "blue" ? Math.floor(rngRange(rng, 0, 2 * (FIELD_W - PLAT_W) * TICK_HZ / MOVE_SPEED)) : 0;
      this.platforms.push({ id: this.platforms.length, x: x, y: y, type: type, spring: spring, broken: false, phase: phase });
      this.chainX = x;
      this.chainY = y;
    }
  };

  // Current centre x of a platform: blue ones slide along a triangle wave of the
  // play time, so their position is a pure function of (platform, tick).
  Core.prototype.platformX = function (p) {
    if (p.type !== "blue") return p.x;
    const span = FIELD_W - PLAT_W;                       // centre runs 45..495
    const period = 2 * span;
    const start = p.x - PLAT_W / 2;
    let s = (start + (p.phase + this.playTicks) * MOVE_SPEED / TICK_HZ) % period;
    if (s > span) s = period - s;
    return PLAT_W / 2 + s;
  };

  // input = {left, right}: held state of the arrows on this tick.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    const left = !!(input && input.left);
    const right = !!(input && input.right);
    const steer = (right ? 1 : 0) - (left ? 1 : 0);
    if (steer !== 0) {
      this.vx = Math.max(-MAX_VX, Math.min(MAX_VX, this.vx + steer * ACCEL * DT));
      this.dir = steer;
    } else if (this.vx > 0) {
      this.vx = Math.max(0, this.vx - DECEL * DT);
    } else if (this.vx < 0) {
      this.vx = Math.min(0, this.vx + DECEL * DT);
    }
    this.x = wrapX(this.x + this.vx * DT);

    const prevY = this.y;
    this.y += this.vy * DT + 0.5 * GRAVITY * DT * DT;   // exact for constant gravity
    this.vy += GRAVITY * DT;
    if (this.vy > 0) this.land(prevY);

    const screenFeet = this.y - this.cameraY;
    if (screenFeet < CAMERA_LINE) this.cameraY = this.y - CAMERA_LINE;
    this.ensurePlatforms(this.cameraY - FIELD_H);
    if (this.y - DOODLE > this.cameraY + FIELD_H) {
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "fell";
    }
  };

  // Falling feet that crossed a platform's top this tick land on it (wrap-aware).
  Core.prototype.land = function (prevY) {
    let best = null;
    for (const p of this.platforms) {
      if (p.broken || p.y < prevY || p.y > this.y) continue;
      const px = this.platformX(p);
      if (Math.abs(wrapDelta(px, this.x)) >= (PLAT_W + DOODLE) / 2) continue;
      if (!best || p.y < best.p.y) best = { p: p, px: px };
    }
    if (!best) return;
    const p = best.p;
    if (p.type === "red") {           // brittle: breaks, no bounce, the doodle falls on
      p.broken = true;
      return;
    }
    this.y = p.y;
    const onSpring = p.spring && Math.abs(wrapDelta(best.px, this.x)) < (SPRING_W + DOODLE) / 2;
    this.vy = onSpring ? SPRING_VY : BOUNCE_VY;
    if (onSpring) this.springsUsed++;
    if (p.type === "white") p.broken = true;
    this.bounces++;
    this.score = Math.max(this.score, Math.round(-p.y));
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    // Only `broken` changes after generation; copy-on-clone keeps clones independent.
    c.platforms = this.platforms.map((p) => (p.type === "red" || p.type === "white" ? Object.assign({}, p) : p));
    return c;
  };

  // Platforms inside the view (plus a margin below), nearest to the doodle first.
  Core.prototype.visiblePlatforms = function () {
    const out = [];
    const top = this.cameraY - 20;
    const bottom = this.cameraY + FIELD_H + 20;
    for (let i = this.platforms.length - 1; i >= 0; i--) {
      const p = this.platforms[i];
      if (p.y < top) continue;
      if (p.y > bottom) break;
      out.push(p);
    }
    return out;
  };

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const visible = this.visiblePlatforms();
    const near = visible
      .map((p) => ({ p: p, d: Math.abs(p.y - this.y) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, PLATFORMS_IN_STATE)
      .map(({ p }) => ({
        x: Math.round(this.platformX(p) * 10) / 10,
        y: Math.round(p.y * 10) / 10,
        type: p.type,
        has_spring: p.spring,
        broken: p.broken,
      }));
    const dead = this.status === "terminal" && this.outcome === "fail";
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score,
      level: this.level,
      player: {
        x: Math.round(this.x * 10) / 10,
        y: Math.round(this.y * 10) / 10,
        vx: Math.round(this.vx * 10) / 10,
        vy: Math.round(this.vy * 10) / 10,
        dir: this.dir,
        is_dead: dead,
        alive: !dead,
      },
      camera_y: Math.round(this.cameraY * 10) / 10,
      platforms: near,
      platformsVisible: visible.filter((p) => !p.broken).length,
      springsUsed: this.springsUsed,
      bounces: this.bounces,
      deaths: dead ? 1 : 0,
      ticks: this.totalTicks,
      playTicks: this.playTicks,
    };
  };

  // The rules the oracle's look-ahead prices routes with (oracle.js), so that it
  // never keeps copies of them.
  window.__gwDoodleJump = {
    wrapDelta, TICK_HZ, GRAVITY, BOUNCE_VY, SPRING_VY, ACCEL, MAX_VX, FIELD_W, FIELD_H, DOODLE, PLAT_W, SPRING_W,
    CAMERA_LINE,
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick
  // (catalog/games/_shell), so a press and release between two ticks still
  // counts as held for one tick.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts again. Agents never see a
    // terminal frame (the harness resets first) and have no Enter key.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // This tick's held set. A key that went down during the tick counts as held
  // for it even if it also came up (very short taps).
  function consumeInput() {
    const { downs, down } = keys.take();
    for (const k of downs) down.add(k);
    return down;
  }

  // ---------------------------------------------------------------------------
  // Renderer
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas drawImage: the browser
  // can then drop earlier frames' draw calls instead of rasterising them all
  // when the picture is read back.
  let ctx = canvas.getContext("2d", { alpha: false });   // swapped briefly while the HUD layer is drawn

  const COLORS = {
    side: "#2A2B33",
    sideText: "#C9CBD6",
    paper: "#F4F1E6",
    grid: "#E2DCC8",
    doodle: "#B5D334",
    doodleEdge: "#3D4A0A",
    green: "#4CAF50",
    blue: "#2F7FD8",
    red: "#C0392B",
    white: "#FFFFFF",
    platEdge: "#23301A",
    spring: "#8A8F98",
  };
  const GRID = 24;

  function textOutlined(str, x, y, font, align) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#111";
    ctx.strokeText(str, x, y);
    ctx.fillStyle = "#fff";
    ctx.fillText(str, x, y);
  }

  // Static layers painted once: the side panels with their legend, and a tall
  // strip of graph paper copied at the camera's offset.
  let sideLayer = null;
  let paperLayer = null;
  function sideImage() {
    if (sideLayer) return sideLayer;
    sideLayer = document.createElement("canvas");
    sideLayer.width = W;
    sideLayer.height = H;
    const s = sideLayer.getContext("2d");
    s.fillStyle = COLORS.side;
    s.fillRect(0, 0, W, H);
    s.font = "bold 22px sans-serif";
    s.textBaseline = "middle";
    s.fillStyle = COLORS.sideText;
    s.textAlign = "left";
    s.fillText("Platforms", 40, 120);
    const legend = [
      [COLORS.green, "green: solid"],
      [COLORS.blue, "blue: moving"],
      [COLORS.white, "white: one bounce"],
      [COLORS.red, "red: breaks"],
    ];
    s.font = "20px sans-serif";
    legend.forEach(([col, label], k) => {
      const y = 170 + k * 48;
      s.fillStyle = col;
      s.fillRect(40, y - 9, 60, 18);
      s.strokeStyle = COLORS.platEdge;
      s.lineWidth = 2;
      s.strokeRect(40, y - 9, 60, 18);
      s.fillStyle = COLORS.sideText;
      s.fillText(label, 115, y);
    });
    s.fillStyle = COLORS.spring;
    s.fillRect(55, 370, 30, 14);
    s.fillStyle = COLORS.sideText;
    s.fillText("spring: big launch", 115, 377);
    s.font = "bold 22px sans-serif";
    s.fillText("Controls", 950, 120);
    s.font = "20px sans-serif";
    s.fillText("\u2190 / \u2192  steer", 950, 170);
    s.fillText("sides wrap around", 950, 210);
    s.fillText("falling off the bottom", 950, 260);
    s.fillText("ends the game", 950, 290);
    return sideLayer;
  }
  function paperImage() {
    if (paperLayer) return paperLayer;
    paperLayer = document.createElement("canvas");
    paperLayer.width = FIELD_W;
    paperLayer.height = FIELD_H + GRID;
    const p = paperLayer.getContext("2d");
    p.fillStyle = COLORS.paper;
    p.fillRect(0, 0, FIELD_W, FIELD_H + GRID);
    p.strokeStyle = COLORS.grid;
    p.lineWidth = 1;
    p.beginPath();
    for (let x = 0.5; x < FIELD_W; x += GRID) { p.moveTo(x, 0); p.lineTo(x, FIELD_H + GRID); }
    for (let y = 0.5; y < FIELD_H + GRID; y += GRID) { p.moveTo(0, y); p.lineTo(FIELD_W, y); }
    p.stroke();
    return paperLayer;
  }

  function drawPlatform(c, p) {
    const sy = HUD_H + (p.y - c.cameraY);
    if (sy < HUD_H - PLAT_H - 20 || sy > H + 10) return;
    const cx = c.platformX(p);
    const fill = COLORS[p.type];
    // Drawn twice near the edges so the wrap is visible.
    for (const off of [0, -FIELD_W, FIELD_W]) {
      const left = FIELD_X + cx - PLAT_W / 2 + off;
      if (left > FIELD_X + FIELD_W || left + PLAT_W < FIELD_X) continue;
      if (p.broken && p.type === "red") {
        // Broken halves, tilted apart, so it reads as no longer solid.
        ctx.fillStyle = fill;
        ctx.save();
        ctx.translate(left + PLAT_W * 0.25, sy + 14);
        ctx.rotate(-0.35);
        ctx.fillRect(-PLAT_W / 4, 0, PLAT_W / 2 - 4, PLAT_H);
        ctx.restore();
        ctx.save();
        ctx.translate(left + PLAT_W * 0.75, sy + 14);
        ctx.rotate(0.35);
        ctx.fillRect(-PLAT_W / 4 + 4, 0, PLAT_W / 2 - 4, PLAT_H);
        ctx.restore();
        continue;
      }
      if (p.broken) continue;             // a used white platform is gone
      ctx.fillStyle = fill;
      ctx.strokeStyle = COLORS.platEdge;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.roundRect(left, sy, PLAT_W, PLAT_H, 7);
      ctx.fill();
      ctx.stroke();
      if (p.type === "red") {             // cracks
        ctx.beginPath();
        ctx.moveTo(left + 30, sy + 2);
        ctx.lineTo(left + 38, sy + 10);
        ctx.lineTo(left + 33, sy + PLAT_H - 2);
        ctx.moveTo(left + 60, sy + 2);
        ctx.lineTo(left + 54, sy + 11);
        ctx.stroke();
      }
      if (p.spring) {
        const sx = left + PLAT_W / 2 - SPRING_W / 2;
        ctx.fillStyle = COLORS.spring;
        ctx.fillRect(sx, sy - 16, SPRING_W, 16);
        ctx.strokeStyle = "#333";
        ctx.strokeRect(sx, sy - 16, SPRING_W, 16);
        ctx.beginPath();
        for (let k = 1; k < 4; k++) { ctx.moveTo(sx, sy - 16 + k * 4); ctx.lineTo(sx + SPRING_W, sy - 16 + k * 4); }
        ctx.stroke();
      }
    }
  }

  function drawDoodle(c) {
    const sy = HUD_H + (c.y - c.cameraY);
    for (const off of [0, -FIELD_W, FIELD_W]) {
      const cx = FIELD_X + c.x + off;
      if (cx + DOODLE < FIELD_X || cx - DOODLE > FIELD_X + FIELD_W) continue;
      ctx.save();
      ctx.translate(cx, sy - DOODLE / 2);
      ctx.scale(c.dir, 1);                // faces its direction of travel
      ctx.fillStyle = COLORS.doodle;
      ctx.strokeStyle = COLORS.doodleEdge;
      ctx.lineWidth = 2.5;
      // body
      ctx.beginPath();
      ctx.roundRect(-22, -24, 40, 40, [18, 18, 6, 6]);
      ctx.fill();
      ctx.stroke();
      // snout towards the facing side
      ctx.beginPath();
      ctx.roundRect(14, -12, 14, 12, 4);
      ctx.fill();
      ctx.stroke();
      // legs
      ctx.beginPath();
      for (const lx of [-14, -4, 6]) { ctx.moveTo(lx, 16); ctx.lineTo(lx, 24); }
      ctx.stroke();
      // eye
      ctx.fillStyle = "#111";
      ctx.beginPath();
      ctx.arc(6, -10, 3.5, 0, Math.PI * 2);
      ctx.fill();
      ctx.restore();
    }
  }

  // The HUD changes only with the score, springs or attempt, and outlined text
  // is costly to rasterise: keep it on an opaque layer (the side panels' top
  // strip under it, as on the screen) and copy that each frame.
  let hudLayer = null, hudKey = null;
  function drawHud(c) {
    const key = c.level + ":" + c.score + ":" + c.springsUsed + ":" + ep.attempts;
    if (!hudLayer) {
      hudLayer = document.createElement("canvas");
      hudLayer.width = W;
      hudLayer.height = HUD_H;
    }
    if (key !== hudKey) {
      hudKey = key;
      const main = ctx;
      ctx = hudLayer.getContext("2d");
      ctx.drawImage(sideImage(), 0, 0, W, HUD_H, 0, 0, W, HUD_H);
      ctx.fillStyle = "rgba(0,0,0,0.55)";
      ctx.fillRect(0, 0, W, HUD_H);
      textOutlined("Doodle Jump", 20, HUD_H / 2, "bold 28px sans-serif", "left");
      textOutlined("Level " + c.level, 210, HUD_H / 2 + 1, "20px sans-serif", "left");
      textOutlined("Score " + c.score, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
      textOutlined("Springs " + c.springsUsed + "   Attempt " + ep.attempts, W - 20, HUD_H / 2, "20px sans-serif", "right");
      ctx = main;
    }
    ctx.drawImage(hudLayer, 0, 0);
  }

  function drawOverlay(c) {
    if (c.status !== "terminal") return;
    const pw = 500;
    const ph = 170;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.65)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    textOutlined("GAME OVER \u2013 " + c.reason, W / 2, py + 45, "bold 36px sans-serif", "center");
    textOutlined("Score " + c.score, W / 2, py + 92, "bold 28px sans-serif", "center");
    textOutlined("Press Enter to play again", W / 2, py + 135, "20px sans-serif", "center");
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    ctx.drawImage(sideImage(), 0, 0);
    const off = ((Math.floor(core.cameraY) % GRID) + GRID) % GRID;
    ctx.drawImage(paperImage(), 0, off, FIELD_W, FIELD_H, FIELD_X, HUD_H, FIELD_W, FIELD_H);
    ctx.save();
    ctx.beginPath();
    ctx.rect(FIELD_X, HUD_H, FIELD_W, FIELD_H);
    ctx.clip();
    for (const p of core.visiblePlatforms()) drawPlatform(core, p);
    drawDoodle(core);
    ctx.restore();
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: the shell's one rAF loop for the page's lifetime, fixed ticks from an
  // accumulator (a backlog of 15 ticks is dropped); a frame is drawn only when a
  // tick ran or an episode started.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let dirty = true;

  function runTick() {
    const held = consumeInput();
    if (!core || core.status !== "playing") return;   // input ignored once terminal
    core.tick({ left: held.has("ArrowLeft"), right: held.has("ArrowRight") });
    dirty = true;
  }

  // Under the harness only the frames that can be photographed are drawn
  // (visibleOnly: two in three skipped); a skipped frame leaves `dirty` set for
  // the next visible one. A human in a normal browser gets every frame.
  const loop = Shell.loop({
    tickMs: TICK_MS,
    visibleOnly: true,
    tick: runTick,
    render() {
      if (!dirty) return;
      render();
      dirty = false;
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  const ep = Shell.episodes({
    pickLevel: () => 1,            // no levels (docs/games.md: level 1 only)
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render();                    // the first screenshot is already current
      dirty = false;
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
      const s = core ? core.snapshot() : null;
      const status = s ? s.status : "loading";
      const score = s ? s.score : 0;
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),   // the harness's virtual clock
        gameTimeMs: s ? s.gameTimeMs : 0,
        status: status,
        terminal: s ? s.terminal : { isTerminal: false, outcome: null, reason: null },
        game_state: {
          score: score,
          level: ep.level,
          completion_progress: Math.min(1, score / 10000),
          player: s ? s.player : { x: START_X, y: 0, vx: 0, vy: 0, dir: 1, is_dead: false, alive: true },
          camera_y: s ? s.camera_y : -START_SCREEN_Y,
          platforms: s ? s.platforms : [],
          environment: { viewport: { w: FIELD_W, h: FIELD_H, wraps_horizontally: true } },
        },
        metrics: {
          primary_score: score,
          distance: score,
          platforms_visible: s ? s.platformsVisible : 0,
          springs_used: s ? s.springsUsed : 0,
          bounces: s ? s.bounces : 0,
          attempts: ep.attempts,
          deaths: s ? s.deaths : 0,
        },
        raw: {
          ticks: s ? s.ticks : 0,
          play_ticks: s ? s.playTicks : 0,
          doodle_size: DOODLE,
          platform_size: [PLAT_W, PLAT_H],
          field_screen_x: FIELD_X,
          coords: "world px: x across the wrapping field, y down, start platform top at y=0; player.y = feet",
        },
      };
    },
  };

  // Humans: the 16:9 canvas fitted to the window with CSS; the backing store stays
  // 1280x720. Under the harness the viewport is exactly 1280x720 anyway.
  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
