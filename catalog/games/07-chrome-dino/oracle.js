// Reference expert for Chrome Dino.
//
// It acts only at step boundaries (one control per 250 ms step), like a model.
// Each step it clones the live core (window.__gwCore) and plays every
// jump/wait future of DEPTH steps ahead (a jump in the air changes nothing, so
// those branches are skipped). A future is judged by how long the dino
// survives; the control whose best future survives longest under the least
// favourable step timing wins, and ties go to `wait`: it jumps only when
// waiting would leave the next obstacle unclearable, and never into a high bird
// (that jump dies in the simulation).
(function () {
  "use strict";

  const DEPTH = 8;              // 2 s ahead: two full jumps
  // The harness's frames come every 16 ms while ticks last 1/60 s, so a 250 ms
  // step holds 15 ticks, sometimes 16 or 14, depending on the frame phase.
  const TIMINGS = [[15, 15], [16, 14], [14, 16]];

  const START = { control: "start", args: {} };
  const JUMP = { control: "jump", args: {} };
  const WAIT = { control: "wait", args: {} };

  // Ticks survived over one step (the key edge reaches the first tick).
  function playStep(core, jump, ticks) {
    for (let t = 0; t < ticks; t++) {
      core.tick({ jump: jump && t === 0 });
      if (core.status === "terminal") return t + 1;
    }
    return ticks;
  }

  // Ticks survived when doing `jump` at step k, then the best continuation.
  function survive(core, jump, k, timing) {
    const c = core.clone();
    const ticks = timing[k % 2];
    const lived = playStep(c, jump, ticks);
    if (lived < ticks || k + 1 === DEPTH) return lived;
    let best = survive(c, false, k + 1, timing);
    if (c.onGround && best < remaining(k + 1, timing)) best = Math.max(best, survive(c, true, k + 1, timing));
    return lived + best;
  }

  function remaining(k, timing) {
    let n = 0;
    for (let i = k; i < DEPTH; i++) n += timing[i % 2];
    return n;
  }

  // Surplus of ticks survived over the full horizon under the worst timing (0 = safe).
  function worst(core, jump) {
    let w = Infinity;
    for (const timing of TIMINGS) w = Math.min(w, survive(core, jump, 0, timing) - remaining(0, timing));
    return w;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!state || state.status === "ready") return START;   // the first press starts the run
      if (!core || state.status !== "playing" || !core.onGround) return WAIT;
      const wait = worst(core, false);
      if (wait >= 0) return WAIT;
      return worst(core, true) > wait ? JUMP : WAIT;
    },
  };
})();
