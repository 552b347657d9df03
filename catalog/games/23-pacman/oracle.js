// Reference expert for Pac-Man.
//
// It acts only at step boundaries, like a model: a 0.2 s arrow press (the
// direction is buffered and taken at the next tile centre where it is open)
// or a 0.5 s wait. Steps, not game time, are the budget, so it waits along
// corridors and presses only for the next turn of its route.
//
// The route: breadth-first from the tile Pac-Man reaches next, around the
// tiles near hunting ghosts, to the nearest frightened ghost it can catch in
// time, else to the nearest pellet (going straight on ties: turns cost steps).
// Each step it clones the live core (window.__gwCore), tries every control
// followed by a few steps of that route policy, and keeps the control whose
// future scores most without losing a life; ties go to the policy's choice.
(function () {
  "use strict";

  const COLS = 28;
  const ROWS = 31;
  const U = 2400;
  const HALF = U / 2;
  const TUNNEL_ROW = 14;
  const WAIT_TICKS = 30;           // 0.5 s at 60 ticks/s
  const MOVE_TICKS = 12;           // 0.2 s
  const ROLLOUT_STEPS = 8;
  const DANGER_RADIUS = 4;         // tiles (path steps) around a hunting ghost
  const DEATH_PENALTY = 100000;
  const PELLET_POINTS = 10;
  const STALL_COST = 2;            // points per tick standing still (a tile takes 8 ticks)
  const DIRS = { up: [0, -1], left: [-1, 0], down: [0, 1], right: [1, 0] };
  const DIR_NAMES = ["up", "left", "down", "right"];
  const WAIT = { control: "wait", dir: null, ticks: WAIT_TICKS };

  function press(dir) {
    return { control: "move_" + dir, dir: dir, ticks: MOVE_TICKS };
  }

  function wrap(c) {
    return ((c % COLS) + COLS) % COLS;
  }

  function open(core, c, r) {
    if (r < 0 || r >= ROWS) return false;
    if (c < 0 || c >= COLS) {
      if (r !== TUNNEL_ROW) return false;
      c = wrap(c);
    }
    const ch = core.dots[r][c];
    return ch !== "#" && ch !== "-";
  }

  // Units Pac-Man still travels to reach the centre of the tile he heads for.
  function toHead(core) {
    const p = core.pac;
    if (!p.moving || (p.x % U === HALF && p.y % U === HALF)) return 0;
    const d = DIRS[p.dir];
    const v = d[0] !== 0 ? p.x : p.y;
    const off = ((v - HALF) % U + U) % U;
    return d[0] + d[1] > 0 ? U - off : off;
  }

  // The tile whose centre Pac-Man reaches next (where a buffered turn applies).
  function headTile(core) {
    const p = core.pac;
    const d = DIRS[p.dir];
    const ahead = toHead(core);
    return [wrap(Math.floor((p.x + d[0] * ahead) / U)), Math.floor((p.y + d[1] * ahead) / U)];
  }

  function tileKey(c, r) {
    return r * COLS + wrap(c);
  }

  // Breadth-first distances over open tiles from a set of start tiles.
  function distances(core, starts, limit) {
    const dist = new Int16Array(COLS * ROWS).fill(-1);
    const queue = [];
    for (const [c, r] of starts) {
      const k = tileKey(c, r);
      if (dist[k] < 0) {
        dist[k] = 0;
        queue.push(k);
      }
    }
    for (let i = 0; i < queue.length; i++) {
      const k = queue[i];
      if (dist[k] >= limit) continue;
      const c = k % COLS;
      const r = (k - c) / COLS;
      for (const name of DIR_NAMES) {
        const d = DIRS[name];
        if (!open(core, c + d[0], r + d[1])) continue;
        const nk = tileKey(c + d[0], r + d[1]);
        if (dist[nk] < 0) {
          dist[nk] = dist[k] + 1;
          queue.push(nk);
        }
      }
    }
    return dist;
  }

  function ghostTile(g) {
    return [wrap(Math.floor(g.x / U)), Math.floor(g.y / U)];
  }

  // The route from the head tile as a list of directions, one per tile.
  function route(core) {
    // Never plan a U-turn while a route ahead exists: greedy targets that flip
    // between two pellets would otherwise make Pac-Man dither on the spot.
    return (core.pac.moving && routeFrom(core, true)) || routeFrom(core, false);
  }

  // Breadth-first route; null if noUTurn and nothing is reachable ahead.
  function routeFrom(core, noUTurn) {
    const [hc, hr] = headTile(core);
    const hunters = [];
    const prey = new Set();
    for (const g of core.ghosts) {
      if (g.mode !== "active") continue;
      if (g.frightened) prey.add(tileKey(...ghostTile(g)));
      else hunters.push(ghostTile(g));
    }
    const danger = distances(core, hunters, DANGER_RADIUS);
    // Tiles Pac-Man covers before the power runs out, with a margin.
    const reach = Math.floor((core.powerTicks - 30) * core.pacSpeed() / U);
    const start = tileKey(hc, hr);
    const from = new Int32Array(COLS * ROWS).fill(-1);
    const via = new Int8Array(COLS * ROWS).fill(-1);
    const dist = new Int16Array(COLS * ROWS).fill(-1);
    dist[start] = 0;
    const queue = [start];
    const ahead = DIR_NAMES.indexOf(core.pac.dir);
    const order = [ahead].concat([0, 1, 2, 3].filter((i) => i !== ahead));
    const back = DIR_NAMES.indexOf({ up: "down", down: "up", left: "right", right: "left" }[core.pac.dir]);
    let pellet = -1;
    let goal = -1;
    for (let i = 0; i < queue.length && goal < 0; i++) {
      const k = queue[i];
      const c = k % COLS;
      const r = (k - c) / COLS;
      if (k !== start) {
        if (prey.has(k) && dist[k] <= reach) goal = k;
        const ch = core.dots[r][c];
        if (pellet < 0 && (ch === "." || ch === "o")) {
          pellet = k;
          if (!prey.size || reach <= 0) goal = k;
        }
        if (goal >= 0) break;
      }
      for (const di of order) {
        const d = DIRS[DIR_NAMES[di]];
        if (!open(core, c + d[0], r + d[1]) || (noUTurn && k === start && di === back)) continue;
        const nk = tileKey(c + d[0], r + d[1]);
        if (dist[nk] >= 0 || (danger[nk] >= 0 && danger[nk] < DANGER_RADIUS)) continue;
        dist[nk] = dist[k] + 1;
        from[nk] = k;
        via[nk] = di;
        queue.push(nk);
      }
    }
    if (goal < 0) goal = pellet;
    if (goal < 0) return noUTurn ? null : [fleeDir(core, hc, hr, hunters)];
    const path = [];
    for (let k = goal; k !== start; k = from[k]) path.push(DIR_NAMES[via[k]]);
    return path.reverse();
  }

  // Boxed in by ghosts: the open neighbour farthest from them.
  function fleeDir(core, hc, hr, hunters) {
    const far = distances(core, hunters, 60);
    let best = core.pac.dir;
    let bestD = -1;
    for (const name of DIR_NAMES) {
      const d = DIRS[name];
      if (!open(core, hc + d[0], hr + d[1])) continue;
      const v = far[tileKey(hc + d[0], hr + d[1])];
      const score = v < 0 ? 99 : v;
      if (score > bestD) {
        bestD = score;
        best = name;
      }
    }
    return best;
  }

  // The step the route asks for: wait while no turn is due within a wait,
  // else press the turn, unless an earlier junction would take it too soon
  // (then a press of the current heading passes 0.2 s harmlessly).
  function policy(core) {
    const path = route(core);
    const p = core.pac;
    if (!p.started || !p.moving) return press(path[0]);
    const turn = path.findIndex((d) => d !== p.dir);
    if (turn < 0) return WAIT;
    const ticksToTurn = (toHead(core) + turn * U) / core.pacSpeed();
    if (ticksToTurn > WAIT_TICKS + 2) return WAIT;
    if (p.nextDir === path[turn]) return ticksToTurn > WAIT_TICKS ? press(p.dir) : WAIT;
    let [c, r] = headTile(core);
    const t = DIRS[path[turn]];
    for (let i = 0; i < turn; i++) {
      if (open(core, c + t[0], r + t[1])) return press(p.dir);
      c += DIRS[path[i]][0];
      r += DIRS[path[i]][1];
    }
    return press(path[turn]);
  }

  function lostLife(c, lives) {
    return c.lives < lives || c.status === "terminal";
  }

  // Runs one step on c; false if Pac-Man lost a life in it. Counts the ticks
  // he stood still against a wall in c.stalled (the oracle's own field).
  function playStep(c, step, lives) {
    for (let t = 0; t < step.ticks; t++) {
      c.tick({ dirs: t === 0 && step.dir ? [step.dir] : [] });
      if (lostLife(c, lives)) return false;
      if (!c.pac.moving && c.readyTicks === 0) c.stalled++;
    }
    return true;
  }

  // Tiles from the head tile to the nearest pellet (0 when none is left).
  function pelletDistance(c) {
    const dist = distances(c, [headTile(c)], 60);
    let best = 60;
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const ch = c.dots[r][col];
        const d = dist[r * COLS + col];
        if ((ch === "." || ch === "o") && d >= 0 && d < best) best = d;
      }
    }
    return c.dotsLeft ? best : 0;
  }

  // Value of a first control: it, then ROLLOUT_STEPS steps of the policy;
  // points, minus the way left to the next pellet and the time spent standing
  // still (otherwise waiting for ghosts to pass always looks as good).
  function evaluate(core, first) {
    const c = core.clone();
    c.stalled = 0;
    const lives = c.lives;
    if (!playStep(c, first, lives)) return c.score - 2 * DEATH_PENALTY;
    for (let s = 0; s < ROLLOUT_STEPS; s++) {
      if (!playStep(c, policy(c), lives)) return c.score - DEATH_PENALTY + s;
    }
    return c.score - PELLET_POINTS * pelletDistance(c) - STALL_COST * c.stalled;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      // "READY!": a press would only be buffered; let a wait pass the time.
      if (core.readyTicks > MOVE_TICKS) return { control: "wait", args: {} };
      const preferred = policy(core);
      let best = preferred;
      let bestV = evaluate(core, preferred);
      for (const ctl of [WAIT].concat(DIR_NAMES.map(press))) {
        if (ctl.control === preferred.control) continue;
        const v = evaluate(core, ctl);
        if (v > bestV) {
          bestV = v;
          best = ctl;
        }
      }
      return { control: best.control, args: {} };
    },
  };
})();
