// Reference expert for NS-Shaft.
//
// It acts only at step boundaries (one control per 350 ms step), like a model.
// Each step it clones the live core (window.__gwCore) and plays every
// left/right/wait sequence of DEPTH steps. A future is judged by, in order:
// ticks survived, life left, then its position: well below the ceiling
// spikes, clear of the bottom edge, standing on a normal ledge. The control
// whose best future is best under the least favourable step timing wins;
// ties go to `wait`. In `ready` a wait counts as no survival, so it starts.
(function () {
  "use strict";

  const DEPTH = 4;              // 1.4 s ahead
  // A 350 ms step holds 21 ticks, or 22/20 depending on the 16 ms frame phase.
  const TIMINGS = [[21, 21], [22, 20], [20, 22]];
  const MOVES = [
    { control: "wait", args: {}, input: { left: false, right: false } },
    { control: "move_left", args: {}, input: { left: true, right: false } },
    { control: "move_right", args: {}, input: { left: false, right: true } },
  ];
  const { H: SCREEN_H, SPIKE_TIP, HERO_H } = window.__gwShaft;   // game.js's geometry

  // Position score of a living core: higher is safer.
  function placement(core) {
    const h = core.hero;
    const top = h.y - core.cameraY - SPIKE_TIP;        // room below the spikes
    const room = SCREEN_H - (h.y - core.cameraY + HERO_H);  // room above the bottom edge
    let v = Math.min(top, 360) - 3 * Math.max(0, 200 - room);
    const on = h.on >= 0 ? core.platform(h.on) : null;
    if (on && on.type === "normal") v += 40;
    if (on && (on.type === "fake" || on.type === "spiked")) v -= 40;
    return v;
  }

  // [ticks alive, life, placement]
  function better(a, b) {
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
    return false;
  }

  function run(core, input, ticks) {
    for (let t = 0; t < ticks; t++) {
      core.tick(input);
      if (core.status !== "playing") return t + 1;
    }
    return ticks;
  }

  function value(core, move, k, timing) {
    const c = core.clone();
    const ticks = timing[k % 2];
    const lived = run(c, move.input, ticks);
    if (lived < ticks) return [lived, 0, -1e9];
    if (k + 1 === DEPTH) return [lived, c.hero.life, placement(c)];
    let best = null;
    for (const m of MOVES) {
      const v = value(c, m, k + 1, timing);
      if (!best || better(v, best)) best = v;
    }
    return [lived + best[0], best[1], best[2]];
  }

  function worst(core, move) {
    let w = null;
    for (const timing of TIMINGS) {
      const v = value(core, move, 0, timing);
      // compare survival relative to the horizon length of this timing
      v[0] -= timing[0] * Math.ceil(DEPTH / 2) + timing[1] * Math.floor(DEPTH / 2);
      if (!w || better(w, v)) w = v;
    }
    return w;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || (state.status !== "playing" && state.status !== "ready")) return { control: "wait", args: {} };
      let best = null, bestV = null;
      for (const m of MOVES) {
        const v = worst(core, m);
        if (!bestV || better(v, bestV)) { best = m; bestV = v; }
      }
      return { control: best.control, args: {} };
    },
  };
})();
