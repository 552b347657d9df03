// Reference expert for Cubefield.
//
// It acts only at step boundaries (one 0.2 s control per step), like a model.
// Each step it clones the live core (window.__gwCore) and plays every
// wait/left/right future DEPTH steps ahead. A future is judged by, in order:
// how long the ship survives; its smallest lateral clearance to the cubes it
// passes (capped at SAFE u: more margin is worth nothing); how far it strays
// from the generator's guaranteed corridor. The control whose best future is
// best under the least favourable step timing wins; ties go to `wait`.
(function () {
  "use strict";

  const DEPTH = 4;              // 0.8 s ahead
  const SAFE = 0.5;
  const ALIVE_ALL = DEPTH * 100;

  // Frames come every 16 ms and ticks last 1/60 s, so a 200 ms step holds 12
  // ticks, or alternately 13 and 11, depending on the frame phase.
  const TIMINGS = [[12, 12], [13, 11], [11, 13]];
  const MOVES = [
    { control: "wait", args: {}, input: { left: false, right: false } },
    { control: "move_left", args: {}, input: { left: true, right: false } },
    { control: "move_right", args: {}, input: { left: false, right: true } },
  ];

  function playStep(core, move, ticks) {
    let clear = SAFE;
    for (let t = 0; t < ticks; t++) {
      core.tick(move.input);
      if (core.status === "terminal") return { diedAt: t + 1, clear: -1 };
      clear = Math.min(clear, core.clearance(0));
    }
    return { diedAt: 0, clear: clear };
  }

  function better(a, b) {
    if (a.alive !== b.alive) return a.alive > b.alive;
    if (Math.abs(a.clear - b.clear) > 1e-9) return a.clear > b.clear;
    return a.cost < b.cost - 1e-9;
  }

  function planWith(core, move, k, timing) {
    const c = core.clone();
    const step = playStep(c, move, timing[k % 2]);
    if (step.diedAt) return { alive: k * 100 + step.diedAt, clear: -1, cost: 0 };
    const rest = bestPlan(c, k + 1, timing);
    return {
      alive: rest.alive,
      clear: Math.min(step.clear, rest.clear),
      cost: Math.abs(c.x - c.corridorX(c.z)) + rest.cost,
    };
  }

  function bestPlan(core, k, timing) {
    if (k === DEPTH) return { alive: ALIVE_ALL, clear: SAFE, cost: 0 };
    let best = null;
    for (const move of MOVES) {
      const plan = planWith(core, move, k, timing);
      if (!best || better(plan, best)) best = plan;
    }
    return best;
  }

  function worstOverTimings(core, move) {
    let worst = null;
    for (const timing of TIMINGS) {
      const plan = planWith(core, move, 0, timing);
      if (!worst || better(worst, plan)) worst = plan;
    }
    return worst;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state) return MOVES[1];
      if (state.status === "ready") {
        // An arrow press starts the flight; pick the side nearer the corridor.
        return core.corridorX(6) < 0 ? MOVES[1] : MOVES[2];
      }
      if (state.status !== "playing") return MOVES[0];
      let best = null;
      let bestPlanFound = null;
      for (const move of MOVES) {
        const plan = worstOverTimings(core, move);
        if (!bestPlanFound || better(plan, bestPlanFound)) {
          best = move;
          bestPlanFound = plan;
        }
      }
      return { control: best.control, args: {} };
    },
  };
})();
