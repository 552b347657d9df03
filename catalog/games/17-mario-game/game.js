// Mario Game for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer with the level painted once onto an offscreen canvas, and
// on the games' shared shell (catalog/games/_shell/shell.js, loaded before this
// file) a keyboard queue, one requestAnimationFrame loop with fixed 1/60 s
// ticks, the episodes and window.gameAPI. The oracle clones the core through
// window.__gwCore to look ahead; nothing else is exposed. The level is fixed:
// no randomness at all.
(function () {
  "use strict";

  const GAME_ID = "17-mario-game";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 17). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TILE = 40;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const WALK = 300;
  const ACCEL = 1200;
  const FRICTION = 1500;          // ground deceleration with no arrow held
  const JUMP_VY = -1000;
  const G_HOLD = 1400;            // while Up is held and rising, at most HOLD_TICKS
  const G = 2600;
  const HOLD_TICKS = 15;          // 0.25 s: a held jump rises ~285 px, a tap ~190 px
  const MAX_FALL = 900;
  const BUFFER_TICKS = 6;         // 0.1 s jump buffer (docs/games.md 1.3)
  const COYOTE_TICKS = 6;         // 0.1 s coyote time
  const STOMP_BOUNCE = -550;
  const MW = 32;
  const SMALL_H = 40;
  const BIG_H = 72;
  const INVULN_TICKS = 90;        // 1.5 s after shrinking or respawning

  const ENEMY_SPEED = 80;
  const SHELL_SPEED = 480;
  const MUSH_SPEED = 120;
  const EMERGE_TICKS = 24;

  const COIN_POINTS = 200;
  const MUSH_POINTS = 1000;
  const BRICK_POINTS = 50;
  const STOMP_POINTS = 100;
  const SHELL_POINTS = 500;

  const LIVES = 3;
  const TIMER_UNITS = 300;
  const UNITS_PER_S = 2.5;

  const START_X = 120;
  const MID_X = 2000;             // half-way flag: the respawn point once passed
  const FLAG_X = 3800;            // pole tile; the pole line is at FLAG_X + 20
  const POLE_X = FLAG_X + 20;
  const GROUND_TOP = 640;
  const POLE_H = 400;
  // Grab height (feet above the ground) -> points, best first.
  const FLAG_BANDS = [[360, 5000], [280, 2000], [200, 800], [100, 400], [-1e9, 100]];

  // Legend: . empty, # ground, B brick, ? coin block, M mushroom block,
  // S hard block (stairs), P pipe, o floating coin, g goomba, k koopa.
  // The hard-block wall just right of the start (column 4) is 8 tiles high,
  // above the highest jump from the ground (7 tiles): the way over is the step
  // at the left end, so Mario first jumps left onto it, then right over the wall
  // (holding one direction, with or without jumping, never gets past).
  const LEVEL = [
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    "....................................................................................................",
    "....S..........?.........................................?..........................................",
    "....S...............................................................................................",
    "....S...............................................................................................",
    "....S........................................oo................................oo..........SSS......",
    "SS..S....?...B?BMB..............................?.......B?B..........?.?..........?.......SSSS......",
    "....S.........................PP.........................................................SSSSS......",
    "....S.................PP......PP........................................................SSSSSS......",
    "....S..............g..PP...g..PP...g.g...............g.......k............g.g.......g..SSSSSSS......",
    "#########################################..#####################...#################################",
    "#########################################..#####################...#################################",
  ];
  const ROWS = LEVEL.length;
  const COLS = LEVEL[0].length;
  const LEVEL_W = COLS * TILE;

  // Tile codes in the core's grid.
  const T_EMPTY = 0, T_GROUND = 1, T_BRICK = 2, T_QCOIN = 3, T_QMUSH = 4, T_USED = 5, T_HARD = 6, T_PIPE = 7;
  const TILE_OF = { "#": T_GROUND, "B": T_BRICK, "?": T_QCOIN, "M": T_QMUSH, "S": T_HARD, "P": T_PIPE };

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function Core() {}

  function createCore(level) {
    const c = new Core();
    c.level = level;
    c.tiles = new Uint8Array(COLS * ROWS);
    c.coinsAir = [];
    c.enemies = [];
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const ch = LEVEL[r][col];
        c.tiles[r * COLS + col] = TILE_OF[ch] || T_EMPTY;
        if (ch === "o") c.coinsAir.push({ x: col * TILE + 8, y: r * TILE + 4, w: 24, h: 32, taken: false });
        if (ch === "g") c.enemies.push(makeEnemy("goomba", col * TILE + 4, (r + 1) * TILE - 32, 32));
        if (ch === "k") c.enemies.push(makeEnemy("koopa", col * TILE + 4, (r + 1) * TILE - 48, 48));
      }
    }
    c.items = [];
    c.fx = [];                    // cosmetic: block bumps and score pop-ups {kind, x, y, t, text}
    c.changedTiles = [];          // tiles changed since the renderer last looked
    c.status = "playing";
    c.outcome = null;
    c.reason = null;
    c.totalTicks = 0;
    c.playTicks = 0;
    c.lifeTicks = 0;              // ticks since the current life began (timer)
    c.score = 0;
    c.coins = 0;
    c.lives = LIVES;
    c.stomps = 0;
    c.kills = 0;
    c.deaths = 0;
    c.blocksHit = 0;
    c.bricks = 0;
    c.mushrooms = 0;
    c.flagPoints = 0;
    c.checkpoint = START_X;
    c.lastLoss = null;            // "pit", "enemy" or "time": why the last life was lost
    c.shrinks = 0;
    c.camX = 0;
    c.maxX = START_X;
    c.m = newMario(START_X);
    return c;
  }

  function makeEnemy(type, x, y, h) {
    return { type: type, x: x, y: y, w: 32, h: h, vx: -ENEMY_SPEED, vy: 0, alive: true,
      active: false, squash: 0, grace: 0 };
  }

  function newMario(x) {
    return { x: x, y: GROUND_TOP - SMALL_H, vx: 0, vy: 0, big: false, onGround: true, coyote: 0,
      buffer: 0, jumping: false, jumpHold: 0, invuln: 0, duck: false, face: 1 };
  }

  Core.prototype.tileAt = function (col, row) {
    if (col < 0 || col >= COLS) return T_HARD;   // the level's ends are walls
    if (row < 0 || row >= ROWS) return T_EMPTY;  // above the sky and below pits: open
    return this.tiles[row * COLS + col];
  };

  Core.prototype.solidIn = function (x, y, w, h) {
    const c0 = Math.floor(x / TILE), c1 = Math.floor((x + w - 0.001) / TILE);
    const r0 = Math.floor(y / TILE), r1 = Math.floor((y + h - 0.001) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let col = c0; col <= c1; col++) {
        if (this.tileAt(col, r) !== T_EMPTY) return { col: col, row: r };
      }
    }
    return null;
  };

  // Moves a box {x, y, w, h, vx, vy} by its velocity with tile collisions,
  // x first, then y. Returns {hitX, hitCeil, landed, ceilTile}.
  Core.prototype.moveBox = function (b) {
    const out = { hitX: false, hitCeil: false, landed: false, ceilCol: -1, ceilRow: -1 };
    b.x += b.vx * DT;
    const hx = this.solidIn(b.x, b.y, b.w, b.h);
    if (hx) {
      if (b.vx > 0) b.x = Math.floor((b.x + b.w) / TILE) * TILE - b.w;
      else if (b.vx < 0) b.x = (Math.floor(b.x / TILE) + 1) * TILE;
      out.hitX = true;
    }
    b.y += b.vy * DT;
    const hy = this.solidIn(b.x, b.y, b.w, b.h);
    if (hy) {
      if (b.vy > 0) {
        b.y = Math.floor((b.y + b.h) / TILE) * TILE - b.h;
        out.landed = true;
      } else if (b.vy < 0) {
        b.y = (Math.floor(b.y / TILE) + 1) * TILE;
        out.hitCeil = true;
        // The block bumped is the one over Mario's centre if solid, else the one touched.
        const row = Math.floor((b.y - 1) / TILE);
        const mid = Math.floor((b.x + b.w / 2) / TILE);
        out.ceilRow = row;
        out.ceilCol = this.tileAt(mid, row) !== T_EMPTY ? mid : hy.col;
      }
      b.vy = 0;
    }
    return out;
  };

  Core.prototype.onSolid = function (b) {
    return this.solidIn(b.x + 1, b.y + b.h, b.w - 2, 1) !== null;
  };

  Core.prototype.marioH = function () {
    return this.m.big ? BIG_H : SMALL_H;
  };

  Core.prototype.addScore = function (points, x, y) {
    this.score += points;
    this.fx.push({ kind: "text", x: x, y: y, t: 40, text: String(points) });
  };

  Core.prototype.setTile = function (col, row, code) {
    this.tiles[row * COLS + col] = code;
    this.changedTiles.push(row * COLS + col);
  };

  Core.prototype.bump = function (col, row) {
    const t = this.tileAt(col, row);
    const bx = col * TILE, by = row * TILE;
    if (t === T_QCOIN) {
      this.setTile(col, row, T_USED);
      this.coins++;
      this.blocksHit++;
      this.addScore(COIN_POINTS, bx + 20, by - 30);
      this.fx.push({ kind: "coin", x: bx + 20, y: by - 20, t: 24 });
    } else if (t === T_QMUSH) {
      this.setTile(col, row, T_USED);
      this.blocksHit++;
      this.items.push({ x: bx + 4, y: by, w: 32, h: 32, vx: MUSH_SPEED, vy: 0, emerge: EMERGE_TICKS });
    } else if (t === T_BRICK && this.m.big) {
      this.setTile(col, row, T_EMPTY);
      this.blocksHit++;
      this.bricks++;
      this.addScore(BRICK_POINTS, bx + 20, by - 10);
      this.fx.push({ kind: "debris", x: bx + 20, y: by + 20, t: 30 });
    } else if (t === T_BRICK) {
      this.fx.push({ kind: "bump", x: col, y: row, t: 8 });
    }
  };

  // input = {left, right, up, down: held this tick; jump: Up press edge this tick}
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    for (let i = this.fx.length - 1; i >= 0; i--) if (--this.fx[i].t <= 0) this.fx.splice(i, 1);
    if (this.status !== "playing") return;
    this.playTicks++;
    this.lifeTicks++;
    const inp = input || {};
    this.stepMario(inp);
    if (this.status !== "playing") return;
    this.stepItems();
    this.stepEnemies();
    this.touchEnemies();
    if (this.status !== "playing") return;
    this.checkFlag();
    if (this.status === "playing" && this.timeUnits() <= 0) this.loseLife("time");
  };

  Core.prototype.timeUnits = function () {
    return Math.max(0, TIMER_UNITS - this.lifeTicks * UNITS_PER_S / TICK_HZ);
  };

  Core.prototype.stepMario = function (inp) {
    const m = this.m;
    if (m.invuln > 0) m.invuln--;
    if (inp.jump) m.buffer = BUFFER_TICKS + 1;
    m.duck = !!inp.down && m.onGround;
    let dir = (inp.right ? 1 : 0) - (inp.left ? 1 : 0);
    if (m.duck) dir = 0;
    if (dir !== 0) {
      m.face = dir;
      m.vx += dir * (m.vx * dir < 0 ? ACCEL + FRICTION : ACCEL) * DT;
      if (m.vx > WALK) m.vx = WALK;
      if (m.vx < -WALK) m.vx = -WALK;
    } else if (m.onGround) {
      const dv = FRICTION * DT;
      m.vx = Math.abs(m.vx) <= dv ? 0 : m.vx - Math.sign(m.vx) * dv;
    }
    if (m.buffer > 0 && (m.onGround || m.coyote > 0)) {
      m.vy = JUMP_VY;
      m.jumping = true;
      m.jumpHold = 0;
      m.buffer = 0;
      m.coyote = 0;
      m.onGround = false;
      m.duck = false;
    }
    if (m.buffer > 0) m.buffer--;
    let g = G;
    if (m.jumping && inp.up && m.vy < 0 && m.jumpHold < HOLD_TICKS) {
      g = G_HOLD;
      m.jumpHold++;
    } else {
      m.jumping = false;           // releasing Up ends the high-jump phase for good
    }
    m.vy = Math.min(m.vy + g * DT, MAX_FALL);

    const box = { x: m.x, y: m.y, w: MW, h: this.marioH(), vx: m.vx, vy: m.vy };
    const res = this.moveBox(box);
    m.x = box.x; m.y = box.y; m.vy = box.vy;
    if (res.hitX) m.vx = 0;
    // The camera never goes back, and Mario cannot leave it on the left.
    if (m.x < this.camX) { m.x = this.camX; if (m.vx < 0) m.vx = 0; }
    if (res.hitCeil) {
      m.jumping = false;
      this.bump(res.ceilCol, res.ceilRow);
    }
    m.onGround = m.vy >= 0 && this.onSolid(box);
    if (m.onGround) m.coyote = COYOTE_TICKS;
    else if (m.coyote > 0) m.coyote--;
    if (m.y > H) { this.loseLife("pit"); return; }

    this.maxX = Math.max(this.maxX, m.x);
    if (m.x >= MID_X && this.checkpoint < MID_X) this.checkpoint = MID_X;
    const target = Math.min(LEVEL_W - W, m.x - 520);
    if (target > this.camX) this.camX = target;

    for (const coin of this.coinsAir) {
      if (!coin.taken && overlap(m.x, m.y, MW, box.h, coin.x, coin.y, coin.w, coin.h)) {
        coin.taken = true;
        this.coins++;
        this.addScore(COIN_POINTS, coin.x + 12, coin.y - 10);
      }
    }
  };

  Core.prototype.stepItems = function () {
    const m = this.m;
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it.emerge > 0) {
        it.emerge--;
        it.y -= TILE / EMERGE_TICKS;
        continue;
      }
      it.vy = Math.min(it.vy + G * DT, MAX_FALL);
      const res = this.moveBox(it);
      if (res.hitX || it.x <= 0) it.vx = -it.vx;
      if (it.y > H) { this.items.splice(i, 1); continue; }
      if (overlap(m.x, m.y, MW, this.marioH(), it.x, it.y, it.w, it.h)) {
        this.items.splice(i, 1);
        this.mushrooms++;
        this.addScore(MUSH_POINTS, it.x + 16, it.y - 10);
        if (!m.big) this.grow();
      }
    }
  };

  Core.prototype.grow = function () {
    const m = this.m;
    m.big = true;
    // Grow upwards; if a block is in the way, grow downwards and let landing fix it.
    if (!this.solidIn(m.x, m.y - (BIG_H - SMALL_H), MW, BIG_H)) m.y -= BIG_H - SMALL_H;
  };

  Core.prototype.stepEnemies = function () {
    const wake = this.camX + W + 40;
    const list = this.enemies;
    for (const e of list) {
      if (!e.alive) { if (e.squash > 0) e.squash--; continue; }
      if (!e.active) { if (e.x < wake) e.active = true; else continue; }
      if (e.grace > 0) e.grace--;
      e.vy = Math.min(e.vy + G * DT, MAX_FALL);
      const res = this.moveBox(e);
      if (res.hitX) e.vx = -e.vx;
      if (e.y > H) { e.alive = false; e.squash = 0; }
    }
    for (let i = 0; i < list.length; i++) {
      const a = list[i];
      if (!a.alive || !a.active) continue;
      for (let j = i + 1; j < list.length; j++) {
        const b = list[j];
        if (!b.alive || !b.active || !overlap(a.x, a.y, a.w, a.h, b.x, b.y, b.w, b.h)) continue;
        const aShell = a.type === "shell" && a.vx !== 0;
        const bShell = b.type === "shell" && b.vx !== 0;
        if (aShell || bShell) {
          const victim = aShell ? b : a;
          if (aShell && bShell) continue;
          victim.alive = false;
          victim.squash = 0;
          this.kills++;
          this.addScore(SHELL_POINTS, victim.x + 16, victim.y - 10);
        } else {
          // Walking into each other: both turn round, apart.
          const sa = a.x < b.x ? -1 : 1;
          a.vx = sa * Math.abs(a.vx);
          b.vx = -sa * Math.abs(b.vx);
        }
      }
    }
  };

  Core.prototype.touchEnemies = function () {
    const m = this.m;
    const h = this.marioH();
    for (const e of this.enemies) {
      if (!e.alive || !e.active || this.status !== "playing") continue;
      if (!overlap(m.x, m.y, MW, h, e.x, e.y, e.w, e.h)) continue;
      const prevBottom = m.y + h - m.vy * DT;
      if (e.type === "shell" && e.vx === 0) {
        e.vx = m.x + MW / 2 < e.x + e.w / 2 ? SHELL_SPEED : -SHELL_SPEED;
        e.grace = 12;
      } else if (m.vy > 0 && prevBottom <= e.y + 12) {
        this.stomp(e);
      } else if (e.type === "shell" && e.grace > 0) {
        // Just kicked: it cannot hurt the kicker.
      } else {
        this.hurt();
      }
    }
  };

  Core.prototype.stomp = function (e) {
    const m = this.m;
    m.vy = STOMP_BOUNCE;
    m.jumping = false;
    m.y = e.y - this.marioH();
    if (e.type === "goomba") {
      e.alive = false;
      e.squash = 30;
      this.stomps++;
      this.addScore(STOMP_POINTS, e.x + 16, e.y - 10);
    } else if (e.type === "koopa") {
      e.type = "shell";
      e.y += e.h - 32;
      e.h = 32;
      e.vx = 0;
      this.stomps++;
      this.addScore(STOMP_POINTS, e.x + 16, e.y - 10);
    } else {
      e.vx = 0;                    // stomping a moving shell stops it
    }
  };

  Core.prototype.hurt = function () {
    const m = this.m;
    if (m.invuln > 0) return;
    if (m.big) {
      m.big = false;
      m.y += BIG_H - SMALL_H;
      m.invuln = INVULN_TICKS;
      this.shrinks++;
    } else {
      this.loseLife("enemy");
    }
  };

  Core.prototype.loseLife = function (why) {
    this.lives--;
    this.deaths++;
    this.lastLoss = why;
    if (this.lives <= 0) {
      this.lives = 0;
      this.m.vx = 0;
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "out_of_lives";
      return;
    }
    this.m = newMario(this.checkpoint);
    this.m.invuln = INVULN_TICKS;
    this.camX = Math.max(0, this.checkpoint - 200);
    this.lifeTicks = 0;
  };

  Core.prototype.checkFlag = function () {
    const m = this.m;
    if (m.x + MW < POLE_X - 4 || m.x > POLE_X + 4) return;
    const feet = GROUND_TOP - (m.y + this.marioH());
    let points = 100;
    for (const [h, p] of FLAG_BANDS) if (feet >= h) { points = p; break; }
    this.flagPoints = points;
    this.addScore(points, POLE_X, Math.max(HUD_H + 40, m.y));
    this.m.vx = 0;
    this.status = "terminal";
    this.outcome = "success";
    this.reason = "level_complete";
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.tiles = this.tiles.slice();
    c.coinsAir = this.coinsAir.map((o) => Object.assign({}, o));
    c.enemies = this.enemies.map((o) => Object.assign({}, o));
    c.items = this.items.map((o) => Object.assign({}, o));
    c.fx = [];
    c.changedTiles = [];
    c.m = Object.assign({}, this.m);
    return c;
  };

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  function dist2(m, x, y) {
    return (x - m.x) * (x - m.x) + (y - m.y) * (y - m.y);
  }

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const m = this.m;
    const h = this.marioH();
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    const near = (list) => list.sort((a, b) => dist2(m, a.x, a.y) - dist2(m, b.x, b.y));
    const enemies = near(this.enemies.filter((e) => e.alive).map((e) => ({
      type: e.type, x: e.x, y: e.y, w: e.w, h: e.h, vx: e.vx, active: e.active,
    }))).slice(0, 12);
    const blocks = [];
    const c0 = Math.max(0, Math.floor(this.camX / TILE));
    const c1 = Math.min(COLS - 1, Math.floor((this.camX + W) / TILE));
    const names = { [T_BRICK]: "brick", [T_QCOIN]: "question", [T_QMUSH]: "question", [T_USED]: "used" };
    for (let r = 0; r < ROWS; r++) {
      for (let col = c0; col <= c1; col++) {
        const name = names[this.tiles[r * COLS + col]];
        if (name) blocks.push({ type: name, col: col, row: r, x: col * TILE, y: r * TILE });
      }
    }
    const items = this.items.map((it) => ({ type: "mushroom", x: it.x, y: it.y, vx: it.vx }))
      .concat(this.coinsAir.filter((o) => !o.taken).map((o) => ({ type: "coin", x: o.x, y: o.y, vx: 0 })));
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score,
      level: this.level,
      lives: this.lives,
      coins: this.coins,
      timeLeftS: Math.round(this.timeUnits() / UNITS_PER_S * 100) / 100,
      timeUnits: Math.ceil(this.timeUnits()),
      player: {
        x: m.x, y: m.y, vx: m.vx, vy: m.vy, w: MW, h: h, size: m.big ? "big" : "small",
        on_ground: m.onGround, invulnerable_ms: Math.round(m.invuln * 1000 / TICK_HZ), alive: alive,
      },
      enemies: enemies,
      blocks: near(blocks).slice(0, 30),
      items: near(items).slice(0, 12),
      progress: Math.min(1, this.maxX / FLAG_X),
      stomps: this.stomps,
      kills: this.kills,
      deaths: this.deaths,
      blocksHit: this.blocksHit,
      camX: this.camX,
      flagPoints: this.flagPoints,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard (catalog/games/_shell): events are queued and consumed at the start
  // of each tick, so a press and release between two ticks still gives one
  // `pressed` edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the end screen starts again (the harness resets itself).
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  function consumeInput() {
    const { pressed, down: held } = keys.take();
    for (const k of pressed) held.add(k);   // a tap counts as held for one tick
    return {
      left: held.has("ArrowLeft"), right: held.has("ArrowRight"),
      up: held.has("ArrowUp"), down: held.has("ArrowDown"), jump: pressed.has("ArrowUp"),
    };
  }

  // ---------------------------------------------------------------------------
  // Renderer: the level (sky, hills, tiles, pole, castle) is painted once onto
  // a 4000 px wide offscreen canvas; used or broken blocks repaint one tile.
  // Each frame blits the camera's slice, then draws the moving things and HUD.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    sky: "#A9C8E8",
    hill: "#B8D4B0",
    ground: "#8D6E4A", groundDark: "#5E4630", groundTop: "#A9896A",
    brick: "#A0522D", mortar: "#5B2E16",
    qblock: "#F5C518", qrim: "#7A5A00",
    used: "#8A7B6A", usedDark: "#54493E",
    hard: "#9E8E7E", hardDark: "#5F5449",
    pipe: "#2F8F3F", pipeLight: "#5DBB69", pipeDark: "#174D20",
    pole: "#D0D0D0", goalFlag: "#2ECC71", midFlag: "#9E9E9E",
    castle: "#8C7F76", castleDark: "#4D4540",
    coin: "#F5C518", coinRim: "#7A5A00",
    marioRed: "#E0282E", skin: "#F4C28E", overalls: "#3A4FA0", hair: "#4A2A10",
    goomba: "#8B4513", goombaDark: "#4A240A",
    koopa: "#2E9E3E", koopaDark: "#145A20", koopaSkin: "#E8D27A",
    mushCap: "#F5C518", mushSpot: "#FFFFFF", mushStem: "#F3E3C3",
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

  let levelLayer = null;
  let levelCtx = null;

  function paintTile(g, code, col, row) {
    const x = col * TILE, y = row * TILE;
    g.fillStyle = COLORS.sky;
    g.fillRect(x, y, TILE, TILE);
    if (code === T_EMPTY) { paintBackdropAt(g, x, y); return; }
    if (code === T_GROUND) {
      g.fillStyle = COLORS.ground;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.groundDark;
      g.lineWidth = 2;
      g.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
      if (row === 16) { g.fillStyle = COLORS.groundTop; g.fillRect(x, y, TILE, 5); }
    } else if (code === T_BRICK) {
      g.fillStyle = COLORS.brick;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.mortar;
      g.lineWidth = 2;
      g.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
      g.beginPath();
      g.moveTo(x, y + 20); g.lineTo(x + 40, y + 20);
      g.moveTo(x + 20, y); g.lineTo(x + 20, y + 20);
      g.moveTo(x + 10, y + 20); g.lineTo(x + 10, y + 40);
      g.moveTo(x + 30, y + 20); g.lineTo(x + 30, y + 40);
      g.stroke();
    } else if (code === T_QCOIN || code === T_QMUSH) {
      g.fillStyle = COLORS.qblock;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.qrim;
      g.lineWidth = 3;
      g.strokeRect(x + 1.5, y + 1.5, TILE - 3, TILE - 3);
      g.fillStyle = COLORS.qrim;
      g.font = "bold 28px sans-serif";
      g.textAlign = "center";
      g.textBaseline = "middle";
      g.fillText("?", x + 20, y + 22);
    } else if (code === T_USED) {
      g.fillStyle = COLORS.used;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.usedDark;
      g.lineWidth = 3;
      g.strokeRect(x + 1.5, y + 1.5, TILE - 3, TILE - 3);
    } else if (code === T_HARD) {
      g.fillStyle = COLORS.hard;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.hardDark;
      g.lineWidth = 3;
      g.strokeRect(x + 1.5, y + 1.5, TILE - 3, TILE - 3);
      g.beginPath(); g.moveTo(x + 4, y + 4); g.lineTo(x + 36, y + 36); g.stroke();
    } else if (code === T_PIPE) {
      const left = levelGrid(col - 1, row) !== "P";
      const top = levelGrid(col, row - 1) !== "P";
      g.fillStyle = COLORS.pipe;
      g.fillRect(x, y, TILE, TILE);
      g.fillStyle = COLORS.pipeLight;
      if (left) g.fillRect(x + 8, y, 8, TILE);
      g.strokeStyle = COLORS.pipeDark;
      g.lineWidth = 3;
      g.beginPath();
      if (left) { g.moveTo(x + 1.5, y); g.lineTo(x + 1.5, y + TILE); }
      else { g.moveTo(x + TILE - 1.5, y); g.lineTo(x + TILE - 1.5, y + TILE); }
      if (top) { g.moveTo(x, y + 1.5); g.lineTo(x + TILE, y + 1.5); g.moveTo(x, y + 14); g.lineTo(x + TILE, y + 14); }
      g.stroke();
    }
  }

  function levelGrid(col, row) {
    return row >= 0 && row < ROWS && col >= 0 && col < COLS ? LEVEL[row][col] : ".";
  }

  // Decoration that lives in empty tiles (hills); repainted with the tile.
  function paintBackdropAt(g, x, y) {
    g.save();
    g.beginPath();
    g.rect(x, y, TILE, TILE);
    g.clip();
    paintHills(g);
    g.restore();
  }

  function paintHills(g) {
    g.fillStyle = COLORS.hill;
    for (let hx = 200; hx < LEVEL_W; hx += 760) {
      g.beginPath();
      g.ellipse(hx, GROUND_TOP, 150, 90, 0, Math.PI, 2 * Math.PI);
      g.fill();
    }
  }

  function buildLevelLayer(c) {
    if (!levelLayer) {
      levelLayer = document.createElement("canvas");
      levelLayer.width = LEVEL_W;
      levelLayer.height = H;
      levelCtx = levelLayer.getContext("2d");
    }
    const g = levelCtx;
    g.fillStyle = COLORS.sky;
    g.fillRect(0, 0, LEVEL_W, H);
    paintHills(g);
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const t = c.tiles[r * COLS + col];
        if (t !== T_EMPTY) paintTile(g, t, col, r);
        else if (r >= ROWS - 2) { g.fillStyle = "#2B2622"; g.fillRect(col * TILE, r * TILE, TILE, TILE); }
      }
    }
    // Half-way flag (grey), flagpole with the green goal flag, castle.
    g.fillStyle = COLORS.pole;
    g.fillRect(MID_X + 18, GROUND_TOP - 120, 4, 120);
    g.fillStyle = COLORS.midFlag;
    g.beginPath(); g.moveTo(MID_X + 22, GROUND_TOP - 120); g.lineTo(MID_X + 62, GROUND_TOP - 105);
    g.lineTo(MID_X + 22, GROUND_TOP - 90); g.fill();
    g.fillStyle = COLORS.pole;
    g.strokeStyle = "#555";
    g.lineWidth = 2;
    g.fillRect(POLE_X - 3, GROUND_TOP - POLE_H, 6, POLE_H);
    g.strokeRect(POLE_X - 3, GROUND_TOP - POLE_H, 6, POLE_H);
    g.fillStyle = COLORS.goalFlag;
    g.beginPath(); g.arc(POLE_X, GROUND_TOP - POLE_H - 8, 9, 0, Math.PI * 2); g.fill(); g.stroke();
    g.beginPath(); g.moveTo(POLE_X - 3, GROUND_TOP - POLE_H + 6); g.lineTo(POLE_X - 60, GROUND_TOP - POLE_H + 26);
    g.lineTo(POLE_X - 3, GROUND_TOP - POLE_H + 46); g.closePath(); g.fill(); g.stroke();
    const cx = LEVEL_W - 120;
    g.fillStyle = COLORS.castle;
    g.fillRect(cx, GROUND_TOP - 160, 120, 160);
    g.fillRect(cx + 20, GROUND_TOP - 220, 80, 60);
    g.fillStyle = COLORS.castleDark;
    g.fillRect(cx + 44, GROUND_TOP - 70, 32, 70);
    g.fillRect(cx + 50, GROUND_TOP - 200, 20, 24);
  }

  let layerCore = null;             // the core whose tiles the layer shows
  function syncLevelLayer(c) {
    if (layerCore !== c) {
      buildLevelLayer(c);          // a new episode: paint the whole level once
      layerCore = c;
    } else {
      for (const idx of c.changedTiles) paintTile(levelCtx, c.tiles[idx], idx % COLS, Math.floor(idx / COLS));
    }
    c.changedTiles.length = 0;
  }

  function drawMario(c, sx) {
    const m = c.m;
    const h = c.marioH();
    if (m.invuln > 0 && Math.floor(c.totalTicks / 4) % 2 === 0) ctx.globalAlpha = 0.45;
    const x = Math.round(m.x - sx), y = Math.round(m.y);
    const duck = m.duck ? Math.round(h * 0.3) : 0;
    const top = y + duck, hh = h - duck;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    // cap
    ctx.fillStyle = COLORS.marioRed;
    ctx.fillRect(x + 2, top, 28, 9);
    ctx.fillRect(m.face > 0 ? x + 16 : x - 2, top + 5, 18, 5);
    // face
    ctx.fillStyle = COLORS.skin;
    ctx.fillRect(x + 5, top + 9, 22, Math.round(hh * 0.28));
    ctx.fillStyle = "#111";
    ctx.fillRect(m.face > 0 ? x + 19 : x + 9, top + 12, 4, 5);
    ctx.fillStyle = COLORS.hair;
    ctx.fillRect(m.face > 0 ? x + 14 : x + 6, top + 18, 12, 3);
    // shirt and overalls
    const bodyTop = top + 9 + Math.round(hh * 0.28);
    ctx.fillStyle = COLORS.marioRed;
    ctx.fillRect(x + 2, bodyTop, 28, top + hh - bodyTop);
    ctx.fillStyle = COLORS.overalls;
    ctx.fillRect(x + 7, bodyTop + Math.round((top + hh - bodyTop) * 0.35), 18, Math.round((top + hh - bodyTop) * 0.65) - 4);
    ctx.fillStyle = COLORS.hair;
    ctx.fillRect(x + 2, top + hh - 5, 12, 5);
    ctx.fillRect(x + 18, top + hh - 5, 12, 5);
    ctx.strokeRect(x + 1, top, MW - 2, hh);
    ctx.globalAlpha = 1;
  }

  function drawEnemy(e, sx, c) {
    const x = Math.round(e.x - sx), y = Math.round(e.y);
    ctx.lineWidth = 2;
    if (e.type === "goomba") {
      const hh = e.alive ? 32 : 12;
      const yy = y + 32 - hh;
      ctx.fillStyle = COLORS.goomba;
      ctx.strokeStyle = COLORS.goombaDark;
      ctx.beginPath();
      ctx.ellipse(x + 16, yy + hh * 0.45, 17, hh * 0.45, 0, 0, Math.PI * 2);
      ctx.fill(); ctx.stroke();
      ctx.fillStyle = COLORS.mushStem;
      ctx.fillRect(x + 8, yy + hh * 0.7, 16, hh * 0.3);
      if (e.alive) {
        ctx.fillStyle = "#fff";
        ctx.fillRect(x + 8, y + 8, 6, 8); ctx.fillRect(x + 18, y + 8, 6, 8);
        ctx.fillStyle = "#111";
        ctx.fillRect(x + 10, y + 11, 3, 4); ctx.fillRect(x + 20, y + 11, 3, 4);
        const step = Math.floor(c.totalTicks / 8) % 2;
        ctx.fillStyle = COLORS.goombaDark;
        ctx.fillRect(x + (step ? 2 : 6), y + 27, 10, 5);
        ctx.fillRect(x + (step ? 20 : 16), y + 27, 10, 5);
      }
    } else if (e.type === "koopa") {
      ctx.fillStyle = COLORS.koopaSkin;
      const hx = e.vx < 0 ? x - 2 : x + 20;
      ctx.fillRect(hx, y, 14, 20);
      ctx.fillStyle = "#111";
      ctx.fillRect(hx + (e.vx < 0 ? 2 : 8), y + 5, 3, 4);
      ctx.fillStyle = COLORS.koopa;
      ctx.strokeStyle = COLORS.koopaDark;
      ctx.beginPath();
      ctx.ellipse(x + 16, y + 30, 16, 14, 0, Math.PI, 2 * Math.PI);
      ctx.lineTo(x, y + 40);
      ctx.lineTo(x + 32, y + 40);
      ctx.fill(); ctx.stroke();
      ctx.fillStyle = COLORS.koopaSkin;
      ctx.fillRect(x + 4, y + 40, 8, 8); ctx.fillRect(x + 20, y + 40, 8, 8);
    } else {
      ctx.fillStyle = COLORS.koopa;
      ctx.strokeStyle = COLORS.koopaDark;
      ctx.beginPath();
      ctx.ellipse(x + 16, y + 18, 16, 14, 0, 0, Math.PI * 2);
      ctx.fill(); ctx.stroke();
      ctx.fillStyle = "#fff";
      ctx.fillRect(x + 2, y + 20, 28, 4);
    }
  }

  function drawCoin(x, y, w, h) {
    ctx.fillStyle = COLORS.coin;
    ctx.strokeStyle = COLORS.coinRim;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.ellipse(x + w / 2, y + h / 2, w / 2, h / 2, 0, 0, Math.PI * 2);
    ctx.fill(); ctx.stroke();
    ctx.fillStyle = COLORS.coinRim;
    ctx.fillRect(x + w / 2 - 2, y + 8, 4, h - 16);
  }

  function drawMushroom(it, sx) {
    const x = Math.round(it.x - sx), y = Math.round(it.y);
    ctx.fillStyle = COLORS.mushStem;
    ctx.strokeStyle = COLORS.qrim;
    ctx.lineWidth = 2;
    ctx.fillRect(x + 8, y + 16, 16, 16);
    ctx.strokeRect(x + 8, y + 16, 16, 16);
    ctx.fillStyle = COLORS.mushCap;
    ctx.beginPath();
    ctx.ellipse(x + 16, y + 17, 16, 15, 0, Math.PI, 2 * Math.PI);
    ctx.closePath();
    ctx.fill(); ctx.stroke();
    ctx.fillStyle = COLORS.mushSpot;
    ctx.beginPath(); ctx.arc(x + 10, y + 9, 4, 0, Math.PI * 2); ctx.arc(x + 22, y + 9, 4, 0, Math.PI * 2); ctx.fill();
  }

  function drawFx(c, sx) {
    for (const f of c.fx) {
      if (f.kind === "text") {
        textOutlined(ctx, f.text, f.x - sx, f.y - (40 - f.t), "bold 20px sans-serif", "center");
      } else if (f.kind === "coin") {
        drawCoin(f.x - sx - 10, f.y - (24 - f.t) * 3, 20, 28);
      } else if (f.kind === "debris") {
        ctx.fillStyle = COLORS.brick;
        const d = (30 - f.t) * 3;
        for (const [dx, dy] of [[-1, -1], [1, -1], [-1, 0.3], [1, 0.3]]) {
          ctx.fillRect(f.x - sx + dx * d - 6, f.y + dy * d + (30 - f.t) * (30 - f.t) * 0.15, 12, 12);
        }
      } else if (f.kind === "bump") {
        ctx.drawImage(levelLayer, f.x * TILE, f.y * TILE, TILE, TILE, f.x * TILE - sx, f.y * TILE - 6, TILE, TILE);
      }
    }
  }

  // The HUD is painted into its own small canvas only when its text changes
  // (outlined text is costly in a software rasterizer) and blitted each frame.
  let hudLayer = null;
  let hctx = null;
  let hudKey = null;
  function paintHud(c) {
    hctx.clearRect(0, 0, W, HUD_H);
    hctx.fillStyle = "rgba(0,0,0,0.55)";
    hctx.fillRect(0, 0, W, HUD_H);
    textOutlined(hctx, "Mario Game", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined(hctx, "Level " + c.level, 192, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined(hctx, "Score " + c.score, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined(hctx, "Coins " + c.coins + "   Lives " + c.lives + "   Time " + Math.ceil(c.timeUnits()),
      W - 20, HUD_H / 2, "20px sans-serif", "right");
  }
  function drawHud(c) {
    if (!hudLayer) {
      hudLayer = document.createElement("canvas");
      hudLayer.width = W;
      hudLayer.height = HUD_H;
      hctx = hudLayer.getContext("2d");
    }
    const key = [c.level, c.score, c.coins, c.lives, Math.ceil(c.timeUnits())].join("|");
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
    syncLevelLayer(c);
    const sx = Math.round(c.camX);
    ctx.drawImage(levelLayer, sx, 0, W, H, 0, 0, W, H);
    for (const o of c.coinsAir) if (!o.taken && o.x + o.w > sx && o.x < sx + W) drawCoin(o.x - sx, o.y, o.w, o.h);
    for (const it of c.items) drawMushroom(it, sx);
    for (const e of c.enemies) {
      if ((e.alive || e.squash > 0) && e.x + e.w > sx && e.x < sx + W) drawEnemy(e, sx, c);
    }
    drawFx(c, sx);
    if (c.status !== "terminal" || c.outcome === "success") drawMario(c, sx);
    drawHud(c);
    if (c.status === "terminal") {
      const head = c.outcome === "success" ? "LEVEL COMPLETE" : "GAME OVER \u2013 " + c.reason;
      drawPanel([
        { text: head, font: "bold 36px sans-serif" },
        { text: "Score " + c.score + (c.flagPoints ? "   (flag +" + c.flagPoints + ")" : ""), font: "bold 28px sans-serif" },
        { text: "Press Enter to play again", font: "20px sans-serif" },
      ]);
    }
  }

  // ---------------------------------------------------------------------------
  // Loop: the shell's one rAF loop for the page's lifetime, fixed 1/60 s ticks
  // from an accumulator; a backlog of 15 ticks is dropped rather than spiral.
  // ---------------------------------------------------------------------------
  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen:
  // the last frame before each 50 ms mark), which keeps every screenshot exact
  // and skips two draws in three. A human in a normal browser gets every frame.
  let moved = false;            // ticks ran since the last drawn frame
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;

  const loop = Shell.loop({
    tickMs: TICK_MS,
    visibleOnly: true,
    tick() {
      const inp = consumeInput();
      if (core) core.tick(inp);
      moved = true;
    },
    render() {
      if (moved) { render(); moved = false; }   // nothing moves between ticks: no redraw needed
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  // One hand-made level: any level asked for is level 1.
  const ep = Shell.episodes({
    pickLevel: () => 1,
    start() {
      keys.clear();
      core = createCore(1);
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
        level: s.level,
        lives: s.lives,
        coins: s.coins,
        time_left_s: s.timeLeftS,
        completion_progress: s.progress,
        player: s.player,
        enemies: s.enemies,
        blocks: s.blocks,
        items: s.items,
        flag: { x: FLAG_X },
      },
      metrics: {
        primary_score: s.score,
        coins: s.coins,
        lives: s.lives,
        time_left_s: s.timeLeftS,
        stomps: s.stomps,
        shell_kills: s.kills,
        deaths: s.deaths,
        blocks_hit: s.blocksHit,
        attempts: ep.attempts,
      },
      raw: { time_units: s.timeUnits, camera_x: s.camX, flag_points: s.flagPoints, tile: TILE },
    };
  }

  const api = {
    capabilities: {
      supports_seed: false,        // one hand-made level, no randomness at all
      supports_inplace_reset: true,
      supports_level_select: false,
    },

    init: ep.init,
    reset: ep.reset,

    getState() {
      if (!core) {
        return stateOf(Object.assign(createCore(1).snapshot(), { status: "loading" }));
      }
      return stateOf(core.snapshot());
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
