// Reference expert for Wolfenstein 3D.
//
// It reads the live core (window.__gwCore) and acts once per step through the
// registered controls. Each step: if a guard is in sight and in range, turn
// until it is within 6 degrees of the cross and shoot; otherwise walk the
// shortest cell path (BFS, doors included) towards the nearest standing guard,
// or towards an ammo clip when the bullets left cannot down everyone, opening
// doors on the way. Health below 30 makes it step back out of the guards'
// sight before it fights on.
(function () {
  "use strict";

  const AIM_DEG = 6;              // inside the game's 7 degree cone with a margin
  const STEER_DEG = 20;           // walk when the waypoint is this close to straight ahead
  const SHOOT_RANGE = 9.5;
  const ONE_SHOT_RANGE = 2.9;     // the game's 3 cells, with a margin for movement
  const LOW_HEALTH = 30;
  const LOOKAHEAD = 5;            // path cells considered for a straight-line shortcut
  const CLEARANCE = 0.27;         // player radius plus a hair
  const STEP_TICKS = 12;          // a 0.2 s press
  const MIN_PROGRESS = 0.3;       // of the 0.6 cells a forward step can cover
  const CLIP_DETOUR = 6;          // cells a clip may lie off the way

  const ctl = (id) => ({ control: id, args: {} });
  const WAIT = ctl("wait");

  function turnTowards(rel) {
    return ctl(rel > 0 ? "turn_right" : "turn_left");
  }

  function cellOf(x, y) {
    return [Math.floor(x), Math.floor(y)];
  }

  // Cell path from the player's cell to (gx, gy), start excluded; [] if unreachable.
  function pathTo(core, gx, gy) {
    const [sx, sy] = cellOf(core.px, core.py);
    const w = core.mapW;
    const dist = core.distances(gx, gy, true);     // from the goal: walk downhill
    if (dist[sy * w + sx] < 0) return null;
    const path = [];
    let x = sx, y = sy;
    while (x !== gx || y !== gy) {
      let best = dist[y * w + x], nx = x, ny = y;
      for (const [ax, ay] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
        const d = ax >= 0 && ay >= 0 && ax < w && ay < w ? dist[ay * w + ax] : -1;
        if (d >= 0 && d < best) { best = d; nx = ax; ny = ay; }
      }
      if (nx === x && ny === y) return null;
      x = nx; y = ny;
      path.push([x, y]);
    }
    return path;
  }

  function pathLength(core, gx, gy) {
    const [sx, sy] = cellOf(core.px, core.py);
    const d = core.distances(sx, sy, true)[gy * core.mapW + gx];
    return d < 0 ? Infinity : d;
  }

  // Can the player walk in a straight line from where he is to (x, y)?
  function walkable(core, x, y) {
    const dx = x - core.px, dy = y - core.py;
    const n = Math.ceil(Math.hypot(dx, dy) / 0.1);
    for (let k = 1; k <= n; k++) {
      if (!core.fits(core.px + dx * k / n, core.py + dy * k / n, CLEARANCE)) return false;
    }
    return true;
  }

  function sees(core, g) {
    return core.clearLine(core.px, core.py, g.x, g.y);
  }

  // Walk along the cell path, opening the first closed door on it.
  function follow(core, path, goalX, goalY) {
    for (let k = 0; k < Math.min(path.length, 2); k++) {
      const [cx, cy] = path[k];
      const door = core.doorAt(cx, cy);
      if (!door || !core.solid(cx, cy)) continue;
      if (door.opening) return WAIT;               // sliding open
      if (core.doorInReach() === door) return ctl("open_door");
      return steer(core, cx + 0.5, cy + 0.5);
    }
    let tx = goalX, ty = goalY;
    if (path.length) {
      [tx, ty] = [path[0][0] + 0.5, path[0][1] + 0.5];
      for (let k = Math.min(path.length, LOOKAHEAD) - 1; k >= 1; k--) {
        const [cx, cy] = path[k];
        if (path.slice(0, k + 1).some(([ax, ay]) => core.solid(ax, ay))) continue;
        if (walkable(core, cx + 0.5, cy + 0.5)) { tx = cx + 0.5; ty = cy + 0.5; break; }
      }
    }
    return steer(core, tx, ty);
  }

  // Walk towards (x, y) when roughly facing it and a forward step (tried on a
  // clone) really gets closer; otherwise turn towards it, which also frees the
  // player from a wall corner he would slide along.
  function steer(core, x, y) {
    const rel = core.relAngle(x, y);
    if (Math.abs(rel) > STEER_DEG) return turnTowards(rel);
    const c = core.clone();
    for (let t = 0; t < STEP_TICKS; t++) c.tick({ forward: true });
    const before = Math.hypot(x - core.px, y - core.py);
    const after = Math.hypot(x - c.px, y - c.py);
    if (before - after >= Math.min(MIN_PROGRESS, before / 2)) return ctl("move_forward");
    return turnTowards(rel);
  }

  // Hurt badly with a guard shooting: back away out of every alert guard's sight.
  function retreat(core, threats) {
    const nearest = threats[0];
    const rel = core.relAngle(nearest.g.x, nearest.g.y);
    if (Math.abs(rel) > 60) return turnTowards(rel);
    return ctl("move_backward");
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || core.status !== "playing") return WAIT;
      const living = core.living().map((g) => ({ g, d: Math.hypot(g.x - core.px, g.y - core.py) }));
      living.sort((a, b) => a.d - b.d);
      const inSight = living.filter((o) => o.d <= SHOOT_RANGE && sees(core, o.g));
      const ammo = core.ammo + (core.pendingShot ? -1 : 0);

      const threats = inSight.filter((o) => o.g.state === "alert");
      if (core.health < LOW_HEALTH && threats.length && ammo > 0 && inSight[0].d > 3.2) {
        return retreat(core, threats);
      }

      if (inSight.length && ammo > 0) {
        // A guard within 3 cells falls to one bullet; from farther away it takes
        // its remaining hit points, affordable only if one bullet per other
        // guard is left. Otherwise close in (alert guards come closer too).
        // Of the guards worth a shot, take the one needing the fewest turns.
        let best = null, bestTurns = Infinity;
        for (const o of inSight) {
          const cost = o.d <= ONE_SHOT_RANGE ? 1 : o.g.hp;
          if (cost > 1 && ammo - cost < living.length - 1) continue;
          const rel = core.relAngle(o.g.x, o.g.y);
          const turns = Math.ceil(Math.max(0, Math.abs(rel) - AIM_DEG) / 12);
          if (turns < bestTurns) { best = rel; bestTurns = turns; }
        }
        if (best !== null) {
          if (Math.abs(best) <= AIM_DEG) return core.pendingShot ? WAIT : ctl("shoot");
          return turnTowards(best);
        }
      }

      // Nothing to shoot: fetch ammo if short, else hunt the nearest guard.
      const clips = core.clips.filter((k) => !k.taken);
      if (clips.length && ammo < living.length) {
        let best = null, bestLen = Infinity;
        for (const k of clips) {
          const [cx, cy] = cellOf(k.x, k.y);
          const len = pathLength(core, cx, cy);
          if (len < bestLen) { best = k; bestLen = len; }
        }
        if (best && (ammo === 0 || bestLen <= CLIP_DETOUR)) {
          const path = pathTo(core, ...cellOf(best.x, best.y));
          if (path) return follow(core, path, best.x, best.y);
        }
      }
      let goal = null, goalLen = Infinity;
      for (const o of living) {
        const len = pathLength(core, ...cellOf(o.g.x, o.g.y));
        if (len < goalLen) { goal = o.g; goalLen = len; }
      }
      if (!goal) return WAIT;
      const path = pathTo(core, ...cellOf(goal.x, goal.y));
      return path ? follow(core, path, goal.x, goal.y) : WAIT;
    },
  };
})();
