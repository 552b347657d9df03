// Reference expert for Stack.
//
// It acts only at step boundaries (one control per 200 ms step), like a
// model. A drop lands at exactly the offset the state shows (the game applies
// it on the first tick after the key goes down), so each step it compares
// "drop now" with where the slab will be at the next step's start, cloning
// the live core (window.__gwCore) and running the ticks of one step. The
// harness's frames make a 200 ms step 11, 12 or 13 ticks long, so waiting is
// judged by its least favourable timing. It drops when the offset is within
// the perfect window, or when waiting cannot bring the slab closer.
(function () {
  "use strict";

  const DROP = { control: "drop_block", args: {} };
  const WAIT = { control: "wait", args: {} };
  const STEP_TICKS = [11, 12, 13];

  function offsetAfter(core, ticks) {
    const c = core.clone();
    for (let t = 0; t < ticks; t++) c.tick({ drop: false });
    return c.offset;
  }

  function choose(core, perfect) {
    const o = core.offset;
    if (Math.abs(o) <= perfect) return DROP;
    const next = Math.max(...STEP_TICKS.map((n) => Math.abs(offsetAfter(core, n))));
    const land = core.landing(); // the game's own overlap rule
    if (land.hi <= land.lo) return WAIT; // no overlap now: dropping would miss
    return next < Math.abs(o) ? WAIT : DROP;
  }

  const api = {
    choose,
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return WAIT;
      return choose(core, state.raw.perfect_within);
    },
  };

  if (typeof window !== "undefined") window.gameOracle = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})();
