// Reference expert for Doodle Jump.
//
// It acts only at step boundaries (one control per 200 ms step), like a model.
// Each step it clones the live core (window.__gwCore), has the copy build the
// tower LOOKUP px further, and
//  1. prices every platform of it: the least time from a bounce on it to the
//     target, over routes of bounces between these platforms (a spring is a
//     higher launch), a launch above the known tower priced at TAIL_RATE;
//  2. runs a beam search over wait/left/right sequences of SEARCH.horizon
//     steps on the copy. All nodes of one depth share a time, so they are ranked
//     by the estimated time to the target: the time to land on a platform
//     their arc can still reach plus that platform's price. No reachable
//     platform is a fall.
// Time, not height, is the measure, so a spring is chased only when it pays.
// The best sequence is kept as the plan for the next step (see search).
(function () {
  "use strict";

  const G = window.__gwDoodleJump;   // the rules, shared with game.js
  const { TICK_HZ, GRAVITY, MAX_VX, ACCEL, FIELD_W, FIELD_H, DOODLE, CAMERA_LINE, wrapDelta } = G;
  const BOUNCE_VY = -G.BOUNCE_VY;   // launch speeds, upwards positive here
  const SPRING_VY = -G.SPRING_VY;
  const PLAT_HALF = (G.PLAT_W + DOODLE) / 2;      // 70: the landing overlap
  const SPRING_HALF = (G.SPRING_W + DOODLE) / 2;  // 45
  // At the apex the camera line is 299 px under the view's top, so a doodle
  // dies 664 + 50 - 299 px under its apex: no landing lower than that.
  const FALL_ROOM = FIELD_H + DOODLE - CAMERA_LINE;
  const SEARCH = { horizon: 12, beam: 30 };   // 2.4 s ahead: two plain bounces
  // The first step of an episode searches 9 times (see act), so less deep.
  const FIRST_SEARCH = { horizon: 6, beam: 20 };
  // The tower is a pure function of the seed, built one screen above the view;
  // the copy builds LOOKUP px more (what the game will build) so that routes
  // are priced over about two spring launches. Less costs steps: a spring now
  // can be worse than one later that the short view does not show.
  const LOOKUP = 4000;
  const TAIL_RATE = 700;        // px/s: the climb assumed above the priced tower
  const EST_TOL = 10;           // px of overlap the estimates leave for coarse 0.2 s steering
  const RING_TOL = 5;           // the same for the 25 px of top beside a spring
  const EST_SLACK = 0.9;        // share of the ideal sideways reach the estimates trust
  const MARGIN = 10;            // px of overlap a landing keeps for a tick of timing error
  const RISK_S = 0.03;          // s per px of overlap under MARGIN in the first steps
  const RISK_STEPS = 2;         // later landings are re-planned with the true timing
  const FALL = -1e9;

  const CONTROLS = [
    { control: "wait", left: false, right: false },
    { control: "move_left", left: true, right: false },
    { control: "move_right", left: false, right: true },
  ];

  // Furthest the doodle can drift in `dir` (+1/-1) within t seconds from vx.
  function reach(vx, dir, t) {
    const v = vx * dir;
    const tRamp = Math.max(0, (MAX_VX - v) / ACCEL);
    if (t <= tRamp) return v * t + 0.5 * ACCEL * t * t;
    return v * tRamp + 0.5 * ACCEL * tRamp * tRamp + MAX_VX * (t - tRamp);
  }

  // Seconds to climb from height h to the goal at TAIL_RATE (without a goal,
  // minus the height's worth: only differences count then).
  function climb(route, h) {
    return route.hasGoal ? Math.max(0, route.goal - h) / TAIL_RATE : -h / TAIL_RATE;
  }

  // Price of an arc at vy (up now) from height h whose apex is above the
  // priced tower: a landing APEX_DROP under the apex, then climb().
  const APEX_DROP = 100;
  const APEX_DROP_S = Math.sqrt(2 * APEX_DROP / GRAVITY);
  function tailCost(route, h, vy) {
    return vy / GRAVITY + APEX_DROP_S + climb(route, h + vy * vy / (2 * GRAVITY) - APEX_DROP);
  }

  // Prices of a platform: seconds from a bounce on its top (`plain`) or on
  // its spring (`spring`, Infinity without one) to the goal. One the routes
  // do not know (a clone built it) is priced like the tail.
  function prices(route, p) {
    const r = route.byY.get(p.y);
    if (r) return r;
    const h = -p.y;
    if (route.hasGoal && h >= route.goal) return { plain: 0, spring: 0 };
    return { plain: climb(route, h), spring: p.spring ? tailCost(route, h, SPRING_VY) : Infinity };
  }

  // Where the doodle must be, relative to a platform's centre, to bounce on
  // its top (beside the spring if it has one) or on its spring.
  function topZone(p, tol) {
    return p.spring ? [SPRING_HALF + RING_TOL, PLAT_HALF - RING_TOL] : [0, PLAT_HALF - tol];
  }

  // Cheapest landing on platform p (price r) centred at relative x from the
  // positions `ivs`.
  function landCost(ivs, x, p, r) {
    let c = Infinity;
    if (p.spring && meets(ivs, x, 0, SPRING_HALF - EST_TOL)) c = r.spring;
    const top = topZone(p, EST_TOL);
    if (r.plain < c && meets(ivs, x, top[0], top[1])) c = r.plain;
    return c;
  }

  // Seconds from a bounce on each platform of `core` to the goal (see prices).
  function routeCosts(core, goal, hasGoal) {
    const route = { goal: hasGoal ? goal : 0, hasGoal: hasGoal, byY: new Map() };
    const known = -core.chainY;
    const plats = core.platforms.filter((p) => !p.broken && p.type !== "red").sort((a, b) => a.y - b.y);
    const higher = [];
    for (const p of plats) {
      const h = -p.y;
      let plain = 0;
      let spring = p.spring ? 0 : Infinity;
      if (!hasGoal || h < goal) {
        plain = launchCost(route, p, h, BOUNCE_VY, higher, known);
        if (p.spring) spring = launchCost(route, p, h, SPRING_VY, higher, known);
      }
      const r = { p: p, h: h, plain: plain, spring: spring };
      route.byY.set(p.y, r);
      higher.push(r);
    }
    return route;
  }

  // Sideways positions as sorted, disjoint [lo, hi] intervals of px relative
  // to a reference. The field wraps, so a platform centred at x is also at
  // x +- 540 (and +- 1080: long arcs can drift that far).
  function grow(ivs, d) {
    const out = [];
    for (const iv of ivs) {
      const lo = iv[0] - d;
      const hi = iv[1] + d;
      const last = out[out.length - 1];
      if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
      else out.push([lo, hi]);
    }
    return out;
  }

  function cut(ivs, x, half) {
    let out = ivs;
    for (let k = -2; k <= 2; k++) {
      const a = x + k * FIELD_W - half;
      const b = x + k * FIELD_W + half;
      const next = [];
      for (const iv of out) {
        if (iv[1] <= a || iv[0] >= b) {
          next.push(iv);
          continue;
        }
        if (iv[0] < a) next.push([iv[0], a]);
        if (iv[1] > b) next.push([b, iv[1]]);
      }
      out = next;
    }
    return out;
  }

  // Do the positions meet x +- [inner, outer] (inner 0: one interval)?
  function meets(ivs, x, inner, outer) {
    for (let k = -2; k <= 2; k++) {
      const c = x + k * FIELD_W;
      for (const iv of ivs) {
        if (iv[1] >= c - outer && iv[0] <= c - inner) return true;
        if (iv[1] >= c + inner && iv[0] <= c + outer) return true;
      }
    }
    return false;
  }

  // Cheapest continuation of a launch at vy from p (at height h): the arc's
  // platforms are met top down; each can be landed on if the doodle can get
  // over it, or must be passed beside (which narrows where it can be next).
  // Moving platforms are never in the way and always reachable: their place
  // at that time is not known here.
  function launchCost(route, p, h, vy, higher, known) {
    const tUp = vy / GRAVITY;
    const apex = h + vy * vy / (2 * GRAVITY);
    let best = apex > known ? tailCost(route, h, vy) : Infinity;
    let ivs;
    if (p.type === "blue") ivs = [[-1e6, 1e6]];
    else if (vy === SPRING_VY) ivs = [[-SPRING_HALF, SPRING_HALF]];
    else if (p.spring) ivs = [[-PLAT_HALF, -SPRING_HALF], [SPRING_HALF, PLAT_HALF]];
    else ivs = [[-PLAT_HALF, PLAT_HALF]];
    let tPrev = 0;
    for (const q of higher) {
      if (q.h > apex) continue;
      if (q.h < apex - FALL_ROOM || q.h <= h) break;
      const t = tUp + Math.sqrt(2 * (apex - q.h) / GRAVITY);
      ivs = tPrev === 0 ? grow(ivs, reach(0, 1, t) * EST_SLACK) : grow(ivs, MAX_VX * EST_SLACK * (t - tPrev));
      tPrev = t;
      if (q.p.type === "blue") {
        best = Math.min(best, t + q.plain, t + q.spring);
        continue;
      }
      const qx = wrapDelta(p.x, q.p.x);
      best = Math.min(best, t + landCost(ivs, qx, q.p, q));
      ivs = cut(ivs, qx, PLAT_HALF);
      if (!ivs.length) break;
    }
    return best;
  }

  // Estimated seconds from a core to the goal, `ticks` after the root: best
  // over the platforms its arc can still land on of the time to land there
  // plus the platform's price; as above, platforms higher in the arc must be
  // passed beside. Returned negated (higher is better).
  function evaluate(core, ticks, route) {
    if (core.status === "terminal") return FALL;
    const vy = core.vy;
    const rising = vy < 0;
    const apexY = rising ? core.y - vy * vy / (2 * GRAVITY) : core.y;
    const tApex = rising ? -vy / GRAVITY : 0;
    // The camera will have followed the doodle up to its apex by then.
    const camY = Math.min(core.cameraY, apexY - CAMERA_LINE);
    const deathY = camY + FIELD_H + DOODLE;
    const arc = [];
    for (const p of core.platforms) {
      if (p.broken || p.type === "red") continue;
      if (p.y < apexY || p.y > deathY) continue;
      arc.push(p);
    }
    arc.sort((a, b) => a.y - b.y);
    const ticks0 = core.playTicks;
    // The game builds the tower one screen above the view: an apex above what
    // is built yet lands on platforms still to come, priced like the tail.
    let best = -apexY > -core.chainY ? tApex + APEX_DROP_S + climb(route, -apexY - APEX_DROP) : Infinity;
    let ivs = null;
    let tPrev = 0;
    for (const p of arc) {
      const t = rising
        ? tApex + Math.sqrt(2 * (p.y - apexY) / GRAVITY)
        : (-vy + Math.sqrt(vy * vy + 2 * GRAVITY * (p.y - core.y))) / GRAVITY;
      ivs = ivs === null
        ? [[-reach(core.vx, -1, t) * EST_SLACK, reach(core.vx, 1, t) * EST_SLACK]]
        : grow(ivs, MAX_VX * EST_SLACK * (t - tPrev));
      tPrev = t;
      let px = p.x;
      if (p.type === "blue") {
        core.playTicks = ticks0 + Math.round(t * TICK_HZ);
        px = core.platformX(p);
        core.playTicks = ticks0;
      }
      const need = wrapDelta(core.x, px);
      best = Math.min(best, t + landCost(ivs, need, p, prices(route, p)));
      ivs = cut(ivs, need, PLAT_HALF);
      if (!ivs.length) break;
    }
    return best === Infinity ? FALL : -(ticks / TICK_HZ + best);
  }

  // Play one step of `ticks` ticks on a clone of node.core; returns the child
  // node, with the overlap left at any landing in it and the tick the target
  // was reached at.
  function step(node, c, ticks, depth, route, target) {
    const core = node.core.clone();
    let margin = Infinity;
    let doneAt = node.doneAt;
    for (let k = 0; k < ticks && core.status === "playing"; k++) {
      const bounces = core.bounces;
      core.tick(c);
      if (core.bounces !== bounces) {
        // Landed this tick: core.y is the platform's top.
        for (const p of core.platforms) {
          if (p.y !== core.y || p.type === "red") continue;
          const dx = Math.abs(wrapDelta(core.platformX(p), core.x));
          margin = Math.min(margin, (core.vy === -SPRING_VY ? SPRING_HALF : PLAT_HALF) - dx);
        }
        if (doneAt < 0 && core.score >= target) doneAt = node.ticks + k + 1;
      }
    }
    const t = node.ticks + ticks;
    const value = doneAt >= 0 ? -doneAt / TICK_HZ : evaluate(core, t, route);
    let risk = node.risk;
    if (depth < RISK_STEPS && margin < MARGIN) risk += RISK_S * (MARGIN - margin);
    return { core: core, ticks: t, doneAt: doneAt, risk: risk, value: value - risk, path: null, onPlan: false };
  }

  // Sequences that reach the same state are one: the doodle's vertical motion
  // depends only on its landings, its sideways state is bucketed.
  function key(node) {
    const c = node.core;
    return Math.round(c.x / 4) + ":" + Math.round(c.vx / 50) + ":" + c.y.toFixed(1) + ":" + c.vy.toFixed(1) + ":" + c.score;
  }

  // Beam search; returns the last beam, best first. `timing`: the ticks of
  // the even and odd steps; `only`: the first control, if fixed. `plan`
  // (control indices) is the last step's best sequence less its first step.
  // Its nodes are kept in the beam whatever their rank, so a plan is only
  // dropped for one found better: without that, sequences that put off the
  // test of an optimistic estimate (wait one more bounce) outrank the ones
  // that just failed it, and the doodle dithers.
  function search(root, timing, route, target, plan, size, only) {
    let beam = [{ core: root, ticks: 0, doneAt: -1, risk: 0, value: 0, path: [] }];
    for (let d = 0; d < size.horizon; d++) {
      const children = [];
      const n = timing[d % 2];
      let kept = null;
      for (const node of beam) {
        const onPlan = node.onPlan || d === 0;
        if (node.core.status !== "playing" || node.doneAt >= 0) {
          children.push(node);
          if (onPlan) kept = node;
          continue;
        }
        for (let i = 0; i < CONTROLS.length; i++) {
          if (d === 0 && only !== undefined && i !== only) continue;
          const ch = step(node, CONTROLS[i], n, d, route, target);
          ch.path = node.path.concat(i);
          if (onPlan && (d >= plan.length ? !kept || ch.value > kept.value : plan[d] === i)) kept = ch;
          children.push(ch);
        }
      }
      if (kept) kept.onPlan = true;
      children.sort((a, b) => b.value - a.value);
      const seen = new Set();
      beam = [];
      for (const ch of children) {
        const k = key(ch);
        if (seen.has(k)) continue;
        seen.add(k);
        beam.push(ch);
        if (beam.length >= size.beam) break;
      }
      if (kept && !beam.includes(kept)) beam.push(kept);
    }
    return beam;
  }

  // The harness's frames come every 16 ms while ticks last 1/60 s, so a 200 ms
  // step holds 12 ticks, or alternately 13 and 11, depending on the frame
  // phase; two steps always hold 24. The ticks since the last call (one step
  // or more: oracle@P does not ask every step) tell the next step's count:
  // memo.next, 0 while unknown. The plan is reused when the doodle is where it
  // predicted after one step.
  const memo = { core: null, ticks: 0, next: 0, plan: [], expect: null };

  function learnTiming(live) {
    const d = memo.core === live ? live.playTicks - memo.ticks : 0;
    memo.core = live;
    memo.ticks = live.playTicks;
    if (d <= 0) {
      memo.next = 0;
      return;
    }
    const k = Math.round(d / 12);
    const r = d - 12 * k;
    // After an even number of steps the phase is the one known before.
    if (k % 2 === 1) memo.next = r === 1 ? 11 : r === -1 ? 13 : r === 0 ? 12 : 0;
  }

  window.gameOracle = {
    act(state, task, role) {
      const live = window.__gwCore;
      if (!live || !state || state.status !== "playing") return { control: "wait", args: {} };
      learnTiming(live);
      const hasGoal = !!task && typeof task.target === "number";
      const target = hasGoal ? task.target : Infinity;
      // The copy builds the tower LOOKUP px further and drops the platforms
      // below the lowest line the doodle could still land on: they only cost
      // time in every tick.
      const root = live.clone();
      root.ensurePlatforms(root.cameraY - FIELD_H - LOOKUP);
      const floor = live.cameraY + FIELD_H + DOODLE;
      root.platforms = root.platforms.filter((p) => p.y <= floor);
      const route = routeCosts(root, target, hasGoal);
      const e = memo.expect;
      const same = e && e.ticks === live.playTicks && e.x === live.x && e.vx === live.vx && e.y === live.y && e.vy === live.vy;
      memo.expect = null;
      if (!memo.next) {
        // The timing is not known yet: the control that does best under
        // the worst of the three timings, each searched on its own.
        let pick = 0;
        let pickV = -Infinity;
        for (let i = 0; i < CONTROLS.length; i++) {
          let worst = Infinity;
          for (const n of [12, 13, 11]) {
            worst = Math.min(worst, search(root, [n, 24 - n], route, target, [], FIRST_SEARCH, i)[0].value);
          }
          if (worst > pickV) {
            pickV = worst;
            pick = i;
          }
        }
        return { control: CONTROLS[pick].control, args: {} };
      }
      const next = memo.next;
      const best = search(root, [next, 24 - next], route, target, same ? memo.plan : [], SEARCH)[0];
      memo.plan = best.path.slice(1);
      const after = step({ core: root, ticks: 0, doneAt: -1, risk: 0 }, CONTROLS[best.path[0]], next, 0, route, target).core;
      memo.expect = { ticks: after.playTicks, x: after.x, vx: after.vx, y: after.y, vy: after.vy };
      return { control: CONTROLS[best.path[0]].control, args: {} };
    },
  };
})();
