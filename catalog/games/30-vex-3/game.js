// Vex 3 (act 1) for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer with the course painted once onto an offscreen canvas
// (saws, flags, the platform and the runner are drawn over it), a keyboard
// queue, one requestAnimationFrame loop with fixed 1/60 s ticks, and
// window.gameAPI. The oracle clones the core through window.__gwCore to look
// ahead. One hand-made course, no randomness: saws and the moving platform are
// pure functions of game time.
(function () {
  "use strict";

  const GAME_ID = "30-vex-3";

  // Constants (docs/games.md section 30). Units: px, px/s, px/s^2, ticks of 1/60 s.
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TILE = 40;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const RUN = 380;
  const ACC_GROUND = 3000;
  const ACC_AIR = 2000;
  const G = 2600;
  const JUMP_VY = -920;            // apex ~163 px
  const WALL_VY = -880;
  const WALL_KICK = 380;
  const MAX_FALL = 1400;
  const WALL_SLIDE = 180;
  const SLIDE_TICKS = 42;          // 0.7 s
  const SLIDE_V = 480;
  const KICK_LOCK = 12;            // ticks a wall kick ignores steering: no climbing one wall
  const BUFFER_TICKS = 6;          // 0.1 s jump buffer (docs/games.md 1.3)
  const COYOTE_TICKS = 6;          // 0.1 s coyote time
  const RESPAWN_TICKS = 24;        // 0.4 s
  const RW = 24;
  const RH = 44;
  const SLIDE_H = 22;
  const FLAGS = [700, 1500, 2400, 3300, 4200];
  const FINISH = 4600;

  // Legend: . empty, # solid, x floor spikes, b low blade (hangs in the top of
  // its tile), @ start. Sections: spikes and a pit; a slide under blades and a
  // wall; a saw sweeping a raised platform over spikes, a spike staircase; an
  // 8-tile chimney (hanging wall on the left, ledge on the right: a plain jump
  // plus one wall jump falls short, so it takes alternating wall jumps) and a
  // pit crossed on a moving platform; blades, a rotating saw, a long pit.
  const MAP = [
    "........................................................................................................................",
    "........................................................................................................................",
    "...............................................................#........................................................",
    "......................#####....................................#......................#####.............................",
    "......................#####....................................#......................#####.............................",
    "......................#####....................................#......................#####.............................",
    "......................#####....................................#......................#####.............................",
    "......................#####....................................#......................#####.............................",
    "......................#####....................................#..####................#####.............................",
    "......................#####....................................#..####................#####.............................",
    "......................#####....................................#..####................#####.............................",
    "......................#####....................................#..####................#####.............................",
    "......................#####....................................#..####................#####.............................",
    "......................#####....##.....................##.......#..####................#####.............................",
    "......................#####....##........########...#.##..........####................#####.............................",
    "..@.....xx............bbbbb....##.......xxxxxxxxx.#x#x##xx........####................bbbbb..................x..........",
    "#############..##########################################################.........#################.....################",
    "#############xx##########################################################xxxxxxxxx#################xxxxx################",
  ];
  const COLS = MAP[0].length;
  const ROWS = MAP.length;
  const LEVEL_W = COLS * TILE;

  // Saws: red discs whose centre is a pure function of game time (ticks).
  //  line: sweeps between (x0,y0) and (x1,y1), triangle wave of `period` ticks;
  //  circle: orbits (cx,cy) at radius `rr`, one turn per `period` ticks.
  const SAWS = [
    { kind: "line", x0: 1660, y0: 538, x1: 1900, y1: 538, r: 22, period: 120 },
    { kind: "circle", cx: 3820, cy: 560, rr: 90, r: 24, period: 144 },
  ];

  function sawPos(s, t) {
    if (s.kind === "line") {
      const ph = (t % s.period) / s.period;
      const f = ph < 0.5 ? ph * 2 : 2 - ph * 2;
      return { x: s.x0 + (s.x1 - s.x0) * f, y: s.y0 + (s.y1 - s.y0) * f };
    }
    const a = (t % s.period) / s.period * Math.PI * 2;
    return { x: s.cx + Math.cos(a) * s.rr, y: s.cy + Math.sin(a) * s.rr };
  }

  // Moving platforms: one-way (solid from above only) slabs whose left edge is
  // a pure function of game time, easing between x0 and x1 once per `period`.
  const MOVERS = [
    { x0: 2920, x1: 3200, y: 640, w: 80, h: 16, period: 180 },
  ];

  function moverX(m, t) {
    return m.x0 + (m.x1 - m.x0) * (1 - Math.cos((t % m.period) / m.period * Math.PI * 2)) / 2;
  }

  const SOLID = { "#": true };

  // Hazard box of a tile, a little inside the drawn shape so grazes are fair.
  function hazardBox(ch) {
    if (ch === "x") return [4, 22, 32, 18];
    if (ch === "b") return [0, 0, 40, 16];
    return null;
  }

  function overlap(ax, ay, aw, ah, bx, by, bw, bh) {
    return ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
  }

  function circleHitsBox(cx, cy, r, x, y, w, h) {
    const nx = Math.max(x, Math.min(cx, x + w));
    const ny = Math.max(y, Math.min(cy, y + h));
    return (cx - nx) * (cx - nx) + (cy - ny) * (cy - ny) < r * r;
  }

  const TILE_HAZARDS = [];
  let START = null;
  for (let r = 0; r < ROWS; r++) {
    for (let col = 0; col < COLS; col++) {
      const ch = MAP[r][col];
      if (ch === "@") START = { x: col * TILE + 8, y: (r + 1) * TILE - RH };
      const hb = hazardBox(ch);
      if (hb) TILE_HAZARDS.push({ x: col * TILE + hb[0], y: r * TILE + hb[1], w: hb[2], h: hb[3],
        kind: ch === "x" ? "spikes" : "blade" });
    }
  }

  function tileAt(col, row) {
    if (col < 0 || col >= COLS) return "#";   // course ends are walls
    if (row < 0 || row >= ROWS) return ".";
    return MAP[row][col];
  }

  function solidIn(x, y, w, h) {
    const c0 = Math.floor(x / TILE), c1 = Math.floor((x + w - 0.001) / TILE);
    const r0 = Math.floor(y / TILE), r1 = Math.floor((y + h - 0.001) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let col = c0; col <= c1; col++) {
        if (SOLID[tileAt(col, r)]) return { x: col * TILE, y: r * TILE, w: TILE, h: TILE };
      }
    }
    return null;
  }

  // ---------------------------------------------------------------------------
  // Core
  // ---------------------------------------------------------------------------
  function Core() {}

  function createCore() {
    const c = new Core();
    c.level = 1;
    c.status = "playing";
    c.outcome = null;
    c.reason = null;
    c.totalTicks = 0;
    c.playTicks = 0;
    c.deaths = 0;
    c.passed = 0;                  // flags touched (they are passed in order)
    c.dead = 0;                    // respawn countdown while > 0
    c.maxX = START.x;
    c.spawn(START.x, START.y);
    return c;
  }

  Core.prototype.spawn = function (x, y) {
    this.p = { x: x, y: y, vx: 0, vy: 0, h: RH, onGround: true, onWall: 0,
      coyote: 0, buffer: 0, slide: 0, sliding: false, face: 1, lock: 0, ride: -1 };
  };

  Core.prototype.respawnPoint = function () {
    if (this.passed === 0) return START;
    return { x: FLAGS[this.passed - 1] - RW / 2, y: 16 * TILE - RH };
  };

  Core.prototype.hitsHazard = function () {
    const p = this.p;
    for (const z of TILE_HAZARDS) {
      if (z.x > p.x + 60 || z.x + z.w < p.x - 60) continue;
      if (overlap(p.x, p.y, RW, p.h, z.x, z.y, z.w, z.h)) return true;
    }
    for (const s of SAWS) {
      const q = sawPos(s, this.playTicks);
      if (circleHitsBox(q.x, q.y, s.r - 3, p.x, p.y, RW, p.h)) return true;
    }
    return false;
  };

  // input = {left, right, up, down: held; jump: ArrowUp pressed this tick}
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== "playing") return;
    this.playTicks++;
    const inp = input || {};
    if (this.dead > 0) {
      this.dead--;
      if (this.dead === 0) { const sp = this.respawnPoint(); this.spawn(sp.x, sp.y); }
      return;
    }
    const p = this.p;
    if (p.ride >= 0) this.carry(MOVERS[p.ride]);
    if (inp.jump) p.buffer = BUFFER_TICKS + 1;
    const dir = (inp.right ? 1 : 0) - (inp.left ? 1 : 0);
    if (dir) p.face = dir;
    if (p.lock > 0) p.lock--;
    const steer = p.lock > 0 ? 0 : dir;

    // Crouch slide: Down with a direction while running on the ground; 0.7 s at
    // 480 px/s with the short hitbox; never ends under a ceiling.
    if (!p.sliding && inp.down && dir && p.onGround) {
      p.sliding = true;
      p.slide = SLIDE_TICKS;
      p.face = dir;
      p.vx = dir * SLIDE_V;
      p.y += RH - SLIDE_H;
      p.h = SLIDE_H;
    }
    if (p.sliding) {
      if (p.slide > 0) p.slide--;
      const roof = solidIn(p.x, p.y - (RH - SLIDE_H), RW, RH - SLIDE_H) !== null;
      if (!roof && (p.slide === 0 || !p.onGround)) {
        p.sliding = false;
        p.y -= RH - SLIDE_H;
        p.h = RH;
      } else {
        p.vx = p.face * SLIDE_V;
      }
    }
    if (!p.sliding) {
      const acc = (p.onGround ? ACC_GROUND : ACC_AIR) * DT;
      if (steer) {
        p.vx += steer * acc;
      } else if (p.onGround) {
        p.vx = Math.abs(p.vx) <= acc ? 0 : p.vx - Math.sign(p.vx) * acc;
      }
      // Slide speed does not carry into a jump: pits are sized for run speed.
      p.vx = Math.max(-RUN, Math.min(RUN, p.vx));
    }

    // Jumps: from the ground (or within coyote time), else off a wall.
    if (p.buffer > 0 && !p.sliding) {
      if (p.onGround || p.coyote > 0) {
        p.vy = JUMP_VY;
        p.buffer = 0;
        p.coyote = 0;
        p.onGround = false;
      } else if (p.onWall) {
        p.vy = WALL_VY;
        p.vx = -p.onWall * WALL_KICK;
        p.buffer = 0;
        p.lock = KICK_LOCK;
      }
    }
    if (p.buffer > 0) p.buffer--;

    p.vy = Math.min(p.vy + G * DT, MAX_FALL);
    if (p.onWall !== 0 && dir === p.onWall && p.vy > WALL_SLIDE) p.vy = WALL_SLIDE;

    p.x += p.vx * DT;
    const hx = solidIn(p.x, p.y, RW, p.h);
    if (hx) { p.x = p.vx > 0 ? hx.x - RW : hx.x + hx.w; p.vx = 0; }
    const feet = p.y + p.h;
    p.y += p.vy * DT;
    const hy = solidIn(p.x, p.y, RW, p.h);
    if (hy) { p.y = p.vy > 0 ? hy.y - p.h : hy.y + hy.h; p.vy = 0; }
    this.land(feet);
    p.onGround = p.vy >= 0 && (p.ride >= 0 || solidIn(p.x, p.y + p.h, RW, 1) !== null);
    if (p.onGround) { p.coyote = COYOTE_TICKS; p.lock = 0; }
    else if (p.coyote > 0) p.coyote--;
    p.onWall = 0;
    if (!p.onGround) {
      if (solidIn(p.x + RW, p.y + 4, 2, p.h - 8)) p.onWall = 1;
      else if (solidIn(p.x - 2, p.y + 4, 2, p.h - 8)) p.onWall = -1;
    }
    if (p.x > this.maxX) this.maxX = p.x;

    if (p.y > H || this.hitsHazard()) {
      this.deaths++;
      this.dead = RESPAWN_TICKS;
      p.vx = 0; p.vy = 0;
      return;
    }
    while (this.passed < FLAGS.length && p.x + RW >= FLAGS[this.passed] && p.x <= FLAGS[this.passed] + 40) this.passed++;
    if (p.x + RW >= FINISH) {
      this.status = "terminal";
      this.outcome = "success";
      this.reason = "act_complete";
    }
  };

  // Standing on a moving platform moves the runner with it (walls still stop him).
  Core.prototype.carry = function (m) {
    const p = this.p;
    const dx = moverX(m, this.playTicks) - moverX(m, this.playTicks - 1);
    p.x += dx;
    const hx = solidIn(p.x, p.y, RW, p.h);
    if (hx) p.x = dx > 0 ? hx.x - RW : hx.x + hx.w;
  };

  // One-way landing: feet that were at or above a platform's top and now reach it.
  Core.prototype.land = function (feetBefore) {
    const p = this.p;
    p.ride = -1;
    if (p.vy < 0 || solidIn(p.x, p.y + p.h, RW, 1)) return;   // ground first
    for (let i = 0; i < MOVERS.length; i++) {
      const m = MOVERS[i], mx = moverX(m, this.playTicks);
      if (feetBefore <= m.y + 0.01 && p.y + p.h >= m.y && p.x < mx + m.w && p.x + RW > mx) {
        p.y = m.y - p.h;
        p.vy = 0;
        p.ride = i;
        return;
      }
    }
  };

  Core.prototype.cameraX = function () {
    return Math.max(0, Math.min(LEVEL_W - W, this.p.x - 480));
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.p = Object.assign({}, this.p);
    return c;
  };

  Core.prototype.distanceToGoal = function () {
    const goal = this.passed < FLAGS.length ? FLAGS[this.passed] : FINISH;
    return Math.max(0, Math.round(goal - (this.p.x + RW)));
  };

  Core.prototype.snapshot = function () {
    const p = this.p;
    const cx = p.x + RW / 2, cy = p.y + p.h / 2;
    const hz = TILE_HAZARDS.map((z) => ({ kind: z.kind, x: z.x, y: z.y, w: z.w, h: z.h,
      d: Math.hypot(z.x + z.w / 2 - cx, z.y + z.h / 2 - cy) }));
    for (const s of SAWS) {
      const q = sawPos(s, this.playTicks);
      hz.push({ kind: "saw", x: Math.round(q.x * 10) / 10, y: Math.round(q.y * 10) / 10, r: s.r, d: Math.hypot(q.x - cx, q.y - cy) });
    }
    hz.sort((a, b) => a.d - b.d);
    return {
      level: 1,
      score: this.passed,
      completion_progress: this.status === "terminal" ? 1 : Math.max(0, Math.min(1, (this.maxX + RW) / FINISH)),
      player: { x: p.x, y: p.y, vx: p.vx, vy: p.vy, w: RW, h: p.h, on_ground: p.onGround,
        on_wall: p.onWall, on_platform: p.ride >= 0, sliding: p.sliding, alive: this.dead === 0 },
      checkpoints: FLAGS.map((x, i) => ({ x: x, passed: i < this.passed })),
      finish_x: FINISH,
      hazards: hz.slice(0, 10).map((z) => { const o = Object.assign({}, z); delete o.d; return o; }),
      platforms: MOVERS.map((m) => ({ x: Math.round(moverX(m, this.playTicks) * 10) / 10, y: m.y, w: m.w, h: m.h,
        x_min: m.x0, x_max: m.x1 })),
      level_width: LEVEL_W,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still gives one `pressed` edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  function consumeInput() {
    const { pressed, down: held } = keys.take();
    for (const k of pressed) held.add(k);
    return { left: held.has("ArrowLeft"), right: held.has("ArrowRight"), up: held.has("ArrowUp"),
      down: held.has("ArrowDown"), jump: pressed.has("ArrowUp") };
  }

  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    sky: "#DCE3EA", skyLine: "#CBD3DC",
    block: "#3F4650", blockDark: "#262B31", blockTop: "#5C6672",
    spike: "#E53935", spikeDark: "#8E1B19",
    saw: "#E53935", sawDark: "#7F1412",
    flag: "#2ECC71", flagDone: "#F5C518", pole: "#555",
    runner: "#1E6BF0",
    mover: "#8A6A4F", moverDark: "#4E3A2A", rail: "#9AA3AD",
  };

  function textOutlined(g, str, x, y, font, align) {
    g.font = font; g.textAlign = align; g.textBaseline = "middle"; g.lineJoin = "round";
    g.lineWidth = 3; g.strokeStyle = "#111"; g.strokeText(str, x, y);
    g.fillStyle = "#fff"; g.fillText(str, x, y);
  }

  let levelLayer = null;
  function paintLevel() {
    levelLayer = document.createElement("canvas");
    levelLayer.width = LEVEL_W;
    levelLayer.height = H;
    const g = levelLayer.getContext("2d");
    g.fillStyle = COLORS.sky;
    g.fillRect(0, 0, LEVEL_W, H);
    g.strokeStyle = COLORS.skyLine;
    g.lineWidth = 1;
    for (let x = 0; x < LEVEL_W; x += 160) { g.beginPath(); g.moveTo(x + 0.5, 0); g.lineTo(x + 0.5, H); g.stroke(); }
    for (let r = 0; r < ROWS; r++) {
      for (let col = 0; col < COLS; col++) {
        const ch = MAP[r][col];
        const x = col * TILE, y = r * TILE;
        if (ch === "#") {
          g.fillStyle = COLORS.block; g.fillRect(x, y, TILE, TILE);
          if (tileAt(col, r - 1) !== "#") { g.fillStyle = COLORS.blockTop; g.fillRect(x, y, TILE, 6); }
          g.strokeStyle = COLORS.blockDark; g.lineWidth = 1; g.strokeRect(x + 0.5, y + 0.5, TILE - 1, TILE - 1);
        } else if (ch === "x") {
          g.fillStyle = COLORS.spike; g.strokeStyle = COLORS.spikeDark; g.lineWidth = 2;
          g.beginPath();
          for (let k = 0; k < 3; k++) {
            const o = k * 13 + 1;
            g.moveTo(x + o, y + 40); g.lineTo(x + o + 6.5, y + 16); g.lineTo(x + o + 13, y + 40);
          }
          g.closePath(); g.fill(); g.stroke();
        } else if (ch === "b") {
          g.fillStyle = COLORS.spike; g.strokeStyle = COLORS.spikeDark; g.lineWidth = 2;
          g.beginPath();
          g.moveTo(x, y); g.lineTo(x + 40, y); g.lineTo(x + 30, y + 16); g.lineTo(x + 10, y + 16); g.closePath();
          g.fill(); g.stroke();
        }
      }
    }
    // Rails show where each moving platform travels.
    g.strokeStyle = COLORS.rail; g.lineWidth = 3; g.setLineDash([10, 8]);
    for (const m of MOVERS) {
      g.beginPath(); g.moveTo(m.x0 + 4, m.y + m.h / 2); g.lineTo(m.x1 + m.w - 4, m.y + m.h / 2); g.stroke();
    }
    g.setLineDash([]);
    // Finish: a chequered gate.
    for (let k = 0; k < 12; k++) {
      g.fillStyle = k % 2 ? "#111" : "#fff";
      g.fillRect(FINISH, 640 - (k + 1) * 20, 20, 20);
      g.fillStyle = k % 2 ? "#fff" : "#111";
      g.fillRect(FINISH + 20, 640 - (k + 1) * 20, 20, 20);
    }
    textOutlined(g, "FINISH", FINISH + 20, 380, "bold 22px sans-serif", "center");
  }

  // Flag sprites (pole, pennant, number) are painted once per flag and state
  // (green ahead, yellow touched) and blitted: outlined text is costly.
  const flagSprites = {};
  function flagSprite(i, done) {
    const key = i + (done ? "d" : "a");
    if (flagSprites[key]) return flagSprites[key];
    const cv = document.createElement("canvas");
    cv.width = 48; cv.height = 112;
    const g = cv.getContext("2d");
    g.fillStyle = COLORS.pole;
    g.fillRect(0, 2, 5, 110);
    g.fillStyle = done ? COLORS.flagDone : COLORS.flag;
    g.strokeStyle = "#1B4D2E"; g.lineWidth = 2;
    g.beginPath(); g.moveTo(5, 4); g.lineTo(42, 20); g.lineTo(5, 36); g.closePath();
    g.fill(); g.stroke();
    textOutlined(g, String(i + 1), 18, 20, "bold 18px sans-serif", "center");
    flagSprites[key] = cv;
    return cv;
  }

  function drawFlags(c, sx) {
    FLAGS.forEach((fx, i) => {
      const x = fx - sx;
      if (x < -60 || x > W + 60) return;
      ctx.drawImage(flagSprite(i, i < c.passed), Math.round(x - 2), 640 - 112);
    });
  }

  function drawSaws(c, sx) {
    for (const s of SAWS) {
      const q = sawPos(s, c.playTicks);
      const x = q.x - sx;
      if (x < -60 || x > W + 60) continue;
      ctx.fillStyle = COLORS.saw; ctx.strokeStyle = COLORS.sawDark; ctx.lineWidth = 3;
      ctx.beginPath();
      const rot = c.playTicks * 0.3;
      for (let k = 0; k < 16; k++) {
        const a = rot + k * Math.PI / 8;
        const rr = k % 2 ? s.r - 6 : s.r;
        ctx.lineTo(x + Math.cos(a) * rr, q.y + Math.sin(a) * rr);
      }
      ctx.closePath(); ctx.fill(); ctx.stroke();
      ctx.fillStyle = "#333"; ctx.beginPath(); ctx.arc(x, q.y, 5, 0, Math.PI * 2); ctx.fill();
    }
  }

  function drawMovers(c, sx) {
    for (const m of MOVERS) {
      const x = Math.round(moverX(m, c.playTicks) - sx);
      if (x < -m.w || x > W) continue;
      ctx.fillStyle = COLORS.mover; ctx.fillRect(x, m.y, m.w, m.h);
      ctx.strokeStyle = COLORS.moverDark; ctx.lineWidth = 2; ctx.strokeRect(x + 1, m.y + 1, m.w - 2, m.h - 2);
      ctx.fillStyle = COLORS.blockTop; ctx.fillRect(x, m.y, m.w, 4);
    }
  }

  function drawRunner(c, sx) {
    const p = c.p;
    const x = Math.round(p.x - sx), y = Math.round(p.y);
    if (c.dead > 0) {
      ctx.globalAlpha = c.dead / RESPAWN_TICKS;
    }
    ctx.fillStyle = COLORS.runner; ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
    if (p.sliding) {
      ctx.fillRect(x - 6, y + 6, RW + 12, SLIDE_H - 8);
      ctx.strokeRect(x - 6, y + 6, RW + 12, SLIDE_H - 8);
      ctx.beginPath(); ctx.arc(x + (p.face >= 0 ? RW + 4 : -4), y + 9, 8, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
      ctx.globalAlpha = 1;
      return;
    }
    const cx = x + RW / 2;
    const phase = p.onGround && p.vx !== 0 ? Math.sin(c.totalTicks * 0.5) * 7 : 3;
    ctx.lineCap = "round";
    for (const [w, col] of [[9, "#fff"], [5, COLORS.runner]]) {
      ctx.strokeStyle = col; ctx.lineWidth = w;
      ctx.beginPath();
      ctx.moveTo(cx, y + 16); ctx.lineTo(cx, y + 30);
      ctx.moveTo(cx, y + 30); ctx.lineTo(cx - phase, y + 42);
      ctx.moveTo(cx, y + 30); ctx.lineTo(cx + phase, y + 42);
      ctx.moveTo(cx, y + 19); ctx.lineTo(cx - 8, y + 27);
      ctx.moveTo(cx, y + 19); ctx.lineTo(cx + 8, y + 27);
      ctx.stroke();
    }
    ctx.fillStyle = COLORS.runner; ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(cx, y + 8, 8, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
    ctx.lineCap = "butt";
    ctx.globalAlpha = 1;
  }

  let hudLayer = null, hctx = null, hudKey = null;
  function drawHud(c) {
    if (!hudLayer) {
      hudLayer = document.createElement("canvas");
      hudLayer.width = W; hudLayer.height = HUD_H;
      hctx = hudLayer.getContext("2d");
    }
    const key = c.passed + "|" + c.deaths;
    if (key !== hudKey) {
      hudKey = key;
      hctx.clearRect(0, 0, W, HUD_H);
      hctx.fillStyle = "rgba(0,0,0,0.55)";
      hctx.fillRect(0, 0, W, HUD_H);
      textOutlined(hctx, "Vex 3", 20, HUD_H / 2, "bold 28px sans-serif", "left");
      textOutlined(hctx, "Act 1", 110, HUD_H / 2 + 1, "20px sans-serif", "left");
      textOutlined(hctx, "Flags " + c.passed + "/" + FLAGS.length, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
      textOutlined(hctx, "Deaths " + c.deaths, W - 20, HUD_H / 2, "20px sans-serif", "right");
    }
    ctx.drawImage(hudLayer, 0, 0);
  }

  function drawPanel(lines) {
    const pw = 600, ph = 40 + lines.length * 46;
    const px = (W - pw) / 2, py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.6)"; ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)"; ctx.lineWidth = 2; ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => textOutlined(ctx, ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function render() {
    if (!core) { ctx.fillStyle = "#111"; ctx.fillRect(0, 0, W, H); return; }
    const c = core;
    if (!levelLayer) paintLevel();
    const sx = Math.round(c.cameraX());
    ctx.drawImage(levelLayer, sx, 0, W, H, 0, 0, W, H);
    drawFlags(c, sx);
    drawMovers(c, sx);
    drawSaws(c, sx);
    drawRunner(c, sx);
    drawHud(c);
    if (c.status === "terminal") {
      drawPanel([
        { text: "ACT COMPLETE", font: "bold 36px sans-serif" },
        { text: "Flags " + c.passed + "/5   Deaths " + c.deaths, font: "bold 28px sans-serif" },
        { text: "Press Enter to play again", font: "20px sans-serif" },
      ]);
    }
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen), and only after ticks
  // ran; a backlog is dropped.
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
  // One hand-made course: the level changes nothing either.
  const ep = Shell.episodes({
    pickLevel: () => 1,
    start() {
      keys.clear();
      core = createCore();
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
        primary_score: c.passed,
        checkpoints_passed: c.passed,
        deaths: c.deaths,
        distance_to_goal: c.distanceToGoal(),
        attempts: ep.attempts,
      },
      raw: { camera_x: c.cameraX(), respawn_ticks_left: c.dead },
    };
  }

  const api = {
    capabilities: {
      supports_seed: false,        // one hand-made course, no randomness at all
      supports_inplace_reset: true,
      supports_level_select: true,
    },
    init: ep.init,
    reset: ep.reset,
    getState() {
      if (!core) return Object.assign(stateOf(createCore()), { status: "loading" });
      return stateOf(core);
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
