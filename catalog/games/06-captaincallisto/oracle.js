// Reference expert for Captain Callisto.
//
// It acts only at step boundaries (one 0.2 s control per step), like a model.
// Each level has an authored route: coins, fuel cans and waypoints (ladder
// feet and tops, take-off points) in the order a player takes them. Each step
// the oracle clones the live core (window.__gwCore), plays every sequence of
// DEPTH controls ahead, coasts for TAIL ticks with no key held (a jump that
// lands after the horizon is still checked), and takes the future furthest
// along the route: coins first (sooner is better), then route entries passed,
// then the distance to the next entry. A death is the worst outcome. The
// chosen first control is re-checked under the other step lengths the harness
// produces (11 or 13 ticks instead of 12). `restart` is never used.
(function () {
  "use strict";

  const DEPTH = 3;
  const STEP_TICKS = 12;           // 200 ms of 1/60 s ticks
  const ALT_TICKS = [11, 13];
  const TAIL = 48;                 // a whole jump: judge where it lands
  const TAILS = ["wait", "move_right", "move_left"];
  const COIN_VALUE = 3000;         // a coin taken off the route's order
  const WP_VALUE = 1e5;            // a route entry passed
  const EARLY = 100;               // per tick a coin is taken before the horizon
  const HORIZON = 200;
  const DEATH = -1e9;
  const WIN = 1e12;                // the level completed (sooner is better)
  const T = 40;                    // tile size

  // Route entries: {c: [col, row]} a coin, {f: [col, row]} a fuel can,
  // {at: [col, row], r} a point (tile centre) the astronaut's centre must
  // come within r px of.
  function ladder(col, footRow, topRow) {
    return [{ at: [col, footRow], r: 34 }, { at: [col, topRow], r: 14 }];
  }
  const ROUTES = {
    1: [{ c: [5, 13] }, { c: [9, 13] }, { c: [13, 13] }, ...ladder(15, 13, 9),
      { c: [11, 9] }, { c: [17, 9] }, { c: [25, 9] }, { c: [27, 9] }],
    2: [{ c: [5, 13] }, { c: [9, 10] }, { c: [14, 13] }, { c: [20, 13] }, ...ladder(22, 13, 9),
      { c: [27, 9] }, { c: [17, 9] }, ...ladder(14, 9, 6), { c: [9, 6] }, { c: [3, 6] }],
    3: [...ladder(7, 13, 9), { c: [4, 9] }, { at: [7, 13], r: 14 }, { c: [9, 13] }, { f: [12, 13] },
      { at: [10, 4], r: 24 }, { c: [12, 4] }, { c: [15, 4] }, { c: [18, 4] }, { c: [28, 10] }, { c: [27, 13] }],
    4: [{ c: [5, 13] }, { c: [9, 13] }, { c: [14, 13] }, { c: [19, 13] }, { c: [24, 13] }, ...ladder(27, 13, 9),
      { c: [24, 9] }, { c: [19, 9] }, { c: [14, 9] }, { c: [9, 9] }, { c: [5, 9] }, ...ladder(3, 9, 5),
      { c: [6, 5] }, { c: [11, 5] }, { c: [16, 5] }, { c: [21, 5] }, { c: [26, 5] }],
    5: [{ c: [5, 13] }, ...ladder(7, 13, 9), { c: [10, 9] }, { f: [12, 9] }, ...ladder(4, 9, 5),
      { c: [7, 5] }, { c: [12, 5] }, { c: [17, 5] }, { c: [22, 5] }, { c: [27, 4] }, { c: [28, 4] },
      { c: [26, 9] }, { c: [27, 13] }, { c: [18, 10] }, { c: [15, 13] }],
  };

  const KEYS = {
    wait: {},
    move_left: { left: true, move: true },
    move_right: { right: true, move: true },
    move_up: { up: true, move: true },
    move_down: { down: true, move: true },
    jump: { jump: true, move: true },
    jetpack: { jet: true },
  };
  const CHOICES = ["move_right", "move_left", "jump", "move_up", "move_down", "wait", "jetpack"];

  function centre(core) {
    return { x: core.p.x + 14, y: core.p.y + 20 };
  }

  function findAt(list, e) {
    const [col, row] = e.c || e.f;
    return list.find((o) => Math.floor(o.x / T) === col && Math.floor(o.y / T) === row);
  }

  function passed(core, e) {
    if (e.c) return findAt(core.coins, e).taken;
    if (e.f) return findAt(core.cans, e).taken;
    if (core.dead > 0) return false;
    const c = centre(core);
    return Math.hypot(c.x - (e.at[0] * T + 20), c.y - (e.at[1] * T + 20)) < e.r;
  }

  function goal(core, e) {
    if (e.c) { const o = findAt(core.coins, e); return { x: o.x, y: o.y }; }
    if (e.f) { const o = findAt(core.cans, e); return { x: o.x + 12, y: o.y + 15 }; }
    return { x: e.at[0] * T + 20, y: e.at[1] * T + 20 };
  }

  // A simulated future: the core plus how far along the route it got.
  function Sim(core, idx) { this.core = core; this.idx = idx; this.dead = false; this.t = 0; this.early = 0; }
  Sim.prototype.clone = function () {
    const s = new Sim(this.core.clone(), this.idx);
    s.dead = this.dead; s.t = this.t; s.early = this.early;
    return s;
  };

  function advance(sim) {
    const route = ROUTES[sim.core.level];
    while (sim.idx < route.length && passed(sim.core, route[sim.idx])) sim.idx++;
  }

  function playStep(sim, name, ticks) {
    const k = KEYS[name];
    const c = sim.core;
    for (let t = 0; t < ticks && c.status === "playing"; t++) {
      const deaths = c.deaths, score = c.score;
      c.tick({ left: !!k.left, right: !!k.right, up: !!k.up, down: !!k.down, jet: !!k.jet,
        jump: !!k.jump && t === 0, move: !!k.move && t === 0, restart: false });
      sim.t++;
      if (c.deaths !== deaths) { sim.dead = true; return; }
      const idx = sim.idx;
      advance(sim);
      if (sim.idx > idx) sim.early += EARLY * (HORIZON - sim.t);
    }
  }

  // Worth of a future: the best of a few coasting tails (no key, or walking /
  // steering left or right for TAIL ticks), so a jump still in the air at
  // the horizon is judged by where it lands and what it picks up on the way.
  function value(sim) {
    if (sim.dead) return DEATH;
    if (sim.core.status !== "playing") return WIN - sim.t;
    let best = DEATH / 2;
    for (const name of TAILS) {
      const tail = sim.clone();
      playStep(tail, name, TAIL);
      if (tail.dead) continue;
      const c = tail.core;
      if (c.status !== "playing") { best = Math.max(best, WIN - tail.t); continue; }
      const e = ROUTES[c.level][tail.idx];
      let d = 0;
      if (e) {
        const g = goal(c, e), p = centre(c);
        d = Math.hypot(p.x - g.x, p.y - g.y);
      }
      best = Math.max(best, c.score * COIN_VALUE + tail.early + tail.idx * WP_VALUE - d);
    }
    return best;
  }

  function search(sim, left) {
    if (left === 0 || sim.dead || sim.core.status !== "playing") return { v: value(sim), seq: [] };
    let best = null;
    for (const name of CHOICES) {
      const s = sim.clone();
      playStep(s, name, STEP_TICKS);
      const r = search(s, left - 1);
      if (!best || r.v > best.v) best = { v: r.v, seq: [name].concat(r.seq) };
    }
    return best;
  }

  // The first control is safe under a step of `firstTicks` if some
  // continuation from there still survives the horizon.
  function survives(root, name, firstTicks) {
    const s = root.clone();
    playStep(s, name, firstTicks);
    if (s.dead) return false;
    return search(s, DEPTH - 1).v > DEATH / 4;
  }

  // Route progress of the live episode, kept between steps; a new episode
  // (a new core), a restart or a death starts the route again (coins already
  // taken pass at once).
  let track = { core: null, key: null, idx: 0 };

  function decide(core) {
    const key = core.level + "/" + core.deaths + "/" + core.restarts;
    if (track.core !== core || track.key !== key) track = { core: core, key: key, idx: 0 };
    const root = new Sim(core.clone(), track.idx);
    advance(root);
    track.idx = root.idx;
    const plans = CHOICES.map((name) => {
      const s = root.clone();
      playStep(s, name, STEP_TICKS);
      const r = search(s, DEPTH - 1);
      return { name: name, v: r.v, seq: [name].concat(r.seq) };
    });
    const order = plans.slice().sort((a, b) => b.v - a.v);
    for (const p of order) {
      if (ALT_TICKS.every((t) => survives(root, p.name, t))) return p.name;
    }
    return order[0].name;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      if (core.dead > 0) return { control: "wait", args: {} };
      return { control: decide(core), args: {} };
    },
  };
})();
