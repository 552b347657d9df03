// Reference expert for Breakout.
//
// It acts only at step boundaries (0.2 s moves, 0.5 s waits), like a model.
// The ball's path does not depend on the paddle until the next "decision
// tick": the tick the ball crosses the paddle line (a serve, too, comes
// down from under the bricks on its own). Each step the oracle
//   1. runs a clone of the live core (window.__gwCore) with the paddle made
//      transparent to find that tick;
//   2. lists every paddle x reachable at that tick by sequences of wait/move
//      steps (a move still running at that tick gives in-between positions),
//      with the fewest steps and the first action for each;
//   3. plays each candidate x on a clone until the ball comes down again,
//      counting bricks broken, and looks one catch further the same way;
// and plays the first action of the candidate with the most bricks per step
// (counting the moves the following catch will need). Ties go to waiting,
// which buys the most game time per step.
//
// Timing is exact: the harness's frames come at every multiple of 16 ms of
// page time and each frame runs the ticks its accumulator allows, so
// replaying game.js's accumulator (window.__gwLoop) tells how many ticks
// each future step will hold (11, 12 or 13 for a 0.2 s move).
(function () {
  "use strict";

  const G = window.__gwBreakout;  // constants shared with game.js
  const TICK_MS = 1000 / G.TICK_HZ;
  const FRAME_MS = 16;            // the harness's frame grid
  const MOVE_MS = 200;
  const WAIT_MS = 500;
  const WAIT_TICKS = WAIT_MS / TICK_MS;
  const MOVE_TICKS = MOVE_MS / TICK_MS;
  const PX_PER_TICK = G.PADDLE_SPEED / G.TICK_HZ;
  const LOOK_TICKS = 600;         // longest flight looked at
  const PROXIMITY = 0.3;          // worth of a flight that grazes a live brick
  const LEAF_PX = 6;              // paddle positions closer than this count as one

  const ACTIONS = {
    W: { control: "wait", args: {} },
    L: { control: "move_left", args: {} },
    R: { control: "move_right", args: {} },
  };
  const NO_INPUT = { left: false, right: false, start: false };

  // ticksAt(ms): ticks the game will have run `ms` from now, replaying the
  // accumulator of game.js's frame() on the harness's 16 ms frame grid.
  function makeClock(loop) {
    if (!loop || loop.lastFrame === null) return (ms) => Math.floor(ms / TICK_MS);
    const cum = [0];
    let acc = loop.acc;
    let last = loop.lastFrame;
    const first = loop.lastFrame;
    let ticks = 0;
    return (ms) => {
      const idx = Math.max(0, Math.floor((loop.now + ms - first) / FRAME_MS));
      while (cum.length <= idx) {
        const f = last + FRAME_MS;
        acc += Math.min(Math.max(f - last, 0), 250);
        last = f;
        let n = 0;
        while (acc >= TICK_MS && n < 15) {
          acc -= TICK_MS;
          ticks++;
          n++;
        }
        if (n === 15) acc = Math.min(acc, TICK_MS);
        cum.push(ticks);
      }
      return cum[idx];
    };
  }

  // The clone just before the decision tick, and how many ticks away that tick is.
  function findDecision(live) {
    const c = live.clone();
    c.paddleSolid = false;
    for (let t = 1; t <= LOOK_TICKS; t++) {
      const before = c.clone();
      if (!c.ball.inPlay) {
        c.tick(NO_INPUT);
        continue;
      }
      c.tick(NO_INPUT);
      if (c.status === "terminal") return null;
      if (c.ball.vy > 0 && c.ball.y + G.HALF >= G.PADDLE_Y) return { base: before, ticks: t };
    }
    return null;
  }

  // Every paddle x reachable at tick T (counted from now) by steps starting
  // `ms0` from now at x0, with the fewest steps. Leaves: {x, steps, first,
  // endMs, endTick, endX}.
  function reachable(x0, ms0, T, env) {
    const leaves = new Map();
    const seen = new Set();
    let frontier = [{ ms: ms0, x: x0, steps: 0, first: null }];
    while (frontier.length) {
      const next = [];
      for (const n of frontier) {
        const t0 = env.ticksAt(n.ms);
        for (const a of ["W", "L", "R"]) {
          const endMs = n.ms + (a === "W" ? WAIT_MS : MOVE_MS);
          const t1 = env.ticksAt(endMs);
          const dir = a === "L" ? -1 : a === "R" ? 1 : 0;
          const first = n.first || a;
          const endX = Math.min(env.hi, Math.max(env.lo, n.x + dir * PX_PER_TICK * (t1 - t0)));
          if (t1 >= T) {
            const x = Math.min(env.hi, Math.max(env.lo, n.x + dir * PX_PER_TICK * (T - t0)));
            const key = Math.round(x / LEAF_PX);
            const old = leaves.get(key);
            if (!old || n.steps + 1 < old.steps) {
              leaves.set(key, { x, steps: n.steps + 1, first, endMs, endTick: t1, endX });
            }
            continue;
          }
          const key = `${endMs} ${Math.round(endX * 4)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          next.push({ ms: endMs, x: endX, steps: n.steps + 1, first });
        }
      }
      frontier = next;
    }
    return [...leaves.values()];
  }

  function brickDistance(c) {
    const b = c.ball;
    let best = Infinity;
    for (const k of c.bricks) {
      if (!k.alive) continue;
      const dx = Math.max(k.x - b.x, 0, b.x - (k.x + G.BRICK_W));
      const dy = Math.max(k.y - b.y, 0, b.y - (k.y + G.BRICK_H));
      best = Math.min(best, Math.hypot(dx, dy));
    }
    return best;
  }

  // Play the decision tick with the paddle at x, then (paddle transparent)
  // until the ball comes down to the paddle line again. `ticks` counts from
  // the decision tick (1); `landBase` is the clone just before the next crossing.
  function outcome(base, x) {
    const c = base.clone();
    const broken0 = c.broken;
    const hits0 = c.paddleHits;
    c.paddleX = x;
    c.paddleSolid = true;
    c.tick(NO_INPUT);
    c.paddleSolid = false;
    if (c.status === "terminal") {
      return { lost: c.outcome !== "success", cleared: c.outcome === "success", bricks: c.broken - broken0, ticks: 1 };
    }
    if (c.ballsLost > base.ballsLost || (c.paddleHits === hits0 && c.ball.vy > 0)) return { lost: true };
    let nearest = Infinity;
    for (let t = 2; t <= LOOK_TICKS; t++) {
      // Only a low, falling ball can cross the paddle line on this tick.
      const before = c.ball.vy > 0 && c.ball.y > G.PADDLE_Y - 60 ? c.clone() : null;
      c.tick(NO_INPUT);
      nearest = Math.min(nearest, brickDistance(c));
      const bricks = c.broken - broken0;
      if (c.status === "terminal") return { lost: false, cleared: true, bricks, ticks: t, landX: c.ball.x, nearest };
      if (c.ball.vy > 0 && c.ball.y + G.HALF >= G.PADDLE_Y) {
        return { lost: false, cleared: false, bricks, ticks: t, landX: c.ball.x, nearest, landBase: before };
      }
    }
    return { lost: false, cleared: false, bricks: c.broken - broken0, ticks: LOOK_TICKS, landX: c.ball.x, nearest };
  }

  // Steps after a leaf's last action until the ball is down again: waits for
  // the rest of the flight plus the moves the following catch needs (each
  // 0.2 s move replaces 0.4 of a 0.5 s wait).
  function tailSteps(flightEnd, leafEnd, landX, paddleEndX, w) {
    const need = Math.max(0, Math.abs(landX - paddleEndX) - w / 2 + 12);
    const moves = Math.ceil(need / (MOVE_TICKS * PX_PER_TICK));
    return Math.max(0, flightEnd - leafEnd) / WAIT_TICKS + 0.6 * moves;
  }

  // Best continuation after a catch: {bricks, steps} of the following catch.
  function continuation(o, flightEnd, fromMs, fromX, env) {
    if (!o.landBase) return null;
    let best = null;
    for (const l of reachable(fromX, fromMs, flightEnd, env)) {
      const o2 = outcome(o.landBase, l.x);
      if (o2.lost) continue;
      const end2 = flightEnd - 1 + o2.ticks;
      // A flight that grazes a live brick is worth a little: the bounce after
      // it is more likely to reach one.
      const bricks = o2.bricks + (o2.cleared ? 100 : PROXIMITY * Math.exp(-o2.nearest / 40));
      const steps = l.steps + tailSteps(end2, l.endTick, o2.landX, l.endX, env.w);
      if (!best || bricks / steps > best.bricks / best.steps) best = { bricks, steps };
    }
    return best;
  }

  function better(a, b) {
    if (a.cleared !== b.cleared) return a.cleared;
    if (a.cleared) return a.leaf.steps < b.leaf.steps;
    if (a.safe !== b.safe) return a.safe;
    if (Math.abs(a.rate - b.rate) > 1e-9) return a.rate > b.rate;
    if (a.nearest !== b.nearest) return a.nearest < b.nearest;
    if (a.leaf.steps !== b.leaf.steps) return a.leaf.steps < b.leaf.steps;
    return a.leaf.first === "W" && b.leaf.first !== "W";
  }

  function decide(core, loop) {
    const dec = findDecision(core);
    if (!dec) return "W";
    const w = core.paddleW;
    const env = {
      lo: G.FIELD_L + w / 2,
      hi: G.FIELD_R - w / 2,
      w,
      ticksAt: makeClock(loop),
    };
    let best = null;
    let closest = null;
    for (const leaf of reachable(core.paddleX, 0, dec.ticks, env)) {
      const o = outcome(dec.base, leaf.x);
      if (o.lost) {
        // Fallback when nothing catches: get as close as possible.
        const miss = Math.abs(leaf.x - dec.base.ball.x);
        if (!closest || miss < closest.miss) closest = { miss, first: leaf.first };
        continue;
      }
      const cand = { leaf, cleared: o.cleared, safe: true, rate: 0, nearest: o.nearest };
      if (!o.cleared) {
        const flightEnd = dec.ticks - 1 + o.ticks;
        const next = continuation(o, flightEnd, leaf.endMs, leaf.endX, env);
        if (next) {
          cand.rate = (o.bricks + next.bricks) / (leaf.steps + next.steps);
        } else {
          cand.safe = false;
          cand.rate = o.bricks / (leaf.steps + tailSteps(flightEnd, leaf.endTick, o.landX, leaf.endX, w));
        }
      }
      if (!best || better(cand, best)) best = cand;
    }
    if (best) return best.leaf.first;
    return closest ? closest.first : "W";
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state) return ACTIONS.W;
      if (state.status === "ready") return ACTIONS.L;   // any arrow starts play
      if (state.status !== "playing") return ACTIONS.W;
      return ACTIONS[decide(core, window.__gwLoop)];
    },
  };
})();
