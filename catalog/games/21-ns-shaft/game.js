// NS-Shaft for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer with cached static layers and platform sprites, and the
// shared shell (catalog/games/_shell: the keyboard queue, one
// requestAnimationFrame loop with fixed 1/60 s ticks, episodes, window.gameAPI).
// The oracle clones the core through window.__gwCore.
//
// World coordinates: y grows downwards and platforms never move in the world;
// the camera descends (cameraY grows), which on screen is the platforms rising.
(function () {
  "use strict";

  const GAME_ID = "21-ns-shaft";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 21). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const SHAFT_L = 400;
  const SHAFT_R = 880;
  const SPIKE_BASE = 64;          // screen y of the ceiling the spikes hang from
  const SPIKE_TIP = 88;           // screen y of the spike tips: touching this hurts

  const PLAT_W = 100;
  // Ledges keep this far from each wall (more than the hero's width): a hero
  // pressed against a wall (one arrow held) falls past every ledge, so staying
  // alive takes walking onto ledges and stopping there.
  const WALL_GAP = 40;
  const PLAT_H = 16;
  // Ledges come in flights: 3 to 5 in a row near one wall (left edges within
  // ZONE px of it), then a flight near the other. A figure that wiggles left
  // and right in place stays in one column of the shaft and drops out of it
  // during a flight on the far side; following the ledges down takes a
  // committed walk across the shaft every few ledges.
  const ZONE = 20;
  const FLIGHT_MIN = 3;
  const FLIGHT_MAX = 5;
  const SPACING = 60;             // world px between platforms: ~0.55 s at 110 px/s
  const SPACING_JITTER = 6;
  const RISE0 = 110;
  const RISE_ACC = 2;             // +2 px/s each second of play
  const RISE_MAX = 200;

  const HERO_W = 32;
  const HERO_H = 40;
  const WALK = 300;
  const GRAVITY = 1800;
  const MAX_FALL = 700;
  const CONVEYOR = 150;
  const SPRING_VY = -700;
  const FAKE_FLIP_TICKS = 15;     // 0.25 s after landing
  const LIFE_MAX = 12;
  const SPIKE_DAMAGE = 4;
  const CEILING_DAMAGE = 4;
  const INVULN_TICKS = 60;        // 1 s after a ceiling hit
  const FLOOR_PX = 240;           // world px per floor (B1, B2, ...)

  const START_Y = 420;            // world y of the start platform's top
  const FIRST_PLAT_Y = 180;
  const PLATFORMS_IN_STATE = 12;
  const TIME_FOR_FULL_PROGRESS = 25000;

  // Platform types; weights shift from the first to the second column with depth.
  const TYPES = ["normal", "spiked", "conveyor_left", "conveyor_right", "spring", "fake"];
  const WEIGHTS_TOP = [0.62, 0.12, 0.06, 0.06, 0.07, 0.07];
  const WEIGHTS_DEEP = [0.35, 0.20, 0.09, 0.09, 0.12, 0.15];
  const DEEP_AT = 90;             // platform index where the deep mix is reached

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------

  // FNV-1a over the parts joined by "|" and mulberry32 on {s} (catalog/games/_shell): stable across
  // hosts, no Math.random, and a cloned core copies its streams.
  const Shell = window.GameShell;
  const { fnv32: hash32, nextRandom: rngNext } = Shell;
  function rngInt(rng, lo, hi) {           // inclusive bounds
    return lo + Math.floor(rngNext(rng) * (hi - lo + 1));
  }

  function harmful(type) {
    return type === "spiked" || type === "fake";
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function Core() {}

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the level stream lays out platforms by index
    // (depth); the runtime stream is reserved for runtime events (none yet).
    core.levelRng = { s: hash32(GAME_ID, seed, level) };
    core.runtimeRng = { s: hash32(GAME_ID, seed, level, "runtime") };
    core.plats = [];              // {k, x, y, type}; never mutated once made
    core.nextK = 0;
    core.nextY = FIRST_PLAT_Y;
    core.harmRun = 0;             // harmful platforms in a row at the end of plats
    core.side = -1;               // wall the current flight hugs: 0 left, 1 right (-1: none yet)
    core.flightLeft = 0;          // ledges still to come in the current flight
    core.flips = {};              // fake platform k -> tick at which it flips away
    // Frozen until the first arrow (a departure shared with 04/09/11/14/26): a
    // passive player would otherwise survive ~8 s and "solve" 21_01 by waiting.
    core.status = "ready";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.cameraY = 0;
    core.rise = RISE0;
    core.ensurePlatforms();
    const start = core.plats.reduce((a, p) => (Math.abs(p.y - START_Y) < Math.abs(a.y - START_Y) ? p : a));
    core.hero = {
      x: start.x + (PLAT_W - HERO_W) / 2, y: start.y - HERO_H, vx: 0, vy: 0,
      on: start.k, life: LIFE_MAX, invuln: 0, dropThrough: -1,
    };
    core.landings = 0;
    core.damage = 0;
    return core;
  }

  // The start platform (the one nearest START_Y) is made normal and central.
  Core.prototype.makePlatform = function (k, y) {
    const rng = this.levelRng;
    let x = this.ledgeX(rng);
    const d = Math.min(1, k / DEEP_AT);
    let r = rngNext(rng);
    let type = TYPES[TYPES.length - 1];
    for (let i = 0; i < TYPES.length; i++) {
      const w = WEIGHTS_TOP[i] + (WEIGHTS_DEEP[i] - WEIGHTS_TOP[i]) * d;
      if (r < w) { type = TYPES[i]; break; }
      r -= w;
    }
    // Never two harmful platforms in a row after one another: a safe landing
    // is always within two platforms of depth.
    if (harmful(type) && this.harmRun >= 1) type = "normal";
    if (Math.abs(y - START_Y) < SPACING / 2 + SPACING_JITTER) {
      type = "normal";
      x = (SHAFT_L + SHAFT_R - PLAT_W) / 2;
    }
    this.harmRun = harmful(type) ? this.harmRun + 1 : 0;
    return { k: k, x: x, y: y, type: type };
  };

  // A spot near the current flight's wall; the first flight's wall is drawn
  // from the level stream, later ones alternate.
  Core.prototype.ledgeX = function (rng) {
    const lo = SHAFT_L + WALL_GAP, hi = SHAFT_R - WALL_GAP - PLAT_W;
    if (this.flightLeft === 0) {
      this.side = this.side < 0 ? rngInt(rng, 0, 1) : 1 - this.side;
      this.flightLeft = rngInt(rng, FLIGHT_MIN, FLIGHT_MAX);
    }
    this.flightLeft--;
    return this.side === 0 ? rngInt(rng, lo, lo + ZONE) : rngInt(rng, hi - ZONE, hi);
  };

  Core.prototype.ensurePlatforms = function () {
    while (this.nextY < this.cameraY + H + 2 * SPACING) {
      this.plats.push(this.makePlatform(this.nextK, this.nextY));
      this.nextK++;
      this.nextY += SPACING + rngInt(this.levelRng, -SPACING_JITTER, SPACING_JITTER);
    }
    while (this.plats.length && this.plats[0].y < this.cameraY - 40) this.plats.shift();
  };

  Core.prototype.platform = function (k) {
    for (const p of this.plats) if (p.k === k) return p;
    return null;
  };

  Core.prototype.isGone = function (p) {
    const t = this.flips[p.k];
    return t !== undefined && this.totalTicks >= t;
  };

  Core.prototype.overlapsX = function (p) {
    const h = this.hero;
    return h.x + HERO_W > p.x && h.x < p.x + PLAT_W;
  };

  // input = {left: boolean, right: boolean}: keys held during this tick.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status === "ready") {
      if (!(input && (input.left || input.right))) return;
      this.status = "playing";       // the starting press also applies
    }
    if (this.status !== "playing") return;
    this.playTicks++;
    this.rise = Math.min(RISE_MAX, RISE0 + RISE_ACC * this.playTicks * DT);
    this.cameraY += this.rise * DT;
    this.ensurePlatforms();
    const h = this.hero;
    if (h.invuln > 0) h.invuln--;

    // Horizontal: walking, plus a conveyor's drift.
    const dir = (input && input.right ? 1 : 0) - (input && input.left ? 1 : 0);
    const under = h.on >= 0 ? this.platform(h.on) : null;
    let drift = 0;
    if (under && under.type === "conveyor_left") drift = -CONVEYOR;
    if (under && under.type === "conveyor_right") drift = CONVEYOR;
    h.vx = dir * WALK + drift;
    h.x = Math.max(SHAFT_L, Math.min(SHAFT_R - HERO_W, h.x + h.vx * DT));

    // Still standing? Walking off an edge or a flipped fake platform drops us.
    if (under && (this.isGone(under) || !this.overlapsX(under))) {
      h.on = -1;
      h.vy = 0;
    } else if (!under) {
      h.on = -1;
    }

    if (h.on < 0) this.fall();
    this.touchCeiling();

    if (h.life <= 0) this.end("no_life");
    else if (h.y - this.cameraY > H) this.end("fell");
  };

  Core.prototype.fall = function () {
    const h = this.hero;
    h.vy = Math.min(MAX_FALL, h.vy + GRAVITY * DT);
    const prevBottom = h.y + HERO_H;
    h.y += h.vy * DT;
    if (h.dropThrough >= 0) {
      const p = this.platform(h.dropThrough);
      if (!p || h.y > p.y) h.dropThrough = -1;
    }
    if (h.vy < 0) return;
    const bottom = h.y + HERO_H;
    for (const p of this.plats) {
      if (p.y < prevBottom || p.y > bottom) continue;
      if (p.k === h.dropThrough || this.isGone(p) || !this.overlapsX(p)) continue;
      this.land(p);
      return;
    }
  };

  Core.prototype.land = function (p) {
    const h = this.hero;
    h.y = p.y - HERO_H;
    h.vy = 0;
    h.on = p.k;
    this.landings++;
    if (p.type === "normal") {
      h.life = Math.min(LIFE_MAX, h.life + 1);
    } else if (p.type === "spiked") {
      this.hurt(SPIKE_DAMAGE);
    } else if (p.type === "fake") {
      if (this.flips[p.k] === undefined) this.flips[p.k] = this.totalTicks + FAKE_FLIP_TICKS;
    } else if (p.type === "spring") {
      h.vy = SPRING_VY;
      h.on = -1;
    }
  };

  Core.prototype.hurt = function (amount) {
    this.hero.life = Math.max(0, this.hero.life - amount);
    this.damage += amount;
  };

  // The spikes hurt (unless just hurt by them) and always push the hero down
  // through the platform it stands on.
  Core.prototype.touchCeiling = function () {
    const h = this.hero;
    const tip = this.cameraY + SPIKE_TIP;
    if (h.y >= tip) return;
    if (h.invuln === 0) {
      this.hurt(CEILING_DAMAGE);
      h.invuln = INVULN_TICKS;
    }
    if (h.on >= 0) h.dropThrough = h.on;
    h.on = -1;
    h.y = tip;
    h.vy = Math.max(h.vy, this.rise);
  };

  Core.prototype.end = function (reason) {
    this.status = "terminal";
    this.outcome = "fail";
    this.reason = reason;
  };

  Core.prototype.floor = function () {
    return 1 + Math.floor(this.cameraY / FLOOR_PX);
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.plats = this.plats.slice();           // platforms are never mutated
    c.flips = Object.assign({}, this.flips);
    c.hero = Object.assign({}, this.hero);
    return c;
  };

  function r2(v) {
    return Math.round(v * 100) / 100;
  }

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const h = this.hero;
    const alive = this.status !== "terminal";
    const on = h.on >= 0 ? this.platform(h.on) : null;
    const visible = this.plats.filter((p) => !this.isGone(p) && p.y > this.cameraY && p.y < this.cameraY + H);
    visible.sort((a, b) => Math.abs(a.y - h.y) - Math.abs(b.y - h.y));
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      floor: this.floor(),
      level: this.level,
      life: h.life,
      cameraY: r2(this.cameraY),
      rise: r2(this.rise),
      player: {
        x: r2(h.x), y: r2(h.y), vx: r2(h.vx), vy: r2(h.vy), life: h.life,
        on_platform_type: on ? on.type : null, invulnerable: h.invuln > 0, alive: alive,
      },
      platforms: visible.slice(0, PLATFORMS_IN_STATE).map((p) => ({ x: p.x, y: p.y, w: PLAT_W, type: p.type })),
      landings: this.landings,
      damage: this.damage,
      deaths: alive ? 0 : 1,
      ticks: this.totalTicks,
      playTicks: this.playTicks,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still counts as held for one tick.
  // ---------------------------------------------------------------------------
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts again. Agents never
    // see a terminal frame (the harness resets first) and have no Enter.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // Drain the queue; returns the keys held during this tick (every press, even
  // of a key already held, counts: a tap counts as held for one tick).
  function consumeHeld() {
    const { downs, down } = keys.take();
    for (const k of downs) down.add(k);
    return down;
  }

  // ---------------------------------------------------------------------------
  // Renderer: the backdrop (side panels, legend, ceiling spikes) and one sprite
  // per platform type are painted once into spare canvases.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    outside: "#1B1F27",
    shaft: "#2A303B",
    wall: "#6F6A62",
    wallDark: "#4C4842",
    spike: "#E53935",
    spikeDark: "#8E1B1B",
    normal: "#A7A9AC",
    normalDark: "#5E6166",
    conveyor: "#F2B705",
    conveyorDark: "#6B5200",
    spring: "#2ECC71",
    springDark: "#17693A",
    fake: "#8D5A2B",
    fakeDark: "#4A2E12",
    hero: "#2D7DF6",
    lifeOn: "#2ECC71",
    lifeLow: "#E53935",
    lifeOff: "#3A3F48",
  };

  function textOutlined(g, str, x, y, font, align) {
    g.font = font;
    g.textAlign = align;
    g.textBaseline = "middle";
    g.lineJoin = "round";
    g.lineWidth = 3;
    g.strokeStyle = "#111";
    g.strokeText(str, x, y);
    g.fillStyle = "#fff";
    g.fillText(str, x, y);
  }

  function spare(w, h, paint) {
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    paint(c.getContext("2d"));
    return c;
  }

  function paintPlatform(g, type, x, y) {
    const fill = {
      normal: COLORS.normal, spiked: COLORS.normal, conveyor_left: COLORS.conveyor,
      conveyor_right: COLORS.conveyor, spring: COLORS.spring, fake: COLORS.fake,
    }[type];
    const edge = {
      normal: COLORS.normalDark, spiked: COLORS.normalDark, conveyor_left: COLORS.conveyorDark,
      conveyor_right: COLORS.conveyorDark, spring: COLORS.springDark, fake: COLORS.fakeDark,
    }[type];
    g.fillStyle = fill;
    g.fillRect(x, y, PLAT_W, PLAT_H);
    g.strokeStyle = edge;
    g.lineWidth = 2;
    g.strokeRect(x + 1, y + 1, PLAT_W - 2, PLAT_H - 2);
    if (type === "spiked") {
      // red spikes drawn inside the top of the box (the box is what hurts)
      g.fillStyle = COLORS.spike;
      g.strokeStyle = COLORS.spikeDark;
      g.lineWidth = 1;
      for (let i = 0; i < 10; i++) {
        g.beginPath();
        g.moveTo(x + i * 10, y + 10);
        g.lineTo(x + i * 10 + 5, y);
        g.lineTo(x + i * 10 + 10, y + 10);
        g.closePath();
        g.fill();
        g.stroke();
      }
    } else if (type === "conveyor_left" || type === "conveyor_right") {
      g.fillStyle = COLORS.conveyorDark;
      const s = type === "conveyor_left" ? -1 : 1;
      for (let i = 0; i < 4; i++) {
        const cx = x + 14 + i * 24;
        g.beginPath();
        g.moveTo(cx - 6 * s, y + 3);
        g.lineTo(cx + 6 * s, y + 8);
        g.lineTo(cx - 6 * s, y + 13);
        g.closePath();
        g.fill();
      }
    } else if (type === "spring") {
      g.strokeStyle = COLORS.springDark;
      g.lineWidth = 2;
      g.beginPath();
      for (let i = 0; i <= 10; i++) g.lineTo(x + 5 + i * 9, y + (i % 2 ? 4 : 12));
      g.stroke();
    } else if (type === "fake") {
      g.strokeStyle = COLORS.fakeDark;
      g.lineWidth = 2;
      g.beginPath();
      for (let i = 1; i < 5; i++) { g.moveTo(x + i * 20, y + 2); g.lineTo(x + i * 20 - 6, y + PLAT_H - 2); }
      g.stroke();
    }
  }

  let layers = null;
  const WALL_PERIOD = 64;
  function getLayers() {
    if (layers) return layers;
    const platforms = {};
    for (const t of TYPES) platforms[t] = spare(PLAT_W, PLAT_H, (g) => paintPlatform(g, t, 0, 0));
    const legend = [
      ["normal", "safe, +1 life"], ["spiked", "spikes: -4 life"], ["conveyor_right", "conveyor: pushes"],
      ["spring", "spring: bounces"], ["fake", "flips away"],
    ];
    layers = {
      platforms: platforms,
      backdrop: spare(W, H, (g) => {
        g.fillStyle = COLORS.outside;
        g.fillRect(0, 0, W, H);
        g.fillStyle = COLORS.shaft;
        g.fillRect(SHAFT_L, HUD_H, SHAFT_R - SHAFT_L, H - HUD_H);
        // legend of platform types on the right-hand side
        textOutlined(g, "Ledges", 940, 110, "bold 24px sans-serif", "left");
        legend.forEach(([t, label], i) => {
          paintPlatform(g, t, 940, 150 + i * 56);
          textOutlined(g, label, 1052, 158 + i * 56, "20px sans-serif", "left");
        });
        textOutlined(g, "Ceiling spikes: -4 life", 940, 150 + legend.length * 56 + 8, "20px sans-serif", "left");
        textOutlined(g, "Falling out: game over", 940, 150 + legend.length * 56 + 40, "20px sans-serif", "left");
        // ceiling and its spikes
        g.fillStyle = COLORS.wallDark;
        g.fillRect(SHAFT_L, HUD_H, SHAFT_R - SHAFT_L, SPIKE_BASE - HUD_H);
        g.fillStyle = COLORS.spike;
        g.strokeStyle = COLORS.spikeDark;
        g.lineWidth = 1.5;
        for (let x = SHAFT_L; x < SHAFT_R; x += 20) {
          g.beginPath();
          g.moveTo(x, SPIKE_BASE);
          g.lineTo(x + 10, SPIKE_TIP);
          g.lineTo(x + 20, SPIKE_BASE);
          g.closePath();
          g.fill();
          g.stroke();
        }
      }),
      // HUD strip with its fixed labels.
      hud: spare(W, HUD_H, (g) => {
        g.fillStyle = "#000000";
        g.fillRect(0, 0, W, HUD_H);
        textOutlined(g, "NS-Shaft", 20, HUD_H / 2, "bold 28px sans-serif", "left");
        textOutlined(g, "Level 1", 160, HUD_H / 2 + 1, "20px sans-serif", "left");
        textOutlined(g, "Life", 890, HUD_H / 2, "20px sans-serif", "left");
      }),
      // One wall strip, tall enough to be copied at any scroll offset.
      wall: spare(24, H + WALL_PERIOD, (g) => {
        g.fillStyle = COLORS.wall;
        g.fillRect(0, 0, 24, H + WALL_PERIOD);
        g.fillStyle = COLORS.wallDark;
        for (let y = 0; y < H + WALL_PERIOD; y += 32) {
          g.fillRect(0, y, 24, 3);
          g.fillRect((y / 32) % 2 ? 6 : 16, y, 3, 32);
        }
      }),
    };
    return layers;
  }

  // The canvas keeps its pixels between frames, so after a full paint only the
  // shaft (and the HUD) is repainted: the side panels and legend never change.
  function drawWorld(c, full) {
    const L = getLayers();
    if (full) ctx.drawImage(L.backdrop, 0, 0);
    else ctx.drawImage(L.backdrop, SHAFT_L, HUD_H, SHAFT_R - SHAFT_L, H - HUD_H, SHAFT_L, HUD_H, SHAFT_R - SHAFT_L, H - HUD_H);
    const off = Math.floor(c.cameraY % WALL_PERIOD);
    ctx.drawImage(L.wall, 0, off, 24, H - HUD_H, SHAFT_L - 24, HUD_H, 24, H - HUD_H);
    ctx.drawImage(L.wall, 0, off, 24, H - HUD_H, SHAFT_R, HUD_H, 24, H - HUD_H);
    // platforms (clipped below the ceiling)
    ctx.save();
    ctx.beginPath();
    ctx.rect(SHAFT_L, SPIKE_BASE, SHAFT_R - SHAFT_L, H - SPIKE_BASE);
    ctx.clip();
    for (const p of c.plats) {
      const y = Math.round(p.y - c.cameraY);
      if (y > H || y + PLAT_H < SPIKE_BASE) continue;
      if (c.isGone(p)) {
        // flipped fake platform: drawn edge-on as a thin line
        ctx.fillStyle = COLORS.fakeDark;
        ctx.fillRect(p.x, y + PLAT_H / 2 - 1, PLAT_W, 3);
      } else {
        ctx.drawImage(L.platforms[p.type], p.x, y);
      }
    }
    drawHero(c);
    ctx.restore();
    // spikes over everything in the shaft
    ctx.drawImage(L.backdrop, SHAFT_L, HUD_H, SHAFT_R - SHAFT_L, SPIKE_TIP - HUD_H,
      SHAFT_L, HUD_H, SHAFT_R - SHAFT_L, SPIKE_TIP - HUD_H);
  }

  function drawHero(c) {
    const h = c.hero;
    const x = Math.round(h.x);
    const y = Math.round(h.y - c.cameraY);
    // after a hit the hero is drawn half transparent (never hidden)
    ctx.globalAlpha = h.invuln > 0 && Math.floor(h.invuln / 6) % 2 === 0 ? 0.5 : 1;
    ctx.fillStyle = COLORS.hero;
    ctx.strokeStyle = "#FFFFFF";
    ctx.lineWidth = 2;
    ctx.fillRect(x, y, HERO_W, HERO_H);
    ctx.strokeRect(x + 1, y + 1, HERO_W - 2, HERO_H - 2);
    ctx.fillStyle = "#FFFFFF";
    const look = h.vx < 0 ? -3 : h.vx > 0 ? 3 : 0;
    ctx.fillRect(x + 8 + look, y + 10, 6, 7);
    ctx.fillRect(x + 18 + look, y + 10, 6, 7);
    ctx.fillStyle = "#0B2A5B";
    ctx.fillRect(x + 10 + look, y + 12, 3, 4);
    ctx.fillRect(x + 20 + look, y + 12, 3, 4);
    ctx.globalAlpha = 1;
  }

  function drawHud(c) {
    ctx.drawImage(getLayers().hud, 0, 0);
    const secs = (Math.round(c.playTicks * 1000 / TICK_HZ) / 1000).toFixed(1);
    textOutlined(ctx, "Time " + secs + " s", W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    const life = c.hero.life;
    for (let i = 0; i < LIFE_MAX; i++) {
      ctx.fillStyle = i < life ? (life <= 4 ? COLORS.lifeLow : COLORS.lifeOn) : COLORS.lifeOff;
      ctx.fillRect(940 + i * 16, 16, 12, 24);
    }
    textOutlined(ctx, "B" + c.floor(), W - 20, HUD_H / 2, "bold 28px sans-serif", "right");
  }

  function drawOverlay(c) {
    if (c.status === "ready") {
      textOutlined(ctx, "PRESS \u2190 OR \u2192 TO START", W / 2, 330, "bold 36px sans-serif", "center");
      return;
    }
    if (c.status !== "terminal") return;
    const lines = [
      { text: "GAME OVER \u2013 " + c.reason, font: "bold 36px sans-serif" },
      { text: "Time " + (c.playTicks / TICK_HZ).toFixed(1) + " s  \u00b7  B" + c.floor(), font: "bold 28px sans-serif" },
      { text: "Press Enter to play again", font: "20px sans-serif" },
    ];
    const pw = 560, ph = 40 + lines.length * 46;
    const px = (W - pw) / 2, py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.7)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => textOutlined(ctx, ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function render(full) {
    dirty = false;
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    drawWorld(core, full);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen),
  // and only when the world moved; a backlog is dropped.
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let dirty = true;

  function runTick() {
    const held = consumeHeld();
    if (!core || core.status === "terminal") return;   // input ignored until reset
    const before = core.playTicks;
    core.tick({ left: held.has("ArrowLeft"), right: held.has("ArrowRight") });
    if (core.playTicks !== before) dirty = true;   // a frozen `ready` world needs no redraw
  }

  const loop = Shell.loop({
    tickMs: TICK_MS,
    visibleOnly: true,
    tick: runTick,
    render() {
      if (dirty) render(true);   // whole frames: see the canvas comment
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  // No levels (supports_level_select = false): every episode is level 1.
  const ep = Shell.episodes({
    pickLevel: () => 1,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render(true);                  // the first screenshot is already current
    },
  });

  const api = {
    capabilities: { supports_seed: true, supports_inplace_reset: true, supports_level_select: false },
    init: ep.init,
    reset: ep.reset,

    getState() {
      const s = (core || createCore(ep.seed, ep.level)).snapshot();
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),   // the harness's virtual clock
        gameTimeMs: core ? s.gameTimeMs : 0,
        status: core ? s.status : "loading",
        terminal: s.terminal,
        game_state: {
          score: s.floor,
          floor: s.floor,
          level: s.level,
          life: s.life,
          completion_progress: Math.min(1, s.gameTimeMs / TIME_FOR_FULL_PROGRESS),
          camera_y: s.cameraY,
          rise_speed: s.rise,
          player: s.player,
          platforms: s.platforms,
        },
        metrics: {
          primary_score: s.floor,
          life: s.life,
          floor: s.floor,
          landings: s.landings,
          damage_taken: s.damage,
          attempts: ep.attempts,
          deaths: s.deaths,
        },
        raw: {
          ticks: s.ticks,
          play_ticks: s.playTicks,
          shaft: [SHAFT_L, SHAFT_R],
          spike_tip_screen_y: SPIKE_TIP,
          hero_size: [HERO_W, HERO_H],
        },
      };
    },
  };

  Shell.mount({
    api,
    core: () => core,
    // The geometry the oracle scores a future's position by (oracle.js).
    handles: { __gwShaft: () => ({ H, SPIKE_TIP, HERO_H }) },
    canvas,
    first: () => render(),
    loop,
  });
})();
