// Reference expert for Hextris.
//
// Every step it plans from a clone of the live core (window.__gwCore): a plan
// turns the hexagon to one of the six orientations (shortest way), waits until
// the next block lands, then turns to one of the six orientations again and
// waits for the landing after that. Each of the 36 plans is played out on a
// clone with the harness's input timing (0.25 s per control) and judged by the
// points it earns, plus a small bonus for same-coloured neighbours (future
// clears) and a penalty for tall stacks. The first control of the best plan is
// played; ties go to the plan that turns least.
(function () {
  "use strict";

  const STEP_TICKS = 15; // 0.25 s at 60 ticks/s
  const MAX_WAIT_STEPS = 10; // a landing is always within 2.5 s
  const OFFSETS = [0, 1, -1, 2, -2, 3];
  const PAIR_BONUS = 12;
  const HEIGHT_PENALTY = 6;
  const DEAD = -1e6;
  const KEY = { rotate_left: "ArrowLeft", rotate_right: "ArrowRight", accelerate: "ArrowDown", wait: null };
  const NO_KEYS = new Set();

  function playStep(core, control) {
    const key = KEY[control];
    const held = key ? new Set([key]) : NO_KEYS;
    core.tick({ pressed: held, held: held });
    for (let t = 1; t < STEP_TICKS; t++) core.tick({ pressed: NO_KEYS, held: held });
  }

  function turns(offset) {
    const control = offset < 0 ? "rotate_left" : "rotate_right";
    return new Array(Math.abs(offset)).fill(control);
  }

  // Play `controls`, then wait until one more block than `landedBefore` has
  // landed. Returns the controls actually used.
  function playUntilLanding(c, controls, landedBefore) {
    const used = [];
    for (const control of controls) {
      if (c.status !== "playing") return used;
      playStep(c, control);
      used.push(control);
    }
    for (let k = 0; k < MAX_WAIT_STEPS && c.status === "playing" && c.landed <= landedBefore; k++) {
      playStep(c, "wait");
      used.push("wait");
    }
    return used;
  }

  // Same-coloured neighbour pairs (each counted once) and squared heights.
  function boardValue(c) {
    if (c.status !== "playing") return DEAD;
    const sides = c.sides;
    let pairs = 0;
    let heights = 0;
    for (let s = 0; s < 6; s++) {
      const col = sides[s];
      const right = sides[(s + 1) % 6];
      heights += col.length * col.length;
      for (let r = 0; r < col.length; r++) {
        if (r + 1 < col.length && col[r + 1] === col[r]) pairs++;
        if (r < right.length && right[r] === col[r]) pairs++;
      }
    }
    return PAIR_BONUS * pairs - HEIGHT_PENALTY * heights;
  }

  window.gameOracle = {
    act(state) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      let best = null;
      let bestValue = -Infinity;
      for (const first of OFFSETS) {
        const c1 = core.clone();
        const plan1 = playUntilLanding(c1, turns(first), core.landed);
        const gained1 = c1.score - core.score;
        for (const second of OFFSETS) {
          const c2 = c1.clone();
          playUntilLanding(c2, turns(second), c1.landed);
          // Points now are worth a little more than the same points later.
          const value = 1.1 * gained1 + (c2.score - c1.score) + boardValue(c2)
            - 0.5 * (Math.abs(first) + Math.abs(second));
          if (value > bestValue) {
            bestValue = value;
            best = plan1.length ? plan1[0] : "wait";
          }
        }
      }
      return { control: best, args: {} };
    },
  };
})();
