// Cubefield for pytest-gameworld.
//
// A pure simulation core (createCore) in world units (u), a perspective
// renderer on the 2D canvas, a keyboard queue, one requestAnimationFrame loop
// with fixed 1/60 s ticks, and window.gameAPI. The oracle clones the core
// through window.__gwCore to look ahead; nothing else is exposed.
(function () {
  "use strict";

  const GAME_ID = "09-cubefield";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 09). x = lateral (right positive), z = depth.
  //
  // Departures, all for the step-granularity rule (docs/games.md 1.9): a 0.2 s
  // press slides the ship ~2.3 u, so the guaranteed corridor is ±1.6 u wide
  // (spec ±0.8, narrower than one press) and moves at most 0.5 u per 2.5 u of
  // depth (spec 1 u: at 50 u/s that is 20 u/s sideways, beyond the 9 u/s
  // strafe). It does not wander, though: it holds, then shifts 3.5..5.5 u to one
  // side behind a wall with one gap, so that pressing left and right in turn
  // (weaving in place, the spec's slow drift let it survive) meets the first
  // wall. Cube cells are 2 u wide, so density is the share of 2x1 u cells
  // holding a cube. The flight starts `ready` (first arrow press), like 04/07/13,
  // so that waiting alone never scores.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const SPEED0 = 25;              // u/s forward at the start
  const SPEED_GAIN = 1;           // u/s per second
  const SPEED_MAX = 50;
  const STRAFE = 9;               // u/s lateral
  const STRAFE_ACC = STRAFE / 0.05;   // reaches full strafe in 0.05 s
  const STRAFE_DEC = STRAFE / 0.1;    // stops 0.1 s after release

  const SHIP_HALF_W = 0.3;        // ship 0.6 u wide ...
  const SHIP_HALF_L = 0.3;        // ... and 0.6 u long
  const CUBE_HALF = 0.5;

  const CELL_X = 2;               // lateral cell width (one cube per cell at most)
  const JITTER = 0.45;            // cube offset inside its cell, ±
  const FIRST_ROW = 18;           // first cube row (u ahead of the start)
  const DENSITY0 = 0.22;          // spec 0.10 -> 0.22: the field starts dense
  const DENSITY1 = 0.28;          // (random steering met too few cubes early on)
  const DENSITY_RAMP_Z = 1200;    // depth flown in 30 s (25 t + t^2 / 2)

  const BAND = 2.5;               // corridor knot spacing (u of depth)
  const CORRIDOR_HALF = 1.6;
  const CORRIDOR_SPAN = 14;       // a shift that would leave |x| <= 14 u goes the other way
  // The corridor holds straight, then shifts sideways by 3.5..5.5 u, then holds
  // again, and so on (the original's walls of cubes with one gap): weaving in
  // place (left, right, left ...) covers only ~2 u and meets the first shift.
  // A shift ramps at 0.5 u per knot (0.2 u per u of depth: 8 u/s sideways at
  // the top speed of 40 u/s at 15 s, under the 9 u/s strafe), so one or two
  // presses started at the right moment follow it.
  const FIRST_HOLD = 8;           // knots (20 u) straight ahead; the cubes begin at 18 u
  const HOLD_MIN = 2;             // knots held between shifts (5 u: room for the wall)
  const HOLD_MAX = 5;
  const SHIFT_MIN = 3.5;          // beyond a weave's reach either way
  const SHIFT_MAX = 5.5;
  const RAMP_RATE = 0.5;          // u of shift per knot
  // Where a shift ends, two staggered rows of cubes (offset -0.5 / +0.5 u in
  // their cells) wall the whole plain off but for the corridor's gap: with a
  // cube in every 2 u cell, one row alone leaves 1 u slits the ship fits.
  const WALL_OFFSET = 0.5;

  // Score(t) = 1700 t + 331 t^2 (docs/games.md: 4000 t + 125 t^2): the same
  // 100 000 a little sooner (15.0 s, so the oracle needs under 80 steps), while
  // 10 000 takes 3.5 s instead of 2.4 s, past the first rows of cubes: with the
  // spec's curve a flight that pressed arrows at random reached 10 000 in most
  // runs. Targets fall at 3.5 / 5.6 / 8.0 / 11.1 / 15.0 s.
  const SCORE_A = 1700;
  const SCORE_B = 331;
  const SCORE_PHASE = 25000;      // sky colour phase
  const AHEAD_RANGE = 30;
  const AHEAD_MAX = 30;
  const FULL_PROGRESS_SCORE = 100000;

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------

  // FNV-1a over the parts joined by "|" and mulberry32 on {s} (catalog/games/_shell): stable across hosts,
  // no Math.random.
  const { fnv32: hash32, makeRng, nextRandom: rngNext } = window.GameShell;

  // Integer mix of (base, i, j) -> [0, 1): the cube in cell (i, j) is a pure
  // function of its indices, so the field never depends on frame timing.
  function cellRand(base, i, j, salt) {
    let h = (base ^ Math.imul(i | 0, 0x9e3779b1) ^ Math.imul(j | 0, 0x85ebca77) ^ Math.imul(salt, 0xc2b2ae3d)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  }

  // ---------------------------------------------------------------------------
  // Field: the guaranteed corridor (holds and shifts drawn knot by knot from
  // one stream, so it does not depend on which depth is asked first), its
  // walls and the cubes (hashed per cell). A field is a pure function of
  // (seed, level), so clones of a core share it.
  // ---------------------------------------------------------------------------
  function createField(seed, level) {
    return {
      base: hash32(GAME_ID, seed, level),
      rng: makeRng(hash32(GAME_ID, seed, level, "corridor")),
      knots: [0],                 // corridor centre x at z = k * BAND
      hold: FIRST_HOLD,           // knots still to hold
      ramp: 0,                    // knots still to shift, by `step` each
      step: 0,
      walls: new Map(),           // wall row j -> cube offset in its cells
    };
  }

  function extendCorridor(field) {
    let c = field.knots[field.knots.length - 1];
    if (field.hold > 0) {
      field.hold--;
      field.knots.push(c);
      return;
    }
    if (field.ramp === 0) {
      let dir = rngNext(field.rng) < 0.5 ? -1 : 1;
      const shift = SHIFT_MIN + rngNext(field.rng) * (SHIFT_MAX - SHIFT_MIN);
      if (Math.abs(c + dir * shift) > CORRIDOR_SPAN) dir = -dir;
      field.ramp = Math.ceil(shift / RAMP_RATE);
      field.step = dir * shift / field.ramp;
    }
    c += field.step;
    field.knots.push(c);
    field.ramp--;
    if (field.ramp === 0) {
      // The wall stands 1-3 u past the shift's end, inside the hold (>= 5 u).
      const j = Math.ceil((field.knots.length - 1) * BAND) + 1;
      field.walls.set(j, -WALL_OFFSET);
      field.walls.set(j + 1, WALL_OFFSET);
      field.hold = HOLD_MIN + Math.floor(rngNext(field.rng) * (HOLD_MAX - HOLD_MIN + 1));
    }
  }

  function corridorAt(field, z) {
    const f = Math.max(0, z) / BAND;
    const k = Math.floor(f);
    while (field.knots.length <= k + 1) extendCorridor(field);
    const a = field.knots[k];
    return a + (field.knots[k + 1] - a) * (f - k);
  }

  function densityAt(z) {
    return DENSITY0 + (DENSITY1 - DENSITY0) * Math.min(1, Math.max(0, z) / DENSITY_RAMP_Z);
  }

  // Cube centre x of cell (i, row j), or NaN when the cell is empty. The cube
  // spans z in [j, j + 1].
  function cubeX(field, i, j) {
    if (j < FIRST_ROW) return NaN;
    // Clear the corridor: the corridor is linear between knots (every 2.5 u),
    // so its range over [j, j + 1] is spanned by these three samples. Drawn
    // first: it also lays the walls down to row j.
    const c0 = corridorAt(field, j);
    const c1 = corridorAt(field, j + 0.5);
    const c2 = corridorAt(field, j + 1);
    const wall = field.walls.get(j);
    let x;
    if (wall !== undefined) x = i * CELL_X + wall;
    else if (cellRand(field.base, i, j, 1) >= densityAt(j)) return NaN;
    else x = i * CELL_X + (cellRand(field.base, i, j, 2) * 2 - 1) * JITTER;
    const lo = Math.min(c0, c1, c2) - CORRIDOR_HALF;
    const hi = Math.max(c0, c1, c2) + CORRIDOR_HALF;
    if (x + CUBE_HALF > lo && x - CUBE_HALF < hi) return NaN;
    return x;
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------
  function Core() {}

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    core.field = createField(seed, level);
    // Runtime stream (docs/games.md 1.5): Cubefield has no runtime events; kept
    // separate so adding any could never shift the field.
    core.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    core.status = "ready";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.x = 0;
    core.vx = 0;
    core.z = 0;
    core.speed = SPEED0;
    core.score = 0;
    core.dodges = 0;
    core.rowsPassed = 0;          // rows with j + 1 below the ship's tail
    core.hit = null;              // {x, z} of the fatal cube
    return core;
  }

  Core.prototype.timeS = function () {
    return this.playTicks / TICK_HZ;
  };

  // input = {left: bool, right: bool}: keys held this tick (a tap counts).
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status === "terminal") return;
    const left = !!(input && input.left);
    const right = !!(input && input.right);
    if (this.status === "ready") {
      if (!left && !right) return;    // frozen until the first arrow press
      this.status = "playing";
    }
    this.playTicks++;
    const t = this.timeS();
    this.speed = Math.min(SPEED0 + SPEED_GAIN * t, SPEED_MAX);
    const target = (right ? STRAFE : 0) - (left ? STRAFE : 0);
    const rate = target === 0 ? STRAFE_DEC : STRAFE_ACC;
    if (this.vx < target) this.vx = Math.min(target, this.vx + rate * DT);
    else if (this.vx > target) this.vx = Math.max(target, this.vx - rate * DT);
    this.x += this.vx * DT;
    this.z += this.speed * DT;
    this.score = Math.floor(SCORE_A * t + SCORE_B * t * t);
    this.countDodges();
    this.checkCollision();
  };

  Core.prototype.countDodges = function () {
    const tail = this.z - SHIP_HALF_L;
    while (this.rowsPassed + 1 <= tail) {
      const j = this.rowsPassed;
      const i0 = Math.floor((this.x - 2) / CELL_X) - 1;
      const i1 = Math.ceil((this.x + 2) / CELL_X) + 1;
      for (let i = i0; i <= i1; i++) {
        const cx = cubeX(this.field, i, j);
        if (cx === cx && Math.abs(cx - this.x) < 2) this.dodges++;
      }
      this.rowsPassed++;
    }
  };

  // Signed clearance to the nearest cube overlapping the ship's depth span,
  // laterally (u, gap between boxes); negative means a hit. `reach` widens the
  // depth window so the oracle can look at cubes just ahead.
  Core.prototype.clearance = function (reach) {
    const zLo = this.z - SHIP_HALF_L - CUBE_HALF * 2;
    const zHi = this.z + SHIP_HALF_L + reach;
    let best = 99;
    const i0 = Math.floor((this.x - 4) / CELL_X) - 1;
    const i1 = Math.ceil((this.x + 4) / CELL_X) + 1;
    for (let j = Math.max(FIRST_ROW, Math.floor(zLo) + 1); j < zHi; j++) {
      for (let i = i0; i <= i1; i++) {
        const cx = cubeX(this.field, i, j);
        if (cx !== cx) continue;
        const gap = Math.abs(cx - this.x) - CUBE_HALF - SHIP_HALF_W;
        if (gap < best) best = gap;
      }
    }
    return best;
  };

  Core.prototype.checkCollision = function () {
    const j0 = Math.floor(this.z - SHIP_HALF_L - 1) + 1;
    const j1 = Math.floor(this.z + SHIP_HALF_L);
    const i0 = Math.floor((this.x - 1.5) / CELL_X) - 1;
    const i1 = Math.ceil((this.x + 1.5) / CELL_X) + 1;
    for (let j = Math.max(FIRST_ROW, j0); j <= j1; j++) {
      // the cube spans [j, j + 1]; the ship [z - 0.3, z + 0.3]
      if (j + 1 <= this.z - SHIP_HALF_L || j >= this.z + SHIP_HALF_L) continue;
      for (let i = i0; i <= i1; i++) {
        const cx = cubeX(this.field, i, j);
        if (cx === cx && Math.abs(cx - this.x) < CUBE_HALF + SHIP_HALF_W) {
          this.status = "terminal";
          this.outcome = "fail";
          this.reason = "collision";
          this.hit = { x: cx, z: j + 0.5 };
          return;
        }
      }
    }
  };

  Core.prototype.corridorX = function (z) {
    return corridorAt(this.field, z);
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);       // the field is shared: it is a pure function of the seed
    c.runtimeRng = { s: this.runtimeRng.s };
    c.hit = this.hit ? { x: this.hit.x, z: this.hit.z } : null;
    return c;
  };

  // Nearest cubes ahead (within AHEAD_RANGE u), relative to the ship.
  Core.prototype.cubesAhead = function () {
    const out = [];
    const j0 = Math.max(FIRST_ROW, Math.floor(this.z - SHIP_HALF_L));
    const half = 12;
    const i0 = Math.floor((this.x - half) / CELL_X);
    const i1 = Math.ceil((this.x + half) / CELL_X);
    for (let j = j0; j < this.z + AHEAD_RANGE; j++) {
      for (let i = i0; i <= i1; i++) {
        const cx = cubeX(this.field, i, j);
        if (cx !== cx) continue;
        const dx = cx - this.x;
        const dz = j + 0.5 - this.z;
        out.push({ x: Math.round(dx * 100) / 100, z: Math.round(dz * 100) / 100, d: dx * dx + dz * dz });
      }
    }
    out.sort((a, b) => a.d - b.d);
    return out.slice(0, AHEAD_MAX).map((c) => ({ x: c.x, z: c.z }));
  };

  Core.prototype.snapshot = function () {
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    const t = this.timeS();
    return {
      status: this.status,
      terminal: {
        isTerminal: this.status === "terminal",
        outcome: this.outcome,
        reason: this.reason,
      },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score,
      level: this.level,
      progress: Math.min(1, this.score / FULL_PROGRESS_SCORE),
      player: {
        x: Math.round(this.x * 1000) / 1000,
        z: Math.round(this.z * 1000) / 1000,
        vx: Math.round(this.vx * 1000) / 1000,
        speed: Math.round(this.speed * 1000) / 1000,
        alive: alive,
      },
      cubes_ahead: this.cubesAhead(),
      distance: Math.round(this.z * 1000) / 1000,
      time_s: Math.round(t * 1000) / 1000,
      dodges: this.dodges,
      corridor_x: Math.round(this.corridorX(this.z) * 1000) / 1000,
      ticks: this.totalTicks,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events queue up and are consumed at the start of each tick, so
  // a press and release between two ticks still counts as held for one tick.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts a new flight.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // The keys held as the tick starts, and every key that went down since (released or not).
  function consumeInput() {
    const held = new Set(keys.held);
    for (const ev of keys.drain()) {
      if (ev.down) {
        keys.held.add(ev.key);
        held.add(ev.key);       // a tap counts as held for this tick
      } else {
        keys.held.delete(ev.key);
      }
    }
    return held;
  }

  // ---------------------------------------------------------------------------
  // Renderer: camera 1.2 u high, 3 u behind the ship, horizon at y = 260.
  // Only cells inside the view frustum and within 60 u are visited; rows are
  // drawn far to near, each row from the outside in, so nearer faces win.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas backdrop copy: the
  // browser can then drop earlier frames' draw calls instead of rasterising
  // them all at the next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const HORIZON = 260;
  const FOCAL = 700;              // px per u at 1 u of depth
  const CAM_H = 1.2;
  const CAM_BACK = 3;
  const VIEW_DEPTH = 60;
  const NEAR = 0.6;               // faces nearer than this are not drawn
  const TOP_DEPTH = 14;           // top faces drawn only nearer than this
  const SIDE_DEPTH = 35;          // side faces drawn only nearer than this

  const GROUND = "#D5D6D2";
  const GROUND_LINE = "#C2C4BE";
  // Cube faces fade toward the horizon haze in FOG_STEPS steps.
  const FOG_STEPS = 6;
  const FOG = [213, 214, 210];
  const FACE_BASE = { front: [240, 112, 32], top: [255, 160, 80], side: [178, 70, 18] };
  const FACES = { front: [], top: [], side: [] };
  for (const name of Object.keys(FACE_BASE)) {
    for (let s = 0; s < FOG_STEPS; s++) {
      const a = s / FOG_STEPS * 0.75;
      const rgb = FACE_BASE[name].map((v, k) => Math.round(v + (FOG[k] - v) * a));
      FACES[name].push("rgb(" + rgb.join(",") + ")");
    }
  }
  const SKY_PHASES = [
    ["#8A9BA8", "#E3E6E8"],
    ["#6B5B7A", "#E2D3DC"],
    ["#4F6B6A", "#D9E4E0"],
    ["#9A8468", "#EFE4D2"],
  ];

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

  // Sky + ground per colour phase, painted once into an offscreen canvas.
  const backdrops = [];
  function backdrop(phase) {
    if (backdrops[phase]) return backdrops[phase];
    const b = document.createElement("canvas");
    b.width = W;
    b.height = H;
    const g = b.getContext("2d");
    const grad = g.createLinearGradient(0, 0, 0, HORIZON);
    grad.addColorStop(0, SKY_PHASES[phase][0]);
    grad.addColorStop(1, SKY_PHASES[phase][1]);
    g.fillStyle = grad;
    g.fillRect(0, 0, W, HORIZON);
    g.fillStyle = GROUND;
    g.fillRect(0, HORIZON, W, H - HORIZON);
    const haze = g.createLinearGradient(0, HORIZON, 0, HORIZON + 40);
    haze.addColorStop(0, "rgba(235,236,232,0.9)");
    haze.addColorStop(1, "rgba(235,236,232,0)");
    g.fillStyle = haze;
    g.fillRect(0, HORIZON, W, 40);
    backdrops[phase] = b;
    return b;
  }

  // Cross lines on the ground every 4 u, so forward motion is visible.
  function drawGroundLines(camZ) {
    ctx.fillStyle = GROUND_LINE;
    const first = Math.ceil((camZ + 2) / 4) * 4;
    for (let z = first; z < camZ + VIEW_DEPTH; z += 4) {
      const dz = z - camZ;
      const y = HORIZON + CAM_H * FOCAL / dz;
      ctx.fillRect(0, y, W, Math.max(1, 24 / dz));
    }
  }

  function drawCube(cx, j, camX, camZ) {
    const zn = j - camZ;            // near face depth
    if (zn < NEAR) return;
    const zf = zn + 1;
    const sn = FOCAL / zn;
    const sf = FOCAL / zf;
    const xl = cx - CUBE_HALF - camX;
    const xr = cx + CUBE_HALF - camX;
    const nxl = W / 2 + xl * sn, nxr = W / 2 + xr * sn;
    const nyt = HORIZON + (CAM_H - 1) * sn, nyb = HORIZON + CAM_H * sn;
    const fxl = W / 2 + xl * sf, fxr = W / 2 + xr * sf;
    const fyt = HORIZON + (CAM_H - 1) * sf, fyb = HORIZON + CAM_H * sf;
    if (nxr < 0 || nxl > W) return;
    const fog = Math.min(FOG_STEPS - 1, Math.floor(zn / VIEW_DEPTH * FOG_STEPS));
    // top face (the camera is above the cube); under a pixel thick beyond TOP_DEPTH
    if (zn < TOP_DEPTH) {
      ctx.fillStyle = FACES.top[fog];
      ctx.beginPath();
      ctx.moveTo(nxl, nyt); ctx.lineTo(nxr, nyt); ctx.lineTo(fxr, fyt); ctx.lineTo(fxl, fyt);
      ctx.fill();
    }
    // the side facing the camera, if any (a sliver beyond SIDE_DEPTH)
    if ((xl > 0 || xr < 0) && zn < SIDE_DEPTH) {
      const near = xl > 0 ? nxl : nxr;
      const far = xl > 0 ? fxl : fxr;
      ctx.fillStyle = FACES.side[fog];
      ctx.beginPath();
      ctx.moveTo(near, nyt); ctx.lineTo(far, fyt); ctx.lineTo(far, fyb); ctx.lineTo(near, nyb);
      ctx.fill();
    }
    ctx.fillStyle = FACES.front[fog];
    ctx.fillRect(nxl, nyt, nxr - nxl, nyb - nyt);
  }

  function drawField(c) {
    const camX = c.x;
    const camZ = c.z - CAM_BACK;
    drawGroundLines(camZ);
    const jFar = Math.floor(camZ + VIEW_DEPTH);
    const jNear = Math.max(FIRST_ROW, Math.ceil(camZ + NEAR));
    const row = [];
    for (let j = jFar; j >= jNear; j--) {
      const zn = j - camZ;
      const halfW = (W / 2) * zn / FOCAL + 1;   // visible half-width at the near face
      const i0 = Math.floor((camX - halfW) / CELL_X);
      const i1 = Math.ceil((camX + halfW) / CELL_X);
      row.length = 0;
      for (let i = i0; i <= i1; i++) {
        const cx = cubeX(c.field, i, j);
        if (cx === cx) row.push(cx);
      }
      if (zn >= SIDE_DEPTH) {
        // far rows are front faces only: one path per row
        const sn = FOCAL / zn;
        const fog = Math.min(FOG_STEPS - 1, Math.floor(zn / VIEW_DEPTH * FOG_STEPS));
        ctx.beginPath();
        for (const cx of row) {
          const xl = W / 2 + (cx - CUBE_HALF - camX) * sn;
          ctx.rect(xl, HORIZON + (CAM_H - 1) * sn, sn, sn);
        }
        ctx.fillStyle = FACES.front[fog];
        ctx.fill();
        continue;
      }
      // outside in: cubes nearer the view axis cover their neighbours' sides
      row.sort((a, b) => Math.abs(b - camX) - Math.abs(a - camX));
      for (const cx of row) drawCube(cx, j, camX, camZ);
    }
  }

  function drawShip(c) {
    const zTail = CAM_BACK - SHIP_HALF_L;
    const zTip = CAM_BACK + SHIP_HALF_L;
    const yTail = HORIZON + (CAM_H - 0.05) * FOCAL / zTail;
    const yTip = HORIZON + (CAM_H - 0.05) * FOCAL / zTip;
    const half = SHIP_HALF_W * FOCAL / zTail;
    const bank = -c.vx / STRAFE * 0.35;
    const cy = (yTail + yTip) / 2;
    // shadow on the ground
    ctx.fillStyle = "rgba(0,0,0,0.18)";
    ctx.beginPath();
    ctx.ellipse(W / 2, HORIZON + CAM_H * FOCAL / CAM_BACK, half, 10, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.save();
    ctx.translate(W / 2, cy - 12);
    ctx.rotate(bank);
    ctx.beginPath();
    ctx.moveTo(0, yTip - cy);
    ctx.lineTo(half, yTail - cy);
    ctx.lineTo(0, yTail - cy - 8);
    ctx.lineTo(-half, yTail - cy);
    ctx.closePath();
    ctx.fillStyle = "#1F2630";
    ctx.fill();
    ctx.lineJoin = "round";
    ctx.lineWidth = 5;
    ctx.strokeStyle = "#FFFFFF";
    ctx.stroke();
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#2D7DF6";
    ctx.stroke();
    ctx.restore();
  }

  function drawHud(c) {
    ctx.fillStyle = "rgba(0,0,0,0.55)";
    ctx.fillRect(0, 0, W, HUD_H);
    textOutlined("Cubefield", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined("Score " + c.score, W / 2, HUD_H / 2, "bold 32px sans-serif", "center");
    textOutlined("Speed " + Math.round(c.speed) + " u/s   Attempt " + ep.attempts, W - 20, HUD_H / 2, "20px sans-serif", "right");
  }

  function drawPanel(lines) {
    const pw = 600;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => textOutlined(ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function drawOverlay(c) {
    if (c.status === "ready") {
      textOutlined("PRESS AN ARROW KEY TO START", W / 2, 160, "bold 36px sans-serif", "center");
    } else if (c.status === "terminal") {
      drawPanel([
        { text: "GAME OVER \u2013 " + c.reason, font: "bold 36px sans-serif" },
        { text: "Score " + c.score, font: "bold 28px sans-serif" },
        { text: "Press Enter to fly again", font: "20px sans-serif" },
      ]);
    }
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    const phase = Math.floor(core.score / SCORE_PHASE) % SKY_PHASES.length;
    ctx.drawImage(backdrop(phase), 0, 0);
    drawField(core);
    drawShip(core);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let dirty = true;

  function runTick() {
    const held = consumeInput();
    if (!core || core.status === "terminal") return;   // input ignored until reset
    const before = core.status;
    core.tick({ left: held.has("ArrowLeft"), right: held.has("ArrowRight") });
    if (core.status !== "ready" || before !== "ready") dirty = true;
  }

  // Only the frames the harness can photograph are drawn (every step ends on a multiple of 50 ms:
  // Shell.frameCanBeSeen); a frozen `ready` or terminal world needs no redraw; a backlog is dropped.
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
  // No levels: every episode is level 1.
  const ep = Shell.episodes({
    pickLevel: () => 1,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render();
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
      const player = s ? s.player : { x: 0, z: 0, vx: 0, speed: SPEED0, alive: true };
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),  // the harness's virtual clock
        gameTimeMs: s ? s.gameTimeMs : 0,
        status: s ? s.status : "loading",
        terminal: s ? s.terminal : { isTerminal: false, outcome: null, reason: null },
        game_state: {
          score: s ? s.score : 0,
          level: ep.level,
          progress: s ? s.progress : 0,
          completion_progress: s ? s.progress : 0,
          player: player,
          cubes_ahead: s ? s.cubes_ahead : [],
        },
        metrics: {
          primary_score: s ? s.score : 0,
          distance: s ? s.distance : 0,
          time_s: s ? s.time_s : 0,
          dodges: s ? s.dodges : 0,
          attempts: ep.attempts,
          deaths: s && !player.alive ? 1 : 0,
        },
        raw: {
          ticks: s ? s.ticks : 0,
          corridor_x: s ? s.corridor_x : 0,
          corridor_half_width: CORRIDOR_HALF,
          cube_size: 1,
          ship_width: SHIP_HALF_W * 2,
        },
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
