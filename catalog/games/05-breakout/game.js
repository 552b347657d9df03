// Breakout for pytest-gameworld.
//
// Layout of this file:
//   1. constants and helpers (hash, PRNG, level layouts)   - pure
//   2. createCore(seed, level): the simulation               - pure, no DOM, no clock
//   3. renderer: a cached scene (walls + bricks) with only the paddle and
//      ball patched in between full redraws
//   4. browser shell: keyboard queue, fixed-tick rAF loop, window.gameAPI
//
// The simulation only counts ticks of 1/60 s, so a run is a pure function of
// (seed, level, input events per tick). For the oracle only: window.__gwCore
// (the live core, to clone and look ahead), window.__gwLoop (the tick
// accumulator, to know how many ticks a step will hold) and the constants in
// window.__gwBreakout.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "05-breakout";
  const TICK_HZ = 60;
  const TICK_MS = 1000 / TICK_HZ;
  const W = 1280;
  const H = 720;
  const HUD_H = 56;

  // Playfield 720x664 (docs/games.md 05): walls left, right and top; open bottom.
  const FIELD_L = 280;
  const FIELD_R = 1000;
  const FIELD_T = HUD_H;

  const PADDLE_Y = 680;            // top edge of the paddle
  const PADDLE_H = 16;
  const PADDLE_SPEED = 500;        // px/s while a key is held
  const BALL = 14;                 // square side
  const HALF = BALL / 2;
  const SERVE_TICKS = 36;          // 0.6 s at the serve point before the automatic launch
  // As in the arcade original, a serve comes down towards the player from
  // under the bricks: the paddle must return it before any brick breaks.
  const SERVE_Y = 430;
  const SERVE_MARGIN = 120;        // serve x is drawn in the field minus this on each side
  const SUBSTEPS = 4;              // collision substeps per tick (no tunnelling)
  const MAX_SPEED = 800;
  const SPEEDUP = 1.06;            // per SPEEDUP_EVERY bricks broken
  const SPEEDUP_EVERY = 4;
  const MAX_BOUNCE_DEG = 60;       // paddle edge -> 60 degrees from vertical
  const LIVES = 3;
  const BRICK_W = 64;
  const BRICK_H = 24;
  const BRICK_POINTS = 10;

  // Brick rows: y of each row's top edge, bricks per row, horizontal gap, and
  // the x shift of odd rows (staggering). All rows stay inside the y 240-360
  // band, so return trips are short. The gaps of levels 2 and 5 are narrower
  // than the ball: a ball that slipped between bricks rattled among them and
  // broke several per return, which made those levels quicker than 1 and 3.
  const LEVELS = {
    1: { speed: 560, paddle: 120, rows: [332], perRow: 8, gap: 8, stagger: 0 },
    2: { speed: 580, paddle: 120, rows: [288, 334], perRow: 6, gap: 12, stagger: 0 },
    3: { speed: 600, paddle: 120, rows: [304, 334], perRow: 8, gap: 8, stagger: 0 },
    4: { speed: 620, paddle: 100, rows: [274, 304, 334], perRow: 6, gap: 16, stagger: 0 },
    5: { speed: 660, paddle: 96, rows: [244, 274, 304, 334], perRow: 5, gap: 8, stagger: 36 },
  };
  const LEVEL_COUNT = 5;

  function buildBricks(cfg) {
    const bricks = [];
    const rowW = cfg.perRow * BRICK_W + (cfg.perRow - 1) * cfg.gap;
    const x0 = Math.round((FIELD_L + FIELD_R) / 2 - (rowW + cfg.stagger) / 2);
    cfg.rows.forEach((y, row) => {
      const shift = row % 2 === 1 ? cfg.stagger : 0;
      for (let i = 0; i < cfg.perRow; i++) {
        bricks.push({ x: x0 + shift + i * (BRICK_W + cfg.gap), y: y, row: row, alive: true });
      }
    });
    return bricks;
  }

  const { hash32, makeRng, nextRandom } = window.GameShell;  // seeded randomness (catalog/games/_shell)

  function clamp(v, lo, hi) {
    return v < lo ? lo : v > hi ? hi : v;
  }

  // --------------------------------------------------------------- 2. core
  function Core() {}

  function createCore(seed, level) {
    const cfg = LEVELS[level];
    const c = new Core();
    c.seed = seed;
    c.level = level;
    c.cfg = cfg;
    // Two streams (docs/games.md 1.5): the layouts are hand-made, so the level
    // stream is unused; every serve angle comes from the runtime stream.
    c.levelRng = makeRng(hash32(GAME_ID, seed, level));
    c.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    c.status = "ready";             // frozen until the first arrow press
    c.outcome = null;
    c.reason = null;
    c.ticks = 0;
    c.playTicks = 0;
    c.paddleW = cfg.paddle;
    c.paddleX = (FIELD_L + FIELD_R) / 2;
    c.bricks = buildBricks(cfg);
    c.broken = 0;
    c.score = 0;
    c.lives = LIVES;
    c.ballsLost = 0;
    c.paddleHits = 0;
    c.paddleSolid = true;           // the oracle's look-ahead clears it to trace the ball alone
    c.ball = { x: 0, y: SERVE_Y, vx: 0, vy: 0, inPlay: false };
    c.serveTicks = 0;
    c.placeServe();
    return c;
  }

  Core.prototype.speed = function () {
    const ups = Math.floor(this.broken / SPEEDUP_EVERY);
    return Math.min(MAX_SPEED, this.cfg.speed * Math.pow(SPEEDUP, ups));
  };

  // input = {left, right: held this tick; start: an arrow's pressed edge}
  Core.prototype.tick = function (input) {
    this.ticks++;
    if (this.status === "terminal") return;
    if (this.status === "ready") {
      if (!input.start) return;
      this.status = "playing";
    }
    this.playTicks++;
    const dir = (input.right ? 1 : 0) - (input.left ? 1 : 0);
    const half = this.paddleW / 2;
    this.paddleX = clamp(this.paddleX + dir * PADDLE_SPEED / TICK_HZ, FIELD_L + half, FIELD_R - half);
    const b = this.ball;
    if (!b.inPlay) {
      if (++this.serveTicks >= SERVE_TICKS) this.launch();
      return;
    }
    for (let s = 0; s < SUBSTEPS && b.inPlay; s++) this.substep();
    if (b.y - HALF > H) this.loseBall();
    if (this.broken === this.bricks.length) this.finish("success", "cleared");
  };

  // The next serve waits at a seeded x under the bricks (drawn there).
  Core.prototype.placeServe = function () {
    const b = this.ball;
    b.x = FIELD_L + SERVE_MARGIN + (FIELD_R - FIELD_L - 2 * SERVE_MARGIN) * nextRandom(this.runtimeRng);
    b.y = SERVE_Y;
  };

  // Downwards, 30-50 degrees from vertical, to a seeded side.
  Core.prototype.launch = function () {
    const deg = 30 + 20 * nextRandom(this.runtimeRng);
    const side = nextRandom(this.runtimeRng) < 0.5 ? -1 : 1;
    const a = deg * Math.PI / 180;
    const sp = this.speed();
    const b = this.ball;
    b.vx = side * sp * Math.sin(a);
    b.vy = sp * Math.cos(a);
    b.inPlay = true;
  };

  Core.prototype.loseBall = function () {
    this.lives--;
    this.ballsLost++;
    const b = this.ball;
    b.inPlay = false;
    b.vx = 0;
    b.vy = 0;
    this.placeServe();
    this.serveTicks = 0;
    if (this.lives <= 0) this.finish("fail", "out_of_lives");
  };

  Core.prototype.finish = function (outcome, reason) {
    this.status = "terminal";
    this.outcome = outcome;
    this.reason = reason;
  };

  Core.prototype.substep = function () {
    const b = this.ball;
    const px = b.x;
    const py = b.y;
    b.x += b.vx / TICK_HZ / SUBSTEPS;
    b.y += b.vy / TICK_HZ / SUBSTEPS;
    // Walls: mirror the overshoot back into the field.
    if (b.x - HALF < FIELD_L) {
      b.x = 2 * (FIELD_L + HALF) - b.x;
      b.vx = Math.abs(b.vx);
    } else if (b.x + HALF > FIELD_R) {
      b.x = 2 * (FIELD_R - HALF) - b.x;
      b.vx = -Math.abs(b.vx);
    }
    if (b.y - HALF < FIELD_T) {
      b.y = 2 * (FIELD_T + HALF) - b.y;
      b.vy = Math.abs(b.vy);
    }
    this.hitBricks(px, py);
    this.hitPaddle(py);
  };

  // Break every brick the ball overlaps; reverse once per contact, on the
  // axis the ball came in on (judged from its position before this substep).
  Core.prototype.hitBricks = function (px, py) {
    const b = this.ball;
    let hit = false;
    let flipX = false;
    let flipY = false;
    for (const k of this.bricks) {
      if (!k.alive) continue;
      if (b.x + HALF <= k.x || b.x - HALF >= k.x + BRICK_W) continue;
      if (b.y + HALF <= k.y || b.y - HALF >= k.y + BRICK_H) continue;
      k.alive = false;
      this.broken++;
      this.score += BRICK_POINTS;
      hit = true;
      const wasInX = px + HALF > k.x && px - HALF < k.x + BRICK_W;
      const wasInY = py + HALF > k.y && py - HALF < k.y + BRICK_H;
      if (wasInX && !wasInY) flipY = true;
      else if (wasInY && !wasInX) flipX = true;
      else {
        // A corner: the shallower penetration names the side that was struck.
        const penX = Math.min(b.x + HALF - k.x, k.x + BRICK_W - (b.x - HALF));
        const penY = Math.min(b.y + HALF - k.y, k.y + BRICK_H - (b.y - HALF));
        if (penX < penY) flipX = true;
        else flipY = true;
      }
    }
    if (!hit) return;
    b.x = px;
    b.y = py;
    if (flipY) b.vy = -b.vy;
    else if (flipX) b.vx = -b.vx;
    const sp = this.speed();
    const cur = Math.hypot(b.vx, b.vy);
    b.vx *= sp / cur;
    b.vy *= sp / cur;
  };

  Core.prototype.hitPaddle = function (py) {
    const b = this.ball;
    if (!this.paddleSolid) return;
    if (b.vy <= 0 || py + HALF > PADDLE_Y || b.y + HALF < PADDLE_Y) return;
    const half = this.paddleW / 2;
    if (b.x + HALF <= this.paddleX - half || b.x - HALF >= this.paddleX + half) return;
    const offset = clamp((b.x - this.paddleX) / half, -1, 1);
    const a = MAX_BOUNCE_DEG * offset * Math.PI / 180;
    const sp = this.speed();
    b.y = PADDLE_Y - HALF;
    b.vx = sp * Math.sin(a);
    b.vy = -sp * Math.cos(a);
    this.paddleHits++;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.ball = Object.assign({}, this.ball);
    c.bricks = this.bricks.map((k) => Object.assign({}, k));
    return c;
  };

  // The full getState() body except timestampMs and attempts (shell fields).
  Core.prototype.snapshot = function (attempts) {
    const b = this.ball;
    const total = this.bricks.length;
    const progress = this.broken / total;
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    return {
      gameId: GAME_ID,
      seed: this.seed,
      timestampMs: 0,
      gameTimeMs: Math.round(this.playTicks * TICK_MS),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        completion_progress: progress,
        score: this.score,
        level: this.level,
        lives: this.lives,
        player: { x: this.paddleX, y: PADDLE_Y, w: this.paddleW, alive: alive },
        paddle: { x: this.paddleX, y: PADDLE_Y, w: this.paddleW, h: PADDLE_H },
        ball: { x: b.x, y: b.y, vx: b.vx, vy: b.vy, in_play: b.inPlay, size: BALL },
        bricks: this.bricks.map((k) => ({ x: k.x, y: k.y, alive: k.alive })),
      },
      metrics: {
        primary_score: this.score,
        bricks_broken: this.broken,
        bricks_total: total,
        lives: this.lives,
        balls_lost: this.ballsLost,
        deaths: this.ballsLost,
        paddle_hits: this.paddleHits,
        attempts: attempts,
      },
      raw: {
        ticks: this.ticks,
        play_ticks: this.playTicks,
        ball_speed: this.speed(),
        serve_ticks_left: b.inPlay ? 0 : SERVE_TICKS - this.serveTicks,
        field: { left: FIELD_L, right: FIELD_R, top: FIELD_T, paddle_y: PADDLE_Y },
      },
    };
  };

  // Pure parts for the oracle's look-ahead.
  window.__gwBreakout = {
    createCore, hash32, GAME_ID, LEVELS, PADDLE_Y, PADDLE_SPEED, FIELD_L, FIELD_R, HALF,
    SERVE_TICKS, BRICK_W, BRICK_H, TICK_HZ,
  };

  // ------------------------------------------------------------ 3. renderer
  const COLORS = {
    bg: "#17181C",
    wall: "#7D838C",
    paddle: "#2D7DF6",
    ball: "#F4F4F4",
    ballEdge: "#3A3A3A",
    bricks: ["#E53935", "#FB8C00", "#FDD835", "#43A047"],  // rows from the top
    brickEdge: "#1A1A1A",
  };
  const WALL_T = 14;

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  function hudText(c2d, text, x, y, font, align) {
    c2d.font = font;
    c2d.textAlign = align;
    c2d.textBaseline = "middle";
    c2d.lineJoin = "round";
    c2d.lineWidth = 3;
    c2d.strokeStyle = "#000";
    c2d.strokeText(text, x, y);
    c2d.fillStyle = "#FFF";
    c2d.fillText(text, x, y);
  }

  // The scene layer (background, walls, live bricks) is painted off screen
  // whenever a brick breaks; every other frame copies small patches of it back
  // over the old paddle and ball and draws them anew.
  const scene = document.createElement("canvas");
  scene.width = W;
  scene.height = H;
  const sctx = scene.getContext("2d");

  function paintScene(core) {
    sctx.fillStyle = COLORS.bg;
    sctx.fillRect(0, 0, W, H);
    sctx.fillStyle = "#0E0F12";
    sctx.fillRect(0, 0, FIELD_L - WALL_T, H);
    sctx.fillRect(FIELD_R + WALL_T, 0, W - FIELD_R - WALL_T, H);
    sctx.fillStyle = COLORS.wall;
    sctx.fillRect(FIELD_L - WALL_T, FIELD_T, WALL_T, H - FIELD_T);
    sctx.fillRect(FIELD_R, FIELD_T, WALL_T, H - FIELD_T);
    sctx.fillRect(FIELD_L - WALL_T, FIELD_T - 4, FIELD_R - FIELD_L + 2 * WALL_T, 4);
    if (!core) return;
    sctx.lineWidth = 2;
    sctx.strokeStyle = COLORS.brickEdge;
    for (const k of core.bricks) {
      if (!k.alive) continue;
      sctx.fillStyle = COLORS.bricks[k.row % COLORS.bricks.length];
      sctx.fillRect(k.x, k.y, BRICK_W, BRICK_H);
      sctx.strokeRect(k.x + 1, k.y + 1, BRICK_W - 2, BRICK_H - 2);
    }
  }

  function drawHud(core) {
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, W, FIELD_T - 4);
    ctx.fillStyle = "rgba(255,255,255,0.08)";
    ctx.fillRect(0, 0, W, FIELD_T - 4);
    hudText(ctx, "Breakout", 20, 28, "bold 28px sans-serif", "left");
    hudText(ctx, `Level ${core.level}`, 170, 29, "20px sans-serif", "left");
    const total = core.bricks.length;
    const pct = Math.round(100 * core.broken / total);
    hudText(ctx, `Cleared ${core.broken}/${total} bricks (${pct}%)`, W / 2, 28, "bold 28px sans-serif", "center");
    hudText(ctx, `Score ${core.score}`, 1040, 28, "20px sans-serif", "right");
    hudText(ctx, `Lives ${core.lives}`, W - 20, 28, "bold 28px sans-serif", "right");
  }

  function paddleRect(core) {
    return { x: core.paddleX - core.paddleW / 2, y: PADDLE_Y, w: core.paddleW, h: PADDLE_H };
  }

  function drawPaddle(core) {
    const r = paddleRect(core);
    ctx.fillStyle = COLORS.paddle;
    ctx.fillRect(r.x, r.y, r.w, r.h);
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#FFF";
    ctx.strokeRect(r.x + 1, r.y + 1, r.w - 2, r.h - 2);
  }

  function drawBall(core) {
    const b = core.ball;
    ctx.fillStyle = COLORS.ball;
    ctx.fillRect(b.x - HALF, b.y - HALF, BALL, BALL);
    ctx.lineWidth = 1;
    ctx.strokeStyle = COLORS.ballEdge;
    ctx.strokeRect(b.x - HALF + 0.5, b.y - HALF + 0.5, BALL - 1, BALL - 1);
  }

  function drawPanel(lines) {
    const pw = 620;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = 400;
    ctx.fillStyle = "rgba(0,0,0,0.72)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => hudText(ctx, ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function drawOverlay(core) {
    if (core.status === "ready") {
      hudText(ctx, "PRESS \u2190 OR \u2192 TO START", W / 2, 470, "bold 32px sans-serif", "center");
    } else if (core.status === "terminal") {
      const title = core.outcome === "success" ? "LEVEL COMPLETE" : `GAME OVER \u2013 ${core.reason}`;
      const lines = [
        { text: title, font: "bold 36px sans-serif" },
        { text: `Cleared ${core.broken}/${core.bricks.length} bricks \u00b7 Score ${core.score}`, font: "bold 28px sans-serif" },
      ];
      if (!window.__GW_HARNESS__) lines.push({ text: "Press Enter to play again", font: "20px sans-serif" });
      drawPanel(lines);
    }
  }

  // Rectangles (with room for outlines) last drawn for the moving objects.
  let drawn = [];

  function movingRects(core) {
    const p = paddleRect(core);
    const b = core.ball;
    return [
      { x: p.x - 2, y: p.y - 2, w: p.w + 4, h: p.h + 4 },
      { x: b.x - HALF - 2, y: b.y - HALF - 2, w: BALL + 4, h: BALL + 4 },
    ];
  }

  function renderFull(core) {
    paintScene(core);
    ctx.drawImage(scene, 0, 0);
    if (!core) return;
    drawHud(core);
    drawPaddle(core);
    drawBall(core);
    drawOverlay(core);
    drawn = movingRects(core);
  }

  function renderPatch(core) {
    for (const r of drawn) {
      const x = Math.max(0, Math.floor(r.x));
      const y = Math.max(FIELD_T, Math.floor(r.y));
      const x1 = Math.min(W, Math.ceil(r.x + r.w));
      const y1 = Math.min(H, Math.ceil(r.y + r.h));
      if (x1 > x && y1 > y) ctx.drawImage(scene, x, y, x1 - x, y1 - y, x, y, x1 - x, y1 - y);
    }
    drawPaddle(core);
    drawBall(core);
    drawn = movingRects(core);
  }

  // Anything but the paddle and ball changing (a brick, the HUD, the status,
  // a new episode) needs a full redraw; an unchanged view needs none.
  let fullKey = "";
  let moveKey = "";
  function render(core) {
    if (!core) {
      renderFull(null);
      fullKey = "none";
      return;
    }
    const fk = `${episode} ${core.status} ${core.broken} ${core.lives}`;
    const mk = `${core.paddleX} ${core.ball.x} ${core.ball.y}`;
    if (fk !== fullKey) renderFull(core);
    else if (mk !== moveKey) renderPatch(core);
    fullKey = fk;
    moveKey = mk;
  }

  // ------------------------------------------------------- 4. browser shell
  const Shell = window.GameShell;
  let core = null;
  let episode = 0;                 // bumps on every init/reset: forces a full redraw
  const keys = Shell.keyboard({
    keys: ["ArrowLeft", "ArrowRight", "Enter"],
    // Humans restart from the end panel; the harness resets by API.
    onDown(key) {
      if (key !== "Enter" || window.__GW_HARNESS__ || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // An arrow pressed and released between two ticks still yields its edge and counts as held for one tick.
  function takeInput() {
    const { pressed, down } = keys.take();
    const isHeld = (k) => down.has(k) || pressed.has(k);
    return {
      left: isHeld("ArrowLeft"),
      right: isHeld("ArrowRight"),
      start: pressed.has("ArrowLeft") || pressed.has("ArrowRight"),
    };
  }

  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const inp = takeInput();
      if (core) core.tick(inp);
    },
    render: () => render(core),
  });

  function pickLevel(level) {
    const n = Number(level);
    if (Number.isInteger(n) && n >= 1 && n <= LEVEL_COUNT) return n;
    console.warn(`${GAME_ID}: no level ${level}; playing level 1`);
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      episode++;
      render(core);
    },
  });

  const api = {
    capabilities: {
      supports_seed: true,
      supports_inplace_reset: true,
      supports_level_select: true,
    },
    init: ep.init,
    reset: ep.reset,
    getState() {
      if (!core) {
        const s = createCore(42, 1).snapshot(0);
        s.status = "loading";
        s.timestampMs = Date.now();
        return s;
      }
      const s = core.snapshot(ep.attempts);
      s.timestampMs = Date.now(); // the harness's virtual clock: deterministic
      return s;
    },
  };

  Shell.mount({
    api,
    core: () => core,
    // The loop's accumulator, so the oracle can tell how many ticks a step will hold.
    handles: { __gwLoop: () => ({ acc: loop.state.acc, lastFrame: loop.state.lastFrame, now: performance.now() }) },
    canvas,
    first: () => render(null),
    loop,
  });
})();
