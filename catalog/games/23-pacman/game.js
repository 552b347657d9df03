// Pac-Man for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer (maze and pellets cached on offscreen layers), a keyboard
// queue, one requestAnimationFrame loop with fixed 1/60 s ticks, and
// window.gameAPI. The oracle clones the core through window.__gwCore.
(function () {
  "use strict";

  const GAME_ID = "23-pacman";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 23). Positions are integers in sub-tile units:
  // a tile is U = 2400 units, so every speed (tiles/s x 40 units per tick) and
  // its +5 % per maze is a whole number and tile centres are hit exactly.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const COLS = 28;
  const ROWS = 31;
  const TILE = 20;                 // px
  const MAZE_X = 360;
  const MAZE_Y = 70;
  const U = 2400;
  const HALF = U / 2;
  const TUNNEL_ROW = 14;
  const TUNNEL_SLOW_COLS = 5;      // tunnel tiles at each end (ghosts slow down)

  const SPEED = {                  // tiles per second
    pac: 7.5,
    pacPowered: 8.5,
    ghost: 7,
    ghostTunnel: 3.5,
    frightened: 4,
    eyes: 14,
    house: 3.5,
  };
  const MAZE_SPEEDUP = 0.05;       // per cleared maze

  const LIVES = 3;
  const READY_TICKS = 60;          // 1 s "READY!" at the start and after a death
  const POWER_TICKS = 6 * TICK_HZ;
  const FLASH_TICKS = 2 * TICK_HZ;
  // Scatter/chase schedule in seconds: scatter, chase, scatter, chase, scatter, then chase.
  const MODE_SCHEDULE = [7, 20, 7, 20, 5].map((s) => s * TICK_HZ);
  const PELLET_POINTS = 10;
  const POWER_POINTS = 50;
  const GHOST_POINTS = [200, 400, 800, 1600];
  const CATCH_DIST = Math.round(0.75 * U);   // Manhattan distance of a catch

  // Our own maze, left-right symmetric. '#' wall, '.' pellet, 'o' power pellet,
  // ' ' empty floor, '-' ghost-house door. Row 14 wraps at both ends.
  const MAZE = [
    "############################",
    "#............##............#",
    "#.###.###.##.##.##.###.###.#",
    "#o###.###.##.##.##.###.###o#",
    "#.###.###.##.##.##.###.###.#",
    "#..........................#",
    "#.###.##.##########.##.###.#",
    "#.###.##.##########.##.###.#",
    "#.....##.          .##.....#",
    "##### ##### #### ##### #####",
    "##### ##### #### ##### #####",
    "##### ###          ### #####",
    "##### ### ###--### ### #####",
    "##### ### #      # ### #####",
    "     .    #      #    .     ",
    "##### ### #      # ### #####",
    "##### ### ######## ### #####",
    "##### ###          ### #####",
    "##### ###.########.### #####",
    "#............##............#",
    "#.###.####.#.##.#.####.###.#",
    "#o.##.####.#.##.#.####.##.o#",
    "##.##......#.##.#......##.##",
    "##.##.###.##.##.##.###.##.##",
    "#.....###....##....###.....#",
    "#.#######.########.#######.#",
    "#.#######.########.#######.#",
    "#............  ............#",
    "#.###.####.#.##.#.####.###.#",
    "#.....####...##...####.....#",
    "############################",
  ];
  const TOTAL_DOTS = MAZE.reduce((n, row) => n + row.split("").filter((ch) => ch === "." || ch === "o").length, 0);

  // Start positions (units). Pac-Man and the house ghosts sit between two
  // tiles, as in the original; the house door spans columns 13-14 of row 12.
  const PAC_START = { x: 14 * U, y: 27 * U + HALF };
  const DOOR_X = 14 * U;
  const ABOVE_DOOR_Y = 11 * U + HALF;
  const HOUSE_Y = 14 * U + HALF;
  const GHOSTS = [
    { name: "blinky", x: DOOR_X, y: ABOVE_DOOR_Y, home: "out", corner: [25, -3], release: 0, stagger: 0 },
    { name: "pinky", x: DOOR_X, y: HOUSE_Y, home: "house", corner: [2, -3], release: 0, stagger: 0 },
    { name: "inky", x: 12 * U, y: HOUSE_Y, home: "house", corner: [27, 31], release: 30, stagger: 60 },
    { name: "clyde", x: 16 * U, y: HOUSE_Y, home: "house", corner: [0, 31], release: 60, stagger: 120 },
  ];

  const DIRS = {
    up: { dx: 0, dy: -1 },
    left: { dx: -1, dy: 0 },
    down: { dx: 0, dy: 1 },
    right: { dx: 1, dy: 0 },
  };
  const DIR_ORDER = ["up", "left", "down", "right"];   // the original's tie order
  const OPPOSITE = { up: "down", down: "up", left: "right", right: "left" };
  const KEY_DIR = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

  // ---------------------------------------------------------------------------
  // Deterministic randomness (frightened ghosts' turns only)
  // ---------------------------------------------------------------------------
  // FNV-1a over the parts joined by "|" and mulberry32 on {s} (catalog/games/_shell).
  const { fnv32: hash32, nextRandom: rngNext } = window.GameShell;

  // ---------------------------------------------------------------------------
  // Maze geometry
  // ---------------------------------------------------------------------------
  function wrapCol(c) {
    return ((c % COLS) + COLS) % COLS;
  }

  // Walls and the door block; everything outside the grid is wall except the
  // tunnel row, which wraps.
  function blocked(c, r, throughDoor) {
    if (r < 0 || r >= ROWS) return true;
    if (c < 0 || c >= COLS) {
      if (r !== TUNNEL_ROW) return true;
      c = wrapCol(c);
    }
    const ch = MAZE[r][c];
    return ch === "#" || (ch === "-" && !throughDoor);
  }

  function tileOf(v) {
    return Math.floor(v / U);
  }

  function atCentre(e) {
    return e.x % U === HALF && e.y % U === HALF;
  }

  // Distance (units) from e to the next tile centre ahead in its direction.
  function toNextCentre(e) {
    const d = DIRS[e.dir];
    const v = d.dx !== 0 ? e.x : e.y;
    const s = d.dx + d.dy;
    const off = ((v - HALF) % U + U) % U;   // distance past the last centre
    if (off === 0) return U;
    return s > 0 ? U - off : off;
  }

  function moveBy(e, dist) {
    const d = DIRS[e.dir];
    e.x += d.dx * dist;
    e.y += d.dy * dist;
    if (e.x < 0) e.x += COLS * U;
    if (e.x >= COLS * U) e.x -= COLS * U;
  }

  function perTick(tilesPerSecond, maze) {
    return Math.round(tilesPerSecond * U / TICK_HZ * (1 + MAZE_SPEEDUP * (maze - 1)));
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------
  function Core() {}

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // The maze is hand-made and, as in the original, frightened ghosts turn by
    // a PRNG that restarts identically every game, so the seed changes nothing
    // (capabilities.supports_seed = false). Two streams all the same (docs/games.md
    // 1.5): the level stream is unused, the runtime one drives those turns.
    core.levelRng = { s: hash32(GAME_ID, level) };
    core.runtimeRng = { s: hash32(GAME_ID, level, "runtime") };
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.score = 0;
    core.lives = LIVES;
    core.maze = 1;
    core.pelletsEaten = 0;        // whole episode
    core.mazeEaten = 0;           // this maze (ghost releases)
    core.ghostsEaten = 0;
    core.deaths = 0;
    core.dots = MAZE.slice();      // the maze rows with the pellets still there
    core.dotsLeft = TOTAL_DOTS;
    core.modeIndex = 0;
    core.modeTicks = 0;
    core.powerTicks = 0;
    core.chain = 0;
    core.startRound();
    core.readyTicks = 0;          // no pause at the start: Pac-Man waits for a key anyway
    return core;
  }

  // Positions back to the start, 1 s "READY!"; pellets, score and lives stay.
  Core.prototype.startRound = function () {
    this.readyTicks = READY_TICKS;
    this.roundTicks = 0;
    this.powerTicks = 0;
    this.chain = 0;
    this.pac = { x: PAC_START.x, y: PAC_START.y, dir: "left", nextDir: null, moving: false, started: false };
    this.ghosts = GHOSTS.map((g) => ({
      name: g.name,
      x: g.x,
      y: g.y,
      dir: g.home === "out" ? "left" : "up",
      mode: g.home === "out" ? "active" : "house",   // house | exiting | active | eaten | entering
      frightened: false,
    }));
  };

  Core.prototype.globalMode = function () {
    return this.modeIndex % 2 === 0 && this.modeIndex < MODE_SCHEDULE.length ? "scatter" : "chase";
  };

  Core.prototype.ghostMode = function (g) {
    if (g.mode === "house" || g.mode === "exiting" || g.mode === "entering") return "house";
    if (g.mode === "eaten") return "eaten";
    if (g.frightened) return "frightened";
    return this.globalMode();
  };

  // input = {dirs: [direction, ...]}: this tick's arrow press edges in order.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    const dirs = (input && input.dirs) || [];
    const pac = this.pac;
    for (const d of dirs) pac.nextDir = d;   // the last press wins
    if (this.readyTicks > 0) {
      this.readyTicks--;
      return;
    }
    this.roundTicks++;
    this.updateModes();
    this.movePac();
    this.eat();
    if (this.status !== "playing" || this.readyTicks > 0) return;
    this.checkCatch();
    if (this.status !== "playing" || this.readyTicks > 0) return;
    for (const g of this.ghosts) this.moveGhost(g);
    this.checkCatch();
  };

  Core.prototype.updateModes = function () {
    if (this.powerTicks > 0) {
      this.powerTicks--;
      if (this.powerTicks === 0) {
        for (const g of this.ghosts) g.frightened = false;
      }
      return;                      // the scatter/chase clock pauses while frightened
    }
    if (this.modeIndex >= MODE_SCHEDULE.length) return;
    this.modeTicks++;
    if (this.modeTicks >= MODE_SCHEDULE[this.modeIndex]) {
      this.modeIndex++;
      this.modeTicks = 0;
      // A mode change makes every roaming ghost reverse.
      for (const g of this.ghosts) if (g.mode === "active") g.dir = OPPOSITE[g.dir];
    }
  };

  // ---- Pac-Man ----
  Core.prototype.pacSpeed = function () {       // units per tick
    return perTick(this.powerTicks > 0 ? SPEED.pacPowered : SPEED.pac, this.maze);
  };

  Core.prototype.movePac = function () {
    const pac = this.pac;
    if (!pac.started) {
      if (!pac.nextDir) return;    // he waits for the first arrow key
      pac.started = true;
      pac.moving = true;
      if (pac.nextDir === "left" || pac.nextDir === "right") {
        pac.dir = pac.nextDir;
        pac.nextDir = null;
      }
    }
    // A reversal is taken at once, anywhere (as in the original).
    if (pac.nextDir && pac.nextDir === OPPOSITE[pac.dir]) {
      pac.dir = pac.nextDir;
      pac.nextDir = null;
      pac.moving = true;
    }
    let dist = this.pacSpeed();
    while (dist > 0) {
      if (atCentre(pac)) {
        const c = tileOf(pac.x);
        const r = tileOf(pac.y);
        if (pac.nextDir && !blocked(c + DIRS[pac.nextDir].dx, r + DIRS[pac.nextDir].dy, false)) {
          pac.dir = pac.nextDir;
          pac.nextDir = null;
        }
        pac.moving = !blocked(c + DIRS[pac.dir].dx, r + DIRS[pac.dir].dy, false);
        if (!pac.moving) return;
      }
      const step = Math.min(dist, toNextCentre(pac));
      moveBy(pac, step);
      dist -= step;
    }
  };

  Core.prototype.eat = function () {
    if (!this.pac.started) return;
    const c = wrapCol(tileOf(this.pac.x));
    const r = tileOf(this.pac.y);
    const ch = this.dots[r][c];
    if (ch !== "." && ch !== "o") return;
    this.dots[r] = this.dots[r].slice(0, c) + " " + this.dots[r].slice(c + 1);
    this.dotsLeft--;
    this.pelletsEaten++;
    this.mazeEaten++;
    if (ch === ".") {
      this.score += PELLET_POINTS;
    } else {
      this.score += POWER_POINTS;
      this.powerTicks = POWER_TICKS;
      this.chain = 0;
      for (const g of this.ghosts) {
        if (g.mode === "active") {
          if (!g.frightened) g.dir = OPPOSITE[g.dir];
          g.frightened = true;
        }
      }
    }
    if (this.dotsLeft === 0) this.nextMaze();
  };

  // Maze cleared: the same maze again, refilled, everyone 5 % faster. Not terminal.
  Core.prototype.nextMaze = function () {
    this.maze++;
    this.dots = MAZE.slice();
    this.dotsLeft = TOTAL_DOTS;
    this.mazeEaten = 0;
    this.modeIndex = 0;
    this.modeTicks = 0;
    this.startRound();
  };

  Core.prototype.checkCatch = function () {
    const pac = this.pac;
    for (const g of this.ghosts) {
      if (g.mode !== "active") continue;
      let dx = Math.abs(g.x - pac.x);
      dx = Math.min(dx, COLS * U - dx);
      if (dx + Math.abs(g.y - pac.y) >= CATCH_DIST) continue;
      if (g.frightened) {
        this.score += GHOST_POINTS[Math.min(this.chain, GHOST_POINTS.length - 1)];
        this.chain++;
        this.ghostsEaten++;
        g.frightened = false;
        g.mode = "eaten";
      } else {
        this.loseLife();
        return;
      }
    }
  };

  Core.prototype.loseLife = function () {
    this.lives--;
    this.deaths++;
    if (this.lives <= 0) {
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "out_of_lives";
      return;
    }
    this.startRound();
  };

  // ---- Ghosts ----
  Core.prototype.chaseTarget = function (g) {
    const pac = this.pac;
    const pc = tileOf(pac.x);
    const pr = tileOf(pac.y);
    const d = DIRS[pac.dir];
    if (g.name === "blinky") return [pc, pr];
    if (g.name === "pinky") return [pc + 4 * d.dx, pr + 4 * d.dy];
    if (g.name === "inky") {
      const b = this.ghosts[0];
      const ax = pc + 2 * d.dx;
      const ay = pr + 2 * d.dy;
      return [2 * ax - tileOf(b.x), 2 * ay - tileOf(b.y)];
    }
    // clyde: Pac-Man while more than 8 tiles away, else his corner
    const dx = tileOf(g.x) - pc;
    const dy = tileOf(g.y) - pr;
    return dx * dx + dy * dy > 64 ? [pc, pr] : GHOSTS[3].corner;
  };

  Core.prototype.target = function (g, idx) {
    if (g.mode === "eaten") return [13, 11];
    if (this.globalMode() === "scatter") return GHOSTS[idx].corner;
    return this.chaseTarget(g);
  };

  // At a tile centre: the open direction (no reversal, no door) whose next
  // tile is closest to the target; frightened ghosts pick one at random.
  Core.prototype.chooseDir = function (g, idx) {
    const c = tileOf(g.x);
    const r = tileOf(g.y);
    const options = DIR_ORDER.filter((d) => d !== OPPOSITE[g.dir] && !blocked(c + DIRS[d].dx, r + DIRS[d].dy, false));
    if (!options.length) return OPPOSITE[g.dir];
    if (g.frightened) return options[Math.floor(rngNext(this.runtimeRng) * options.length)];
    const t = this.target(g, idx);
    let best = options[0];
    let bestD = Infinity;
    for (const d of options) {
      const dx = c + DIRS[d].dx - t[0];
      const dy = r + DIRS[d].dy - t[1];
      const dd = dx * dx + dy * dy;
      if (dd < bestD) {
        bestD = dd;
        best = d;
      }
    }
    return best;
  };

  Core.prototype.ghostSpeed = function (g) {
    if (g.mode === "eaten") return perTick(SPEED.eyes, this.maze);
    if (g.mode !== "active") return perTick(SPEED.house, this.maze);
    if (g.frightened) return perTick(SPEED.frightened, this.maze);
    const c = wrapCol(tileOf(g.x));
    if (tileOf(g.y) === TUNNEL_ROW && (c < TUNNEL_SLOW_COLS || c >= COLS - TUNNEL_SLOW_COLS)) {
      return perTick(SPEED.ghostTunnel, this.maze);
    }
    return perTick(SPEED.ghost, this.maze);
  };

  Core.prototype.released = function (idx) {
    const spec = GHOSTS[idx];
    return this.mazeEaten >= spec.release && this.roundTicks >= spec.stagger;
  };

  // Scripted walk in straight lines to a point (house exits and entries).
  function walkTo(g, x, y, dist) {
    const dx = x - g.x;
    const sx = Math.sign(dx);
    const stepX = Math.min(dist, Math.abs(dx));
    g.x += sx * stepX;
    dist -= stepX;
    const dy = y - g.y;
    const stepY = Math.min(dist, Math.abs(dy));
    g.y += Math.sign(dy) * stepY;
    if (sx !== 0 && stepX > 0) g.dir = sx > 0 ? "right" : "left";
    else if (dy !== 0) g.dir = dy > 0 ? "down" : "up";
    return g.x === x && g.y === y;
  }

  Core.prototype.moveGhost = function (g) {
    const idx = this.ghosts.indexOf(g);
    let dist = this.ghostSpeed(g);
    if (g.mode === "house") {
      if (this.released(idx)) g.mode = "exiting";
      return;
    }
    if (g.mode === "exiting") {
      if (walkTo(g, DOOR_X, ABOVE_DOOR_Y, dist)) {
        g.mode = "active";
        g.dir = "left";
        g.frightened = false;
      }
      return;
    }
    if (g.mode === "entering") {
      if (walkTo(g, DOOR_X, HOUSE_Y, dist)) g.mode = "exiting";
      return;
    }
    while (dist > 0) {
      if (atCentre(g)) {
        // Eyes that reach the tiles above the door go in.
        if (g.mode === "eaten" && tileOf(g.y) === 11 && (tileOf(g.x) === 13 || tileOf(g.x) === 14)) {
          g.mode = "entering";
          return;
        }
        g.dir = this.chooseDir(g, idx);
      }
      const step = Math.min(dist, toNextCentre(g));
      moveBy(g, step);
      dist -= step;
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.dots = this.dots.slice();
    c.pac = Object.assign({}, this.pac);
    c.ghosts = this.ghosts.map((g) => Object.assign({}, g));
    return c;
  };

  function px(v) {
    return Math.round((v / U) * TILE * 10) / 10;
  }

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const pac = this.pac;
    const dead = this.status === "terminal" && this.outcome === "fail";
    return {
      gameId: GAME_ID,
      seed: this.seed,
      timestampMs: 0,
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        score: this.score,
        lives: this.lives,
        level: this.level,
        maze_index: this.maze,
        completion_progress: Math.round((1 - this.dotsLeft / TOTAL_DOTS) * 1000) / 1000,
        pellets_remaining: this.dotsLeft,
        power_ms: Math.round(this.powerTicks * 1000 / TICK_HZ),
        ready_ms: Math.round(this.readyTicks * 1000 / TICK_HZ),
        player: {
          tile: [wrapCol(tileOf(pac.x)), tileOf(pac.y)],
          x: MAZE_X + px(pac.x),
          y: MAZE_Y + px(pac.y),
          dir: pac.dir,
          next_dir: pac.nextDir,
          moving: pac.moving,
          alive: !dead,
        },
        ghosts: this.ghosts.map((g) => ({
          name: g.name,
          tile: [wrapCol(tileOf(g.x)), tileOf(g.y)],
          x: MAZE_X + px(g.x),
          y: MAZE_Y + px(g.y),
          dir: g.dir,
          mode: this.ghostMode(g),
        })),
        maze: this.dots.slice(),
      },
      metrics: {
        primary_score: this.score,
        pellets_eaten: this.pelletsEaten,
        ghosts_eaten: this.ghostsEaten,
        deaths: this.deaths,
        high_score: this.score,
        attempts: 0,
      },
      raw: { ticks: this.totalTicks, play_ticks: this.playTicks, mode_phase: this.modeIndex },
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still gives one edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts again. Agents never
    // see a terminal frame (the harness resets first) and have no Enter.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // This tick's arrow press edges, in arrival order.
  function consumeInput() {
    const dirs = [];
    for (const ev of keys.drain()) {
      if (ev.down) {
        if (!keys.held.has(ev.key) && KEY_DIR[ev.key]) dirs.push(KEY_DIR[ev.key]);
        keys.held.add(ev.key);
      } else {
        keys.held.delete(ev.key);
      }
    }
    return { dirs: dirs };
  }

  // ---------------------------------------------------------------------------
  // Renderer: the maze (with HUD bar) is one cached layer, the pellets a second
  // one updated tile by tile; a frame is drawn only when something moved.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    bg: "#05050F",
    wallFill: "#121250",
    wall: "#3B5BFF",
    door: "#F4B8D8",
    dot: "#FFD9B0",
    pac: "#FFE600",
    blinky: "#FF2A2A",
    pinky: "#FF9BD2",
    inky: "#22E5FF",
    clyde: "#FFA53A",
    frightened: "#1F2BD8",
    flash: "#F2F2F2",
  };

  function textOutlined(g, str, x, y, font, align, fill) {
    g.font = font;
    g.textAlign = align;
    g.textBaseline = "middle";
    g.lineJoin = "round";
    g.lineWidth = 3;
    g.strokeStyle = "#111";
    g.strokeText(str, x, y);
    g.fillStyle = fill || "#fff";
    g.fillText(str, x, y);
  }

  function isWall(c, r) {
    return r >= 0 && r < ROWS && c >= 0 && c < COLS && MAZE[r][c] === "#";
  }

  let mazeLayer = null;
  function mazeImage() {
    if (mazeLayer) return mazeLayer;
    mazeLayer = document.createElement("canvas");
    mazeLayer.width = W;
    mazeLayer.height = H;
    const g = mazeLayer.getContext("2d");
    g.fillStyle = COLORS.bg;
    g.fillRect(0, 0, W, H);
    g.fillStyle = "#000";
    g.fillRect(0, 0, W, HUD_H);
    // Wall tiles filled, then a bright edge wherever a wall meets the floor.
    g.fillStyle = COLORS.wallFill;
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        if (MAZE[r][c] === "#") g.fillRect(MAZE_X + c * TILE, MAZE_Y + r * TILE, TILE, TILE);
      }
    }
    g.strokeStyle = COLORS.wall;
    g.lineWidth = 3;
    g.beginPath();
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        if (MAZE[r][c] !== "#") continue;
        const x = MAZE_X + c * TILE;
        const y = MAZE_Y + r * TILE;
        const edge = (nc, nr) => (nr >= 0 && nr < ROWS && nc >= 0 && nc < COLS) && !isWall(nc, nr);
        if (edge(c, r - 1)) { g.moveTo(x, y + 1.5); g.lineTo(x + TILE, y + 1.5); }
        if (edge(c, r + 1)) { g.moveTo(x, y + TILE - 1.5); g.lineTo(x + TILE, y + TILE - 1.5); }
        if (edge(c - 1, r)) { g.moveTo(x + 1.5, y); g.lineTo(x + 1.5, y + TILE); }
        if (edge(c + 1, r)) { g.moveTo(x + TILE - 1.5, y); g.lineTo(x + TILE - 1.5, y + TILE); }
      }
    }
    g.stroke();
    g.fillStyle = COLORS.door;
    g.fillRect(MAZE_X + 13 * TILE, MAZE_Y + 12 * TILE + 8, 2 * TILE, 4);
    return mazeLayer;
  }

  // Small pellets live on their own layer; eaten ones are erased tile by tile.
  let dotLayer = null;
  let dotCtx = null;
  let dotShown = null;             // what the layer currently shows, per tile
  function syncDots(c) {
    if (!dotLayer) {
      dotLayer = document.createElement("canvas");
      dotLayer.width = COLS * TILE;
      dotLayer.height = ROWS * TILE;
      dotCtx = dotLayer.getContext("2d");
    }
    if (!dotShown) {
      dotShown = MAZE.map((row) => row.split("").map(() => " "));
      dotCtx.clearRect(0, 0, dotLayer.width, dotLayer.height);
    }
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const want = c.dots[r][col] === "." ? "." : " ";
        if (want === dotShown[r][col]) continue;
        dotShown[r][col] = want;
        dotCtx.clearRect(col * TILE, r * TILE, TILE, TILE);
        if (want === ".") {
          dotCtx.fillStyle = COLORS.dot;
          dotCtx.fillRect(col * TILE + 7, r * TILE + 7, 6, 6);
        }
      }
    }
  }

  function drawPowerPellets(c) {
    // Blink with game time: 0.3 s on, 0.1 s dimmed (never hidden).
    const dim = Math.floor(c.totalTicks / 6) % 4 === 3;
    ctx.fillStyle = dim ? "#A08870" : COLORS.dot;
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        if (c.dots[r][col] !== "o") continue;
        ctx.beginPath();
        ctx.arc(MAZE_X + col * TILE + TILE / 2, MAZE_Y + r * TILE + TILE / 2, 8, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }

  function screenX(v) { return MAZE_X + (v / U) * TILE; }
  function screenY(v) { return MAZE_Y + (v / U) * TILE; }

  const DIR_ANGLE = { right: 0, down: Math.PI / 2, left: Math.PI, up: -Math.PI / 2 };

  function drawPac(c) {
    const p = c.pac;
    const x = screenX(p.x);
    const y = screenY(p.y);
    const open = p.moving ? (Math.abs(((c.totalTicks % 16) - 8)) / 8) * 0.8 + 0.05 : 0.5;
    const a = DIR_ANGLE[p.dir];
    ctx.fillStyle = COLORS.pac;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.arc(x, y, 13, a + open / 2 * Math.PI / 2, a - open / 2 * Math.PI / 2 + Math.PI * 2);
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = "#7A6A00";
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }

  function drawGhost(c, g) {
    const x = screenX(g.x);
    const y = screenY(g.y);
    const mode = c.ghostMode(g);
    const d = DIRS[g.dir];
    if (mode !== "eaten" && !(g.mode === "entering")) {
      let body = COLORS[g.name];
      if (g.frightened) {
        const flashing = c.powerTicks < FLASH_TICKS && Math.floor(c.totalTicks / 10) % 2 === 1;
        body = flashing ? COLORS.flash : COLORS.frightened;
      }
      ctx.fillStyle = body;
      ctx.beginPath();
      ctx.arc(x, y - 2, 13, Math.PI, 0);
      ctx.lineTo(x + 13, y + 12);
      for (let k = 0; k < 4; k++) {
        ctx.lineTo(x + 13 - (k * 2 + 1) * 3.25, y + (k % 2 === 0 ? 7 : 12));
        ctx.lineTo(x + 13 - (k * 2 + 2) * 3.25, y + 12);
      }
      ctx.closePath();
      ctx.fill();
      if (g.frightened) {
        ctx.fillStyle = "#FFD0C0";
        ctx.fillRect(x - 6, y - 5, 4, 4);
        ctx.fillRect(x + 2, y - 5, 4, 4);
        ctx.strokeStyle = "#FFD0C0";
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x - 8, y + 5);
        for (let k = 1; k <= 4; k++) ctx.lineTo(x - 8 + k * 4, y + (k % 2 ? 2 : 5));
        ctx.stroke();
        return;
      }
    }
    // Eyes (also all that is left of an eaten ghost), looking where it goes.
    for (const side of [-5, 5]) {
      ctx.fillStyle = "#fff";
      ctx.beginPath();
      ctx.ellipse(x + side, y - 4, 4, 5, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = "#1530C0";
      ctx.beginPath();
      ctx.arc(x + side + d.dx * 2, y - 4 + d.dy * 2, 2.2, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  function drawHud(c) {
    textOutlined(ctx, "Pac-Man", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined(ctx, "Maze " + c.maze, 160, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined(ctx, "Score " + c.score, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined(ctx, "Lives", W - 150, HUD_H / 2, "20px sans-serif", "right");
    ctx.fillStyle = COLORS.pac;
    for (let i = 0; i < c.lives; i++) {
      const x = W - 130 + i * 36;
      ctx.beginPath();
      ctx.moveTo(x, HUD_H / 2);
      ctx.arc(x, HUD_H / 2, 13, Math.PI + 0.6, Math.PI - 0.6 + Math.PI * 2);
      ctx.closePath();
      ctx.fill();
    }
    // Side panel: what the scored quantity counts.
    textOutlined(ctx, "Pellets left " + c.dotsLeft, 60, 120, "20px sans-serif", "left");
    if (c.powerTicks > 0) {
      textOutlined(ctx, "Power " + (c.powerTicks / TICK_HZ).toFixed(1) + " s", 60, 156, "bold 22px sans-serif", "left", "#9DB0FF");
    }
  }

  function drawPanel(lines) {
    const pw = 560;
    const ph = 40 + lines.length * 46;
    const x0 = (W - pw) / 2;
    const y0 = (H - ph) / 2;
    ctx.fillStyle = "rgba(0,0,0,0.7)";
    ctx.fillRect(x0, y0, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(x0, y0, pw, ph);
    lines.forEach((ln, k) => textOutlined(ctx, ln.text, W / 2, y0 + 43 + k * 46, ln.font, "center"));
  }

  function render() {
    ctx.drawImage(mazeImage(), 0, 0);
    if (!core) return;
    syncDots(core);
    ctx.drawImage(dotLayer, MAZE_X, MAZE_Y);
    drawPowerPellets(core);
    for (const g of core.ghosts) drawGhost(core, g);
    drawPac(core);
    drawHud(core);
    if (core.status === "playing" && (core.readyTicks > 0 || !core.pac.started)) {
      // Between the ghost house and Pac-Man, like the original's READY!
      textOutlined(ctx, "READY!", W / 2, MAZE_Y + 19 * TILE + TILE / 2, "bold 24px sans-serif", "center", COLORS.pac);
    }
    if (core.status === "terminal") {
      const lines = [
        { text: "GAME OVER \u2013 " + core.reason, font: "bold 36px sans-serif" },
        { text: "Score " + core.score, font: "bold 28px sans-serif" },
      ];
      if (!window.__GW_HARNESS__) lines.push({ text: "Press Enter to play again", font: "20px sans-serif" });
      drawPanel(lines);
    }
  }

  // What the picture depends on; the frame is redrawn only when it changes.
  function viewKey(c) {
    if (!c) return "none";
    const still = c.status !== "playing" || c.readyTicks > 0 || !c.pac.started;
    return ep.attempts + " " + c.status + " " + c.score + " " + c.lives + " " +
      (still ? c.readyTicks > 0 ? "r" + c.readyTicks : "s" : "t" + c.totalTicks);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let highScore = 0;
  let drawnKey = "";

  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const inp = consumeInput();
      if (core) core.tick(inp);
    },
    render() {
      if (core) highScore = Math.max(highScore, core.score);
      const key = viewKey(core);
      if (key !== drawnKey) {
        render();
        drawnKey = key;
      }
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  function pickLevel(l) {
    // No levels: only level 1 exists (capabilities.supports_level_select = false).
    if (l !== undefined && l !== null && Number(l) !== 1) console.warn(GAME_ID + " has only level 1; got " + l);
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level, config, attempts) {
      if (attempts === 1) highScore = 0;   // init starts a new high score; a reset keeps it
      keys.clear();
      core = createCore(seed, 1);
      dotShown = null;               // refill the pellet layer
      render();                      // the first screenshot is already current
      drawnKey = viewKey(core);
    },
  });

  const api = {
    capabilities: {
      supports_seed: false,        // fixed maze, fixed frightened-turn stream
      supports_inplace_reset: true,
      supports_level_select: false,
    },

    init: ep.init,
    reset: ep.reset,

    getState() {
      const s = (core || createCore(ep.seed, 1)).snapshot();
      if (!core) s.status = "loading";
      s.seed = ep.seed;
      s.timestampMs = Date.now();   // the harness's virtual clock
      s.metrics.attempts = ep.attempts;
      s.metrics.high_score = Math.max(highScore, s.game_state.score);
      return s;
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
