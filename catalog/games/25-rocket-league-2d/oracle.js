// Reference expert for Rocket League 2D.
//
// Each step it clones the live core (window.__gwCore) and tries every pair of
// controls for the next two steps, each pair followed by a short rollout of a
// simple striker policy (get behind the ball, drive into it, boost on long
// runs, jump for a bouncing ball). A future that scores soonest wins; one that
// concedes loses; otherwise the ball's position and speed toward the CPU's
// goal and the car's place behind the ball decide. It plays the first control
// of the best future, so it re-plans every step like a model would.
(function () {
  "use strict";

  const CONTROLS = [
    { control: "move_right", key: "d", ticks: 12 },
    { control: "move_left", key: "a", ticks: 12 },
    { control: "jump", key: "w", ticks: 12 },
    { control: "boost", key: " ", ticks: 12 },
    { control: "wait", key: null, ticks: 30 },
  ];
  const BY_ID = {};
  for (const c of CONTROLS) BY_ID[c.control] = c;
  const DEPTH = 2;
  const ROLLOUT_STEPS = 8;

  function play(core, c) {
    const held = c.key ? new Set([c.key]) : new Set();
    const goals = core.goalsFor;
    const against = core.goalsAgainst;
    for (let t = 0; t < c.ticks; t++) {
      core.tick({ held, pressed: t === 0 ? held : new Set() });
      if (core.goalsFor > goals) return 1;
      if (core.goalsAgainst > against) return -1;
    }
    return 0;
  }

  // The striker policy used inside rollouts (docs/games.md's oracle outline).
  function striker(core) {
    const p = core.player;
    const b = core.ball;
    if (core.phase === "kickoff") return BY_ID.wait;
    if (p.x > b.x - 60) return BY_ID.move_left;
    const dx = b.x - p.x;
    const up = p.y - b.y;
    if (Math.abs(dx) < 90 && up > 60 && up < 160 && p.onGround) return BY_ID.jump;
    if (p.facing > 0 && dx > 150 && p.boost > 10) return BY_ID.boost;
    return BY_ID.move_right;
  }

  // Higher is better: the ball near and heading into the CPU's goal, the car
  // behind the ball, the CPU far from it.
  function value(core) {
    const b = core.ball;
    const p = core.player;
    const c = core.cpu;
    let v = b.x + 0.4 * b.vx;
    v -= 0.5 * Math.abs(p.x - (b.x - 90));
    if (b.x > c.x) v += 150;                  // ball already past the CPU
    if (b.x > 900 && b.y > 420) v += 100;     // low in front of the goal mouth
    return v;
  }

  // Outcome of a future: [class, tiebreak], compared lexicographically.
  function judge(core, plan) {
    const c = core.clone();
    let steps = 0;
    for (const ctl of plan) {
      const r = play(c, ctl);
      steps++;
      if (r) return r > 0 ? 1e6 - steps * 1000 : -1e6 + steps * 1000;
    }
    for (let k = 0; k < ROLLOUT_STEPS; k++) {
      const r = play(c, striker(c));
      steps++;
      if (r) return r > 0 ? 1e6 - steps * 1000 : -1e6 + steps * 1000;
    }
    return value(c);
  }

  function search(core, plan) {
    if (plan.length === DEPTH) return judge(core, plan);
    let best = -Infinity;
    for (const c of CONTROLS) best = Math.max(best, search(core, plan.concat([c])));
    return best;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      let pick = CONTROLS[0];
      let pickValue = -Infinity;
      for (const c of CONTROLS) {
        const v = search(core, [c]);
        if (v > pickValue) {
          pick = c;
          pickValue = v;
        }
      }
      return { control: pick.control, args: {} };
    },
  };
})();
