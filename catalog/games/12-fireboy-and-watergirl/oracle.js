// Reference expert for Fireboy and Watergirl: two route followers, one per role.
//
// Each level has an authored route per character: `go` waypoints (a tile
// column and the row of the floor to stand on; on a diamond of the role, the
// diamond taken) that pass every diamond, `board` a lift, `press` a button,
// `until` points where the character waits for a condition on the shared
// state (a lift at the top, the partner standing on a lift) and `repeat` one
// control until a condition holds (a box pushed home). Both roles read the
// same state, so their plans agree. To reach the next waypoint a role
// clones the live core (window.__gwCore) and tries every sequence of three of
// its controls (the partner idle), lets the last one settle until landing,
// drops any that kill it, and takes the first control of the sequence that
// reaches the waypoint soonest or, failing that, ends nearest to it.
(function () {
  "use strict";

  const TILE = 32;
  const TOP = 60;
  const STEP_TICKS = 12;          // a 0.2 s control is 11-13 ticks of 1/60 s
  const DEPTH = 3;
  const SETTLE_TICKS = 45;         // after the last control, keep its direction until landing
  const WALK_PER_TICK = 260 / 60;
  const REACH_X = 30;             // over half of the longest (13-tick) walking step
  const JUMP_COST = 3;            // ticks: walk rather than hop when both are as fast (diamond rows)
  const EARLY = 0.15;             // weight of the distance left after each step: progress early
  const ROLES = ["watergirl", "fireboy"];
  const CONTROLS = [
    { id: "wait", dir: 0, jump: false },
    { id: "move_left", dir: -1, jump: false },
    { id: "move_right", dir: 1, jump: false },
    { id: "jump", dir: 0, jump: true },
    { id: "jump_left", dir: -1, jump: true },
    { id: "jump_right", dir: 1, jump: true },
  ];
  const WALKS = CONTROLS.slice(0, 3);
  const rowTop = (r) => TOP + r * TILE;

  // In mid-air a jump control only adds a buffered jump on landing: the
  // look-ahead skips those to stay cheap.
  function controlsFrom(ch) {
    return ch.onGround || ch.coyote > 0 ? CONTROLS : WALKS;
  }

  // --- conditions on the shared core --------------------------------------
  function liftIndex(core, id) {
    return core.info.lifts.findIndex((l) => l.id === id);
  }
  function liftUp(id) {
    return (core) => {
      const i = liftIndex(core, id);
      return core.lifts[i].y === rowTop(core.info.lifts[i].up);
    };
  }
  function onLift(name, id) {
    return (core) => {
      const ch = core.chars[name];
      const l = core.lifts[liftIndex(core, id)];
      return ch.onGround && Math.abs(ch.y + ch.h - l.y) < 1 && ch.x >= l.x && ch.x + ch.w <= l.x + l.w;
    };
  }
  function standsOn(name, row, minCol, maxCol) {
    return (core) => {
      const ch = core.chars[name];
      return ch.onGround && Math.abs(ch.y + ch.h - rowTop(row)) < 1 &&
        ch.x >= minCol * TILE && ch.x + ch.w <= (maxCol + 1) * TILE;
    };
  }
  function boxAt(i, col) {
    return (core) => Math.abs(core.boxes[i].x - col * TILE) < 0.5 && core.boxes[i].onGround;
  }
  const never = () => false;

  const go = (col, row) => ({ go: [col, row] });
  const board = (lift) => ({ board: lift });
  const press = (button) => ({ press: button });
  const until = (cond) => ({ until: cond });
  // Repeat one control until the condition holds (pushing a box home).
  const repeat = (control, cond) => ({ until: cond, control: control });

  const ROUTES = {
    1: {
      // Over each block, down its far side, and back left into the nook under it.
      watergirl: [go(7, 19), go(12, 19), go(18, 16), go(21, 19), go(19, 19), go(25, 16), go(29, 19),
        go(27, 19), go(32, 19), go(36, 16), go(31, 13), go(20, 13), go(8, 13)],
      fireboy: [go(11, 19), go(18, 16), go(21, 19), go(18, 19), go(25, 16), go(29, 19), go(25, 19),
        go(32, 19), go(36, 16), go(31, 13), go(26, 13), go(14, 13)],
    },
    2: {
      watergirl: [go(14, 19), go(17, 19), go(23, 19), go(32, 19), go(36, 16), go(31, 13), board("lift"),
        until(liftUp("lift")), go(8, 7), go(11, 7)],
      fireboy: [go(9, 19), go(17, 19), go(23, 19), go(32, 19), go(36, 16), go(31, 13), go(21, 13),
        go(12, 13), until(onLift("watergirl", "lift")), press("p"), until(never)],
    },
    3: {
      watergirl: [go(8, 19), go(17, 19), repeat("move_right", boxAt(1, 36)), go(36, 18), go(37.5, 15), go(34, 12), go(29, 12)],
      fireboy: [go(31, 19), go(22, 19), repeat("move_left", boxAt(0, 3)), go(3, 18), go(1.5, 15), go(5, 12), go(10, 12)],
    },
    4: {
      watergirl: [go(8, 19), go(6, 19), board("lift_a"), until(liftUp("lift_a")),
        go(6, 11), go(9, 11), until(onLift("fireboy", "lift_b")), press("q"), until(never)],
      fireboy: [go(29, 19), until(onLift("watergirl", "lift_a")), press("p"),
        until(standsOn("watergirl", 11, 5, 14)), go(33, 19), board("lift_b"), until(liftUp("lift_b")),
        go(32, 11), go(29, 11)],
    },
  };

  // --- waypoints ------------------------------------------------------------
  // A waypoint on one of the role's diamonds is reached when that diamond is taken.
  function target(wp, core, name) {
    if (wp.press) {
      const b = core.info.buttons.find((x) => x.id === wp.press);
      const pressedBy = (c) => {
        const ch = c.chars[name];
        return ch.onGround && Math.abs(ch.y + ch.h - b.floorY) < 1 && ch.x < b.x + b.w && ch.x + ch.w > b.x;
      };
      return { x: b.x + b.w / 2, y: b.floorY, gem: -1, name: name, board: pressedBy };
    }
    if (wp.board) {
      const l = core.lifts[liftIndex(core, wp.board)];
      return { x: l.x + l.w / 2, y: l.y, gem: -1, name: name, board: onLift(name, wp.board) };
    }
    const x = wp.go[0] * TILE + TILE / 2;
    const y = rowTop(wp.go[1]);
    const kind = name === "fireboy" ? "r" : "b";
    const gem = core.info.gems.findIndex((g) => g.kind === kind &&
      Math.abs(g.x + g.w / 2 - x) < 1 && Math.abs(g.y + g.h / 2 - (y - TILE / 2)) < 1);
    return { x: x, y: y, gem: gem, name: name };
  }
  function reached(core, t) {
    if (t.gem >= 0) return core.taken[t.gem];
    if (t.board) return t.board(core);
    const ch = core.chars[t.name];
    return ch.onGround && Math.abs(ch.x + ch.w / 2 - t.x) <= REACH_X && Math.abs(ch.y + ch.h - t.y) <= 2;
  }
  function distance(ch, t) {
    return Math.hypot(ch.x + ch.w / 2 - t.x, ch.y + ch.h - t.y);
  }

  // --- look-ahead -------------------------------------------------------------
  function inputFor(name, ctl, first) {
    const inp = { watergirl: {}, fireboy: {} };
    inp[name] = { left: ctl.dir < 0, right: ctl.dir > 0, jump: ctl.jump && first };
    return inp;
  }

  // Plays one control for a step; false if the character died.
  function play(core, name, ctl) {
    for (let t = 0; t < STEP_TICKS; t++) {
      core.tick(inputFor(name, ctl, t === 0));
      if (!core.chars[name].alive) return false;
    }
    return true;
  }

  // Cost of a future in ticks: when it reaches the waypoint, or else its
  // length plus the time still needed to walk the remaining distance.
  function finalCost(core, name, t, elapsed, ctl) {
    const ch = core.chars[name];
    if (reached(core, t)) return elapsed;
    const drift = { id: "drift", dir: ctl.dir, jump: false };
    let n = 0;
    for (; n < SETTLE_TICKS && !ch.onGround; n++) {
      core.tick(inputFor(name, drift, false));
      if (!ch.alive) return Infinity;
    }
    if (reached(core, t)) return elapsed + n;
    return elapsed + n + distance(ch, t) / WALK_PER_TICK;
  }

  // The best {cost, control} over all control sequences of `depth` steps from `core`.
  function search(core, name, t, depth, elapsed) {
    let best = { cost: Infinity, control: "wait" };
    for (const ctl of controlsFrom(core.chars[name])) {
      const c = core.clone();
      if (!play(c, name, ctl)) continue;
      const e = elapsed + STEP_TICKS + (ctl.jump ? JUMP_COST : 0);
      let cost;
      if (reached(c, t)) cost = e;
      else if (depth > 1) cost = EARLY * distance(c.chars[name], t) / WALK_PER_TICK + search(c, name, t, depth - 1, e).cost;
      else cost = finalCost(c, name, t, e, ctl);
      if (cost < best.cost - 1e-6) best = { cost: cost, control: ctl.id };
    }
    return best;
  }

  function chooseMove(core, name, t) {
    const root = core.clone();
    root.ghost = ROLES.find((n) => n !== name);   // the partner, idle in the look-ahead, cannot die
    return search(root, name, t, DEPTH, 0).control;
  }

  // --- per-role progress (reset with every new episode) ---------------------
  const progress = {};

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      const name = ROLES.indexOf(role) >= 0 ? role : "watergirl";
      if (!core || !state || state.status !== "playing") return { control: "wait", args: {} };
      const route = (ROUTES[core.level] || {})[name] || [];
      let p = progress[name];
      const episode = state.metrics.attempts;
      if (!p || p.episode !== episode || state.gameTimeMs < p.time) {
        p = progress[name] = { episode: episode, time: 0, index: 0 };
      }
      p.time = state.gameTimeMs;
      while (p.index < route.length) {
        const wp = route[p.index];
        if (!wp.until && reached(core, target(wp, core, name))) p.index++;
        else if (wp.until && wp.until(core)) p.index++;
        else break;
      }
      if (p.index >= route.length) return { control: "wait", args: {} };
      const wp = route[p.index];
      if (wp.until) return { control: wp.control || "wait", args: {} };
      return { control: chooseMove(core, name, target(wp, core, name)), args: {} };
    },
  };
})();
