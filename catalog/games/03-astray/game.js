// Astray for pytest-gameworld: roll a ball out of a maze seen from above.
//
// Layout of this file:
//   1. constants and helpers (hash, PRNG)                       - pure
//   2. maze generation (randomised Prim's, deterministic retry)  - pure
//   3. createCore(seed, level): the simulation                   - pure, no DOM, no clock
//   4. renderer: cached maze layer, dirty-rectangle ball redraw
//   5. browser shell: keyboard queue, fixed-tick rAF loop, window.gameAPI
//
// The simulation only counts ticks, so a run is a pure function of
// (seed, level, input events per tick). The oracle clones the core through
// window.__gwCore to look ahead.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "03-astray";
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;
  const TICK_MS = 1000 / TICK_HZ;

  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const VIEW_H = H - HUD_H;        // play area below the HUD strip

  const BLOCK = 40;                // one maze block, px
  const BALL_R = 14;
  const ACCEL = 1500;              // px/s^2 toward a held arrow
  const MAX_SPEED = 300;           // px/s, cap on the speed (vector length)
  const DECAY = Math.exp(-DT / 0.12);   // per tick, on an axis without a key
  const RESTITUTION = 0.2;
  const SUBSTEPS = 4;
  const ASSIST_RANGE = 12;         // px from a corridor's centre line
  const ASSIST_SPEED = 200;        // px/s toward that line
  const REST_SPEED = 1;            // below this (no key) the ball stops dead
  const HIT_SPEED = 40;            // impacts faster than this count as wall hits

  // Level -> maze size in cells and the accepted start->exit path length
  // (cells on the path, both ends included).
  const LEVELS = {
    1: { n: 5, minPath: 9, maxPath: 14 },
    2: { n: 7, minPath: 13, maxPath: 22 },
    3: { n: 9, minPath: 18, maxPath: 30 },
    4: { n: 11, minPath: 23, maxPath: 38 },
    5: { n: 13, minPath: 28, maxPath: 46 },
  };

  const DIRS = {
    left: [-1, 0],
    right: [1, 0],
    up: [0, -1],
    down: [0, 1],
  };
  const DIR_STEPS = Object.values(DIRS); // one array for the generator's hot loops
  const KEY_TO_DIR = {
    ArrowLeft: "left",
    ArrowRight: "right",
    ArrowUp: "up",
    ArrowDown: "down",
  };

  const { hash32, makeRng, nextRandom } = window.GameShell;  // seeded randomness (catalog/games/_shell)
  function randInt(rng, n) {
    return Math.floor(nextRandom(rng) * n);
  }

  // ----------------------------------------------------------- 2. maze
  // A perfect maze of n x n cells as a (2n+1) x (2n+1) block grid: cell
  // (c, r) is block (2c+1, 2r+1); the block between two linked cells is open.
  function primMaze(n, rng) {
    const size = 2 * n + 1;
    const open = new Uint8Array(size * size);
    const inMaze = new Uint8Array(n * n);
    const frontier = [];
    const onFrontier = new Uint8Array(n * n);
    const addFrontier = (c, r) => {
      for (const [dx, dy] of DIR_STEPS) {
        const nc = c + dx;
        const nr = r + dy;
        if (nc < 0 || nr < 0 || nc >= n || nr >= n) continue;
        const k = nr * n + nc;
        if (!inMaze[k] && !onFrontier[k]) {
          onFrontier[k] = 1;
          frontier.push(k);
        }
      }
    };
    const first = randInt(rng, n * n);
    inMaze[first] = 1;
    open[(2 * Math.floor(first / n) + 1) * size + 2 * (first % n) + 1] = 1;
    addFrontier(first % n, Math.floor(first / n));
    while (frontier.length) {
      const i = randInt(rng, frontier.length);
      const k = frontier[i];
      frontier[i] = frontier[frontier.length - 1];
      frontier.pop();
      const c = k % n;
      const r = Math.floor(k / n);
      const links = [];
      for (const [dx, dy] of DIR_STEPS) {
        const nc = c + dx;
        const nr = r + dy;
        if (nc >= 0 && nr >= 0 && nc < n && nr < n && inMaze[nr * n + nc]) links.push([dx, dy]);
      }
      const [dx, dy] = links[randInt(rng, links.length)];
      inMaze[k] = 1;
      open[(2 * r + 1) * size + 2 * c + 1] = 1;
      open[(2 * r + 1 + dy) * size + 2 * c + 1 + dx] = 1;
      addFrontier(c, r);
    }
    return { n, size, open };
  }

  // Moves (cell steps) from every cell to the target cell; -1 if unreachable.
  function cellDistances(maze, tc, tr) {
    const { n, size, open } = maze;
    const dist = new Int32Array(n * n).fill(-1);
    const queue = [tr * n + tc];
    dist[queue[0]] = 0;
    for (let h = 0; h < queue.length; h++) {
      const k = queue[h];
      const c = k % n;
      const r = Math.floor(k / n);
      for (const [dx, dy] of DIR_STEPS) {
        const nc = c + dx;
        const nr = r + dy;
        if (nc < 0 || nr < 0 || nc >= n || nr >= n) continue;
        if (!open[(2 * r + 1 + dy) * size + 2 * c + 1 + dx]) continue;
        const nk = nr * n + nc;
        if (dist[nk] < 0) {
          dist[nk] = dist[k] + 1;
          queue.push(nk);
        }
      }
    }
    return dist;
  }

  // The seed picks the start->exit path length, uniformly over the lengths
  // the level's band allows. Corner to corner every path has the parity of
  // the shortest one (2n - 1 cells), so only every other length is possible.
  // Without this pick Prim's mazes mostly take the shortest path (level 1:
  // the 8-move staircase in 87 % of seeds).
  function pathTarget(seed, level) {
    const spec = LEVELS[level];
    const lengths = [];
    for (let cells = 2 * spec.n - 1; cells <= spec.maxPath; cells += 2) {
      if (cells >= spec.minPath) lengths.push(cells);
    }
    return lengths[randInt(makeRng(hash32(GAME_ID, seed, level, "path")), lengths.length)];
  }

  // Deterministic retry (docs/games.md 1.5): sub-seeds k = 0, 1, 2 ... until the
  // start->exit path length is the seed's target; after MAZE_DRAWS draws the
  // one closest to it is kept (the longest lengths are rare under Prim's).
  const MAZE_DRAWS = 400;
  function buildMaze(seed, level) {
    const spec = LEVELS[level];
    const target = pathTarget(seed, level);
    let best = null;
    for (let k = 0; k < MAZE_DRAWS && !(best && best.miss === 0); k++) {
      const rng = makeRng(hash32(GAME_ID, seed, level, "maze", k));
      const maze = primMaze(spec.n, rng);
      const dist = cellDistances(maze, spec.n - 1, 0);
      const miss = Math.abs(dist[(spec.n - 1) * spec.n] + 1 - target);
      if (!best || miss < best.miss) best = { maze, dist, miss, k };
    }
    const maze = best.maze;
    maze.dist = best.dist;
    maze.subSeed = best.k;
    maze.rows = [];
    for (let y = 0; y < maze.size; y++) {
      let row = "";
      for (let x = 0; x < maze.size; x++) row += maze.open[y * maze.size + x] ? "." : "#";
      maze.rows.push(row);
    }
    return maze;
  }

  // A reset replays the same maze: keep the last one built (up to MAZE_DRAWS
  // draws) instead of drawing it again.
  let lastMaze = { key: null, maze: null };
  function mazeFor(seed, level) {
    const key = `${seed}|${level}`;
    if (lastMaze.key !== key) lastMaze = { key, maze: buildMaze(seed, level) };
    return lastMaze.maze;
  }

  // ----------------------------------------------------------- 3. core
  function createCore(seed, level) {
    const maze = mazeFor(seed, level);
    const n = maze.n;
    const core = new Core();
    core.seed = seed;
    core.level = level;
    core.maze = maze;                       // immutable after build; shared by clones
    // The runtime stream is reserved: Astray has no runtime randomness, and a
    // separate stream keeps any future use from shifting the maze.
    core.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    core.exitCell = [n - 1, 0];
    core.startCell = [0, n - 1];
    core.x = cellCentre(0);
    core.y = cellCentre(n - 1);
    core.vx = 0;
    core.vy = 0;
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.playTicks = 0;
    core.wallHits = 0;
    core.moves = 0;
    core.d0 = maze.dist[(n - 1) * n];
    core.updateCell();
    return core;
  }

  function cellCentre(i) {
    return (2 * i + 1) * BLOCK + BLOCK / 2;
  }

  function Core() {}

  Core.prototype.isWall = function (bx, by) {
    const size = this.maze.size;
    if (bx < 0 || by < 0 || bx >= size || by >= size) return true;
    return !this.maze.open[by * size + bx];
  };

  // The ball's cell is the nearest cell centre; the distance is in moves.
  Core.prototype.updateCell = function () {
    const n = this.maze.n;
    const clampCell = (v) => Math.max(0, Math.min(n - 1, Math.round((v - cellCentre(0)) / (2 * BLOCK))));
    this.col = clampCell(this.x);
    this.row = clampCell(this.y);
    this.dist = this.maze.dist[this.row * n + this.col];
    const ex = cellCentre(this.exitCell[0]);
    const ey = cellCentre(this.exitCell[1]);
    this.onPad = Math.abs(this.x - ex) < BLOCK / 2 && Math.abs(this.y - ey) < BLOCK / 2;
  };

  // The share of the start's path distance solved, in [0, 1]: 1 only on the
  // exit pad (the exit cell's doorway counts half a move), 0 anywhere at
  // least as far from the exit as the start (a dead end off the start side).
  Core.prototype.completion = function () {
    if (this.onPad || this.reason === "exit_reached") return 1;
    const d = this.dist === 0 ? 0.5 : this.dist;
    return Math.max(0, Math.round((1 - d / this.d0) * 1000) / 1000);
  };

  // input = {held: Set of "left"/"right"/"up"/"down", pressed: count of new presses}
  Core.prototype.tick = function (input) {
    if (this.status !== "playing") return;
    this.playTicks++;
    const held = (input && input.held) || new Set();
    this.moves += (input && input.pressed) || 0;
    const ax = (held.has("right") ? 1 : 0) - (held.has("left") ? 1 : 0);
    const ay = (held.has("down") ? 1 : 0) - (held.has("up") ? 1 : 0);
    if (ax) this.vx += ax * ACCEL * DT;
    else this.vx *= DECAY;
    if (ay) this.vy += ay * ACCEL * DT;
    else this.vy *= DECAY;
    const speed = Math.hypot(this.vx, this.vy);
    if (speed > MAX_SPEED) {
      this.vx *= MAX_SPEED / speed;
      this.vy *= MAX_SPEED / speed;
    }
    if (!ax && Math.abs(this.vx) < REST_SPEED) this.vx = 0;
    if (!ay && Math.abs(this.vy) < REST_SPEED) this.vy = 0;
    if (ax && !ay) this.assist(ax, 0);
    if (ay && !ax) this.assist(0, ay);
    for (let s = 0; s < SUBSTEPS; s++) {
      this.x += this.vx * DT / SUBSTEPS;
      this.y += this.vy * DT / SUBSTEPS;
      this.collide();
    }
    this.updateCell();
    if (this.onPad) {
      this.status = "terminal";
      this.outcome = "success";
      this.reason = "exit_reached";
    }
  };

  // Corner assist: a key pointing into an opening pulls the ball onto that
  // corridor's centre line (within ASSIST_RANGE) so it can turn into it.
  Core.prototype.assist = function (dx, dy) {
    const bx = Math.floor(this.x / BLOCK);
    const by = Math.floor(this.y / BLOCK);
    if (this.isWall(bx + dx, by + dy)) return;
    if (dx) {
      const off = (by + 0.5) * BLOCK - this.y;
      if (Math.abs(off) <= ASSIST_RANGE) this.vy = Math.sign(off) * Math.min(ASSIST_SPEED, Math.abs(off) / DT);
    } else {
      const off = (bx + 0.5) * BLOCK - this.x;
      if (Math.abs(off) <= ASSIST_RANGE) this.vx = Math.sign(off) * Math.min(ASSIST_SPEED, Math.abs(off) / DT);
    }
  };

  // Circle against the wall blocks it overlaps: push out along the contact
  // normal and reflect the inward velocity with the restitution.
  Core.prototype.collide = function () {
    const x0 = Math.floor((this.x - BALL_R) / BLOCK);
    const x1 = Math.floor((this.x + BALL_R) / BLOCK);
    const y0 = Math.floor((this.y - BALL_R) / BLOCK);
    const y1 = Math.floor((this.y + BALL_R) / BLOCK);
    for (let by = y0; by <= y1; by++) {
      for (let bx = x0; bx <= x1; bx++) {
        if (!this.isWall(bx, by)) continue;
        const cx = Math.max(bx * BLOCK, Math.min(this.x, (bx + 1) * BLOCK));
        const cy = Math.max(by * BLOCK, Math.min(this.y, (by + 1) * BLOCK));
        const ddx = this.x - cx;
        const ddy = this.y - cy;
        const d2 = ddx * ddx + ddy * ddy;
        if (d2 >= BALL_R * BALL_R || d2 === 0) continue;
        const d = Math.sqrt(d2);
        const nx = ddx / d;
        const ny = ddy / d;
        this.x += nx * (BALL_R - d);
        this.y += ny * (BALL_R - d);
        const vn = this.vx * nx + this.vy * ny;
        if (vn < 0) {
          if (vn < -HIT_SPEED) this.wallHits++;
          this.vx -= (1 + RESTITUTION) * vn * nx;
          this.vy -= (1 + RESTITUTION) * vn * ny;
        }
      }
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.runtimeRng = { s: this.runtimeRng.s };
    c.exitCell = this.exitCell.slice();
    c.startCell = this.startCell.slice();
    return c;
  };

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const completion = this.completion();
    return {
      status: this.status,
      terminal: {
        isTerminal: this.status === "terminal",
        outcome: this.outcome,
        reason: this.reason,
      },
      gameTimeMs: Math.round(this.playTicks * TICK_MS),
      game_state: {
        completion_progress: completion,
        level: this.level,
        score: Math.round(100 * completion),
        player: {
          x: this.x, y: this.y, vx: this.vx, vy: this.vy,
          cell: [this.col, this.row], alive: true,
        },
        maze: { cols: this.maze.n, rows: this.maze.n, grid: this.maze.rows.slice() },
        exit: { cell: this.exitCell.slice() },
        start: { cell: this.startCell.slice() },
      },
      metrics: {
        primary_score: Math.round(100 * completion),
        distance_to_goal: this.onPad ? 0 : this.dist,
        path_length_start: this.d0,
        wall_hits: this.wallHits,
        moves: this.moves,
      },
      raw: {
        block_px: BLOCK,
        ball_radius: BALL_R,
        play_ticks: this.playTicks,
        maze_sub_seed: this.maze.subSeed,
      },
    };
  };

  // ----------------------------------------------------------- 4. renderer
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    background: "#15181D",
    floor: "#2E3742",
    floorLine: "#35404C",
    wallTop: "#C9C2B4",
    wallTopEdge: "#A39B8B",
    wallSouth: "#6F6759",
    wallEast: "#575046",
    pad: "#2ECC71",
    padGlow: "rgba(46,204,113,0.35)",
    startMark: "rgba(255,255,255,0.18)",
  };
  const EXTRUDE = 8;               // south/east faces of the raised walls
  const MARGIN = 16;               // layer border around the maze

  function hudText(str, x, y, font, align) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#111";
    ctx.strokeText(str, x, y);
    ctx.fillStyle = "#fff";
    ctx.fillText(str, x, y);
  }

  // The maze (floor, raised walls, exit pad) is painted once per maze into a
  // spare canvas; frames copy it at the camera offset.
  let layer = null;
  let layerMaze = null;
  function mazeLayer(maze, exitCell, startCell) {
    if (layerMaze === maze) return layer;
    const span = maze.size * BLOCK;
    layer = document.createElement("canvas");
    layer.width = span + 2 * MARGIN;
    layer.height = span + 2 * MARGIN;
    const g = layer.getContext("2d");
    g.translate(MARGIN, MARGIN);
    g.fillStyle = COLORS.floor;
    g.fillRect(0, 0, span, span);
    g.strokeStyle = COLORS.floorLine;
    g.lineWidth = 1;
    g.beginPath();
    for (let i = 0; i <= maze.size; i++) {
      g.moveTo(i * BLOCK + 0.5, 0);
      g.lineTo(i * BLOCK + 0.5, span);
      g.moveTo(0, i * BLOCK + 0.5);
      g.lineTo(span, i * BLOCK + 0.5);
    }
    g.stroke();
    // exit pad with a glow, and a faint ring on the start cell
    const ex = cellCentre(exitCell[0]);
    const ey = cellCentre(exitCell[1]);
    const glow = g.createRadialGradient(ex, ey, 6, ex, ey, 44);
    glow.addColorStop(0, "rgba(46,204,113,0.9)");
    glow.addColorStop(1, "rgba(46,204,113,0)");
    g.fillStyle = glow;
    g.fillRect(ex - 44, ey - 44, 88, 88);
    g.fillStyle = COLORS.pad;
    g.fillRect(ex - 18, ey - 18, 36, 36);
    g.strokeStyle = "#E8FFF0";
    g.lineWidth = 2;
    g.strokeRect(ex - 18, ey - 18, 36, 36);
    g.strokeStyle = COLORS.startMark;
    g.lineWidth = 3;
    g.beginPath();
    g.arc(cellCentre(startCell[0]), cellCentre(startCell[1]), 17, 0, Math.PI * 2);
    g.stroke();
    // raised walls: dark side faces first, then the light tops over them
    const wall = (bx, by) => !maze.open[by * maze.size + bx];
    for (let by = 0; by < maze.size; by++) {
      for (let bx = 0; bx < maze.size; bx++) {
        if (!wall(bx, by)) continue;
        const x = bx * BLOCK;
        const y = by * BLOCK;
        g.fillStyle = COLORS.wallSouth;
        g.beginPath();
        g.moveTo(x, y + BLOCK);
        g.lineTo(x + BLOCK, y + BLOCK);
        g.lineTo(x + BLOCK + EXTRUDE, y + BLOCK + EXTRUDE);
        g.lineTo(x + EXTRUDE, y + BLOCK + EXTRUDE);
        g.fill();
        g.fillStyle = COLORS.wallEast;
        g.beginPath();
        g.moveTo(x + BLOCK, y);
        g.lineTo(x + BLOCK + EXTRUDE, y + EXTRUDE);
        g.lineTo(x + BLOCK + EXTRUDE, y + BLOCK + EXTRUDE);
        g.lineTo(x + BLOCK, y + BLOCK);
        g.fill();
      }
    }
    g.fillStyle = COLORS.wallTop;
    for (let by = 0; by < maze.size; by++) {
      for (let bx = 0; bx < maze.size; bx++) {
        if (wall(bx, by)) g.fillRect(bx * BLOCK, by * BLOCK, BLOCK, BLOCK);
      }
    }
    // a thin edge where a wall top meets open floor, so corridors read crisply
    g.strokeStyle = COLORS.wallTopEdge;
    g.lineWidth = 2;
    g.beginPath();
    for (let by = 0; by < maze.size; by++) {
      for (let bx = 0; bx < maze.size; bx++) {
        if (!wall(bx, by)) continue;
        const x = bx * BLOCK;
        const y = by * BLOCK;
        if (by > 0 && !wall(bx, by - 1)) { g.moveTo(x, y + 1); g.lineTo(x + BLOCK, y + 1); }
        if (bx > 0 && !wall(bx - 1, by)) { g.moveTo(x + 1, y); g.lineTo(x + 1, y + BLOCK); }
      }
    }
    g.stroke();
    // "EXIT" on the outer wall just above the pad
    g.font = "bold 20px sans-serif";
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillStyle = "#1E7A45";
    g.fillText("EXIT", ex, ey - BLOCK - 2);
    layerMaze = maze;
    return layer;
  }

  // The ball sprite (shadow, silver body, highlight, blue player ring) is
  // drawn once; a frame only blits it.
  const SPRITE = 48;
  let ballSprite = null;
  function ballImage() {
    if (ballSprite) return ballSprite;
    ballSprite = document.createElement("canvas");
    ballSprite.width = SPRITE;
    ballSprite.height = SPRITE;
    const g = ballSprite.getContext("2d");
    const c = SPRITE / 2 - 3;
    const shadow = g.createRadialGradient(c + 5, c + 6, 4, c + 5, c + 6, BALL_R + 5);
    shadow.addColorStop(0, "rgba(0,0,0,0.55)");
    shadow.addColorStop(1, "rgba(0,0,0,0)");
    g.fillStyle = shadow;
    g.fillRect(0, 0, SPRITE, SPRITE);
    const body = g.createRadialGradient(c - 5, c - 6, 2, c, c, BALL_R);
    body.addColorStop(0, "#FFFFFF");
    body.addColorStop(0.35, "#D7DDE4");
    body.addColorStop(1, "#7C8794");
    g.fillStyle = body;
    g.beginPath();
    g.arc(c, c, BALL_R, 0, Math.PI * 2);
    g.fill();
    g.strokeStyle = "#2D7DF6";
    g.lineWidth = 3;
    g.beginPath();
    g.arc(c, c, BALL_R - 1.5, 0, Math.PI * 2);
    g.stroke();
    return ballSprite;
  }
  const SPRITE_OFF = SPRITE / 2 - 3;    // sprite px from its corner to the ball centre

  // Camera: the top-left world point shown at canvas (0, HUD_H). Centred on
  // the ball, clamped to the maze; a maze smaller than the view is centred.
  function camera(core) {
    const span = core.maze.size * BLOCK;
    const axis = (pos, view) => {
      if (span + EXTRUDE <= view) return Math.round((span + EXTRUDE - view) / 2);
      return Math.round(Math.max(-MARGIN / 2, Math.min(span + EXTRUDE + MARGIN / 2 - view, pos - view / 2)));
    };
    return { x: axis(core.x, W), y: axis(core.y, VIEW_H) };
  }

  // Paint the scene (background + maze layer) into a canvas rectangle.
  function paintScene(core, cam, rx, ry, rw, rh) {
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(rx, ry, rw, rh);
    const img = mazeLayer(core.maze, core.exitCell, core.startCell);
    // canvas (rx, ry) shows world (rx + cam.x, ry - HUD_H + cam.y) = layer + MARGIN
    let sx = rx + cam.x + MARGIN;
    let sy = ry - HUD_H + cam.y + MARGIN;
    let dx = rx;
    let dy = ry;
    let w = rw;
    let h = rh;
    if (sx < 0) { dx -= sx; w += sx; sx = 0; }
    if (sy < 0) { dy -= sy; h += sy; sy = 0; }
    w = Math.min(w, img.width - sx);
    h = Math.min(h, img.height - sy);
    if (w > 0 && h > 0) ctx.drawImage(img, sx, sy, w, h, dx, dy, w, h);
  }

  function ballRect(core, cam) {
    const x = Math.round(core.x - cam.x) - SPRITE_OFF;
    const y = Math.round(core.y - cam.y) + HUD_H - SPRITE_OFF;
    return { x, y };
  }

  function hudLines(core) {
    const pct = Math.round(core.completion() * 100);
    return {
      left: "Astray",
      level: "Level " + core.level + "  (" + core.maze.n + "\u00D7" + core.maze.n + ")",
      centre: "Progress " + pct + "%",
      right: "Cells to exit " + (core.onPad ? 0 : core.dist),
    };
  }

  function drawHud(core) {
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, W, HUD_H);
    ctx.fillStyle = "rgba(0,0,0,0.55)";
    ctx.fillRect(0, 0, W, HUD_H);
    const t = hudLines(core);
    hudText(t.left, 20, HUD_H / 2, "bold 28px sans-serif", "left");
    hudText(t.level, 140, HUD_H / 2 + 1, "20px sans-serif", "left");
    hudText(t.centre, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    hudText(t.right, W - 20, HUD_H / 2, "20px sans-serif", "right");
  }

  function drawTerminal(core) {
    const pw = 560;
    const ph = 150;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2;
    ctx.fillStyle = "rgba(0,0,0,0.65)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    hudText("LEVEL COMPLETE", W / 2, py + 50, "bold 36px sans-serif", "center");
    hudText("Progress 100%", W / 2, py + 98, "bold 28px sans-serif", "center");
    if (!window.__GW_HARNESS__) hudText("Press Enter to play again", W / 2, py + 130, "20px sans-serif", "center");
  }

  // What is on screen; a frame repaints only what differs from it.
  let drawn = null;

  function renderFull(core) {
    if (!core) {
      ctx.fillStyle = COLORS.background;
      ctx.fillRect(0, 0, W, H);
      drawn = null;
      return;
    }
    const cam = camera(core);
    paintScene(core, cam, 0, HUD_H, W, VIEW_H);
    const b = ballRect(core, cam);
    ctx.drawImage(ballImage(), b.x, b.y);
    drawHud(core);
    if (core.status === "terminal") drawTerminal(core);
    drawn = { core, cam, ball: b, hud: JSON.stringify(hudLines(core)), status: core.status };
  }

  // Repaint the ball's old and new rectangles when only the ball moved under a
  // still camera; anything else (camera, status, episode) repaints everything.
  function render(core) {
    if (!core || !drawn || drawn.core !== core || drawn.status !== core.status) {
      renderFull(core);
      return;
    }
    const cam = camera(core);
    if (cam.x !== drawn.cam.x || cam.y !== drawn.cam.y) {
      renderFull(core);
      return;
    }
    const b = ballRect(core, cam);
    if (b.x !== drawn.ball.x || b.y !== drawn.ball.y) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, HUD_H, W, VIEW_H);
      ctx.clip();
      paintScene(core, cam, drawn.ball.x, drawn.ball.y, SPRITE, SPRITE);
      ctx.drawImage(ballImage(), b.x, b.y);
      ctx.restore();
      drawn.ball = b;
    }
    const hud = JSON.stringify(hudLines(core));
    if (hud !== drawn.hud) {
      drawHud(core);
      drawn.hud = hud;
    }
  }

  // ----------------------------------------------------------- 5. browser shell
  const Shell = window.GameShell;
  let core = null;
  const keys = Shell.keyboard({
    keys: ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Enter"],
    // Humans restart from the end panel; the harness resets by API.
    onDown(key) {
      if (key !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // Drain the queue into this tick's held directions; a key pressed and
  // released between two ticks still counts as held for that one tick.
  function takeInput() {
    const dirs = new Set();
    let pressed = 0;
    for (const ev of keys.drain()) {
      const dir = KEY_TO_DIR[ev.key];
      if (!dir) continue;
      if (ev.down) {
        if (!keys.held.has(ev.key)) pressed++;
        keys.held.add(ev.key);
        dirs.add(dir);
      } else {
        keys.held.delete(ev.key);
      }
    }
    for (const k of keys.held) dirs.add(KEY_TO_DIR[k]);
    return { held: dirs, pressed };
  }

  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const input = takeInput();
      if (core) core.tick(input);
    },
    render: () => render(core),
  });

  function pickLevel(l) {
    const v = Number(l);
    if (LEVELS[v]) return v;
    console.warn(GAME_ID + ": no level " + l + "; using level 1");
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      renderFull(core);              // the first screenshot is already current
    },
  });

  const api = {
    capabilities: {
      supports_seed: true,
      supports_inplace_reset: true,
      supports_level_select: true,
    },
    init: ep.init,
    reset: ep.reset,
    getState() {
      if (!core) {
        return {
          gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: 0, status: "loading",
          terminal: { isTerminal: false, outcome: null, reason: null },
          game_state: { completion_progress: 0, level: ep.level, score: 0, player: { x: 0, y: 0, alive: true } },
          metrics: { primary_score: 0, distance_to_goal: 0, path_length_start: 0, wall_hits: 0, moves: 0, attempts: 0 },
          raw: {},
        };
      }
      const s = core.snapshot();
      s.metrics.attempts = ep.attempts;
      // Date.now() is the harness's virtual clock, so this stays deterministic.
      return {
        gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: s.gameTimeMs,
        status: s.status, terminal: s.terminal, game_state: s.game_state, metrics: s.metrics, raw: s.raw,
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => renderFull(null), loop });
})();
