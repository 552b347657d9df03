// Reference expert for Astray.
//
// A breadth-first search over the maze's open blocks gives every block its
// distance to the exit pad and the direction of the next block on the way
// there; together they make a potential that falls smoothly along the route.
// Each step the oracle clones the live core (window.__gwCore), plays every
// two-step sequence of controls, lets the ball coast to rest, and picks the
// first control of the sequence whose resting point has the lowest potential
// (reaching the pad beats everything, sooner is better). Letting the ball
// coast in the evaluation is what makes it brake before turns.
(function () {
  "use strict";

  const CONTROLS = [
    { control: "move_up", held: "up" },
    { control: "move_right", held: "right" },
    { control: "move_left", held: "left" },
    { control: "move_down", held: "down" },
    { control: "wait", held: null },
  ];
  const STEP_TICKS = 15;           // 0.25 s per control
  const COAST_TICKS = 30;          // then 0.5 s without keys
  const DEPTH = 3;
  const OFF_CENTRE = 0.5;
  const B = 40;                    // block size, px (game.js BLOCK)

  const DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1]];

  // Per maze: block distance to the exit block and the unit step toward it.
  let cachedMaze = null;
  let field = null;
  function routeField(core) {
    if (cachedMaze === core.maze) return field;
    const { size, open } = core.maze;
    const dist = new Int32Array(size * size).fill(-1);
    const next = new Int8Array(size * size * 2);
    const exit = (2 * core.exitCell[1] + 1) * size + 2 * core.exitCell[0] + 1;
    const queue = [exit];
    dist[exit] = 0;
    for (let h = 0; h < queue.length; h++) {
      const k = queue[h];
      const x = k % size;
      const y = Math.floor(k / size);
      for (const [dx, dy] of DIRS) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
        const nk = ny * size + nx;
        if (!open[nk] || dist[nk] >= 0) continue;
        dist[nk] = dist[k] + 1;
        next[2 * nk] = -dx;
        next[2 * nk + 1] = -dy;
        queue.push(nk);
      }
    }
    cachedMaze = core.maze;
    field = { size, dist, next };
    return field;
  }

  // Route distance (px) from the ball to the exit pad's centre.
  function potential(core, f) {
    const bx = Math.floor(core.x / B);
    const by = Math.floor(core.y / B);
    const k = by * f.size + bx;
    const d = f.dist[k];
    if (d < 0) return 1e6;
    const ox = core.x - (bx + 0.5) * B;
    const oy = core.y - (by + 0.5) * B;
    const nx = f.next[2 * k];
    const ny = f.next[2 * k + 1];
    if (d === 0) return Math.hypot(ox, oy);
    const along = ox * nx + oy * ny;
    const across = Math.abs(ox * ny - oy * nx);
    // Resting on a cell centre keeps the next press a clean one-cell move
    // (a press from rest travels about one cell), so off-centre rests cost.
    const cx = Math.round((core.x - 1.5 * B) / (2 * B)) * 2 * B + 1.5 * B;
    const cy = Math.round((core.y - 1.5 * B) / (2 * B)) * 2 * B + 1.5 * B;
    return d * B - along + 0.5 * across + OFF_CENTRE * Math.hypot(core.x - cx, core.y - cy);
  }

  function run(core, held, ticks) {
    const input = { held: held ? new Set([held]) : new Set(), pressed: 0 };
    for (let t = 0; t < ticks; t++) {
      core.tick(input);
      if (core.status === "terminal") return t + 1;
    }
    return 0;
  }

  // Cost of playing `plan` (control indices) from `core`, then coasting.
  function cost(core, plan, f) {
    const c = core.clone();
    let elapsed = 0;
    for (const i of plan) {
      const done = run(c, CONTROLS[i].held, STEP_TICKS);
      if (done) return -1e6 + elapsed + done;
      elapsed += STEP_TICKS;
    }
    const done = run(c, null, COAST_TICKS);
    if (done) return -1e6 + elapsed + done;
    return potential(c, f);
  }

  function best(core, f, prefix) {
    if (prefix.length === DEPTH) return cost(core, prefix, f);
    let out = Infinity;
    for (let i = 0; i < CONTROLS.length; i++) out = Math.min(out, best(core, f, prefix.concat([i])));
    return out;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      const f = routeField(core);
      let pick = 0;
      let pickCost = Infinity;
      for (let i = 0; i < CONTROLS.length; i++) {
        const c = best(core, f, [i]);
        if (c < pickCost - 1e-6) {
          pick = i;
          pickCost = c;
        }
      }
      return { control: CONTROLS[pick].control, args: {} };
    },
  };
})();
