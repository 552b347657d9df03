// 2048 for pytest-gameworld.
//
// Layout of this file:
//   1. constants and helpers (board maths)              - pure
//   2. createCore(seed, level): the simulation            - pure, no DOM, no clock
//   3. renderer: draws a core onto the 1280x720 canvas
//   4. browser shell: window.gameAPI on the shared shell (catalog/games/_shell: seeded
//      randomness, keyboard queue, fixed-tick rAF loop, episodes, mounting)
//
// The simulation never reads Date.now()/performance.now(); it only counts
// ticks, so a run is a pure function of (seed, level, input events per tick).
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "01-2048";
  const TICK_MS = 1000 / 60;
  const SIZE = 4;
  const WIN_TILE = 2048;

  // Board geometry (canvas px): a 560x560 board centred at (640, 388),
  // 125 px cells separated (and framed) by 12 px gaps.
  const BOARD = 560;
  const CELL = 125;
  const GAP = 12;
  const BOARD_X = 640 - BOARD / 2;
  const BOARD_Y = 388 - BOARD / 2;

  const KEY_TO_DIR = {
    ArrowUp: "up",
    ArrowDown: "down",
    ArrowLeft: "left",
    ArrowRight: "right",
  };

  // FNV-1a + murmur3 finaliser and mulberry32 on {s} (catalog/games/_shell): a clone of a
  // core copies the streams' positions exactly.
  const { hash32, makeRng, nextRandom } = window.GameShell;

  // Cell indices (row-major, 0..15) of each line in the order tiles slide
  // towards: the first index is the wall they pile against.
  function linesFor(dir) {
    const lines = [];
    for (let i = 0; i < SIZE; i++) {
      const line = [];
      for (let j = 0; j < SIZE; j++) {
        if (dir === "left") line.push(i * SIZE + j);
        else if (dir === "right") line.push(i * SIZE + (SIZE - 1 - j));
        else if (dir === "up") line.push(j * SIZE + i);
        else line.push((SIZE - 1 - j) * SIZE + i);
      }
      lines.push(line);
    }
    return lines;
  }
  const LINES = {
    up: linesFor("up"),
    down: linesFor("down"),
    left: linesFor("left"),
    right: linesFor("right"),
  };

  // Slide one board in one direction. Returns the new board, the points won
  // and a trace of where every tile went (used only for the slide animation).
  // The oracle's lookahead slides with this same function (window.__gw2048).
  // Merging walks from the wall outwards, so the pair nearer the wall merges
  // first and a merged tile never merges again in the same move.
  function slideBoard(board, dir) {
    const out = board.slice();
    let gained = 0;
    let changed = false;
    const trace = [];
    const merged = [];
    for (const line of LINES[dir]) {
      const packed = [0, 0, 0, 0];
      let dest = 0; // next free slot along the line
      let canMerge = false; // slot dest-1 holds an unmerged tile
      for (let j = 0; j < SIZE; j++) {
        const v = board[line[j]];
        if (v === 0) continue;
        if (canMerge && packed[dest - 1] === v) {
          packed[dest - 1] = v * 2;
          gained += v * 2;
          merged.push(line[dest - 1]);
          trace.push({ from: line[j], to: line[dest - 1], value: v });
          canMerge = false; // a merged tile is done for this move
        } else {
          packed[dest] = v;
          trace.push({ from: line[j], to: line[dest], value: v });
          dest++;
          canMerge = true;
        }
      }
      for (let j = 0; j < SIZE; j++) {
        if (packed[j] !== board[line[j]]) changed = true;
        out[line[j]] = packed[j];
      }
    }
    return { board: out, gained, changed, trace, merged };
  }

  function hasMoves(board) {
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const v = board[r * SIZE + c];
        if (v === 0) return true;
        if (c + 1 < SIZE && board[r * SIZE + c + 1] === v) return true;
        if (r + 1 < SIZE && board[(r + 1) * SIZE + c] === v) return true;
      }
    }
    return false;
  }

  function maxOf(board) {
    let m = 0;
    for (const v of board) if (v > m) m = v;
    return m;
  }

  function countFilled(board) {
    let n = 0;
    for (const v of board) if (v !== 0) n++;
    return n;
  }

  // Put a 2 (p = 0.9) or a 4 (p = 0.1) on a random empty cell. Returns the
  // cell index, or -1 when the board is full.
  function spawnTile(board, rng) {
    const empty = [];
    for (let i = 0; i < board.length; i++) if (board[i] === 0) empty.push(i);
    if (empty.length === 0) return -1;
    const cell = empty[Math.floor(nextRandom(rng) * empty.length)];
    board[cell] = nextRandom(rng) < 0.9 ? 2 : 4;
    return cell;
  }

  // Centre of a cell in canvas px.
  function cellCentre(index) {
    const r = Math.floor(index / SIZE);
    const c = index % SIZE;
    return {
      x: BOARD_X + GAP + c * (CELL + GAP) + CELL / 2,
      y: BOARD_Y + GAP + r * (CELL + GAP) + CELL / 2,
    };
  }

  // ----------------------------------------------------------------- 2. core
  function createCore(seed, level) {
    const base = hash32(GAME_ID, seed, level);
    const core = {
      seed,
      level,
      // Two independent streams: the opening board and the spawns after moves.
      genRng: makeRng(hash32(base, "gen")),
      runRng: makeRng(hash32(base, "run")),
      board: new Array(SIZE * SIZE).fill(0),
      score: 0,
      moves: 0,
      invalidMoves: 0,
      ticks: 0, // every tick, for animations
      playTicks: 0, // ticks while playing -> gameTimeMs
      status: "playing",
      outcome: null,
      reason: null,
      attempts: 1,
      lastMove: null, // {tick, trace, merged, spawn} for the renderer only
      tick,
      clone,
      snapshot,
      move,
    };
    spawnTile(core.board, core.genRng);
    spawnTile(core.board, core.genRng);
    return core;
  }

  // Advance one 1/60 s tick. input.pressed lists the key edges of this tick
  // in the order they happened.
  function tick(input) {
    const wasPlaying = this.status === "playing";
    if (wasPlaying) {
      for (const key of (input && input.pressed) || []) {
        const dir = KEY_TO_DIR[key];
        if (dir) this.move(dir);
        if (this.status !== "playing") break;
      }
    }
    this.ticks++;
    if (wasPlaying) this.playTicks++;
  }

  // Apply one move. A move that changes nothing is a counted no-op and does
  // not spawn a tile.
  function move(dir) {
    if (this.status !== "playing") return false;
    const result = slideBoard(this.board, dir);
    if (!result.changed) {
      this.invalidMoves++;
      return false;
    }
    this.board = result.board;
    this.score += result.gained;
    this.moves++;
    const spawn = spawnTile(this.board, this.runRng);
    this.lastMove = { tick: this.ticks, trace: result.trace, merged: result.merged, spawn };
    if (maxOf(this.board) >= WIN_TILE) {
      this.status = "terminal";
      this.outcome = "success";
      this.reason = "tile_2048";
    } else if (!hasMoves(this.board)) {
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "no_moves";
    }
    return true;
  }

  function clone() {
    const copy = Object.assign({}, this);
    copy.board = this.board.slice();
    copy.genRng = { s: this.genRng.s };
    copy.runRng = { s: this.runRng.s };
    // lastMove is never mutated after creation, so sharing it is safe.
    return copy;
  }

  // The state as a fresh plain object (getState() without the wall-clock
  // timestamp).
  function snapshot() {
    const board = this.board;
    const rows = [];
    for (let r = 0; r < SIZE; r++) rows.push(board.slice(r * SIZE, r * SIZE + SIZE));
    const maxTile = maxOf(board);
    const tiles = [];
    for (let i = 0; i < board.length; i++) {
      if (board[i] === 0) continue;
      const p = cellCentre(i);
      tiles.push({ type: "tile", x: p.x, y: p.y, row: Math.floor(i / SIZE), col: i % SIZE, value: board[i] });
    }
    tiles.sort((a, b) => b.value - a.value); // biggest (most important) first
    const alive = this.outcome !== "fail";
    return {
      gameId: GAME_ID,
      seed: this.seed,
      gameTimeMs: Math.round((this.playTicks * 1000) / 60),
      status: this.status,
      terminal: {
        isTerminal: this.status === "terminal",
        outcome: this.outcome,
        reason: this.reason,
      },
      game_state: {
        score: this.score,
        level: maxTile, // upstream name: the largest tile
        max_tile: maxTile,
        board: rows,
        completion_progress: maxTile > 0 ? Math.min(1, Math.log2(maxTile) / 11) : 0,
        // No avatar in 2048; the board centre stands in for the convention.
        player: { x: 640, y: 388, alive },
        entities: tiles,
      },
      metrics: {
        primary_score: this.score,
        max_tile: maxTile,
        moves: this.moves,
        invalid_moves: this.invalidMoves,
        filled_cells: countFilled(board),
        moves_available: hasMoves(board),
        attempts: this.attempts,
      },
      raw: { ticks: this.ticks, level_param: this.level },
    };
  }

  // A state for the moment before init() (every scored path is 0).
  function loadingSnapshot() {
    return {
      gameId: GAME_ID,
      seed: null,
      gameTimeMs: 0,
      status: "loading",
      terminal: { isTerminal: false, outcome: null, reason: null },
      game_state: {
        score: 0,
        level: 0,
        max_tile: 0,
        board: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
        completion_progress: 0,
        player: { x: 640, y: 388, alive: true },
        entities: [],
      },
      metrics: {
        primary_score: 0,
        max_tile: 0,
        moves: 0,
        invalid_moves: 0,
        filled_cells: 0,
        moves_available: true,
        attempts: 0,
      },
      raw: {},
    };
  }


  // ------------------------------------------------------------- 3. renderer
  const TILE_COLOURS = {
    2: "#EEE4DA",
    4: "#EDE0C8",
    8: "#F2B179",
    16: "#F59563",
    32: "#F67C5F",
    64: "#F65E3B",
    128: "#EDCF72",
    256: "#EDCC61",
    512: "#EDC850",
    1024: "#EDC53F",
    2048: "#EDC22E",
  };
  const DARK_TEXT = "#776E65";
  const SLIDE_MS = 60; // tiles glide for 60 ms ...
  const POP_MS = 100; // ... then new/merged tiles pop until 100 ms

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  function tileColour(v) {
    return TILE_COLOURS[v] || "#3C3A32"; // beyond 2048: near-black
  }

  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  // Outlined white text, per the HUD convention.
  function hudText(text, x, y, font, align) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#000";
    ctx.lineJoin = "round";
    ctx.strokeText(text, x, y);
    ctx.fillStyle = "#FFF";
    ctx.fillText(text, x, y);
  }

  function drawTile(value, cx, cy, scale) {
    const size = CELL * scale;
    ctx.fillStyle = tileColour(value);
    roundRect(cx - size / 2, cy - size / 2, size, size, 8 * scale);
    ctx.fill();
    const digits = String(value).length;
    const px = digits <= 2 ? 64 : digits === 3 ? 54 : digits === 4 ? 44 : 34;
    ctx.font = `bold ${Math.round(px * scale)}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = value <= 4 ? DARK_TEXT : "#FFFFFF";
    ctx.fillText(String(value), cx, cy + 3 * scale);
  }

  function drawHud(core) {
    ctx.fillStyle = "#2B2724";
    ctx.fillRect(0, 0, 1280, 56);
    const maxTile = core ? maxOf(core.board) : 0;
    hudText("2048", 24, 28, "bold 28px sans-serif", "left");
    hudText(`Score ${core ? core.score : 0}`, 560, 28, "bold 28px sans-serif", "center");
    hudText(`Max tile ${maxTile}`, 780, 28, "bold 28px sans-serif", "center");
    hudText(`Moves ${core ? core.moves : 0}`, 1256, 28, "bold 28px sans-serif", "right");
  }

  function drawBoardFrame() {
    ctx.fillStyle = "#BBADA0";
    roundRect(BOARD_X, BOARD_Y, BOARD, BOARD, 12);
    ctx.fill();
    ctx.fillStyle = "#CDC1B4";
    for (let i = 0; i < SIZE * SIZE; i++) {
      const p = cellCentre(i);
      roundRect(p.x - CELL / 2, p.y - CELL / 2, CELL, CELL, 8);
      ctx.fill();
    }
  }

  // Draw tiles, animating the last move for at most 100 ms of game time.
  function drawTiles(core) {
    const lm = core.lastMove;
    const age = lm ? (core.ticks - lm.tick) * TICK_MS : Infinity;
    if (age < SLIDE_MS) {
      // Slide phase: the pre-move tiles travel to their destinations.
      const k = age / SLIDE_MS;
      for (const t of lm.trace) {
        const a = cellCentre(t.from);
        const b = cellCentre(t.to);
        drawTile(t.value, a.x + (b.x - a.x) * k, a.y + (b.y - a.y) * k, 1);
      }
      return;
    }
    const popK = age < POP_MS ? (age - SLIDE_MS) / (POP_MS - SLIDE_MS) : 1;
    for (let i = 0; i < core.board.length; i++) {
      const v = core.board[i];
      if (v === 0) continue;
      let scale = 1;
      if (popK < 1 && lm) {
        if (i === lm.spawn) scale = 0.4 + 0.6 * popK;
        else if (lm.merged.includes(i)) scale = 1 + 0.12 * (1 - popK);
      }
      const p = cellCentre(i);
      drawTile(v, p.x, p.y, scale);
    }
  }

  function drawTerminal(core) {
    ctx.fillStyle = "rgba(20, 18, 16, 0.72)";
    roundRect(340, 290, 600, 196, 16);
    ctx.fill();
    const title = core.outcome === "success" ? "LEVEL COMPLETE \u2013 2048!" : "GAME OVER \u2013 no moves";
    hudText(title, 640, 356, "bold 40px sans-serif", "center");
    hudText(`Score ${core.score}`, 640, 410, "bold 28px sans-serif", "center");
    if (!window.__GW_HARNESS__) hudText("Press Enter to play again", 640, 452, "20px sans-serif", "center");
  }

  function render(core) {
    ctx.fillStyle = "#FAF8EF";
    ctx.fillRect(0, 0, 1280, 720);
    drawHud(core);
    drawBoardFrame();
    if (!core) return;
    drawTiles(core);
    if (core.status === "terminal") drawTerminal(core);
  }

  // ------------------------------------------------------- 4. browser shell
  const Shell = window.GameShell;
  let core = null;
  const keys = Shell.keyboard({
    keys: ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Enter"],
    // Humans restart from the game-over panel; the harness resets by API.
    onDown(key) {
      if (key !== "Enter" || window.__GW_HARNESS__ || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // This tick's key-downs in arrival order, as a list: two arrows between two
  // ticks are two moves, in their order. Repeats were dropped by the shell, so
  // every keydown is a real press (even if a keyup was lost, e.g. to a window
  // switch); 2048 reads no held keys.
  function takeInput() {
    const pressed = [];
    for (const ev of keys.drain()) if (ev.down) pressed.push(ev.key);
    return { pressed };
  }

  // Fixed 1/60 s ticks from the shell's accumulator over rAF timestamps
  // (virtual under the harness).
  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      if (core) core.tick(takeInput());
    },
    render() {
      const key = viewKey(core);
      if (key !== drawnKey) render(core);
      drawnKey = key;
    },
  });

  // Redraw only when the picture can change (an animation runs, or the board, score or
  // status changed): idle frames cost nothing, which keeps long waits cheap to simulate.
  let drawnKey = "";
  function viewKey(core) {
    if (!core) return "none";
    const lm = core.lastMove;
    if (lm && (core.ticks - lm.tick) * TICK_MS <= POP_MS) return `anim ${core.ticks}`;
    return `${core.attempts} ${core.moves} ${core.status} ${lm ? lm.tick : -1}`;
  }

  // 2048 has a single level; anything else is treated as level 1.
  function pickLevel(level) {
    if (level !== undefined && level !== null && Number(level) !== 1) {
      console.warn(`01-2048 has only level 1; got level ${level}`);
    }
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level, config, attempts) {
      keys.clear();
      core = createCore(seed, level);
      core.attempts = attempts;
      render(core);
      drawnKey = viewKey(core);
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
      const state = core ? core.snapshot() : loadingSnapshot();
      // Date.now() is the harness's virtual clock, so this stays deterministic.
      state.timestampMs = Date.now();
      return state;
    },
  };

  // No canvas to fit: index.html's CSS scales it for humans. window.__gw2048 is
  // private to oracle.js: the game's own slide rule for its lookahead.
  const oracleRules = Object.freeze({ slideBoard });
  Shell.mount({
    api,
    core: () => core,
    handles: { __gw2048: () => oracleRules },
    first: () => render(null),
    loop,
  });
})();
