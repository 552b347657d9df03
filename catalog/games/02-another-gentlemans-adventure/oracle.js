// Reference expert for Another Gentleman's Adventure.
//
// It acts only at step boundaries (one 0.2 s control per step), like a model.
// The level has an authored route: the coins in the order a player meets
// them, with a waypoint where the straight line would mislead, then the door.
// Each step the oracle clones the live core (window.__gwCore), plays every
// sequence of DEPTH controls ahead, coasts for TAIL ticks with no key held (a
// jump that lands after the horizon is still checked for pits and beetles),
// and takes the future furthest along the route: coins first, then route
// targets passed, then the distance to the next one. Losing a life is the
// worst outcome. The chosen first control is re-checked under the other step
// lengths the harness produces (11 or 13 ticks instead of 12).
(function () {
  "use strict";

  const DEPTH = 3;
  const STEP_TICKS = 12;           // 200 ms of 1/60 s ticks
  const ALT_TICKS = [11, 13];
  const TAIL = 30;
  const COIN_VALUE = 1e6;
  const WP_VALUE = 1e4;
  const DEATH = -1e9;
  const EARLY = 100;               // per tick a coin is taken before the horizon
  const HORIZON = 200;

  // {coin: id} is passed once that coin counts; {x, y, r} when the
  // gentleman's centre comes within r px (or once he is right of `past`: a
  // respawn at the half-way flag is already over the wall); {door: true} is the exit.
  const ROUTE = [
    { x: 408, y: 456, r: 40, past: 624 },   // on the ledge left of the start: the way over the wall
    { x: 600, y: 360, r: 40, past: 624 },   // on top of the wall
    { coin: 1 }, { coin: 2 }, { coin: 3 }, { coin: 4 }, { coin: 5 },
    { x: 2184, y: 456, r: 40 },     // on top of the wall before the first pit
    { coin: 6 }, { coin: 7 },
    { x: 2832, y: 408, r: 40 },     // platform A of the high chain
    { x: 2976, y: 264, r: 40 },     // platform B
    { coin: 8 }, { door: true },
  ];

  const KEYS = {
    wait: {},
    move_right: { right: true },
    jump_right: { right: true, up: true },
    jump: { up: true },
    move_left: { left: true },
    jump_left: { left: true, up: true },
  };
  // Order breaks ties: forward first.
  const CHOICES = ["move_right", "jump_right", "jump", "wait", "move_left", "jump_left"];

  function passed(core, wp) {
    if (wp.coin) return core.coins[wp.coin - 1].taken;
    if (wp.door) return core.status === "terminal" && core.outcome === "success";
    const p = core.p;
    if (wp.past !== undefined && p.x > wp.past) return true;
    return Math.hypot(p.x + 16 - wp.x, p.y + 24 - wp.y) < wp.r;
  }

  // A simulated future: the core plus how far along the route it got.
  // `early` rewards taking a coin sooner rather than later inside the horizon.
  function Sim(core, idx) { this.core = core; this.idx = idx; this.dead = false; this.t = 0; this.early = 0; }
  Sim.prototype.clone = function () {
    const s = new Sim(this.core.clone(), this.idx);
    s.dead = this.dead; s.t = this.t; s.early = this.early;
    return s;
  };

  function advance(sim) {
    while (sim.idx < ROUTE.length && passed(sim.core, ROUTE[sim.idx])) sim.idx++;
  }

  function playStep(sim, name, ticks) {
    const k = KEYS[name];
    const c = sim.core;
    for (let t = 0; t < ticks && c.status === "playing"; t++) {
      const deaths = c.deaths, score = c.score;
      c.tick({ left: !!k.left, right: !!k.right, jump: !!k.up && t === 0 });
      sim.t++;
      if (c.deaths !== deaths) { sim.dead = true; return; }
      if (c.score > score) sim.early += EARLY * (HORIZON - sim.t);
      advance(sim);
    }
  }

  function target(core, wp) {
    if (!wp) return null;
    if (wp.coin) {
      const o = core.coins[wp.coin - 1];
      return { x: o.x, y: o.kind === "block" ? o.y + 48 : o.y };
    }
    if (wp.door) return { x: core.door.x + 24, y: core.door.y + 72 };
    return wp;
  }

  function value(sim) {
    if (sim.dead) return DEATH;
    const c = sim.core;
    if (c.status === "terminal") return c.outcome === "success" ? 1e12 : DEATH;
    const tail = sim.clone();
    playStep(tail, "wait", TAIL);
    if (tail.dead) return DEATH / 2;
    const p = c.p;
    const t = target(c, ROUTE[sim.idx]);
    const d = t ? Math.hypot(p.x + 16 - t.x, p.y + 24 - t.y) : 0;
    return c.score * COIN_VALUE + sim.early + sim.idx * WP_VALUE - d;
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

  function survives(root, seq, firstTicks) {
    const s = root.clone();
    for (let i = 0; i < seq.length && !s.dead; i++) playStep(s, seq[i], i === 0 ? firstTicks : STEP_TICKS);
    return !s.dead;
  }

  // Route progress of the live episode, kept between steps; a new episode
  // (a new core) or a lost life starts the route again (coins already taken
  // pass at once).
  let track = { core: null, deaths: -1, idx: 0 };

  function decide(core) {
    if (track.core !== core || track.deaths !== core.deaths) track = { core: core, deaths: core.deaths, idx: 0 };
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
      if (ALT_TICKS.every((t) => survives(root, p.seq, t))) return p.name;
    }
    return order[0].name;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      return { control: decide(core), args: {} };
    },
  };
})();
