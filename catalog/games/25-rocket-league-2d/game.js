// Rocket League 2D for pytest-gameworld: car soccer in a side-view arena.
//
// Layout of this file:
//   1. constants                                           - pure
//   2. createCore(seed, level): the simulation             - pure, no DOM, no clock
//   3. renderer: cached arena layer, dirty-rectangle sprites
//   4. browser shell: window.gameAPI over the shared shell (catalog/games/_shell:
//      hash, PRNG, keyboard queue, fixed-tick rAF loop, episodes, mounting)
//
// The simulation only counts ticks, so a run is a pure function of
// (seed, level, input events per tick). The oracle clones the core through
// window.__gwCore to look ahead.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "25-rocket-league-2d";
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;
  const TICK_MS = 1000 / TICK_HZ;
  const SUBSTEPS = 4;              // ball and cars move together in 4 substeps (no tunnelling)

  const W = 1280;
  const H = 720;
  const HUD_H = 56;

  // Arena (px). The goal boxes lie beyond the side walls, under the crossbars.
  const GROUND_Y = 660;
  const CEILING_Y = 80;
  const WALL_L = 100;
  const WALL_R = 1180;
  const MOUTH_TOP = GROUND_Y - 200;   // crossbar height: goal mouths are 200 px tall
  const BACK_L = 0;
  const BACK_R = W;

  const GRAVITY = 1200;
  const BALL_R = 34;
  // Livelier values (spec: restitution 0.8 everywhere, drag 0.2/s) kept the
  // ball flying end to end: long rebounds off the far wall sailed over the
  // CPU into its own goal, so a player who only waited scored. With these a
  // waiting player scored no goal in 200 seeds x 50 s.
  const BALL_RESTITUTION = 0.6;    // off the floor
  const WALL_RESTITUTION = 0.5;    // off walls, crossbars and the ceiling
  const BALL_DRAG = 0.8;           // per second
  const BALL_MAX = 1400;

  const CAR_W = 100;
  const CAR_H = 36;
  const CAR_ACCEL = 1600;
  const CAR_MAX = 480;
  const CAR_FRICTION = 1000;       // ground deceleration with no key
  const JUMP_VY = -620;
  const JUMP_BUFFER_TICKS = 6;     // 0.1 s (docs/games.md 1.3)
  const BOOST_ACCEL = 2600;
  const BOOST_MAX = 760;
  const BOOST_DRAIN = 50;          // meter per second while boosting
  const BOOST_REFILL = 12;         // meter per second otherwise
  const HIT_GAIN = 1.1;            // the ball takes 1.1x the car's velocity
  const TOP_HIT_LIFT = 250;        // extra upward speed on a top-half hit
  const LIFT_MIN_SPEED = 60;       // ... when the car drives into the ball at least this fast

  const CPU_MAX = 360;
  const CPU_DELAY_TICKS = 15;      // the CPU sees the ball as it was 0.25 s ago
  const CPU_GOAL_SIDE = 60;        // it heads 60 px goal-side (right) of the ball
  const CPU_JUMP_RANGE = 100;
  const CPU_BACKOFF = 220;         // wrong-side: keep this far behind the ball
  const CPU_HOLD_X = 1000;          // it comes no further out than this while goal-side
  const CPU_BLOCK_VX = 150;        // keeper's jump: only for a ball this fast toward its goal,
  const CPU_BLOCK_S = 0.2;         // ... due this soon (s),
  const CPU_BLOCK_RISE = 160;      // ... at most this far above the car's centre
  const CPU_READ_VX = 800;         // a shot slower than this it reads: it jumps only if the ball would clear its roof
  const CPU_ROOF_CLEAR = CAR_H / 2 + BALL_R;  // a ball's centre this far above the car's centre passes over its roof

  const KICKOFF_TICKS = 48;        // 0.8 s freeze after a goal and at the start
  const PLAYER_START_X = 320;
  const CPU_START_X = 960;
  const CAR_Y = GROUND_Y - CAR_H / 2;
  const BALL_START_Y = 420;        // the kickoff ball drops from here ...
  const KICKOFF_JITTER_X = 40;     // ... within +-40 px of the centre line,
  const KICKOFF_JITTER_VX = 120;   // with up to +-120 px/s sideways (seeded)

  // FNV-1a then a murmur3 finaliser, so that nearby seeds give unrelated PRNG
  // states, and mulberry32 on a plain {s} so a clone copies the stream position
  // (catalog/games/_shell).
  const { hash32, makeRng, nextRandom } = window.GameShell;

  // ----------------------------------------------------------- 2. core
  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the arena is fixed, so the level stream is
    // unused; the runtime stream draws each kickoff's ball drop.
    core.levelRng = makeRng(hash32(GAME_ID, seed, level, "level"));
    core.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    core.status = "playing";
    core.playTicks = 0;
    core.goalsFor = 0;
    core.goalsAgainst = 0;
    core.touches = 0;
    core.touchedByPlayer = false;   // during this tick's substeps
    core.playerInContact = false;   // at the end of the previous tick
    core.lastScorer = null;
    core.player = newCar(PLAYER_START_X, 1);
    core.cpu = newCar(CPU_START_X, -1);
    core.ball = { x: 0, y: 0, vx: 0, vy: 0 };
    core.history = [];
    core.kickoff();
    return core;
  }

  function newCar(x, facing) {
    return { x, y: CAR_Y, vx: 0, vy: 0, facing, onGround: true, boost: 100, jumpBuffer: 0, boosting: false };
  }

  function Core() {}

  // Cars and ball back to their spots; the ball drop varies with the seed.
  Core.prototype.kickoff = function () {
    this.phase = "kickoff";
    this.freeze = KICKOFF_TICKS;
    const p = this.player;
    const c = this.cpu;
    Object.assign(p, newCar(PLAYER_START_X, 1));
    Object.assign(c, newCar(CPU_START_X, -1));
    const u = nextRandom(this.runtimeRng);
    const v = nextRandom(this.runtimeRng);
    this.ball.x = 640 + Math.round((u * 2 - 1) * KICKOFF_JITTER_X);
    this.ball.y = BALL_START_Y;
    this.ball.vx = Math.round((v * 2 - 1) * KICKOFF_JITTER_VX);
    this.ball.vy = 0;
    this.history = [];
  };

  // input = {held: Set of "a"/"d"/"w"/" ", pressed: Set of the same}
  Core.prototype.tick = function (input) {
    if (this.status !== "playing") return;
    this.playTicks++;
    const held = (input && input.held) || new Set();
    const pressed = (input && input.pressed) || new Set();
    if (this.phase === "kickoff") {
      if (--this.freeze > 0) return;
      this.phase = "play";
    }
    this.drivePlayer(held, pressed);
    this.driveCpu();
    for (let s = 0; s < SUBSTEPS; s++) {
      moveCar(this.player, DT / SUBSTEPS);
      moveCar(this.cpu, DT / SUBSTEPS);
      this.moveBall(DT / SUBSTEPS);
      if (this.hitBall(this.player)) this.touchedByPlayer = true;
      this.hitBall(this.cpu);
    }
    if (this.touchedByPlayer) {
      // one touch per contact, however many substeps it spans
      if (!this.playerInContact) this.touches++;
      this.playerInContact = true;
    } else {
      this.playerInContact = false;
    }
    this.touchedByPlayer = false;
    this.history.push(this.ball.x, this.ball.y, this.ball.vx, this.ball.vy);
    if (this.history.length > 4 * CPU_DELAY_TICKS) this.history.splice(0, 4);
    this.checkGoal();
  };

  Core.prototype.drivePlayer = function (held, pressed) {
    const car = this.player;
    const dir = (held.has("d") ? 1 : 0) - (held.has("a") ? 1 : 0);
    if (dir) car.facing = dir;
    car.boosting = held.has(" ") && car.boost > 0;
    if (car.boosting) {
      car.vx += car.facing * BOOST_ACCEL * DT;
      car.vx = Math.max(-BOOST_MAX, Math.min(BOOST_MAX, car.vx));
      car.boost = Math.max(0, car.boost - BOOST_DRAIN * DT);
    } else {
      car.boost = Math.min(100, car.boost + BOOST_REFILL * DT);
      accelerate(car, dir, CAR_MAX);
    }
    if (pressed.has("w")) car.jumpBuffer = JUMP_BUFFER_TICKS;
    if (car.jumpBuffer > 0) {
      if (car.onGround) {
        car.vy = JUMP_VY;
        car.onGround = false;
        car.jumpBuffer = 0;
      } else {
        car.jumpBuffer--;
      }
    }
  };

  // Deterministic, beatable CPU: chases a point goal-side of where the ball
  // was 0.25 s ago, never boosts, jumps only for a descending ball nearby or
  // to block a shot. Its jumps watch the ball as it is: judged from the old
  // view, a ball driven along the floor from the kickoff (holding d) made it
  // jump late or for nothing and rolled in under it.
  Core.prototype.driveCpu = function () {
    const car = this.cpu;
    const h = this.history;
    const seen = h.length >= 4 * CPU_DELAY_TICKS
      ? { x: h[0], y: h[1], vx: h[2], vy: h[3] }
      : (h.length ? { x: h[0], y: h[1], vx: h[2], vy: h[3] } : this.ball);
    // Goal-side of the ball it closes in. Caught on the wrong side it runs
    // back toward its goal, but never drives into the ball from behind: near
    // the ball it stops, and it hops over a ball that has come to rest.
    const b = this.ball;
    const wrongSide = car.x < seen.x + 20;
    let dir;
    if (wrongSide) {
      const ahead = b.x - car.x;
      const near = ahead > 0 && ahead < CPU_BACKOFF && b.y + BALL_R > car.y - CAR_H / 2 - 40;
      dir = near ? 0 : 1;
      if (near && car.onGround && Math.hypot(b.vx, b.vy) < 60 && ahead > CAR_W / 2 + BALL_R + 30) {
        car.vy = JUMP_VY;
        car.onGround = false;
        dir = 1;
      }
    } else {
      // It holds its line in front of its goal while the ball is far off, so a
      // ball knocked straight ahead from the kickoff meets it there.
      const gap = Math.max(seen.x + CPU_GOAL_SIDE, CPU_HOLD_X) - car.x;
      dir = Math.abs(gap) < 6 ? 0 : Math.sign(gap);
      // A ball dropping onto it from above its roof it heads; one that low it
      // meets with its body (a jump would let it under).
      const above = car.y - b.y;
      if (car.onGround && b.vy > 0 && Math.abs(b.x - car.x) < CPU_JUMP_RANGE && above > CPU_ROOF_CLEAR && above < 220) {
        car.vy = JUMP_VY;
        car.onGround = false;
      }
      // Keeper's jump: a ball flying at it toward its goal, at a height a jump
      // reaches and due within CPU_BLOCK_S, is met in the air. A straight
      // drive into the kickoff ball lofts it just over the car's roof, so this
      // is what makes a shot need aim (a higher loft, or a ball off the wall).
      // A shot no faster than a car hits without boost it reads, and stays
      // down for a ball that would strike its body; a hard (boosted) low shot
      // it can only guess at: it jumps for it and the ball may pass under.
      const ahead = car.x - b.x;
      if (car.onGround && b.vx > CPU_BLOCK_VX && ahead > 0) {
        const t = ahead / b.vx;
        const rise = car.y - (b.y + b.vy * t + 0.5 * GRAVITY * t * t);
        const low = b.vx < CPU_READ_VX ? CPU_ROOF_CLEAR : CAR_H / 2;
        if (t < CPU_BLOCK_S && rise > low && rise < CPU_BLOCK_RISE) {
          car.vy = JUMP_VY;
          car.onGround = false;
        }
      }
    }
    if (dir) car.facing = dir;
    accelerate(car, dir, CPU_MAX);
  };

  // Horizontal drive: accelerate toward dir up to max; on the ground with no
  // key (or above max after a boost) friction slows the car.
  function accelerate(car, dir, max) {
    if (dir && !(Math.sign(car.vx) === dir && Math.abs(car.vx) >= max)) {
      car.vx = Math.max(-max, Math.min(max, car.vx + dir * CAR_ACCEL * DT));
      return;
    }
    if (!car.onGround) return;
    const slow = CAR_FRICTION * DT;
    if (dir && Math.abs(car.vx) > max) {
      car.vx = Math.sign(car.vx) * Math.max(max, Math.abs(car.vx) - slow);
    } else if (!dir) {
      car.vx = Math.abs(car.vx) <= slow ? 0 : car.vx - Math.sign(car.vx) * slow;
    }
  }

  function moveCar(car, dt) {
    car.vy += GRAVITY * dt;
    car.x += car.vx * dt;
    car.y += car.vy * dt;
    const minX = WALL_L + CAR_W / 2;
    const maxX = WALL_R - CAR_W / 2;
    if (car.x < minX) { car.x = minX; car.vx = 0; }
    if (car.x > maxX) { car.x = maxX; car.vx = 0; }
    if (car.y >= CAR_Y) {
      car.y = CAR_Y;
      car.vy = 0;
      car.onGround = true;
    } else {
      car.onGround = false;
    }
    if (car.y - CAR_H / 2 < CEILING_Y) {
      car.y = CEILING_Y + CAR_H / 2;
      if (car.vy < 0) car.vy = 0;
    }
  }

  // Solid boxes of the arena the ball bounces off: the walls above the goal
  // mouths (their lower corners are the crossbars) and the goals' back walls.
  const ARENA_BOXES = [
    [BACK_L - 200, CEILING_Y - 200, WALL_L, MOUTH_TOP],
    [WALL_R, CEILING_Y - 200, BACK_R + 200, MOUTH_TOP],
  ];

  Core.prototype.moveBall = function (dt) {
    const b = this.ball;
    b.vy += GRAVITY * dt;
    const drag = 1 - BALL_DRAG * dt;
    b.vx *= drag;
    b.vy *= drag;
    const sp = Math.hypot(b.vx, b.vy);
    if (sp > BALL_MAX) {
      b.vx *= BALL_MAX / sp;
      b.vy *= BALL_MAX / sp;
    }
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    if (b.y + BALL_R > GROUND_Y) {
      b.y = GROUND_Y - BALL_R;
      if (b.vy > 0) b.vy = -b.vy * BALL_RESTITUTION;
      if (Math.abs(b.vy) < 30) b.vy = 0;       // come to rest instead of buzzing
    }
    if (b.y - BALL_R < CEILING_Y) {
      b.y = CEILING_Y + BALL_R;
      if (b.vy < 0) b.vy = -b.vy * WALL_RESTITUTION;
    }
    if (b.x - BALL_R < BACK_L) {
      b.x = BACK_L + BALL_R;
      if (b.vx < 0) b.vx = -b.vx * WALL_RESTITUTION;
    }
    if (b.x + BALL_R > BACK_R) {
      b.x = BACK_R - BALL_R;
      if (b.vx > 0) b.vx = -b.vx * WALL_RESTITUTION;
    }
    for (const box of ARENA_BOXES) {
      const n = pushOut(b, box[0], box[1], box[2], box[3]);
      if (!n) continue;
      const vn = b.vx * n[0] + b.vy * n[1];
      if (vn < 0) {
        b.vx -= (1 + WALL_RESTITUTION) * vn * n[0];
        b.vy -= (1 + WALL_RESTITUTION) * vn * n[1];
      }
    }
  };

  // Move the ball out of a box it overlaps; returns the unit normal (box ->
  // ball) or null when they do not touch.
  function pushOut(b, x0, y0, x1, y1) {
    const cx = Math.max(x0, Math.min(b.x, x1));
    const cy = Math.max(y0, Math.min(b.y, y1));
    let dx = b.x - cx;
    let dy = b.y - cy;
    const d2 = dx * dx + dy * dy;
    if (d2 >= BALL_R * BALL_R) return null;
    if (d2 === 0) {
      // centre inside the box: leave through the nearest face
      const faces = [[b.x - x0, -1, 0], [x1 - b.x, 1, 0], [b.y - y0, 0, -1], [y1 - b.y, 0, 1]];
      faces.sort((p, q) => p[0] - q[0]);
      const [depth, nx, ny] = faces[0];
      b.x += nx * (depth + BALL_R);
      b.y += ny * (depth + BALL_R);
      return [nx, ny];
    }
    const d = Math.sqrt(d2);
    dx /= d;
    dy /= d;
    b.x += dx * (BALL_R - d);
    b.y += dy * (BALL_R - d);
    return [dx, dy];
  }

  // Car against ball: the ball bounces off the car's box and takes 1.1x the
  // car's velocity, plus a lift when it sits above the car's middle.
  Core.prototype.hitBall = function (car) {
    const b = this.ball;
    const n = pushOut(b, car.x - CAR_W / 2, car.y - CAR_H / 2, car.x + CAR_W / 2, car.y + CAR_H / 2);
    if (!n) return false;
    const rel = (b.vx - car.vx) * n[0] + (b.vy - car.vy) * n[1];
    if (rel < 0) {
      const vn = b.vx * n[0] + b.vy * n[1];
      if (vn < 0) {
        b.vx -= (1 + BALL_RESTITUTION) * vn * n[0];
        b.vy -= (1 + BALL_RESTITUTION) * vn * n[1];
      }
      b.vx += HIT_GAIN * car.vx;
      b.vy += HIT_GAIN * car.vy;
      // the lift belongs to a hit: a car driving into the ball, not a ball
      // bouncing on a parked car's roof
      if (b.y < car.y && car.vx * n[0] + car.vy * n[1] > LIFT_MIN_SPEED) b.vy -= TOP_HIT_LIFT;
      // The CPU only ever clears toward the player's goal: a ball it meets
      // from any other side is trapped, never knocked in (no own goals).
      if (car === this.cpu && b.vx > 0) b.vx = 0;
    }
    if (b.y + BALL_R > GROUND_Y) b.y = GROUND_Y - BALL_R;
    return true;
  };

  Core.prototype.checkGoal = function () {
    const b = this.ball;
    if (b.x - BALL_R > WALL_R && b.y - BALL_R >= MOUTH_TOP) {
      this.goalsFor++;
      this.lastScorer = "player";
      this.kickoff();
    } else if (b.x + BALL_R < WALL_L && b.y - BALL_R >= MOUTH_TOP) {
      this.goalsAgainst++;
      this.lastScorer = "cpu";
      this.kickoff();
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.player = Object.assign({}, this.player);
    c.cpu = Object.assign({}, this.cpu);
    c.ball = Object.assign({}, this.ball);
    c.history = this.history.slice();
    return c;
  };

  function carView(car) {
    return { x: car.x, y: car.y, vx: car.vx, vy: car.vy, facing: car.facing, on_ground: car.onGround };
  }

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const b = this.ball;
    const goalX = WALL_R + BALL_R;
    const goalY = GROUND_Y - 100;
    const player = carView(this.player);
    player.boost = Math.round(this.player.boost * 10) / 10;
    player.alive = true;
    return {
      status: this.status,
      terminal: { isTerminal: false, outcome: null, reason: null },
      gameTimeMs: Math.round(this.playTicks * TICK_MS),
      game_state: {
        score: this.goalsFor,
        level: this.level,
        completion_progress: Math.min(1, this.goalsFor / 5),
        phase: this.phase,
        player,
        opponent: carView(this.cpu),
        ball: { x: b.x, y: b.y, vx: b.vx, vy: b.vy },
        goals: { player: this.goalsFor, cpu: this.goalsAgainst },
      },
      metrics: {
        primary_score: this.goalsFor,
        goals_against: this.goalsAgainst,
        distance_to_goal: Math.round(Math.hypot(goalX - b.x, goalY - b.y)),
        touches: this.touches,
      },
      raw: {
        play_ticks: this.playTicks,
        kickoff_ticks_left: this.phase === "kickoff" ? this.freeze : 0,
        arena: { ground_y: GROUND_Y, ceiling_y: CEILING_Y, wall_left: WALL_L, wall_right: WALL_R, mouth_top: MOUTH_TOP },
        ball_radius: BALL_R,
        car_size: [CAR_W, CAR_H],
      },
    };
  };

  // ----------------------------------------------------------- 3. renderer
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    skyTop: "#1B2330",
    skyBottom: "#2A3444",
    field: "#3E5B46",
    fieldStripe: "#456650",
    line: "rgba(255,255,255,0.35)",
    wall: "#5B6470",
    wallEdge: "#8A94A0",
    goalBlue: "rgba(45,125,246,0.28)",
    goalOrange: "rgba(255,140,40,0.30)",
    net: "rgba(255,255,255,0.28)",
    player: "#2D7DF6",
    cpu: "#FF8C28",
    ball: "#F2F2F2",
  };

  function outlinedText(g, str, x, y, font, align) {
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

  function spare(w, h) {
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    return c;
  }

  // The arena (background, pitch, walls, goals, HUD strip's backdrop) never
  // changes: painted once, then copied piecewise under moving sprites.
  let arena = null;
  function arenaLayer() {
    if (arena) return arena;
    arena = spare(W, H);
    const g = arena.getContext("2d");
    const sky = g.createLinearGradient(0, 0, 0, GROUND_Y);
    sky.addColorStop(0, COLORS.skyTop);
    sky.addColorStop(1, COLORS.skyBottom);
    g.fillStyle = sky;
    g.fillRect(0, 0, W, H);
    // pitch below the ground line
    g.fillStyle = COLORS.field;
    g.fillRect(0, GROUND_Y, W, H - GROUND_Y);
    g.fillStyle = COLORS.fieldStripe;
    for (let x = WALL_L; x < WALL_R; x += 120) g.fillRect(x, GROUND_Y, 60, H - GROUND_Y);
    g.strokeStyle = COLORS.line;
    g.lineWidth = 3;
    g.beginPath();
    g.moveTo(640, CEILING_Y);
    g.lineTo(640, GROUND_Y);
    g.stroke();
    g.beginPath();
    g.arc(640, GROUND_Y, 90, Math.PI, 2 * Math.PI);
    g.stroke();
    // goal boxes: nets tinted by the side that defends them
    const goal = (x0, x1, tint) => {
      g.fillStyle = tint;
      g.fillRect(x0, MOUTH_TOP, x1 - x0, GROUND_Y - MOUTH_TOP);
      g.strokeStyle = COLORS.net;
      g.lineWidth = 1;
      g.beginPath();
      for (let x = x0; x <= x1; x += 20) { g.moveTo(x + 0.5, MOUTH_TOP); g.lineTo(x + 0.5, GROUND_Y); }
      for (let y = MOUTH_TOP; y <= GROUND_Y; y += 20) { g.moveTo(x0, y + 0.5); g.lineTo(x1, y + 0.5); }
      g.stroke();
    };
    goal(BACK_L, WALL_L, COLORS.goalBlue);
    goal(WALL_R, BACK_R, COLORS.goalOrange);
    // walls above the mouths and the ceiling
    g.fillStyle = COLORS.wall;
    g.fillRect(BACK_L, HUD_H, WALL_L, MOUTH_TOP - HUD_H);
    g.fillRect(WALL_R, HUD_H, BACK_R - WALL_R, MOUTH_TOP - HUD_H);
    g.fillRect(0, HUD_H, W, CEILING_Y - HUD_H);
    g.strokeStyle = COLORS.wallEdge;
    g.lineWidth = 3;
    g.beginPath();
    g.moveTo(WALL_L, MOUTH_TOP);
    g.lineTo(WALL_L, CEILING_Y);
    g.lineTo(WALL_R, CEILING_Y);
    g.lineTo(WALL_R, MOUTH_TOP);
    g.stroke();
    // crossbars: bright posts so the mouths read at a glance
    g.fillStyle = "#E8E8E8";
    g.fillRect(BACK_L, MOUTH_TOP - 6, WALL_L + 6, 8);
    g.fillRect(WALL_R - 6, MOUTH_TOP - 6, BACK_R - WALL_R + 6, 8);
    g.fillStyle = "#9AA3AD";
    g.fillRect(0, GROUND_Y, W, 3);
    outlinedText(g, "YOUR", WALL_L / 2, MOUTH_TOP - 52, "bold 20px sans-serif", "center");
    outlinedText(g, "GOAL", WALL_L / 2, MOUTH_TOP - 28, "bold 20px sans-serif", "center");
    outlinedText(g, "SCORE", (WALL_R + BACK_R) / 2, MOUTH_TOP - 52, "bold 20px sans-serif", "center");
    outlinedText(g, "HERE \u2192", (WALL_R + BACK_R) / 2, MOUTH_TOP - 28, "bold 20px sans-serif", "center");
    g.fillStyle = "rgba(0,0,0,0.55)";
    g.fillRect(0, 0, W, HUD_H);
    return arena;
  }

  // Car sprites, one per colour and facing, with a margin for the outline.
  const CAR_PAD = 6;
  const carSprites = {};
  function carImage(colour, facing) {
    const key = colour + facing;
    if (carSprites[key]) return carSprites[key];
    const c = spare(CAR_W + 2 * CAR_PAD, CAR_H + 2 * CAR_PAD);
    const g = c.getContext("2d");
    g.translate(CAR_PAD + CAR_W / 2, CAR_PAD + CAR_H / 2);
    g.scale(facing, 1);
    const L = -CAR_W / 2;
    const T = -CAR_H / 2;
    // body: low wedge, cabin toward the front
    g.fillStyle = colour;
    g.strokeStyle = "#FFFFFF";
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(L + 4, T + 14);
    g.lineTo(L + 36, T + 2);
    g.lineTo(L + 70, T + 2);
    g.lineTo(L + 96, T + 14);
    g.lineTo(L + 100, T + 26);
    g.lineTo(L, T + 26);
    g.closePath();
    g.fill();
    g.stroke();
    g.fillStyle = "rgba(220,240,255,0.85)";
    g.beginPath();
    g.moveTo(L + 44, T + 6);
    g.lineTo(L + 66, T + 6);
    g.lineTo(L + 84, T + 14);
    g.lineTo(L + 44, T + 14);
    g.closePath();
    g.fill();
    // wheels
    g.fillStyle = "#1A1A1A";
    g.strokeStyle = "#BBBBBB";
    for (const wx of [L + 22, L + 78]) {
      g.beginPath();
      g.arc(wx, T + 26, 10, 0, Math.PI * 2);
      g.fill();
      g.stroke();
    }
    carSprites[key] = c;
    return c;
  }

  const BALL_PAD = 4;
  let ballSprite = null;
  function ballImage() {
    if (ballSprite) return ballSprite;
    const s = 2 * (BALL_R + BALL_PAD);
    ballSprite = spare(s, s);
    const g = ballSprite.getContext("2d");
    const c = s / 2;
    const grad = g.createRadialGradient(c - 10, c - 12, 4, c, c, BALL_R);
    grad.addColorStop(0, "#FFFFFF");
    grad.addColorStop(1, "#BFC4CA");
    g.fillStyle = grad;
    g.beginPath();
    g.arc(c, c, BALL_R, 0, Math.PI * 2);
    g.fill();
    g.strokeStyle = "#333";
    g.lineWidth = 2;
    g.stroke();
    // a few hexagon-ish panels so it reads as a ball
    g.fillStyle = "#4A4F57";
    for (const [px, py, r] of [[c, c, 9], [c - 19, c - 14, 6], [c + 19, c - 14, 6], [c - 20, c + 15, 6], [c + 20, c + 15, 6]]) {
      g.beginPath();
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 6 + k * Math.PI / 3;
        g.lineTo(px + r * Math.cos(a), py + r * Math.sin(a));
      }
      g.closePath();
      g.fill();
    }
    return ballSprite;
  }

  // Boost gauge under the player's car: a small bar, drawn into the sprite pass.
  function drawBoostBar(car) {
    const x = Math.round(car.x - 30);
    const y = Math.round(car.y + CAR_H / 2 + 8);
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(x - 1, y - 1, 62, 8);
    ctx.fillStyle = car.boosting ? "#FFFFFF" : "#F5C518";
    ctx.fillRect(x, y, Math.round(60 * car.boost / 100), 6);
  }

  // The rectangles the sprites cover this frame (restored from the arena next frame).
  function spriteRects(core) {
    const out = [];
    for (const car of [core.player, core.cpu]) {
      out.push([Math.round(car.x - CAR_W / 2) - CAR_PAD, Math.round(car.y - CAR_H / 2) - CAR_PAD,
        CAR_W + 2 * CAR_PAD, CAR_H + 2 * CAR_PAD + 16]);
    }
    const s = 2 * (BALL_R + BALL_PAD);
    out.push([Math.round(core.ball.x) - s / 2, Math.round(core.ball.y) - s / 2, s, s]);
    return out;
  }

  function drawSprites(core) {
    const b = ballImage();
    ctx.drawImage(carImage(COLORS.cpu, core.cpu.facing), Math.round(core.cpu.x - CAR_W / 2) - CAR_PAD,
      Math.round(core.cpu.y - CAR_H / 2) - CAR_PAD);
    ctx.drawImage(carImage(COLORS.player, core.player.facing), Math.round(core.player.x - CAR_W / 2) - CAR_PAD,
      Math.round(core.player.y - CAR_H / 2) - CAR_PAD);
    ctx.drawImage(b, Math.round(core.ball.x) - b.width / 2, Math.round(core.ball.y) - b.height / 2);
    drawBoostBar(core.player);
  }

  function hudLines(core) {
    return {
      centre: "Goals " + core.goalsFor,
      right: "CPU goals " + core.goalsAgainst + "   Boost " + Math.floor(core.player.boost),
    };
  }

  function drawHud(core) {
    const img = arenaLayer();
    ctx.drawImage(img, 0, 0, W, HUD_H, 0, 0, W, HUD_H);
    const t = hudLines(core);
    outlinedText(ctx, "Rocket League 2D", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    outlinedText(ctx, "Level " + core.level, 300, HUD_H / 2 + 1, "20px sans-serif", "left");
    outlinedText(ctx, t.centre, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    outlinedText(ctx, t.right, W - 20, HUD_H / 2, "20px sans-serif", "right");
  }

  function bannerText(core) {
    if (core.phase !== "kickoff") return "";
    if (core.lastScorer === "player") return "GOAL!  Kickoff";
    if (core.lastScorer === "cpu") return "CPU scored  \u2013  Kickoff";
    return "Kickoff";
  }
  const BANNER_RECT = [340, 180, 600, 70];

  function drawBanner(text) {
    if (!text) return;
    ctx.fillStyle = "rgba(0,0,0,0.5)";
    ctx.fillRect(...BANNER_RECT);
    outlinedText(ctx, text, W / 2, BANNER_RECT[1] + BANNER_RECT[3] / 2, "bold 36px sans-serif", "center");
  }

  // What is on screen; a frame repaints only the rectangles that changed.
  let drawn = null;

  function renderFull(core) {
    ctx.drawImage(arenaLayer(), 0, 0);
    if (!core) {
      drawn = null;
      return;
    }
    drawHud(core);
    drawSprites(core);
    const banner = bannerText(core);
    drawBanner(banner);
    drawn = { core, rects: spriteRects(core), hud: JSON.stringify(hudLines(core)), banner, key: viewKey(core) };
  }

  function viewKey(core) {
    const r = (v) => Math.round(v);
    const p = core.player;
    const c = core.cpu;
    return [r(p.x), r(p.y), p.facing, Math.floor(p.boost), p.boosting, r(c.x), r(c.y), c.facing,
      r(core.ball.x), r(core.ball.y)].join(" ");
  }

  function render(core) {
    if (!core || !drawn || drawn.core !== core) {
      renderFull(core);
      return;
    }
    const banner = bannerText(core);
    if (banner !== drawn.banner) {
      renderFull(core);
      return;
    }
    const key = viewKey(core);
    if (key !== drawn.key) {
      const img = arenaLayer();
      for (const [x, y, w, h] of drawn.rects) {
        const x0 = Math.max(0, x);
        const y0 = Math.max(HUD_H, y);
        const x1 = Math.min(W, x + w);
        const y1 = Math.min(H, y + h);
        if (x1 > x0 && y1 > y0) ctx.drawImage(img, x0, y0, x1 - x0, y1 - y0, x0, y0, x1 - x0, y1 - y0);
      }
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, HUD_H, W, H - HUD_H);
      ctx.clip();
      drawSprites(core);
      ctx.restore();
      drawn.rects = spriteRects(core);
      drawn.key = key;
    }
    const hud = JSON.stringify(hudLines(core));
    if (hud !== drawn.hud) {
      drawHud(core);
      drawn.hud = hud;
    }
  }

  // ----------------------------------------------------------- 4. browser shell
  const Shell = window.GameShell;
  let core = null;
  const keys = Shell.keyboard({ keys: ["a", "d", "w", " "] });

  // This tick's edges; a key pressed and released between two ticks still
  // yields its edge and counts as held for that tick.
  function takeInput() {
    const { pressed, down } = keys.take();
    for (const k of pressed) down.add(k);
    return { pressed, held: down };
  }

  // Fixed 1/60 s ticks from the frames' timestamps (virtual under the harness);
  // a frame repaints only what changed (render's dirty rectangles).
  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const input = takeInput();
      if (core) core.tick(input);
    },
    render() {
      render(core);
    },
  });

  function pickLevel(l) {
    if (l !== undefined && l !== null && Number(l) !== 1) console.warn(GAME_ID + " has only level 1; got " + l);
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed) {
      keys.clear();
      core = createCore(seed, 1);
      renderFull(core);              // the first screenshot is already current
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
      if (!core) {
        return {
          gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: 0, status: "loading",
          terminal: { isTerminal: false, outcome: null, reason: null },
          game_state: { score: 0, level: 1, completion_progress: 0, phase: "kickoff", player: { x: 0, y: 0, alive: true } },
          metrics: { primary_score: 0, goals_against: 0, distance_to_goal: 0, touches: 0, attempts: 0 },
          raw: {},
        };
      }
      const s = core.snapshot();
      s.metrics.attempts = ep.attempts;
      // Date.now() is the harness's virtual clock, so this stays deterministic.
      return {
        gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: s.gameTimeMs,
        status: s.status, terminal: s.terminal, game_state: s.game_state, metrics: s.metrics, raw: s.raw,
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => renderFull(null), loop });
})();
