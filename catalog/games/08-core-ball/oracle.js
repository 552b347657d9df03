// Reference expert for Core Ball.
//
// The core turns the same way whether or not a ball is fired, so where a ball
// fired at the start of step t would land is a function of t alone. Each step
// the oracle clones the live core (window.__gwCore), runs it ahead to list
// those landing angles for the coming steps, and fires when the landing now
// keeps at least minClear degrees from every attached ball and shooting now
// gets the whole queue in no later than waiting would (both completed
// greedily: each later step fires when its landing keeps clear). A ball
// leaves on its step's first tick, so the look-ahead does not depend on how
// many ticks a step holds.
(function () {
  "use strict";

  const C = window.__gwCoreBall;    // helpers shared with game.js
  const STEP_TICKS = 12;            // one 0.2 s step at 60 ticks/s
  const HORIZON = 100;              // steps looked ahead
  const SHOOT = { control: "shoot", args: {} };
  const WAIT = { control: "wait", args: {} };

  // Margin over the touching angle: a step may hold a tick more or less
  // than planned, which turns the core by up to spin/60 degrees.
  function minClear(core) {
    return C.HIT_DEG + Math.max(1.5, core.cfg.spin / 60 + 0.5);
  }

  // landing[t]: the core-frame angle where a ball fired at the start of step t lands.
  function landings(core) {
    const c = core.clone();
    c.queue = Infinity;                 // look-ahead only: keep the level from ending
    const out = [];
    for (let t = 0; t < HORIZON; t++) {
      const probe = c.clone();
      probe.attached = [];              // nothing to hit: only where it lands matters
      probe.tick({ shoot: true });
      for (let k = 0; k < 30 && probe.flightY !== null; k++) probe.tick({ shoot: false });
      out.push(probe.attached.length ? probe.attached[0].a : null);
      for (let k = 0; k < STEP_TICKS; k++) c.tick({ shoot: false });
    }
    return out;
  }

  function fits(a, taken, clear) {
    if (a === null) return false;
    for (const b of taken) if (C.angleGap(a, b) < clear) return false;
    return true;
  }

  // The step at which greedy shooting from step `from` on (every step whose
  // landing keeps clear) fires its `need`-th ball; Infinity if not in sight.
  function greedyFinish(land, taken, need, clear, from) {
    const placed = taken.slice();
    let last = from - 1;
    for (let t = from; t < land.length && need > 0; t++) {
      if (!fits(land[t], placed, clear)) continue;
      placed.push(land[t]);
      need--;
      last = t;
    }
    return need > 0 ? Infinity : last;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing" || core.flightY !== null || core.queue <= 0) return WAIT;
      const clear = minClear(core);
      const land = landings(core);
      const taken = core.attached.map((b) => b.a);
      if (!fits(land[0], taken, clear)) return WAIT;
      // Shoot now unless waiting lets the whole queue go in sooner.
      const ifShot = greedyFinish(land, taken.concat([land[0]]), core.queue - 1, clear, 1);
      const ifWait = greedyFinish(land, taken, core.queue, clear, 1);
      return ifShot <= ifWait || ifWait === Infinity ? SHOOT : WAIT;
    },
  };
})();
