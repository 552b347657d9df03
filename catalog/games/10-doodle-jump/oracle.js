// Reference expert for Doodle Jump.
//
// It acts only at step boundaries (one control per 200 ms step), like a model.
// Each step it clones the live core (window.__gwCore) and plays every
// wait/left/right sequence of DEPTH steps. A leaf is worth the best of: the
// score already banked, and the height of the best platform still reachable
// from the leaf's arc (a spring counts +SPRING_BONUS). A leaf from which no
// bounceable platform is reachable counts as a fall. Ties go to `wait`.
(function () {
  "use strict";

  const DEPTH = 4;              // 0.8 s ahead
  const DT = 1 / 60;
  const GRAVITY = 3000;
  const MAX_VX = 450;
  const ACCEL = 3000;
  const FIELD_W = 540;
  const FIELD_H = 664;
  const DOODLE = 50;
  const CAMERA_LINE = Math.round(FIELD_H * 0.45);
  const LAND_TOL = 55;          // of the 70 px half-overlap, kept as margin for 0.2 s steering
  const SPRING_TOL = 30;        // of the 45 px spring half-overlap
  const SPRING_BONUS = 1400;
  const FALL = -1e9;
  const BANKED = 0.25;
  const NEXT_RISE = 340;        // a plain bounce rises 375 px
  const NEXT_DX = 220;          // and drifts this far with margin

  const CONTROLS = [
    { control: "wait", args: {}, left: false, right: false },
    { control: "move_left", args: {}, left: true, right: false },
    { control: "move_right", args: {}, left: false, right: true },
  ];

  function wrapDelta(a, b) {
    let d = (((b - a) % FIELD_W) + FIELD_W) % FIELD_W;
    if (d > FIELD_W / 2) d -= FIELD_W;
    return d;
  }

  // Furthest the doodle can drift in `dir` (+1/-1) within t seconds from vx.
  function reach(vx, dir, t) {
    const v = vx * dir;                       // speed along dir
    const tRamp = Math.max(0, (MAX_VX - v) / ACCEL);
    if (t <= tRamp) return v * t + 0.5 * ACCEL * t * t;
    return v * tRamp + 0.5 * ACCEL * tRamp * tRamp + MAX_VX * (t - tRamp);
  }

  // Height worth of the best platform reachable from the core's current arc,
  // or FALL when none is.
  function potential(core) {
    const vy = core.vy;
    const apexY = vy < 0 ? core.y - vy * vy / (2 * GRAVITY) : core.y;
    const tApex = vy < 0 ? -vy / GRAVITY : 0;
    const camY = Math.min(core.cameraY, apexY - CAMERA_LINE);
    const deathY = camY + FIELD_H + DOODLE;
    let best = FALL;
    const ticks0 = core.playTicks;
    for (const p of core.platforms) {
      if (p.broken || p.type === "red") continue;
      if (p.y < apexY || p.y > deathY) continue;
      if (vy >= 0 && p.y < core.y) continue;
      let t = tApex + Math.sqrt(2 * (p.y - apexY) / GRAVITY);
      if (vy >= 0) {
        // Already falling: solve y + vy t + g t^2 / 2 = p.y.
        const d = p.y - core.y;
        t = (-vy + Math.sqrt(vy * vy + 2 * GRAVITY * d)) / GRAVITY;
      }
      core.playTicks = ticks0 + Math.round(t * 60);
      const px = core.platformX(p);
      core.playTicks = ticks0;
      const need = wrapDelta(core.x, px);
      const slack = 0.85;                     // steering in 0.2 s steps is coarse
      const right = reach(core.vx, 1, t) * slack;
      const left = reach(core.vx, -1, t) * slack;
      const ok = (tol) => need <= right + tol && need >= -left - tol;
      if (!ok(LAND_TOL)) continue;
      let worth = -p.y;
      // Only a falling doodle's spring estimate counts: a rising one's is too
      // optimistic and would lure the doodle into missing platforms to retry.
      if (p.spring && ok(SPRING_TOL)) worth += SPRING_BONUS;
      if (worth > best) best = worth;
    }
    return best;
  }

  // Worth of a spring one plain bounce beyond platform p (landed at px): it lets
  // the oracle steer towards springs more than one bounce ahead.
  let springs = [];
  // Spring estimates are optimistic; if chasing one stalls the climb for
  // STALL_STEPS, the oracle climbs on plain heights until the score moves again.
  const STALL_STEPS = 8;
  let seekSprings = true;
  const memo = { core: null, score: -1, since: 0 };
  function springNext(core, p, px) {
    let best = -Infinity;
    for (const s of springs) {
      if (s.y >= p.y || s.y < p.y - NEXT_RISE) continue;
      if (Math.abs(wrapDelta(px, core.platformX(s))) > NEXT_DX) continue;
      best = Math.max(best, -s.y + SPRING_BONUS * 0.8);
    }
    return best;
  }

  function leafValue(core) {
    if (core.status === "terminal") return FALL - 1e6 + core.playTicks;
    const pot = potential(core);
    if (pot === FALL) return FALL + core.playTicks;
    // Banked height also counts, so that of two futures reaching the same
    // platform the one that is already higher wins (no endless re-bouncing).
    return Math.max(core.score, pot) + BANKED * core.score;
  }

  // The harness's frames come every 16 ms while ticks last 1/60 s, so a 200 ms
  // step holds 12 ticks, or alternately 13 and 11, depending on the frame phase.
  const TIMINGS = [[12, 12], [13, 11], [11, 13]];

  function play(core, c, ticks) {
    const next = core.clone();
    for (let t = 0; t < ticks && next.status !== "terminal"; t++) next.tick(c);
    return next;
  }

  function search(core, k, timing) {
    if (k === DEPTH || core.status === "terminal") return leafValue(core);
    let best = -Infinity;
    for (const c of CONTROLS) {
      const v = search(play(core, c, timing[k % 2]), k + 1, timing);
      if (v > best) best = v;
    }
    return best;
  }

  // A control's worth under the least favourable step timing.
  function worth(core, c) {
    let worst = Infinity;
    for (const timing of TIMINGS) {
      worst = Math.min(worst, search(play(core, c, timing[0]), 1, timing));
    }
    return worst;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      if (memo.core !== core || core.score > memo.score) {
        memo.core = core;
        memo.score = core.score;
        memo.since = 0;
      } else {
        memo.since++;
      }
      seekSprings = memo.since < STALL_STEPS;
      springs = core.platforms.filter((p) => p.spring && p.y > core.cameraY - 1200 && p.y < core.cameraY + 700);
      let best = null;
      let bestV = -Infinity;
      for (const c of CONTROLS) {
        const v = worth(core, c);
        if (v > bestV + 1e-6) {
          bestV = v;
          best = c;
        }
      }
      return { control: best.control, args: {} };
    },
  };
})();
