// Reference player for 19-minesweeper.
//
// It plays fair: it reads only the visible board (game_state.board) and the
// public counters, never the hidden mine layout. Each step it
//   1. opens with e5 (a different opening cell on later attempts, because a
//      reset with the same opening gives the same board and the same guess);
//   2. deduces certain mines and safe cells (single-cell rule, subset rule);
//   3. on flag tasks flags certain mines before anything else;
//   4. reveals a certain-safe cell;
//   5. when stuck, enumerates the frontier configurations, weighs them with
//      the global mine count, and reveals the least likely mine.
'use strict';

(function () {
  const COLS = 9;
  const ROWS = 9;
  const N = COLS * ROWS;
  const MINES = 10;
  const COL_NAMES = 'abcdefghi';
  const OPENINGS = ['e5', 'c3', 'g7', 'c7', 'g3', 'e3', 'e7', 'c5', 'g5'];
  const NODE_BUDGET = 3e6; // backtracking guard; never reached on 9x9 in practice

  const NEIGHBOURS = [];
  for (let i = 0; i < N; i++) {
    const c = i % COLS;
    const r = Math.floor(i / COLS);
    const list = [];
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        if (!dr && !dc) continue;
        const cc = c + dc;
        const rr = r + dr;
        if (cc >= 0 && cc < COLS && rr >= 0 && rr < ROWS) list.push(rr * COLS + cc);
      }
    }
    NEIGHBOURS.push(list);
  }

  const cellName = (i) => COL_NAMES[i % COLS] + (Math.floor(i / COLS) + 1);
  const reveal = (i) => ({ control: 'reveal_cell', args: { cell: cellName(i) } });
  const flag = (i) => ({ control: 'flag_cell', args: { cell: cellName(i) } });
  const WAIT = { control: 'wait', args: {} };

  function scoreText(task) {
    if (!task) return '';
    const score = task.score !== undefined ? task.score : task.scoreField;
    return typeof score === 'string' ? score : JSON.stringify(score || '');
  }

  function parseBoard(rows) {
    const chars = [];
    for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) chars.push(rows[r][c]);
    return chars;
  }

  // Number constraints over the hidden, unflagged neighbours:
  // {cells: [...], mines: k} means exactly k of those cells are mines.
  function buildConstraints(chars, known) {
    const list = [];
    for (let i = 0; i < N; i++) {
      const ch = chars[i];
      if (ch < '0' || ch > '8') continue;
      let need = Number(ch);
      const cells = [];
      for (const j of NEIGHBOURS[i]) {
        if (chars[j] === 'F' || known[j] === 1) need--;
        else if (chars[j] === '#' && known[j] !== 0) cells.push(j);
      }
      if (cells.length) list.push({ cells, mines: need });
    }
    return list;
  }

  // Fixed point of the two local rules. known[i]: 1 mine, 0 safe, -1 unknown.
  function localDeduction(chars, known) {
    let changed = true;
    while (changed) {
      changed = false;
      const cons = buildConstraints(chars, known);
      for (const k of cons) {
        // Single-cell rule: all remaining neighbours are mines, or none are.
        if (k.mines === 0 || k.mines === k.cells.length) {
          const value = k.mines === 0 ? 0 : 1;
          for (const j of k.cells) if (known[j] === -1) { known[j] = value; changed = true; }
        }
      }
      if (changed) continue;
      // Subset rule: if A's cells lie inside B's, B minus A holds the difference.
      for (const a of cons) {
        for (const b of cons) {
          if (a === b || a.cells.length >= b.cells.length) continue;
          if (!a.cells.every((j) => b.cells.includes(j))) continue;
          const rest = b.cells.filter((j) => !a.cells.includes(j));
          const restMines = b.mines - a.mines;
          if (restMines !== 0 && restMines !== rest.length) continue;
          for (const j of rest) if (known[j] === -1) { known[j] = restMines ? 1 : 0; changed = true; }
        }
        if (changed) break;
      }
    }
  }

  // Split frontier cells into groups that share no constraint.
  function components(cons) {
    const parent = new Map();
    const find = (x) => {
      while (parent.get(x) !== x) x = parent.get(x);
      return x;
    };
    for (const k of cons) for (const j of k.cells) if (!parent.has(j)) parent.set(j, j);
    for (const k of cons) for (const j of k.cells) parent.set(find(j), find(k.cells[0]));
    const groups = new Map();
    for (const j of parent.keys()) {
      const root = find(j);
      if (!groups.has(root)) groups.set(root, { cells: [], cons: [] });
      groups.get(root).cells.push(j);
    }
    for (const k of cons) groups.get(find(k.cells[0])).cons.push(k);
    return [...groups.values()];
  }

  // All mine assignments of one group: per mine count m, the number of
  // solutions and, per cell, how many of them put a mine there.
  function enumerateGroup(group, budget) {
    const cells = group.cells.slice().sort((x, y) => x - y);
    const index = new Map(cells.map((j, k) => [j, k]));
    const cons = group.cons.map((k) => ({ idx: k.cells.map((j) => index.get(j)), left: k.mines, open: k.cells.length }));
    const byCell = cells.map(() => []);
    cons.forEach((k, ci) => k.idx.forEach((x) => byCell[x].push(ci)));
    const assign = new Array(cells.length).fill(0);
    const result = new Map(); // m -> {count, perCell[]}
    let nodes = 0;

    function fits(x, value) {
      for (const ci of byCell[x]) {
        const k = cons[ci];
        const left = k.left - value;
        if (left < 0 || left > k.open - 1) return false;
      }
      return true;
    }
    function apply(x, value, sign) {
      for (const ci of byCell[x]) {
        cons[ci].left -= sign * value;
        cons[ci].open -= sign;
      }
    }
    function walk(x, mines) {
      if (++nodes > budget.left) throw new Error('budget');
      if (x === cells.length) {
        if (!result.has(mines)) result.set(mines, { count: 0, perCell: new Array(cells.length).fill(0) });
        const entry = result.get(mines);
        entry.count++;
        for (let y = 0; y < cells.length; y++) entry.perCell[y] += assign[y];
        return;
      }
      for (const value of [0, 1]) {
        if (!fits(x, value)) continue;
        assign[x] = value;
        apply(x, value, 1);
        walk(x + 1, mines + value);
        apply(x, value, -1);
      }
      assign[x] = 0;
    }
    walk(0, 0);
    budget.left -= nodes;
    return { cells, result };
  }

  function binomial(n, k) {
    if (k < 0 || k > n) return 0;
    let v = 1;
    for (let i = 1; i <= k; i++) v = (v * (n - k + i)) / i;
    return v;
  }

  // Mine-count distribution of a set of groups: weight per total mine count.
  function convolve(groups) {
    let dist = new Map([[0, 1]]);
    for (const g of groups) {
      const next = new Map();
      for (const [m1, w1] of dist) {
        for (const [m2, e] of g.result) next.set(m1 + m2, (next.get(m1 + m2) || 0) + w1 * e.count);
      }
      dist = next;
    }
    return dist;
  }

  // Probability that each unknown cell is a mine, or null if the visible
  // board admits no layout (a wrong flag, for instance).
  function probabilities(chars, known) {
    const cons = buildConstraints(chars, known);
    const groups = components(cons);
    const budget = { left: NODE_BUDGET };
    let enumerated;
    try {
      enumerated = groups.map((g) => enumerateGroup(g, budget));
    } catch (err) {
      return null;
    }
    let knownMines = 0;
    const interior = [];
    const inFrontier = new Set(groups.flatMap((g) => g.cells));
    for (let i = 0; i < N; i++) {
      if (chars[i] === 'F' || known[i] === 1) knownMines++;
      else if (chars[i] === '#' && known[i] === -1 && !inFrontier.has(i)) interior.push(i);
    }
    const minesLeft = MINES - knownMines;
    const weightFor = (frontierMines) => binomial(interior.length, minesLeft - frontierMines);

    let total = 0;
    let interiorMines = 0;
    for (const [m, w] of convolve(enumerated)) {
      const wt = w * weightFor(m);
      total += wt;
      interiorMines += wt * (minesLeft - m);
    }
    if (!(total > 0)) return null;

    const prob = new Map();
    enumerated.forEach((g, gi) => {
      const others = convolve(enumerated.filter((_, k) => k !== gi));
      const perCell = new Array(g.cells.length).fill(0);
      for (const [m, entry] of g.result) {
        let rest = 0;
        for (const [m2, w2] of others) rest += w2 * weightFor(m + m2);
        for (let y = 0; y < g.cells.length; y++) perCell[y] += entry.perCell[y] * rest;
      }
      g.cells.forEach((j, y) => prob.set(j, perCell[y] / total));
    });
    const pInterior = interior.length ? interiorMines / total / interior.length : 1;
    for (const j of interior) prob.set(j, pInterior);
    return prob;
  }

  // How many hidden neighbours a cell has: guesses with fewer are likelier
  // to open ground (corners, edges).
  function hiddenNeighbours(chars, i) {
    return NEIGHBOURS[i].filter((j) => chars[j] === '#').length;
  }

  function act(state, task) {
    const gs = (state && state.game_state) || {};
    if (!state || state.status !== 'playing' || !Array.isArray(gs.board) || gs.board.length !== ROWS) return WAIT;
    const chars = parseBoard(gs.board);
    const attempts = (state.metrics && state.metrics.attempts) || 1;
    const wantFlags = scoreText(task).includes('correct_flags');

    if (!chars.some((ch) => ch >= '0' && ch <= '8')) {
      const first = OPENINGS[(attempts - 1) % OPENINGS.length];
      const idx = COL_NAMES.indexOf(first[0]) + (Number(first.slice(1)) - 1) * COLS;
      return chars[idx] === '#' ? reveal(idx) : reveal(chars.indexOf('#'));
    }

    const known = new Array(N).fill(-1);
    localDeduction(chars, known);
    let prob = null;
    if (!known.some((v) => v === 0)) {
      prob = probabilities(chars, known);
      if (prob) {
        for (const [j, p] of prob) {
          if (p < 1e-9) known[j] = 0;
          else if (p > 1 - 1e-9) known[j] = 1;
        }
      }
    }

    const flagsLeft = MINES - chars.filter((ch) => ch === 'F').length;
    if (wantFlags && flagsLeft > 0) {
      const mine = known.findIndex((v, j) => v === 1 && chars[j] === '#');
      if (mine >= 0) return flag(mine);
    }
    const safe = known.findIndex((v, j) => v === 0 && chars[j] === '#');
    if (safe >= 0) return reveal(safe);

    // Forced guess: least likely mine, then fewest hidden neighbours.
    let best = -1;
    let bestKey = null;
    for (let j = 0; j < N; j++) {
      if (chars[j] !== '#' || known[j] === 1) continue;
      const p = prob && prob.has(j) ? prob.get(j) : 0.5;
      const key = [Math.round(p * 1e9), hiddenNeighbours(chars, j)];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
        best = j;
        bestKey = key;
      }
    }
    return best >= 0 ? reveal(best) : WAIT;
  }

  window.gameOracle = { act };
})();
