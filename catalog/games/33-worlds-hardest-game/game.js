// 33-worlds-hardest-game: five rooms of blue dots to dodge on the way from the
// start zone to the end zone, drawn on one canvas.
//
// Layout of this file:
//   1. constants and the five level designs (tile maps + enemy paths)
//   2. createCore(seed, level): the pure simulation (no DOM, no clock)
//   3. the renderer (static layer cached per level, HUD cached per text)
//   4. the shell: keyboard queue, fixed-tick loop, window.gameAPI
'use strict';

(function () {
  // ---------------------------------------------------------------- constants
  const GAME_ID = '33-worlds-hardest-game';
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TILE = 40;
  const TICK_HZ = 60;
  const TICK_MS = 1000 / TICK_HZ;
  const MAX_TICKS_PER_FRAME = 15;

  const HALF = 14;              // the player is a 28 px square
  const STEP_PX = 150 / TICK_HZ; // 150 px/s on each held axis = 2.5 px a tick
  const ENEMY_R = 9;
  const COIN_R = 9;
  const LAST_LEVEL = 5;
  const ENEMY_CACHE_TICKS = 60 * 240; // enemy positions memoised for 4 min of level time
  const ROUTE_REACH = 40;            // px: a route waypoint counts as passed within this

  // Level maps: one character per 40 px tile.
  //   ' ' outside (solid)   '#' wall (solid)   '.' floor
  //   'S' start zone        'E' end zone       'a' 'b' checkpoint zones
  // Coins and enemy paths are in tile units (x 2.5 = the centre of column 2).
  // Enemy paths: line (back and forth, `phase` = fraction of the round trip
  // already done at time 0), circle (deg/s, start angle), loop (closed
  // polygon, `phase` = fraction of the perimeter). `route` lists waypoints of
  // one good way through; completion_progress follows it.
  const LEVELS = [
    null,
    { // 1: a straight corridor, four dots crossing it vertically
      map: [
        'SSS..........EEE',
        'SSS..........EEE',
        'SSS..........EEE',
        'SSS..........EEE',
        'SSS..........EEE',
        'SSS..........EEE',
      ],
      coins: [],
      enemies: [4.5, 6.5, 8.5, 10.5].map((x, i) => ({
        line: [x, 0.5, x, 5.5], speed: 240, phase: i % 2 ? 0.5 : 0,
      })),
      route: [[1.5, 3], [5, 3], [8, 3], [11, 3], [14.5, 3]],
    },
    { // 2: an open room, six dots sweeping in rows, one coin in the middle
      map: [
        'SS..........EE',
        'SS..........EE',
        'SS..........EE',
        'SS..........EE',
        'SS..........EE',
        'SS..........EE',
        'SS..........EE',
        'SS..........EE',
      ],
      coins: [[7, 4]],
      enemies: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5].map((y, i) => ({
        line: [2.5, y, 11.5, y], speed: 200, phase: i % 2 ? 0.5 : 0,
      })),
      route: [[1, 4], [4, 4], [7, 4], [10, 4], [13, 4]],
    },
    { // 3: a square room with two rings turning in opposite senses
      map: [
        '  .........  ',
        '  .........  ',
        '  .........  ',
        'SS.........EE',
        'SS.........EE',
        'SS.........EE',
        '  .........  ',
        '  .........  ',
        '  .........  ',
      ],
      coins: [[2.5, 8.5], [2.5, 0.5], [10.5, 0.5], [10.5, 8.5]],
      enemies: [0, 90, 180, 270].map((a) => ({ circle: [6.5, 4.5, 2], omega: 90, angle: a }))
        .concat([45, 135, 225, 315].map((a) => ({ circle: [6.5, 4.5, 4], omega: -90, angle: a }))),
      route: [[1, 4.5], [2.5, 8.5], [2.5, 4.5], [2.5, 0.5], [6.5, 0.5], [10.5, 0.5],
        [10.5, 4.5], [10.5, 8.5], [10.5, 4.5], [12, 4.5]],
    },
    { // 4: a U-shaped corridor, one patrol per straight, nooks to hide in
      map: [
        'SSS        EEE',
        'SSS        EEE',
        ' .          . ',
        ' .          . ',
        ' ..         ..',
        ' .          . ',
        ' .         .. ',
        '..          . ',
        ' .  .    .  . ',
        ' ............ ',
        '      aa      ',
      ],
      coins: [[2.5, 4.5], [4.5, 8.5], [11.5, 6.5]],
      enemies: [
        { line: [1.5, 2.5, 1.5, 8.5], speed: 180, phase: 0 },
        { line: [2.5, 9.5, 11.5, 9.5], speed: 180, phase: 0 },
        { line: [12.5, 2.5, 12.5, 8.5], speed: 180, phase: 0.5 },
      ],
      route: [[1.5, 1], [1.5, 4.5], [1.5, 9.5], [4.5, 9.5], [7, 10], [12.5, 9.5],
        [12.5, 6.5], [12.5, 1]],
    },
    { // 5: a room of 5x3 pillars, dots looping around twelve of them
      map: [
        'SS.................EE',
        'SS.................EE',
        'SS..#..#..#..#..#..EE',
        'SS.......aaa.......EE',
        'SS.......aaa.......EE',
        'SS..#..#..#..#..#..EE',
        'SS.................EE',
        'SS.................EE',
        'SS..#..#..#..#..#..EE',
        'SS.................EE',
        'SS.................EE',
      ],
      coins: [[6, 4], [6, 7], [15, 4], [15, 7]],
      enemies: pillarLoops(),
      route: [[1, 5.5], [6, 4], [6, 7], [10.5, 4], [15, 4], [15, 7], [20, 5.5]],
    },
  ];

  // Twelve dots circling the pillars of level 5, all but the middle column;
  // neighbours turn in opposite senses like gears.
  function pillarLoops() {
    const out = [];
    const cols = [4, 7, 13, 16];
    const rows = [2, 5, 8];
    cols.forEach((c, i) => {
      rows.forEach((r, j) => {
        const sq = [[c - 0.5, r - 0.5], [c + 1.5, r - 0.5], [c + 1.5, r + 1.5], [c - 0.5, r + 1.5]];
        const clockwise = (i + j) % 2 === 0;
        out.push({ loop: clockwise ? sq : sq.slice().reverse(), speed: 160, phase: ((i + 2 * j) % 4) / 4 });
      });
    });
    return out;
  }

  // ------------------------------------------------------- compiled levels
  // Everything derived from a level design is built once and shared by every
  // core (and every clone the oracle makes): it is immutable.
  const compiled = [];

  function compileLevel(n) {
    if (compiled[n]) return compiled[n];
    const def = LEVELS[n];
    const rows = def.map.length;
    const cols = def.map[0].length;
    const solid = new Uint8Array(cols * rows);
    const boxes = {};
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const ch = def.map[r][c];
        solid[r * cols + c] = ch === ' ' || ch === '#' ? 1 : 0;
        if (ch !== ' ' && ch !== '#' && ch !== '.') {
          const b = boxes[ch] || (boxes[ch] = { c0: c, r0: r, c1: c, r1: r });
          b.c0 = Math.min(b.c0, c); b.r0 = Math.min(b.r0, r);
          b.c1 = Math.max(b.c1, c); b.r1 = Math.max(b.r1, r);
        }
      }
    }
    const zones = Object.keys(boxes).sort().map((ch) => {
      const b = boxes[ch];
      const kind = ch === 'S' ? 'start' : ch === 'E' ? 'end' : 'checkpoint';
      const x = b.c0 * TILE;
      const y = b.r0 * TILE;
      const w = (b.c1 - b.c0 + 1) * TILE;
      const h = (b.r1 - b.r0 + 1) * TILE;
      return { kind, x, y, w, h, cx: x + w / 2, cy: y + h / 2 };
    });
    const lv = {
      n, cols, rows, solid, zones,
      width: cols * TILE,
      height: rows * TILE,
      startZone: zones.findIndex((z) => z.kind === 'start'),
      coins: def.coins.map(([x, y]) => ({ x: x * TILE, y: y * TILE })),
      enemies: def.enemies.map(compileEnemy),
      route: def.route.map(([x, y]) => ({ x: x * TILE, y: y * TILE })),
      cache: new Float64Array(0),
      cachedTicks: 0,
    };
    compiled[n] = lv;
    return lv;
  }

  function compileEnemy(e) {
    if (e.line) {
      const [x1, y1, x2, y2] = e.line.map((v) => v * TILE);
      const len = Math.hypot(x2 - x1, y2 - y1);
      return { kind: 'line', x1, y1, x2, y2, len, speed: e.speed, phase: e.phase || 0 };
    }
    if (e.circle) {
      const [cx, cy, r] = e.circle.map((v) => v * TILE);
      return { kind: 'circle', cx, cy, r, omega: e.omega, angle: e.angle || 0 };
    }
    const pts = e.loop.map(([x, y]) => ({ x: x * TILE, y: y * TILE }));
    const segs = [];
    let total = 0;
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i];
      const b = pts[(i + 1) % pts.length];
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      segs.push({ a, b, len, start: total });
      total += len;
    }
    return { kind: 'loop', segs, total, speed: e.speed, phase: e.phase || 0 };
  }

  // Position of an enemy at level tick t: a pure function of time, so dots
  // never depend on frame rate or on the player's deaths.
  function enemyAt(e, t, out, k) {
    const sec = t / TICK_HZ;
    let x;
    let y;
    if (e.kind === 'line') {
      const period = 2 * e.len;
      let d = (e.phase * period + e.speed * sec) % period;
      if (d > e.len) d = period - d;
      const f = e.len ? d / e.len : 0;
      x = e.x1 + (e.x2 - e.x1) * f;
      y = e.y1 + (e.y2 - e.y1) * f;
    } else if (e.kind === 'circle') {
      const a = ((e.angle + e.omega * sec) * Math.PI) / 180;
      x = e.cx + e.r * Math.cos(a);
      y = e.cy + e.r * Math.sin(a);
    } else {
      const d = (e.phase * e.total + e.speed * sec) % e.total;
      let s = e.segs[0];
      for (const seg of e.segs) if (d >= seg.start) s = seg;
      const f = (d - s.start) / s.len;
      x = s.a.x + (s.b.x - s.a.x) * f;
      y = s.a.y + (s.b.y - s.a.y) * f;
    }
    out[k] = x;
    out[k + 1] = y;
  }

  // Offset of tick t's enemy positions in lv.cache (x, y per enemy), filling
  // the memo up to t. Beyond the memo the positions go to a scratch array.
  const scratch = new Float64Array(64);
  function enemyPositions(lv, t) {
    const n = lv.enemies.length;
    if (t >= ENEMY_CACHE_TICKS) {
      for (let i = 0; i < n; i++) enemyAt(lv.enemies[i], t, scratch, 2 * i);
      return { arr: scratch, off: 0 };
    }
    if (t >= lv.cachedTicks) {
      const upto = Math.min(ENEMY_CACHE_TICKS, Math.max(t + 1, lv.cachedTicks * 2, 600));
      const next = new Float64Array(upto * n * 2);
      next.set(lv.cache);
      for (let tt = lv.cachedTicks; tt < upto; tt++) {
        for (let i = 0; i < n; i++) enemyAt(lv.enemies[i], tt, next, (tt * n + i) * 2);
      }
      lv.cache = next;
      lv.cachedTicks = upto;
    }
    return { arr: lv.cache, off: t * n * 2 };
  }

  function circleHitsSquare(cx, cy, r, px, py) {
    const dx = Math.max(Math.abs(cx - px) - HALF, 0);
    const dy = Math.max(Math.abs(cy - py) - HALF, 0);
    return dx * dx + dy * dy < r * r;
  }

  function inRect(z, x, y) {
    return x >= z.x && x < z.x + z.w && y >= z.y && y < z.y + z.h;
  }

  // -------------------------------------------------------------------- core
  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.startLevel = level;
    core.playTicks = 0;
    core.totalTicks = 0;
    core.deaths = 0;
    core.score = 0;            // levels completed in this episode
    core.status = 'playing';
    core.outcome = null;
    core.reason = null;
    core.loadLevel(level);
    return core;
  }

  function Core() {}

  Core.prototype.loadLevel = function (n) {
    const lv = compileLevel(n);
    this.level = n;
    this.lv = lv;
    this.levelTicks = 0;
    this.zone = lv.startZone;             // respawn zone
    const z = lv.zones[this.zone];
    this.x = z.cx;
    this.y = z.cy;
    this.taken = lv.coins.map(() => 0);   // 1 = held now
    this.saved = lv.coins.map(() => 0);   // 1 = kept at a safe zone
    this.routeIdx = 0;
    this.routeSaved = 0;
    this.lastDeath = null;                // {x, y, tick} for the renderer
  };

  Core.prototype.solidAt = function (c, r) {
    const lv = this.lv;
    if (c < 0 || r < 0 || c >= lv.cols || r >= lv.rows) return true;
    return lv.solid[r * lv.cols + c] === 1;
  };

  // True when the player's square centred at (x, y) overlaps a solid tile.
  Core.prototype.blocked = function (x, y) {
    const c0 = Math.floor((x - HALF) / TILE);
    const c1 = Math.ceil((x + HALF) / TILE) - 1;
    const r0 = Math.floor((y - HALF) / TILE);
    const r1 = Math.ceil((y + HALF) / TILE) - 1;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) if (this.solidAt(c, r)) return true;
    }
    return false;
  };

  // Move along one axis, stopping flush against a wall.
  Core.prototype.moveAxis = function (dx, dy) {
    const nx = this.x + dx;
    const ny = this.y + dy;
    if (!this.blocked(nx, ny)) {
      this.x = nx;
      this.y = ny;
      return;
    }
    if (dx > 0) this.x = Math.floor((nx + HALF) / TILE) * TILE - HALF;
    else if (dx < 0) this.x = Math.ceil((nx - HALF) / TILE) * TILE + HALF;
    else if (dy > 0) this.y = Math.floor((ny + HALF) / TILE) * TILE - HALF;
    else if (dy < 0) this.y = Math.ceil((ny - HALF) / TILE) * TILE + HALF;
  };

  // input = {dx, dy} in {-1, 0, 1}: the arrows held during this tick.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== 'playing') return;
    this.playTicks++;
    this.levelTicks++;
    const dx = input ? input.dx : 0;
    const dy = input ? input.dy : 0;
    if (dx) this.moveAxis(dx * STEP_PX, 0);
    if (dy) this.moveAxis(0, dy * STEP_PX);
    if (this.hitEnemy()) {
      this.die();
      return;
    }
    this.collect();
    this.advanceRoute();
    this.checkZones();
  };

  Core.prototype.hitEnemy = function () {
    const lv = this.lv;
    const { arr, off } = enemyPositions(lv, this.levelTicks);
    for (let i = 0; i < lv.enemies.length; i++) {
      if (circleHitsSquare(arr[off + 2 * i], arr[off + 2 * i + 1], ENEMY_R, this.x, this.y)) return true;
    }
    return false;
  };

  // Touching a dot: back to the last safe zone, coins taken since then lost.
  Core.prototype.die = function () {
    this.deaths++;
    this.lastDeath = { x: this.x, y: this.y, tick: this.totalTicks };
    const z = this.lv.zones[this.zone];
    this.x = z.cx;
    this.y = z.cy;
    this.taken = this.saved.slice();
    this.routeIdx = this.routeSaved;
  };

  Core.prototype.collect = function () {
    const coins = this.lv.coins;
    for (let i = 0; i < coins.length; i++) {
      if (!this.taken[i] && circleHitsSquare(coins[i].x, coins[i].y, COIN_R, this.x, this.y)) this.taken[i] = 1;
    }
  };

  // The route pointer moves to the furthest of the next three waypoints the
  // player is near, so a short cut past one waypoint still counts.
  Core.prototype.advanceRoute = function () {
    const route = this.lv.route;
    const last = Math.min(route.length - 1, this.routeIdx + 3);
    for (let j = last; j > this.routeIdx; j--) {
      if (Math.abs(route[j].x - this.x) <= ROUTE_REACH && Math.abs(route[j].y - this.y) <= ROUTE_REACH) {
        this.routeIdx = j;
        return;
      }
    }
  };

  Core.prototype.coinsHeld = function () {
    let n = 0;
    for (const v of this.taken) n += v;
    return n;
  };

  // Standing in a safe zone makes it the respawn point and keeps the coins;
  // the end zone with every coin finishes the level.
  Core.prototype.checkZones = function () {
    const zones = this.lv.zones;
    for (let i = 0; i < zones.length; i++) {
      if (!inRect(zones[i], this.x, this.y)) continue;
      this.zone = i;
      this.saved = this.taken.slice();
      this.routeSaved = this.routeIdx;
      if (zones[i].kind === 'end' && this.coinsHeld() === this.taken.length) this.finishLevel();
      return;
    }
  };

  Core.prototype.finishLevel = function () {
    this.score++;
    if (this.level >= LAST_LEVEL) {
      this.level = LAST_LEVEL + 1;   // the counter the tasks read: 6 = all five done
      this.routeIdx = this.lv.route.length - 1;
      this.status = 'terminal';
      this.outcome = 'success';
      this.reason = 'game_complete';
      return;
    }
    this.loadLevel(this.level + 1);
  };

  Core.prototype.progress = function () {
    if (this.status === 'terminal') return 1;
    const n = this.lv.route.length - 1;
    return n > 0 ? this.routeIdx / n : 0;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.taken = this.taken.slice();
    c.saved = this.saved.slice();
    return c;
  };

  // Enemies, nearest first, capped at 30 (docs/games.md 1.7).
  Core.prototype.enemyList = function () {
    const lv = this.lv;
    const { arr, off } = enemyPositions(lv, this.levelTicks);
    const out = [];
    for (let i = 0; i < lv.enemies.length; i++) {
      out.push({ x: arr[off + 2 * i], y: arr[off + 2 * i + 1], r: ENEMY_R });
    }
    out.sort((a, b) => Math.hypot(a.x - this.x, a.y - this.y) - Math.hypot(b.x - this.x, b.y - this.y));
    return out.slice(0, 30);
  };

  Core.prototype.snapshot = function () {
    const lv = this.lv;
    const held = this.coinsHeld();
    const terminal = this.status === 'terminal';
    return {
      gameTimeMs: Math.round((this.playTicks * 1000) / TICK_HZ),
      status: this.status,
      terminal: { isTerminal: terminal, outcome: this.outcome, reason: this.reason },
      game_state: {
        level: this.level,
        score: this.score,
        coins_collected: held,
        coins_total: lv.coins.length,
        completion_progress: this.progress(),
        player: { x: this.x, y: this.y, size: 2 * HALF, alive: true },
        enemies: this.enemyList(),
        coins: lv.coins.map((c, i) => ({ x: c.x, y: c.y, collected: this.taken[i] === 1 })),
        zones: lv.zones.map((z) => ({ kind: z.kind, x: z.x, y: z.y, w: z.w, h: z.h })),
      },
      metrics: {
        primary_score: this.score,
        coins: held,
        deaths: this.deaths,
        level_time_s: Math.round(this.levelTicks / TICK_HZ * 100) / 100,
      },
      raw: {
        level_ticks: this.levelTicks,
        respawn_zone: this.zone,
        coins_saved: this.saved.reduce((a, b) => a + b, 0),
        route_index: this.routeIdx,
      },
    };
  };

  // ---------------------------------------------------------------- renderer
  const COLORS = {
    background: '#9A9AB8',
    wall: '#1C1C2B',
    floorA: '#E6E2FF',
    floorB: '#F8F8FF',
    zone: '#B4F7B0',
    zoneEdge: '#5FB35A',
    player: '#E8231B',
    playerEdge: '#3A0000',
    enemy: '#1F3BFF',
    enemyEdge: '#050A40',
    coin: '#FFD21F',
    coinEdge: '#6B5200',
  };

  const WALL_RIM = 6;   // px of dark wall drawn around the walkable tiles
  const canvas = document.getElementById('game');
  const ctx = canvas.getContext('2d');

  function levelOrigin(lv) {
    return {
      x: Math.round((W - lv.width) / 2),
      y: HUD_H + Math.round((H - HUD_H - lv.height) / 2),
    };
  }

  // Static layer per level: background, thick walls, checkerboard, zones.
  const staticLayers = [];
  function staticLayer(lv) {
    if (staticLayers[lv.n]) return staticLayers[lv.n];
    const layer = document.createElement('canvas');
    layer.width = W;
    layer.height = H;
    const g = layer.getContext('2d');
    const o = levelOrigin(lv);
    g.fillStyle = COLORS.background;
    g.fillRect(0, 0, W, H);
    const open = [];
    for (let r = 0; r < lv.rows; r++) {
      for (let c = 0; c < lv.cols; c++) if (!lv.solid[r * lv.cols + c]) open.push([c, r]);
    }
    // Walls: every open tile grown by the rim in dark, then the floor on top.
    g.fillStyle = COLORS.wall;
    for (const [c, r] of open) {
      g.fillRect(o.x + c * TILE - WALL_RIM, o.y + r * TILE - WALL_RIM, TILE + 2 * WALL_RIM, TILE + 2 * WALL_RIM);
    }
    for (const [c, r] of open) {
      g.fillStyle = (c + r) % 2 ? COLORS.floorA : COLORS.floorB;
      g.fillRect(o.x + c * TILE, o.y + r * TILE, TILE, TILE);
    }
    for (const z of lv.zones) {
      g.fillStyle = COLORS.zone;
      for (const [c, r] of open) {
        if (inRect(z, c * TILE + 1, r * TILE + 1)) g.fillRect(o.x + c * TILE, o.y + r * TILE, TILE, TILE);
      }
      g.font = 'bold 18px sans-serif';
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillStyle = COLORS.zoneEdge;
      const label = z.kind === 'start' ? 'START' : z.kind === 'end' ? 'END' : 'SAVE';
      if (z.w >= 80 || z.h >= 80) {
        g.save();
        g.translate(o.x + z.cx, o.y + z.cy);
        if (z.h > z.w) g.rotate(-Math.PI / 2);
        g.fillText(label, 0, 0);
        g.restore();
      }
    }
    // Pillars and inner walls ('#') drawn as solid dark blocks.
    g.fillStyle = COLORS.wall;
    const def = LEVELS[lv.n];
    for (let r = 0; r < lv.rows; r++) {
      for (let c = 0; c < lv.cols; c++) {
        if (def.map[r][c] === '#') g.fillRect(o.x + c * TILE, o.y + r * TILE, TILE, TILE);
      }
    }
    staticLayers[lv.n] = layer;
    return layer;
  }

  function outlinedText(g, text, x, y, font, align) {
    g.font = font;
    g.textAlign = align;
    g.textBaseline = 'middle';
    g.lineJoin = 'round';
    g.lineWidth = 3;
    g.strokeStyle = '#000';
    g.strokeText(text, x, y);
    g.fillStyle = '#FFF';
    g.fillText(text, x, y);
  }

  // The HUD changes a few times a level: drawn into its own canvas only when
  // its text changes, and copied to the screen only then or on a full redraw
  // (the strip is translucent, so it must go over fresh background).
  const hudLayer = document.createElement('canvas');
  hudLayer.width = W;
  hudLayer.height = HUD_H;
  let hudKey = '';
  function drawHud(core, full) {
    const held = core.coinsHeld();
    const total = core.taken.length;
    const done = core.status === 'terminal';
    const key = [core.level, held, total, core.deaths, done].join(' ');
    const changed = key !== hudKey;
    if (changed) {
      hudKey = key;
      const g = hudLayer.getContext('2d');
      g.clearRect(0, 0, W, HUD_H);
      g.fillStyle = 'rgba(0,0,0,0.55)';
      g.fillRect(0, 0, W, HUD_H);
      outlinedText(g, "World's Hardest Game", 20, HUD_H / 2, 'bold 24px sans-serif', 'left');
      const centre = done ? `Level ${core.level} \u2013 all 5 cleared` : `Level ${core.level} of ${LAST_LEVEL}`;
      outlinedText(g, centre, W / 2 - 40, HUD_H / 2, 'bold 28px sans-serif', 'center');
      const coins = total ? `Coins ${held}/${total}` : 'No coins';
      outlinedText(g, coins, W / 2 + 170, HUD_H / 2, '22px sans-serif', 'left');
      outlinedText(g, `Deaths ${core.deaths}`, W - 20, HUD_H / 2, 'bold 24px sans-serif', 'right');
    }
    if (!full && !changed) return;
    if (!full) ctx.drawImage(staticLayer(core.lv), 0, 0, W, HUD_H, 0, 0, W, HUD_H);
    ctx.drawImage(hudLayer, 0, 0);
  }

  function drawDot(x, y, r, fill, edge) {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.lineWidth = 3;
    ctx.strokeStyle = edge;
    ctx.stroke();
  }

  // Between full redraws only the room (plus its wall rim) is repainted:
  // nothing outside it moves.
  function drawWorld(core, full) {
    const lv = core.lv;
    const o = levelOrigin(lv);
    if (full) {
      ctx.drawImage(staticLayer(lv), 0, 0);
    } else {
      const x = o.x - WALL_RIM;
      const y = o.y - WALL_RIM;
      const w = lv.width + 2 * WALL_RIM;
      const h = lv.height + 2 * WALL_RIM;
      ctx.drawImage(staticLayer(lv), x, y, w, h, x, y, w, h);
    }
    lv.coins.forEach((c, i) => {
      if (!core.taken[i]) drawDot(o.x + c.x, o.y + c.y, COIN_R - 1, COLORS.coin, COLORS.coinEdge);
    });
    // A fading red outline marks where the player was just hit (0.5 s).
    const ld = core.lastDeath;
    if (ld && core.totalTicks - ld.tick < 30) {
      ctx.globalAlpha = 1 - (core.totalTicks - ld.tick) / 30;
      ctx.strokeStyle = COLORS.player;
      ctx.lineWidth = 3;
      ctx.strokeRect(o.x + ld.x - HALF, o.y + ld.y - HALF, 2 * HALF, 2 * HALF);
      ctx.globalAlpha = 1;
    }
    ctx.fillStyle = COLORS.player;
    ctx.fillRect(o.x + core.x - HALF, o.y + core.y - HALF, 2 * HALF, 2 * HALF);
    ctx.lineWidth = 3;
    ctx.strokeStyle = COLORS.playerEdge;
    ctx.strokeRect(o.x + core.x - HALF + 1.5, o.y + core.y - HALF + 1.5, 2 * HALF - 3, 2 * HALF - 3);
    const { arr, off } = enemyPositions(lv, core.levelTicks);
    for (let i = 0; i < lv.enemies.length; i++) {
      drawDot(o.x + arr[off + 2 * i], o.y + arr[off + 2 * i + 1], ENEMY_R - 1.5, COLORS.enemy, COLORS.enemyEdge);
    }
  }

  function drawTerminal(core) {
    ctx.fillStyle = 'rgba(10, 10, 30, 0.72)';
    ctx.fillRect(340, 280, 600, 170);
    outlinedText(ctx, 'LEVEL COMPLETE \u2013 all five levels', W / 2, 330, 'bold 34px sans-serif', 'center');
    outlinedText(ctx, `Deaths ${core.deaths}`, W / 2, 380, 'bold 28px sans-serif', 'center');
    if (!window.__GW_HARNESS__) outlinedText(ctx, 'Press Enter to play again', W / 2, 420, '20px sans-serif', 'center');
  }

  function render(core) {
    if (!core) {
      ctx.fillStyle = COLORS.background;
      ctx.fillRect(0, 0, W, H);
      return;
    }
    // A new episode or level repaints everything; otherwise only what moves.
    const fk = `${ep.attempts} ${core.lv.n}`;
    const full = fk !== fullKey;
    fullKey = fk;
    drawWorld(core, full);
    drawHud(core, full);
    if (core.status === 'terminal') drawTerminal(core);
  }
  let fullKey = '';

  // ------------------------------------------------------------------- shell
  const Shell = window.GameShell;
  let core = null;
  const keys = Shell.keyboard({
    keys: ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Enter'],
    // Humans restart from the final panel; the harness resets by API.
    onDown(key) {
      if (key !== 'Enter' || !core || core.status !== 'terminal') return false;
      gameAPI.reset({});
      return true;
    },
  });

  // Drain the queue: a key pressed and released between two ticks still
  // counts as held for one tick.
  function takeInput() {
    const { downs, down } = keys.take();
    const on = (k) => down.has(k) || downs.has(k);
    return {
      dx: (on('ArrowRight') ? 1 : 0) - (on('ArrowLeft') ? 1 : 0),
      dy: (on('ArrowDown') ? 1 : 0) - (on('ArrowUp') ? 1 : 0),
    };
  }

  // The single game loop: started once at load, never restarted by reset.
  // A timer chain rather than requestAnimationFrame (as in 19-minesweeper):
  // ticks sit on the grid loopStart + k/60 s of the virtual clock, so every
  // 0.2 s action holds its arrow for exactly 12 ticks and every 0.5 s wait
  // lasts exactly 30, which is what the oracle plans with.
  let loopStart = 0;
  let loopTicks = 0;
  let drawnKey = '';
  function loop() {
    const due = Math.floor((Date.now() - loopStart) / TICK_MS + 1e-6);
    let n = 0;
    while (loopTicks < due && n < MAX_TICKS_PER_FRAME) {
      const input = takeInput();
      if (core) core.tick(input);
      loopTicks++;
      n++;
    }
    if (loopTicks < due) loopTicks = due; // drop time lost to a stall
    const key = viewKey();
    if (key !== drawnKey) render(core);
    drawnKey = key;
    const nextAt = loopStart + (loopTicks + 1) * TICK_MS;
    setTimeout(loop, Math.max(0, nextAt - Date.now()));
  }

  // Dots move every tick while playing; a finished game is a still picture.
  function viewKey() {
    if (!core) return 'none';
    if (core.status !== 'playing') return `${ep.attempts} ${core.status}`;
    return `${ep.attempts} ${core.totalTicks}`;
  }

  function pickLevel(level) {
    const n = Number(level ?? 1);
    if (!Number.isInteger(n) || n < 1 || n > LAST_LEVEL) {
      console.warn(`${GAME_ID} has levels 1-${LAST_LEVEL}; got ${level}, playing level 1`);
      return 1;
    }
    return n;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render(core);
      drawnKey = viewKey();
    },
  });

  function loadingState() {
    return {
      gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: 0, status: 'loading',
      terminal: { isTerminal: false, outcome: null, reason: null },
      game_state: {
        level: ep.level, score: 0, coins_collected: 0, coins_total: 0, completion_progress: 0,
        player: { x: 0, y: 0, size: 2 * HALF, alive: true }, enemies: [], coins: [], zones: [],
      },
      metrics: { primary_score: 0, coins: 0, deaths: 0, level_time_s: 0, attempts: 0 },
      raw: {},
    };
  }

  const gameAPI = {
    // Fixed hand-made levels and dots that are pure functions of time: the
    // seed changes nothing.
    capabilities: {
      supports_seed: false,
      supports_inplace_reset: true,
      supports_level_select: true,
    },
    init: ep.init,
    reset: ep.reset,
    getState() {
      if (!core) return loadingState();
      const snap = core.snapshot();
      snap.metrics.attempts = ep.attempts;
      return Object.assign({ gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now() }, snap);
    },
  };

  // Humans: fit the 16:9 canvas to the window; the backing store stays 1280x720.
  function fitCanvas() {
    const scale = Math.min(window.innerWidth / W, window.innerHeight / H) || 1;
    canvas.style.width = Math.round(W * scale) + 'px';
    canvas.style.height = Math.round(H * scale) + 'px';
  }
  if (!window.__GW_HARNESS__) {
    window.addEventListener('resize', fitCanvas);
    fitCanvas();
  }

  window.gameAPI = gameAPI;
  // Private handle for oracle.js only: the live core plus the factory, so
  // the oracle can clone the episode and simulate ahead.
  Object.defineProperty(window, '__gwCore', {
    get: () => core,
    configurable: true,
  });

  render(core);
  loopStart = Date.now();
  setTimeout(loop, TICK_MS);
  if (!window.__GW_HARNESS__) gameAPI.init({ seed: 42, level: 1 });
})();
