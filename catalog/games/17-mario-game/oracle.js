// Reference expert for Mario Game.
//
// It acts only at step boundaries (one 0.25 s control per step), like a model.
// Each step it clones the live core (window.__gwCore) and plays every sequence
// of DEPTH controls ahead, then coasts for TAIL ticks with no key held, so a
// jump whose landing falls after the horizon is still checked for pits. A
// future is worth its score plus Mario's x (1 point per px of progress), minus
// a large penalty per life lost and a smaller one for being shrunk. The best
// first control is then checked under the other step timings the harness
// produces (14 or 16 ticks instead of 15); one that loses a life there is
// passed over.
(function () {
  "use strict";

  const DEPTH = 3;
  const STEP_TICKS = 15;          // 250 ms of 1/60 s ticks
  const ALT_TICKS = [14, 16];
  const TAIL = 30;
  const LIFE_PENALTY = 1e6;
  const SHRINK_PENALTY = 3000;

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

  function playStep(core, name, ticks) {
    const k = KEYS[name];
    for (let t = 0; t < ticks && core.status === "playing"; t++) {
      core.tick({ left: !!k.left, right: !!k.right, up: !!k.up, down: false, jump: !!k.up && t === 0 });
    }
  }

  // Left of the tall wall by the start, x is no measure of progress: the way on
  // is up onto the step at the left end, then over the wall. Below 200 (the
  // wall's right side) standing on the step or on the wall scores by x, any
  // other place (the ground, a jump still in the air) by its nearness to the
  // step; both stay below any place past the wall.
  const WALL_RIGHT = 200;
  const STEP = { x: 40, y: 460 };      // the step's top (its tiles are columns 0-1 of row 12)
  function progressX(core) {
    const m = core.m;
    if (m.x >= WALL_RIGHT) return m.x;
    const feet = m.y + core.marioH();
    if (m.onGround && feet <= STEP.y + 21) return 100 + m.x / 2;
    return 100 - Math.hypot(m.x + 16 - STEP.x, feet - 20 - STEP.y) / 10;
  }

  function value(core, base) {
    let v = core.score + progressX(core);
    v -= (core.deaths - base.deaths) * LIFE_PENALTY;
    v -= (core.shrinks - base.shrinks) * SHRINK_PENALTY;
    if (core.status === "playing") {
      const tail = core.clone();
      const deaths = tail.deaths;
      playStep(tail, "wait", TAIL);
      if (tail.deaths > deaths && tail.lastLoss === "pit") v -= LIFE_PENALTY;
    }
    return v;
  }

  // Best value reachable from `core` with `left` more steps; returns {v, seq}.
  function search(core, left, base) {
    if (left === 0 || core.status !== "playing") return { v: value(core, base), seq: [] };
    let best = null;
    for (const name of CHOICES) {
      const c = core.clone();
      playStep(c, name, STEP_TICKS);
      const r = search(c, left - 1, base);
      if (!best || r.v > best.v) best = { v: r.v, seq: [name].concat(r.seq) };
    }
    return best;
  }

  // Replays a plan with a different first-step length; true if no life is lost.
  function survives(core, seq, firstTicks, base) {
    const c = core.clone();
    seq.forEach((name, i) => playStep(c, name, i === 0 ? firstTicks : STEP_TICKS));
    return c.deaths === base.deaths && value(c, base) > -LIFE_PENALTY / 2;
  }

  function decide(core) {
    const base = { deaths: core.deaths, shrinks: core.shrinks };
    const plans = CHOICES.map((name) => {
      const c = core.clone();
      playStep(c, name, STEP_TICKS);
      const r = search(c, DEPTH - 1, base);
      return { name: name, v: r.v, seq: [name].concat(r.seq) };
    });
    const order = plans.slice().sort((a, b) => b.v - a.v);
    for (const p of order) {
      if (ALT_TICKS.every((t) => survives(core, p.seq, t, base))) return p.name;
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
