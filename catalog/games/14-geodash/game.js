// GeoDash for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer, a keyboard queue, one requestAnimationFrame loop with fixed
// 1/60 s ticks, and window.gameAPI. The oracle clones the core through
// window.__gwCore to look ahead; nothing else is exposed.
//
// World: x grows to the right (the cube's left edge), y grows downwards; the
// floor's top is at y = 560. Levels are hand-made tile strings (40 px tiles),
// assembled from hand-made pieces in a hand-written order per level.
(function () {
  "use strict";

  const GAME_ID = "14-geodash";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 14). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const TILE = 40;
  const CUBE = 40;
  const GROUND_Y = 560;           // top of the floor
  const ROWS = 9;                 // rows 0-7 above the floor (y 240-560), row 8 = floor
  const TOP_Y = GROUND_Y - 8 * TILE;
  const CUBE_SCREEN_X = 320;      // camera keeps the cube's left edge here
  const START_X = 2 * TILE;       // cube's left edge at the start
  const LEVEL_PX = 10000;         // finish line, px run
  const SCORE_END = LEVEL_PX / TILE;

  const JUMP_VY = -1100;          // apex 178 px, airtime 0.65 s
  const PAD_VY = -1500;
  const ORB_VY = -1100;
  const GRAVITY = 3400;
  const SPEEDS = { 1: 600, 2: 600, 3: 720 };
  const BUFFER_TICKS = 6;         // 0.1 s jump buffer (docs/games.md 1.3)
  const COYOTE_TICKS = 6;         // 0.1 s coyote time
  const SNAP = 12;                // a top this far above the cube's old bottom is landed on
  const ORB_R = 26;               // orb reach (circle vs cube box)
  // Spike hitbox inside its 40 px tile: the narrow upper part of the triangle
  // is forgiving, as in the original.
  const SPIKE_BOX = { x0: 11, x1: 29, y0: 12, y1: 40 };
  const PAD_H = 10;

  // ---------------------------------------------------------------------------
  // Levels. A piece is bottom-aligned rows (its last row is the floor row).
  // Legend: '.' empty, '#' block, '^' spike, 'P' jump pad, 'O' orb,
  //         '=' floor, ' ' (floor row) pit.
  // ---------------------------------------------------------------------------
  function tunnel(w) {
    const rows = [];
    for (let r = 0; r < 6; r++) rows.push("#".repeat(w));
    return rows.concat([".".repeat(w), ".".repeat(w), "=".repeat(w)]);
  }

  const PIECES = {
    s1: ["^", "="],
    s2: ["^^", "=="],
    s3: ["^^^", "==="],
    p1: [" "],
    p2: ["  "],
    p3: ["   "],
    blk: ["####", "===="],
    blkS: ["....^....", "#########", "========="],       // spike on a long block
    step2: ["....####", "########", "========"],         // block step up twice
    stair: ["............######", "......############", "##################", "=================="],
    pad: ["P.........", "=        ="],                   // pad over a wide pit
    padS: ["P.....^^^...", "============"],              // pad over a spike row
    orb: ["......O........", "...............", "...............", "...............", "...............",
          "===           ="],                             // pit too wide without the orb
    orb2: ["......O...........O..................", ".....................................", ".....................................",
           ".....................................", ".....................................",
           "===                        =========="],   // two orbs in a row: both are needed
    // Low-ceiling corridors: a wall with an 80 px tunnel at floor level; any
    // jump inside hits the roof.
    ceil: tunnel(12),
    ceilLong: tunnel(16),
  };

  // Hand-written order per level: piece ids, and "_N" = N flat tiles.
  const LEVELS = {
    1: "_14 s1 _12 s1 _12 s2 _12 p1 _12 blk _12 s1 _11 s2 _12 p1 _12 s2 _12 blkS _12 s1 _12 p1 _12 " +
       "step2 _12 s2 _12 s1 _12 p1 _12 s2 _12 blk _12 s1 _12 s2 _12 p1 _20",
    2: "_14 s1 _12 pad _12 s2 _12 orb _12 stair _12 p2 _12 padS _12 s2 _12 orb _12 p2 _12 stair _12 " +
       "s1 _12 pad _12 orb _12 s2 _12 p2 _12 padS _12 stair _20",
    3: "_16 s2 _14 padS _14 ceil _14 s3 _14 orb2 _14 p3 _14 ceilLong _14 padS _14 s2 _14 orb2 _14 " +
       "p3 _14 ceil _14 s3 _14 padS _14 orb2 _14 s2 _20",
  };

  function buildLevel(level) {
    const rows = Array.from({ length: ROWS }, () => "");
    const pad = (k) => ".".repeat(k);
    for (const tok of LEVELS[level].split(/\s+/)) {
      let piece;
      if (tok[0] === "_") {
        const n = Number(tok.slice(1));
        piece = [pad(n).replace(/\./g, "=")];
      } else {
        piece = PIECES[tok];
      }
      const w = piece[0].length;
      for (let r = 0; r < ROWS; r++) {
        const k = r - (ROWS - piece.length);
        rows[r] += k >= 0 ? piece[k].padEnd(w, ".") : pad(w);
      }
    }
    // Run-out past the finish line: flat floor as far as the view can reach.
    const need = Math.ceil((START_X + LEVEL_PX + W) / TILE);
    for (let r = 0; r < ROWS; r++) {
      if (rows[r].length < need) rows[r] += (r === ROWS - 1 ? "=" : ".").repeat(need - rows[r].length);
    }
    return rows;
  }

  const LEVEL_ROWS = {};
  function levelRows(level) {
    if (!LEVEL_ROWS[level]) LEVEL_ROWS[level] = buildLevel(level);
    return LEVEL_ROWS[level];
  }

  function tileAt(rows, r, c) {
    if (r < 0 || r >= ROWS) return ".";
    const row = rows[r];
    if (c < 0 || c >= row.length) return r === ROWS - 1 ? "=" : ".";   // flat floor beyond both ends
    return row[c];
  }
  function rowTop(r) {
    return TOP_Y + r * TILE;
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    core.rows = levelRows(level);
    core.speed = SPEEDS[level];
    core.status = "ready";        // the first press starts the run (see game.yaml)
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.x = START_X;
    core.y = GROUND_Y - CUBE;     // top edge
    core.vy = 0;
    core.onGround = true;
    core.held = false;
    core.startHeld = false;       // the starting press does not jump
    core.buffer = 0;
    core.coyote = 0;
    core.jumps = 0;
    core.usedOrbs = "";           // "c,r;" keys of orbs already used
    core.rotation = 0;            // cosmetic: quarter turns per jump
    return core;
  }

  function Core() {}

  Core.prototype.distance = function () {
    return Math.max(0, Math.min(LEVEL_PX, this.x - START_X));
  };
  Core.prototype.score = function () {
    return Math.floor(this.distance() / TILE);
  };

  Core.prototype.crash = function () {
    this.status = "terminal";
    this.outcome = "fail";
    this.reason = "crash";
  };

  // Tiles the cube's box overlaps: calls fn(ch, r, c) for each non-empty one.
  Core.prototype.eachTile = function (fn) {
    const c0 = Math.floor(this.x / TILE);
    const c1 = Math.floor((this.x + CUBE - 0.001) / TILE);
    const r0 = Math.max(0, Math.floor((this.y - TOP_Y) / TILE));
    const r1 = Math.min(ROWS - 1, Math.floor((this.y + CUBE - 0.001 - TOP_Y) / TILE));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const ch = tileAt(this.rows, r, c);
        if (ch !== "." && ch !== " ") fn(ch, r, c);
      }
    }
  };

  // input = {jump: boolean}: jump key held on this tick.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    const held = !!(input && input.jump);
    const pressed = held && !this.held;
    this.held = held;
    if (this.status === "ready") {
      if (!held) return;
      this.status = "playing";
      this.startHeld = true;
    }
    if (this.status !== "playing") return;
    this.playTicks++;
    if (!held) this.startHeld = false;
    const canHold = held && !this.startHeld;
    if (pressed && !this.onGround && !this.startHeld) this.buffer = BUFFER_TICKS;

    // Jump: hold-repeat on the ground, coyote time after running off an edge,
    // a buffered press on landing.
    if ((this.onGround || this.coyote > 0) && (canHold || this.buffer > 0)) {
      this.vy = JUMP_VY;
      this.onGround = false;
      this.coyote = 0;
      this.buffer = 0;
      this.jumps++;
      this.rotation++;
    }
    // Orbs: a held key while overlapping fires each orb once.
    if (canHold) this.useOrbs();

    const prevBottom = this.y + CUBE;
    this.x += this.speed * DT;
    this.vy += GRAVITY * DT;
    this.y += this.vy * DT;
    const wasGrounded = this.onGround;
    this.onGround = false;
    this.collide(prevBottom);
    if (this.status !== "playing") return;
    if (!this.onGround && wasGrounded && this.vy >= 0) this.coyote = COYOTE_TICKS;
    else if (this.coyote > 0) this.coyote--;
    if (this.buffer > 0) this.buffer--;

    if (this.y > H) {
      this.crash();
      return;
    }
    if (this.x - START_X >= LEVEL_PX) {
      this.status = "terminal";
      this.outcome = "success";
      this.reason = "level_complete";
    }
  };

  Core.prototype.useOrbs = function () {
    const cx0 = Math.floor((this.x - ORB_R) / TILE);
    const cx1 = Math.floor((this.x + CUBE + ORB_R) / TILE);
    for (let r = 0; r < ROWS - 1; r++) {
      for (let c = cx0; c <= cx1; c++) {
        if (tileAt(this.rows, r, c) !== "O") continue;
        const key = c + "," + r + ";";
        if (this.usedOrbs.indexOf(key) >= 0) continue;
        const ox = c * TILE + TILE / 2;
        const oy = rowTop(r) + TILE / 2;
        const dx = Math.max(this.x - ox, 0, ox - (this.x + CUBE));
        const dy = Math.max(this.y - oy, 0, oy - (this.y + CUBE));
        if (dx * dx + dy * dy <= ORB_R * ORB_R) {
          this.usedOrbs += key;
          this.vy = ORB_VY;
          this.onGround = false;
          this.coyote = 0;
          this.jumps++;
          this.rotation++;
        }
      }
    }
  };

  // Resolve the cube against solids, spikes and pads after a move.
  Core.prototype.collide = function (prevBottom) {
    let landTop = null;
    let dead = false;
    let pad = false;
    this.eachTile((ch, r, c) => {
      const top = rowTop(r);
      const left = c * TILE;
      if (ch === "#" || ch === "=") {
        if (this.vy >= 0 && prevBottom <= top + SNAP) {
          landTop = landTop === null ? top : Math.min(landTop, top);
        } else {
          dead = true;                 // side or underside of a solid
        }
      } else if (ch === "^") {
        const sx0 = left + SPIKE_BOX.x0;
        const sx1 = left + SPIKE_BOX.x1;
        const sy0 = top + SPIKE_BOX.y0;
        const sy1 = top + SPIKE_BOX.y1;
        if (this.x < sx1 && this.x + CUBE > sx0 && this.y < sy1 && this.y + CUBE > sy0) dead = true;
      } else if (ch === "P") {
        if (this.y + CUBE > top + TILE - PAD_H) pad = true;
      }
    });
    if (landTop !== null && !dead) {
      // The landing spot must not itself push into a solid beside it.
      this.y = landTop - CUBE;
      this.vy = 0;
      this.onGround = true;
      this.eachTile((ch, r) => {
        if ((ch === "#" || ch === "=") && rowTop(r) < landTop) dead = true;
      });
    }
    if (dead) {
      this.crash();
      return;
    }
    if (pad) {
      this.vy = PAD_VY;
      this.onGround = false;
      this.coyote = 0;
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);       // rows are shared, read-only
    return c;
  };

  // The next hazards ahead of the cube (and the one under it), nearest first.
  Core.prototype.hazardsAhead = function (n) {
    const out = [];
    const c0 = Math.floor(this.x / TILE);
    const names = { "^": "spike", "#": "block", "P": "pad", "O": "orb" };
    for (let c = c0; c < c0 + 60 && out.length < n; c++) {
      if (tileAt(this.rows, ROWS - 1, c) === " " && tileAt(this.rows, ROWS - 1, c - 1) !== " ") {
        let w = 1;
        while (tileAt(this.rows, ROWS - 1, c + w) === " ") w++;
        out.push({ type: "pit", x: c * TILE, y: GROUND_Y, w: w * TILE, h: H - GROUND_Y });
      }
      for (let r = 0; r < ROWS - 1 && out.length < n; r++) {
        const ch = tileAt(this.rows, r, c);
        if (!names[ch]) continue;
        if (ch === "#") {
          // One entry per block run, at its lowest row: a stack's full height,
          // and "ceiling" when the cube can run underneath.
          if (tileAt(this.rows, r, c - 1) === "#" || tileAt(this.rows, r + 1, c) === "#") continue;
          let w = 1;
          while (tileAt(this.rows, r, c + w) === "#") w++;
          let top = r;
          while (tileAt(this.rows, top - 1, c) === "#") top--;
          const ceiling = r < ROWS - 2 && tileAt(this.rows, r + 1, c) === ".";
          out.push({ type: ceiling ? "ceiling" : "block", x: c * TILE, y: rowTop(top), w: w * TILE, h: (r - top + 1) * TILE });
          continue;
        }
        out.push({ type: names[ch], x: c * TILE, y: rowTop(r), w: TILE, h: TILE });
      }
    }
    return out.slice(0, n);
  };

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const dead = this.status === "terminal" && this.outcome === "fail";
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score(),
      distance: Math.round(this.distance()),
      level: this.level,
      player: {
        x: Math.round(this.x * 10) / 10,
        y: Math.round(this.y * 10) / 10,
        vy: Math.round(this.vy * 10) / 10,
        on_ground: this.onGround,
        player_die: dead,
        alive: !dead,
      },
      hazards: this.hazardsAhead(8),
      jumps: this.jumps,
      deaths: dead ? 1 : 0,
      ticks: this.totalTicks,
      playTicks: this.playTicks,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still counts as held for one tick.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts again. Agents never see a
    // terminal frame (the harness resets first) and have no Enter key.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // This tick's held set. A key that went down during the tick counts as held
  // for it even if it also came up (very short taps).
  function consumeInput() {
    const { downs, down } = keys.take();
    for (const k of downs) down.add(k);
    return down;
  }

  // ---------------------------------------------------------------------------
  // Renderer
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    bgTop: "#2B2838",
    bgBottom: "#4A4458",
    bgLine: "rgba(255,255,255,0.05)",
    floor: "#5B5448",
    floorTop: "#A89F8E",
    block: "#6E6A66",
    blockEdge: "#D6D0C4",
    spike: "#E53935",
    spikeEdge: "#7A1513",
    pickup: "#F5C518",
    pickupEdge: "#6B5200",
    player: "#2D7DF6",
    goal: "#2ECC71",
  };

  function textOutlined(str, x, y, font, align) {
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

  // The backdrop (gradient plus a faint grid) is painted once, two screens wide,
  // and copied at a slow parallax offset.
  let bgLayer = null;
  const BG_PERIOD = 160;
  function bgImage() {
    if (bgLayer) return bgLayer;
    bgLayer = document.createElement("canvas");
    bgLayer.width = W + BG_PERIOD;
    bgLayer.height = GROUND_Y;
    const b = bgLayer.getContext("2d");
    const g = b.createLinearGradient(0, 0, 0, GROUND_Y);
    g.addColorStop(0, COLORS.bgTop);
    g.addColorStop(1, COLORS.bgBottom);
    b.fillStyle = g;
    b.fillRect(0, 0, bgLayer.width, GROUND_Y);
    b.strokeStyle = COLORS.bgLine;
    b.lineWidth = 2;
    b.beginPath();
    for (let x = 0; x < bgLayer.width; x += BG_PERIOD) { b.moveTo(x, 0); b.lineTo(x, GROUND_Y); }
    for (let y = 40; y < GROUND_Y; y += BG_PERIOD) { b.moveTo(0, y); b.lineTo(bgLayer.width, y); }
    b.stroke();
    return bgLayer;
  }

  function drawTile(ch, sx, sy, used) {
    if (ch === "#" || ch === "=") {
      const floor = ch === "=";
      ctx.fillStyle = floor ? COLORS.floor : COLORS.block;
      ctx.fillRect(sx, sy, TILE, floor ? H - sy : TILE);
      ctx.fillStyle = floor ? COLORS.floorTop : COLORS.blockEdge;
      ctx.fillRect(sx, sy, TILE, 4);
      if (!floor) {
        ctx.strokeStyle = COLORS.blockEdge;
        ctx.lineWidth = 2;
        ctx.strokeRect(sx + 1, sy + 1, TILE - 2, TILE - 2);
      }
    } else if (ch === "^") {
      ctx.fillStyle = COLORS.spike;
      ctx.strokeStyle = COLORS.spikeEdge;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(sx + 2, sy + TILE);
      ctx.lineTo(sx + TILE / 2, sy + 2);
      ctx.lineTo(sx + TILE - 2, sy + TILE);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    } else if (ch === "P") {
      ctx.fillStyle = COLORS.pickup;
      ctx.strokeStyle = COLORS.pickupEdge;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.ellipse(sx + TILE / 2, sy + TILE - PAD_H / 2, TILE / 2 - 2, PAD_H / 2 + 1, 0, Math.PI, 0);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    } else if (ch === "O") {
      ctx.lineWidth = 6;
      ctx.strokeStyle = used ? "rgba(245,197,24,0.35)" : COLORS.pickup;
      ctx.beginPath();
      ctx.arc(sx + TILE / 2, sy + TILE / 2, 15, 0, Math.PI * 2);
      ctx.stroke();
      ctx.lineWidth = 2;
      ctx.strokeStyle = COLORS.pickupEdge;
      ctx.beginPath();
      ctx.arc(sx + TILE / 2, sy + TILE / 2, 19, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  function drawWorld(c) {
    const camX = c.x - CUBE_SCREEN_X;
    const off = Math.floor((((camX * 0.3) % BG_PERIOD) + BG_PERIOD) % BG_PERIOD);
    ctx.drawImage(bgImage(), off, 0, W, GROUND_Y, 0, 0, W, GROUND_Y);
    ctx.fillStyle = "#1E1B24";                      // pit darkness below the floor line
    ctx.fillRect(0, GROUND_Y, W, H - GROUND_Y);
    const c0 = Math.floor(camX / TILE);
    const c1 = Math.ceil((camX + W) / TILE);
    for (let col = c0; col <= c1; col++) {
      const sx = Math.round(col * TILE - camX);
      for (let r = 0; r < ROWS; r++) {
        const ch = tileAt(c.rows, r, col);
        if (ch === "." || ch === " ") continue;
        drawTile(ch, sx, rowTop(r), ch === "O" && c.usedOrbs.indexOf(col + "," + r + ";") >= 0);
      }
    }
    // Finish line: a green chequered post at 10 000 px.
    const fx = Math.round(START_X + LEVEL_PX - camX);
    if (fx > -40 && fx < W) {
      for (let k = 0; TOP_Y + k * 20 < GROUND_Y; k++) {
        ctx.fillStyle = k % 2 ? "#FFFFFF" : COLORS.goal;
        ctx.fillRect(fx, TOP_Y + k * 20, 10, 20);
        ctx.fillStyle = k % 2 ? COLORS.goal : "#FFFFFF";
        ctx.fillRect(fx + 10, TOP_Y + k * 20, 10, 20);
      }
    }
  }

  function drawCube(c) {
    const sx = CUBE_SCREEN_X;
    ctx.save();
    ctx.translate(sx + CUBE / 2, c.y + CUBE / 2);
    ctx.rotate(c.onGround || c.status !== "playing" ? 0 : (c.vy / 1100) * 0.6);
    ctx.fillStyle = COLORS.player;
    ctx.fillRect(-CUBE / 2, -CUBE / 2, CUBE, CUBE);
    ctx.strokeStyle = "#FFFFFF";
    ctx.lineWidth = 2;
    ctx.strokeRect(-CUBE / 2 + 1, -CUBE / 2 + 1, CUBE - 2, CUBE - 2);
    ctx.fillStyle = "#BFDFFF";
    ctx.fillRect(-10, -10, 20, 20);
    ctx.strokeStyle = "#0B2B66";
    ctx.strokeRect(-10, -10, 20, 20);
    ctx.restore();
  }

  function drawHud(c) {
    ctx.fillStyle = "rgba(0,0,0,0.55)";
    ctx.fillRect(0, 0, W, HUD_H);
    textOutlined("GeoDash", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined("Level " + c.level, 160, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined("Score " + c.score() + " / " + SCORE_END, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined("Attempt " + ep.attempts, W - 20, HUD_H / 2, "20px sans-serif", "right");
    // Progress bar under the HUD strip.
    ctx.fillStyle = "rgba(0,0,0,0.5)";
    ctx.fillRect(W / 2 - 200, HUD_H + 6, 400, 8);
    ctx.fillStyle = COLORS.goal;
    ctx.fillRect(W / 2 - 200, HUD_H + 6, 400 * c.distance() / LEVEL_PX, 8);
  }

  function drawOverlay(c) {
    if (c.status === "ready") {
      textOutlined("PRESS SPACE TO START", W / 2, 200, "bold 36px sans-serif", "center");
      return;
    }
    if (c.status !== "terminal") return;
    const pw = 560;
    const ph = 170;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 60;
    ctx.fillStyle = "rgba(0,0,0,0.65)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    const title = c.outcome === "success" ? "LEVEL COMPLETE" : "GAME OVER \u2013 " + c.reason;
    textOutlined(title, W / 2, py + 45, "bold 36px sans-serif", "center");
    textOutlined("Score " + c.score(), W / 2, py + 92, "bold 28px sans-serif", "center");
    textOutlined("Press Enter to play again", W / 2, py + 135, "20px sans-serif", "center");
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    drawWorld(core);
    drawCube(core);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator;
  // a frame is drawn only when the picture can have changed.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let dirty = true;

  function runTick() {
    const held = consumeInput();
    if (!core || core.status === "terminal") return;   // input ignored once terminal
    const before = core.status;
    core.tick({ jump: held.has(" ") });
    if (core.status === "playing" || core.status !== before) dirty = true;
  }

  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen), and only when the
  // picture can have changed; a backlog is dropped.
  const loop = Shell.loop({
    tickMs: TICK_MS,
    visibleOnly: true,
    tick: runTick,
    render() {
      if (!dirty) return;
      render();
      dirty = false;
    },
  });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  function normLevel(l) {
    const n = Number(l);
    return n === 2 || n === 3 ? n : 1;
  }

  const ep = Shell.episodes({
    pickLevel: normLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render();                      // the first screenshot is already current
      dirty = false;
    },
  });

  const api = {
    capabilities: {
      // Hand-made levels and no randomness: the seed changes nothing.
      supports_seed: false,
      supports_inplace_reset: true,
      supports_level_select: true,
    },

    init: ep.init,
    reset: ep.reset,

    getState() {
      const s = core ? core.snapshot() : null;
      const score = s ? s.score : 0;
      const distance = s ? s.distance : 0;
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),   // the harness's virtual clock
        gameTimeMs: s ? s.gameTimeMs : 0,
        status: s ? s.status : "loading",
        terminal: s ? s.terminal : { isTerminal: false, outcome: null, reason: null },
        game_state: {
          score: score,
          mode: "cube",
          level: ep.level,
          completion_progress: distance / LEVEL_PX,
          player: s ? s.player : { x: START_X, y: GROUND_Y - CUBE, vy: 0, on_ground: true, player_die: false, alive: true },
          hazards: s ? s.hazards : [],
        },
        metrics: {
          primary_score: score,
          distance: distance,
          points: score,
          jumps: s ? s.jumps : 0,
          attempts: ep.attempts,
          deaths: s ? s.deaths : 0,
        },
        raw: {
          ticks: s ? s.ticks : 0,
          play_ticks: s ? s.playTicks : 0,
          speed_px_s: core ? core.speed : SPEEDS[ep.level],
          ground_y: GROUND_Y,
          tile: TILE,
          level_px: LEVEL_PX,
        },
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
