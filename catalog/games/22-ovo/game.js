// OvO for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer with each level painted once onto an offscreen canvas, and
// the shared shell (catalog/games/_shell: the keyboard queue, one
// requestAnimationFrame loop with fixed 1/60 s ticks, episodes, window.gameAPI).
// The oracle clones the core through window.__gwCore to look ahead and maps its
// keys to the core's input with window.__gwOvo.inputOf (game.js's own mapping).
// Three hand-made levels, no randomness.
(function () {
  "use strict";

  const GAME_ID = "22-ovo";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 22). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TILE = 40;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const RUN = 420;
  const ACC_GROUND = 3000;
  const ACC_AIR = 2000;
  const G = 2600;
  const JUMP_VY = -900;            // apex ~155 px
  const MAX_FALL = 1400;
  const WALL_SLIDE = 160;
  const WALL_KICK = 420;
  const KICK_LOCK_TICKS = 10;      // after a wall kick the runner flies away for 1/6 s whatever is held
  const SLIDE_TICKS = 36;          // 0.6 s
  const SLIDE_MIN = 360;           // a slide keeps at least this speed
  const SMASH_VY = 1400;
  const BUFFER_TICKS = 6;          // 0.1 s jump buffer (docs/games.md 1.3)
  const COYOTE_TICKS = 6;          // 0.1 s coyote time
  const RW = 24;
  const RH = 40;
  const SLIDE_H = 20;
  const LAST_LEVEL = 3;

  // Legend: . empty, # solid, L low bar (solid top half), x floor spikes,
  // v ceiling spikes, < wall spikes facing left, o coin, E exit flag, @ start.
  const LEVELS = [
    [ // level 1: 2400 px. The hanging spikes under the slab are run under, not
      // jumped at: a runner that only jumps dies there, one that never jumps in the pits.
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "............................................................",
      "...........................####.....o....................E..",
      "...........................####....##.........##############",
      "...........................vvvv...............##############",
      "..@...............xxxx........................##############",
      "############..#####################...######################",
      "############..#####################xxx######################",
    ],
    [ // level 2: 2800 px
      "..................####................................................",
      "..................####................................................",
      "..................####................................................",
      "..................####................................................",
      "..................####................................................",
      "..................####................................................",
      "..................####.......#........................................",
      "..................####.......#........................................",
      "..................####.......#........................................",
      "..................####.......#........................................",
      "..................####......#.....................................E...",
      "..................####......#o...###########...#######...#############",
      "..................####.......#...###########...#######...#############",
      "..................####.......#...###########...#######...#############",
      "..................####...........###########...#######...#############",
      "..@...............LLLL...........###########...#######...#############",
      "##########...###############################...#######...#############",
      "##########xxx###############################xxx#######xxx#############",
    ],
    [ // level 3: 3200 px
      "......................................######....................................",
      "......................................######....................................",
      "......................................######....................................",
      "......................................######....................................",
      "......................................######....................................",
      "......................................######....................................",
      ".............................#........######....................................",
      ".............................#........######....................................",
      ".............................#........######.............<#.....................",
      ".............................#.........vvvvo.............<#.................E...",
      ".............................#...#################...###########################",
      ".............................#...#################...###########################",
      ".............................#...#################...###########################",
      ".............................#...#################...###########################",
      "......................<#.........#################...###########################",
      "..@...................<#.........#################...###########################",
      "############.....#################################...###########################",
      "############xxxxx#################################xxx###########################",
    ],
  ];

  const SOLID = { "#": true, "L": true };

  // Box of a solid tile relative to its corner, [dx, dy, w, h].
  function solidBox(ch) {
    return ch === "L" ? [0, 0, TILE, TILE / 2] : [0, 0, TILE, TILE];
  }

  // Box of a hazard tile (a little inside the drawn spikes, so grazes are fair).
  function hazardBox(ch) {
    if (ch === "x") return [4, 22, 32, 18];
    if (ch === "v") return [4, 0, 32, 20];
    if (ch === "<") return [22, 4, 18, 32];
    return null;
  }

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  // ---------------------------------------------------------------------------
  // Core
  // ---------------------------------------------------------------------------
  function Core() {}

  function createCore(level) {
    const c = new Core();
    c.status = "playing";
    c.outcome = null;
    c.reason = null;
    c.totalTicks = 0;
    c.playTicks = 0;
    c.coinsTotal = 0;
    c.deaths = 0;
    c.levelsCompleted = 0;
    c.loadLevel(level);
    return c;
  }

  Core.prototype.loadLevel = function (level) {
    this.level = level;
    this.map = LEVELS[level - 1];
    this.cols = this.map[0].length;
    this.rows = this.map.length;
    this.levelW = this.cols * TILE;
    this.levelTicks = 0;
    this.coinTaken = false;
    this.coin = null;
    this.exit = null;
    this.hazards = [];
    for (let r = 0; r < this.rows; r++) {
      for (let col = 0; col < this.cols; col++) {
        const ch = this.map[r][col];
        if (ch === "@") this.start = { x: col * TILE + 8, y: (r + 1) * TILE - RH };
        if (ch === "o") this.coin = { x: col * TILE + 8, y: r * TILE + 6, w: 24, h: 28 };
        if (ch === "E") this.exit = { x: col * TILE, y: r * TILE - TILE, w: TILE, h: 2 * TILE };
        const hb = hazardBox(ch);
        if (hb) this.hazards.push({ x: col * TILE + hb[0], y: r * TILE + hb[1], w: hb[2], h: hb[3], kind: ch });
      }
    }
    this.spawn();
  };

  Core.prototype.spawn = function () {
    this.p = { x: this.start.x, y: this.start.y, vx: 0, vy: 0, h: RH, onGround: true, onWall: 0,
      coyote: 0, buffer: 0, slide: 0, sliding: false, face: 1, kickLock: 0 };
    this.maxX = this.p.x;
  };

  Core.prototype.tileAt = function (col, row) {
    if (col < 0 || col >= this.cols) return "#";   // level ends are walls
    if (row < 0) return "#";                       // and so is its top: no way over a tower
    if (row >= this.rows) return ".";
    return this.map[row][col];
  };

  Core.prototype.solidIn = function (x, y, w, h) {
    const c0 = Math.floor(x / TILE), c1 = Math.floor((x + w - 0.001) / TILE);
    const r0 = Math.floor(y / TILE), r1 = Math.floor((y + h - 0.001) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let col = c0; col <= c1; col++) {
        const ch = this.tileAt(col, r);
        if (!SOLID[ch]) continue;
        const b = solidBox(ch);
        const bx = col * TILE + b[0], by = r * TILE + b[1];
        if (overlap(x, y, w, h, bx, by, b[2], b[3])) return { x: bx, y: by, w: b[2], h: b[3] };
      }
    }
    return null;
  };

  // input = {left, right, up, down: held; jump, downEdge: press edges this tick}
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    this.levelTicks++;
    const inp = input || {};
    const p = this.p;
    if (inp.jump) p.buffer = BUFFER_TICKS + 1;
    const dir = (inp.right ? 1 : 0) - (inp.left ? 1 : 0);
    if (dir) p.face = dir;

    // Slide: Down on the ground while moving; keeps its speed for up to 0.6 s
    // and never ends under a ceiling.
    if (!p.sliding && inp.down && p.onGround && (Math.abs(p.vx) >= 100 || dir)) {
      if (Math.abs(p.vx) >= 100) {
        p.sliding = true;
        p.slide = SLIDE_TICKS;
        p.vx = Math.sign(p.vx) * Math.max(Math.abs(p.vx), SLIDE_MIN);
        p.y += RH - SLIDE_H;
        p.h = SLIDE_H;
      }
    }
    if (p.sliding) {
      if (p.slide > 0) p.slide--;
      // Hanging spikes count as a roof too (docs/games.md: it stays low while
      // something is overhead), so a slide begun from a standstill gets under them.
      const ry = p.y - (RH - SLIDE_H);
      const roof = this.solidIn(p.x, ry, RW, RH - SLIDE_H) !== null
        || this.hazards.some((z) => z.kind === "v" && overlap(p.x, ry, RW, RH - SLIDE_H, z.x, z.y, z.w, z.h));
      if (!roof && (p.slide === 0 || !p.onGround || (p.buffer > 0 && p.slide < SLIDE_TICKS - 4))) {
        p.sliding = false;
        p.y -= RH - SLIDE_H;
        p.h = RH;
      } else if (Math.abs(p.vx) < SLIDE_MIN) {
        p.vx = (p.vx < 0 || (p.vx === 0 && p.face < 0) ? -1 : 1) * SLIDE_MIN;
      }
    }
    // A wall kick carries the runner away from the wall for a moment: steering
    // straight back would let it climb a single wall, and a climb takes two.
    if (p.kickLock > 0) p.kickLock = p.onGround ? 0 : p.kickLock - 1;
    if (!p.sliding && !p.kickLock) {
      const acc = (p.onGround ? ACC_GROUND : ACC_AIR) * DT;
      if (dir) {
        p.vx += dir * acc;
        if (p.vx > RUN) p.vx = RUN;
        if (p.vx < -RUN) p.vx = -RUN;
      } else if (p.onGround) {
        p.vx = Math.abs(p.vx) <= acc ? 0 : p.vx - Math.sign(p.vx) * acc;
      }
    }

    // Jumps: from the ground (or within coyote time), else off a wall.
    if (p.buffer > 0 && !p.sliding) {
      if (p.onGround || p.coyote > 0) {
        p.vy = JUMP_VY;
        p.buffer = 0;
        p.coyote = 0;
        p.onGround = false;
      } else if (p.onWall) {
        p.vy = JUMP_VY;
        p.vx = -p.onWall * WALL_KICK;
        p.kickLock = KICK_LOCK_TICKS;
        p.buffer = 0;
      }
    }
    if (p.buffer > 0) p.buffer--;
    if (inp.downEdge && !p.onGround && !p.sliding) p.vy = SMASH_VY;

    p.vy = Math.min(p.vy + G * DT, MAX_FALL);
    const pressingWall = p.onWall !== 0 && dir === p.onWall;
    if (pressingWall && p.vy > WALL_SLIDE) p.vy = WALL_SLIDE;

    // Move x then y with tile collisions.
    p.x += p.vx * DT;
    const hx = this.solidIn(p.x, p.y, RW, p.h);
    if (hx) {
      p.x = p.vx > 0 ? hx.x - RW : hx.x + hx.w;
      p.vx = 0;
    }
    p.y += p.vy * DT;
    const hy = this.solidIn(p.x, p.y, RW, p.h);
    if (hy) {
      p.y = p.vy > 0 ? hy.y - p.h : hy.y + hy.h;
      p.vy = 0;
    }
    p.onGround = p.vy >= 0 && this.solidIn(p.x, p.y + p.h, RW, 1) !== null;
    if (p.onGround) p.coyote = COYOTE_TICKS;
    else if (p.coyote > 0) p.coyote--;
    p.onWall = 0;
    if (!p.onGround) {
      if (this.solidIn(p.x + RW, p.y + 4, 2, p.h - 8)) p.onWall = 1;
      else if (this.solidIn(p.x - 2, p.y + 4, 2, p.h - 8)) p.onWall = -1;
    }
    if (p.x > this.maxX) this.maxX = p.x;

    if (this.coin && !this.coinTaken && overlap(p.x, p.y, RW, p.h, this.coin.x, this.coin.y, this.coin.w, this.coin.h)) {
      this.coinTaken = true;
      this.coinsTotal++;
    }
    if (p.y > H || this.hazards.some((z) => overlap(p.x, p.y, RW, p.h, z.x, z.y, z.w, z.h))) {
      this.deaths++;
      this.spawn();                 // back to the level start at once; the coin stays counted
      return;
    }
    const e = this.exit;
    if (overlap(p.x, p.y, RW, p.h, e.x, e.y, e.w, e.h)) {
      this.levelsCompleted++;
      if (this.level >= LAST_LEVEL) {
        this.level = LAST_LEVEL + 1;
        this.status = "terminal";
        this.outcome = "success";
        this.reason = "game_complete";
      } else {
        this.loadLevel(this.level + 1);
      }
    }
  };

  Core.prototype.cameraX = function () {
    return Math.max(0, Math.min(this.levelW - W, this.p.x - 480));
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.p = Object.assign({}, this.p);
    return c;
  };

  Core.prototype.snapshot = function () {
    const p = this.p;
    const e = this.exit;
    const cx = p.x + RW / 2, cy = p.y + p.h / 2;
    const hazards = this.hazards
      .map((z) => ({ kind: z.kind === "x" ? "floor_spikes" : z.kind === "v" ? "ceiling_spikes" : "wall_spikes",
        x: z.x, y: z.y, w: z.w, h: z.h, d: Math.hypot(z.x + z.w / 2 - cx, z.y + z.h / 2 - cy) }))
      .sort((a, b) => a.d - b.d).slice(0, 10)
      .map((z) => ({ kind: z.kind, x: z.x, y: z.y, w: z.w, h: z.h }));
    const startX = this.start.x;
    const level = Math.min(this.level, LAST_LEVEL);
    return {
      level: this.level,
      score: this.coinsTotal,
      coins: this.coinsTotal,
      completion_progress: this.status === "terminal" ? 1
        : Math.max(0, Math.min(1, (this.maxX - startX) / (e.x - startX))),
      player: { x: p.x, y: p.y, vx: p.vx, vy: p.vy, w: RW, h: p.h, on_ground: p.onGround,
        on_wall: p.onWall, sliding: p.sliding, alive: true },
      distance_to_exit: Math.max(0, Math.round(Math.hypot(e.x - p.x, e.y + TILE - p.y))),
      hazards: hazards,
      coin: this.coin ? { x: this.coin.x, y: this.coin.y, taken: this.coinTaken } : null,
      exit: { x: e.x, y: e.y },
      level_width: LEVELS[level - 1][0].length * TILE,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still gives one `pressed` edge.
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

  // The core's input for one tick from the keys that went down (up before) and
  // those held; a tap counts as held for one tick. The oracle maps its
  // simulated key holds through this too.
  function inputOf(pressed, held) {
    const on = (k) => held.has(k) || pressed.has(k);
    return {
      left: on("ArrowLeft"), right: on("ArrowRight"),
      up: on("ArrowUp"), down: on("ArrowDown"), jump: pressed.has("ArrowUp"),
      downEdge: pressed.has("ArrowDown"),
    };
  }

  function consumeInput() {
    const { pressed, down } = keys.take();
    return inputOf(pressed, down);
  }

  // ---------------------------------------------------------------------------
  // Renderer: each level (sky, tiles, spikes, exit) is painted once onto an
  // offscreen canvas; a frame blits the camera's slice, then the coin, the
  // runner and the HUD.
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    sky: "#E4E2DA", skyLine: "#D6D3C9",
    block: "#6E6A66", blockDark: "#45423F", blockTop: "#8C8883",
    bar: "#8A7560",
    spike: "#E53935", spikeDark: "#8E1B19",
    exit: "#2ECC71", exitDark: "#1B7A43", pole: "#555",
    coin: "#F5C518", coinRim: "#7A5A00",
    runner: "#2D7DF6",
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
  let layerKey = null;

  function paintLevel(c) {
    const wpx = c.levelW;
    if (!levelLayer || levelLayer.width !== wpx) {
      levelLayer = document.createElement("canvas");
      levelLayer.width = wpx;
      levelLayer.height = H;
    }
    const g = levelLayer.getContext("2d");
    g.fillStyle = COLORS.sky;
    g.fillRect(0, 0, wpx, H);
    g.strokeStyle = COLORS.skyLine;
    g.lineWidth = 1;
    for (let x = 0; x < wpx; x += 160) { g.beginPath(); g.moveTo(x + 0.5, 0); g.lineTo(x + 0.5, H); g.stroke(); }
    for (let r = 0; r < c.rows; r++) {
      for (let col = 0; col < c.cols; col++) {
        const ch = c.map[r][col];
        const x = col * TILE, y = r * TILE;
        if (ch === "#") {
          g.fillStyle = COLORS.block;
          g.fillRect(x, y, TILE, TILE);
          if (c.tileAt(col, r - 1) !== "#") { g.fillStyle = COLORS.blockTop; g.fillRect(x, y, TILE, 6); }
          g.strokeStyle = COLORS.blockDark;
          g.lineWidth = 1;
          g.strokeRect(x + 0.5, y + 0.5, TILE - 1, TILE - 1);
        } else if (ch === "L") {
          g.fillStyle = COLORS.bar;
          g.fillRect(x, y, TILE, TILE / 2);
          g.strokeStyle = COLORS.blockDark;
          g.lineWidth = 2;
          g.strokeRect(x + 1, y + 1, TILE - 2, TILE / 2 - 2);
        } else if (ch === "x" || ch === "v" || ch === "<") {
          paintSpikes(g, ch, x, y);
        }
      }
    }
    const e = c.exit;
    g.fillStyle = COLORS.pole;
    g.fillRect(e.x + 6, e.y, 5, e.h);
    g.fillStyle = COLORS.exit;
    g.strokeStyle = COLORS.exitDark;
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(e.x + 11, e.y + 2); g.lineTo(e.x + 40, e.y + 16); g.lineTo(e.x + 11, e.y + 30); g.closePath();
    g.fill(); g.stroke();
    g.fillRect(e.x, e.y + e.h - 8, TILE, 8);
  }

  function paintSpikes(g, ch, x, y) {
    g.fillStyle = COLORS.spike;
    g.strokeStyle = COLORS.spikeDark;
    g.lineWidth = 2;
    g.beginPath();
    for (let k = 0; k < 3; k++) {
      const o = k * 13 + 1;
      if (ch === "x") { g.moveTo(x + o, y + 40); g.lineTo(x + o + 6.5, y + 16); g.lineTo(x + o + 13, y + 40); }
      if (ch === "v") { g.moveTo(x + o, y); g.lineTo(x + o + 6.5, y + 24); g.lineTo(x + o + 13, y); }
      if (ch === "<") { g.moveTo(x + 40, y + o); g.lineTo(x + 16, y + o + 6.5); g.lineTo(x + 40, y + o + 13); }
    }
    g.closePath();
    g.fill();
    g.stroke();
  }

  function drawRunner(c, sx) {
    const p = c.p;
    const x = Math.round(p.x - sx), y = Math.round(p.y);
    ctx.fillStyle = COLORS.runner;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    if (p.sliding) {
      ctx.fillRect(x - 6, y + 4, RW + 12, SLIDE_H - 6);
      ctx.strokeRect(x - 6, y + 4, RW + 12, SLIDE_H - 6);
      ctx.beginPath(); ctx.arc(x + (p.vx >= 0 ? RW + 4 : -4), y + 8, 8, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
      return;
    }
    // Stick figure drawn as thick blue strokes with a white rim, inside the 24x40 box.
    const cx = x + RW / 2;
    const phase = p.onGround && p.vx !== 0 ? Math.sin(c.totalTicks * 0.5) * 7 : 3;
    ctx.lineCap = "round";
    for (const [w, col] of [[9, "#fff"], [5, COLORS.runner]]) {
      ctx.strokeStyle = col;
      ctx.lineWidth = w;
      ctx.beginPath();
      ctx.moveTo(cx, y + 14); ctx.lineTo(cx, y + 27);
      ctx.moveTo(cx, y + 27); ctx.lineTo(cx - phase, y + 38);
      ctx.moveTo(cx, y + 27); ctx.lineTo(cx + phase, y + 38);
      ctx.moveTo(cx, y + 17); ctx.lineTo(cx - 8, y + 24);
      ctx.moveTo(cx, y + 17); ctx.lineTo(cx + 8, y + 24);
      ctx.stroke();
    }
    ctx.fillStyle = COLORS.runner;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(cx, y + 7, 7, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
    ctx.lineCap = "butt";
  }

  function drawCoin(o, sx) {
    ctx.fillStyle = COLORS.coin;
    ctx.strokeStyle = COLORS.coinRim;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.ellipse(o.x - sx + o.w / 2, o.y + o.h / 2, o.w / 2, o.h / 2, 0, 0, Math.PI * 2);
    ctx.fill(); ctx.stroke();
    ctx.fillStyle = COLORS.coinRim;
    ctx.fillRect(o.x - sx + o.w / 2 - 2, o.y + 7, 4, o.h - 14);
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
    textOutlined(hctx, "OvO", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined(hctx, "Level " + Math.min(c.level, LAST_LEVEL) + " of " + LAST_LEVEL, 90, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined(hctx, "Level " + c.level + "   Coins " + c.coinsTotal, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined(hctx, "Deaths " + c.deaths, W - 20, HUD_H / 2, "20px sans-serif", "right");
  }
  function drawHud(c) {
    if (!hudLayer) {
      hudLayer = document.createElement("canvas");
      hudLayer.width = W;
      hudLayer.height = HUD_H;
      hctx = hudLayer.getContext("2d");
    }
    const key = [c.level, c.coinsTotal, c.deaths].join("|");
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
    const key = c.level <= LAST_LEVEL ? c.map : layerKey;
    if (key !== layerKey) { paintLevel(c); layerKey = key; }
    const sx = Math.round(c.cameraX());
    ctx.drawImage(levelLayer, sx, 0, W, H, 0, 0, W, H);
    if (c.coin && !c.coinTaken) drawCoin(c.coin, sx);
    drawRunner(c, sx);
    drawHud(c);
    if (c.status === "terminal") {
      drawPanel([
        { text: "LEVEL COMPLETE", font: "bold 36px sans-serif" },
        { text: "All 3 levels done   Coins " + c.coinsTotal, font: "bold 28px sans-serif" },
        { text: "Press Enter to play again", font: "20px sans-serif" },
      ]);
    }
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen), and only after ticks
  // ran (nothing moves between ticks); a backlog is dropped.
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
      if (!moved) return;
      render();
      moved = false;
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  function normLevel(l) {
    const n = Math.floor(Number(l));
    return n >= 1 && n <= LAST_LEVEL ? n : 1;
  }

  const ep = Shell.episodes({
    pickLevel: normLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(level);
      render();
    },
  });

  function stateOf(c) {
    const s = c.snapshot();
    return {
      gameId: GAME_ID,
      seed: ep.seed,
      timestampMs: Date.now(),     // the harness's virtual clock
      gameTimeMs: Math.round(c.playTicks * 1000 / TICK_HZ),
      status: c.status,
      terminal: { isTerminal: c.status === "terminal", outcome: c.outcome, reason: c.reason },
      game_state: s,
      metrics: {
        primary_score: c.coinsTotal,
        coins: c.coinsTotal,
        deaths: c.deaths,
        level_time_s: Math.round(c.levelTicks * 100 / TICK_HZ) / 100,
        levels_completed: c.levelsCompleted,
        attempts: ep.attempts,
      },
      raw: { camera_x: c.cameraX(), start_level: ep.level, coin_taken_this_level: c.coinTaken },
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
      if (!core) return Object.assign(stateOf(createCore(ep.level)), { status: "loading" });
      return stateOf(core);
    },
  };

  Shell.mount({
    api,
    core: () => core,
    // How held keys become the core's input, and the runner's width, for the oracle's look-ahead.
    handles: { __gwOvo: () => ({ inputOf, RW }) },
    canvas,
    first: () => render(),
    loop,
  });
})();
