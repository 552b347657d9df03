// Reference expert for Monkey Mart.
//
// A state machine picks the place to be (the till mat, the banana shelf, a
// banana tree, the sleeping assistant); the way there is found by a grid BFS
// over 16 px cells, and each step the move whose simulated outcome (on a clone
// of the core, 30 ticks per 0.5 s press, three presses deep) reaches the place
// soonest, or else ends closest to it along the BFS field, is taken. Once
// there it waits: picking, stocking and serving happen by themselves.
(function () {
  "use strict";

  const CELL = 16;
  const MOVE_TICKS = 30;          // a 0.5 s press
  const DEPTH = 3;
  const MARGIN = 8;               // stay this far inside a zone (tick jitter)
  const LOW_SHELF = 4;
  const MOVES = [
    ["move_up", { up: true }], ["move_down", { down: true }],
    ["move_left", { left: true }], ["move_right", { right: true }],
  ];
  const WAIT = { control: "wait", args: {} };

  const fields = new Map();       // zone name -> BFS distance field (cells)

  function geo() {
    return window.__gwCore && window.__gwCore.geo;
  }

  function zoneTest(name) {
    const G = geo();
    if (name === "assistant") {
      return (x, y) => Math.hypot(x - G.ASSISTANT_POS.x, y - G.ASSISTANT_POS.y) <= G.WAKE_REACH - MARGIN;
    }
    const reach = (name === "mat" ? G.MAT_REACH : G.REACH) - MARGIN;
    const r = G.STATIONS[name];
    return (x, y) => G.rectDist(r, x, y) <= reach;
  }

  function field(name) {
    if (fields.has(name)) return fields.get(name);
    const G = geo();
    const cw = G.ROOM_W / CELL, ch = G.ROOM_H / CELL;
    const inZone = zoneTest(name);
    const dist = new Int32Array(cw * ch).fill(-1);
    const queue = [];
    for (let cy = 0; cy < ch; cy++) {
      for (let cx = 0; cx < cw; cx++) {
        const x = cx * CELL + CELL / 2, y = cy * CELL + CELL / 2;
        if (!G.blocked(x, y) && inZone(x, y)) { dist[cy * cw + cx] = 0; queue.push(cy * cw + cx); }
      }
    }
    for (let qi = 0; qi < queue.length; qi++) {
      const c = queue[qi];
      const cx = c % cw, cy = (c - cx) / cw;
      for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]]) {
        if (nx < 0 || ny < 0 || nx >= cw || ny >= ch) continue;
        const n = ny * cw + nx;
        if (dist[n] >= 0 || G.blocked(nx * CELL + CELL / 2, ny * CELL + CELL / 2)) continue;
        dist[n] = dist[c] + 1;
        queue.push(n);
      }
    }
    const f = { dist, cw, inZone };
    fields.set(name, f);
    return f;
  }

  function distAt(f, x, y) {
    const cx = Math.min(f.cw - 1, Math.max(0, Math.floor(x / CELL)));
    const cy = Math.max(0, Math.floor(y / CELL));
    const d = f.dist[cy * f.cw + cx];
    return d < 0 ? 1e6 : d;
  }

  // Best first press towards a zone: fewest presses to get in, else the
  // shortest remaining BFS distance after DEPTH presses.
  function goTo(core, name) {
    const f = field(name);
    if (f.inZone(core.x, core.y)) return WAIT;
    let best = null;
    // A press that goes nowhere (against a wall) is never worth it; among
    // equal plans the one whose first press ends nearer wins.
    const explore = (c, depth, first, firstDist) => {
      for (const [id, input] of MOVES) {
        const n = c.clone();
        for (let t = 0; t < MOVE_TICKS; t++) n.move(input);
        if (Math.abs(n.x - c.x) + Math.abs(n.y - c.y) < 1) continue;
        const f0 = first || id;
        const d0 = first ? firstDist : distAt(f, n.x, n.y);
        let score;
        if (f.inZone(n.x, n.y)) score = depth;
        else if (depth === DEPTH) score = DEPTH + 1 + distAt(f, n.x, n.y) / 10;
        else { explore(n, depth + 1, f0, d0); continue; }
        score += d0 / 1e4;
        if (!best || score < best.score) best = { score, id: f0 };
      }
    };
    explore(core, 1, null, 0);
    if (!best) return WAIT;
    return { control: best.id, args: {} };
  }

  function bestTree(core) {
    let best = null;
    for (const t of core.trees) {
      if (!best || t.bananas > best.bananas) best = t;
    }
    return best;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !geo()) return WAIT;
      const G = geo();
      const carryingBananas = core.carryItem === "banana" ? core.carryCount : 0;
      const waitingForBananas = core.customers.some((cu) => cu.item === "banana" && (cu.state === "shopping" || cu.state === "to_shelf"));
      const till = core.queue.length > 0 || core.cash.length > 0;
      const onMat = core.onMat();

      // Busy at the till: stay until the queue and the counter are empty,
      // unless the banana shelf runs dry while nobody is at the till yet.
      const tillReady = core.cash.length > 0 || core.frontReady() !== null;
      const restock = core.shelves.banana <= 1 && !carryingBananas && !tillReady;
      if (onMat && till && !restock) return WAIT;
      // Picking bananas: fill up (6) unless the trees here are bare or a
      // customer stands at an empty banana shelf; then stock the shelf.
      if (carryingBananas && core.shelves.banana < G.SHELF_MAX) {
        const picking = core.trees.some((t) => t.bananas > 0 && core.near(t.id));
        const urgent = core.shelves.banana === 0 && waitingForBananas && carryingBananas >= 2;
        if (carryingBananas >= G.CARRY_MAX || !picking || urgent) return goTo(core, "banana_shelf");
        return WAIT;
      }
      if (till && !restock) return goTo(core, "mat");
      // Corn picked up on the way (the field is next to the assistant): shelve it.
      if (core.carryItem === "corn" && core.shelves.corn < G.SHELF_MAX) return goTo(core, "corn_shelf");
      if (core.assistant.state === "asleep" && core.shelves.corn < LOW_SHELF) return goTo(core, "assistant");
      const tree = bestTree(core);
      if (core.carryItem !== "corn" && core.shelves.banana < G.SHELF_MAX && tree.bananas > 0) return goTo(core, tree.id);
      return goTo(core, "mat");
    },
  };
})();
