// Reference expert for Core Ball.
//
// Each step it clones the live core (window.__gwCore) and plays "shoot now"
// ahead until the ball lands. It shoots when the landing point will be at
// least MIN_CLEAR degrees from every attached ball and the balls still to
// come will fit afterwards (each gap between neighbours holds
// floor(gap / MIN_CLEAR) - 1 more balls at that spacing); otherwise it waits
// 0.2 s and the core turns on. The shot leaves on the step's first tick, so
// the prediction does not depend on how many ticks the step holds.
(function () {
  "use strict";

  const C = window.__gwCoreBall;  // helpers shared with game.js
  const MIN_CLEAR = 8;            // deg; a collision is < 6.5
  const SHOOT = { control: "shoot", args: {} };
  const WAIT = { control: "wait", args: {} };

  // Core-frame angle where a ball shot now lands, or null if it ends the game.
  function landingIfShot(core) {
    const c = core.clone();
    const n = c.attached.length;
    c.tick({ shoot: true });
    for (let t = 0; t < 30 && c.attached.length === n; t++) c.tick({ shoot: false });
    if (c.attached.length === n || c.outcome === "fail") return null;
    return c.attached[n].a;
  }

  // Balls that still fit between the attached ones at MIN_CLEAR spacing.
  function capacity(angles) {
    if (angles.length === 0) return Math.floor(360 / MIN_CLEAR);
    const s = angles.slice().sort((a, b) => a - b);
    let room = 0;
    for (let i = 0; i < s.length; i++) {
      const gap = i + 1 < s.length ? s[i + 1] - s[i] : s[0] + 360 - s[i];
      room += Math.max(0, Math.floor(gap / MIN_CLEAR) - 1);
    }
    return room;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing" || core.flightY !== null) return WAIT;
      const a = landingIfShot(core);
      if (a === null) return WAIT;
      const angles = core.attached.map((b) => b.a);
      let clear = 180;
      for (const b of angles) clear = Math.min(clear, C.angleGap(a, b));
      if (clear < MIN_CLEAR) return WAIT;
      const after = angles.concat([a]);
      return capacity(after) >= core.queue - 1 ? SHOOT : WAIT;
    },
  };
})();
