// Reference expert for Vex 3.
//
// Each step the oracle clones the live core (window.__gwCore), plays every
// sequence of three controls ahead (15 ticks each) and takes the one that gets
// furthest: flags touched first, then x (plus height in the chimney, see
// CLIMBS); a death is the worst outcome and the finish the best. A short
// `wait` tail after the horizon catches deaths that are already unavoidable
// (a fall into a pit, a saw about to arrive). Saws and the moving platform are
// pure functions of game time, so the clone sees exactly where they will be;
// waiting for a saw's window or for the platform is just the search preferring
// `wait`. The chosen first control is re-checked with 14- and 16-tick steps.
(function () {
  "use strict";

  const STEP_TICKS = 15;
  const ALT_TICKS = [14, 16];
  const TAIL = 24;
  // Authored climb: in the chimney x hardly changes, so height counts as
  // progress there (floor to ledge), and fully once past the ledge.
  const CLIMBS = [{ x0: 2496, x1: 2800, floor: 640, top: 320 }];

  function climbBonus(p) {
    let b = 0;
    for (const z of CLIMBS) {
      if (p.x > z.x1) b += z.floor - z.top;
      else if (p.x >= z.x0) b += Math.max(0, Math.min(z.floor - z.top, z.floor - (p.y + p.h)));
    }
    return b;
  }

  const KEYS = {
    wait: {},
    move_right: { right: true },
    jump_right: { right: true, up: true },
    jump: { up: true },
    move_left: { left: true },
    jump_left: { left: true, up: true },
    crouch_slide_right: { right: true, down: true },
    crouch_slide_left: { left: true, down: true },
  };
  const ALL = ["move_right", "jump_right", "crouch_slide_right", "jump", "wait", "jump_left", "move_left"];
  const LAST = ["move_right", "jump_right", "crouch_slide_right", "wait", "move_left"];
  const DEPTH_CHOICES = [ALL, ALL, LAST];

  function Sim(core) { this.core = core; this.dead = false; }
  Sim.prototype.clone = function () { const s = new Sim(this.core.clone()); s.dead = this.dead; return s; };

  function playStep(sim, name, ticks) {
    const k = KEYS[name];
    const c = sim.core;
    for (let t = 0; t < ticks && c.status === "playing"; t++) {
      const deaths = c.deaths;
      c.tick({ left: !!k.left, right: !!k.right, up: !!k.up, down: !!k.down, jump: !!k.up && t === 0 });
      if (c.deaths !== deaths) { sim.dead = true; return; }
    }
  }

  function value(sim) {
    if (sim.dead) return -1e9;
    const c = sim.core;
    if (c.status !== "playing") return 1e9;
    const v = c.passed * 10000 + c.p.x + climbBonus(c.p);
    const tail = sim.clone();
    playStep(tail, "wait", TAIL);
    return tail.dead ? v - 1e8 : v;
  }

  function search(sim, depth) {
    if (depth === DEPTH_CHOICES.length || sim.dead || sim.core.status !== "playing") return { v: value(sim), seq: [] };
    let best = null;
    for (const name of DEPTH_CHOICES[depth]) {
      const s = sim.clone();
      playStep(s, name, STEP_TICKS);
      const r = search(s, depth + 1);
      if (!best || r.v > best.v) best = { v: r.v, seq: [name].concat(r.seq) };
    }
    return best;
  }

  function survives(root, seq, firstTicks) {
    const s = root.clone();
    for (let i = 0; i < seq.length && !s.dead && s.core.status === "playing"; i++) playStep(s, seq[i], i === 0 ? firstTicks : STEP_TICKS);
    return !s.dead;
  }

  function decide(core) {
    if (core.dead > 0) return "wait";
    const root = new Sim(core.clone());
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
      return { control: decide(core), args: {} };
    },
  };
})();
