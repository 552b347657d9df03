// Reference expert for Restless Wing Syndrome.
//
// It acts only at step boundaries, like a model. Each step it clones the live
// core (window.__gwCore) and plays every pair of controls (first, second),
// then continues either with the second control or with no input until a
// horizon of about 1.8 s, which always spans the next automatic flap. A plan
// is scored by the bird's path distance to the goal along the air-tile graph
// at the end, plus a penalty per spike touch; reaching the goal beats all,
// earlier is better. Ties go to the earlier control in CONTROLS.
(function () {
  "use strict";

  const TICKS = { 250: 15, 500: 30 };
  const CONTROLS = [
    { id: "move_right", ms: 250, keys: { right: true } },
    { id: "move_left", ms: 250, keys: { left: true } },
    { id: "glide_right", ms: 250, keys: { right: true, up: true } },
    { id: "glide_left", ms: 250, keys: { left: true, up: true } },
    { id: "glide", ms: 250, keys: { up: true } },
    { id: "wait", ms: 500, keys: {} },
  ];
  const NONE = { id: "wait", ms: 250, keys: {} };
  const HORIZON = 108;              // ticks
  const SPIKE_PENALTY = 60;         // px of path per spike touch

  // Runs `ticks` ticks with `keys` held; returns the tick of goal or level
  // change (1-based within the plan), else 0.
  function run(core, keys, ticks, clock) {
    const level = core.level;
    for (let t = 0; t < ticks; t++) {
      core.tick(keys);
      clock.t++;
      if (core.level !== level || core.status === "terminal") return clock.t;
    }
    return 0;
  }

  function score(core, first, second, rest) {
    const c = core.clone();
    const clock = { t: 0 };
    const hits0 = c.spikeHits + c.deaths;
    const seq = [first, second];
    for (const ctl of seq) {
      const done = run(c, ctl.keys, TICKS[ctl.ms], clock);
      if (done) return -1e6 + done;
    }
    while (clock.t < HORIZON) {
      const done = run(c, rest.keys, Math.min(15, HORIZON - clock.t), clock);
      if (done) return -1e6 + done;
    }
    return c.pathDistance() + SPIKE_PENALTY * (c.spikeHits + c.deaths - hits0);
  }

  function best(core) {
    let bestId = "wait";
    let bestScore = Infinity;
    for (const first of CONTROLS) {
      let s = Infinity;
      for (const second of CONTROLS) {
        s = Math.min(s, score(core, first, second, second), score(core, first, second, NONE));
      }
      if (s < bestScore) {
        bestScore = s;
        bestId = first.id;
      }
    }
    return bestId;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || core.status !== "playing") return { control: "wait", args: {} };
      return { control: best(core), args: {} };
    },
  };
})();
