// Reference expert for Tetris.
//
// Every step it re-plans from the live core (window.__gwCore): each plan is
// "hold or not, 0-2 rotations, 0-5 shifts left or right, hard drop", played
// out on a clone of the core with the same input timing the harness uses (the
// key goes down at the step's start and is held 0.2 s), so SRS kicks, gravity
// and walls are exactly the game's own. The resulting board is scored with the
// El-Tetris features (landing height, lines, row/column transitions, holes,
// wells) minus a small cost per step; the first control of the best plan is
// played. Re-planning every step follows the same plan, one step shorter.
(function () {
  "use strict";

  const STEP_TICKS = 12; // 0.2 s at 60 ticks/s
  const STEP_COST = 0.8; // per control, so near placements win ties
  const DEAD = -1e9;
  const KEY = {
    move_left: "ArrowLeft",
    move_right: "ArrowRight",
    rotate_cw: "x",
    rotate_ccw: "z",
    hard_drop: " ",
    hold_piece: "Shift",
  };
  const ROTATIONS = [[], ["rotate_cw"], ["rotate_cw", "rotate_cw"], ["rotate_ccw"]];
  const NO_KEYS = new Set();

  function allPlans(canHold) {
    const plans = [];
    for (const hold of canHold ? [false, true] : [false]) {
      for (const rots of ROTATIONS) {
        for (let dx = -5; dx <= 5; dx++) {
          const plan = hold ? ["hold_piece"] : [];
          plan.push(...rots);
          for (let i = 0; i < Math.abs(dx); i++) plan.push(dx < 0 ? "move_left" : "move_right");
          plan.push("hard_drop");
          plans.push(plan);
        }
      }
    }
    return plans;
  }

  // One step as the harness plays it: key down, held for the step, key up.
  function playStep(core, control) {
    const key = KEY[control];
    const held = new Set([key]);
    core.tick({ pressed: held, held: held });
    for (let t = 1; t < STEP_TICKS; t++) core.tick({ pressed: NO_KEYS, held: held });
  }

  function simulate(core, plan) {
    const c = core.clone();
    const placed = c.piecesPlaced;
    for (const control of plan) {
      playStep(c, control);
      if (c.status !== "playing" || c.piecesPlaced > placed) break;
    }
    return c;
  }

  // El-Tetris (Thiam 2011) features of the board after the piece has locked.
  function evaluate(c, before) {
    if (c.status !== "playing" || c.piecesPlaced === before.piecesPlaced) return DEAD;
    const rows = c.boardRows();
    const nr = rows.length;
    const nc = rows[0].length;
    const filled = (x, y) => x < 0 || x >= nc || y >= nr || (y >= 0 && rows[y][x] !== ".");
    let rowTrans = 0;
    let colTrans = 0;
    let wells = 0;
    for (let y = 0; y < nr; y++) {
      let prev = true;
      for (let x = 0; x <= nc; x++) {
        const f = filled(x, y);
        if (f !== prev) rowTrans++;
        prev = f;
      }
    }
    for (let x = 0; x < nc; x++) {
      let prev = false;
      let depth = 0;
      for (let y = 0; y <= nr; y++) {
        const f = filled(x, y);
        if (f !== prev && y > 0) colTrans++;
        prev = f;
        if (!f && filled(x - 1, y) && filled(x + 1, y)) {
          depth++;
          wells += depth;
        } else {
          depth = 0;
        }
      }
    }
    return (
      -4.500158825 * c.lastLanding +
      3.418126810 * c.lastClear +
      -3.217888287 * rowTrans +
      -9.348695305 * colTrans +
      -7.899265427 * c.holes() +
      -3.385597225 * wells
    );
  }

  window.gameOracle = {
    act(state) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      let best = null;
      let bestValue = -Infinity;
      for (const plan of allPlans(core.canHold)) {
        const value = evaluate(simulate(core, plan), core) - STEP_COST * plan.length;
        if (value > bestValue) {
          bestValue = value;
          best = plan;
        }
      }
      return { control: best[0], args: {} };
    },
  };
})();
