// Reference expert for Google Snake.
//
// It acts only at step boundaries (one control per 200 ms step), like a model.
// A key pressed at a step's start turns the snake at the next cell boundary,
// so the only choice per step is: keep going, or turn one way or the other.
// Each step it clones the live core (window.__gwCore) and runs a breadth-first
// search over step-level controls DEPTH steps deep for the future that eats the
// most apples soonest and ends with the tail still reachable from the head.
// The first control must also be safe under every step length the harness
// produces (the snake lives on and is not boxed in).
(function () {
  "use strict";

  const DEPTH = 8;
  const NOMINAL_TICKS = 12;        // 200 ms at 60 ticks/s
  const SAFE_AHEAD = 3;            // steps the snake must be able to live on after its move
  // The harness's frames come every 16 ms while ticks last 1/60 s, so a step
  // holds 11, 12 or 13 ticks depending on the frame phase.
  const TIMINGS = [11, 12, 13];
  const CONTROLS = [
    { control: "wait", dir: null },
    { control: "move_up", dir: "up" },
    { control: "move_down", dir: "down" },
    { control: "move_left", dir: "left" },
    { control: "move_right", dir: "right" },
  ];

  // Play one step: the key edge reaches the game on the step's first tick.
  function playStep(core, dir, ticks) {
    const c = core.clone();
    for (let t = 0; t < ticks && c.status !== "terminal"; t++) {
      c.tick({ dirs: t === 0 && dir ? [dir] : [] });
    }
    return c;
  }

  function alive(c) {
    return c.status !== "terminal";
  }

  function nodeKey(c) {
    const h = c.snake[0];
    return h[0] + "," + h[1] + "," + c.dir + "," + c.queue.join("") + "," + c.credit + "," + c.score + "," + c.status;
  }

  // After eating, can the head still reach the tail (which moves away)? If so
  // the snake can always follow its own tail and never traps itself.
  function tailReachable(c) {
    const cols = 17;
    const rows = 15;
    const blocked = new Uint8Array(cols * rows);
    for (let i = 0; i < c.snake.length - 1; i++) blocked[c.snake[i][1] * cols + c.snake[i][0]] = 1;
    const tail = c.snake[c.snake.length - 1];
    const head = c.snake[0];
    const seen = new Uint8Array(cols * rows);
    const stack = [head];
    seen[head[1] * cols + head[0]] = 1;
    while (stack.length) {
      const [x, y] = stack.pop();
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
        if (nx === tail[0] && ny === tail[1]) return true;
        const k = ny * cols + nx;
        if (seen[k] || blocked[k]) continue;
        seen[k] = 1;
        stack.push([nx, ny]);
      }
    }
    return false;
  }

  // Some control survives `depth` more steps of the longest length.
  function survives(c, depth) {
    if (!alive(c)) return false;
    if (depth === 0) return true;
    for (const ctl of CONTROLS) {
      if (survives(playStep(c, ctl.dir, TIMINGS[TIMINGS.length - 1]), depth - 1)) return true;
    }
    return false;
  }

  // The first control is safe if under every step length the snake lives, can
  // live through more steps and can still reach its tail (no closed pocket).
  function robust(core, ctl) {
    for (const t of TIMINGS) {
      const c = playStep(core, ctl.dir, t);
      if (!survives(c, SAFE_AHEAD) || !tailReachable(c)) return false;
    }
    return true;
  }

  function nextAppleDistance(c) {
    const h = c.snake[0];
    let best = Infinity;
    for (const a of c.apples) best = Math.min(best, Math.abs(a[0] - h[0]) + Math.abs(a[1] - h[1]));
    return best;
  }

  // Breadth-first over every step-level control sequence of DEPTH steps
  // (futures that reach the same head, heading, phase and score merged). Apples
  // respawn from the cloned core's own stream, so meals further ahead are
  // foreseen too. The best future eats the most apples, eats them soonest and
  // ends free (tail reachable) near another apple. Returns the first controls
  // of the futures, best first.
  function rankFirstControls(core) {
    const score0 = core.score;
    const seen = new Set();
    let layer = [{ c: core, first: -1, eaten: 0 }];
    for (let depth = 1; depth <= DEPTH; depth++) {
      const next = [];
      for (const node of layer) {
        CONTROLS.forEach((ctl, i) => {
          const c = playStep(node.c, ctl.dir, NOMINAL_TICKS);
          const k = nodeKey(c);
          if (!alive(c) || seen.has(k)) return;
          seen.add(k);
          // A meal at step d is worth more the sooner it comes.
          const eaten = node.eaten + (c.score - node.c.score) * (DEPTH + 1 - depth);
          next.push({ c: c, first: node.first < 0 ? i : node.first, eaten: eaten });
        });
      }
      if (!next.length) break;
      layer = next;
    }
    const leaves = layer.filter((n) => n.first >= 0 && tailReachable(n.c));
    for (const n of leaves) n.value = n.eaten * 100 - nextAppleDistance(n.c);
    leaves.sort((a, b) => b.value - a.value || b.c.score - score0 - (a.c.score - score0));
    const ranked = [];
    for (const n of leaves) if (!ranked.includes(n.first)) ranked.push(n.first);
    return ranked;
  }

  window.gameOracle = {
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status === "terminal") return { control: "wait", args: {} };
      for (const i of rankFirstControls(core)) {
        if (robust(core, CONTROLS[i])) return { control: CONTROLS[i].control, args: {} };
      }
      // No apple in reach: any control that keeps the snake alive longest.
      for (let depth = 4; depth >= 0; depth--) {
        for (const ctl of CONTROLS) {
          let ok = true;
          for (const t of TIMINGS) ok = ok && survives(playStep(core, ctl.dir, t), depth);
          if (ok) return { control: ctl.control, args: {} };
        }
      }
      return { control: "wait", args: {} };
    },
  };
})();
