// Captain Callisto for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer with each level's tiles painted once onto an offscreen
// canvas, and window.gameAPI. The keyboard queue, the requestAnimationFrame
// loop with fixed 1/60 s ticks, episodes and mounting come from the shared
// shell (catalog/games/_shell/shell.js, loaded first by index.html). The
// oracle clones the core through window.__gwCore to look ahead; nothing else
// is exposed. Five hand-made one-screen levels, no randomness at all.
(function () {
  "use strict";

  const GAME_ID = "06-captaincallisto";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 06). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // World y 0 is the top of the play area (screen y 56); the level is 32x16
  // tiles of 40 px, so it fills screen y 56-696.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const OY = HUD_H;
  const TILE = 40;
  const COLS = 32;
  const ROWS = 16;
  const WORLD_H = ROWS * TILE;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const WALK = 300;
  const G = 2200;
  const JUMP_VY = -820;           // apex ~153 px
  const MAX_FALL = 900;
  const CLIMB = 200;
  const LADDER_REACH = 18;
  const JET_VY = -360;
  const FUEL_PER_CAN = 90;        // ticks: 1.5 s
  const FUEL_MAX = 180;           // 3 s
  const BUFFER_TICKS = 6;         // 0.1 s jump buffer (docs/games.md 1.3)
  const COYOTE_TICKS = 6;         // 0.1 s coyote time
  const STOMP_BOUNCE = -520;
  const PW = 28;
  const PH = 40;
  const RESPAWN_TICKS = 30;       // 0.5 s before he reappears at the start

  const ALIEN_W = 32;
  const ALIEN_H = 28;
  const ALIEN_SPEED = 70;

  // Legend: . empty, # rock, H ladder, ^ spikes, c coin, a alien (patrols
  // the floor it stands on), f fuel can, E exit teleporter (bottom tile),
  // P start (bottom tile).
  const LEVELS = {
    1: [
      "################################",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..........c.....c...a...c.c...#",
      "#.........#####H#############..#",
      "#..............H...............#",
      "#..............H...............#",
      "#.P..c.#.c...c.H......c......E.#",
      "################################",
      "################################",
    ],
    2: [
      "################################",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..c.....c......a....E.........#",
      "#.############H########........#",
      "#.............H................#",
      "#.............H..c.........c...#",
      "#........c..##########H######..#",
      "#.....................H........#",
      "#.....................H........#",
      "#.P..c..^^^...c..a..c.H........#",
      "################################",
      "################################",
    ],
    3: [
      "################################",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#...........c..c..c............#",
      "#..........########............#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#...c..........................#",
      "#..####H.................a..c..#",
      "#......H................######.#",
      "#......H.......................#",
      "#.P....H#c..f.......a......c..E#",
      "################################",
      "################################",
    ],
    4: [
      "################################",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#.....c....c....c...ac....c..E.#",
      "#..H##########################.#",
      "#..H...........................#",
      "#..H...........................#",
      "#..H.c...c....c.a..c....c......#",
      "#.#########################H#..#",
      "#..........................H...#",
      "#..f.......................H...#",
      "#.P..c...c.#..c.a..c....c..H...#",
      "################################",
      "################################",
    ],
    5: [
      "################################",
      "#..............................#",
      "#..............................#",
      "#..............................#",
      "#..........................cc..#",
      "#......c..a.c....c....c...######",
      "#...H###############H####......#",
      "#...H...............H..........#",
      "#...H...............H..........#",
      "#...H.....c.f.......H...a.c....#",
      "#..####H######....c.###H#####..#",
      "#......H...............H.......#",
      "#......H......f........H.......#",
      "#.P..c.H.^^^..ac.^^^...H..ac..E#",
      "################################",
      "################################",
    ],
  };
  const LEVEL_COUNT = 5;

  const T_EMPTY = 0, T_ROCK = 1, T_LADDER = 2, T_SPIKE = 3;

  function parseLevel(n) {
    const rows = LEVELS[n];
    const tiles = new Uint8Array(COLS * ROWS);
    const coins = [], aliens = [], cans = [];
    let start = null, exit = null;
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const ch = rows[r][col];
        tiles[r * COLS + col] = ch === "#" ? T_ROCK : ch === "H" ? T_LADDER : ch === "^" ? T_SPIKE : T_EMPTY;
        const x = col * TILE, y = r * TILE;
        if (ch === "c") coins.push({ x: x + 20, y: y + 20 });
        if (ch === "a") aliens.push({ x: x + (TILE - ALIEN_W) / 2, y: y + TILE - ALIEN_H });
        if (ch === "f") cans.push({ x: x + 8, y: y + 10 });
        if (ch === "P") start = { x: x + (TILE - PW) / 2, y: y + TILE - PH };
        if (ch === "E") exit = { x: x, y: y - TILE, w: TILE, h: 2 * TILE };
      }
    }
    coins.forEach((c, i) => { c.id = i + 1; });
    return { tiles: tiles, coins: coins, aliens: aliens, cans: cans, start: start, exit: exit };
  }
  const PARSED = {};
  for (let n = 1; n <= LEVEL_COUNT; n++) PARSED[n] = parseLevel(n);

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function Core() {}

  function createCore(level) {
    const c = new Core();
    const lv = PARSED[level];
    c.level = level;
    c.tiles = lv.tiles;           // never changes: shared, not copied
    c.coins = lv.coins.map((o) => ({ id: o.id, x: o.x, y: o.y, taken: false }));
    c.aliens = lv.aliens.map((a, i) => ({ id: i + 1, x: a.x, y: a.y, vx: ALIEN_SPEED, alive: true, squash: 0 }));
    c.cans = lv.cans.map((f) => ({ x: f.x, y: f.y, taken: false }));
    c.start = lv.start;
    c.exit = lv.exit;
    c.status = "playing";
    c.outcome = null;
    c.reason = null;
    c.totalTicks = 0;
    c.playTicks = 0;
    c.score = 0;
    c.deaths = 0;
    c.stomps = 0;
    c.fuelPickups = 0;
    c.restarts = 0;
    c.lastLoss = null;            // "alien", "spikes" or "fall"
    c.dead = 0;                   // ticks left before the respawn, 0 when alive
    c.p = newPlayer(lv.start, false);
    return c;
  }

  function newPlayer(start, frozen) {
    return { x: start.x, y: start.y, vx: 0, vy: 0, onGround: true, onLadder: false, coyote: 0, buffer: 0,
      fuel: 0, face: 1, frozen: frozen, jetting: false };
  }

  Core.prototype.tileAt = function (col, row) {
    if (col < 0 || col >= COLS) return T_ROCK;
    if (row < 0 || row >= ROWS) return T_EMPTY;
    return this.tiles[row * COLS + col];
  };

  Core.prototype.solidIn = function (x, y, w, h) {
    const c0 = Math.floor(x / TILE), c1 = Math.floor((x + w - 0.001) / TILE);
    const r0 = Math.floor(y / TILE), r1 = Math.floor((y + h - 0.001) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let col = c0; col <= c1; col++) if (this.tileAt(col, r) === T_ROCK) return true;
    }
    return false;
  };

  // A ladder's top rung carries him like a floor (unless he climbs down).
  Core.prototype.ladderTop = function (col, row) {
    return this.tileAt(col, row) === T_LADDER && this.tileAt(col, row - 1) !== T_LADDER;
  };

  // The ladder at the player's centre column, over his body or just below his
  // feet. Grabbing reaches LADDER_REACH px to either side, so a player who can
  // only walk 60 px per step can always line up with a 40 px ladder.
  Core.prototype.ladderCol = function (p, reach) {
    const cx = p.x + PW / 2;
    const r0 = Math.floor(p.y / TILE), r1 = Math.floor((p.y + PH) / TILE);
    const cols = reach ? [Math.floor(cx / TILE), Math.floor((cx - reach) / TILE), Math.floor((cx + reach) / TILE)]
      : [Math.floor(cx / TILE)];
    for (const col of cols) {
      for (let r = r0; r <= r1; r++) if (this.tileAt(col, r) === T_LADDER) return col;
    }
    return -1;
  };

  Core.prototype.standing = function (p) {
    if (this.solidIn(p.x + 1, p.y + PH, PW - 2, 1)) return true;
    if ((p.y + PH) % TILE !== 0) return false;
    const row = (p.y + PH) / TILE;
    const c0 = Math.floor((p.x + 1) / TILE), c1 = Math.floor((p.x + PW - 1) / TILE);
    for (let col = c0; col <= c1; col++) if (this.ladderTop(col, row)) return true;
    return false;
  };

  // input = {left, right, up, down, jet: held; jump: Space edge; move: any
  // move/jump key pressed this tick; restart: r edge}
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== "playing") return;
    const inp = input || {};
    if (inp.restart) { this.restartLevel(); return; }
    this.playTicks++;
    this.stepAliens();
    if (this.dead > 0) {
      if (--this.dead === 0) this.p = newPlayer(this.start, true);
      return;
    }
    const p = this.p;
    if (p.frozen) {
      if (!inp.move) return;
      p.frozen = false;
    }
    this.stepPlayer(inp);
    if (this.dead > 0) return;
    this.touchThings();
  };

  Core.prototype.restartLevel = function () {
    const fresh = createCore(this.level);
    fresh.totalTicks = this.totalTicks;
    fresh.playTicks = this.playTicks;
    fresh.deaths = this.deaths;
    fresh.restarts = this.restarts + 1;
    Object.assign(this, fresh);
  };

  Core.prototype.stepPlayer = function (inp) {
    const p = this.p;
    if (inp.jump) p.buffer = BUFFER_TICKS + 1;
    const dir = (inp.right ? 1 : 0) - (inp.left ? 1 : 0);
    if (dir !== 0) p.face = dir;
    const climb = (inp.down ? 1 : 0) - (inp.up ? 1 : 0);

    // Ladders: up or down grabs the ladder under his centre column.
    const lcol = this.ladderCol(p, p.onLadder ? 0 : LADDER_REACH);
    if (lcol < 0) p.onLadder = false;
    else if (climb !== 0 && !p.onLadder) {
      // Down on the ground only grabs a ladder that goes on below his feet.
      const below = this.tileAt(lcol, Math.floor((p.y + PH) / TILE)) === T_LADDER;
      if (climb < 0 || below) {
        p.onLadder = true;
        p.x = lcol * TILE + (TILE - PW) / 2;
        p.vx = 0;
      }
    }

    if (p.buffer > 0 && (p.onGround || p.coyote > 0 || p.onLadder)) {
      p.vy = JUMP_VY;
      p.buffer = 0;
      p.coyote = 0;
      p.onGround = false;
      p.onLadder = false;
    }
    if (p.buffer > 0) p.buffer--;

    if (dir !== 0) p.vx = dir * WALK;
    else if (p.onGround || p.onLadder) p.vx = 0;   // in the air he keeps drifting

    p.jetting = false;
    if (p.onLadder) {
      p.vy = climb * CLIMB;
      if (dir !== 0) p.onLadder = false;            // stepping sideways lets go
    } else if (inp.jet && p.fuel > 0) {
      p.fuel--;
      p.vy = JET_VY;
      p.jetting = true;
    } else {
      p.vy = Math.min(p.vy + G * DT, MAX_FALL);
    }

    // Move x, then y, against rock; ladder tops hold him when falling onto them.
    const prevFeet = p.y + PH;
    p.x += p.vx * DT;
    if (this.solidIn(p.x, p.y, PW, PH)) {
      if (p.vx > 0) p.x = Math.floor((p.x + PW) / TILE) * TILE - PW;
      else if (p.vx < 0) p.x = (Math.floor(p.x / TILE) + 1) * TILE;
      p.vx = 0;
    }
    p.y += p.vy * DT;
    if (this.solidIn(p.x, p.y, PW, PH)) {
      if (p.vy > 0) p.y = Math.floor((p.y + PH) / TILE) * TILE - PH;
      else if (p.vy < 0) p.y = (Math.floor(p.y / TILE) + 1) * TILE;
      p.vy = 0;
      if (p.onLadder && climb > 0) p.onLadder = false;
    } else if (p.vy > 0 && !(p.onLadder && climb > 0)) {
      const feet = p.y + PH;
      const row = Math.floor(feet / TILE);
      const top = row * TILE;
      if (prevFeet <= top && feet >= top) {
        const c0 = Math.floor((p.x + 1) / TILE), c1 = Math.floor((p.x + PW - 1) / TILE);
        for (let col = c0; col <= c1; col++) {
          if (this.ladderTop(col, row)) {
            p.y = top - PH;
            p.vy = 0;
            p.onLadder = false;
            break;
          }
        }
      }
    }
    p.onGround = !p.onLadder && p.vy >= 0 && this.standing(p);
    if (p.onGround) p.coyote = COYOTE_TICKS;
    else if (p.coyote > 0) p.coyote--;
    if (p.y > WORLD_H) this.die("fall");
  };

  Core.prototype.stepAliens = function () {
    for (const a of this.aliens) {
      if (!a.alive) { if (a.squash > 0) a.squash--; continue; }
      const nx = a.x + a.vx * DT;
      const ahead = a.vx > 0 ? nx + ALIEN_W : nx;
      const col = Math.floor(ahead / TILE);
      const rowBody = Math.floor((a.y + ALIEN_H - 1) / TILE);
      const rowFeet = rowBody + 1;
      const wall = this.tileAt(col, rowBody);
      const floor = this.tileAt(col, rowFeet);
      // Turn at rock, spikes, or where the platform ends.
      if (wall === T_ROCK || wall === T_SPIKE || !(floor === T_ROCK || this.ladderTop(col, rowFeet))) a.vx = -a.vx;
      else a.x = nx;
    }
  };

  Core.prototype.touchThings = function () {
    const p = this.p;
    for (const o of this.coins) {
      if (!o.taken && overlap(p.x, p.y, PW, PH, o.x - 12, o.y - 12, 24, 24)) { o.taken = true; this.score++; }
    }
    for (const f of this.cans) {
      if (!f.taken && overlap(p.x, p.y, PW, PH, f.x, f.y, 24, 30)) {
        f.taken = true;
        this.fuelPickups++;
        p.fuel = Math.min(FUEL_MAX, p.fuel + FUEL_PER_CAN);
      }
    }
    // Spikes hurt in the lower 22 px of their tile.
    const c0 = Math.floor(p.x / TILE), c1 = Math.floor((p.x + PW - 0.001) / TILE);
    const r0 = Math.floor(p.y / TILE), r1 = Math.floor((p.y + PH - 0.001) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let col = c0; col <= c1; col++) {
        if (this.tileAt(col, r) === T_SPIKE && overlap(p.x, p.y, PW, PH, col * TILE + 4, r * TILE + 18, TILE - 8, 22)) {
          this.die("spikes");
          return;
        }
      }
    }
    for (const a of this.aliens) {
      if (!a.alive || !overlap(p.x, p.y, PW, PH, a.x, a.y, ALIEN_W, ALIEN_H)) continue;
      const prevFeet = p.y + PH - p.vy * DT;
      if (p.vy > 0 && prevFeet <= a.y + ALIEN_H / 2) {
        a.alive = false;
        a.squash = 30;
        this.stomps++;
        p.vy = STOMP_BOUNCE;
        p.y = a.y - PH;
        p.onGround = false;
      } else {
        this.die("alien");
        return;
      }
    }
    if (this.score >= this.coins.length) {
      const e = this.exit;
      if (overlap(p.x, p.y, PW, PH, e.x + 6, e.y, e.w - 12, e.h)) {
        this.status = "terminal";
        this.outcome = "success";
        this.reason = "level_complete";
      }
    }
  };

  Core.prototype.die = function (why) {
    this.deaths++;
    this.lastLoss = why;
    this.dead = RESPAWN_TICKS;
    this.p.vx = 0;
    this.p.vy = 0;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.coins = this.coins.map((o) => Object.assign({}, o));
    c.aliens = this.aliens.map((o) => Object.assign({}, o));
    c.cans = this.cans.map((o) => Object.assign({}, o));
    c.p = Object.assign({}, this.p);
    return c;
  };

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const p = this.p;
    const cx = p.x + PW / 2, cy = p.y + PH / 2;
    const total = this.coins.length;
    let goal = 0;
    for (const o of this.coins) {
      if (o.taken) continue;
      const d = Math.hypot(o.x - cx, o.y - cy);
      if (goal === 0 || d < goal) goal = d;
    }
    if (this.score >= total) goal = Math.hypot(this.exit.x + 20 - cx, this.exit.y + 40 - cy);
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score,
      total: total,
      level: this.level,
      player: {
        x: p.x, y: p.y, w: PW, h: PH, vx: p.vx, vy: p.vy, on_ground: p.onGround, on_ladder: p.onLadder,
        fuel_s: Math.round(p.fuel * 100 / TICK_HZ) / 100, frozen: p.frozen || this.dead > 0, alive: this.dead === 0,
      },
      coins: this.coins.map((o) => ({ id: o.id, x: o.x, y: o.y, collected: o.taken })),
      enemies: this.aliens.map((a) => ({ id: a.id, type: "alien", x: a.x, y: a.y, w: ALIEN_W, h: ALIEN_H,
        vx: a.alive ? a.vx : 0, alive: a.alive })),
      fuel_cans: this.cans.map((f) => ({ x: f.x, y: f.y, taken: f.taken })),
      exit: { x: this.exit.x, y: this.exit.y, open: this.score >= total },
      deaths: this.deaths,
      stomps: this.stomps,
      fuelPickups: this.fuelPickups,
      restarts: this.restarts,
      goal: Math.round(goal),
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard (catalog/games/_shell): events are queued and consumed at the
  // start of each tick, so a press and release between two ticks still gives
  // one `pressed` edge. w/a/s/d mirror the arrows.
  // ---------------------------------------------------------------------------
  const MOVE_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " "]);
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Shift", "r", "w", "a", "s", "d"],
    alias: { w: "ArrowUp", a: "ArrowLeft", s: "ArrowDown", d: "ArrowRight" },
    // Humans only: Enter on the end screen starts again (the harness resets itself).
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  function consumeInput() {
    const { pressed, down } = keys.take();
    const on = (k) => down.has(k) || pressed.has(k);   // a tap counts as held for one tick
    let move = false;
    for (const k of pressed) if (MOVE_KEYS.has(k)) move = true;
    return {
      left: on("ArrowLeft"), right: on("ArrowRight"), up: on("ArrowUp"), down: on("ArrowDown"),
      jet: on("Shift"), jump: pressed.has(" "), restart: pressed.has("r"), move: move,
    };
  }

  // ---------------------------------------------------------------------------
  // Renderer: each level's backdrop and tiles are painted once onto an
  // offscreen canvas; each frame blits it, then draws coins, cans, aliens,
  // the teleporter, the astronaut and the HUD.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    space: "#1B1D2A", star: "#59607A", planet: "#2C3045",
    rock: "#6E6259", rockDark: "#463D37", rockTop: "#8A7C70",
    ladder: "#A0763F", ladderDark: "#5E4220",
    spike: "#E53935", spikeDark: "#8E1B19",
    coin: "#F5C518", coinRim: "#7A5A00",
    can: "#FF8C1A", canDark: "#8A4300",
    suit: "#2D7DF6", visor: "#CFE6FF", pack: "#9AA4B5",
    alien: "#E53935", alienDark: "#7F1512",
    exitOpen: "#2ECC71", exitOpenDark: "#167A40", exitLocked: "#8E8E8E", exitLockedDark: "#4A4A4A",
    flame: "#FFB300",
  };

  function textOutlined(g, str, x, y, font, align) {
    g.font = font;
    g.textAlign = align;
    g.textBaseline = "middle";
    g.lineJoin = "round";
    g.lineWidth = 3;
    g.strokeStyle = "#111";
    g.strokeText(str, x, y);
    g.fillStyle = "#fff";
    g.fillText(str, x, y);
  }

  const levelLayers = {};           // level number -> painted canvas (tiles never change)

  function levelLayer(n) {
    if (levelLayers[n]) return levelLayers[n];
    const cv = document.createElement("canvas");
    cv.width = W;
    cv.height = H - OY;
    const g = cv.getContext("2d");
    g.fillStyle = COLORS.space;
    g.fillRect(0, 0, W, H - OY);
    // Fixed star field and a dim planet (no randomness: a simple hash of k).
    g.fillStyle = COLORS.planet;
    g.beginPath(); g.arc(1040, 150, 90, 0, Math.PI * 2); g.fill();
    g.fillStyle = COLORS.star;
    for (let k = 0; k < 90; k++) {
      const sx = (k * 397 + n * 131) % W, sy = (k * 211 + n * 53) % (H - OY);
      g.fillRect(sx, sy, 2, 2);
    }
    const tiles = PARSED[n].tiles;
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const t = tiles[r * COLS + col];
        const x = col * TILE, y = r * TILE;
        if (t === T_ROCK) {
          g.fillStyle = COLORS.rock;
          g.fillRect(x, y, TILE, TILE);
          g.strokeStyle = COLORS.rockDark;
          g.lineWidth = 2;
          g.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
          if (r > 0 && tiles[(r - 1) * COLS + col] !== T_ROCK) { g.fillStyle = COLORS.rockTop; g.fillRect(x, y, TILE, 6); }
        } else if (t === T_LADDER) {
          g.fillStyle = COLORS.ladder;
          g.fillRect(x + 6, y, 5, TILE);
          g.fillRect(x + TILE - 11, y, 5, TILE);
          for (let k = 0; k < 3; k++) g.fillRect(x + 6, y + 6 + k * 13, TILE - 12, 4);
        } else if (t === T_SPIKE) {
          g.fillStyle = COLORS.spike;
          g.strokeStyle = COLORS.spikeDark;
          g.lineWidth = 2;
          for (let k = 0; k < 4; k++) {
            g.beginPath();
            g.moveTo(x + k * 10, y + TILE);
            g.lineTo(x + k * 10 + 5, y + 16);
            g.lineTo(x + k * 10 + 10, y + TILE);
            g.closePath();
            g.fill(); g.stroke();
          }
        }
      }
    }
    levelLayers[n] = cv;
    return cv;
  }

  function drawCoin(x, y) {
    ctx.fillStyle = COLORS.coin;
    ctx.strokeStyle = COLORS.coinRim;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(x, y, 12, 0, Math.PI * 2);
    ctx.fill(); ctx.stroke();
    ctx.fillStyle = COLORS.coinRim;
    ctx.fillRect(x - 2, y - 7, 4, 14);
  }

  function drawCan(f) {
    const x = f.x, y = f.y + OY;
    ctx.fillStyle = COLORS.can;
    ctx.strokeStyle = COLORS.canDark;
    ctx.lineWidth = 2;
    ctx.fillRect(x, y + 4, 24, 26);
    ctx.strokeRect(x, y + 4, 24, 26);
    ctx.fillRect(x + 14, y, 8, 5);
    ctx.fillStyle = COLORS.canDark;
    ctx.font = "bold 16px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText("F", x + 12, y + 18);
  }

  function drawAstronaut(c) {
    const p = c.p;
    const x = Math.round(p.x), y = Math.round(p.y) + OY;
    const f = p.face;
    if (p.frozen && Math.floor(c.totalTicks / 20) % 2 === 0) ctx.globalAlpha = 0.6;
    // jetpack
    ctx.fillStyle = COLORS.pack;
    ctx.fillRect(f > 0 ? x - 4 : x + PW - 4, y + 14, 8, 18);
    if (p.jetting) {
      ctx.fillStyle = COLORS.flame;
      ctx.beginPath();
      const fx = f > 0 ? x : x + PW;
      ctx.moveTo(fx - 4, y + 32); ctx.lineTo(fx, y + 46); ctx.lineTo(fx + 4, y + 32); ctx.fill();
    }
    // suit and helmet
    ctx.fillStyle = COLORS.suit;
    ctx.fillRect(x + 2, y + 14, PW - 4, 18);
    ctx.fillRect(x + 4, y + 32, 8, 8);
    ctx.fillRect(x + PW - 12, y + 32, 8, 8);
    ctx.beginPath(); ctx.arc(x + PW / 2, y + 9, 10, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = COLORS.visor;
    ctx.fillRect(f > 0 ? x + 13 : x + 5, y + 5, 10, 7);
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    ctx.strokeRect(x + 1, y + 13, PW - 2, 27);
    ctx.beginPath(); ctx.arc(x + PW / 2, y + 9, 10, 0, Math.PI * 2); ctx.stroke();
    ctx.globalAlpha = 1;
  }

  function drawAlien(a, c) {
    const x = Math.round(a.x), y = Math.round(a.y) + OY;
    ctx.fillStyle = COLORS.alien;
    ctx.strokeStyle = COLORS.alienDark;
    ctx.lineWidth = 2;
    if (!a.alive) {
      ctx.fillRect(x, y + ALIEN_H - 8, ALIEN_W, 8);
      return;
    }
    const wob = Math.floor(c.totalTicks / 10) % 2 ? 2 : 0;
    ctx.beginPath();
    ctx.ellipse(x + 16, y + 16 + wob / 2, 16, 14 - wob / 2, 0, Math.PI, 2 * Math.PI);
    ctx.lineTo(x + 32, y + 28);
    ctx.lineTo(x, y + 28);
    ctx.closePath();
    ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#fff";
    ctx.beginPath(); ctx.arc(x + 11, y + 12, 4, 0, Math.PI * 2); ctx.arc(x + 21, y + 12, 4, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = "#111";
    const look = a.vx > 0 ? 1.5 : -1.5;
    ctx.fillRect(x + 10 + look, y + 11, 2, 3);
    ctx.fillRect(x + 20 + look, y + 11, 2, 3);
  }

  function drawExit(c) {
    const e = c.exit;
    const open = c.score >= c.coins.length;
    const x = e.x, y = e.y + OY;
    ctx.fillStyle = open ? COLORS.exitOpen : COLORS.exitLocked;
    ctx.strokeStyle = open ? COLORS.exitOpenDark : COLORS.exitLockedDark;
    ctx.lineWidth = 3;
    ctx.fillRect(x + 2, y + e.h - 10, e.w - 4, 10);
    ctx.fillRect(x + 2, y, e.w - 4, 8);
    ctx.strokeRect(x + 2, y, e.w - 4, e.h);
    ctx.globalAlpha = open ? 0.55 : 0.3;
    ctx.fillRect(x + 6, y + 8, e.w - 12, e.h - 18);
    ctx.globalAlpha = 1;
    if (!open) {
      ctx.strokeStyle = "#222";
      ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(x + 20, y + 36, 7, Math.PI, 2 * Math.PI); ctx.stroke();
      ctx.fillStyle = "#333";
      ctx.fillRect(x + 10, y + 36, 20, 16);
    }
  }

  // The HUD is painted into its own small canvas only when its text changes
  // (outlined text is costly in a software rasterizer) and blitted each frame.
  let hudLayer = null;
  let hctx = null;
  let hudKey = null;
  function fuelText(c) {
    return "Fuel " + (c.p.fuel / TICK_HZ).toFixed(1) + " s";
  }
  function paintHud(c) {
    hctx.fillStyle = "#10121B";
    hctx.fillRect(0, 0, W, HUD_H);
    textOutlined(hctx, "Captain Callisto", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined(hctx, "Level " + c.level, 262, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined(hctx, "Coins " + c.score + "/" + c.coins.length, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined(hctx, "Deaths " + c.deaths + "   " + fuelText(c), W - 20, HUD_H / 2, "bold 24px sans-serif", "right");
  }
  function drawHud(c) {
    if (!hudLayer) {
      hudLayer = document.createElement("canvas");
      hudLayer.width = W;
      hudLayer.height = HUD_H;
      hctx = hudLayer.getContext("2d");
    }
    const key = c.level + "|" + c.score + "|" + c.deaths + "|" + fuelText(c);
    if (key !== hudKey) { paintHud(c); hudKey = key; }
    ctx.drawImage(hudLayer, 0, 0);
  }

  function drawPanel(lines) {
    const pw = 600;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => textOutlined(ctx, ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    const c = core;
    ctx.drawImage(levelLayer(c.level), 0, OY);
    drawExit(c);
    for (const o of c.coins) if (!o.taken) drawCoin(o.x, o.y + OY);
    for (const f of c.cans) if (!f.taken) drawCan(f);
    for (const a of c.aliens) if (a.alive || a.squash > 0) drawAlien(a, c);
    if (c.dead === 0) drawAstronaut(c);
    drawHud(c);
    if (c.p.frozen && c.dead === 0 && c.status === "playing") {
      textOutlined(ctx, "Press a move key", c.p.x + PW / 2, c.p.y + OY - 22, "bold 20px sans-serif", "center");
    }
    if (c.status === "terminal") {
      drawPanel([
        { text: "LEVEL COMPLETE", font: "bold 36px sans-serif" },
        { text: "Coins " + c.score + "/" + c.coins.length, font: "bold 28px sans-serif" },
        { text: "Press Enter to play again", font: "20px sans-serif" },
      ]);
    }
  }

  // ---------------------------------------------------------------------------
  // Loop (catalog/games/_shell): one rAF loop for the page's lifetime, fixed
  // ticks from an accumulator, a backlog dropped rather than spiral.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let ticked = false;           // ticks ran in this frame

  const loop = Shell.loop({
    tickMs: TICK_MS,
    tick() {
      ticked = true;
      const inp = consumeInput();
      if (core) core.tick(inp);
    },
    render() {
      if (ticked) render();         // nothing moves between ticks: no redraw needed
      ticked = false;
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI; episodes (catalog/games/_shell) carry the seed and level
  // over and count the attempts. The seed is only reported: hand-made levels.
  // ---------------------------------------------------------------------------
  function pickLevel(v) {
    const n = Number(v);
    return Number.isInteger(n) && n >= 1 && n <= LEVEL_COUNT ? n : 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(level);
      render();
    },
  });

  function stateOf(s) {
    return {
      gameId: GAME_ID,
      seed: ep.seed,
      timestampMs: Date.now(),     // the harness's virtual clock
      gameTimeMs: s.gameTimeMs,
      status: s.status,
      terminal: s.terminal,
      game_state: {
        score: s.score,
        coins_total: s.total,
        level: s.level,
        completion_progress: s.total ? s.score / s.total : 0,
        player: s.player,
        coins: s.coins,
        enemies: s.enemies,
        fuel_cans: s.fuel_cans,
        exit: s.exit,
      },
      metrics: {
        primary_score: s.score,
        coins: s.score,
        deaths: s.deaths,
        distance_to_goal: s.goal,
        fuel_pickups: s.fuelPickups,
        aliens_stomped: s.stomps,
        restarts: s.restarts,
        attempts: ep.attempts,
      },
      raw: { tile: TILE, world_y0_screen: OY },
    };
  }

  const api = {
    capabilities: {
      supports_seed: false,        // hand-made levels, no randomness at all
      supports_inplace_reset: true,
      supports_level_select: true,
    },

    init: ep.init,
    reset: ep.reset,

    getState() {
      if (!core) {
        return stateOf(Object.assign(createCore(ep.level).snapshot(), { status: "loading" }));
      }
      return stateOf(core.snapshot());
    },
  };

  // Private handle for oracle.js only: always the live episode's core.
  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
