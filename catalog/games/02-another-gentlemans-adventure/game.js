// Another Gentleman's Adventure for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer with the level painted once onto an offscreen canvas, and
// window.gameAPI. The keyboard queue, the requestAnimationFrame loop with fixed
// 1/60 s ticks, episodes and mounting come from the shared shell
// (catalog/games/_shell/shell.js, loaded first by index.html). The oracle
// clones the core through window.__gwCore to look ahead; nothing else is
// exposed. One hand-made level, no randomness at all.
(function () {
  "use strict";

  const GAME_ID = "02-another-gentlemans-adventure";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 02). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // World y 0 is the top of the play area (screen y 56).
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const OY = HUD_H;               // screen y of world y 0
  const TILE = 48;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const WALK = 300;
  const GROUND_ACCEL = 2400;
  const GROUND_STOP = 3750;       // 300 px/s to rest in 0.08 s
  const AIR_ACCEL = 1200;
  const G = 2600;
  const JUMP_VY = -980;           // apex ~185 px, airtime ~0.75 s
  const MAX_FALL = 1000;
  const BUFFER_TICKS = 6;         // 0.1 s jump buffer (docs/games.md 1.3)
  const COYOTE_TICKS = 6;         // 0.1 s coyote time
  const STOMP_BOUNCE = -600;
  const PW = 32;
  const PH = 48;
  const INVULN_TICKS = 60;        // 1 s of blinking after a respawn

  const BEETLE_W = 40;
  const BEETLE_H = 28;
  const BEETLE_SPEED = 60;

  const LIVES = 3;
  const START_X = 528;           // 11 tiles of ground behind him, between the ledge and the wall (see below)
  const MID_X = 2016;             // half-way flag: the respawn point once passed
  const CAM_LEAD = 0.4 * W;       // the camera keeps him at 40 % of the width

  // Legend: . empty, # ground, S stone, L ledge, ? coin block, c loose coin,
  // b beetle (standing on the tile below), D exit door (bottom tile).
  // The stone wall at column 12 is 4 tiles high, out of reach of a jump from
  // the ground (3.7 tiles as the ticks integrate it): the way over is the low
  // ledge left of the start, so holding one arrow (or up with it) never gets past.
  const LEVEL = [
    "...........................................................................",
    "...........................................................................",
    ".................................................................c.........",
    "................................................................LL.........",
    "...........................................................................",
    "...........................................................................",
    ".............................................................LL............",
    ".....................?....................?........?.......................",
    "............S..............c...............................................",
    "............S.............LLLL......c.....................LL...............",
    ".....LLLLL..S....................S...........S..........S.......S.........S",
    "............S.....c..............S....b.S....S.......b..S..b.c..S....b..D.S",
    "##############################################..##################..#######",
    "##############################################..##################..#######",
  ];
  const ROWS = LEVEL.length;
  const COLS = LEVEL[0].length;
  const LEVEL_W = COLS * TILE;
  const WORLD_H = ROWS * TILE;    // falling below this is a pit death
  const GROUND_TOP = 12 * TILE;

  const T_EMPTY = 0, T_GROUND = 1, T_STONE = 2, T_LEDGE = 3, T_QBLOCK = 4, T_USED = 5;
  const TILE_OF = { "#": T_GROUND, "S": T_STONE, "L": T_LEDGE, "?": T_QBLOCK };

  // The level is fixed, so its parse is shared by every episode.
  const PARSED = (function () {
    const tiles = new Uint8Array(COLS * ROWS);
    const coins = [];
    const beetles = [];
    let door = null;
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const ch = LEVEL[r][col];
        tiles[r * COLS + col] = TILE_OF[ch] || T_EMPTY;
        if (ch === "c") coins.push({ x: col * TILE + 24, y: r * TILE + 24, kind: "loose", col: col, row: r });
        if (ch === "?") coins.push({ x: col * TILE + 24, y: r * TILE + 24, kind: "block", col: col, row: r });
        if (ch === "b") beetles.push({ x: col * TILE + (TILE - BEETLE_W) / 2, y: (r + 1) * TILE - BEETLE_H });
        if (ch === "D") door = { x: col * TILE, y: (r - 1) * TILE, w: TILE, h: 2 * TILE };
      }
    }
    // Coins are numbered left to right, as a player meets them.
    coins.sort((a, b) => a.x - b.x || a.y - b.y);
    coins.forEach((c, i) => { c.id = i + 1; });
    return { tiles: tiles, coins: coins, beetles: beetles, door: door };
  })();
  const COINS_TOTAL = PARSED.coins.length;

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function Core() {}

  function createCore(level) {
    const c = new Core();
    c.level = level;
    c.tiles = PARSED.tiles.slice();
    c.coins = PARSED.coins.map((o) => ({ id: o.id, x: o.x, y: o.y, kind: o.kind, col: o.col, row: o.row, taken: false }));
    c.beetles = PARSED.beetles.map((b, i) => ({ id: i + 1, x: b.x, y: b.y, vx: -BEETLE_SPEED, alive: true, squash: 0 }));
    c.door = Object.assign({}, PARSED.door);
    c.changedTiles = [];          // tiles changed since the renderer last looked
    c.fx = [];                    // cosmetic: popped coins {x, y, t}
    c.status = "playing";
    c.outcome = null;
    c.reason = null;
    c.totalTicks = 0;
    c.playTicks = 0;
    c.score = 0;
    c.lives = LIVES;
    c.stomps = 0;
    c.deaths = 0;
    c.jumps = 0;
    c.blocksHit = 0;
    c.lastLoss = null;            // "pit" or "beetle"
    c.checkpoint = START_X;
    c.camX = 0;
    c.p = newPlayer(START_X);
    return c;
  }

  function newPlayer(x) {
    return { x: x, y: GROUND_TOP - PH, vx: 0, vy: 0, onGround: true, coyote: 0, buffer: 0,
      face: 1, invuln: 0 };
  }

  Core.prototype.tileAt = function (col, row) {
    if (col < 0 || col >= COLS) return T_STONE;  // the level's ends are walls
    if (row < 0 || row >= ROWS) return T_EMPTY;  // sky above, pits below
    return this.tiles[row * COLS + col];
  };

  Core.prototype.solidIn = function (x, y, w, h) {
    const c0 = Math.floor(x / TILE), c1 = Math.floor((x + w - 0.001) / TILE);
    const r0 = Math.floor(y / TILE), r1 = Math.floor((y + h - 0.001) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let col = c0; col <= c1; col++) {
        if (this.tileAt(col, r) !== T_EMPTY) return true;
      }
    }
    return false;
  };

  // Moves box b {x, y, w, h, vx, vy} by its velocity, x then y, against tiles.
  Core.prototype.moveBox = function (b) {
    const out = { hitX: false, landed: false, hitCeil: false };
    b.x += b.vx * DT;
    if (this.solidIn(b.x, b.y, b.w, b.h)) {
      if (b.vx > 0) b.x = Math.floor((b.x + b.w) / TILE) * TILE - b.w;
      else if (b.vx < 0) b.x = (Math.floor(b.x / TILE) + 1) * TILE;
      out.hitX = true;
    }
    b.y += b.vy * DT;
    if (this.solidIn(b.x, b.y, b.w, b.h)) {
      if (b.vy > 0) {
        b.y = Math.floor((b.y + b.h) / TILE) * TILE - b.h;
        out.landed = true;
      } else if (b.vy < 0) {
        b.y = (Math.floor(b.y / TILE) + 1) * TILE;
        out.hitCeil = true;
      }
      b.vy = 0;
    }
    return out;
  };

  Core.prototype.onSolid = function (x, y, w, h) {
    return this.solidIn(x + 1, y + h, w - 2, 1);
  };

  // input = {left, right: held this tick; jump: Up press edge this tick}
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    for (let i = this.fx.length - 1; i >= 0; i--) if (--this.fx[i].t <= 0) this.fx.splice(i, 1);
    if (this.status !== "playing") return;
    this.playTicks++;
    const inp = input || {};
    this.stepPlayer(inp);
    if (this.status !== "playing") return;
    this.stepBeetles();
    this.touchBeetles();
    if (this.status !== "playing") return;
    this.checkDoor();
  };

  Core.prototype.stepPlayer = function (inp) {
    const p = this.p;
    if (p.invuln > 0) p.invuln--;
    if (inp.jump) p.buffer = BUFFER_TICKS + 1;
    const dir = (inp.right ? 1 : 0) - (inp.left ? 1 : 0);
    if (dir !== 0) p.face = dir;
    if (p.onGround) {
      if (dir !== 0) {
        const a = p.vx * dir < 0 ? GROUND_ACCEL + GROUND_STOP : GROUND_ACCEL;
        p.vx = clamp(p.vx + dir * a * DT, -WALK, WALK);
      } else {
        const dv = GROUND_STOP * DT;
        p.vx = Math.abs(p.vx) <= dv ? 0 : p.vx - Math.sign(p.vx) * dv;
      }
    } else if (dir !== 0) {
      p.vx = clamp(p.vx + dir * AIR_ACCEL * DT, -WALK, WALK);
    }                              // in the air with no key: keep drifting
    if (p.buffer > 0 && (p.onGround || p.coyote > 0)) {
      p.vy = JUMP_VY;
      p.buffer = 0;
      p.coyote = 0;
      p.onGround = false;
      this.jumps++;
    }
    if (p.buffer > 0) p.buffer--;
    p.vy = Math.min(p.vy + G * DT, MAX_FALL);

    const box = { x: p.x, y: p.y, w: PW, h: PH, vx: p.vx, vy: p.vy };
    const res = this.moveBox(box);
    p.x = box.x; p.y = box.y; p.vy = box.vy;
    if (res.hitX) p.vx = 0;
    if (res.hitCeil) this.bumpAbove(box);
    p.onGround = p.vy >= 0 && this.onSolid(p.x, p.y, PW, PH);
    if (p.onGround) p.coyote = COYOTE_TICKS;
    else if (p.coyote > 0) p.coyote--;
    if (p.y > WORLD_H) { this.loseLife("pit"); return; }

    if (p.x >= MID_X && this.checkpoint < MID_X) this.checkpoint = MID_X;
    this.camX = clamp(p.x + PW / 2 - CAM_LEAD, 0, LEVEL_W - W);
    for (const coin of this.coins) {
      if (coin.taken || coin.kind !== "loose") continue;
      if (overlap(p.x, p.y, PW, PH, coin.x - 14, coin.y - 18, 28, 36)) this.takeCoin(coin);
    }
  };

  // Head hit a ceiling: the block over the head's centre (or either corner) pops.
  Core.prototype.bumpAbove = function (box) {
    const row = Math.floor((box.y - 1) / TILE);
    const mid = Math.floor((box.x + PW / 2) / TILE);
    const cols = [mid, Math.floor(box.x / TILE), Math.floor((box.x + PW - 0.001) / TILE)];
    for (const col of cols) {
      if (this.tileAt(col, row) !== T_QBLOCK) continue;
      this.tiles[row * COLS + col] = T_USED;
      this.changedTiles.push(row * COLS + col);
      this.blocksHit++;
      const coin = this.coins.find((o) => o.kind === "block" && o.col === col && o.row === row);
      if (coin) {
        this.takeCoin(coin);
        this.fx.push({ x: coin.x, y: coin.y - TILE, t: 24 });
      }
      return;
    }
  };

  Core.prototype.takeCoin = function (coin) {
    coin.taken = true;
    this.score++;
  };

  Core.prototype.stepBeetles = function () {
    for (const b of this.beetles) {
      if (!b.alive) { if (b.squash > 0) b.squash--; continue; }
      const nx = b.x + b.vx * DT;
      const ahead = b.vx > 0 ? nx + BEETLE_W : nx;
      const col = Math.floor(ahead / TILE);
      const rowFeet = Math.floor((b.y + BEETLE_H + 1) / TILE);
      const rowBody = Math.floor((b.y + BEETLE_H - 1) / TILE);
      // Turn at a wall or where the floor ends.
      if (this.tileAt(col, rowBody) !== T_EMPTY || this.tileAt(col, rowFeet) === T_EMPTY) b.vx = -b.vx;
      else b.x = nx;
    }
  };

  Core.prototype.touchBeetles = function () {
    const p = this.p;
    for (const b of this.beetles) {
      if (!b.alive || this.status !== "playing") continue;
      if (!overlap(p.x, p.y, PW, PH, b.x, b.y, BEETLE_W, BEETLE_H)) continue;
      const prevFeet = p.y + PH - p.vy * DT;
      if (p.vy > 0 && prevFeet <= b.y + BEETLE_H / 2) {
        b.alive = false;
        b.squash = 30;
        this.stomps++;
        p.vy = STOMP_BOUNCE;
        p.y = b.y - PH;
        p.onGround = false;
      } else if (p.invuln === 0) {
        this.loseLife("beetle");
      }
    }
  };

  Core.prototype.loseLife = function (why) {
    this.lives--;
    this.deaths++;
    this.lastLoss = why;
    if (this.lives <= 0) {
      this.lives = 0;
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "out_of_lives";
      return;
    }
    this.p = newPlayer(this.checkpoint);
    this.p.invuln = INVULN_TICKS;
    this.camX = clamp(this.p.x + PW / 2 - CAM_LEAD, 0, LEVEL_W - W);
  };

  Core.prototype.checkDoor = function () {
    if (this.score < COINS_TOTAL) return;
    const p = this.p, d = this.door;
    if (!overlap(p.x, p.y, PW, PH, d.x + 8, d.y, d.w - 16, d.h)) return;
    this.p.vx = 0;
    this.status = "terminal";
    this.outcome = "success";
    this.reason = "level_complete";
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.tiles = this.tiles.slice();
    c.coins = this.coins.map((o) => Object.assign({}, o));
    c.beetles = this.beetles.map((o) => Object.assign({}, o));
    c.door = Object.assign({}, this.door);
    c.fx = [];
    c.changedTiles = [];
    c.p = Object.assign({}, this.p);
    return c;
  };

  function clamp(v, lo, hi) {
    return v < lo ? lo : v > hi ? hi : v;
  }

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const p = this.p;
    const cx = p.x + PW / 2, cy = p.y + PH / 2;
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    let nearest = 0;
    for (const o of this.coins) {
      if (o.taken) continue;
      const d = Math.hypot(o.x - cx, o.y - cy);
      if (nearest === 0 || d < nearest) nearest = d;
    }
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score,
      level: this.level,
      lives: this.lives,
      player: {
        x: p.x, y: p.y, w: PW, h: PH, vx: p.vx, vy: p.vy, on_ground: p.onGround,
        facing: p.face > 0 ? "right" : "left", alive: alive,
        invulnerable_ms: Math.round(p.invuln * 1000 / TICK_HZ),
      },
      coins: this.coins.map((o) => ({ id: o.id, x: o.x, y: o.y, kind: o.kind, collected: o.taken })),
      blocks: this.coins.filter((o) => o.kind === "block").map((o) => ({
        x: o.col * TILE, y: o.row * TILE, used: this.tiles[o.row * COLS + o.col] === T_USED,
      })),
      enemies: this.beetles.map((b) => ({ id: b.id, type: "beetle", x: b.x, y: b.y, w: BEETLE_W, h: BEETLE_H,
        vx: b.alive ? b.vx : 0, alive: b.alive })),
      exit: { x: this.door.x, y: this.door.y, open: this.score >= COINS_TOTAL },
      camX: this.camX,
      checkpointX: this.checkpoint,
      stomps: this.stomps,
      deaths: this.deaths,
      jumps: this.jumps,
      blocksHit: this.blocksHit,
      nearestCoin: Math.round(nearest),
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard (catalog/games/_shell): events are queued and consumed at the
  // start of each tick, so a press and release between two ticks still gives
  // one `pressed` edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["Enter", "ArrowUp", "ArrowLeft", "ArrowRight"],
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
    return { left: on("ArrowLeft"), right: on("ArrowRight"), jump: pressed.has("ArrowUp") };
  }

  // ---------------------------------------------------------------------------
  // Renderer: the level (sky, town silhouette, tiles, flag) is painted once
  // onto a level-wide offscreen canvas; a used block repaints one tile. Each
  // frame blits the camera's slice, then draws coins, beetles, door, player, HUD.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    sky: "#D9D4C7", skyLow: "#CBC5B6", town: "#B9B2A3", townWin: "#C9C2B2",
    ground: "#7A6650", groundDark: "#4E4032", groundTop: "#8F8A6E",
    stone: "#8C8A86", stoneDark: "#55534F",
    ledge: "#8A6D4E", ledgeDark: "#553F2A",
    qblock: "#F5C518", qrim: "#6E5200",
    used: "#8B6B4A", usedDark: "#4F3B27",
    coin: "#F5C518", coinRim: "#6E5200",
    coat: "#2D7DF6", hat: "#151515", skin: "#F1C9A0", trousers: "#23324F",
    beetle: "#E53935", beetleDark: "#7F1512",
    doorOpen: "#2ECC71", doorOpenDark: "#167A40", doorLocked: "#8E8E8E", doorLockedDark: "#4A4A4A",
    pole: "#5A5A5A", midFlag: "#9E9E9E", midFlagOn: "#D8D8D8",
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
    if (code === T_GROUND) {
      g.fillStyle = COLORS.ground;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.groundDark;
      g.lineWidth = 2;
      g.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
      if (LEVEL[row - 1] && LEVEL[row - 1][col] !== "#") { g.fillStyle = COLORS.groundTop; g.fillRect(x, y, TILE, 7); }
    } else if (code === T_STONE) {
      g.fillStyle = COLORS.stone;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.stoneDark;
      g.lineWidth = 2;
      g.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
      g.beginPath(); g.moveTo(x, y + 24); g.lineTo(x + TILE, y + 24); g.moveTo(x + 24, y); g.lineTo(x + 24, y + 24); g.stroke();
    } else if (code === T_LEDGE) {
      g.fillStyle = COLORS.ledge;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = COLORS.ledgeDark;
      g.lineWidth = 2;
      g.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
      g.beginPath(); g.moveTo(x, y + 16); g.lineTo(x + TILE, y + 16); g.moveTo(x, y + 32); g.lineTo(x + TILE, y + 32); g.stroke();
    } else if (code === T_QBLOCK || code === T_USED) {
      const q = code === T_QBLOCK;
      g.fillStyle = q ? COLORS.qblock : COLORS.used;
      g.fillRect(x, y, TILE, TILE);
      g.strokeStyle = q ? COLORS.qrim : COLORS.usedDark;
      g.lineWidth = 3;
      g.strokeRect(x + 1.5, y + 1.5, TILE - 3, TILE - 3);
      if (q) {
        g.fillStyle = COLORS.qrim;
        g.font = "bold 32px sans-serif";
        g.textAlign = "center";
        g.textBaseline = "middle";
        g.fillText("?", x + 24, y + 26);
      }
    }
  }

  function paintBackdrop(g, x0, x1) {
    const grad = g.createLinearGradient(0, 0, 0, WORLD_H);
    grad.addColorStop(0, COLORS.sky);
    grad.addColorStop(1, COLORS.skyLow);
    g.fillStyle = grad;
    g.fillRect(x0, 0, x1 - x0, WORLD_H);
    // A low-contrast row of Victorian houses and chimneys.
    for (let hx = 0; hx < LEVEL_W; hx += 260) {
      if (hx + 260 < x0 || hx > x1) continue;
      const h = 150 + ((hx / 260) % 3) * 40;
      const top = GROUND_TOP - h;
      g.fillStyle = COLORS.town;
      g.fillRect(hx + 20, top, 200, h);
      g.beginPath(); g.moveTo(hx + 10, top); g.lineTo(hx + 120, top - 60); g.lineTo(hx + 230, top); g.fill();
      g.fillRect(hx + 170, top - 70, 22, 50);
      g.fillStyle = COLORS.townWin;
      for (let wy = top + 24; wy < GROUND_TOP - 40; wy += 56) {
        for (let wx = hx + 44; wx < hx + 200; wx += 52) g.fillRect(wx, wy, 24, 32);
      }
    }
  }

  function buildLevelLayer(c) {
    if (!levelLayer) {
      levelLayer = document.createElement("canvas");
      levelLayer.width = LEVEL_W;
      levelLayer.height = WORLD_H;
      levelCtx = levelLayer.getContext("2d");
    }
    const g = levelCtx;
    paintBackdrop(g, 0, LEVEL_W);
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) paintTile(g, c.tiles[r * COLS + col], col, r);
    }
    // Half-way flag pole (the flag itself is drawn live: it brightens once passed).
    g.fillStyle = COLORS.pole;
    g.fillRect(MID_X + 6, GROUND_TOP - 140, 5, 140);
  }

  let layerCore = null;             // the core whose tiles the layer shows
  function syncLevelLayer(c) {
    if (layerCore !== c) {
      buildLevelLayer(c);          // a new episode: paint the whole level once
      layerCore = c;
    } else {
      for (const idx of c.changedTiles) {
        const col = idx % COLS, row = Math.floor(idx / COLS);
        levelCtx.save();
        levelCtx.beginPath();
        levelCtx.rect(col * TILE, row * TILE, TILE, TILE);
        levelCtx.clip();
        paintBackdrop(levelCtx, col * TILE, col * TILE + TILE);
        levelCtx.restore();
        paintTile(levelCtx, c.tiles[idx], col, row);
      }
    }
    c.changedTiles.length = 0;
  }

  function drawCoin(x, y) {
    ctx.fillStyle = COLORS.coin;
    ctx.strokeStyle = COLORS.coinRim;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.ellipse(x, y, 13, 17, 0, 0, Math.PI * 2);
    ctx.fill(); ctx.stroke();
    ctx.fillStyle = COLORS.coinRim;
    ctx.fillRect(x - 2, y - 9, 4, 18);
  }

  function drawGentleman(c, sx) {
    const p = c.p;
    if (p.invuln > 0 && Math.floor(c.totalTicks / 4) % 2 === 0) ctx.globalAlpha = 0.45;
    const x = Math.round(p.x - sx), y = Math.round(p.y) + OY;
    const f = p.face;
    // top hat
    ctx.fillStyle = COLORS.hat;
    ctx.fillRect(x + 1, y + 10, 30, 4);
    ctx.fillRect(x + 7, y, 18, 11);
    // head
    ctx.fillStyle = COLORS.skin;
    ctx.fillRect(x + 8, y + 14, 16, 11);
    ctx.fillStyle = "#111";
    ctx.fillRect(f > 0 ? x + 19 : x + 10, y + 17, 3, 3);
    ctx.fillRect(f > 0 ? x + 15 : x + 9, y + 22, 8, 2);   // moustache
    // coat
    ctx.fillStyle = COLORS.coat;
    ctx.fillRect(x + 3, y + 25, 26, 15);
    ctx.fillStyle = "#fff";
    ctx.fillRect(x + 14, y + 25, 4, 7);                  // shirt front
    // trousers and feet
    ctx.fillStyle = COLORS.trousers;
    const step = p.onGround && p.vx !== 0 ? Math.floor(c.totalTicks / 6) % 2 : 0;
    ctx.fillRect(x + 6 + step * 2, y + 40, 8, 8);
    ctx.fillRect(x + 18 - step * 2, y + 40, 8, 8);
    // cane
    ctx.fillStyle = "#3B2A1A";
    ctx.fillRect(f > 0 ? x + 30 : x - 2, y + 28, 3, 20);
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    ctx.strokeRect(x + 2, y + 24, 28, 24);
    ctx.strokeRect(x + 6, y - 1, 20, 12);
    ctx.globalAlpha = 1;
  }

  function drawBeetle(b, sx, c) {
    const x = Math.round(b.x - sx), y = Math.round(b.y) + OY;
    ctx.fillStyle = COLORS.beetle;
    ctx.strokeStyle = COLORS.beetleDark;
    ctx.lineWidth = 2;
    if (!b.alive) {
      ctx.fillRect(x, y + BEETLE_H - 8, BEETLE_W, 8);
      ctx.strokeRect(x, y + BEETLE_H - 8, BEETLE_W, 8);
      return;
    }
    ctx.beginPath();
    ctx.ellipse(x + 20, y + 16, 20, 14, 0, Math.PI, 2 * Math.PI);
    ctx.lineTo(x + 40, y + 22);
    ctx.lineTo(x, y + 22);
    ctx.closePath();
    ctx.fill(); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(x + 20, y + 3); ctx.lineTo(x + 20, y + 22); ctx.stroke();
    ctx.fillStyle = COLORS.beetleDark;
    const hx = b.vx < 0 ? x - 4 : x + 34;
    ctx.fillRect(hx, y + 10, 10, 10);
    ctx.fillStyle = "#fff";
    ctx.fillRect(hx + (b.vx < 0 ? 1 : 5), y + 12, 4, 4);
    const leg = Math.floor(c.totalTicks / 8) % 2;
    ctx.fillStyle = COLORS.beetleDark;
    for (let k = 0; k < 3; k++) ctx.fillRect(x + 6 + k * 12 + (leg ? 2 : -2), y + 22, 4, 6);
  }

  function drawDoor(c, sx) {
    const d = c.door;
    const open = c.score >= COINS_TOTAL;
    const x = Math.round(d.x - sx), y = d.y + OY;
    ctx.fillStyle = open ? COLORS.doorOpen : COLORS.doorLocked;
    ctx.strokeStyle = open ? COLORS.doorOpenDark : COLORS.doorLockedDark;
    ctx.lineWidth = 4;
    ctx.fillRect(x + 4, y, d.w - 8, d.h);
    ctx.strokeRect(x + 4, y, d.w - 8, d.h);
    if (open) {
      ctx.fillStyle = COLORS.doorOpenDark;
      ctx.fillRect(x + 12, y + 10, d.w - 24, d.h - 10);
    } else {
      // padlock
      ctx.strokeStyle = "#222";
      ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(x + 24, y + 44, 7, Math.PI, 2 * Math.PI); ctx.stroke();
      ctx.fillStyle = "#333";
      ctx.fillRect(x + 14, y + 44, 20, 16);
    }
  }

  function drawMidFlag(c, sx) {
    const x = MID_X + 11 - sx, y = GROUND_TOP - 140 + OY;
    ctx.fillStyle = c.checkpoint >= MID_X ? COLORS.midFlagOn : COLORS.midFlag;
    ctx.strokeStyle = "#444";
    ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + 44, y + 16); ctx.lineTo(x, y + 32); ctx.closePath();
    ctx.fill(); ctx.stroke();
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
    textOutlined(hctx, "Another Gentleman's Adventure", 16, HUD_H / 2, "bold 22px sans-serif", "left");
    textOutlined(hctx, "Level " + c.level, 376, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined(hctx, "Coins " + c.score + "/" + COINS_TOTAL, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined(hctx, "Lives " + c.lives, W - 20, HUD_H / 2, "bold 28px sans-serif", "right");
  }
  function drawHud(c) {
    if (!hudLayer) {
      hudLayer = document.createElement("canvas");
      hudLayer.width = W;
      hudLayer.height = HUD_H;
      hctx = hudLayer.getContext("2d");
    }
    const key = c.level + "|" + c.score + "|" + c.lives;
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
    ctx.drawImage(levelLayer, sx, 0, W, H - OY, 0, OY, W, H - OY);
    drawMidFlag(c, sx);
    drawDoor(c, sx);
    for (const o of c.coins) {
      if (!o.taken && o.kind === "loose" && o.x + 20 > sx && o.x - 20 < sx + W) drawCoin(o.x - sx, o.y + OY);
    }
    for (const f of c.fx) drawCoin(f.x - sx, f.y + OY - (24 - f.t) * 2);
    for (const b of c.beetles) {
      if ((b.alive || b.squash > 0) && b.x + BEETLE_W > sx && b.x < sx + W) drawBeetle(b, sx, c);
    }
    if (c.status !== "terminal" || c.outcome === "success") drawGentleman(c, sx);
    drawHud(c);
    if (c.status === "terminal") {
      const head = c.outcome === "success" ? "LEVEL COMPLETE" : "GAME OVER \u2013 " + c.reason;
      drawPanel([
        { text: head, font: "bold 36px sans-serif" },
        { text: "Coins " + c.score + "/" + COINS_TOTAL, font: "bold 28px sans-serif" },
        { text: "Press Enter to play again", font: "20px sans-serif" },
      ]);
    }
  }

  // ---------------------------------------------------------------------------
  // Loop (catalog/games/_shell): one rAF loop for the page's lifetime, fixed
  // ticks from an accumulator, a backlog dropped rather than spiral. Under the
  // harness only the frames that can be seen are drawn (two in three skipped).
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let moved = false;            // ticks ran since the last drawn frame

  const loop = Shell.loop({
    tickMs: TICK_MS,
    visibleOnly: true,
    tick() {
      moved = true;
      const inp = consumeInput();
      if (core) core.tick(inp);
    },
    // Redraw only when something on screen changed (ticks with the gentleman
    // standing still and no beetle in view leave the picture as it was).
    render() {
      if (!moved) return;
      moved = false;
      const key = viewKey(core);
      if (key !== lastViewKey) { render(); lastViewKey = key; }
    },
  });

  let lastViewKey = null;
  function viewKey(c) {
    if (!c) return "";
    const p = c.p;
    const parts = [c.status, c.score, c.lives, c.checkpoint, Math.round(c.camX), Math.round(p.x), Math.round(p.y), p.face,
      p.onGround && p.vx !== 0 ? Math.floor(c.totalTicks / 6) % 2 : 0,
      p.invuln > 0 ? Math.floor(c.totalTicks / 4) % 2 : -1, c.fx.length ? c.totalTicks : 0];
    for (const b of c.beetles) {
      if ((b.alive || b.squash > 0) && b.x + BEETLE_W > c.camX && b.x < c.camX + W) {
        parts.push(Math.round(b.x), b.alive ? Math.floor(c.totalTicks / 8) % 2 : b.squash);
      }
    }
    return parts.join("|");
  }

  // ---------------------------------------------------------------------------
  // window.gameAPI; episodes (catalog/games/_shell) carry the seed over and
  // count the attempts. The seed is only reported: one hand-made level.
  // ---------------------------------------------------------------------------
  const ep = Shell.episodes({
    pickLevel: () => 1,
    start() {
      keys.clear();
      core = createCore(1);
      render();
      lastViewKey = viewKey(core);
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
        coins_total: COINS_TOTAL,
        level: s.level,
        lives: s.lives,
        completion_progress: s.score / COINS_TOTAL,
        player: s.player,
        coins: s.coins,
        blocks: s.blocks,
        enemies: s.enemies,
        exit: s.exit,
        camera_x: s.camX,
      },
      metrics: {
        primary_score: s.score,
        coins: s.score,
        enemies_stomped: s.stomps,
        deaths: s.deaths,
        lives: s.lives,
        distance_to_nearest_coin: s.nearestCoin,
        session_stats: { jumps: s.jumps, blocks_hit: s.blocksHit },
        attempts: ep.attempts,
      },
      raw: { checkpoint_x: s.checkpointX, tile: TILE, world_y0_screen: OY },
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

  // Private handle for oracle.js only: always the live episode's core.
  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
