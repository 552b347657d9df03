// Restless Wing Syndrome for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) over hand-made tile levels and a
// canvas renderer with the static tiles cached per level; the keyboard queue,
// the fixed 1/60 s tick loop, the episodes and window.gameAPI's mounting come
// from the shared shell (catalog/games/_shell). The oracle clones the core
// through window.__gwCore to look ahead.
//
// The layouts are fixed and nothing is random, so the seed changes nothing
// (capabilities.supports_seed = false). The bird flaps by itself, so there is
// no jump input and the jump buffer / coyote time of docs/games.md 1.3 do not apply.
(function () {
  "use strict";

  const GAME_ID = "24-restless-wing-syndrome";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 24). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const TILE = 40;
  const COLS = 32;
  const ROWS = 16;
  const WORLD_OY = 66;            // screen y of world y = 0 (under the HUD)

  const BIRD_W = 32;
  const BIRD_H = 28;
  const GRAVITY = 1500;
  const FLAP_VY = -720;
  const MAX_FALL = 900;
  const MOVE_VX = 240;
  const GLIDE_FALL = 110;

  // The flap meter drains in units: 2 per tick, 3 per tick while gliding (1.5x);
  // a cell is 36 units = 0.3 s at the normal rate.
  const METER_CELLS = 5;
  const CELL_UNITS = 36;
  const METER_FULL = METER_CELLS * CELL_UNITS;
  const DRAIN = 2;
  const DRAIN_GLIDE = 3;

  const KNOCK_VX = 300;
  const KNOCK_VY = 300;
  const STUN_TICKS = 18;          // 0.3 s
  const LAST_LEVEL = 5;
  const SPIKES_IN_STATE = 12;

  // ---------------------------------------------------------------------------
  // Levels: 32 x 16 tiles, one string per row.
  //   '#' solid block   '^' floor spike   'v' ceiling spike   '.' air
  //   'S' bird start (bottom-left)   'G' the bread / toast
  // ---------------------------------------------------------------------------
  const LEVELS = [
    {
      kind: "bread",
      rows: [
        "################################",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#..........................G...#",
        "#.........#####........#########",
        "#..............................#",
        "#S.......^^.......^^^..........#",
        "################################",
      ],
    },
    {
      kind: "toast",
      rows: [
        "################################",
        "#..............................#",
        "#...........................G..#",
        "#.........................######",
        "#..............................#",
        "#..............................#",
        "#...................#####......#",
        "#..............................#",
        "#..............................#",
        "#.............#####............#",
        "#..............................#",
        "#..............................#",
        "#.......#####..................#",
        "#..............................#",
        "#S......^^^^^^^^^^^^^^^^^^^^^^^#",
        "################################",
      ],
    },
    {
      kind: "bread",
      rows: [
        "################################",
        "#..............................#",
        "#..............................#",
        "#......................#########",
        "#......................##......#",
        "#..................##..##......#",
        "#..............######..##......#",
        "#..................##..##......#",
        "#..................##..##......#",
        "#...........####...##..##......#",
        "#..................##..##......#",
        "#..................##..##......#",
        "#......####........##..##......#",
        "#..................##..........#",
        "#S.......^^^.......##.......G..#",
        "################################",
      ],
    },
    {
      kind: "toast",
      rows: [
        "################################",
        "#..............................#",
        "#.G............................#",
        "####...........................#",
        "#..............................#",
        "#..............................#",
        "#.....######...................#",
        "#.....vvvvvv...................#",
        "#..............................#",
        "#.............#######..........#",
        "#..............vvvvv...........#",
        "#..............................#",
        "#.....######...................#",
        "#..............................#",
        "#S..........^^^^^^^^^^^^^^^^^^^#",
        "################################",
      ],
    },
    {
      kind: "bread",
      rows: [
        "################################",
        "################################",
        "################################",
        "################################",
        "################################",
        "################################",
        "################################",
        "################################",
        "#....vvvvvvvvvvvvvvvvvvvvvv....#",
        "#..............................#",
        "#..............................#",
        "#..............................#",
        "#...................#######....#",
        "#...................#..........#",
        "#S...^^^^^.^^^^^^...#....G.....#",
        "################################",
      ],
    },
  ];

  // Parse a level once: solids grid, spike list, start and goal positions,
  // and the tile distance field to the goal (for completion_progress and the
  // oracle).
  function parseLevel(index) {
    const def = LEVELS[index - 1];
    const solid = new Uint8Array(COLS * ROWS);
    const spikeAt = new Int16Array(COLS * ROWS).fill(-1);
    const spikes = [];
    let start = null;
    let goal = null;
    for (let r = 0; r < ROWS; r++) {
      const row = def.rows[r];
      for (let c = 0; c < COLS; c++) {
        const ch = row[c] || "#";
        if (ch === "#") solid[r * COLS + c] = 1;
        else if (ch === "^" || ch === "v") {
          spikeAt[r * COLS + c] = spikes.length;
          spikes.push({ col: c, row: r, dir: ch === "^" ? "up" : "down" });
        } else if (ch === "S") start = { x: c * TILE + TILE / 2, y: (r + 1) * TILE - BIRD_H / 2 };
        else if (ch === "G") goal = { col: c, row: r, x: c * TILE + TILE / 2, y: r * TILE + TILE / 2 };
      }
    }
    const dist = distanceField(solid, spikeAt, goal);
    return { index, kind: def.kind, solid, spikeAt, spikes, start, goal, dist };
  }

  // Dijkstra over 4-connected air tiles from the goal; spike tiles cost 3.
  function distanceField(solid, spikeAt, goal) {
    const dist = new Float64Array(COLS * ROWS).fill(Infinity);
    const g = goal.row * COLS + goal.col;
    dist[g] = 0;
    const open = [g];
    while (open.length) {
      let bi = 0;
      for (let i = 1; i < open.length; i++) if (dist[open[i]] < dist[open[bi]]) bi = i;
      const cur = open[bi];
      open[bi] = open[open.length - 1];
      open.pop();
      const r = Math.floor(cur / COLS);
      const c = cur % COLS;
      const nb = [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]];
      for (const [nr, nc] of nb) {
        if (nr < 0 || nc < 0 || nr >= ROWS || nc >= COLS) continue;
        const n = nr * COLS + nc;
        if (solid[n]) continue;
        const d = dist[cur] + (spikeAt[n] >= 0 ? 3 : 1);
        if (d < dist[n]) {
          if (dist[n] === Infinity) open.push(n);
          dist[n] = d;
        }
      }
    }
    return dist;
  }

  const PARSED = [];
  function levelData(index) {
    if (!PARSED[index]) PARSED[index] = parseLevel(index);
    return PARSED[index];
  }

  // Hazard box of a spike tile: the pointed half-tile nearest its base.
  function spikeBox(s) {
    const x = s.col * TILE;
    const y = s.row * TILE;
    return s.dir === "up"
      ? { x0: x + 6, y0: y + 18, x1: x + TILE - 6, y1: y + TILE }
      : { x0: x + 6, y0: y, x1: x + TILE - 6, y1: y + TILE - 18 };
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------
  function Core() {}

  function createCore(level, lethal) {
    const core = new Core();
    core.lethal = !!lethal;
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.score = 0;             // levels completed this episode
    core.flaps = 0;
    core.spikeHits = 0;
    core.deaths = 0;
    core.loadLevel(level);
    return core;
  }

  Core.prototype.loadLevel = function (level) {
    this.level = level;
    this.map = levelData(level);
    this.levelTicks = 0;
    this.spawn();
  };

  Core.prototype.spawn = function () {
    this.x = this.map.start.x;        // bird centre, world px
    this.y = this.map.start.y;
    this.vx = 0;
    this.vy = 0;
    this.onGround = true;
    this.gliding = false;
    this.stun = 0;
    this.meter = 0;                   // drained units, 0..METER_FULL
    this.facing = 1;
  };

  Core.prototype.solidAt = function (c, r) {
    if (c < 0 || c >= COLS || r < 0 || r >= ROWS) return true;
    return this.map.solid[r * COLS + c] === 1;
  };

  // True if the bird box with centre (x, y) overlaps a solid tile.
  Core.prototype.hitsSolid = function (x, y) {
    const c0 = Math.floor((x - BIRD_W / 2) / TILE);
    const c1 = Math.floor((x + BIRD_W / 2 - 1e-6) / TILE);
    const r0 = Math.floor((y - BIRD_H / 2) / TILE);
    const r1 = Math.floor((y + BIRD_H / 2 - 1e-6) / TILE);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (this.solidAt(c, r)) return true;
    return false;
  };

  // input = {left, right, up}: keys held during this tick.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    this.levelTicks++;
    const left = !!(input && input.left);
    const right = !!(input && input.right);
    const up = !!(input && input.up);

    if (this.stun > 0) {
      this.stun--;
      this.gliding = false;
    } else {
      const dir = (right ? 1 : 0) - (left ? 1 : 0);
      this.vx = dir * MOVE_VX;
      if (dir) this.facing = dir;
      this.gliding = up && !this.onGround && this.vy > 0;
    }

    // The restless wing: the meter drains on game time and flaps when empty.
    this.meter += this.gliding ? DRAIN_GLIDE : DRAIN;
    if (this.meter >= METER_FULL) {
      this.meter = 0;
      this.vy = FLAP_VY;
      this.flaps++;
      this.gliding = false;
    } else {
      this.vy = Math.min(this.vy + GRAVITY * DT, MAX_FALL);
      if (this.gliding && this.vy > GLIDE_FALL) this.vy = GLIDE_FALL;
    }

    this.moveX(this.vx * DT);
    this.onGround = false;
    this.moveY(this.vy * DT);
    this.checkSpikes();
    if (this.status === "playing") this.checkGoal();
  };

  // Axis moves in sub-steps of at most 8 px so nothing tunnels through a tile.
  Core.prototype.moveX = function (dx) {
    const n = Math.max(1, Math.ceil(Math.abs(dx) / 8));
    for (let i = 0; i < n; i++) {
      const nx = this.x + dx / n;
      if (this.hitsSolid(nx, this.y)) {
        // Snap flush against the tile edge.
        if (dx > 0) this.x = Math.floor((nx + BIRD_W / 2) / TILE) * TILE - BIRD_W / 2;
        else this.x = (Math.floor((nx - BIRD_W / 2) / TILE) + 1) * TILE + BIRD_W / 2;
        if (this.stun > 0) this.vx = 0;
        return;
      }
      this.x = nx;
    }
  };

  Core.prototype.moveY = function (dy) {
    const n = Math.max(1, Math.ceil(Math.abs(dy) / 8));
    for (let i = 0; i < n; i++) {
      const ny = this.y + dy / n;
      if (this.hitsSolid(this.x, ny)) {
        if (dy > 0) {
          this.y = Math.floor((ny + BIRD_H / 2) / TILE) * TILE - BIRD_H / 2;
          this.onGround = true;
        } else {
          this.y = (Math.floor((ny - BIRD_H / 2) / TILE) + 1) * TILE + BIRD_H / 2;
        }
        this.vy = 0;
        return;
      }
      this.y = ny;
    }
  };

  Core.prototype.overlaps = function (b) {
    return this.x + BIRD_W / 2 > b.x0 && this.x - BIRD_W / 2 < b.x1 &&
      this.y + BIRD_H / 2 > b.y0 && this.y - BIRD_H / 2 < b.y1;
  };

  // First spike whose hazard box the bird touches, or null.
  Core.prototype.touchedSpike = function () {
    const c0 = Math.floor((this.x - BIRD_W / 2) / TILE);
    const c1 = Math.floor((this.x + BIRD_W / 2) / TILE);
    const r0 = Math.floor((this.y - BIRD_H / 2) / TILE);
    const r1 = Math.floor((this.y + BIRD_H / 2) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        if (c < 0 || c >= COLS || r < 0 || r >= ROWS) continue;
        const k = this.map.spikeAt[r * COLS + c];
        if (k >= 0 && this.overlaps(spikeBox(this.map.spikes[k]))) return this.map.spikes[k];
      }
    }
    return null;
  };

  Core.prototype.checkSpikes = function () {
    if (this.stun > 0) return;
    const s = this.touchedSpike();
    if (!s) return;
    if (this.lethal) {
      this.deaths++;
      this.spawn();
      return;
    }
    // Harmless spikes knock the bird away and take the controls for 0.3 s.
    this.spikeHits++;
    const sx = s.col * TILE + TILE / 2;
    const away = this.x > sx ? 1 : this.x < sx ? -1 : -this.facing;
    this.vx = away * KNOCK_VX;
    this.vy = s.dir === "up" ? -KNOCK_VY : KNOCK_VY;
    this.stun = STUN_TICKS;
    this.gliding = false;
  };

  Core.prototype.goalBox = function () {
    const g = this.map.goal;
    return { x0: g.x - 16, y0: g.y - 12, x1: g.x + 16, y1: g.y + 20 };
  };

  Core.prototype.checkGoal = function () {
    if (!this.overlaps(this.goalBox())) return;
    this.score++;
    if (this.level >= LAST_LEVEL) {
      this.level = LAST_LEVEL + 1;    // the scored path reads 6 after the last level
      this.status = "terminal";
      this.outcome = "success";
      this.reason = "game_complete";
      return;
    }
    this.loadLevel(this.level + 1);
  };

  // Distance (px along the air-tile graph) from the bird to the goal.
  Core.prototype.pathDistance = function () {
    if (this.status === "terminal") return 0;
    const c = Math.floor(this.x / TILE);
    const r = Math.floor(this.y / TILE);
    let best = Infinity;
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        const nc = c + dc;
        const nr = r + dr;
        if (nc < 0 || nr < 0 || nc >= COLS || nr >= ROWS) continue;
        const d = this.map.dist[nr * COLS + nc];
        if (d === Infinity) continue;
        const cx = nc * TILE + TILE / 2;
        const cy = nr * TILE + TILE / 2;
        best = Math.min(best, d * TILE + Math.hypot(this.x - cx, this.y - cy));
      }
    }
    return best;
  };

  Core.prototype.progress = function () {
    if (this.status === "terminal") return 1;
    const s = this.map.start;
    const startDist = this.map.dist[Math.floor(s.y / TILE) * COLS + Math.floor(s.x / TILE)] * TILE;
    const d = this.pathDistance();
    if (!isFinite(d) || !(startDist > 0)) return 0;
    return Math.max(0, Math.min(1, 1 - d / startDist));
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    return c;
  };

  Core.prototype.flapMeter = function () {
    return METER_CELLS - Math.floor(this.meter / CELL_UNITS);
  };

  Core.prototype.snapshot = function () {
    const spikes = this.map.spikes.map((s) => ({
      x: s.col * TILE + TILE / 2, y: s.row * TILE + TILE / 2, dir: s.dir,
      d: Math.hypot(s.col * TILE + TILE / 2 - this.x, s.row * TILE + TILE / 2 - this.y),
    }));
    spikes.sort((a, b) => a.d - b.d);
    const nextFlapTicks = Math.ceil((METER_FULL - this.meter) / (this.gliding ? DRAIN_GLIDE : DRAIN));
    const g = this.map.goal;
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      level: this.level,
      score: this.score,
      completion_progress: this.progress(),
      player: {
        x: this.x, y: this.y, vx: this.vx, vy: this.vy, on_ground: this.onGround,
        gliding: this.gliding, stunned_ms: Math.round(this.stun * 1000 / TICK_HZ),
        flap_meter: this.flapMeter(), alive: true,
      },
      flap_meter: this.flapMeter(),
      next_flap_ms: Math.round(nextFlapTicks * 1000 / TICK_HZ),
      goal: { x: g.x, y: g.y, kind: this.map.kind },
      spikes: spikes.slice(0, SPIKES_IN_STATE).map((s) => ({ x: s.x, y: s.y, dir: s.dir })),
      flaps: this.flaps,
      spike_hits: this.spikeHits,
      deaths: this.deaths,
      level_time_s: Math.round(this.levelTicks * 100 / TICK_HZ) / 100,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard (catalog/games/_shell): events are queued and consumed at the start
  // of each tick, so a press and release between two ticks still counts as held
  // for one tick.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " "],
    // Humans only: Enter on the final screen starts again from level 1 of the episode.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  function consumeInput() {
    const { pressed, down } = keys.take();
    for (const k of pressed) down.add(k);
    return down;
  }

  // ---------------------------------------------------------------------------
  // Renderer: the level's background, blocks and spikes are painted once into
  // an offscreen canvas; each frame copies it and draws goal, bird and HUD.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    bg: "#2B2F3A",
    bgGrid: "#323745",
    block: "#7A7F8C",
    blockTop: "#A3A8B3",
    blockEdge: "#4A4E58",
    spike: "#E53935",
    spikeEdge: "#7F1010",
    bird: "#2D7DF6",
    bread: "#F5C518",
    crust: "#9A5B1E",
    toast: "#C98A3A",
    goalGlow: "#2ECC71",
  };

  function textOutlined(c2d, str, x, y, font, align) {
    c2d.font = font;
    c2d.textAlign = align;
    c2d.textBaseline = "middle";
    c2d.lineJoin = "round";
    c2d.lineWidth = 3;
    c2d.strokeStyle = "#111";
    c2d.strokeText(str, x, y);
    c2d.fillStyle = "#fff";
    c2d.fillText(str, x, y);
  }

  const staticLayers = [];
  function staticLayer(map) {
    if (staticLayers[map.index]) return staticLayers[map.index];
    const layer = document.createElement("canvas");
    layer.width = W;
    layer.height = H;
    const g = layer.getContext("2d");
    g.fillStyle = COLORS.bg;
    g.fillRect(0, 0, W, H);
    g.strokeStyle = COLORS.bgGrid;
    g.lineWidth = 1;
    for (let c = 0; c <= COLS; c++) {
      g.beginPath();
      g.moveTo(c * TILE + 0.5, WORLD_OY);
      g.lineTo(c * TILE + 0.5, WORLD_OY + ROWS * TILE);
      g.stroke();
    }
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        const x = c * TILE;
        const y = WORLD_OY + r * TILE;
        if (map.solid[r * COLS + c]) {
          g.fillStyle = COLORS.block;
          g.fillRect(x, y, TILE, TILE);
          const airAbove = r > 0 && !map.solid[(r - 1) * COLS + c];
          if (airAbove) {
            g.fillStyle = COLORS.blockTop;
            g.fillRect(x, y, TILE, 6);
          }
          g.strokeStyle = COLORS.blockEdge;
          g.lineWidth = 2;
          g.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
        }
      }
    }
    for (const s of map.spikes) {
      const b = spikeBox(s);
      g.fillStyle = COLORS.spike;
      g.strokeStyle = COLORS.spikeEdge;
      g.lineWidth = 2;
      // Two teeth per tile spanning the hazard box.
      const mid = (b.x0 + b.x1) / 2;
      for (const [a, z] of [[b.x0, mid], [mid, b.x1]]) {
        g.beginPath();
        if (s.dir === "up") {
          g.moveTo(a, WORLD_OY + b.y1);
          g.lineTo((a + z) / 2, WORLD_OY + b.y0);
          g.lineTo(z, WORLD_OY + b.y1);
        } else {
          g.moveTo(a, WORLD_OY + b.y0);
          g.lineTo((a + z) / 2, WORLD_OY + b.y1);
          g.lineTo(z, WORLD_OY + b.y0);
        }
        g.closePath();
        g.fill();
        g.stroke();
      }
    }
    staticLayers[map.index] = layer;
    return layer;
  }

  function drawGoal(c) {
    const g = c.map.goal;
    const bob = Math.sin(c.totalTicks / 60 * Math.PI * 2 * 0.5) * 3;
    const x = g.x;
    const y = WORLD_OY + g.y + bob;
    ctx.fillStyle = "rgba(46,204,113,0.35)";
    ctx.beginPath();
    ctx.arc(x, y + 2, 26, 0, Math.PI * 2);
    ctx.fill();
    // A slice: rounded top over a square base, crust rim.
    ctx.fillStyle = c.map.kind === "toast" ? COLORS.toast : COLORS.bread;
    ctx.strokeStyle = COLORS.crust;
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.moveTo(x - 14, y + 16);
    ctx.lineTo(x - 14, y - 2);
    ctx.arc(x - 7, y - 6, 9, Math.PI * 0.8, Math.PI * 1.5);
    ctx.arc(x + 7, y - 6, 9, Math.PI * 1.5, Math.PI * 0.2);
    ctx.lineTo(x + 14, y + 16);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }

  function drawBird(c) {
    const x = c.x;
    const y = WORLD_OY + c.y;
    const stunBlink = c.stun > 0 && Math.floor(c.totalTicks / 4) % 2 === 0;
    ctx.save();
    ctx.translate(x, y);
    ctx.scale(c.facing, 1);
    ctx.fillStyle = stunBlink ? "#8FB8FA" : COLORS.bird;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.ellipse(0, 0, BIRD_W / 2, BIRD_H / 2, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    // Wing: up right after a flap or while gliding, otherwise down.
    const wingUp = c.gliding || c.meter < 12 || Math.floor(c.totalTicks / 5) % 2 === 0;
    ctx.fillStyle = "#1B4FA8";
    ctx.beginPath();
    if (c.gliding) ctx.ellipse(-4, -4, 16, 5, 0, 0, Math.PI * 2);
    else ctx.ellipse(-5, wingUp ? -8 : 4, 9, 6, wingUp ? -0.6 : 0.4, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.beginPath();
    ctx.arc(7, -5, 5, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#111";
    ctx.beginPath();
    ctx.arc(8.5, -5, 2.2, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#F29B1D";
    ctx.beginPath();
    ctx.moveTo(14, -1);
    ctx.lineTo(22, 2);
    ctx.lineTo(14, 6);
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  }

  function drawHud(c) {
    ctx.fillStyle = "rgba(0,0,0,0.55)";
    ctx.fillRect(0, 0, W, HUD_H);
    textOutlined(ctx, "Restless Wing Syndrome", 16, HUD_H / 2, "20px sans-serif", "left");
    // Flap meter: 5 cells of 24 px; full cells are time left before the next flap.
    textOutlined(ctx, "Flap", 262, HUD_H / 2, "20px sans-serif", "left");
    const cells = c.flapMeter();
    for (let i = 0; i < METER_CELLS; i++) {
      const x = 312 + i * 30;
      ctx.fillStyle = i < cells ? "#F5F5F5" : "rgba(255,255,255,0.15)";
      ctx.fillRect(x, 16, 24, 24);
      ctx.strokeStyle = "#111";
      ctx.lineWidth = 2;
      ctx.strokeRect(x, 16, 24, 24);
    }
    const shown = Math.min(c.level, LAST_LEVEL);
    textOutlined(ctx, "Level " + shown + " / " + LAST_LEVEL, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    const hits = c.lethal ? "Deaths " + c.deaths : "Spike hits " + c.spikeHits;
    textOutlined(ctx, hits + "   Time " + (c.levelTicks / TICK_HZ).toFixed(1) + " s",
      W - 16, HUD_H / 2, "20px sans-serif", "right");
  }

  function drawOverlay(c) {
    if (c.status !== "terminal") return;
    const pw = 600;
    const ph = 150;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2;
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    textOutlined(ctx, "LEVEL COMPLETE", W / 2, py + 50, "bold 36px sans-serif", "center");
    textOutlined(ctx, "All " + LAST_LEVEL + " levels done \u2013 press Enter to play again",
      W / 2, py + 105, "20px sans-serif", "center");
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    ctx.drawImage(staticLayer(core.map), 0, 0);
    drawGoal(core);
    drawBird(core);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop (catalog/games/_shell): one rAF loop for the page's lifetime, fixed
  // ticks from an accumulator, a backlog dropped after 15 ticks in one frame.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let lethal = false;
  let ticked = false;

  const loop = Shell.loop({
    tickMs: TICK_MS,
    tick() {
      ticked = true;
      const held = consumeInput();
      if (!core || core.status === "terminal") return;
      core.tick({ left: held.has("ArrowLeft"), right: held.has("ArrowRight"), up: held.has("ArrowUp") });
    },
    // Nothing moves between ticks: a frame without one draws nothing.
    render() {
      if (!ticked) return;
      ticked = false;
      render();
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  function normLevel(l) {
    const n = Math.floor(Number(l));
    return n >= 1 && n <= LAST_LEVEL ? n : 1;
  }

  const ep = Shell.episodes({
    pickLevel: normLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(level, lethal);
      render();
    },
  });

  // difficulty "classic" makes spikes lethal. Unlike seed and level it is read
  // from reset's options too (the shell's episodes pass on init's config only),
  // and a reset that names none keeps the episode's.
  function pickLethal(cfg, current) {
    return cfg && cfg.difficulty !== undefined ? cfg.difficulty === "classic" : current;
  }

  const api = {
    capabilities: {
      supports_seed: false,
      supports_inplace_reset: true,
      supports_level_select: true,
    },

    init(config) {
      lethal = pickLethal(config, false);
      return ep.init(config);
    },

    reset(options) {
      lethal = pickLethal(options, lethal);
      return ep.reset(options);
    },

    getState() {
      if (!core) {
        return {
          gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: 0, status: "loading",
          terminal: { isTerminal: false, outcome: null, reason: null },
          game_state: { level: ep.level, score: 0, completion_progress: 0, player: null },
          metrics: { primary_score: 0, attempts: 0, flaps: 0, spike_hits: 0, deaths: 0,
            level_time_s: 0, harmless_spikes: lethal ? 0 : 1 },
          raw: {},
        };
      }
      const s = core.snapshot();
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),
        gameTimeMs: s.gameTimeMs,
        status: s.status,
        terminal: s.terminal,
        game_state: {
          level: s.level,
          score: s.score,
          completion_progress: s.completion_progress,
          player: s.player,
          flap_meter: s.flap_meter,
          next_flap_ms: s.next_flap_ms,
          goal: s.goal,
          spikes: s.spikes,
        },
        metrics: {
          primary_score: s.score,
          attempts: ep.attempts,
          flaps: s.flaps,
          spike_hits: s.spike_hits,
          deaths: s.deaths,
          level_time_s: s.level_time_s,
          harmless_spikes: core.lethal ? 0 : 1,
        },
        raw: {
          ticks: core.totalTicks,
          tile_px: TILE,
          world_origin_y: WORLD_OY,
          bird_size: [BIRD_W, BIRD_H],
        },
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
