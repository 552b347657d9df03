// Reference expert for OvO.
//
// Each level has an authored route: waypoints for the runner's centre (the
// coin first, then the way to the exit). Each step the oracle clones the live
// core (window.__gwCore), plays every sequence of DEPTH controls ahead and
// takes the one that gets furthest along the route: waypoints passed first,
// then the distance to the next one; losing a life is the worst outcome and
// finishing a level the best. The chosen first control is re-checked with the
// other step lengths the harness produces (14 or 16 ticks instead of 15).
(function () {
  "use strict";

  const STEP_TICKS = 15;
  const ALT_TICKS = [14, 16];
  const TAIL = 24;                  // coast after the horizon: catch late pit deaths
  const WP_VALUE = 10000;

  // Waypoints: {coin: true} is passed when this level's coin is taken; {x, y, r}
  // when the runner's centre comes within r px.
  const ROUTES = {
    1: [{ coin: true }, { x: 1920, y: 480, r: 60 }],
    2: [{ x: 680, y: 620, r: 60 }, { x: 900, y: 620, r: 60 }, { coin: true }, { x: 1400, y: 420, r: 50 }],
    3: [{ x: 1380, y: 380, r: 50 }, { coin: true }],
  };

  // The keys each control holds for its step (game.yaml's bindings).
  const KEYS = {
    wait: [],
    move_right: ["ArrowRight"],
    jump_right: ["ArrowRight", "ArrowUp"],
    jump: ["ArrowUp"],
    move_left: ["ArrowLeft"],
    jump_left: ["ArrowLeft", "ArrowUp"],
    slide_right: ["ArrowRight", "ArrowDown"],
    slide_left: ["ArrowLeft", "ArrowDown"],
    smash_ground: ["ArrowDown"],
  };
  // The core's input on a step's first tick (the keys just went down) and on
  // its later ones (held), mapped by game.js itself.
  const OVO = window.__gwOvo;
  const NONE = new Set();
  const INPUTS = {};
  for (const [name, keys] of Object.entries(KEYS)) {
    const held = new Set(keys);
    INPUTS[name] = { first: OVO.inputOf(held, held), later: OVO.inputOf(NONE, held) };
  }
  const HALF_W = OVO.RW / 2;        // the runner's centre is x + HALF_W, y + h / 2
  const ALL = ["move_right", "jump_right", "slide_right", "jump", "wait", "jump_left", "move_left", "slide_left", "smash_ground"];
  const LAST = ["move_right", "jump_right", "jump", "jump_left", "move_left"];
  const DEPTH_CHOICES = [ALL, ALL, LAST];

  // A simulated future: the core plus how far along the route it got.
  function Sim(core, idx) { this.core = core; this.idx = idx; this.level = core.level; this.deaths = core.deaths; }
  Sim.prototype.clone = function () {
    const s = new Sim(this.core.clone(), this.idx);
    s.level = this.level; s.deaths = this.deaths;
    return s;
  };

  function advance(sim) {
    const c = sim.core;
    const route = ROUTES[c.level] || [];
    for (;;) {
      const wp = route[sim.idx];
      if (!wp) return;
      if (wp.coin ? c.coinTaken : Math.hypot(c.p.x + HALF_W - wp.x, c.p.y + c.p.h / 2 - wp.y) < wp.r) sim.idx++;
      else return;
    }
  }

  function playStep(sim, name, ticks) {
    const inp = INPUTS[name];
    const c = sim.core;
    for (let t = 0; t < ticks && c.status === "playing"; t++) {
      const lvl = c.level, deaths = c.deaths;
      c.tick(t === 0 ? inp.first : inp.later);
      if (c.deaths !== deaths) { sim.dead = true; return; }
      if (c.level !== lvl) { sim.finished = true; return; }
      advance(sim);
    }
  }

  function value(sim) {
    if (sim.dead) return -1e9;
    if (sim.finished || sim.core.status !== "playing") return 1e9;
    const c = sim.core;
    const route = ROUTES[c.level] || [];
    const wp = route[sim.idx];
    const cx = c.p.x + HALF_W, cy = c.p.y + c.p.h / 2;
    const e = c.exit, o = c.coin;
    let d;
    if (!wp) d = Math.hypot(e.x + e.w / 2 - cx, e.y + e.h / 2 - cy);
    else if (wp.coin) d = Math.hypot(o.x + o.w / 2 - cx, o.y + o.h / 2 - cy);
    else d = Math.hypot(wp.x - cx, wp.y - cy);
    const tail = sim.clone();
    playStep(tail, "wait", TAIL);
    if (tail.dead && tail.core.p.y > 0 && sim.core.p.vy > 0 && !sim.core.p.onGround) return -1e8;
    return sim.idx * WP_VALUE - d;
  }

  function search(sim, depth) {
    if (depth === DEPTH_CHOICES.length || sim.dead || sim.finished) return { v: value(sim), seq: [] };
    let best = null;
    for (const name of DEPTH_CHOICES[depth]) {
      const s = sim.clone();
      playStep(s, name, STEP_TICKS);
      const r = search(s, depth + 1);
      if (!best || r.v > best.v) best = { v: r.v, seq: [name].concat(r.seq) };
    }
    return best;
  }

  function survives(sim, seq, firstTicks) {
    const s = sim.clone();
    for (let i = 0; i < seq.length && !s.dead && !s.finished; i++) playStep(s, seq[i], i === 0 ? firstTicks : STEP_TICKS);
    return !s.dead;
  }

  // Route progress of the live episode, kept between steps.
  let track = { key: null, idx: 0 };

  function decide(core, attempts) {
    const key = attempts + "/" + core.level + "/" + core.deaths;
    if (track.key !== key) track = { key: key, idx: 0 };
    const root = new Sim(core.clone(), track.idx);
    advance(root);
    track.idx = root.idx;
    const plans = ALL.map((name) => {
      const s = root.clone();
      playStep(s, name, STEP_TICKS);
      const r = search(s, 1);
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
      return { control: decide(core, state.metrics ? state.metrics.attempts : 0), args: {} };
    },
  };
})();
