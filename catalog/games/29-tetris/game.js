// Tetris for pytest-gameworld.
//
// Layout of this file:
//   1. constants and helpers (hash, PRNG, piece tables, SRS kicks)  - pure
//   2. createCore(seed, level): the simulation                        - pure, no DOM, no clock
//   3. renderer: cached static and board layers, redrawn only on change
//   4. browser shell: keyboard queue, fixed-tick rAF loop, window.gameAPI
//
// The simulation counts 1/60 s ticks and never reads a clock, so a run is a
// pure function of (seed, input events per tick).
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "29-tetris";
  const TICK_HZ = 60;
  const TICK_MS = 1000 / TICK_HZ;
  const COLS = 10;
  const ROWS = 20;
  const HIDDEN = 4; // rows above the visible matrix, room for spawns and upward kicks
  const CELL = 30;
  const MATRIX_X = 490;
  const MATRIX_Y = 90;

  const GRAVITY_TICKS_L1 = 48; // 0.8 s per row at level 1, x0.8 per level
  const SOFT_DROP_PER_TICK = 20 / TICK_HZ; // 20 rows/s while ArrowDown is held
  const LOCK_TICKS = 30; // 0.5 s lock delay ...
  const LOCK_RESETS = 15; // ... reset by a move or rotation at most 15 times
  const DAS_TICKS = 15; // auto-repeat starts 0.25 s after the press ...
  const ARR_TICKS = 3; // ... and repeats every 0.05 s
  const LINES_PER_LEVEL = 10;
  const LINE_POINTS = [0, 100, 300, 500, 800];
  const QUEUE_SHOWN = 5;
  const SCORE_FOR_FULL_PROGRESS = 600; // hardest task target; progress is diagnostic

  const TYPES = "IJLOSTZ";
  // State-0 cells [x, y] inside each piece's n x n box (y down). The other
  // three states are true rotations inside the box, which is what SRS uses.
  const BASE = {
    I: { n: 4, cells: [[0, 1], [1, 1], [2, 1], [3, 1]] },
    J: { n: 3, cells: [[0, 0], [0, 1], [1, 1], [2, 1]] },
    L: { n: 3, cells: [[2, 0], [0, 1], [1, 1], [2, 1]] },
    O: { n: 2, cells: [[0, 0], [1, 0], [0, 1], [1, 1]] },
    S: { n: 3, cells: [[1, 0], [2, 0], [0, 1], [1, 1]] },
    T: { n: 3, cells: [[1, 0], [0, 1], [1, 1], [2, 1]] },
    Z: { n: 3, cells: [[0, 0], [1, 0], [1, 1], [2, 1]] },
  };
  const SHAPES = {};
  for (const t of TYPES) {
    const { n, cells } = BASE[t];
    const states = [cells];
    for (let r = 1; r < 4; r++) {
      states.push(states[r - 1].map(([x, y]) => (t === "O" ? [x, y] : [n - 1 - y, x])));
    }
    SHAPES[t] = states;
  }
  // Spawn box position: 3-wide pieces and I over columns 3-6, O over 4-5,
  // all lying on the top visible rows.
  const SPAWN = {
    I: [3, -1], J: [3, 0], L: [3, 0], O: [4, 0], S: [3, 0], T: [3, 0], Z: [3, 0],
  };

  // SRS wall kicks, (dx, dy) with y pointing UP as in the published tables;
  // key "from>to" over rotation states 0, 1 (R), 2, 3 (L).
  const KICKS_JLSTZ = {
    "0>1": [[0, 0], [-1, 0], [-1, 1], [0, -2], [-1, -2]],
    "1>0": [[0, 0], [1, 0], [1, -1], [0, 2], [1, 2]],
    "1>2": [[0, 0], [1, 0], [1, -1], [0, 2], [1, 2]],
    "2>1": [[0, 0], [-1, 0], [-1, 1], [0, -2], [-1, -2]],
    "2>3": [[0, 0], [1, 0], [1, 1], [0, -2], [1, -2]],
    "3>2": [[0, 0], [-1, 0], [-1, -1], [0, 2], [-1, 2]],
    "3>0": [[0, 0], [-1, 0], [-1, -1], [0, 2], [-1, 2]],
    "0>3": [[0, 0], [1, 0], [1, 1], [0, -2], [1, -2]],
  };
  const KICKS_I = {
    "0>1": [[0, 0], [-2, 0], [1, 0], [-2, -1], [1, 2]],
    "1>0": [[0, 0], [2, 0], [-1, 0], [2, 1], [-1, -2]],
    "1>2": [[0, 0], [-1, 0], [2, 0], [-1, 2], [2, -1]],
    "2>1": [[0, 0], [1, 0], [-2, 0], [1, -2], [-2, 1]],
    "2>3": [[0, 0], [2, 0], [-1, 0], [2, 1], [-1, -2]],
    "3>2": [[0, 0], [-2, 0], [1, 0], [-2, -1], [1, 2]],
    "3>0": [[0, 0], [1, 0], [-2, 0], [1, -2], [-2, 1]],
    "0>3": [[0, 0], [-1, 0], [2, 0], [-1, 2], [2, -1]],
  };

  const { hash32, makeRng, nextRandom } = window.GameShell;  // seeded randomness (catalog/games/_shell)

  const EMPTY = 0; // board cells hold 0 or 1 + index into TYPES
  function boardIndex(x, y) {
    return (y + HIDDEN) * COLS + x;
  }

  // ----------------------------------------------------------------- 2. core
  function createCore(seed, level) {
    const base = hash32(GAME_ID, seed, level);
    const core = new Core();
    core.seed = seed;
    core.level = level; // selected level (always 1); the speed level is core.speedLevel
    // Two streams (docs/games.md 1.5): bags come from the generation stream; the
    // runtime stream is reserved so that any later runtime draw cannot shift
    // the piece sequence.
    core.genRng = makeRng(hash32(base, "gen"));
    core.runRng = makeRng(hash32(base, "run"));
    core.board = new Array((ROWS + HIDDEN) * COLS).fill(EMPTY);
    core.queue = [];
    core.cur = null; // {t, r, x, y}: type, rotation state, box top-left
    core.hold = null;
    core.canHold = true;
    core.score = 0;
    core.lines = 0;
    core.speedLevel = 1;
    core.piecesPlaced = 0;
    core.tetrises = 0;
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.ticks = 0; // every tick
    core.playTicks = 0; // ticks while playing -> gameTimeMs
    core.fallAcc = 0;
    core.lockTicks = 0;
    core.lockResets = 0;
    core.lowestY = 0;
    core.dasKey = null;
    core.dasTicks = 0;
    core.boardVersion = 0; // bumped whenever locked cells change (renderer cache)
    core.lastClear = 0; // lines cleared by the last lock
    core.lastLanding = 0; // mean height of the last locked piece's cells (oracle feature)
    core.refillQueue();
    core.spawn(core.queue.shift());
    return core;
  }

  function Core() {}

  // 7-bag: every run of seven pieces holds each type once, in shuffled order.
  Core.prototype.refillQueue = function () {
    while (this.queue.length < QUEUE_SHOWN + 1) {
      const bag = TYPES.split("");
      for (let i = bag.length - 1; i > 0; i--) {
        const j = Math.floor(nextRandom(this.genRng) * (i + 1));
        const tmp = bag[i];
        bag[i] = bag[j];
        bag[j] = tmp;
      }
      this.queue.push(...bag);
    }
  };

  Core.prototype.cellAt = function (x, y) {
    if (x < 0 || x >= COLS || y >= ROWS || y < -HIDDEN) return 1; // walls count as filled
    return this.board[boardIndex(x, y)];
  };

  Core.prototype.fits = function (t, r, x, y) {
    for (const [cx, cy] of SHAPES[t][r]) {
      if (this.cellAt(x + cx, y + cy) !== EMPTY) return false;
    }
    return true;
  };

  Core.prototype.spawn = function (t) {
    this.refillQueue();
    const [x, y] = SPAWN[t];
    this.cur = { t, r: 0, x, y };
    this.fallAcc = 0;
    this.lockTicks = 0;
    this.lockResets = 0;
    this.lowestY = y;
    if (!this.fits(t, 0, x, y)) this.end("top_out");
  };

  Core.prototype.end = function (reason) {
    this.status = "terminal";
    this.outcome = "fail";
    this.reason = reason;
  };

  Core.prototype.grounded = function () {
    const c = this.cur;
    return !this.fits(c.t, c.r, c.x, c.y + 1);
  };

  // A successful move or rotation restarts the lock delay while the piece
  // rests on something, at most LOCK_RESETS times per lowest row reached.
  Core.prototype.afterShiftOrRotate = function () {
    if (this.lockTicks > 0 && this.lockResets < LOCK_RESETS) {
      this.lockTicks = 0;
      this.lockResets++;
    }
  };

  Core.prototype.tryMove = function (dx, dy) {
    const c = this.cur;
    if (!this.fits(c.t, c.r, c.x + dx, c.y + dy)) return false;
    c.x += dx;
    c.y += dy;
    if (c.y > this.lowestY) {
      this.lowestY = c.y;
      this.lockResets = 0;
      this.lockTicks = 0;
    }
    return true;
  };

  // dir +1 = clockwise, -1 = counter-clockwise; SRS kicks tried in order.
  Core.prototype.rotate = function (dir) {
    const c = this.cur;
    if (c.t === "O") return false;
    const to = (c.r + dir + 4) % 4;
    const kicks = (c.t === "I" ? KICKS_I : KICKS_JLSTZ)[c.r + ">" + to];
    for (const [kx, ky] of kicks) {
      if (this.fits(c.t, to, c.x + kx, c.y - ky)) {
        c.r = to;
        c.x += kx;
        c.y -= ky;
        if (c.y > this.lowestY) {
          this.lowestY = c.y;
          this.lockResets = 0;
        }
        this.afterShiftOrRotate();
        return true;
      }
    }
    return false;
  };

  Core.prototype.shift = function (dx) {
    if (this.tryMove(dx, 0)) this.afterShiftOrRotate();
  };

  Core.prototype.ghostY = function () {
    const c = this.cur;
    let y = c.y;
    while (this.fits(c.t, c.r, c.x, y + 1)) y++;
    return y;
  };

  Core.prototype.holdPiece = function () {
    if (!this.canHold) return;
    const t = this.cur.t;
    const next = this.hold === null ? this.queue.shift() : this.hold;
    this.hold = t;
    this.canHold = false;
    this.spawn(next);
  };

  Core.prototype.lock = function () {
    const c = this.cur;
    let allHidden = true;
    let heightSum = 0;
    for (const [cx, cy] of SHAPES[c.t][c.r]) {
      const x = c.x + cx;
      const y = c.y + cy;
      this.board[boardIndex(x, y)] = 1 + TYPES.indexOf(c.t);
      if (y >= 0) allHidden = false;
      heightSum += ROWS - y;
    }
    this.lastLanding = heightSum / 4;
    this.piecesPlaced++;
    const n = this.clearLines();
    this.lastClear = n;
    if (n > 0) {
      this.score += LINE_POINTS[n] * this.speedLevel;
      this.lines += n;
      if (n === 4) this.tetrises++;
      this.speedLevel = 1 + Math.floor(this.lines / LINES_PER_LEVEL);
    }
    this.boardVersion++;
    this.canHold = true;
    if (allHidden) {
      this.end("top_out"); // locked entirely above the matrix
      return;
    }
    this.spawn(this.queue.shift());
  };

  Core.prototype.clearLines = function () {
    let cleared = 0;
    for (let y = ROWS - 1; y >= -HIDDEN; ) {
      let full = true;
      for (let x = 0; x < COLS; x++) {
        if (this.board[boardIndex(x, y)] === EMPTY) {
          full = false;
          break;
        }
      }
      if (!full) {
        y--;
        continue;
      }
      cleared++;
      // Move every row above down by one; the same y is checked again.
      const start = boardIndex(0, y);
      this.board.copyWithin(COLS, 0, start);
      this.board.fill(EMPTY, 0, COLS);
    }
    return cleared;
  };

  Core.prototype.hardDrop = function () {
    this.cur.y = this.ghostY();
    this.lock();
  };

  // One 1/60 s tick. input = {pressed: Set of key edges this tick, held: Set}.
  Core.prototype.tick = function (input) {
    this.ticks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    const pressed = input.pressed;
    const held = input.held;
    if (pressed.has("Shift") || pressed.has("c")) this.holdPiece();
    if (this.status !== "playing") return;
    if (pressed.has("x") || pressed.has("ArrowUp")) this.rotate(1);
    if (pressed.has("z")) this.rotate(-1);
    this.horizontal(pressed, held);
    if (pressed.has(" ")) {
      this.hardDrop(); // no gravity in the tick of a hard drop
      return;
    }
    this.gravity(held.has("ArrowDown"));
  };

  // One cell per press edge; while the key stays down, auto-repeat after DAS.
  Core.prototype.horizontal = function (pressed, held) {
    const edge = pressed.has("ArrowLeft") ? "ArrowLeft" : pressed.has("ArrowRight") ? "ArrowRight" : null;
    if (edge) {
      this.dasKey = edge;
      this.dasTicks = 0;
      this.shift(edge === "ArrowLeft" ? -1 : 1);
      return;
    }
    if (this.dasKey === null) return;
    if (!held.has(this.dasKey)) {
      this.dasKey = null;
      return;
    }
    this.dasTicks++;
    if (this.dasTicks >= DAS_TICKS && (this.dasTicks - DAS_TICKS) % ARR_TICKS === 0) {
      this.shift(this.dasKey === "ArrowLeft" ? -1 : 1);
    }
  };

  Core.prototype.gravity = function (soft) {
    const perTick = 1 / (GRAVITY_TICKS_L1 * Math.pow(0.8, this.speedLevel - 1));
    this.fallAcc += soft ? Math.max(perTick, SOFT_DROP_PER_TICK) : perTick;
    while (this.fallAcc >= 1) {
      this.fallAcc -= 1;
      if (!this.tryMove(0, 1)) {
        this.fallAcc = 0;
        break;
      }
    }
    if (this.grounded()) {
      this.lockTicks++;
      if (this.lockTicks >= LOCK_TICKS) this.lock();
    } else {
      this.lockTicks = 0;
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.genRng = { s: this.genRng.s };
    c.runRng = { s: this.runRng.s };
    c.board = this.board.slice();
    c.queue = this.queue.slice();
    c.cur = Object.assign({}, this.cur);
    return c;
  };

  // Column heights (0 = empty column) of the visible matrix.
  Core.prototype.heights = function () {
    const h = new Array(COLS).fill(0);
    for (let x = 0; x < COLS; x++) {
      for (let y = -HIDDEN; y < ROWS; y++) {
        if (this.board[boardIndex(x, y)] !== EMPTY) {
          h[x] = ROWS - y;
          break;
        }
      }
    }
    return h;
  };

  // Empty cells with a filled cell somewhere above them in the same column.
  Core.prototype.holes = function () {
    let holes = 0;
    for (let x = 0; x < COLS; x++) {
      let covered = false;
      for (let y = -HIDDEN; y < ROWS; y++) {
        if (this.board[boardIndex(x, y)] !== EMPTY) covered = true;
        else if (covered) holes++;
      }
    }
    return holes;
  };

  Core.prototype.boardRows = function () {
    const rows = [];
    for (let y = 0; y < ROWS; y++) {
      let s = "";
      for (let x = 0; x < COLS; x++) {
        const v = this.board[boardIndex(x, y)];
        s += v === EMPTY ? "." : TYPES[v - 1];
      }
      rows.push(s);
    }
    return rows;
  };

  Core.prototype.pieceCells = function () {
    const c = this.cur;
    return SHAPES[c.t][c.r].map(([cx, cy]) => [c.x + cx, c.y + cy]);
  };

  // The state as a fresh plain object (getState() without the timestamp).
  Core.prototype.snapshot = function (attempts) {
    const board = this.boardRows();
    const next = this.queue.slice(0, QUEUE_SHOWN);
    const c = this.cur;
    const heights = this.heights();
    const maxHeight = Math.max(...heights);
    const alive = this.outcome !== "fail";
    const cells = this.pieceCells();
    const px = cells.reduce((s, [x]) => s + x, 0) / 4;
    const py = cells.reduce((s, [, y]) => s + y, 0) / 4;
    return {
      gameId: GAME_ID,
      seed: this.seed,
      gameTimeMs: Math.round((this.playTicks * 1000) / TICK_HZ),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        score: this.score,
        level: this.speedLevel,
        lines: this.lines,
        board: board,
        current: { type: c.t, rotation: c.r, x: c.x, y: c.y },
        ghost_y: this.ghostY(),
        hold: this.hold,
        can_hold: this.canHold,
        next: next,
        environment: { board: board.slice(), preview_queue: next.slice() },
        completion_progress: Math.min(1, this.score / SCORE_FOR_FULL_PROGRESS),
        // The falling piece stands in for the player: its centre in canvas px.
        player: {
          x: MATRIX_X + (px + 0.5) * CELL,
          y: MATRIX_Y + (py + 0.5) * CELL,
          type: c.t,
          cells: cells,
          alive: alive,
        },
      },
      metrics: {
        primary_score: this.score,
        lines_cleared: this.lines,
        pieces_placed: this.piecesPlaced,
        lines_remaining: LINES_PER_LEVEL - (this.lines % LINES_PER_LEVEL),
        tetrises: this.tetrises,
        max_height: maxHeight,
        holes: this.holes(),
        attempts: attempts,
        deaths: alive ? 0 : 1,
      },
      raw: { ticks: this.ticks, play_ticks: this.playTicks, level_param: this.level },
    };
  };

  // A state for the moment before init() (every scored path is 0).
  function loadingSnapshot() {
    const board = new Array(ROWS).fill(".".repeat(COLS));
    return {
      gameId: GAME_ID,
      seed: null,
      gameTimeMs: 0,
      status: "loading",
      terminal: { isTerminal: false, outcome: null, reason: null },
      game_state: {
        score: 0, level: 1, lines: 0, board: board, current: null, ghost_y: 0, hold: null,
        can_hold: true, next: [], environment: { board: board.slice(), preview_queue: [] },
        completion_progress: 0, player: { x: 640, y: 390, alive: true },
      },
      metrics: {
        primary_score: 0, lines_cleared: 0, pieces_placed: 0, lines_remaining: LINES_PER_LEVEL,
        tetrises: 0, max_height: 0, holes: 0, attempts: 0, deaths: 0,
      },
      raw: {},
    };
  }

  // Exports for tooling that loads this file outside a browser.

  // ------------------------------------------------------------- 3. renderer
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const COLOURS = {
    I: "#2BC8F0", // cyan
    J: "#3A5CF5", // blue
    L: "#F28A1C", // orange
    O: "#F5D20F", // yellow
    S: "#3CC23C", // green
    T: "#A24BD6", // purple
    Z: "#E8333A", // red
  };
  const BG = "#1B1D24";
  const WELL = "#0D0E12";
  const GRID = "#23262F";
  const PANEL = "#262933";
  const HOLD_BOX = { x: 300, y: 90, w: 160, h: 130 };
  const STATS_BOX = { x: 300, y: 240, w: 160, h: 150 };
  const NEXT_BOX = { x: 820, y: 90, w: 160, h: 470 };
  const PREVIEW_CELL = 24;

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  function makeLayer() {
    const c = document.createElement("canvas");
    c.width = W;
    c.height = H;
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

  // One bevelled block sprite per piece type and size, drawn once.
  const sprites = {};
  function blockSprite(t, size) {
    const key = t + size;
    if (sprites[key]) return sprites[key];
    const c = document.createElement("canvas");
    c.width = size;
    c.height = size;
    const g = c.getContext("2d");
    const b = Math.max(3, Math.round(size / 8));
    g.fillStyle = COLOURS[t];
    g.fillRect(0, 0, size, size);
    g.fillStyle = "rgba(255,255,255,0.35)";
    g.fillRect(0, 0, size, b);
    g.fillRect(0, 0, b, size);
    g.fillStyle = "rgba(0,0,0,0.3)";
    g.fillRect(0, size - b, size, b);
    g.fillRect(size - b, 0, b, size);
    g.strokeStyle = "rgba(0,0,0,0.6)";
    g.lineWidth = 1;
    g.strokeRect(0.5, 0.5, size - 1, size - 1);
    sprites[key] = c;
    return c;
  }

  // Background, panels, labels and the empty matrix grid: drawn once.
  let staticLayer = null;
  function staticImage() {
    if (staticLayer) return staticLayer;
    staticLayer = makeLayer();
    const g = staticLayer.getContext("2d");
    g.fillStyle = BG;
    g.fillRect(0, 0, W, H);
    g.fillStyle = "#101116";
    g.fillRect(0, 0, W, HUD_H);
    for (const box of [HOLD_BOX, STATS_BOX, NEXT_BOX]) {
      g.fillStyle = PANEL;
      g.fillRect(box.x, box.y, box.w, box.h);
      g.strokeStyle = "#4A4F5E";
      g.lineWidth = 2;
      g.strokeRect(box.x, box.y, box.w, box.h);
    }
    textOutlined(g, "HOLD", HOLD_BOX.x + HOLD_BOX.w / 2, HOLD_BOX.y + 20, "bold 20px sans-serif", "center");
    textOutlined(g, "NEXT", NEXT_BOX.x + NEXT_BOX.w / 2, NEXT_BOX.y + 20, "bold 20px sans-serif", "center");
    g.fillStyle = "#4A4F5E";
    g.fillRect(MATRIX_X - 4, MATRIX_Y - 4, COLS * CELL + 8, ROWS * CELL + 8);
    g.fillStyle = WELL;
    g.fillRect(MATRIX_X, MATRIX_Y, COLS * CELL, ROWS * CELL);
    g.strokeStyle = GRID;
    g.lineWidth = 1;
    g.beginPath();
    for (let x = 1; x < COLS; x++) {
      g.moveTo(MATRIX_X + x * CELL + 0.5, MATRIX_Y);
      g.lineTo(MATRIX_X + x * CELL + 0.5, MATRIX_Y + ROWS * CELL);
    }
    for (let y = 1; y < ROWS; y++) {
      g.moveTo(MATRIX_X, MATRIX_Y + y * CELL + 0.5);
      g.lineTo(MATRIX_X + COLS * CELL, MATRIX_Y + y * CELL + 0.5);
    }
    g.stroke();
    textOutlined(g, "Tetris", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    return staticLayer;
  }

  // Static layer + locked cells + HUD numbers + hold/next previews: rebuilt
  // only when a piece locks or is held.
  let boardLayer = null;
  let boardLayerKey = "";
  function boardImage(core) {
    const key = `${core.boardVersion} ${core.hold} ${core.queue.slice(0, QUEUE_SHOWN).join("")}`;
    if (boardLayer && key === boardLayerKey) return boardLayer;
    boardLayerKey = key;
    if (!boardLayer) boardLayer = makeLayer();
    const g = boardLayer.getContext("2d");
    g.drawImage(staticImage(), 0, 0);
    for (let y = 0; y < ROWS; y++) {
      for (let x = 0; x < COLS; x++) {
        const v = core.board[boardIndex(x, y)];
        if (v !== EMPTY) g.drawImage(blockSprite(TYPES[v - 1], CELL), MATRIX_X + x * CELL, MATRIX_Y + y * CELL);
      }
    }
    if (core.hold) drawPreview(g, core.hold, HOLD_BOX.x + HOLD_BOX.w / 2, HOLD_BOX.y + 78);
    core.queue.slice(0, QUEUE_SHOWN).forEach((t, i) => {
      drawPreview(g, t, NEXT_BOX.x + NEXT_BOX.w / 2, NEXT_BOX.y + 78 + i * 84);
    });
    const sx = STATS_BOX.x + 14;
    textOutlined(g, `Pieces ${core.piecesPlaced}`, sx, STATS_BOX.y + 28, "20px sans-serif", "left");
    textOutlined(g, `Tetrises ${core.tetrises}`, sx, STATS_BOX.y + 62, "20px sans-serif", "left");
    textOutlined(g, "Next level in", sx, STATS_BOX.y + 96, "20px sans-serif", "left");
    textOutlined(g, `${LINES_PER_LEVEL - (core.lines % LINES_PER_LEVEL)} lines`, sx, STATS_BOX.y + 124, "20px sans-serif", "left");
    textOutlined(g, `Level ${core.speedLevel}`, 130, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined(g, `Score ${core.score}`, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined(g, `Lines ${core.lines}`, W - 20, HUD_H / 2, "bold 28px sans-serif", "right");
    return boardLayer;
  }

  // A piece in state 0, centred on (cx, cy).
  function drawPreview(g, t, cx, cy) {
    const cells = SHAPES[t][0];
    let minX = 9, maxX = -9, minY = 9, maxY = -9;
    for (const [x, y] of cells) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const ox = cx - ((maxX - minX + 1) * PREVIEW_CELL) / 2;
    const oy = cy - ((maxY - minY + 1) * PREVIEW_CELL) / 2;
    const sprite = blockSprite(t, PREVIEW_CELL);
    for (const [x, y] of cells) {
      g.drawImage(sprite, ox + (x - minX) * PREVIEW_CELL, oy + (y - minY) * PREVIEW_CELL);
    }
  }

  function drawFalling(core) {
    const c = core.cur;
    const gy = core.ghostY();
    ctx.strokeStyle = COLOURS[c.t];
    ctx.lineWidth = 3;
    ctx.globalAlpha = 0.75;
    for (const [cx, cy] of SHAPES[c.t][c.r]) {
      if (gy + cy < 0) continue;
      ctx.strokeRect(MATRIX_X + (c.x + cx) * CELL + 2, MATRIX_Y + (gy + cy) * CELL + 2, CELL - 4, CELL - 4);
    }
    ctx.globalAlpha = 1;
    const sprite = blockSprite(c.t, CELL);
    for (const [cx, cy] of SHAPES[c.t][c.r]) {
      if (c.y + cy < 0) continue; // hidden rows are not drawn
      ctx.drawImage(sprite, MATRIX_X + (c.x + cx) * CELL, MATRIX_Y + (c.y + cy) * CELL);
    }
  }

  function drawTerminal(core) {
    ctx.fillStyle = "rgba(10, 10, 14, 0.8)";
    ctx.fillRect(340, 290, 600, 180);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(340, 290, 600, 180);
    textOutlined(ctx, `GAME OVER \u2013 ${core.reason}`, 640, 340, "bold 40px sans-serif", "center");
    textOutlined(ctx, `Score ${core.score}   Lines ${core.lines}`, 640, 392, "bold 28px sans-serif", "center");
    if (!window.__GW_HARNESS__) textOutlined(ctx, "Press Enter to play again", 640, 436, "20px sans-serif", "center");
  }

  function render(core) {
    if (!core) {
      ctx.drawImage(staticImage(), 0, 0);
      return;
    }
    ctx.drawImage(boardImage(core), 0, 0);
    if (core.status === "playing") drawFalling(core);
    if (core.status === "terminal") drawTerminal(core);
  }

  // ------------------------------------------------------- 4. browser shell
  const Shell = window.GameShell;
  let core = null;
  const keys = Shell.keyboard({
    keys: ["ArrowLeft", "ArrowRight", "ArrowDown", "ArrowUp", "z", "x", " ", "Shift", "c", "Enter"],
    // Humans restart after a top-out; the harness resets through the API.
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

  let drawnKey = "";
  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const input = takeInput();
      if (core) core.tick(input);
    },
    render() {
      const key = viewKey(core);
      if (key !== drawnKey) render(core);
      drawnKey = key;
    },
  });

  // Redraw only when the picture can change: a move, a lock, a hold or a new status.
  function viewKey(c) {
    if (!c) return "none";
    const p = c.cur;
    return `${ep.attempts} ${c.status} ${c.boardVersion} ${p.t}${p.r} ${p.x} ${p.y} ${c.hold}`;
  }

  // Tetris has one selectable level; the speed level rises with lines.
  function pickLevel(level) {
    if (level !== undefined && level !== null && Number(level) !== 1) {
      console.warn(`${GAME_ID} has only level 1; got level ${level}`);
    }
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render(core);
      drawnKey = viewKey(core);
    },
  });

  const api = {
    capabilities: { supports_seed: true, supports_inplace_reset: true, supports_level_select: false },
    init: ep.init,
    reset: ep.reset,
    getState() {
      const state = core ? core.snapshot(ep.attempts) : loadingSnapshot();
      state.timestampMs = Date.now(); // the harness's virtual clock
      return state;
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(null), loop });
})();
