// Core Ball for pytest-gameworld.
//
// Layout of this file:
//   1. constants and helpers (hash, PRNG, angles)            - pure
//   2. createCore(seed, level): the simulation               - pure, no DOM, no clock
//   3. renderer: a cached backdrop, with only the spinning core, the flight
//      column and the HUD redrawn, and only when they change
//   4. browser shell: keyboard queue, fixed-tick rAF loop, window.gameAPI
//
// The simulation only counts ticks of 1/60 s, so a run is a pure function of
// (seed, level, input events per tick). For the oracle only: window.__gwCore
// (the live core, to clone and look ahead) and the helpers in window.__gwCoreBall.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "08-core-ball";
  const TICK_HZ = 60;
  const TICK_MS = 1000 / TICK_HZ;
  const W = 1280;
  const H = 720;
  const HUD_H = 56;

  const CORE_X = 640;
  const CORE_Y = 300;
  const CORE_R = 70;
  const PIN_R = 210;               // centre of an attached ball from the core centre
  const BALL_R = 14;
  const QUEUE_Y = 620;             // the front ball of the queue
  const QUEUE_GAP = 30;            // spacing of the queued balls shown
  const QUEUE_R = 14;              // queued balls, each showing its number
  const QUEUE_SHOWN = 4;
  const SHOT_SPEED = 3000;         // px/s straight up
  const LAND_Y = CORE_Y + PIN_R;   // the bottom of the pin circle (angle 90 deg)
  const HIT_DEG = 8;               // chord 2*210*sin(4 deg) = 29.3 px: the balls touch

  // Balls to shoot, pre-placed balls (evenly spread, seeded turn and jitter),
  // spin in deg/s (spinBack: while turned back) and the reversal period of
  // level 4. Every level turns less than a ball's width (HIT_DEG) in one
  // 0.2 s step, so a ball fired right after another hits it and each shot
  // has to wait for its gap: levels 1, 2 and 5 turn 3.4-3.8 deg a step (wait
  // two steps after a ball), levels 3 and 4 6.8-7.4 deg (wait one). Level 4
  // reverses every 2.5 s and turns back slower than it turns forward (2 deg a
  // step), so it sweeps back over the balls it just took and drifts on round
  // the circle. None of the step turns divides 360.
  const LEVELS = {
    1: { shots: 8, placed: 0, jitter: 0, spin: 17, reverseTicks: 0 },
    2: { shots: 10, placed: 2, jitter: 20, spin: 19, reverseTicks: 0 },
    3: { shots: 20, placed: 4, jitter: 15, spin: 37, reverseTicks: 0 },
    4: { shots: 12, placed: 4, jitter: 15, spin: 34, spinBack: 10, reverseTicks: 150 },
    5: { shots: 8, placed: 12, jitter: 3, spin: 19, reverseTicks: 0 },
  };
  const LEVEL_COUNT = 5;

  const { hash32, makeRng, nextRandom } = window.GameShell;  // seeded randomness (catalog/games/_shell)

  function norm360(a) {
    const r = a % 360;
    return r < 0 ? r + 360 : r;
  }
  // Smallest angle between two directions, 0..180.
  function angleGap(a, b) {
    const d = norm360(a - b);
    return d > 180 ? 360 - d : d;
  }

  // --------------------------------------------------------------- 2. core
  function Core() {}

  function createCore(seed, level) {
    const cfg = LEVELS[level];
    const c = new Core();
    c.seed = seed;
    c.level = level;
    c.cfg = cfg;
    // Two streams (docs/games.md 1.5): the level stream places the core and the
    // pre-placed balls; the runtime stream is reserved (no runtime randomness).
    const rng = makeRng(hash32(GAME_ID, seed, level));
    c.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    c.angle = 360 * nextRandom(rng);          // core rotation, deg (screen: clockwise)
    c.direction = nextRandom(rng) < 0.5 ? -1 : 1;
    c.reversed = false;                       // turning against the level's first direction
    const turn = 360 * nextRandom(rng);
    c.attached = [];                          // {a: core-frame angle, placed, n}
    for (let i = 0; i < cfg.placed; i++) {
      const j = (2 * nextRandom(rng) - 1) * cfg.jitter;
      c.attached.push({ a: norm360(turn + i * 360 / cfg.placed + j), placed: true, n: 0 });
    }
    c.status = "playing";
    c.outcome = null;
    c.reason = null;
    c.ticks = 0;
    c.playTicks = 0;
    c.queue = cfg.shots;                      // balls not yet fired
    c.flightY = null;                         // y of the ball in flight, or null
    c.score = 0;
    c.shots = 0;
    c.clashes = [];                           // attached balls in a collision (drawn red)
    return c;
  }

  // Spin now, deg/s: spinBack while turned against the level's first direction.
  Core.prototype.speed = function () {
    return this.reversed ? this.cfg.spinBack || this.cfg.spin : this.cfg.spin;
  };

  // Core-frame angle that is at the bottom of the circle (screen angle 90) now.
  Core.prototype.bottomAngle = function () {
    return norm360(90 - this.angle);
  };

  // Angular gap between the landing point and the nearest attached ball now.
  Core.prototype.clearance = function () {
    const at = this.bottomAngle();
    let best = 180;
    for (const b of this.attached) best = Math.min(best, angleGap(at, b.a));
    return best;
  };

  // input = {shoot: Space's pressed edge this tick}
  Core.prototype.tick = function (input) {
    this.ticks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    const cfg = this.cfg;
    if (cfg.reverseTicks && this.playTicks % cfg.reverseTicks === 0) {
      this.direction = -this.direction;
      this.reversed = !this.reversed;
    }
    this.angle = norm360(this.angle + this.direction * this.speed() / TICK_HZ);
    if (input.shoot && this.flightY === null && this.queue > 0) {
      this.queue--;
      this.shots++;
      this.flightY = QUEUE_Y;
    }
    if (this.flightY !== null) {
      this.flightY -= SHOT_SPEED / TICK_HZ;
      if (this.flightY <= LAND_Y) this.land();
    }
  };

  Core.prototype.land = function () {
    this.flightY = null;
    const a = this.bottomAngle();
    const clashes = [];
    this.attached.forEach((b, i) => {
      if (angleGap(a, b.a) < HIT_DEG) clashes.push(i);
    });
    this.attached.push({ a, placed: false, n: this.shots });
    if (clashes.length) {
      this.clashes = clashes.concat([this.attached.length - 1]);
      this.finish("fail", "collision");
      return;
    }
    this.score++;
    if (this.queue === 0) this.finish("success", "level_complete");
  };

  Core.prototype.finish = function (outcome, reason) {
    this.status = "terminal";
    this.outcome = outcome;
    this.reason = reason;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.runtimeRng = { s: this.runtimeRng.s };
    c.attached = this.attached.map((b) => Object.assign({}, b));
    c.clashes = this.clashes.slice();
    return c;
  };

  // The full getState() body except timestampMs (shell field).
  Core.prototype.snapshot = function (attempts) {
    const shots = this.cfg.shots;
    return {
      gameId: GAME_ID,
      seed: this.seed,
      timestampMs: 0,
      gameTimeMs: Math.round(this.playTicks * TICK_MS),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        score: this.score,
        level: this.level,
        completion_progress: this.score / shots,
        balls_remaining: this.queue,
        core: {
          angle_deg: this.angle,
          speed_deg_s: this.speed(),
          direction: this.direction,
          x: CORE_X,
          y: CORE_Y,
          radius: CORE_R,
          pin_radius: PIN_R,
        },
        attached: this.attached.map((b) => b.a),
        in_flight: this.flightY !== null,
        player: {
          x: CORE_X,
          y: this.flightY === null ? QUEUE_Y : this.flightY,
          alive: !(this.status === "terminal" && this.outcome === "fail"),
        },
      },
      metrics: {
        primary_score: this.score,
        shots: this.shots,
        balls_remaining: this.queue,
        bottom_clearance_deg: this.clearance(),
        attempts: attempts,
        deaths: this.outcome === "fail" ? 1 : 0,
      },
      raw: {
        ticks: this.ticks,
        play_ticks: this.playTicks,
        flight_y: this.flightY,
        landing_angle_deg: this.bottomAngle(),
        collision_deg: HIT_DEG,
        ball_radius: BALL_R,
        preplaced: this.attached.filter((b) => b.placed).length,
      },
    };
  };

  // Pure parts for the oracle's look-ahead.
  window.__gwCoreBall = { createCore, hash32, angleGap, norm360, GAME_ID, LEVELS, HIT_DEG };

  // ------------------------------------------------------------ 3. renderer
  const COLORS = {
    bg: "#E9E6DF",
    core: "#1F1F24",
    pin: "#55555C",
    attached: "#26262B",
    player: "#2D7DF6",
    clash: "#E53935",
    aim: "rgba(45,125,246,0.6)",
  };
  // The region the frame redraws: the pin circle and the shooting column.
  const DYN = { x: CORE_X - PIN_R - BALL_R - 8, y: HUD_H, w: 2 * (PIN_R + BALL_R + 8), h: H - HUD_H };

  const canvas = document.getElementById("game");
  // Opaque (every picture is a full backdrop plus redrawn regions): the
  // harness reads it back as it is, with no copy onto an opaque canvas first.
  const ctx = canvas.getContext("2d", { alpha: false });

  function outlinedText(text, x, y, font, align) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#000";
    ctx.strokeText(text, x, y);
    ctx.fillStyle = "#FFF";
    ctx.fillText(text, x, y);
  }

  // The backdrop (background and a faint guide ring) is painted once.
  const backdrop = document.createElement("canvas");
  backdrop.width = W;
  backdrop.height = H;
  (function paintBackdrop() {
    const b = backdrop.getContext("2d", { alpha: false });
    b.fillStyle = COLORS.bg;
    b.fillRect(0, 0, W, H);
    b.strokeStyle = "rgba(0,0,0,0.08)";
    b.lineWidth = 2;
    b.beginPath();
    b.arc(CORE_X, CORE_Y, PIN_R, 0, Math.PI * 2);
    b.stroke();
  })();

  function ball(x, y, fill, label, r) {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#FFF";
    ctx.stroke();
    if (label) outlinedText(label, x, y + 1, "bold 18px sans-serif", "center");
  }

  function drawCore(core) {
    const clash = core.status === "terminal" && core.outcome === "fail";
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLORS.pin;
    ctx.beginPath();
    const pts = core.attached.map((b) => {
      const r = (b.a + core.angle) * Math.PI / 180;
      const cx = Math.cos(r);
      const cy = Math.sin(r);
      ctx.moveTo(CORE_X + CORE_R * cx, CORE_Y + CORE_R * cy);
      ctx.lineTo(CORE_X + PIN_R * cx, CORE_Y + PIN_R * cy);
      return { x: CORE_X + PIN_R * cx, y: CORE_Y + PIN_R * cy };
    });
    ctx.stroke();
    pts.forEach((p, i) => {
      const red = clash && core.clashes.includes(i);
      ctx.beginPath();
      ctx.arc(p.x, p.y, BALL_R, 0, Math.PI * 2);
      ctx.fillStyle = red ? COLORS.clash : COLORS.attached;
      ctx.fill();
      if (red) {
        ctx.lineWidth = 3;
        ctx.strokeStyle = "#FFF";
        ctx.stroke();
      }
    });
    ctx.beginPath();
    ctx.arc(CORE_X, CORE_Y, CORE_R, 0, Math.PI * 2);
    ctx.fillStyle = COLORS.core;
    ctx.fill();
    outlinedText(String(core.queue), CORE_X, CORE_Y - 8, "bold 44px sans-serif", "center");
    outlinedText("left", CORE_X, CORE_Y + 28, "20px sans-serif", "center");
  }

  // The queue column: the next four balls with their numbers, a counter for
  // the rest, a faint aim line to the landing point, and the ball in flight.
  function drawShooter(core) {
    ctx.strokeStyle = COLORS.aim;
    ctx.lineWidth = 2;
    ctx.setLineDash([6, 8]);
    ctx.beginPath();
    ctx.moveTo(CORE_X, QUEUE_Y - QUEUE_R - 4);
    ctx.lineTo(CORE_X, LAND_Y + BALL_R + 2);
    ctx.stroke();
    ctx.setLineDash([]);
    // The landing spot: a ring where the next ball will stick.
    ctx.beginPath();
    ctx.arc(CORE_X, LAND_Y, BALL_R + 2, 0, Math.PI * 2);
    ctx.stroke();
    const fired = core.cfg.shots - core.queue;
    for (let i = 0; i < Math.min(QUEUE_SHOWN, core.queue); i++) {
      ball(CORE_X, QUEUE_Y + i * QUEUE_GAP, COLORS.player, String(fired + i + 1), QUEUE_R);
    }
    if (core.queue > QUEUE_SHOWN) {
      outlinedText(`+${core.queue - QUEUE_SHOWN} more`, CORE_X + 26, QUEUE_Y + (QUEUE_SHOWN - 1) * QUEUE_GAP,
                   "20px sans-serif", "left");
    }
    if (core.flightY !== null) ball(CORE_X, core.flightY, COLORS.player, "", BALL_R);
  }

  function drawHud(core) {
    ctx.fillStyle = "#222226";
    ctx.fillRect(0, 0, W, HUD_H);
    outlinedText("Core Ball", 20, 28, "bold 28px sans-serif", "left");
    outlinedText(`Level ${core.level}`, 180, 29, "20px sans-serif", "left");
    outlinedText(`Score ${core.score}/${core.cfg.shots} balls attached`, W / 2, 28, "bold 28px sans-serif", "center");
    outlinedText(`Balls left ${core.queue}`, W - 20, 28, "bold 28px sans-serif", "right");
  }

  function drawPanel(lines) {
    const pw = 620;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = 650 - ph / 2;           // below the landing point, so the clash stays visible
    ctx.fillStyle = "rgba(0,0,0,0.72)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => outlinedText(ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function drawOverlay(core) {
    if (core.status !== "terminal") return;
    const title = core.outcome === "success" ? "LEVEL COMPLETE" : `GAME OVER \u2013 ${core.reason}`;
    const lines = [
      { text: title, font: "bold 36px sans-serif" },
      { text: `Score ${core.score}/${core.cfg.shots} balls attached`, font: "bold 28px sans-serif" },
    ];
    if (!window.__GW_HARNESS__) lines.push({ text: "Press Enter to play again", font: "20px sans-serif" });
    drawPanel(lines);
  }

  // Full redraw when the HUD, the status or the episode changes; otherwise
  // only the dynamic region, and only when the core turned or a ball moved.
  let fullKey = "";
  let dynKey = "";
  function render(core) {
    if (!core) {
      ctx.drawImage(backdrop, 0, 0);
      fullKey = "none";
      return;
    }
    const fk = `${episode} ${core.status} ${core.score} ${core.queue}`;
    const dk = `${core.angle} ${core.flightY}`;
    if (fk !== fullKey) {
      ctx.drawImage(backdrop, 0, 0);
      drawHud(core);
      drawCore(core);
      if (core.status === "terminal") drawOverlay(core);   // the panel replaces the queue
      else drawShooter(core);
    } else if (dk !== dynKey) {
      ctx.drawImage(backdrop, DYN.x, DYN.y, DYN.w, DYN.h, DYN.x, DYN.y, DYN.w, DYN.h);
      drawCore(core);
      drawShooter(core);
    }
    fullKey = fk;
    dynKey = dk;
  }

  // ------------------------------------------------------- 4. browser shell
  const Shell = window.GameShell;
  let core = null;
  let episode = 0;                 // bumps on every init/reset: forces a full redraw
  const keys = Shell.keyboard({
    keys: [" ", "Enter"],
    // Humans restart from the end panel; the harness resets by API.
    onDown(key) {
      if (key !== "Enter" || window.__GW_HARNESS__ || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // Space's edge this tick (a press and release between two ticks still counts once).
  function takeInput() {
    return { shoot: keys.take().pressed.has(" ") };
  }

  // Only the frames the harness can photograph are drawn (docs/catalog.md; Shell.frameCanBeSeen).
  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    visibleOnly: true,
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

  Shell.mount({ api, core: () => core, canvas, first: () => render(null), loop });
})();
