// Run 3 for pytest-gameworld.
//
// A pure simulation core (createCore) in metres and a perspective renderer of
// the tunnel on the 2D canvas; the keyboard queue, the fixed 1/60 s tick loop,
// episodes and window.gameAPI's mounting come from the shared shell
// (catalog/games/_shell). The oracle clones the core through window.__gwCore
// to look ahead; nothing else is exposed.
(function () {
  "use strict";

  const GAME_ID = "26-run-3";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 26).
  //
  // The ring: 4 walls x 5 lanes = 20 lanes; the runner's lateral position `s`
  // runs round the ring in metres (0..20), its floor is wall floor(s / 5), so
  // stepping past a floor's edge makes the next wall the floor by itself.
  // Rows are 2 m deep; row r spans z in [2r, 2r + 2).
  //
  // Departures, for the step-granularity rule (docs/games.md 1.9): the guaranteed
  // route changes lane at most once per 8 rows (spec 2: at 32 m/s one 0.2 s
  // strafe covers 3 rows) and keeps both lanes solid for 4 rows around each
  // change; its holes are 1-2 rows long (spec <= 3) and at least 14 rows apart, so
  // a landing never falls just short of the next one. With no arrow held the
  // runner settles to its lane centre at 2 m/s, so 0.2 s presses stay one
  // lane each however the step's ticks fall. The run starts `ready` (first
  // key press), like 04/07/13, so that waiting alone never scores.
  //
  // The opening, like the first metres of an original Run 3 level, asks for
  // both moves before the free run: the start lane ends (the route turns one
  // lane left or right, seeded, at OPEN_TURN_ROW and the lane it leaves is a
  // hole for OPEN_WALL_ROWS, 16 m, more than any jump's 12-13 m), then the
  // whole ring is missing for one row at OPEN_GAP_ROW (20 m), to be jumped.
  // Holding one button fails there: jump alone lands in the ended lane,
  // sidesteps alone run into the ring gap. The rest of the first 30 m stays
  // solid. Take-off window for the gap: 9.6-20 m, 0.5 s, 2.7 short steps.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const LANES_PER_WALL = 5;
  const WALLS = 4;
  const RING = LANES_PER_WALL * WALLS;     // 20 lanes, 1 m each
  const ROW_M = 2;

  const SPEED0 = 18;
  const SPEED_GAIN = 0.6;
  const SPEED_MAX = 32;
  const STRAFE = 5;
  const SETTLE = 2;               // m/s toward the lane centre when no arrow is held
  const JUMP_VY = 6;
  const GRAVITY = 18;
  const FALL_TICKS = 30;          // 0.5 s falling before `fell`
  const ROLL_TICKS = 9;           // 0.15 s camera roll after a gravity switch

  const START_ROWS = 15;          // first 30 m solid but for the opening
  const CHUNK_ROWS = 20;
  const HOLE_P0 = 0.15;
  const HOLE_P1 = 0.55;
  const HOLE_RAMP_M = 600;
  const ROUTE_CHANGE_GAP = 8;     // rows between route lane changes (> 2 overlaps)
  const ROUTE_OVERLAP = 4;        // rows both lanes stay solid around a change
  const ROUTE_HOLE_GAP = 14;      // solid rows between route holes (28 m > one jump)
  const HOLE_AFTER_CHANGE = 8;    // rows from a lane change to the next route hole
  const CHANGE_AFTER_HOLE = 10;   // rows from a route hole to the next lane change
  const START_LANE = 2;           // middle lane of wall 0
  const OPEN_TURN_ROW = 2;        // 4 m: the route leaves the start lane
  const OPEN_WALL_ROWS = 8;       // the start lane's hole after the overlap: rows 6-13, 12-28 m
  const OPEN_GAP_ROW = 10;        // 20 m: one row missing round the whole ring

  const AHEAD_ROWS = 20;
  const FULL_PROGRESS_M = 600;

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------
  // FNV-1a over the parts joined by "|" and mulberry32 on {s} (catalog/games/_shell).
  const Shell = window.GameShell;
  const { fnv32: hash32, makeRng, nextRandom: rngNext } = Shell;

  // The tunnel's holes: a hash of the cell, not a stream, so any row can be
  // read in any order.
  function cellRand(base, i, j) {
    let h = (base ^ Math.imul(i | 0, 0x9e3779b1) ^ Math.imul(j | 0, 0x85ebca77)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  }

  function mod(a, n) {
    return ((a % n) + n) % n;
  }

  // ---------------------------------------------------------------------------
  // Tunnel: the guaranteed route, one 20-row chunk at a time with
  // deterministic retry, plus hashed holes elsewhere. A pure function of
  // (seed, level), so clones of a core share it.
  // ---------------------------------------------------------------------------
  function createTunnel(seed, level) {
    return {
      base: hash32(GAME_ID, seed, level),
      routeSeed: hash32(GAME_ID, seed, level, "route"),
      lane: [],        // route lane per row
      lane2: [],       // second solid route lane around a change, or -1
      hole: [],        // route hole at this row
      wall: [],        // the opening: the ended start lane at this row, or -1
      ring: [],        // the opening: the whole ring missing at this row
      walk: { lane: START_LANE, sinceChange: 0, sinceHole: 0 },
    };
  }

  // One chunk of route rows. A chunk past the start must hold at least one
  // route hole (so every chunk asks for a jump); retry sub-seeds until it does.
  function extendRoute(t, chunk) {
    for (let k = 0; ; k++) {
      const rng = makeRng(hash32(t.routeSeed, chunk, k));
      const w = Object.assign({}, t.walk);
      const lane = [], lane2 = [], hole = [];
      let holes = 0;
      let holeLeft = 0;
      for (let n = 0; n < CHUNK_ROWS; n++) {
        const r = chunk * CHUNK_ROWS + n;
        let l2 = -1;
        let isHole = false;
        if (r === OPEN_TURN_ROW) {
          w.lane = mod(w.lane + (rngNext(rng) < 0.5 ? -1 : 1), RING);
          w.sinceChange = 0;
        } else if (r === OPEN_GAP_ROW) {
          isHole = true;              // and the whole ring with it (tileAt)
        } else if (r >= START_ROWS) {
          if (holeLeft > 0) {
            isHole = true;
            holeLeft--;
          } else if (w.sinceHole >= ROUTE_HOLE_GAP && w.sinceChange >= HOLE_AFTER_CHANGE &&
                     n <= CHUNK_ROWS - 3 && rngNext(rng) < 0.3) {
            isHole = true;
            holeLeft = rngNext(rng) < 0.5 ? 1 : 0;     // holes of 1-2 rows
            holes++;
          } else if (w.sinceChange >= ROUTE_CHANGE_GAP && w.sinceHole >= CHANGE_AFTER_HOLE && rngNext(rng) < 0.35) {
            w.lane = mod(w.lane + (rngNext(rng) < 0.5 ? -1 : 1), RING);
            w.sinceChange = 0;
          }
        }
        if (isHole) w.sinceHole = 0; else w.sinceHole++;
        w.sinceChange++;
        lane.push(w.lane);
        lane2.push(l2);
        hole.push(isHole);
      }
      if (holes > 0 || chunk === 0 || k >= 30) {
        // the old lane stays solid for ROUTE_OVERLAP rows on both sides of a change
        const base = t.lane.length;
        for (let n = 0; n < CHUNK_ROWS; n++) {
          t.lane.push(lane[n]);
          t.lane2.push(lane2[n]);
          t.hole.push(hole[n]);
          const r = base + n;
          const walled = r >= OPEN_TURN_ROW + ROUTE_OVERLAP && r < OPEN_TURN_ROW + ROUTE_OVERLAP + OPEN_WALL_ROWS;
          t.wall.push(walled ? START_LANE : -1);
          t.ring.push(r === OPEN_GAP_ROW);
        }
        for (let r = Math.max(1, base - ROUTE_OVERLAP); r < t.lane.length; r++) {
          if (t.lane[r] !== t.lane[r - 1]) {
            for (let q = Math.max(0, r - ROUTE_OVERLAP); q < r; q++) if (!t.hole[q]) t.lane2[q] = t.lane[r];
            for (let q = r; q < Math.min(t.lane.length, r + ROUTE_OVERLAP); q++) if (!t.hole[q]) t.lane2[q] = t.lane[r - 1];
          }
        }
        t.walk = w;
        return;
      }
    }
  }

  function ensureRow(t, r) {
    while (t.lane.length <= r + ROUTE_OVERLAP) extendRoute(t, t.lane.length / CHUNK_ROWS);
  }

  function holeP(r) {
    return HOLE_P0 + (HOLE_P1 - HOLE_P0) * Math.min(1, (r * ROW_M) / HOLE_RAMP_M);
  }

  // Is there a tile at row r, ring lane l?
  function tileAt(t, r, l) {
    ensureRow(t, r);
    if (t.ring[r]) return false;
    l = mod(l, RING);
    if (l === t.lane[r] || l === t.lane2[r]) return !t.hole[r];
    if (l === t.wall[r]) return false;
    if (r < START_ROWS) return true;
    return cellRand(t.base, l, r) >= holeP(r);
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------
  function Core() {}

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    core.tunnel = createTunnel(seed, level);
    core.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));  // reserved
    core.status = "ready";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.runTicks = 0;            // ticks running (not falling): drives the speed
    core.s = START_LANE + 0.5;    // ring position (m)
    core.z = 0;
    core.h = 0;
    core.vy = 0;
    core.onGround = true;
    core.speed = SPEED0;
    core.falling = 0;             // ticks since the runner dropped into a hole
    core.floorWall = 0;
    core.rollFrom = 0;            // camera roll animation (cosmetic)
    core.rollTicks = 0;
    core.jumps = 0;
    core.switches = 0;
    return core;
  }

  Core.prototype.row = function () {
    return Math.floor(this.z / ROW_M);
  };

  Core.prototype.lane = function () {
    return mod(Math.floor(this.s), RING);
  };

  // input = {left, right: held; jump: pressed edge this tick}
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.rollTicks > 0) this.rollTicks--;
    if (this.status === "terminal") return;
    const left = !!(input && input.left);
    const right = !!(input && input.right);
    const jump = !!(input && input.jump);
    if (this.status === "ready") {
      if (!left && !right && !jump) return;   // frozen until the first key press
      this.status = "playing";
    }
    this.playTicks++;
    if (this.falling > 0) {
      this.falling++;
      this.vy -= GRAVITY * DT;
      this.h += this.vy * DT;
      if (this.falling > FALL_TICKS) {
        this.status = "terminal";
        this.outcome = "fail";
        this.reason = "fell";
      }
      return;
    }
    this.runTicks++;
    this.speed = Math.min(SPEED0 + SPEED_GAIN * this.runTicks / TICK_HZ, SPEED_MAX);
    this.z += this.speed * DT;

    // lateral: strafe while held, otherwise settle to the lane centre
    const dir = (right ? 1 : 0) - (left ? 1 : 0);
    if (dir !== 0) {
      this.s += dir * STRAFE * DT;
    } else {
      const centre = Math.floor(this.s) + 0.5;
      const d = centre - this.s;
      const stepMax = SETTLE * DT;
      this.s += Math.abs(d) <= stepMax ? d : Math.sign(d) * stepMax;
    }
    this.s = mod(this.s, RING);
    const wall = Math.floor(this.s / LANES_PER_WALL);
    if (wall !== this.floorWall) {
      this.rollFrom = this.rollAngle();
      this.rollTicks = ROLL_TICKS;
      this.floorWall = wall;
      this.switches++;
    }

    // vertical
    // No jump buffer: a press in the air does nothing, so whether a jump
    // happens never hangs on the exact tick a step ends.
    if (jump && this.onGround) {
      this.onGround = false;
      this.vy = JUMP_VY;
      this.jumps++;
    }
    if (!this.onGround) {
      this.vy -= GRAVITY * DT;
      this.h += this.vy * DT;
      if (this.h <= 0) {
        this.h = 0;
        this.vy = 0;
        this.onGround = true;
      }
    }
    if (this.onGround && !tileAt(this.tunnel, this.row(), this.lane())) {
      this.falling = 1;
      this.onGround = false;
      this.vy = 0;
    }
  };

  // Camera roll (radians) that brings the floor wall to the bottom.
  Core.prototype.rollAngle = function () {
    const target = -this.floorWall * Math.PI / 2;
    if (this.rollTicks <= 0) return target;
    let from = this.rollFrom;
    // turn the short way round
    while (from - target > Math.PI) from -= 2 * Math.PI;
    while (target - from > Math.PI) from += 2 * Math.PI;
    const a = this.rollTicks / ROLL_TICKS;
    return target + (from - target) * a;
  };

  // Ring distance (lanes) from the runner to the guaranteed route at a row.
  Core.prototype.routeDistance = function (r) {
    ensureRow(this.tunnel, r);
    const l = this.lane();
    let best = RING;
    for (const q of [this.tunnel.lane[r], this.tunnel.lane2[r]]) {
      if (q < 0) continue;
      const d = Math.abs(l - q);
      best = Math.min(best, d, RING - d);
    }
    return best + Math.abs(this.s - Math.floor(this.s) - 0.5) * 0.1;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);       // the tunnel is shared: a pure function of the seed
    c.runtimeRng = { s: this.runtimeRng.s };
    return c;
  };

  // 20 rows x 20 lanes as "1"/"0" strings, lanes rotated so index 0 is the
  // current floor's left lane.
  Core.prototype.tunnelAhead = function () {
    const rows = [];
    const r0 = this.row();
    const first = this.floorWall * LANES_PER_WALL;
    for (let r = r0; r < r0 + AHEAD_ROWS; r++) {
      let str = "";
      for (let k = 0; k < RING; k++) str += tileAt(this.tunnel, r, first + k) ? "1" : "0";
      rows.push(str);
    }
    return rows;
  };

  Core.prototype.snapshot = function () {
    const alive = this.falling === 0 && !(this.status === "terminal" && this.outcome === "fail");
    const dist = Math.floor(this.z);
    const offset = this.s - this.floorWall * LANES_PER_WALL;
    return {
      status: this.status,
      terminal: {
        isTerminal: this.status === "terminal",
        outcome: this.outcome,
        reason: this.reason,
      },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: dist,
      distance_m: Math.round(this.z * 1000) / 1000,
      speed: Math.round(this.speed * 1000) / 1000,
      level: this.level,
      progress: Math.min(1, dist / FULL_PROGRESS_M),
      player: {
        wall: this.floorWall,
        lane: Math.floor(offset),
        offset_m: Math.round(offset * 1000) / 1000,
        height_m: Math.round(this.h * 1000) / 1000,
        vy: Math.round(this.vy * 1000) / 1000,
        on_ground: this.onGround,
        alive: alive,
        x: Math.round(this.s * 1000) / 1000,
        y: Math.round(this.h * 1000) / 1000,
      },
      tunnel_ahead: this.tunnelAhead(),
      jumps: this.jumps,
      switches: this.switches,
      deaths: this.falling > 0 ? 1 : 0,
      ticks: this.totalTicks,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events queue up and are consumed at the start of each tick.
  // ---------------------------------------------------------------------------
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts a new run.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  function consumeInput() {
    const { pressed, down } = keys.take();
    for (const k of pressed) down.add(k);   // a tap counts as held for one tick
    return { pressed: pressed, held: down };
  }

  // ---------------------------------------------------------------------------
  // Renderer. Tunnel frame: cross-section a 5 m square centred on the axis,
  // wall 0 at y = -2.5 (lanes left to right), wall 1 at x = +2.5 going up,
  // wall 2 the ceiling, wall 3 at x = -2.5. The camera rolls so the floor wall
  // is at the bottom. Seen from inside a convex tube no wall hides another, so
  // tiles need no sorting: they are batched into one path per wall and fog
  // band, over a cached star field that shows through the holes.
  //
  // Cost: under the harness the canvas is rasterised in software, and that,
  // not the script, is what a frame costs. The browser records draw calls
  // and rasterises them when a picture is needed (in practice at the
  // screenshot), so every frame drawn since the last screenshot was paid for
  // there unless a later frame overwrites the whole canvas with an opaque
  // copy: each frame therefore starts by copying the opaque star field over
  // all of it. Measured before this design: ~0.25 ms of script and ~2 ms of
  // raster per frame, every frame, half of the raster the near tiles'
  // outlines (each quad stroked 2 px wide with round joins). Now the
  // outlines are 1 px hairlines (two per edge, half a pixel apart) along
  // straight runs of tile edges, tiles with the same neighbours are merged
  // into one quad, the HUD's texts on its opaque bar need no outline, tile
  // rows are read once per episode into bit masks, nothing is allocated per
  // frame, and frames nobody can see are skipped (the shell's frameCanBeSeen).
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d", { alpha: false });

  const VP_Y = 330;               // vanishing point (tunnel axis) on screen
  const FOCAL = 520;
  const CAM_BACK = 4;             // camera behind the runner (m)
  const CAM_FOLLOW = 0.45;        // share of the runner's sideways position the camera follows
  const CAM_Y = -0.6;             // a little below the axis, still mid-tunnel
  const VIEW_ROWS = 40;
  const NEAR = 0.4;
  const HALF = LANES_PER_WALL / 2;
  const FOG_BANDS = 4;
  const BAND_ROWS = VIEW_ROWS / FOG_BANDS;
  const OUTLINE = "#1A1E28";
  const HUD_BG = "#1C2029";
  const WALL_RGB = [[112, 128, 150], [96, 110, 130], [84, 96, 114], [104, 118, 140]];
  const FOG_RGB = [14, 16, 26];
  const WALL_FILL = WALL_RGB.map((rgb) => {
    const out = [];
    for (let b = 0; b < FOG_BANDS; b++) {
      const a = b / FOG_BANDS * 0.8;
      out.push("rgb(" + rgb.map((v, k) => Math.round(v + (FOG_RGB[k] - v) * a)).join(",") + ")");
    }
    return out;
  });

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

  let stars = null;
  function starField() {
    if (stars) return stars;
    stars = document.createElement("canvas");
    stars.width = W;
    stars.height = H;
    const g = stars.getContext("2d", { alpha: false });
    g.fillStyle = "#0B0D16";
    g.fillRect(0, 0, W, H);
    const rng = makeRng(0x5eed);              // fixed: purely decorative
    for (let k = 0; k < 260; k++) {
      const x = rngNext(rng) * W, y = rngNext(rng) * H, r = 0.6 + rngNext(rng) * 1.6;
      g.fillStyle = "rgba(255,255,255," + (0.35 + rngNext(rng) * 0.6).toFixed(2) + ")";
      g.fillRect(x, y, r, r);
    }
    return stars;
  }

  // Tiles of one row as a 20-bit mask (bit l = ring lane l), cached for the
  // episode's tunnel: the tunnel is a pure function of the seed.
  const rows = { tunnel: null, masks: [] };
  function rowMask(t, r) {
    if (rows.tunnel !== t) {
      rows.tunnel = t;
      rows.masks.length = 0;
    }
    let m = rows.masks[r];
    if (m === undefined) {
      m = 0;
      for (let l = 0; l < RING; l++) if (tileAt(t, r, l)) m |= 1 << l;
      rows.masks[r] = m;
    }
    return m;
  }

  // Ring position (m along the perimeter) -> cross-section point, tunnel
  // frame, into pt.
  const pt = new Float64Array(2);
  function ringPoint(p) {
    p = mod(p, RING);
    const w = Math.floor(p / LANES_PER_WALL);
    const q = p - w * LANES_PER_WALL;
    switch (w) {
      case 0: pt[0] = -HALF + q; pt[1] = -HALF; break;
      case 1: pt[0] = HALF; pt[1] = -HALF + q; break;
      case 2: pt[0] = HALF - q; pt[1] = HALF; break;
      default: pt[0] = -HALF; pt[1] = HALF - q;
    }
  }

  // Camera of the current frame, and the cross-section corners of every lane
  // edge rotated into the camera frame.
  const view = { camX: 0, camY: CAM_Y, camZ: 0, runnerX: 0 };
  const edgeX = new Float64Array(RING + 1), edgeY = new Float64Array(RING + 1);

  function setCamera(c) {
    const roll = c.rollAngle();
    const cr = Math.cos(roll), sr = Math.sin(roll);
    ringPoint(c.s);
    view.runnerX = pt[0] * cr - pt[1] * sr;
    view.camX = view.runnerX * CAM_FOLLOW;
    view.camZ = c.z - CAM_BACK;
    for (let e = 0; e <= RING; e++) {
      ringPoint(e === RING ? RING - 1e-9 : e);
      edgeX[e] = pt[0] * cr - pt[1] * sr - view.camX;
      edgeY[e] = pt[0] * sr + pt[1] * cr - CAM_Y;
    }
  }

  // Adds the quad between two cross-section points at depths zn, zf (camera
  // space) to the current path.
  function quad(ax, ay, bx, by, zn, zf) {
    const sn = FOCAL / zn, sf = FOCAL / zf;
    ctx.moveTo(W / 2 + ax * sn, VP_Y - ay * sn);
    ctx.lineTo(W / 2 + bx * sn, VP_Y - by * sn);
    ctx.lineTo(W / 2 + bx * sf, VP_Y - by * sf);
    ctx.lineTo(W / 2 + ax * sf, VP_Y - ay * sf);
    ctx.closePath();
  }

  // Adds the tiles of wall w in rows [ra, rb) to the current path, merged
  // into as few quads as is simple (rows with the same tiles on this wall
  // together, side-by-side tiles together): fewer edges to rasterise. Returns
  // whether any was added.
  const WALL_BITS = (1 << LANES_PER_WALL) - 1;
  function addTiles(c, w, ra, rb) {
    let any = false;
    const first = w * LANES_PER_WALL;
    for (let r = ra; r < rb; r++) {
      const bits = (rowMask(c.tunnel, r) >> first) & WALL_BITS;
      let r2 = r;
      while (r2 + 1 < rb && ((rowMask(c.tunnel, r2 + 1) >> first) & WALL_BITS) === bits) r2++;
      const zn = Math.max(r * ROW_M - view.camZ, NEAR);
      const zf = (r2 + 1) * ROW_M - view.camZ;
      r = r2;
      if (zf <= NEAR || bits === 0) continue;
      for (let q = 0; q < LANES_PER_WALL; q++) {
        if (!(bits & (1 << q))) continue;
        let q2 = q;
        while (q2 + 1 < LANES_PER_WALL && (bits & (1 << (q2 + 1)))) q2++;
        quad(edgeX[first + q], edgeY[first + q], edgeX[first + q2 + 1], edgeY[first + q2 + 1], zn, zf);
        q = q2;
        any = true;
      }
    }
    return any;
  }

  // Adds a 2 px line between two cross-section points at depths za, zb as
  // two 1 px lines half a pixel either side: 1 px lines are rasterised as
  // hairlines, far cheaper than any wider stroke.
  function addSegment(ax, ay, bx, by, za, zb) {
    const sa = FOCAL / za, sb = FOCAL / zb;
    const x0 = W / 2 + ax * sa, y0 = VP_Y - ay * sa;
    const x1 = W / 2 + bx * sb, y1 = VP_Y - by * sb;
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < 0.5) return;
    const nx = (y0 - y1) / len * 0.5, ny = (x1 - x0) / len * 0.5;
    ctx.moveTo(x0 + nx, y0 + ny);
    ctx.lineTo(x1 + nx, y1 + ny);
    ctx.moveTo(x0 - nx, y0 - ny);
    ctx.lineTo(x1 - nx, y1 - ny);
  }

  // Adds the outlines of the tiles in rows [ra, rb) to the current path as
  // runs of straight tile edges, each edge drawn where a tile lies on either
  // side of it.
  function addOutlines(c, ra, rb) {
    // across the tunnel: the edge in front of row r, wall by wall
    for (let r = ra; r <= rb; r++) {
      const z = r * ROW_M - view.camZ;
      if (z <= NEAR) continue;
      const m = (r > ra ? rowMask(c.tunnel, r - 1) : 0) | (r < rb ? rowMask(c.tunnel, r) : 0);
      for (let w = 0; w < WALLS; w++) {
        const end = (w + 1) * LANES_PER_WALL;
        for (let l = w * LANES_PER_WALL; l < end; l++) {
          if (!(m & (1 << l))) continue;
          let l2 = l;
          while (l2 + 1 < end && (m & (1 << (l2 + 1)))) l2++;
          addSegment(edgeX[l], edgeY[l], edgeX[l2 + 1], edgeY[l2 + 1], z, z);
          l = l2;
        }
      }
    }
    // along the tunnel: edge e between lanes e - 1 and e
    for (let e = 0; e < RING; e++) {
      const both = (1 << e) | (1 << mod(e - 1, RING));
      for (let r = ra; r < rb; r++) {
        if (!(rowMask(c.tunnel, r) & both)) continue;
        let r2 = r;
        while (r2 + 1 < rb && (rowMask(c.tunnel, r2 + 1) & both)) r2++;
        const zf = (r2 + 1) * ROW_M - view.camZ;
        if (zf > NEAR) {
          addSegment(edgeX[e], edgeY[e], edgeX[e], edgeY[e], Math.max(r * ROW_M - view.camZ, NEAR), zf);
        }
        r = r2;
      }
    }
  }

  function drawTunnel(c) {
    ctx.drawImage(starField(), 0, 0);       // opaque, whole canvas: see above
    const r0 = Math.max(0, Math.floor((view.camZ + NEAR) / ROW_M));
    for (let band = FOG_BANDS - 1; band >= 0; band--) {
      const ra = r0 + band * BAND_ROWS;
      for (let w = 0; w < WALLS; w++) {
        ctx.beginPath();
        if (!addTiles(c, w, ra, ra + BAND_ROWS)) continue;
        ctx.fillStyle = WALL_FILL[w][band];
        ctx.fill();
      }
    }
    // outlines only near: far ones blur into the fog
    ctx.beginPath();
    addOutlines(c, r0, r0 + BAND_ROWS);
    ctx.strokeStyle = OUTLINE;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  function drawRunner(c) {
    const dz = c.z - view.camZ;
    const sc = FOCAL / dz;
    const footY = -HALF + Math.max(c.h, -HALF);
    const x = W / 2 + (view.runnerX - view.camX) * sc;
    const yFoot = VP_Y - (footY - view.camY) * sc;
    const bodyH = 0.9 * sc;
    const bodyW = 0.42 * sc;
    if (c.falling === 0 || c.h > -3) {
      // shadow on the floor while in the air
      if (!c.onGround && c.falling === 0) {
        ctx.fillStyle = "rgba(0,0,0,0.35)";
        ctx.beginPath();
        ctx.ellipse(x, VP_Y - (-HALF - view.camY) * sc, bodyW * 0.6, bodyW * 0.18, 0, 0, Math.PI * 2);
        ctx.fill();
      }
      const stride = c.onGround ? Math.sin(c.runTicks * 0.5) * bodyW * 0.25 : 0;
      ctx.lineJoin = "round";
      // legs
      ctx.strokeStyle = "#2D7DF6";
      ctx.lineWidth = Math.max(3, bodyW * 0.22);
      ctx.beginPath();
      ctx.moveTo(x - bodyW * 0.2, yFoot - bodyH * 0.35);
      ctx.lineTo(x - bodyW * 0.2 + stride, yFoot);
      ctx.moveTo(x + bodyW * 0.2, yFoot - bodyH * 0.35);
      ctx.lineTo(x + bodyW * 0.2 - stride, yFoot);
      ctx.stroke();
      // body + head
      ctx.fillStyle = "#B9BEC6";
      ctx.beginPath();
      ctx.ellipse(x, yFoot - bodyH * 0.55, bodyW * 0.45, bodyH * 0.28, 0, 0, Math.PI * 2);
      ctx.moveTo(x + bodyW * 0.5, yFoot - bodyH * 0.95);
      ctx.ellipse(x, yFoot - bodyH * 0.95, bodyW * 0.5, bodyH * 0.2, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.lineWidth = 4;
      ctx.strokeStyle = "#FFFFFF";
      ctx.stroke();
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = "#2D7DF6";
      ctx.stroke();
    }
  }

  // An opaque bar: plain white text on it needs no outline (stroked text
  // costs far more to rasterise).
  function hudText(str, x, font, align) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.fillText(str, x, HUD_H / 2);
  }

  function drawHud(c) {
    ctx.fillStyle = HUD_BG;
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#fff";
    hudText("Run 3", 20, "bold 28px sans-serif", "left");
    hudText("Distance " + Math.floor(c.z) + " m", W / 2, "bold 30px sans-serif", "center");
    hudText("Speed " + c.speed.toFixed(1) + " m/s   Attempt " + ep.attempts, W - 20, "20px sans-serif", "right");
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
      textOutlined("PRESS AN ARROW KEY TO START", W / 2, 130, "bold 36px sans-serif", "center");
    } else if (c.status === "terminal") {
      drawPanel([
        { text: "GAME OVER \u2013 " + c.reason, font: "bold 36px sans-serif" },
        { text: "Distance " + Math.floor(c.z) + " m", font: "bold 28px sans-serif" },
        { text: "Press Enter to run again", font: "20px sans-serif" },
      ]);
    }
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    setCamera(core);
    drawTunnel(core);
    drawRunner(core);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: the shell's one rAF loop, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  // Under the harness's virtual clock a step always ends on a multiple of
  // 50 ms (200 / 500 ms controls, 50 ms readiness slices) and frames fire
  // every 16 ms, so only the last frame before each 50 ms mark can ever be
  // seen: drawing just those (visibleOnly) keeps every screenshot exact (the
  // frame at the step's final game time) and skips two draws in three. A
  // human in a normal browser gets every frame.
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let dirty = true;

  function runTick() {
    const { pressed, held } = consumeInput();
    if (!core || core.status === "terminal") return;   // input ignored until reset
    const before = core.status;
    core.tick({
      left: held.has("ArrowLeft"),
      right: held.has("ArrowRight"),
      jump: pressed.has("ArrowUp") || pressed.has(" "),
    });
    if (core.status !== "ready" || before !== "ready") dirty = true;
  }

  // At most 15 ticks a frame; after a stall the backlog is dropped (no keepTick).
  const loop = Shell.loop({
    tickMs: TICK_MS,
    visibleOnly: true,
    tick: runTick,
    render() {
      // a frozen `ready` or terminal world needs no redraw
      if (!dirty) return;
      render();
      dirty = false;
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  const ep = Shell.episodes({
    pickLevel: () => 1,           // level 1 = the endless tunnel, whatever is asked
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
          distance_m: s ? s.distance_m : 0,
          speed: s ? s.speed : SPEED0,
          progress: s ? s.progress : 0,
          completion_progress: s ? s.progress : 0,
          player: s ? s.player : {
            wall: 0, lane: START_LANE, offset_m: START_LANE + 0.5, height_m: 0, vy: 0,
            on_ground: true, alive: true, x: START_LANE + 0.5, y: 0,
          },
          tunnel_ahead: s ? s.tunnel_ahead : [],
        },
        metrics: {
          primary_score: s ? s.score : 0,
          deaths: s ? s.deaths : 0,
          attempts: ep.attempts,
          jumps: s ? s.jumps : 0,
          gravity_switches: s ? s.switches : 0,
        },
        raw: {
          ticks: s ? s.ticks : 0,
          row_m: ROW_M,
          lanes_per_wall: LANES_PER_WALL,
        },
      };
    },
  };

  // __gwCore: private handle for oracle.js only, always the live episode's core.
  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
