// Google Snake for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer that redraws only when the board changed, a keyboard queue,
// one requestAnimationFrame loop with fixed 1/60 s ticks, and window.gameAPI.
// The oracle clones the core through window.__gwCore to look ahead.
(function () {
  "use strict";

  const GAME_ID = "15-google-snake";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 15). Units: cells, px, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const COLS = 17;
  const ROWS = 15;
  const CELL = 40;
  const BOARD_X = 300;
  const BOARD_Y = 88;
  const START_LEN = 4;
  const START_ROW = 7;
  const START_HEAD_COL = 5;       // body runs left to col 2
  const APPLES_ON_BOARD = 3;
  const TURN_QUEUE = 2;
  // 8 cells/s at 60 ticks/s = one cell per 7.5 ticks: integer credit of 8 per
  // tick, a move per 60 credits, so the cadence is exact and cloneable.
  const SPEED = 8;
  const MOVE_CREDIT = TICK_HZ;
  const SCORE_FOR_FULL_PROGRESS = 15;   // hardest task target; diagnostic only

  const DIRS = {
    up: { dx: 0, dy: -1 },
    down: { dx: 0, dy: 1 },
    left: { dx: -1, dy: 0 },
    right: { dx: 1, dy: 0 },
  };
  const OPPOSITE = { up: "down", down: "up", left: "right", right: "left" };
  const KEY_DIR = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------

  // FNV-1a over the parts joined by "|" and mulberry32 on {s} (catalog/games/_shell): stable across hosts,
  // no Math.random; a plain object, so the core can be cloned.
  const { fnv32: hash32, nextRandom: rngNext } = window.GameShell;

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function Core() {}

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the level stream places the opening apples,
    // the runtime stream every apple that replaces an eaten one.
    core.levelRng = { s: hash32(GAME_ID, seed, level) };
    core.runtimeRng = { s: hash32(GAME_ID, seed, level, "runtime") };
    core.status = "ready";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.snake = [];                // [col, row], head first
    for (let i = 0; i < START_LEN; i++) core.snake.push([START_HEAD_COL - i, START_ROW]);
    core.dir = "right";
    core.queue = [];                // queued turns, applied one per cell boundary
    core.credit = 0;
    core.moves = 0;
    core.turns = 0;
    core.score = 0;
    core.apples = [];
    for (let i = 0; i < APPLES_ON_BOARD; i++) core.spawnApple(core.levelRng);
    return core;
  }

  Core.prototype.occupied = function (c, r) {
    for (const s of this.snake) if (s[0] === c && s[1] === r) return true;
    for (const a of this.apples) if (a[0] === c && a[1] === r) return true;
    return false;
  };

  // A new apple on a uniformly drawn empty cell (row-major index among the empties).
  Core.prototype.spawnApple = function (rng) {
    const free = COLS * ROWS - this.snake.length - this.apples.length;
    if (free <= 0) return;
    let k = Math.floor(rngNext(rng) * free);
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        if (this.occupied(c, r)) continue;
        if (k === 0) {
          this.apples.push([c, r]);
          return;
        }
        k--;
      }
    }
  };

  // The direction a new key would be compared with: the last queued turn, or
  // the current heading. Reversals and repeats of it are ignored.
  Core.prototype.lastDir = function () {
    return this.queue.length ? this.queue[this.queue.length - 1] : this.dir;
  };

  Core.prototype.queueTurn = function (d) {
    const last = this.lastDir();
    if (d === last || d === OPPOSITE[last] || this.queue.length >= TURN_QUEUE) return;
    this.queue.push(d);
  };

  // input = {dirs: [direction, ...]}: this tick's arrow-key press edges in order.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status === "terminal") return;
    const dirs = (input && input.dirs) || [];
    if (this.status === "ready") {
      // The first arrow other than Left (a reversal) starts the snake, heading
      // that way; the snake never moved, so the new heading applies at once.
      const first = dirs.findIndex((d) => d !== "left");
      if (first < 0) return;
      this.status = "playing";
      this.dir = dirs[first];
      for (const d of dirs.slice(first + 1)) this.queueTurn(d);
    } else {
      for (const d of dirs) this.queueTurn(d);
    }
    this.playTicks++;
    this.credit += SPEED;
    if (this.credit >= MOVE_CREDIT) {
      this.credit -= MOVE_CREDIT;
      this.step();
    }
  };

  // One cell of travel: the cell boundary where a queued turn takes effect.
  Core.prototype.step = function () {
    if (this.queue.length) {
      this.dir = this.queue.shift();
      this.turns++;
    }
    const d = DIRS[this.dir];
    const head = this.snake[0];
    const nc = head[0] + d.dx;
    const nr = head[1] + d.dy;
    this.moves++;
    if (nc < 0 || nc >= COLS || nr < 0 || nr >= ROWS) return this.die("wall");
    const ai = this.apples.findIndex((a) => a[0] === nc && a[1] === nr);
    // The tail cell is vacated this move unless the snake grows.
    const bodyLen = ai >= 0 ? this.snake.length : this.snake.length - 1;
    for (let i = 0; i < bodyLen; i++) {
      if (this.snake[i][0] === nc && this.snake[i][1] === nr) return this.die("self");
    }
    this.snake.unshift([nc, nr]);
    if (ai >= 0) {
      this.apples.splice(ai, 1);
      this.score++;
      this.spawnApple(this.runtimeRng);
    } else {
      this.snake.pop();
    }
  };

  Core.prototype.die = function (reason) {
    this.status = "terminal";
    this.outcome = "fail";
    this.reason = reason;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.snake = this.snake.map((p) => [p[0], p[1]]);
    c.apples = this.apples.map((p) => [p[0], p[1]]);
    c.queue = this.queue.slice();
    return c;
  };

  // The board as 15 strings of 17 characters: H head, S body, A apple, . empty.
  Core.prototype.environment = function () {
    const rows = [];
    for (let r = 0; r < ROWS; r++) rows.push(new Array(COLS).fill("."));
    for (const a of this.apples) rows[a[1]][a[0]] = "A";
    this.snake.forEach((s, i) => {
      rows[s[1]][s[0]] = i === 0 ? "H" : "S";
    });
    return rows.map((r) => r.join(""));
  };

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const dead = this.status === "terminal" && this.outcome === "fail";
    const head = this.snake[0];
    return {
      gameId: GAME_ID,
      seed: this.seed,
      timestampMs: 0,
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        score: this.score,
        level: this.level,
        completion_progress: Math.min(1, this.score / SCORE_FOR_FULL_PROGRESS),
        player: {
          x: BOARD_X + head[0] * CELL + CELL / 2,
          y: BOARD_Y + head[1] * CELL + CELL / 2,
          cell: [head[0], head[1]],
          alive: !dead,
        },
        snake: this.snake.map((p) => [p[0], p[1]]),
        direction: this.dir,
        queued_turns: this.queue.slice(),
        apples: this.apples.map((p) => [p[0], p[1]]),
        board: { cols: COLS, rows: ROWS },
        environment: this.environment(),
      },
      metrics: {
        primary_score: this.score,
        snake_length: this.snake.length,
        speed: SPEED,
        apples: this.score,
        turns: this.turns,
        attempts: 0,
        deaths: dead ? 1 : 0,
      },
      raw: { ticks: this.totalTicks, play_ticks: this.playTicks, moves: this.moves, move_credit: this.credit },
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still gives one edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts again. Agents never
    // see a terminal frame (the harness resets first) and have no Enter.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // This tick's arrow press edges, in arrival order.
  function consumeInput() {
    const dirs = [];
    for (const ev of keys.drain()) {
      if (ev.down) {
        if (!keys.held.has(ev.key) && KEY_DIR[ev.key]) dirs.push(KEY_DIR[ev.key]);
        keys.held.add(ev.key);
      } else {
        keys.held.delete(ev.key);
      }
    }
    return { dirs: dirs };
  }

  // ---------------------------------------------------------------------------
  // Renderer: the checkerboard, frame and HUD bar are one cached layer; a
  // frame is drawn only when the snake, apples or status changed.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    page: "#4A752C",           // Google Snake's dark green surround
    wall: "#2F4A1C",
    light: "#AAD751",
    dark: "#A2D149",
    snake: "#2D7DF6",
    snakeDark: "#1B5CC4",
    apple: "#E53935",
    appleRim: "#8E1B1B",
    leaf: "#1E6B2A",
  };

  function textOutlined(g, str, x, y, font, align) {
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

  let boardLayer = null;
  function boardImage() {
    if (boardLayer) return boardLayer;
    boardLayer = document.createElement("canvas");
    boardLayer.width = W;
    boardLayer.height = H;
    const g = boardLayer.getContext("2d");
    g.fillStyle = COLORS.page;
    g.fillRect(0, 0, W, H);
    g.fillStyle = "#1E2A14";
    g.fillRect(0, 0, W, HUD_H);
    g.fillStyle = COLORS.wall;
    g.fillRect(BOARD_X - 14, BOARD_Y - 14, COLS * CELL + 28, ROWS * CELL + 28);
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        g.fillStyle = (r + c) % 2 === 0 ? COLORS.light : COLORS.dark;
        g.fillRect(BOARD_X + c * CELL, BOARD_Y + r * CELL, CELL, CELL);
      }
    }
    return boardLayer;
  }

  function cellX(c) { return BOARD_X + c * CELL; }
  function cellY(r) { return BOARD_Y + r * CELL; }

  function drawApple(a) {
    const x = cellX(a[0]) + CELL / 2;
    const y = cellY(a[1]) + CELL / 2 + 2;
    ctx.fillStyle = COLORS.apple;
    ctx.strokeStyle = COLORS.appleRim;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(x, y, 14, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = "rgba(255,255,255,0.55)";
    ctx.beginPath();
    ctx.arc(x - 5, y - 5, 4, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = COLORS.leaf;
    ctx.beginPath();
    ctx.ellipse(x + 4, y - 15, 6, 3, -0.5, 0, Math.PI * 2);
    ctx.fill();
  }

  // The snake as one thick rounded polyline through the cell centres, so the
  // body reads as a single connected shape, with eyes looking ahead.
  function drawSnake(c) {
    const pts = c.snake.map((p) => [cellX(p[0]) + CELL / 2, cellY(p[1]) + CELL / 2]);
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.beginPath();
    ctx.moveTo(pts[0][0], pts[0][1]);
    for (let i = 1; i < pts.length; i++) ctx.lineTo(pts[i][0], pts[i][1]);
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 34;
    ctx.stroke();
    ctx.strokeStyle = COLORS.snake;
    ctx.lineWidth = 30;
    ctx.stroke();
    if (pts.length === 1) {
      ctx.fillStyle = COLORS.snake;
      ctx.beginPath();
      ctx.arc(pts[0][0], pts[0][1], 15, 0, Math.PI * 2);
      ctx.fill();
    }
    const d = DIRS[c.dir];
    const hx = pts[0][0];
    const hy = pts[0][1];
    const px = -d.dy;          // perpendicular to the heading
    const py = d.dx;
    for (const side of [-1, 1]) {
      const ex = hx + d.dx * 5 + px * 8 * side;
      const ey = hy + d.dy * 5 + py * 8 * side;
      ctx.fillStyle = "#fff";
      ctx.beginPath();
      ctx.arc(ex, ey, 6, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = "#111";
      ctx.beginPath();
      ctx.arc(ex + d.dx * 2, ey + d.dy * 2, 3, 0, Math.PI * 2);
      ctx.fill();
    }
    if (c.status === "terminal" && c.outcome === "fail") {
      ctx.strokeStyle = "#111";
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.moveTo(hx - 8, hy - 8); ctx.lineTo(hx + 8, hy + 8);
      ctx.moveTo(hx + 8, hy - 8); ctx.lineTo(hx - 8, hy + 8);
      ctx.stroke();
    }
  }

  function drawHud(c) {
    textOutlined(ctx, "Google Snake", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined(ctx, "Score " + c.score, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined(ctx, "Length " + c.snake.length + "   Attempt " + ep.attempts, W - 20, HUD_H / 2,
      "20px sans-serif", "right");
  }

  // A centred panel; cy moves it off the snake (the start hint sits above it).
  function drawPanel(lines, cy) {
    const pw = 560;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = (cy === undefined ? H / 2 : cy) - ph / 2;
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => textOutlined(ctx, ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function render() {
    ctx.drawImage(boardImage(), 0, 0);
    if (!core) return;
    for (const a of core.apples) drawApple(a);
    drawSnake(core);
    drawHud(core);
    if (core.status === "ready") {
      drawPanel([{ text: "PRESS AN ARROW KEY", font: "bold 32px sans-serif" }], BOARD_Y + 2.5 * CELL);
    } else if (core.status === "terminal") {
      const lines = [
        { text: "GAME OVER \u2013 " + core.reason, font: "bold 36px sans-serif" },
        { text: "Score " + core.score, font: "bold 28px sans-serif" },
      ];
      if (!window.__GW_HARNESS__) lines.push({ text: "Press Enter to play again", font: "20px sans-serif" });
      drawPanel(lines);
    }
  }

  // What the picture depends on; the frame is redrawn only when it changes.
  function viewKey(c) {
    return c ? ep.attempts + " " + c.moves + " " + c.status + " " + c.dir : "none";
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let drawnKey = "";

  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const inp = consumeInput();
      if (core) core.tick(inp);
    },
    render() {
      const key = viewKey(core);
      if (key !== drawnKey) {
        render();
        drawnKey = key;
      }
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  function pickLevel(l) {
    // No levels: only level 1 exists (capabilities.supports_level_select = false).
    if (l !== undefined && l !== null && Number(l) !== 1) console.warn(GAME_ID + " has only level 1; got " + l);
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed) {
      keys.clear();
      core = createCore(seed, 1);
      render();                      // the first screenshot is already current
      drawnKey = viewKey(core);
    },
  });

  function loadingState() {
    const s = createCore(ep.seed, 1).snapshot();
    s.status = "loading";
    return s;
  }

  const api = {
    capabilities: {
      supports_seed: true,
      supports_inplace_reset: true,
      supports_level_select: false,
    },

    init: ep.init,
    reset: ep.reset,

    getState() {
      const s = core ? core.snapshot() : loadingState();
      s.seed = ep.seed;
      s.timestampMs = Date.now();   // the harness's virtual clock
      s.metrics.attempts = ep.attempts;
      return s;
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
