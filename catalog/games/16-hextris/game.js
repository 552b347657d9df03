// Hextris for pytest-gameworld.
//
// Layout of this file:
//   1. constants and helpers (hexagon geometry; hash and PRNG from the shell) - pure
//   2. createCore(seed, level): the simulation                 - pure, no DOM, no clock
//   3. renderer: cached background, stack and scene layers; dirty rectangles for the falling blocks
//   4. browser shell: keyboard, fixed-tick rAF loop, episodes and window.gameAPI on the games'
//      shared shell (catalog/games/_shell/shell.js, loaded before this file)
//
// Frames: six screen LANES are fixed (lane L points at L x 60 degrees, screen
// angles grow clockwise because y points down). The hexagon's SIDES are
// numbered in its own frame; with rotation `rot`, side s faces lane s + rot.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "16-hextris";
  const TICK_HZ = 60;
  const TICK_MS = 1000 / TICK_HZ;
  const CX = 640;
  const CY = 390;
  const HEX_R = 60; // centre-to-side distance of the hexagon
  const ROW_H = 22;
  const MAX_ROWS = 8; // a side with more rows overflows
  const SPAWN_R = 320; // blocks appear this far out (inner edge)
  const ACCEL = 3; // ArrowDown held: blocks fall three times as fast
  const SPEEDUP_PER_S = 0.01; // fall speed +1 % per second of play
  const COMBO_TICKS = 180; // a clear within 3 s of the previous one extends the combo
  const SPAWN_TRIES = 12;
  const SCORE_FOR_FULL_PROGRESS = 1500; // hardest task target; progress is diagnostic

  // Per level: spawn interval (s), fall speed (px/s), colours, double-spawn chance, and `open`: the
  // chance that a new block may complete a group at all (then on one side only; else on none). Four
  // colours throughout, as in the original: with three, random turning cleared often enough to solve
  // levels 1-2 (docs/catalog.md, Hextris).
  const LEVELS = {
    1: { every: 1.0, speed: 160, colours: 4, double: 0, open: 0.7 },
    2: { every: 0.85, speed: 180, colours: 4, double: 0.1, open: 0.6 },
    3: { every: 0.75, speed: 200, colours: 4, double: 0.15, open: 0.5 },
    4: { every: 0.65, speed: 220, colours: 4, double: 0.2, open: 0.4 },
    5: { every: 0.55, speed: 240, colours: 4, double: 0.25, open: 0.3 },
  };
  const COLOUR_NAMES = ["red", "yellow", "blue", "green"];

  // FNV-1a then a murmur3 finaliser (nearby seeds give unrelated PRNG states), and mulberry32 on a
  // plain {s} object so a clone copies the stream (catalog/games/_shell).
  const { hash32, makeRng, nextRandom } = window.GameShell;

  function mod6(n) {
    return ((n % 6) + 6) % 6;
  }

  // Cells of the same-coloured group containing (side, row), in `sides`
  // (6 arrays, bottom first). Neighbours: the rows just below and above on
  // the same side, and the same row on the two adjacent sides.
  function groupAt(sides, side, row) {
    const colour = sides[side][row];
    const seen = new Set([side * 64 + row]);
    const group = [[side, row]];
    for (let i = 0; i < group.length; i++) {
      const [s, r] = group[i];
      const next = [[s, r - 1], [s, r + 1], [mod6(s + 1), r], [mod6(s - 1), r]];
      for (const [ns, nr] of next) {
        if (nr < 0 || nr >= sides[ns].length || sides[ns][nr] !== colour) continue;
        const key = ns * 64 + nr;
        if (seen.has(key)) continue;
        seen.add(key);
        group.push([ns, nr]);
      }
    }
    return group;
  }

  // ----------------------------------------------------------------- 2. core
  function createCore(seed, level) {
    const base = hash32(GAME_ID, seed, level);
    const core = new Core();
    core.seed = seed;
    core.level = level;
    core.cfg = LEVELS[level];
    // Two streams (docs/games.md 1.5): the spawn schedule (single or double) draws
    // exactly once per spawn from genRng; lanes and colours come from runRng,
    // whose number of draws varies with the retries below.
    core.genRng = makeRng(hash32(base, "gen"));
    core.runRng = makeRng(hash32(base, "run"));
    core.sides = [[], [], [], [], [], []];
    core.rot = 0;
    core.falling = []; // {lane, r, c} in spawn order
    core.spawnEvery = Math.round(core.cfg.every * TICK_HZ);
    core.spawnTimer = 0; // ticks until the next spawn
    core.spawned = 0;
    core.landed = 0;
    core.score = 0;
    core.combo = 0;
    core.lastClearTick = -1e9;
    core.blocksCleared = 0;
    core.groupsCleared = 0;
    core.maxStack = 0;
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.ticks = 0; // every tick
    core.playTicks = 0; // ticks while playing -> gameTimeMs
    core.turnTick = -1e9; // tick and direction of the last turn (drawn tween only)
    core.turnDir = 0;
    core.turnEvery = 0; // ticks between the last two turns (spin detection)
    core.turnAlt = false; // whether the last turn went the other way from the one before
    core.stackVersion = 0; // bumped when any stack changes (renderer cache)
    return core;
  }

  function Core() {}

  Core.prototype.sideForLane = function (lane) {
    return mod6(lane - this.rot);
  };

  Core.prototype.laneForSide = function (side) {
    return mod6(side + this.rot);
  };

  Core.prototype.fallSpeed = function () {
    return this.cfg.speed * (1 + (SPEEDUP_PER_S * this.playTicks) / TICK_HZ);
  };

  // One 1/60 s tick. input = {pressed: Set of key edges, held: Set}.
  // Turns resolve before blocks move, so a turn in a landing tick counts.
  Core.prototype.tick = function (input) {
    this.ticks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    if (input.pressed.has("ArrowLeft")) this.turn(-1);
    if (input.pressed.has("ArrowRight")) this.turn(1);
    if (this.spawnTimer <= 0) {
      this.spawnWave();
      this.spawnTimer += this.spawnEvery;
    }
    this.spawnTimer--;
    const step = (this.fallSpeed() * (input.held.has("ArrowDown") ? ACCEL : 1)) / TICK_HZ;
    const flying = [];
    for (const b of this.falling) {
      b.r -= step;
      const side = this.sideForLane(b.lane);
      if (this.status === "playing" && b.r <= HEX_R + ROW_H * this.sides[side].length) this.land(side, b.c);
      else flying.push(b);
    }
    this.falling = flying;
  };

  // dir -1 = counter-clockwise (ArrowLeft), +1 = clockwise (ArrowRight).
  Core.prototype.turn = function (dir) {
    this.rot = mod6(this.rot + dir);
    this.turnEvery = this.ticks - this.turnTick;
    this.turnAlt = dir !== this.turnDir;
    this.turnTick = this.ticks;
    this.turnDir = dir;
  };

  Core.prototype.land = function (side, colour) {
    this.sides[side].push(colour);
    this.landed++;
    this.stackVersion++;
    const group = groupAt(this.sides, side, this.sides[side].length - 1);
    if (group.length >= 3) {
      this.clear(group);
      this.cascade();
    }
    let tallest = 0;
    for (const s of this.sides) tallest = Math.max(tallest, s.length);
    this.maxStack = Math.max(this.maxStack, tallest);
    if (tallest > MAX_ROWS) {
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "overflow";
    }
  };

  // Remove a group, score it, and let the blocks above it drop.
  Core.prototype.clear = function (group) {
    this.combo = this.ticks - this.lastClearTick <= COMBO_TICKS ? this.combo + 1 : 1;
    this.lastClearTick = this.ticks;
    const n = group.length;
    this.score += 20 * n * n * this.combo;
    this.blocksCleared += n;
    this.groupsCleared++;
    for (const [s, r] of group) this.sides[s][r] = -1;
    for (let s = 0; s < 6; s++) this.sides[s] = this.sides[s].filter((c) => c >= 0);
  };

  // After blocks drop, any new group of three or more clears too (and so on).
  Core.prototype.cascade = function () {
    for (;;) {
      let found = null;
      for (let s = 0; s < 6 && !found; s++) {
        for (let r = 0; r < this.sides[s].length && !found; r++) {
          const g = groupAt(this.sides, s, r);
          if (g.length >= 3) found = g;
        }
      }
      if (!found) return;
      this.clear(found);
    }
  };

  // The stacks as they will be once every falling block has landed, if the
  // hexagon is not turned again (same speed for all, so same-lane order holds).
  Core.prototype.projectedSides = function () {
    const proj = this.sides.map((s) => s.slice());
    const order = this.falling.slice().sort((a, b) => a.r - b.r);
    for (const b of order) proj[this.sideForLane(b.lane)].push(b.c);
    return proj;
  };

  // A new block never completes a group on the side it heads for at the
  // current rotation: clears need turning, and waiting alone never scores.
  function completesGroup(proj, side, colour) {
    proj[side].push(colour);
    const n = groupAt(proj, side, proj[side].length - 1).length;
    proj[side].pop();
    return n >= 3;
  }

  // On how many of the six sides a block of `colour` would complete a group. Keeping this at one
  // (or none) means a clear needs the right side, not just any turn: random turning seldom finds it.
  function sidesCompleted(proj, colour) {
    let n = 0;
    for (let s = 0; s < 6; s++) if (completesGroup(proj, s, colour)) n++;
    return n;
  }

  // A hexagon turned at a steady pace (the last two turns SPIN_MAX_EVERY ticks
  // or less apart, and the next not overdue) is taken to go on that way: spinning
  // on if they went the same way, wiggling back and forth if not. Its next turns
  // are judged over a few paces and start times round the measured ones, since
  // the harness's 0.25 s steps jitter by a tick or two (and a human's more):
  // an array of {dir, alt, every, next, proj} (proj: the stacks once every
  // falling block has landed on that timing), or null.
  const SPIN_MAX_EVERY = 40;
  const SPIN_SLACK = 4; // ticks a spin's next turn may come early or late
  const SPIN_PACES = [-1, 0, 1]; // ticks a spin's pace may be off
  Core.prototype.spin = function () {
    const every = this.turnEvery;
    if (every <= 0 || every > SPIN_MAX_EVERY || this.ticks - this.turnTick > every + SPIN_SLACK) return null;
    const out = [];
    for (const de of SPIN_PACES) {
      for (const dt of [-SPIN_SLACK, 0, SPIN_SLACK]) {
        const v = { dir: this.turnDir, alt: this.turnAlt, every: every + de, next: this.turnTick + every + de + dt };
        v.proj = this.spinProjected(v);
        out.push(v);
      }
    }
    return out;
  };

  // The hexagon's turn (in sides) `ticks` ahead if spin v goes on: a spin adds
  // one side per turn, a wiggle goes back and forth between two.
  function spinOffset(v, now, ticks) {
    const t = now + ticks;
    const n = t < v.next ? 0 : Math.floor((t - v.next) / v.every) + 1;
    if (v.alt) return n % 2 ? -v.dir : 0;
    return v.dir * n;
  }

  // The side a block at radius r in `lane` lands on if spin v goes on, against
  // stacks `proj`: its fall followed tick by tick, since the landing height
  // depends on the side it faces.
  Core.prototype.spinSide = function (v, proj, lane, r) {
    const step = this.fallSpeed() / TICK_HZ;
    for (let t = 0; ; t++) {
      const side = mod6(lane - this.rot - spinOffset(v, this.ticks, t));
      if (r - (t + 1) * step <= HEX_R + ROW_H * proj[side].length || t > 600) return side;
    }
  };

  // The stacks once every falling block has landed, if spin v goes on.
  Core.prototype.spinProjected = function (v) {
    const proj = this.sides.map((x) => x.slice());
    for (const b of this.falling.slice().sort((p, q) => p.r - q.r)) {
      proj[this.spinSide(v, proj, b.lane, b.r)].push(b.c);
    }
    return proj;
  };

  // Whether a new block would complete a group where a going-on spin or wiggle
  // lands it, on any of the timings: turning by rote never scores, as keeping
  // still never does.
  Core.prototype.spinCompletes = function (spin, lane, colour) {
    if (!spin) return false;
    return spin.some((v) => completesGroup(v.proj, this.spinSide(v, v.proj, lane, SPAWN_R), colour));
  };

  Core.prototype.pickBlock = function (proj, usedLanes, spin) {
    const ncol = this.cfg.colours;
    const maxSides = nextRandom(this.runRng) < this.cfg.open ? 1 : 0;
    let lane = 0;
    let colour = 0;
    for (let k = 0; k < SPAWN_TRIES; k++) {
      lane = Math.floor(nextRandom(this.runRng) * 6);
      colour = Math.floor(nextRandom(this.runRng) * ncol);
      if (usedLanes.includes(lane)) continue;
      if (completesGroup(proj, this.sideForLane(lane), colour)) continue;
      if (this.spinCompletes(spin, lane, colour)) continue;
      if (sidesCompleted(proj, colour) <= maxSides) return { lane, colour };
    }
    // Deterministic fallback: after a random start, the safe (lane, colour) completing on the fewest sides.
    const start = Math.floor(nextRandom(this.runRng) * 6 * ncol);
    let best = null;
    let bestSides = Infinity;
    for (let k = 0; k < 6 * ncol; k++) {
      const i = (start + k) % (6 * ncol);
      const l = Math.floor(i / ncol);
      const c = i % ncol;
      if (usedLanes.includes(l) || completesGroup(proj, this.sideForLane(l), c)) continue;
      if (this.spinCompletes(spin, l, c)) continue;
      const n = sidesCompleted(proj, c);
      if (n < bestSides) {
        best = { lane: l, colour: c };
        bestSides = n;
      }
    }
    if (best) return best;
    return { lane: usedLanes.includes(lane) ? mod6(lane + 1) : lane, colour };
  };

  Core.prototype.spawnWave = function () {
    const count = nextRandom(this.genRng) < this.cfg.double ? 2 : 1;
    const proj = this.projectedSides();
    const spin = this.spin();
    const used = [];
    for (let k = 0; k < count; k++) {
      const { lane, colour } = this.pickBlock(proj, used, spin);
      used.push(lane);
      proj[this.sideForLane(lane)].push(colour);
      if (spin) for (const v of spin) v.proj[this.spinSide(v, v.proj, lane, SPAWN_R)].push(colour);
      this.falling.push({ lane, r: SPAWN_R, c: colour });
      this.spawned++;
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.genRng = { s: this.genRng.s };
    c.runRng = { s: this.runRng.s };
    c.sides = this.sides.map((s) => s.slice());
    c.falling = this.falling.map((b) => Object.assign({}, b));
    return c;
  };

  Core.prototype.activeCombo = function () {
    return this.ticks - this.lastClearTick <= COMBO_TICKS ? this.combo : 0;
  };

  // The state as a fresh plain object (getState() without the timestamp).
  Core.prototype.snapshot = function (attempts) {
    const sides = this.sides.map((s) => s.map((c) => COLOUR_NAMES[c]));
    const laneToSide = [0, 1, 2, 3, 4, 5].map((l) => this.sideForLane(l));
    const falling = this.falling
      .slice()
      .sort((a, b) => a.r - b.r)
      .map((b) => ({
        lane: b.lane,
        side: this.sideForLane(b.lane),
        radius: Math.round(b.r * 100) / 100,
        colour: COLOUR_NAMES[b.c],
        x: Math.round(CX + Math.cos((b.lane * Math.PI) / 3) * b.r),
        y: Math.round(CY + Math.sin((b.lane * Math.PI) / 3) * b.r),
      }));
    const alive = this.outcome !== "fail";
    const heights = this.sides.map((s) => s.length);
    return {
      gameId: GAME_ID,
      seed: this.seed,
      gameTimeMs: Math.round((this.playTicks * 1000) / TICK_HZ),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        score: this.score,
        level: this.level,
        rotation: this.rot,
        sides: sides,
        heights: heights,
        lane_to_side: laneToSide,
        falling: falling,
        player: { x: CX, y: CY, rotation: this.rot, alive: alive },
        environment: { sides: sides.map((s) => s.slice()), falling: falling.map((b) => Object.assign({}, b)) },
        completion_progress: Math.min(1, this.score / SCORE_FOR_FULL_PROGRESS),
        fall_speed: Math.round(this.fallSpeed() * 10) / 10,
      },
      metrics: {
        primary_score: this.score,
        blocks_cleared: this.blocksCleared,
        groups_cleared: this.groupsCleared,
        combo: this.activeCombo(),
        max_stack: this.maxStack,
        spawned: this.spawned,
        landed: this.landed,
        attempts: attempts,
        deaths: alive ? 0 : 1,
      },
      raw: { ticks: this.ticks, play_ticks: this.playTicks, max_rows: MAX_ROWS },
    };
  };

  function loadingSnapshot(level) {
    const empty = [[], [], [], [], [], []];
    return {
      gameId: GAME_ID,
      seed: null,
      gameTimeMs: 0,
      status: "loading",
      terminal: { isTerminal: false, outcome: null, reason: null },
      game_state: {
        score: 0, level: level, rotation: 0, sides: empty, heights: [0, 0, 0, 0, 0, 0],
        lane_to_side: [0, 1, 2, 3, 4, 5], falling: [], player: { x: CX, y: CY, rotation: 0, alive: true },
        environment: { sides: empty, falling: [] }, completion_progress: 0, fall_speed: 0,
      },
      metrics: {
        primary_score: 0, blocks_cleared: 0, groups_cleared: 0, combo: 0, max_stack: 0,
        spawned: 0, landed: 0, attempts: 0, deaths: 0,
      },
      raw: {},
    };
  }

  // ------------------------------------------------------------- 3. renderer
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TURN_TWEEN_TICKS = 5; // ~80 ms drawn turn; the logic turns at once
  const COLOURS = ["#E74C3C", "#F1C40F", "#3498DB", "#2ECC71"];
  const SQRT3 = Math.sqrt(3);
  const LAYER = 2 * Math.ceil(((HEX_R + ROW_H * (MAX_ROWS + 1)) * 2) / SQRT3) + 8; // stack layer size

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  function makeLayer(w, h) {
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    return c;
  }

  function textOutlined(g, str, x, y, font, align) {
    g.font = font;
    g.textAlign = align;
    g.textBaseline = "middle";
    g.lineJoin = "round";
    g.lineWidth = 3;
    g.strokeStyle = "#000";
    g.strokeText(str, x, y);
    g.fillStyle = "#FFF";
    g.fillText(str, x, y);
  }

  // Path of a hexagon with centre-to-side distance d around (x, y), sides
  // facing the angles a0 + k x 60 degrees.
  function hexPath(g, x, y, d, a0) {
    const rc = (2 * d) / SQRT3; // centre-to-corner
    g.beginPath();
    for (let k = 0; k < 6; k++) {
      const a = a0 + ((k + 0.5) * Math.PI) / 3;
      const px = x + rc * Math.cos(a);
      const py = y + rc * Math.sin(a);
      if (k === 0) g.moveTo(px, py);
      else g.lineTo(px, py);
    }
    g.closePath();
  }

  // Corners of the block slab between distances d1 and d2 on the side facing
  // angle a, around (x, y).
  function slabCorners(x, y, a, d1, d2) {
    const nx = Math.cos(a);
    const ny = Math.sin(a);
    const w1 = d1 / SQRT3 - 1.5;
    const w2 = d2 / SQRT3 - 1.5;
    return [
      x + nx * d1 - ny * w1, y + ny * d1 + nx * w1,
      x + nx * d1 + ny * w1, y + ny * d1 - nx * w1,
      x + nx * d2 + ny * w2, y + ny * d2 - nx * w2,
      x + nx * d2 - ny * w2, y + ny * d2 + nx * w2,
    ];
  }

  function fillQuad(g, p, colour) {
    g.fillStyle = colour;
    g.beginPath();
    g.moveTo(p[0], p[1]);
    g.lineTo(p[2], p[3]);
    g.lineTo(p[4], p[5]);
    g.lineTo(p[6], p[7]);
    g.closePath();
    g.fill();
  }

  // Integer box around a quad (2 px margin for anti-aliasing), clipped to the canvas.
  function quadBox(p) {
    const x0 = Math.max(0, Math.floor(Math.min(p[0], p[2], p[4], p[6])) - 2);
    const y0 = Math.max(0, Math.floor(Math.min(p[1], p[3], p[5], p[7])) - 2);
    const x1 = Math.min(W, Math.ceil(Math.max(p[0], p[2], p[4], p[6])) + 2);
    const y1 = Math.min(H, Math.ceil(Math.max(p[1], p[3], p[5], p[7])) + 2);
    return [x0, y0, x1 - x0, y1 - y0];
  }

  // Background, HUD bar, the overflow limit and the lane guides: drawn once.
  let staticLayer = null;
  function staticImage() {
    if (staticLayer) return staticLayer;
    staticLayer = makeLayer(W, H);
    const g = staticLayer.getContext("2d");
    g.fillStyle = "#1E2230";
    g.fillRect(0, 0, W, H);
    g.fillStyle = "#11131B";
    g.fillRect(0, 0, W, HUD_H);
    g.strokeStyle = "rgba(255,255,255,0.07)";
    g.lineWidth = 2;
    for (let l = 0; l < 6; l++) {
      const a = (l * Math.PI) / 3;
      g.beginPath();
      g.moveTo(CX + Math.cos(a) * (HEX_R + 10), CY + Math.sin(a) * (HEX_R + 10));
      g.lineTo(CX + Math.cos(a) * (SPAWN_R + ROW_H), CY + Math.sin(a) * (SPAWN_R + ROW_H));
      g.stroke();
    }
    g.strokeStyle = "rgba(255,255,255,0.28)";
    g.lineWidth = 2;
    g.setLineDash([10, 8]);
    hexPath(g, CX, CY, HEX_R + ROW_H * MAX_ROWS, 0);
    g.stroke();
    g.setLineDash([]);
    textOutlined(g, "Hextris", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    return staticLayer;
  }

  // The hexagon and its stacks in the hexagon's own frame (side s faces
  // s x 60 degrees), rebuilt only when a stack changes.
  let stackLayer = null;
  let stackLayerVersion = -1;
  function stackImage(core) {
    if (stackLayer && stackLayerVersion === core.stackVersion) return stackLayer;
    if (!stackLayer) stackLayer = makeLayer(LAYER, LAYER);
    stackLayerVersion = core.stackVersion;
    const g = stackLayer.getContext("2d");
    const m = LAYER / 2;
    g.clearRect(0, 0, LAYER, LAYER);
    for (let s = 0; s < 6; s++) {
      const a = (s * Math.PI) / 3;
      core.sides[s].forEach((c, r) => {
        fillQuad(g, slabCorners(m, m, a, HEX_R + r * ROW_H + 1, HEX_R + (r + 1) * ROW_H - 1), COLOURS[c]);
      });
    }
    hexPath(g, m, m, HEX_R, 0);
    g.fillStyle = "#5B6275";
    g.fill();
    g.strokeStyle = "#FFFFFF";
    g.lineWidth = 3;
    g.stroke();
    return stackLayer;
  }

  function drawnAngle(core) {
    const k = Math.min(1, (core.ticks - core.turnTick) / TURN_TWEEN_TICKS);
    return ((core.rot - core.turnDir * (1 - k)) * Math.PI) / 3;
  }

  function drawTerminal(g, core) {
    g.fillStyle = "rgba(10, 10, 14, 0.8)";
    g.fillRect(340, 300, 600, 170);
    g.strokeStyle = "rgba(255,255,255,0.8)";
    g.lineWidth = 2;
    g.strokeRect(340, 300, 600, 170);
    textOutlined(g, `GAME OVER \u2013 ${core.reason}`, 640, 350, "bold 40px sans-serif", "center");
    textOutlined(g, `Score ${core.score}`, 640, 400, "bold 28px sans-serif", "center");
    if (!window.__GW_HARNESS__) textOutlined(g, "Press Enter to play again", 640, 440, "20px sans-serif", "center");
  }

  // Everything but the falling blocks: background, the turned hexagon with
  // its stacks, the HUD and the game-over panel. Rebuilt only when one of
  // them changes (a landing, a turn tween, a new score or combo, the status).
  let sceneLayer = null;
  let sceneKey = "";
  function sceneChanged(core) {
    const turning = core.ticks - core.turnTick < TURN_TWEEN_TICKS;
    const key = `${ep.attempts} ${core.status} ${core.stackVersion} ${core.rot} ${turning ? core.ticks : ""} ` +
      `${core.score} ${core.activeCombo()} ${core.blocksCleared}`;
    if (sceneLayer && key === sceneKey) return false;
    sceneKey = key;
    if (!sceneLayer) sceneLayer = makeLayer(W, H);
    const g = sceneLayer.getContext("2d");
    g.drawImage(staticImage(), 0, 0);
    g.save();
    g.translate(CX, CY);
    g.rotate(drawnAngle(core));
    g.drawImage(stackImage(core), -LAYER / 2, -LAYER / 2);
    g.restore();
    textOutlined(g, `Level ${core.level}`, 150, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined(g, `Score ${core.score}`, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    const combo = core.activeCombo();
    const right = combo > 1 ? `Combo x${combo}` : `Cleared ${core.blocksCleared}`;
    textOutlined(g, right, W - 20, HUD_H / 2, "bold 28px sans-serif", "right");
    if (core.status === "terminal") drawTerminal(g, core);
    return true;
  }

  // Dirty rectangles: when only blocks moved, restore the scene under the
  // boxes drawn last frame and draw the blocks anew (a full-canvas copy every
  // tick is the costliest thing a software rasterizer would do here).
  let shownBoxes = [];
  function render(core) {
    if (!core) {
      ctx.drawImage(staticImage(), 0, 0);
      shownBoxes = [];
      return;
    }
    if (sceneChanged(core)) {
      ctx.drawImage(sceneLayer, 0, 0);
    } else {
      for (const [x, y, w, h] of shownBoxes) ctx.drawImage(sceneLayer, x, y, w, h, x, y, w, h);
    }
    shownBoxes = [];
    if (core.status === "terminal") return;
    for (const b of core.falling) {
      const quad = slabCorners(CX, CY, (b.lane * Math.PI) / 3, b.r + 1, b.r + ROW_H - 1);
      fillQuad(ctx, quad, COLOURS[b.c]);
      shownBoxes.push(quadBox(quad));
    }
  }

  // ------------------------------------------------------- 4. browser shell
  const Shell = window.GameShell;
  let core = null;
  const keys = Shell.keyboard({
    keys: ["ArrowLeft", "ArrowRight", "ArrowDown", "Enter"],
    // Humans restart from the game-over panel; the harness resets by API.
    onDown(key) {
      if (key !== "Enter" || window.__GW_HARNESS__ || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // This tick's edges (every press, even of a held key); a tap between two ticks still
  // yields its edge and counts as held for that tick.
  function takeInput() {
    const { downs, down } = keys.take();
    for (const k of downs) down.add(k);
    return { pressed: downs, held: down };
  }

  // Fixed 1/60 s ticks from the shell's one rAF loop (virtual time under the harness); a stall
  // keeps at most one tick of backlog. Only the frames the harness can photograph are drawn
  // (Shell.frameCanBeSeen, docs/catalog.md): a skipped frame leaves the next one to draw.
  let drawnKey = "";
  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    visibleOnly: true,
    tick() {
      const input = takeInput();
      if (core) core.tick(input);
    },
    render() {
      // Blocks move on every playing tick; a terminal screen is drawn once.
      const key = !core ? "none" : core.status === "playing" ? `t${core.ticks}` : `${ep.attempts} ${core.status}`;
      if (key !== drawnKey) {
        render(core);
        drawnKey = key;
      }
    },
  });

  function pickLevel(level) {
    const n = Number(level ?? 1);
    if (!LEVELS[n]) {
      console.warn(`${GAME_ID} has levels 1-5; got level ${level}, using 1`);
      return 1;
    }
    return n;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render(core);
      drawnKey = `t${core.ticks}`;
    },
  });

  const api = {
    capabilities: { supports_seed: true, supports_inplace_reset: true, supports_level_select: true },
    init: ep.init,
    reset: ep.reset,
    getState() {
      const state = core ? core.snapshot(ep.attempts) : loadingSnapshot(1);
      state.timestampMs = Date.now(); // the harness's virtual clock
      return state;
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(null), loop });
})();
