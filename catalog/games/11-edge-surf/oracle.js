// Reference expert for Edge Surf.
//
// It acts only at step boundaries (one control per 250 ms step), like a model.
// Each step it clones the live core (window.__gwCore) and plays every
// sequence of DEPTH steps of wait / turn_left / turn_right / slow_down (and
// boost as the first step when one is stored and boostIsSafe), then TAIL
// ticks straight on.
// A sequence is judged by, in order: hits taken; then downstream distance,
// clearance to the nearest obstacle (capped) and closeness to the seeded clear
// channel, which guarantees an open way on. Ties go to the earlier control
// (wait first).
(function () {
  "use strict";

  const G = window.__gwEdgeSurf;   // the game's own input rules (game.js)
  const DEPTH = 4;              // 1 s ahead
  const STEP_TICKS = 250 * G.TICK_HZ / 1000;   // 15 ticks: one 250 ms control
  const TAIL = 30;
  const SAFE = 30;              // clearance beyond this is worth nothing more
  const CONTROLS = ["wait", "turn_left", "turn_right", "slow_down"];

  // Each control's key (game.yaml), pressed on a step's first tick and held
  // through it, as the game's tickInput reads it: [first tick, later ticks].
  const KEYS = { wait: null, turn_left: "ArrowLeft", turn_right: "ArrowRight", slow_down: "ArrowUp", boost: "ArrowDown" };
  const INPUTS = {};
  for (const [control, key] of Object.entries(KEYS)) {
    const held = new Set(key ? [key] : []);
    INPUTS[control] = [G.tickInput(held, held), G.tickInput(new Set(), held)];
  }
  function stepInput(control, t) {
    return INPUTS[control][t === 0 ? 0 : 1];
  }

  // Returns {hits, clear} over the ticks played.
  function play(core, control, ticks, acc) {
    for (let t = 0; t < ticks; t++) {
      core.tick(stepInput(control, t));
      if (t % 3 === 2) acc.clear = Math.min(acc.clear, core.clearance());
    }
  }

  function value(core, start, clear) {
    const hits = core.hits - start.hits;
    const dead = core.status === "terminal" ? 1 : 0;
    const channel = Math.abs(core.x - core.world.channelX(core.y + 300));
    return -1e7 * dead - 1e6 * hits + core.y - start.y
      + 4 * Math.min(SAFE, clear) - 0.15 * channel
      + 250 * (core.boosts - start.boosts) + 400 * (core.lives - start.lives);
  }

  function search(core, k, start, clear) {
    if (k === DEPTH || core.status === "terminal") {
      const c = core.clone();
      const acc = { clear: clear };
      play(c, "wait", TAIL, acc);
      return value(c, start, acc.clear);
    }
    let best = -Infinity;
    for (const control of CONTROLS) {
      if (control === "slow_down" && k > 1) continue;   // braking late in the plan is rarely useful
      const c = core.clone();
      const acc = { clear: clear };
      play(c, control, STEP_TICKS, acc);
      best = Math.max(best, search(c, k + 1, start, acc.clear));
    }
    return best;
  }

  // A boost cannot be cancelled and outlasts the search horizon, so it is
  // taken only if a greedy surfer (each step: the control whose next step
  // plus TAIL ticks stays clear of hits) gets through the whole boost and
  // GRACE steps more without a hit.
  const BOOST_STEPS = 10, GRACE = 2;
  function boostIsSafe(core) {
    let c = core.clone();
    const hits = c.hits;
    play(c, "boost", STEP_TICKS, { clear: Infinity });
    for (let k = 0; k < BOOST_STEPS + GRACE && c.status === "playing"; k++) {
      let next = null, best = -Infinity;
      for (const control of CONTROLS) {
        const n = c.clone();
        const acc = { clear: Infinity };
        play(n, control, STEP_TICKS, acc);
        const t = n.clone();
        play(t, "wait", TAIL, acc);
        const v = -1e6 * (t.hits - hits) + 4 * Math.min(SAFE, acc.clear) + (t.y - c.y) * 0.01;
        if (v > best) { best = v; next = n; }
      }
      c = next;
    }
    return c.hits === hits;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (state && state.status === "ready") return { control: "boost", args: {} };   // any arrow starts
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      const start = { hits: core.hits, y: core.y, boosts: core.boosts, lives: core.lives };
      const options = CONTROLS.slice();
      if (core.boosts > 0 && core.boostTicks === 0 && boostIsSafe(core)) options.push("boost");
      let bestControl = "wait", best = -Infinity;
      for (const control of options) {
        const c = core.clone();
        const acc = { clear: Infinity };
        play(c, control, STEP_TICKS, acc);
        const v = search(c, 1, start, acc.clear) + (control === "boost" ? 1 : 0);
        if (v > best) { best = v; bestControl = control; }
      }
      return { control: bestControl, args: {} };
    },
  };
})();
