// 19-minesweeper: a 9x9 Minesweeper with 10 mines, drawn on one canvas.
//
// Layout of this file:
//   1. constants and the seeded PRNG
//   2. createCore(seed, level): the pure simulation (no DOM, no clock)
//   3. the renderer (reads the core, draws the canvas)
//   4. the shell: input queue, fixed-tick game loop, window.gameAPI
'use strict';

(function () {
  // ---------------------------------------------------------------- constants
  const GAME_ID = '19-minesweeper';
  const COLS = 9;
  const ROWS = 9;
  const MINES = 10;
  const SAFE_TOTAL = COLS * ROWS - MINES; // 71
  const MAX_OPENING = 20; // cells one click may open at most (see placeMines)
  const MAX_LAYOUTS = 400; // layouts drawn before the best so far is kept
  const CELL = 56;
  const BOARD_X = 388; // left edge of column a
  const BOARD_Y = 150; // top edge of row 1
  const COL_NAMES = 'abcdefghi';
  const TICK_MS = 1000 / 60;
  const MAX_TICKS_PER_FRAME = 15; // catch-up cap after a stall (e.g. a background tab)

  // Cell states inside the core.
  const HIDDEN = 0;
  const REVEALED = 1;
  const FLAGGED = 2;

  // ------------------------------------------------------------ PRNG helpers
  // FNV-1a over the joined parts, then a murmur3 finaliser so that nearby seeds (0, 1, 2 ...) give
  // unrelated streams (catalog/games/_shell). Its own mulberry32 below keeps its state in {a}.
  const { hash32 } = window.GameShell;

  // mulberry32 kept as a plain object so the core can be cloned exactly.
  function makeRng(state) {
    return { a: state >>> 0 };
  }
  function rngNext(rng) {
    rng.a = (rng.a + 0x6d2b79f5) >>> 0;
    let t = rng.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  function cellName(index) {
    return COL_NAMES[index % COLS] + (Math.floor(index / COLS) + 1);
  }

  // Indices of the up-to-8 neighbours of a cell, computed once.
  const NEIGHBOURS = [];
  for (let i = 0; i < COLS * ROWS; i++) {
    const c = i % COLS;
    const r = Math.floor(i / COLS);
    const list = [];
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        if (dr === 0 && dc === 0) continue;
        const cc = c + dc;
        const rr = r + dr;
        if (cc >= 0 && cc < COLS && rr >= 0 && rr < ROWS) list.push(rr * COLS + cc);
      }
    }
    NEIGHBOURS.push(list);
  }

  // -------------------------------------------------------------------- core
  // The core is pure data plus functions over it. Commands are
  // {op: 'reveal' | 'flag', cell: index or -1 for "outside the board"}.
  function createCore(seed, level) {
    const base = hash32(GAME_ID, seed, level);
    const s = {
      seed: seed,
      level: level,
      genRng: makeRng(base ^ 0x9e3779b9), // mine layout only
      runRng: makeRng(base ^ 0x7f4a7c15), // runtime events (none yet; kept separate)
      mines: null, // Uint8Array(81) once the first reveal has happened
      counts: null, // neighbour mine counts, filled with the mines
      cells: new Array(COLS * ROWS).fill(HIDDEN),
      status: 'playing',
      outcome: null,
      reason: null,
      playTicks: 0,
      revealedSafe: 0,
      flags: 0,
      clicks: 0,
      exploded: -1,
      firstCell: -1,
      lastCell: -1,
    };
    return wrapCore(s);
  }

  function wrapCore(s) {
    return {
      s: s,
      tick: (commands) => coreTick(s, commands || []),
      clone: () => wrapCore(cloneState(s)),
      snapshot: () => snapshotOf(s),
    };
  }

  function cloneState(s) {
    return Object.assign({}, s, {
      genRng: { a: s.genRng.a },
      runRng: { a: s.runRng.a },
      mines: s.mines ? s.mines.slice() : null,
      counts: s.counts ? s.counts.slice() : null,
      cells: s.cells.slice(),
    });
  }

  function coreTick(s, commands) {
    for (const cmd of commands) {
      if (s.status !== 'playing') break; // terminal is sticky
      s.clicks++;
      if (cmd.cell < 0) continue; // click outside the board does nothing
      s.lastCell = cmd.cell;
      if (cmd.op === 'reveal') reveal(s, cmd.cell);
      else if (cmd.op === 'flag') toggleFlag(s, cmd.cell);
    }
    if (s.status === 'playing') s.playTicks++;
  }

  // Mines go down at the first reveal, never on the clicked cell or its
  // neighbours, so the first click always opens an area. On a 9x9 board
  // with 10 mines a uniform layout is mostly one opening of 50-60 cells, and
  // a single lucky click would clear most of it, so layouts are drawn again
  // (deterministic retry, docs/games.md 1.5) until no opening holds more than
  // MAX_OPENING cells; after MAX_LAYOUTS draws the one with the smallest
  // largest opening is kept. The layout depends only on (seed, level, first
  // cell): same first click => same board.
  function placeMines(s, first) {
    const banned = new Set([first, ...NEIGHBOURS[first]]);
    const pool = [];
    for (let i = 0; i < COLS * ROWS; i++) if (!banned.has(i)) pool.push(i);
    let best = null;
    for (let draw = 0; draw < MAX_LAYOUTS; draw++) {
      const layout = drawLayout(s.genRng, pool);
      const opening = largestOpening(layout.mines, layout.counts);
      if (!best || opening < best.opening) best = { opening, mines: layout.mines, counts: layout.counts };
      if (opening <= MAX_OPENING) break;
    }
    s.mines = best.mines;
    s.counts = best.counts;
    s.firstCell = first;
  }

  function drawLayout(rng, pool) {
    // Partial Fisher-Yates: the first MINES entries become mines.
    for (let k = 0; k < MINES; k++) {
      const j = k + Math.floor(rngNext(rng) * (pool.length - k));
      const tmp = pool[k];
      pool[k] = pool[j];
      pool[j] = tmp;
    }
    const mines = new Uint8Array(COLS * ROWS);
    for (let k = 0; k < MINES; k++) mines[pool[k]] = 1;
    const counts = new Uint8Array(COLS * ROWS);
    for (let i = 0; i < COLS * ROWS; i++) {
      let n = 0;
      for (const j of NEIGHBOURS[i]) n += mines[j];
      counts[i] = n;
    }
    return { mines, counts };
  }

  // Cells one click on the largest connected area of zeros reveals (the
  // zeros and the numbers around them).
  function largestOpening(mines, counts) {
    const seen = new Uint8Array(COLS * ROWS);
    let largest = 0;
    for (let start = 0; start < COLS * ROWS; start++) {
      if (seen[start] || mines[start] || counts[start] !== 0) continue;
      const opened = new Set([start]);
      const stack = [start];
      seen[start] = 1;
      while (stack.length) {
        const i = stack.pop();
        for (const j of NEIGHBOURS[i]) {
          if (mines[j]) continue;
          opened.add(j);
          if (counts[j] === 0 && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
      largest = Math.max(largest, opened.size);
    }
    return largest;
  }

  function reveal(s, cell) {
    if (s.cells[cell] !== HIDDEN) return; // revealed or flagged: no effect
    if (!s.mines) placeMines(s, cell);
    if (s.mines[cell]) {
      s.cells[cell] = REVEALED;
      s.exploded = cell;
      endGame(s, 'fail', 'mine');
      return;
    }
    // Flood fill from zeros; flagged cells are left alone, as in the original.
    const stack = [cell];
    s.cells[cell] = REVEALED;
    s.revealedSafe++;
    while (stack.length) {
      const i = stack.pop();
      if (s.counts[i] !== 0) continue;
      for (const j of NEIGHBOURS[i]) {
        if (s.cells[j] === HIDDEN && !s.mines[j]) {
          s.cells[j] = REVEALED;
          s.revealedSafe++;
          stack.push(j);
        }
      }
    }
    if (s.revealedSafe === SAFE_TOTAL) endGame(s, 'success', 'cleared');
  }

  function toggleFlag(s, cell) {
    if (s.cells[cell] === FLAGGED) {
      s.cells[cell] = HIDDEN;
      s.flags--;
    } else if (s.cells[cell] === HIDDEN && s.flags < MINES) {
      // The cap keeps "flag everything" from farming correct_flags.
      s.cells[cell] = FLAGGED;
      s.flags++;
    }
  }

  function endGame(s, outcome, reason) {
    s.status = 'terminal';
    s.outcome = outcome;
    s.reason = reason;
  }

  // One character per cell: '#' hidden, 'F' flag, '0'-'8' revealed,
  // '*' mine (shown only after a loss).
  function boardRows(s) {
    const lost = s.outcome === 'fail';
    const rows = [];
    for (let r = 0; r < ROWS; r++) {
      let line = '';
      for (let c = 0; c < COLS; c++) {
        const i = r * COLS + c;
        const st = s.cells[i];
        if (st === FLAGGED) line += 'F';
        else if (st === REVEALED) line += s.mines[i] ? '*' : String(s.counts[i]);
        else line += lost && s.mines && s.mines[i] ? '*' : '#';
      }
      rows.push(line);
    }
    return rows;
  }

  function flagCounts(s) {
    let correct = 0;
    let wrong = 0;
    for (let i = 0; i < COLS * ROWS; i++) {
      if (s.cells[i] !== FLAGGED) continue;
      if (s.mines && s.mines[i]) correct++;
      else if (s.mines) wrong++;
    }
    return { correct, wrong };
  }

  function cellCentre(index) {
    return {
      x: BOARD_X + CELL / 2 + CELL * (index % COLS),
      y: BOARD_Y + CELL / 2 + CELL * Math.floor(index / COLS),
    };
  }

  // Plain, fresh data describing the episode (no live references).
  function snapshotOf(s) {
    const fc = flagCounts(s);
    const focus = s.lastCell >= 0 ? s.lastCell : 40; // e5 before any click
    const centre = cellCentre(focus);
    const flagged = [];
    for (let i = 0; i < COLS * ROWS; i++) if (s.cells[i] === FLAGGED) flagged.push(cellName(i));
    return {
      status: s.status,
      terminal: {
        isTerminal: s.status === 'terminal',
        outcome: s.outcome,
        reason: s.reason,
      },
      gameTimeMs: Math.round((s.playTicks * 1000) / 60),
      game_state: {
        score: s.revealedSafe,
        level: s.level,
        completion_progress: s.revealedSafe / SAFE_TOTAL,
        board: boardRows(s),
        mines_placed: !!s.mines,
        columns: COL_NAMES,
        rows: ROWS,
        mines_total: MINES,
        remaining_mines: MINES - s.flags,
        flagged_cells: flagged,
        player: {
          x: centre.x,
          y: centre.y,
          cell: s.lastCell >= 0 ? cellName(s.lastCell) : null,
          alive: s.outcome !== 'fail',
        },
      },
      metrics: {
        primary_score: s.revealedSafe,
        revealed_safe_cells: s.revealedSafe,
        correct_flags: fc.correct,
        wrong_flags: fc.wrong,
        flags_placed: s.flags,
        remaining_mines: MINES - s.flags,
        safe_total: SAFE_TOTAL,
        clicks: s.clicks,
      },
      raw: {
        first_cell: s.firstCell >= 0 ? cellName(s.firstCell) : null,
        exploded_cell: s.exploded >= 0 ? cellName(s.exploded) : null,
      },
    };
  }

  // ---------------------------------------------------------------- renderer
  const NUMBER_COLOURS = [
    null,
    '#0000FF', // 1 blue
    '#007B00', // 2 green
    '#E00000', // 3 red
    '#000080', // 4 navy
    '#800000', // 5 maroon
    '#008080', // 6 teal
    '#000000', // 7 black
    '#707070', // 8 grey
  ];

  function outlinedText(ctx, text, x, y, font, align) {
    ctx.font = font;
    ctx.textAlign = align || 'center';
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3;
    ctx.strokeStyle = '#000';
    ctx.strokeText(text, x, y);
    ctx.fillStyle = '#fff';
    ctx.fillText(text, x, y);
  }

  function drawHud(ctx, s) {
    ctx.fillStyle = '#0c0e11';
    ctx.fillRect(0, 0, 1280, 56);
    outlinedText(ctx, 'Minesweeper', 24, 28, 'bold 28px sans-serif', 'left');
    outlinedText(ctx, 'Level ' + s.level, 215, 29, '20px sans-serif', 'left');
    outlinedText(ctx, 'Revealed ' + s.revealedSafe + '/' + SAFE_TOTAL, 640, 28, 'bold 28px sans-serif');
    const seconds = ((s.playTicks / 60)).toFixed(1);
    outlinedText(ctx, 'Mines ' + (MINES - s.flags), 1000, 28, 'bold 28px sans-serif', 'right');
    outlinedText(ctx, 'Time ' + seconds + ' s', 1256, 28, 'bold 28px sans-serif', 'right');
  }

  function drawLabels(ctx) {
    const font = 'bold 24px sans-serif';
    for (let c = 0; c < COLS; c++) {
      const x = BOARD_X + CELL / 2 + CELL * c;
      outlinedText(ctx, COL_NAMES[c], x, BOARD_Y - 24, font);
      outlinedText(ctx, COL_NAMES[c], x, BOARD_Y + CELL * ROWS + 24, font);
    }
    for (let r = 0; r < ROWS; r++) {
      const y = BOARD_Y + CELL / 2 + CELL * r;
      outlinedText(ctx, String(r + 1), BOARD_X - 26, y, font);
      outlinedText(ctx, String(r + 1), BOARD_X + CELL * COLS + 26, y, font);
    }
  }

  function drawHiddenCell(ctx, x, y) {
    ctx.fillStyle = '#8f969f';
    ctx.fillRect(x, y, CELL, CELL);
    // Bevel: light top-left, dark bottom-right, so hidden cells look raised.
    ctx.fillStyle = '#c3c8ce';
    ctx.fillRect(x, y, CELL, 4);
    ctx.fillRect(x, y, 4, CELL);
    ctx.fillStyle = '#5d636b';
    ctx.fillRect(x, y + CELL - 4, CELL, 4);
    ctx.fillRect(x + CELL - 4, y, 4, CELL);
  }

  function drawRevealedCell(ctx, x, y, exploded) {
    ctx.fillStyle = exploded ? '#E53935' : '#dedede';
    ctx.fillRect(x, y, CELL, CELL);
    ctx.strokeStyle = '#a9a9a9';
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, CELL - 1, CELL - 1);
  }

  function drawFlag(ctx, cx, cy) {
    ctx.fillStyle = '#222';
    ctx.fillRect(cx - 13, cy + 12, 26, 5); // base
    ctx.fillRect(cx + 1, cy - 17, 4, 31); // pole
    ctx.fillStyle = '#E53935';
    ctx.beginPath();
    ctx.moveTo(cx + 3, cy - 17);
    ctx.lineTo(cx - 17, cy - 8);
    ctx.lineTo(cx + 3, cy + 1);
    ctx.closePath();
    ctx.fill();
  }

  function drawMine(ctx, cx, cy) {
    ctx.strokeStyle = '#111';
    ctx.lineWidth = 3;
    for (let k = 0; k < 4; k++) {
      const a = (k * Math.PI) / 4;
      ctx.beginPath();
      ctx.moveTo(cx - Math.cos(a) * 18, cy - Math.sin(a) * 18);
      ctx.lineTo(cx + Math.cos(a) * 18, cy + Math.sin(a) * 18);
      ctx.stroke();
    }
    ctx.fillStyle = '#111';
    ctx.beginPath();
    ctx.arc(cx, cy, 12, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#fff';
    ctx.fillRect(cx - 6, cy - 6, 4, 4); // glint
  }

  function drawBoard(ctx, s) {
    ctx.fillStyle = '#4a4f57';
    ctx.fillRect(BOARD_X - 6, BOARD_Y - 6, CELL * COLS + 12, CELL * ROWS + 12);
    const lost = s.outcome === 'fail';
    for (let i = 0; i < COLS * ROWS; i++) {
      const x = BOARD_X + CELL * (i % COLS);
      const y = BOARD_Y + CELL * Math.floor(i / COLS);
      const cx = x + CELL / 2;
      const cy = y + CELL / 2;
      const st = s.cells[i];
      if (st === REVEALED) {
        drawRevealedCell(ctx, x, y, i === s.exploded);
        if (s.mines[i]) drawMine(ctx, cx, cy);
        else if (s.counts[i] > 0) {
          ctx.font = 'bold 34px sans-serif';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillStyle = NUMBER_COLOURS[s.counts[i]];
          ctx.fillText(String(s.counts[i]), cx, cy + 2);
        }
      } else if (lost && s.mines && s.mines[i] && st !== FLAGGED) {
        drawRevealedCell(ctx, x, y, false);
        drawMine(ctx, cx, cy);
      } else {
        drawHiddenCell(ctx, x, y);
        if (st === FLAGGED) drawFlag(ctx, cx, cy);
      }
    }
  }

  function drawHelp(ctx) {
    const lines = ['Left click: reveal', 'Right click: flag', '10 mines', 'Cells: column a-i', 'then row 1-9 (e.g. e5)'];
    lines.forEach((text, k) => outlinedText(ctx, text, 40, 300 + k * 32, '20px sans-serif', 'left'));
  }

  function drawTerminal(ctx, s) {
    ctx.fillStyle = 'rgba(0,0,0,0.72)';
    ctx.fillRect(360, 300, 560, 120);
    const title = s.outcome === 'success' ? 'LEVEL COMPLETE' : 'GAME OVER \u2013 ' + s.reason;
    outlinedText(ctx, title, 640, 340, 'bold 40px sans-serif');
    outlinedText(ctx, 'Press Enter to play again', 640, 388, '20px sans-serif');
  }

  function render(ctx, core) {
    ctx.fillStyle = '#23272e';
    ctx.fillRect(0, 0, 1280, 720);
    if (!core) return;
    const s = core.s;
    drawBoard(ctx, s);
    drawLabels(ctx);
    drawHelp(ctx);
    drawHud(ctx, s);
    if (s.status === 'terminal') drawTerminal(ctx, s);
  }

  // ------------------------------------------------------------------- shell
  const canvas = document.getElementById('game');
  const ctx = canvas.getContext('2d');

  let core = null;
  let config = { seed: 42, level: 1 };
  let attempts = 0;
  let queue = []; // raw input events, consumed on the next tick
  let leftDownCell = null; // cell under the left button's mousedown (-1 = outside)
  let loopStart = 0; // virtual Date.now() when the loop started (page load)
  let loopTicks = 0; // ticks run since loopStart, across episodes

  // Canvas pixel coordinates of a mouse event, whatever the CSS scale.
  function canvasPoint(e) {
    const rect = canvas.getBoundingClientRect();
    return {
      x: ((e.clientX - rect.left) * canvas.width) / rect.width,
      y: ((e.clientY - rect.top) * canvas.height) / rect.height,
    };
  }

  function cellAt(x, y) {
    const c = Math.floor((x - BOARD_X) / CELL);
    const r = Math.floor((y - BOARD_Y) / CELL);
    if (c < 0 || c >= COLS || r < 0 || r >= ROWS) return -1;
    return r * COLS + c;
  }

  canvas.addEventListener('mousedown', (e) => {
    const p = canvasPoint(e);
    queue.push({ type: 'down', button: e.button, x: p.x, y: p.y });
    e.preventDefault();
  });
  // On window so a release outside the canvas still ends the press.
  window.addEventListener('mouseup', (e) => {
    const p = canvasPoint(e);
    queue.push({ type: 'up', button: e.button, x: p.x, y: p.y });
  });
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  window.addEventListener('keydown', (e) => {
    // The keyboard is ignored except Enter on a finished game (for humans).
    if (e.repeat || e.key !== 'Enter') return;
    e.preventDefault();
    queue.push({ type: 'key', key: 'Enter' });
  });

  // Turn the raw events of this tick into core commands. A left click
  // reveals on release over the same cell it was pressed on; a right
  // press toggles a flag at once (as in the original).
  function drainInput() {
    const events = queue;
    queue = [];
    const commands = [];
    for (const ev of events) {
      if (ev.type === 'key') {
        if (core && core.s.status === 'terminal') return { commands: [], resetRequested: true };
        continue;
      }
      const cell = cellAt(ev.x, ev.y);
      if (ev.button === 0 && ev.type === 'down') {
        leftDownCell = cell;
      } else if (ev.button === 0 && ev.type === 'up') {
        if (leftDownCell !== null && leftDownCell === cell) commands.push({ op: 'reveal', cell });
        leftDownCell = null;
      } else if (ev.button === 2 && ev.type === 'down') {
        commands.push({ op: 'flag', cell });
      }
    }
    return { commands, resetRequested: false };
  }

  function tick() {
    if (!core) return;
    const input = drainInput();
    if (input.resetRequested) {
      gameAPI.reset({});
      return;
    }
    core.tick(input.commands);
  }

  // The single game loop: started once at load, never restarted by reset.
  //
  // Why a timer chain and not requestAnimationFrame: under Playwright's
  // virtual clock, rAF callbacks land on a 16 ms grid whose phase depends on
  // real time elapsed before the clock was paused (performance.now's origin),
  // so the number of ticks simulated by the end of an action varied by one
  // between identical runs. Timers fire at exact virtual times, so ticks are
  // scheduled on the grid loopStart + k/60 s of the virtual Date.now(), and
  // the state after every action is the same bit for bit. Date.now() only
  // schedules ticks; the simulation itself counts ticks.
  function loop() {
    const due = Math.floor((Date.now() - loopStart) / TICK_MS + 1e-6);
    let n = 0;
    while (loopTicks < due && n < MAX_TICKS_PER_FRAME) {
      tick();
      loopTicks++;
      n++;
    }
    if (loopTicks < due) loopTicks = due; // drop time lost to a stall
    const key = viewKey();
    if (key !== drawnKey) render(ctx, core);
    drawnKey = key;
    const nextAt = loopStart + (loopTicks + 1) * TICK_MS;
    setTimeout(loop, Math.max(0, nextAt - Date.now()));
  }

  // Redraw only when the picture can change (board, flags, status, or the HUD clock's
  // tenth of a second): idle frames cost nothing, which keeps waits cheap to simulate.
  let drawnKey = '';
  function viewKey() {
    if (!core) return 'none';
    const s = core.s;
    return [attempts, s.clicks, s.flags, s.revealedSafe, s.status, Math.floor(s.playTicks / 6)].join(' ');
  }

  function startEpisode(seed, level) {
    if (level !== 1) console.warn('19-minesweeper has only level 1; got', level);
    config = { seed: seed, level: 1 };
    attempts++;
    core = createCore(config.seed, config.level);
    queue = [];
    leftDownCell = null;
    render(ctx, core);
    drawnKey = viewKey();
    return { ok: true, method: 'inplace' };
  }

  function emptyState() {
    return {
      gameId: GAME_ID,
      seed: config.seed,
      timestampMs: Date.now(),
      gameTimeMs: 0,
      status: 'loading',
      terminal: { isTerminal: false, outcome: null, reason: null },
      game_state: {
        score: 0, level: 1, completion_progress: 0, board: [], mines_placed: false,
        player: { x: 640, y: 402, cell: null, alive: true },
      },
      metrics: {
        primary_score: 0, revealed_safe_cells: 0, correct_flags: 0, wrong_flags: 0,
        flags_placed: 0, remaining_mines: MINES, safe_total: SAFE_TOTAL, clicks: 0, attempts: 0,
      },
      raw: {},
    };
  }

  const gameAPI = {
    capabilities: {
      supports_seed: true,
      supports_inplace_reset: true,
      supports_level_select: false,
    },
    init(cfg) {
      cfg = cfg || {};
      attempts = 0;
      return startEpisode(cfg.seed ?? 42, cfg.level ?? 1);
    },
    reset(options) {
      options = options || {};
      return startEpisode(options.seed ?? config.seed, options.level ?? config.level);
    },
    getState() {
      if (!core) return emptyState();
      const snap = core.snapshot();
      snap.metrics.attempts = attempts;
      return Object.assign(
        { gameId: GAME_ID, seed: config.seed, timestampMs: Date.now() },
        snap,
      );
    },
  };

  // Fit the fixed 1280x720 canvas into larger or smaller windows for humans.
  // Under the harness (1280x720 viewport) the scale is exactly 1.
  function fitCanvas() {
    const scale = Math.min(window.innerWidth / 1280, window.innerHeight / 720) || 1;
    canvas.style.width = Math.round(1280 * scale) + 'px';
    canvas.style.height = Math.round(720 * scale) + 'px';
  }
  window.addEventListener('resize', fitCanvas);
  fitCanvas();

  window.gameAPI = gameAPI;
  window.__gwCore = {
    createCore,
    hash32,
    get current() {
      return core;
    },
  };

  render(ctx, core);
  loopStart = Date.now();
  setTimeout(loop, TICK_MS);
  if (!window.__GW_HARNESS__) gameAPI.init({ seed: 42, level: 1 });
})();
