// Chrome Dino for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer with cached sprites and layers, a keyboard queue, one
// requestAnimationFrame loop with fixed 1/60 s ticks, and window.gameAPI. The
// oracle clones the core through window.__gwCore to look ahead.
(function () {
  "use strict";

  const GAME_ID = "07-chrome-dino";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 07). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const GROUND_Y = 560;           // the dino's feet rest on this line
  const DINO_X = 160;             // left edge of the dino (fixed; the world scrolls)
  const DINO_W = 60;
  const DINO_H = 64;
  const INSET = 6;                // collision boxes are inset by this on every side

  const SPEED0 = 720;
  const ACCEL = 15;
  const SPEED_MAX = 1400;
  const JUMP_VY = 1300;           // upwards
  const GRAVITY = 3000;
  const PX_PER_POINT = 20;

  // Obstacle shapes. Birds fly at two heights: `bird_low` must be jumped,
  // `bird_high` must be run under. A high bird's bottom is 250 px above the
  // ground, so every jump's apex (282 px) passes through it: a jump taken from
  // 0.67 s before it arrives until it has passed is deadly. (At docs/games.md's
  // 120 px most jumps cleared it from above, so jumping anyhow was safe.)
  // High birds come alone or in pairs, and the run always opens with three
  // high birds (1.6 s in, so the start's own jump cannot float past them):
  // our score runs about four times as fast as the original's, so the
  // first 100 points hold one obstacle, and a cactus there is cleared by
  // pressing jump at random (random play reached 100 in every run).
  const SMALL_W = 34, SMALL_H = 70;
  const LARGE_W = 50, LARGE_H = 100;
  const BIRD_W = 80, BIRD_H = 50;
  const BIRD_LOW_BOTTOM = GROUND_Y - 12;
  const BIRD_HIGH_BOTTOM = GROUND_Y - 250;
  const BIRDS_FROM_SCORE = 150;
  const BIRD_CHANCE = 0.3;

  const GAP_MIN_S = 1.1;          // gap >= speed * (1.1 s + seeded 0-0.8 s)
  const GAP_RAND_S = 0.8;
  // The first obstacle reaches the dino 1.6 s after the start.
  const FIRST_OBSTACLE_X = DINO_X + DINO_W + 1.6 * SPEED0;
  const OBSTACLES_IN_STATE = 4;
  const SCORE_FOR_FULL_PROGRESS = 800;  // hardest task target; progress is diagnostic

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------

  // FNV-1a over the parts joined by "|" and mulberry32 on {s} (catalog/games/_shell): stable across hosts,
  // no Math.random; a plain object, so the core can be cloned.
  const { fnv32: hash32, nextRandom: rngNext } = window.GameShell;
  function rngInt(rng, lo, hi) {           // inclusive bounds
    return lo + Math.floor(rngNext(rng) * (hi - lo + 1));
  }

  // Speed when the dino has run `d` px (constant acceleration, capped): lets the
  // generator size gaps by distance alone, never by frame.
  function speedAtDistance(d) {
    return Math.min(SPEED_MAX, Math.sqrt(SPEED0 * SPEED0 + 2 * ACCEL * Math.max(0, d)));
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function Core() {}

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the level stream lays out obstacles; the
    // runtime stream is reserved for runtime events (none yet), so adding one
    // later can never shift the course.
    core.levelRng = { s: hash32(GAME_ID, seed, level) };
    core.runtimeRng = { s: hash32(GAME_ID, seed, level, "runtime") };
    core.obstacles = [];          // generated in index order, world x = left edge
    core.firstIdx = 0;            // index (into all generated) of obstacles[0]
    core.nextX = FIRST_OBSTACLE_X;
    core.status = "ready";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;          // every tick, for cosmetic animation only
    core.playTicks = 0;           // ticks while playing -> gameTimeMs
    core.height = 0;              // dino feet above the ground
    core.vy = 0;                  // upwards positive inside the core
    core.onGround = true;
    core.speed = SPEED0;
    core.distance = 0;
    core.score = 0;
    core.jumps = 0;
    core.passed = 0;
    core.ensureObstacles();
    return core;
  }

  // Generates obstacles by index until the course covers the next screen.
  Core.prototype.ensureObstacles = function () {
    while (this.nextX < this.distance + W * 3) {
      const rng = this.levelRng;
      const x = this.nextX;
      const meetScore = (x - DINO_X) / PX_PER_POINT;
      let ob;
      const opening = this.firstIdx + this.obstacles.length === 0;
      if (opening || (meetScore >= BIRDS_FROM_SCORE && rngNext(rng) < BIRD_CHANCE)) {
        const high = opening || rngNext(rng) < 0.5;
        const bottom = high ? BIRD_HIGH_BOTTOM : BIRD_LOW_BOTTOM;
        const n = opening ? 3 : high ? rngInt(rng, 1, 2) : 1;
        ob = { type: high ? "bird_high" : "bird_low", x: x, y: bottom - BIRD_H, w: BIRD_W * n, h: BIRD_H, n: n };
      } else if (rngNext(rng) < 0.6) {
        const n = rngInt(rng, 1, 3);
        ob = { type: "cactus_small", x: x, y: GROUND_Y - SMALL_H, w: SMALL_W * n, h: SMALL_H, n: n };
      } else {
        const n = rngInt(rng, 1, 2);
        ob = { type: "cactus_large", x: x, y: GROUND_Y - LARGE_H, w: LARGE_W * n, h: LARGE_H, n: n };
      }
      this.obstacles.push(ob);
      const right = x + ob.w;
      const v = speedAtDistance(right - DINO_X);
      this.nextX = right + Math.round(v * (GAP_MIN_S + GAP_RAND_S * rngNext(rng)));
    }
    // Forget obstacles that have scrolled off the left edge.
    while (this.obstacles.length && this.obstacles[0].x + this.obstacles[0].w < this.distance - 40) {
      this.obstacles.shift();
      this.firstIdx++;
    }
  };

  // input = {jump: boolean}: true on the tick a Space/ArrowUp press edge arrives.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status === "terminal") return;
    const jump = !!(input && input.jump);
    if (this.status === "ready") {
      if (!jump) return;          // world frozen until the first press
      this.status = "playing";    // ... which starts the run and also jumps
    }
    this.playTicks++;
    if (jump && this.onGround) {
      this.vy = JUMP_VY;
      this.onGround = false;
      this.jumps++;
    }
    if (!this.onGround) {
      this.vy -= GRAVITY * DT;
      this.height += this.vy * DT;
      if (this.height <= 0) {
        this.height = 0;
        this.vy = 0;
        this.onGround = true;
      }
    }
    this.speed = Math.min(SPEED_MAX, this.speed + ACCEL * DT);
    this.distance += this.speed * DT;
    this.score = Math.floor(this.distance / PX_PER_POINT);
    this.ensureObstacles();
    this.countPassed();
    if (this.hitSomething()) {
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "collision";
    }
  };

  // Screen x of an obstacle's left edge.
  Core.prototype.screenX = function (ob) {
    return ob.x - this.distance;
  };

  Core.prototype.dinoTop = function () {
    return GROUND_Y - DINO_H - this.height;
  };

  Core.prototype.countPassed = function () {
    let n = this.firstIdx;
    for (const ob of this.obstacles) {
      if (this.screenX(ob) + ob.w < DINO_X) n++;
      else break;
    }
    this.passed = n;
  };

  Core.prototype.hitSomething = function () {
    const top = this.dinoTop() + INSET;
    const bottom = this.dinoTop() + DINO_H - INSET;
    const left = DINO_X + INSET;
    const right = DINO_X + DINO_W - INSET;
    for (const ob of this.obstacles) {
      const x = this.screenX(ob);
      if (x + INSET >= right) break;           // later obstacles are further right
      if (x + ob.w - INSET <= left) continue;
      if (bottom > ob.y + INSET && top < ob.y + ob.h - INSET) return true;
    }
    return false;
  };

  // Obstacles not yet fully behind the dino, nearest first.
  Core.prototype.upcoming = function (n) {
    const out = [];
    for (const ob of this.obstacles) {
      if (this.screenX(ob) + ob.w < DINO_X) continue;
      out.push(ob);
      if (out.length === n) break;
    }
    return out;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.obstacles = this.obstacles.slice();   // obstacles are never mutated
    return c;
  };

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score,
      level: this.level,
      progress: Math.min(1, this.score / SCORE_FOR_FULL_PROGRESS),
      speed: Math.round(this.speed * 100) / 100,
      player: {
        x: DINO_X, y: Math.round(this.dinoTop() * 100) / 100, vy: Math.round(-this.vy * 100) / 100,
        on_ground: this.onGround, alive: alive,
      },
      obstacles: this.upcoming(OBSTACLES_IN_STATE).map((ob) => ({
        type: ob.type, x: Math.round(this.screenX(ob) * 100) / 100, y: ob.y, w: ob.w, h: ob.h,
      })),
      distance: Math.round(this.distance * 100) / 100,
      jumps: this.jumps,
      passed: this.passed,
      deaths: alive ? 0 : 1,
      ticks: this.totalTicks,
      playTicks: this.playTicks,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still gives one `pressed` edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts a new run. Agents
    // never see a terminal frame (the harness resets first) and have no Enter.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // ---------------------------------------------------------------------------
  // Renderer: sprites and the scrolling ground are painted once into spare
  // canvases; a frame is drawn only when the world changed.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    sky: "#F4F3EE",
    horizon: "#E6E3D8",
    sand: "#E9E4D4",
    groundLine: "#6B6B6B",
    pebble: "#A39E8C",
    cloud: "#DCDAD2",
    dino: "#535353",
    dinoEdge: "#2B2B2B",
    cactus: "#E53935",
    cactusDark: "#9E1F1C",
    bird: "#C62828",
    birdWing: "#FF5722",
  };

  function textOutlined(str, x, y, font, align, g) {
    g = g || ctx;
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

  // Pixel art on a 4 px grid: '#' body, 'o' eye (white), '.' empty.
  const DINO_ROWS = [
    "........#######.",
    "........##o#####",
    "........########",
    "........########",
    "........#####...",
    "#......######...",
    "#.....########..",
    "##...#######.#..",
    "###.########....",
    "############....",
    ".###########....",
    "..#########.....",
    "...#######......",
    "....##..##......",
    "....#...#.......",
    "....##..##......",
  ];
  const LEG_FRAMES = [
    ["....###.##......", "....#....#......", "....##...##....."],
    ["....##..###.....", "....#.....#.....", "....##....##...."],
    ["....##..##......", "....#...#.......", "....##..##......"],
  ];

  function dinoSprite(legs, dead) {
    const rows = DINO_ROWS.slice(0, 13).concat(legs);
    const px = DINO_W / 16, py = DINO_H / 16;
    return spare(DINO_W, DINO_H, (g) => {
      rows.forEach((row, r) => {
        for (let c = 0; c < row.length; c++) {
          const ch = row[c];
          if (ch === ".") continue;
          g.fillStyle = ch === "o" ? (dead ? "#535353" : "#FFFFFF") : COLORS.dino;
          g.fillRect(c * px, r * py, px, py);
        }
      });
      if (dead) {   // crossed-out eye
        g.strokeStyle = "#FFFFFF";
        g.lineWidth = 2;
        g.beginPath();
        g.moveTo(10 * px, py); g.lineTo(11 * px, 2 * py);
        g.moveTo(11 * px, py); g.lineTo(10 * px, 2 * py);
        g.stroke();
      }
    });
  }

  function cactusSprite(w1, h, n) {
    return spare(w1 * n, h, (g) => {
      for (let k = 0; k < n; k++) {
        const x0 = k * w1;
        const trunkW = Math.round(w1 * 0.5);
        const tx = x0 + (w1 - trunkW) / 2;
        g.fillStyle = COLORS.cactus;
        g.strokeStyle = COLORS.cactusDark;
        g.lineWidth = 2;
        // trunk
        g.fillRect(tx, 2, trunkW, h - 2);
        g.strokeRect(tx + 1, 3, trunkW - 2, h - 4);
        // arms
        const armW = Math.round(w1 * 0.22);
        const armY = Math.round(h * 0.3);
        g.fillRect(x0 + 1, armY, armW, Math.round(h * 0.3));
        g.fillRect(x0 + 1, armY + Math.round(h * 0.3) - armW, tx - x0, armW);
        g.fillRect(x0 + w1 - armW - 1, armY - 6, armW, Math.round(h * 0.28));
        g.fillRect(tx + trunkW, armY - 6 + Math.round(h * 0.28) - armW, x0 + w1 - armW - 1 - tx - trunkW, armW);
        g.fillStyle = COLORS.cactusDark;
        for (let y = 10; y < h - 6; y += 14) g.fillRect(tx + trunkW / 2 - 1, y, 2, 6);
      }
    });
  }

  function birdSprite(wingUp) {
    return spare(BIRD_W, BIRD_H, (g) => {
      g.fillStyle = COLORS.bird;
      g.strokeStyle = "#5A0E0E";
      g.lineWidth = 2;
      // body and head, beak pointing left (towards the dino)
      g.beginPath();
      g.ellipse(44, 28, 26, 10, 0, 0, Math.PI * 2);
      g.fill(); g.stroke();
      g.beginPath();
      g.arc(18, 24, 9, 0, Math.PI * 2);
      g.fill(); g.stroke();
      g.beginPath();
      g.moveTo(10, 22); g.lineTo(1, 27); g.lineTo(10, 29); g.closePath();
      g.fill(); g.stroke();
      g.fillStyle = "#FFFFFF";
      g.fillRect(15, 20, 4, 4);
      // wing
      g.fillStyle = COLORS.birdWing;
      g.beginPath();
      if (wingUp) { g.moveTo(36, 24); g.lineTo(56, 1); g.lineTo(60, 24); }
      else { g.moveTo(36, 32); g.lineTo(56, 49); g.lineTo(60, 32); }
      g.closePath();
      g.fill(); g.stroke();
      // tail
      g.fillStyle = COLORS.bird;
      g.beginPath();
      g.moveTo(68, 24); g.lineTo(79, 18); g.lineTo(79, 34); g.lineTo(68, 32); g.closePath();
      g.fill(); g.stroke();
    });
  }

  const GROUND_PERIOD = 640;
  let sprites = null;
  function getSprites() {
    if (sprites) return sprites;
    const cacti = {};
    for (let n = 1; n <= 3; n++) cacti["cactus_small" + n] = cactusSprite(SMALL_W, SMALL_H, n);
    for (let n = 1; n <= 2; n++) cacti["cactus_large" + n] = cactusSprite(LARGE_W, LARGE_H, n);
    sprites = {
      run: [dinoSprite(LEG_FRAMES[0], false), dinoSprite(LEG_FRAMES[1], false)],
      stand: dinoSprite(LEG_FRAMES[2], false),
      dead: dinoSprite(LEG_FRAMES[2], true),
      cacti: cacti,
      bird: [birdSprite(true), birdSprite(false)],
      // Sky, clouds and horizon band: static.
      backdrop: spare(W, GROUND_Y, (g) => {
        g.fillStyle = COLORS.sky;
        g.fillRect(0, 0, W, GROUND_Y);
        g.fillStyle = COLORS.horizon;
        g.fillRect(0, GROUND_Y - 70, W, 70);
        g.fillStyle = COLORS.cloud;
        [[260, 150], [700, 110], [1060, 190], [480, 250]].forEach(([x, y]) => {
          g.beginPath();
          g.ellipse(x, y, 60, 16, 0, 0, Math.PI * 2);
          g.ellipse(x + 34, y - 10, 34, 14, 0, 0, Math.PI * 2);
          g.fill();
        });
      }),
      // HUD strip with its fixed labels (the sky under it never changes).
      hud: spare(W, HUD_H, (g) => {
        g.fillStyle = COLORS.sky;
        g.fillRect(0, 0, W, HUD_H);
        g.fillStyle = "rgba(0,0,0,0.55)";
        g.fillRect(0, 0, W, HUD_H);
        textOutlined("Chrome Dino", 20, HUD_H / 2, "bold 28px sans-serif", "left", g);
        textOutlined("Level 1", 210, HUD_H / 2 + 1, "20px sans-serif", "left", g);
      }),
      // Ground band, two periods wide, copied at the scroll offset.
      ground: spare(W + GROUND_PERIOD, H - GROUND_Y, (g) => {
        g.fillStyle = COLORS.sand;
        g.fillRect(0, 0, W + GROUND_PERIOD, H - GROUND_Y);
        g.fillStyle = COLORS.groundLine;
        g.fillRect(0, 0, W + GROUND_PERIOD, 3);
        g.fillStyle = COLORS.pebble;
        for (let x = 0; x < W + GROUND_PERIOD; x += 23) {
          const k = (x / 23) % 7;
          g.fillRect(x, 10 + k * 5, 6 + (k % 3) * 3, 3);
          if (k % 2 === 0) g.fillRect(x + 11, 40 + k * 9, 3, 3);
        }
      }),
    };
    return sprites;
  }

  function drawWorld(c) {
    const s = getSprites();
    ctx.drawImage(s.backdrop, 0, 0);
    const off = Math.floor(c.distance % GROUND_PERIOD);
    ctx.drawImage(s.ground, off, 0, W, H - GROUND_Y, 0, GROUND_Y, W, H - GROUND_Y);
    for (const ob of c.obstacles) {
      const x = Math.round(c.screenX(ob));
      if (x > W) break;
      if (x + ob.w < 0) continue;
      if (ob.type === "bird_low" || ob.type === "bird_high") {
        const frame = Math.floor(c.totalTicks / 10) % 2;
        for (let k = 0; k < ob.n; k++) ctx.drawImage(s.bird[(frame + k) % 2], x + k * BIRD_W, ob.y);
        // a faint shadow on the ground shows where the bird flies
        ctx.fillStyle = "rgba(0,0,0,0.12)";
        ctx.fillRect(x + 12, GROUND_Y + 4, ob.w - 24, 5);
      } else {
        ctx.drawImage(s.cacti[ob.type + ob.n], x, ob.y);
      }
    }
    let sprite = s.stand;
    if (c.status === "terminal") sprite = s.dead;
    else if (c.status === "playing" && c.onGround) sprite = s.run[Math.floor(c.totalTicks / 6) % 2];
    ctx.drawImage(sprite, DINO_X, Math.round(c.dinoTop()));
  }

  function pad5(n) {
    return String(Math.min(99999, n)).padStart(5, "0");
  }

  function drawHud(c) {
    ctx.drawImage(getSprites().hud, 0, 0);
    textOutlined("Score " + c.score, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined("HI " + pad5(Math.max(highScore, c.score)) + "   " + pad5(c.score),
      W - 20, HUD_H / 2, "bold 28px monospace", "right");
  }

  function drawPanel(lines) {
    const pw = 560;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 60;
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => textOutlined(ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function drawOverlay(c) {
    if (c.status === "ready") {
      ctx.fillStyle = "rgba(0,0,0,0.45)";
      ctx.fillRect(W / 2 - 250, 190, 500, 60);
      textOutlined("PRESS SPACE TO START", W / 2, 220, "bold 36px sans-serif", "center");
    } else if (c.status === "terminal") {
      drawPanel([
        { text: "GAME OVER \u2013 " + c.reason, font: "bold 36px sans-serif" },
        { text: "Score " + c.score, font: "bold 28px sans-serif" },
        { text: "Press Enter to run again", font: "20px sans-serif" },
      ]);
    }
  }

  function render() {
    dirty = false;
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    drawWorld(core);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let highScore = 0;
  let dirty = true;

  function runTick() {
    const { pressed } = keys.take();
    if (!core || core.status === "terminal") return;   // input ignored until reset
    core.tick({ jump: pressed.has(" ") || pressed.has("ArrowUp") });
    if (core.status !== "ready") dirty = true;         // a frozen `ready` world needs no redraw
    highScore = Math.max(highScore, core.score);
  }

  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen), and only when the world
  // moved; a backlog is dropped.
  const loop = Shell.loop({
    tickMs: TICK_MS,
    visibleOnly: true,
    tick: runTick,
    render() {
      if (dirty) render();
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  // No levels (supports_level_select = false): every episode is level 1.
  const ep = Shell.episodes({
    pickLevel: () => 1,
    start(seed, level, config, attempts) {
      if (attempts === 1) highScore = 0;   // init starts a new high score; a reset keeps it
      keys.clear();
      core = createCore(seed, level);
      render();                      // the first screenshot is already current
    },
  });

  const api = {
    capabilities: { supports_seed: true, supports_inplace_reset: true, supports_level_select: false },

    init: ep.init,
    reset: ep.reset,

    getState() {
      const s = core ? core.snapshot() : createCore(ep.seed, ep.level).snapshot();
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),   // the harness's virtual clock
        gameTimeMs: s.gameTimeMs,
        status: core ? s.status : "loading",
        terminal: s.terminal,
        game_state: {
          score: s.score,
          level: s.level,
          speed: s.speed,
          completion_progress: s.progress,
          player: s.player,
          obstacles: s.obstacles,
        },
        metrics: {
          primary_score: s.score,
          distance: s.distance,
          jumps: s.jumps,
          obstacles_passed: s.passed,
          attempts: ep.attempts,
          deaths: s.deaths,
          high_score: Math.max(highScore, s.score),
        },
        raw: {
          ticks: s.ticks,
          play_ticks: s.playTicks,
          ground_y: GROUND_Y,
          dino_size: [DINO_W, DINO_H],
          collision_inset: INSET,
        },
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
