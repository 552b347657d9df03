// Boxel Rebound for pytest-gameworld.
//
// A pure simulation core (createCore) that knows nothing about the DOM, a
// canvas renderer, a keyboard queue, one requestAnimationFrame loop with fixed
// 1/60 s ticks, and window.gameAPI. The oracle clones the core through
// window.__gwCore to look ahead; nothing else is exposed.
(function () {
  "use strict";

  const GAME_ID = "04-boxel-rebound";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 04). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const TILE = 40;
  const ROWS = 9;                  // row 8 is the ground row (top at y = 560)
  const GROUND_ROW = 8;
  const GROUND_Y = 560;
  const ROW0_Y = GROUND_Y - GROUND_ROW * TILE;   // 240: top of row 0
  const CUBE = 40;
  const CAMERA_X = 320;            // screen x of the cube's left edge
  const SPEED = 400;               // px/s, 80 px per 0.2 s step
  const DX = SPEED / TICK_HZ;
  const JUMP_VY = -1000;
  const PAD_VY = -1400;
  const GRAVITY = 2860;
  const STEP_UP = 10;              // a block edge this far below the cube's bottom is stepped onto
  const DEATH_Y = H + 40;          // fell out of the world through a pit
  const START_X = 160;             // cube's left edge at the start
  const HAZARDS_IN_STATE = 8;

  // Level lengths (x_finish - x_start), docs/games.md: 4400, 5600, 6400 px. Level 3
  // is 6320 px (docs/catalog.md, issue 24): 6400 px are exactly 80 steps of
  // running, and the step whose press starts the run made the oracle's 81st.
  const LENGTH = { 1: 4400, 2: 5600, 3: 6320 };

  // Hand-made levels, one string per 40 px row, row 0 at y = 240, row 8 the
  // ground row at y = 560. Legend:
  //   .  empty            #  solid block (land on top; its side kills)
  //   ^  floor spike      v  ceiling spike (hangs from the tile's top)
  //   P  jump pad         =  ground (solid down to the bottom)   _  pit
  const LEVELS = {
    1: [
      "............................................................................................................................",
      "............................................................................................................................",
      "............................................................................................................................",
      "............................................................................................................................",
      "............................................................................................................................",
      "............................................................................................................................",
      "............................................................................................................................",
      "..............^.........^^..................^.........^^......###.........^..................^^.......^......^..............",
      "==================================__================================================__======================================",
    ],
    2: [
      "..........................................................................................................................................................",
      "..........................................................................................................................................................",
      "..........................................................................................................................................................",
      "..........................................................................................................................................................",
      "..........................................................................................................................................................",
      "................................................................................................###.......................................................",
      "........................###..................................................................######.......................................................",
      ".............^^......######................####^.......^^..............^.....P............#########.......^^..............^...###....^....^^..............",
      "==================================___==========================___================___============================___======================================",
    ],
    3: [
      "...................########.............................................##########..................................................#######...................................",
      "...................########.............................................##########..................................................#######...................................",
      "...................########.............................................##########..................................................#######...................................",
      "...................########.............................................##########..................................................#######...................................",
      "...................########.............................................##########..................................................#######...................................",
      "...................########.............................................##########..................................................#######...................................",
      "...................vvvvvvvv...................................###.......vvvvvvvvvv.......................................###........vvvvvvv...................................",
      "............^^..........................^^.....P...^^^.....######^.............................^.....^^.....P...^^^....#####...................^^.............^^..............",
      "===============================____===================================================____==================================___======================____=====================",
    ],
  };

  // Tile hit boxes, relative to the tile's top-left corner: spikes are
  // smaller than their 40 px tile, as in the original, so a near miss lives.
  const FLOOR_SPIKE_BOX = [11, 14, 18, 26];
  const CEIL_SPIKE_BOX = [11, 0, 18, 26];
  const PAD_BOX = [0, 30, 40, 10];

  function parseLevel(level) {
    const rows = LEVELS[level];
    const cols = rows[0].length;
    const solid = [];              // per row: Uint8Array of 1 where solid
    const hazards = [];            // static list of obstacles for the state
    for (let r = 0; r < ROWS; r++) {
      const line = new Uint8Array(cols);
      for (let c = 0; c < cols; c++) {
        const ch = rows[r][c];
        if (ch === "#" || ch === "=") line[c] = 1;
      }
      solid.push(line);
    }
    // Obstacles merged into runs for the state's `hazards` list.
    const add = (type, c0, c1, y, h) => hazards.push({ type: type, x: c0 * TILE, y: y, w: (c1 - c0) * TILE, h: h });
    const runs = (r, pred, fn) => {
      for (let c = 0; c < cols; ) {
        if (!pred(rows[r][c], c)) { c++; continue; }
        let e = c;
        while (e < cols && pred(rows[r][e], e)) e++;
        fn(c, e);
        c = e;
      }
    };
    runs(GROUND_ROW, (ch) => ch === "_", (a, b) => add("pit", a, b, GROUND_Y, H - GROUND_Y));
    for (let r = 0; r < GROUND_ROW; r++) {
      runs(r, (ch) => ch === "^", (a, b) => add("spike", a, b, ROW0_Y + r * TILE, TILE));
      runs(r, (ch) => ch === "v", (a, b) => add("ceiling_spike", a, b, ROW0_Y + r * TILE, TILE));
      runs(r, (ch) => ch === "P", (a, b) => add("pad", a, b, ROW0_Y + r * TILE + PAD_BOX[1], PAD_BOX[3]));
    }
    // Block columns: one entry per run of equal-height ground-standing stacks.
    const height = (c) => {
      let h = 0;
      for (let r = GROUND_ROW - 1; r >= 0 && rows[r][c] === "#"; r--) h++;
      return rows[0][c] === "#" ? 0 : h;   // full-height slabs belong to ceilings
    };
    for (let c = 0; c < cols; ) {
      const h = height(c);
      if (!h) { c++; continue; }
      let e = c;
      while (e < cols && height(e) === h) e++;
      add("block", c, e, GROUND_Y - h * TILE, h * TILE);
      c = e;
    }
    hazards.sort((a, b) => a.x - b.x || a.y - b.y);
    return { rows: rows, cols: cols, solid: solid, hazards: hazards };
  }

  const PARSED = {};
  function levelData(level) {
    if (!PARSED[level]) PARSED[level] = parseLevel(level);
    return PARSED[level];
  }

  function overlaps(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------
  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    core.map = levelData(level);
    core.finishX = START_X + LENGTH[level];
    core.status = "ready";        // frozen until the first jump press (see tick)
    core.startHeld = false;       // the starting press must be released before a jump
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.x = START_X;              // cube's left edge (world px)
    core.y = GROUND_Y - CUBE;      // cube's top edge
    core.vy = 0;
    core.onGround = true;
    core.held = false;             // jump key held this tick
    core.jumps = 0;
    core.spin = 0;                 // quarter turns done (cosmetic)
    core.progress = 0;
    return core;
  }

  function Core() {}

  // Solid tile at (col,row)? The ground row is solid down to the bottom.
  Core.prototype.solidAt = function (c, r) {
    if (c < 0 || c >= this.map.cols || r < 0) return false;
    if (r >= GROUND_ROW) return this.map.solid[GROUND_ROW][c] === 1;
    return this.map.solid[r][c] === 1;
  };

  // Solid tiles overlapping the cube box: yields [col,row,top,bottom].
  Core.prototype.solidOverlaps = function (x, y) {
    const out = [];
    const c0 = Math.floor(x / TILE), c1 = Math.floor((x + CUBE - 1e-6) / TILE);
    const r0 = Math.floor((y - ROW0_Y) / TILE), r1 = Math.floor((y + CUBE - 1e-6 - ROW0_Y) / TILE);
    for (let c = c0; c <= c1; c++) {
      for (let r = Math.max(0, r0); r <= r1; r++) {
        if (!this.solidAt(c, r)) continue;
        const top = ROW0_Y + r * TILE;
        const bottom = r >= GROUND_ROW ? H * 4 : top + TILE;
        out.push([c, r, top, bottom]);
      }
    }
    return out;
  };

  Core.prototype.die = function (reason) {
    this.status = "terminal";
    this.outcome = "fail";
    this.reason = reason;
  };

  // input = {jump: boolean}: jump key held during this tick (a tap between
  // two ticks counts as held for one tick). Hold-repeat: a held key jumps
  // whenever the cube is grounded.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    this.held = !!(input && input.jump);
    if (this.status === "ready") {
      // Departure from docs/games.md 1.4: the run waits for a first press (as in
      // Dino/Flappy), so an agent that only waits never scores. The press
      // starts the run without jumping.
      if (!this.held) return;
      this.status = "playing";
      this.startHeld = true;
    }
    if (this.status !== "playing") return;
    this.playTicks++;
    if (!this.held) this.startHeld = false;
    if (this.held && this.onGround && !this.startHeld) {
      this.vy = JUMP_VY;
      this.onGround = false;
      this.jumps++;
      this.spin++;
    }
    // Horizontal: a solid edge a little below the cube's bottom is stepped
    // onto; anything higher is a wall.
    this.x += DX;
    for (const [, r, top] of this.solidOverlaps(this.x, this.y)) {
      const depth = this.y + CUBE - top;
      if (depth <= STEP_UP && this.vy >= 0) {
        this.y = top - CUBE;
        this.vy = 0;
      } else {
        this.die(r >= GROUND_ROW && this.y + CUBE > GROUND_Y ? "pit" : "wall");
        return;
      }
    }
    // Vertical.
    this.vy += GRAVITY * DT;
    this.y += this.vy * DT;
    this.onGround = false;
    for (const [, , top, bottom] of this.solidOverlaps(this.x, this.y)) {
      if (this.vy >= 0) {
        this.y = top - CUBE;
        this.vy = 0;
        this.onGround = true;
      } else {
        this.y = bottom;           // bumped a block from below
        this.vy = 0;
      }
    }
    if (this.y > DEATH_Y) { this.die("pit"); return; }
    this.checkTiles();
    if (this.status !== "playing") return;
    this.progress = Math.max(this.progress, this.progressAt(this.x));
    if (this.x >= this.finishX) {
      this.progress = 1;
      this.status = "terminal";
      this.outcome = "success";
      this.reason = "level_complete";
    }
  };

  Core.prototype.progressAt = function (x) {
    return Math.min(1, Math.max(0, (x - START_X) / (this.finishX - START_X)));
  };

  // Spikes kill; pads launch.
  Core.prototype.checkTiles = function () {
    const c0 = Math.floor(this.x / TILE), c1 = Math.floor((this.x + CUBE) / TILE);
    for (let c = c0; c <= c1; c++) {
      if (c < 0 || c >= this.map.cols) continue;
      for (let r = 0; r < GROUND_ROW; r++) {
        const ch = this.map.rows[r][c];
        if (ch === "." || ch === "#") continue;
        const tx = c * TILE, ty = ROW0_Y + r * TILE;
        const box = ch === "^" ? FLOOR_SPIKE_BOX : ch === "v" ? CEIL_SPIKE_BOX : ch === "P" ? PAD_BOX : null;
        if (!box || !overlaps(this.x, this.y, CUBE, CUBE, tx + box[0], ty + box[1], box[2], box[3])) continue;
        if (ch === "P") {
          if (this.vy >= 0) {
            this.vy = PAD_VY;
            this.onGround = false;
            this.spin++;
          }
        } else {
          this.die("spike");
          return;
        }
      }
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);        // map is shared and never mutated
    return c;
  };

  // Next obstacles whose right end is still ahead of the cube's left edge.
  Core.prototype.hazardsAhead = function () {
    const out = [];
    for (const h of this.map.hazards) {
      if (h.x + h.w <= this.x) continue;
      out.push({ type: h.type, x: h.x, y: h.y, w: h.w, h: h.h });
      if (out.length >= HAZARDS_IN_STATE) break;
    }
    return out;
  };

  Core.prototype.snapshot = function () {
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    const score = Math.floor(100 * this.progress + 1e-9);
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      game_state: {
        completion_progress: this.progress,
        level: this.level,
        score: score,
        player: {
          x: this.x, y: this.y, vy: this.vy, on_ground: this.onGround,
          jump_ready: this.onGround && !this.held && this.status === "playing", alive: alive,
        },
        hazards: this.hazardsAhead(),
        finish_x: this.finishX,
      },
      metrics: {
        primary_score: score,
        distance: Math.round(this.x - START_X),
        jumps: this.jumps,
        deaths: alive ? 0 : 1,
      },
      raw: { ticks: this.totalTicks, play_ticks: this.playTicks, start_x: START_X, cube_size: CUBE, ground_y: GROUND_Y },
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still counts as held for one tick.
  // ---------------------------------------------------------------------------
  const JUMP_KEYS = new Set([" ", "ArrowUp"]);
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    onDown(k) {   // humans only
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // The keys held now and every key that went down this tick (a tap counts as held for it).
  function consumeInput() {
    const { downs, down } = keys.take();
    for (const k of downs) down.add(k);
    return down;
  }

  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas fill (drawSky): the
  // browser can then drop earlier frames' draw calls instead of rasterising
  // them all when the picture is read back.
  let ctx = canvas.getContext("2d", { alpha: false });   // swapped briefly while the HUD layer is drawn

  const COLORS = {
    player: "#2D7DF6",
    hazard: "#E53935",
    hazardEdge: "#7A1010",
    pad: "#F5C518",
    padEdge: "#6B5200",
    goal: "#2ECC71",
    block: "#7D7F86",
    blockEdge: "#3C3E44",
    ground: "#6B5A48",
    groundTop: "#8C7A64",
  };

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

  // Flat dark violet-grey sky with a faint grid scrolled with parallax. Drawn
  // directly: blitting a cached full-screen layer cost more in headless
  // Chromium's software canvas than a fill and a few lines.
  const GRID = 80;
  function drawSky(camX) {
    ctx.fillStyle = "#2C2938";
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = "rgba(255,255,255,0.05)";
    ctx.lineWidth = 2;
    ctx.beginPath();
    const off = Math.floor((camX * 0.3) % GRID);
    for (let x = -off; x <= W; x += GRID) { ctx.moveTo(x, HUD_H); ctx.lineTo(x, H); }
    for (let y = GRID; y <= H; y += GRID) { ctx.moveTo(0, y); ctx.lineTo(W, y); }
    ctx.stroke();
  }

  function drawTile(ch, sx, sy) {
    if (ch === "#") {
      ctx.fillStyle = COLORS.block;
      ctx.fillRect(sx, sy, TILE, TILE);
      ctx.strokeStyle = COLORS.blockEdge;
      ctx.lineWidth = 2;
      ctx.strokeRect(sx + 1, sy + 1, TILE - 2, TILE - 2);
    } else if (ch === "^" || ch === "v") {
      ctx.fillStyle = COLORS.hazard;
      ctx.strokeStyle = COLORS.hazardEdge;
      ctx.lineWidth = 2;
      ctx.beginPath();
      if (ch === "^") { ctx.moveTo(sx + 2, sy + TILE); ctx.lineTo(sx + TILE / 2, sy + 2); ctx.lineTo(sx + TILE - 2, sy + TILE); }
      else { ctx.moveTo(sx + 2, sy); ctx.lineTo(sx + TILE / 2, sy + TILE - 2); ctx.lineTo(sx + TILE - 2, sy); }
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    } else if (ch === "P") {
      // A yellow spring plate with an upward chevron.
      ctx.fillStyle = COLORS.pad;
      ctx.strokeStyle = COLORS.padEdge;
      ctx.lineWidth = 2;
      ctx.fillRect(sx + 2, sy + TILE - 12, TILE - 4, 12);
      ctx.strokeRect(sx + 2, sy + TILE - 12, TILE - 4, 12);
      ctx.beginPath();
      ctx.moveTo(sx + 8, sy + TILE - 16);
      ctx.lineTo(sx + TILE / 2, sy + TILE - 30);
      ctx.lineTo(sx + TILE - 8, sy + TILE - 16);
      ctx.lineWidth = 4;
      ctx.strokeStyle = COLORS.pad;
      ctx.stroke();
    }
  }

  function drawWorld(c) {
    const camX = c.x - CAMERA_X;
    drawSky(camX);
    const rows = c.map.rows;
    const c0 = Math.max(0, Math.floor(camX / TILE));
    const c1 = Math.min(c.map.cols - 1, Math.floor((camX + W) / TILE));
    for (let col = c0; col <= c1; col++) {
      const sx = Math.round(col * TILE - camX);
      for (let r = 0; r < GROUND_ROW; r++) {
        const ch = rows[r][col];
        if (ch !== ".") drawTile(ch, sx, ROW0_Y + r * TILE);
      }
    }
    // Ground: one rectangle per run of ground columns.
    const ground = rows[GROUND_ROW];
    for (let col = c0; col <= c1; ) {
      if (ground[col] !== "=") { col++; continue; }
      let end = col;
      while (end <= c1 && ground[end] === "=") end++;
      const sx = Math.round(col * TILE - camX), ex = Math.round(end * TILE - camX);
      ctx.fillStyle = COLORS.ground;
      ctx.fillRect(sx, GROUND_Y, ex - sx, H - GROUND_Y);
      ctx.fillStyle = COLORS.groundTop;
      ctx.fillRect(sx, GROUND_Y, ex - sx, 6);
      col = end;
    }
    // Past the end of the strings: more ground.
    const endX = Math.round(c.map.cols * TILE - camX);
    if (endX < W) {
      ctx.fillStyle = COLORS.ground;
      ctx.fillRect(endX, GROUND_Y, W - endX, H - GROUND_Y);
      ctx.fillStyle = COLORS.groundTop;
      ctx.fillRect(endX, GROUND_Y, W - endX, 6);
    }
    // Finish line: a green and white chequered post.
    const fx = Math.round(c.finishX + CUBE - camX);
    if (fx > -40 && fx < W + 40) {
      for (let k = 0; k < 16; k++) {
        for (let j = 0; j < 2; j++) {
          ctx.fillStyle = (k + j) % 2 ? COLORS.goal : "#F4F4F4";
          ctx.fillRect(fx + j * 14, GROUND_Y - (k + 1) * 20, 14, 20);
        }
      }
    }
  }

  function drawCube(c) {
    const sx = CAMERA_X + CUBE / 2;
    const sy = c.y + CUBE / 2;
    // One quarter turn per jump, eased over the first 0.3 s of the flight.
    const turn = c.onGround ? 0 : Math.min(1, (c.airTicks || 0) / 18);
    ctx.save();
    ctx.translate(sx, sy);
    ctx.rotate(((c.spin - 1 + turn) % 4) * Math.PI / 2 * (c.spin ? 1 : 0));
    ctx.fillStyle = COLORS.player;
    ctx.fillRect(-CUBE / 2, -CUBE / 2, CUBE, CUBE);
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    ctx.strokeRect(-CUBE / 2 + 1, -CUBE / 2 + 1, CUBE - 2, CUBE - 2);
    ctx.fillStyle = "#fff";
    ctx.fillRect(4, -10, 8, 8);
    ctx.restore();
  }

  // The HUD changes only when the percentage or attempt does: keep it on a
  // small offscreen layer (text with outlines is costly to rasterize).
  let hudLayer = null, hudKey = null;
  function drawHud(c) {
    const pct = Math.floor(100 * c.progress + 1e-9);
    const key = c.level + ":" + pct + ":" + ep.attempts;
    if (!hudLayer) {
      hudLayer = document.createElement("canvas");
      hudLayer.width = W;
      hudLayer.height = HUD_H;
    }
    if (key !== hudKey) {
      hudKey = key;
      const main = ctx;
      ctx = hudLayer.getContext("2d");
      ctx.clearRect(0, 0, W, HUD_H);
      ctx.fillStyle = "rgba(0,0,0,0.55)";
      ctx.fillRect(0, 0, W, HUD_H);
      textOutlined("Boxel Rebound", 20, HUD_H / 2, "bold 28px sans-serif", "left");
      textOutlined("Level " + c.level, 250, HUD_H / 2 + 1, "20px sans-serif", "left");
      textOutlined("Progress " + pct + "%", W / 2 - 70, HUD_H / 2, "bold 28px sans-serif", "center");
      ctx.fillStyle = "rgba(255,255,255,0.2)";
      ctx.fillRect(W / 2 + 60, 18, 160, 20);
      ctx.fillStyle = COLORS.goal;
      ctx.fillRect(W / 2 + 60, 18, 160 * pct / 100, 20);
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = 2;
      ctx.strokeRect(W / 2 + 60, 18, 160, 20);
      textOutlined("Attempt " + ep.attempts, W - 20, HUD_H / 2, "20px sans-serif", "right");
      ctx = main;
    }
    ctx.drawImage(hudLayer, 0, 0);
  }

  function drawOverlay(c) {
    if (c.status === "ready") {
      textOutlined("PRESS SPACE TO START", W / 2, 180, "bold 36px sans-serif", "center");
      textOutlined("then Space or \u2191 to jump", W / 2, 226, "24px sans-serif", "center");
      return;
    }
    if (c.status !== "terminal") return;
    const lines = c.outcome === "success"
      ? [["LEVEL COMPLETE", "bold 36px sans-serif"], ["Progress 100%", "bold 28px sans-serif"]]
      : [["GAME OVER \u2013 " + c.reason, "bold 36px sans-serif"],
        ["Progress " + Math.floor(100 * c.progress + 1e-9) + "%", "bold 28px sans-serif"]];
    lines.push(["Press Enter to run again", "20px sans-serif"]);
    const pw = 560, ph = 40 + lines.length * 46;
    const px = (W - pw) / 2, py = (H - ph) / 2 - 60;
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach(([t, f], k) => textOutlined(t, W / 2, py + 43 + k * 46, f, "center"));
  }

  let drawnKey = null;
  function render(force) {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    const key = ep.attempts + ":" + core.totalTicks;
    if (!force && key === drawnKey) return;   // nothing changed since the last frame
    drawnKey = key;
    drawWorld(core);
    drawCube(core);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;

  function runTick() {
    const held = consumeInput();
    if (!core || core.status === "terminal") return;   // input ignored until reset
    const wasGround = core.onGround;
    core.tick({ jump: held.has(" ") || held.has("ArrowUp") });
    core.airTicks = core.onGround ? 0 : (wasGround ? 0 : (core.airTicks || 0) + 1);
  }

  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen; a skipped frame leaves
  // drawnKey stale, so the next visible one draws); a backlog is dropped.
  const loop = Shell.loop({ tickMs: TICK_MS, visibleOnly: true, tick: runTick, render: () => render(false) });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  function normLevel(l) {
    const n = Number(l);
    return LEVELS[n] ? n : 1;
  }

  const ep = Shell.episodes({
    pickLevel: normLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render(true);
    },
  });

  const api = {
    // Fixed hand-made levels and no randomness: the seed changes nothing.
    capabilities: { supports_seed: false, supports_inplace_reset: true, supports_level_select: true },

    init: ep.init,
    reset: ep.reset,

    getState() {
      const c = core || createCore(ep.seed, ep.level);
      const s = c.snapshot();
      s.metrics.attempts = ep.attempts;
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),
        gameTimeMs: s.gameTimeMs,
        status: core ? s.status : "loading",
        terminal: s.terminal,
        game_state: s.game_state,
        metrics: s.metrics,
        raw: s.raw,
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(true), loop });
})();
