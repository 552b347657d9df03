// Reference expert for Temple Run 2.
//
// It acts only at step boundaries, like a model: every control lasts 0.5 s.
// Each step it clones the live core (window.__gwCore) and plays every control
// sequence DEPTH steps ahead (a press is one edge on the step's first tick).
// A future is judged by, in order: how long the runner survives; how few
// times he trips; the score at its end. The first control with the best
// future under the least favourable step timing wins. `wait` is tried first,
// so it wins ties, except that a turn offered by the junction ahead is tried
// first as soon as its window opens: queuing it early costs nothing and
// leaves a slower (real-time) agent room to spare.
(function () {
  "use strict";

  const DEPTH = 4;
  const STEP_TICKS = 30;
  // Frames come every 16 ms and ticks last 1/60 s, so a step holds its nominal
  // tick count or one more or one fewer, depending on the frame phase.
  const SKEWS = [[0, 0, 0, 0], [1, -1, 1, -1], [-1, 1, -1, 1]];
  const MOVES = [
    { control: "wait", input: {} },
    { control: "jump", input: { jump: true } },
    { control: "slide", input: { slide: true } },
    { control: "turn_left", input: { left: true } },
    { control: "turn_right", input: { right: true } },
  ];
  const NONE = {};

  // Plays one step; returns the tick of death within it, or 0.
  function playStep(core, move, ticks) {
    for (let t = 0; t < ticks; t++) {
      core.tick(t === 0 ? move.input : NONE);
      if (core.status === "terminal") return t + 1;
    }
    return 0;
  }

  // A future: {alive, trips, score}.
  function better(a, b) {
    if (a.alive !== b.alive) return a.alive > b.alive;
    if (a.trips !== b.trips) return a.trips < b.trips;
    return a.score > b.score;
  }

  // Moves that cannot change anything from this state are skipped: they
  // would only duplicate `wait`.
  function useful(core, move) {
    const inp = move.input;
    if (inp.jump) return core.jumpTicks === 0;
    if (inp.slide) return core.jumpTicks === 0 && core.slideTicks === 0;
    if (inp.left) return core.lane > 0 || core.inTurnWindow();
    if (inp.right) return core.lane < 2 || core.inTurnWindow();
    return true;
  }

  function best(core, k, skew) {
    if (k === DEPTH) return { alive: DEPTH * 100, trips: core.stumbles, score: core.score() };
    let top = null;
    for (const move of MOVES) {
      if (!useful(core, move)) continue;
      const f = future(core, move, k, skew);
      if (!top || better(f, top)) top = f;
      if (top.alive === DEPTH * 100 && move === MOVES[0] && k > 1) {
        // deep in the tree a surviving wait is good enough: keeps the search small
        break;
      }
    }
    return top;
  }

  function future(core, move, k, skew) {
    const c = core.clone();
    const died = playStep(c, move, STEP_TICKS + skew[k]);
    if (died) return { alive: k * 100 + died, trips: c.stumbles, score: 0 };
    return best(c, k + 1, skew);
  }

  function turnFirst(move, turns) {
    const dir = move.input.left ? -1 : move.input.right ? 1 : 0;
    return dir !== 0 && turns.indexOf(dir) >= 0 ? 0 : 1;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!state || state.status === "ready") return { control: "start", args: {} };
      if (!core || core.status !== "playing") return { control: "wait", args: {} };
      let choice = null;
      let choiceWorst = null;
      const turns = core.turn === 0 && core.inTurnWindow() ? core.segment().turns : [];
      const order = MOVES.slice().sort((a, b) => turnFirst(a, turns) - turnFirst(b, turns));
      for (const move of order) {
        if (!useful(core, move)) continue;
        let worst = null;
        for (const skew of SKEWS) {
          const f = future(core, move, 0, skew);
          if (!worst || better(worst, f)) worst = f;
        }
        if (!choiceWorst || better(worst, choiceWorst)) {
          choice = move;
          choiceWorst = worst;
        }
      }
      return { control: choice.control, args: {} };
    },
  };
})();
