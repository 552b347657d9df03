// Wolfenstein 3D for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) on a 16x16 cell map, a ray-casting
// renderer (320 DDA columns of 4 px, z-buffered billboards, cached floor/ceiling
// and status bar), a keyboard queue, one requestAnimationFrame loop with fixed
// 1/60 s ticks, and window.gameAPI. The oracle reads the core through
// window.__gwCore; nothing else is exposed.
//
// World units are cells (1 cell = one map square). Angles are degrees, 0 = east,
// growing clockwise because the map's y axis points south; so a positive relative
// angle means "to the right".
(function () {
  "use strict";

  const GAME_ID = "31-wolf3d";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 31)
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const VIEW_Y = 56;              // the 3D view spans y 56-640
  const VIEW_H = 584;
  const BAR_Y = VIEW_Y + VIEW_H;  // status bar y 640-720
  const HORIZON = VIEW_Y + VIEW_H / 2;
  const COLS = 320;
  const COL_W = W / COLS;         // 4 px per ray column
  const TICK_HZ = 60;

  const FOV_DEG = 66;
  const PLANE = Math.tan((FOV_DEG / 2) * Math.PI / 180);  // camera plane half-width at depth 1
  const PROJ = W / 2 / PLANE;     // px per cell at depth 1, the same across and up (square cells)
  const MOVE_PER_TICK = 3 / TICK_HZ;       // 3 cells/s
  const TURN_PER_TICK = 60 / TICK_HZ;      // 60 deg/s: exactly 1 degree per tick
  const PLAYER_R = 0.25;
  const GUARD_R = 0.3;

  const DOOR_REACH = 1.2;
  const DOOR_FACING_DEG = 45;
  const DOOR_OPEN_TICKS = 60;              // slides open over 1 s

  const SHOT_COOLDOWN_TICKS = 21;          // 0.35 s
  const AIM_CONE_DEG = 7;
  const SHOT_RANGE = 10;
  const ONE_SHOT_RANGE = 3;
  const START_AMMO = 8;
  const CLIP_AMMO = 4;
  const CLIP_PICKUP_R = 0.5;

  const GUARD_HP = 2;
  const GUARD_STEP = 1 / TICK_HZ;          // 1 cell/s
  const GUARD_STOP = 3;                    // alert guards close in to 3 cells
  const SIGHT_RANGE = 5;
  const HEARING_RANGE = 6;
  const GUARD_FIRST_SHOT_TICKS = 60;       // 1.0 s after alerting
  const GUARD_SHOT_TICKS = 90;             // then every 1.5 s
  const GUARD_RETRY_TICKS = 15;            // no line of sight when due: look again in 0.25 s
  const GUARD_NEAR = 4;
  const GUARD_HIT_NEAR = 0.5;
  const GUARD_HIT_FAR = 0.3;
  const GUARD_DAMAGE = 10;
  const MAX_HEALTH = 100;
  const START_LIVES = 3;
  const GUARD_COUNT = 6;

  const FLASH_TICKS = 6;                   // pistol muzzle flash (render only)
  const GUARD_FIRE_SHOW_TICKS = 6;
  const HURT_SHOW_TICKS = 6;

  // Map legend: 1 blue stone, 2 brown wood, D door (teal), . floor.
  const MAP = [
    "1111111122222222",
    "1.....112......2",
    "1.....112......2",
    "1.......D......2",
    "1.....112......2",
    "1.....112......2",
    "1.....112......2",
    "11111111222D2222",
    "1111...........1",
    "1111...........1",
    "1111...........1",
    "1111...........1",
    "1111...........1",
    "1111...........1",
    "1111...........1",
    "1111111111111111",
  ];
  const MAP_W = 16;
  const MAP_H = 16;
  const T_FLOOR = 0;
  const T_STONE = 1;
  const T_WOOD = 2;
  const T_DOOR = 3;
  const TILES = new Uint8Array(MAP_W * MAP_H);
  for (let y = 0; y < MAP_H; y++) {
    for (let x = 0; x < MAP_W; x++) {
      const ch = MAP[y][x];
      TILES[y * MAP_W + x] = ch === "1" ? T_STONE : ch === "2" ? T_WOOD : ch === "D" ? T_DOOR : T_FLOOR;
    }
  }

  // Rooms as cell rectangles [x0, y0, x1, y1] inclusive; the corridor belongs to A.
  const ROOMS = [
    { id: "A", rect: [1, 1, 7, 6] },
    { id: "B", rect: [9, 1, 14, 6] },
    { id: "C", rect: [4, 8, 14, 14] },
  ];
  function roomAt(x, y) {
    const cx = Math.floor(x);
    const cy = Math.floor(y);
    for (const r of ROOMS) {
      const [x0, y0, x1, y1] = r.rect;
      if (cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1) return r.id;
    }
    return null;                  // inside a doorway
  }

  // South-west corner, facing north along the west wall. Room A's posts lie
  // about 20 to 45 degrees to the right of that view (the nearer ones on the
  // right of the screen), all outside the 7 degree aim cone: a player who only
  // fires hits nobody and has to turn to face a guard first. (Facing north-east,
  // the start used to aim straight at the two eastern posts.)
  const START = { x: 1.5, y: 6.5, angle: 270 };
  // Guard posts per room; the level stream picks two per room and jitters them,
  // so every seed has its own layout. Room A's posts are all more than 5 cells
  // from the start, so nobody notices a player who does nothing.
  const POSTS = {
    A: [[3.5, 1.5], [4.5, 1.5], [5.5, 1.5], [5.5, 2.5]],
    B: [[11.5, 1.5], [13.5, 1.5], [13.5, 3.5], [11.5, 3.5], [10.5, 5.5], [12.5, 5.5], [13.5, 5.5]],
    C: [[7.5, 9.5], [8.5, 12.5], [9.5, 10.5], [10.5, 12.5], [12.5, 13.5], [13.5, 10.5], [13.5, 12.5]],
  };
  const POST_JITTER = 0.15;

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------

  // FNV-1a over the parts joined by "|" and mulberry32 on {s} (catalog/games/_shell): stable across hosts.
  const { fnv32: hash32, nextRandom: rngNext } = window.GameShell;

  // ---------------------------------------------------------------------------
  // Geometry helpers (pure, shared by core, renderer and oracle)
  // ---------------------------------------------------------------------------
  const DEG = Math.PI / 180;

  function normDeg(a) {             // (-180, 180]
    a = a % 360;
    if (a <= -180) a += 360;
    if (a > 180) a -= 360;
    return a;
  }

  function tileAt(cx, cy) {
    if (cx < 0 || cy < 0 || cx >= MAP_W || cy >= MAP_H) return T_STONE;
    return TILES[cy * MAP_W + cx];
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function Core() {}

  function createCore(seed, level) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the level stream places the guards, the
    // runtime stream decides the guards' hits.
    const levelRng = { s: hash32(GAME_ID, seed, level) };
    core.runRng = { s: hash32(GAME_ID, seed, level, "runtime") };
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.px = START.x;
    core.py = START.y;
    core.angle = START.angle;      // integer degrees in [0, 360)
    core.health = MAX_HEALTH;
    core.lives = START_LIVES;
    core.ammo = START_AMMO;
    core.kills = 0;
    core.deaths = 0;
    core.shots = 0;
    core.hits = 0;
    core.cooldown = 0;
    core.pendingShot = false;
    core.flash = 0;
    core.hurt = 0;
    core.doors = [];
    for (let y = 0; y < MAP_H; y++) {
      for (let x = 0; x < MAP_W; x++) {
        if (TILES[y * MAP_W + x] !== T_DOOR) continue;
        // A door between walls to its north and south is crossed east-west, so
        // its slab is the plane x = const (axis "x"); otherwise y = const.
        const axis = tileAt(x, y - 1) !== T_FLOOR && tileAt(x, y + 1) !== T_FLOOR ? "x" : "y";
        core.doors.push({ cx: x, cy: y, axis: axis, openTicks: 0, opening: false });
      }
    }
    core.guards = [];
    for (const room of ROOMS) {
      const posts = POSTS[room.id].slice();
      for (let k = 0; k < 2; k++) {
        const i = Math.floor(rngNext(levelRng) * posts.length);
        const [x, y] = posts.splice(i, 1)[0];
        const hx = x + (rngNext(levelRng) * 2 - 1) * POST_JITTER;
        const hy = y + (rngNext(levelRng) * 2 - 1) * POST_JITTER;
        core.guards.push({
          id: core.guards.length, room: room.id, homeX: hx, homeY: hy, x: hx, y: hy,
          state: "idle", hp: GUARD_HP, fireTimer: 0, firing: 0, hurt: 0,
        });
      }
    }
    core.clips = [];
    core.field = null;              // BFS distances to the player, per tick
    return core;
  }

  Core.prototype.mapW = MAP_W;

  Core.prototype.doorAt = function (cx, cy) {
    for (const d of this.doors) if (d.cx === cx && d.cy === cy) return d;
    return null;
  };

  // 0 = closed, 1 = fully open.
  Core.prototype.doorOpen = function (cx, cy) {
    const d = this.doorAt(cx, cy);
    return d ? d.openTicks / DOOR_OPEN_TICKS : 1;
  };

  // Walls block; a door blocks until it is fully open.
  Core.prototype.solid = function (cx, cy) {
    const t = tileAt(cx, cy);
    if (t === T_FLOOR) return false;
    if (t === T_DOOR) return this.doorOpen(cx, cy) < 1;
    return true;
  };

  // Is a circle of radius r at (x, y) free of solid cells?
  Core.prototype.fits = function (x, y, r) {
    const x0 = Math.floor(x - r), x1 = Math.floor(x + r);
    const y0 = Math.floor(y - r), y1 = Math.floor(y + r);
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        if (this.solid(cx, cy)) return false;
      }
    }
    return true;
  };

  // Line of sight between two points: no wall and no door that is not fully open.
  Core.prototype.clearLine = function (x0, y0, x1, y1) {
    let cx = Math.floor(x0), cy = Math.floor(y0);
    const ex = Math.floor(x1), ey = Math.floor(y1);
    const dx = x1 - x0, dy = y1 - y0;
    const stepX = dx > 0 ? 1 : -1, stepY = dy > 0 ? 1 : -1;
    const tdx = dx !== 0 ? Math.abs(1 / dx) : Infinity;
    const tdy = dy !== 0 ? Math.abs(1 / dy) : Infinity;
    let tx = dx !== 0 ? (dx > 0 ? cx + 1 - x0 : x0 - cx) * tdx : Infinity;
    let ty = dy !== 0 ? (dy > 0 ? cy + 1 - y0 : y0 - cy) * tdy : Infinity;
    for (let n = 0; n < 64 && (cx !== ex || cy !== ey); n++) {
      if (tx < ty) { cx += stepX; tx += tdx; } else { cy += stepY; ty += tdy; }
      if (this.solid(cx, cy)) return false;
    }
    return true;
  };

  // Breadth-first distances (in cells) from a cell; closed doors pass only when
  // throughDoors (the oracle can open them, guards cannot).
  Core.prototype.distances = function (sx, sy, throughDoors) {
    const dist = new Int16Array(MAP_W * MAP_H).fill(-1);
    const queue = [sy * MAP_W + sx];
    dist[queue[0]] = 0;
    for (let qi = 0; qi < queue.length; qi++) {
      const c = queue[qi];
      const x = c % MAP_W, y = (c - x) / MAP_W;
      for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
        const t = tileAt(nx, ny);
        if (t === T_STONE || t === T_WOOD) continue;
        if (t === T_DOOR && !throughDoors && this.solid(nx, ny)) continue;
        const n = ny * MAP_W + nx;
        if (dist[n] >= 0) continue;
        dist[n] = dist[c] + 1;
        queue.push(n);
      }
    }
    return dist;
  };

  Core.prototype.living = function () {
    return this.guards.filter((g) => g.state !== "dead");
  };

  Core.prototype.relAngle = function (x, y) {
    return normDeg(Math.atan2(y - this.py, x - this.px) / DEG - this.angle);
  };

  // input = {forward, backward, left, right: held; shoot, use: pressed edges}
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status !== "playing") return;
    input = input || {};
    this.playTicks++;
    this.field = null;
    if (this.flash > 0) this.flash--;
    if (this.hurt > 0) this.hurt--;
    this.turnAndMove(input);
    if (input.use) this.tryOpenDoor();
    for (const d of this.doors) {
      if (d.opening && d.openTicks < DOOR_OPEN_TICKS) d.openTicks++;
    }
    this.updatePistol(!!input.shoot);
    this.pickUpClips();
    for (const g of this.guards) this.updateGuard(g);
    if (this.health <= 0) this.loseLife();
    if (this.kills >= GUARD_COUNT) this.finish("success", "all_guards_down");
  };

  Core.prototype.turnAndMove = function (input) {
    if (input.left) this.angle = (this.angle + 360 - TURN_PER_TICK) % 360;
    if (input.right) this.angle = (this.angle + TURN_PER_TICK) % 360;
    const dir = (input.forward ? 1 : 0) - (input.backward ? 1 : 0);
    if (!dir) return;
    const mx = Math.cos(this.angle * DEG) * MOVE_PER_TICK * dir;
    const my = Math.sin(this.angle * DEG) * MOVE_PER_TICK * dir;
    // Axis by axis, so the player slides along walls.
    if (this.playerFits(this.px + mx, this.py)) this.px += mx;
    if (this.playerFits(this.px, this.py + my)) this.py += my;
  };

  Core.prototype.playerFits = function (x, y) {
    if (!this.fits(x, y, PLAYER_R)) return false;
    const reach = PLAYER_R + GUARD_R;
    for (const g of this.guards) {
      if (g.state === "dead") continue;
      const dx = g.x - x, dy = g.y - y;
      // Allow moving away from a guard one already overlaps (after a respawn).
      if (dx * dx + dy * dy < reach * reach &&
          dx * dx + dy * dy < (g.x - this.px) ** 2 + (g.y - this.py) ** 2) return false;
    }
    return true;
  };

  // Nearest closed door within reach whose centre lies within +-45 degrees of the view.
  Core.prototype.doorInReach = function () {
    let best = null, bestD = Infinity;
    for (const d of this.doors) {
      if (d.opening) continue;
      const dx = d.cx + 0.5 - this.px, dy = d.cy + 0.5 - this.py;
      const dist = Math.hypot(dx, dy);
      if (dist > DOOR_REACH || dist >= bestD) continue;
      if (Math.abs(this.relAngle(d.cx + 0.5, d.cy + 0.5)) > DOOR_FACING_DEG) continue;
      best = d;
      bestD = dist;
    }
    return best;
  };

  Core.prototype.tryOpenDoor = function () {
    const d = this.doorInReach();
    if (d) d.opening = true;
  };

  Core.prototype.updatePistol = function (pressed) {
    if (this.cooldown > 0) this.cooldown--;
    if (pressed) {
      if (this.cooldown === 0) this.fire();
      else this.pendingShot = true;     // fires when the pistol is ready
    } else if (this.pendingShot && this.cooldown === 0) {
      this.fire();
    }
  };

  // The guard a shot would hit now: nearest living one within the aim cone,
  // in range and in line of sight. Exposed for the oracle.
  Core.prototype.aimTarget = function () {
    let best = null, bestD = Infinity;
    for (const g of this.guards) {
      if (g.state === "dead") continue;
      const d = Math.hypot(g.x - this.px, g.y - this.py);
      if (d > SHOT_RANGE || d >= bestD) continue;
      if (Math.abs(this.relAngle(g.x, g.y)) > AIM_CONE_DEG) continue;
      if (!this.clearLine(this.px, this.py, g.x, g.y)) continue;
      best = g;
      bestD = d;
    }
    return best;
  };

  Core.prototype.fire = function () {
    this.pendingShot = false;
    if (this.ammo <= 0) return;
    this.ammo--;
    this.shots++;
    this.cooldown = SHOT_COOLDOWN_TICKS;
    this.flash = FLASH_TICKS;
    const target = this.aimTarget();
    // The shot is heard by idle guards of the shooter's room within 6 cells.
    const room = roomAt(this.px, this.py);
    for (const g of this.guards) {
      if (g.state !== "idle") continue;
      if (g.room === room && Math.hypot(g.x - this.px, g.y - this.py) <= HEARING_RANGE) this.alert(g);
    }
    if (!target) return;
    this.hits++;
    const dist = Math.hypot(target.x - this.px, target.y - this.py);
    target.hp -= dist <= ONE_SHOT_RANGE ? GUARD_HP : 1;
    target.hurt = HURT_SHOW_TICKS;
    if (target.hp <= 0) {
      target.hp = 0;
      target.state = "dead";
      this.kills++;
      this.clips.push({ x: target.x, y: target.y, taken: false });
    } else {
      this.alert(target);
    }
  };

  Core.prototype.alert = function (g) {
    if (g.state !== "idle") return;
    g.state = "alert";
    g.fireTimer = GUARD_FIRST_SHOT_TICKS;
  };

  Core.prototype.pickUpClips = function () {
    for (const c of this.clips) {
      if (c.taken) continue;
      if (Math.hypot(c.x - this.px, c.y - this.py) <= CLIP_PICKUP_R) {
        c.taken = true;
        this.ammo += CLIP_AMMO;
      }
    }
  };

  Core.prototype.updateGuard = function (g) {
    if (g.firing > 0) g.firing--;
    if (g.hurt > 0) g.hurt--;
    if (g.state === "dead") return;
    const dist = Math.hypot(this.px - g.x, this.py - g.y);
    if (g.state === "idle") {
      if (dist <= SIGHT_RANGE && this.clearLine(g.x, g.y, this.px, this.py)) this.alert(g);
      return;
    }
    const sees = this.clearLine(g.x, g.y, this.px, this.py);
    if (dist > GUARD_STOP) this.walkGuard(g, sees);
    if (--g.fireTimer > 0) return;
    if (!sees) {
      g.fireTimer = GUARD_RETRY_TICKS;
      return;
    }
    g.fireTimer = GUARD_SHOT_TICKS;
    g.firing = GUARD_FIRE_SHOW_TICKS;
    const p = dist <= GUARD_NEAR ? GUARD_HIT_NEAR : GUARD_HIT_FAR;
    if (rngNext(this.runRng) < p) {
      this.health = Math.max(0, this.health - GUARD_DAMAGE);
      this.hurt = HURT_SHOW_TICKS;
    }
  };

  // Straight at the player when in sight, else one cell along the BFS field.
  Core.prototype.walkGuard = function (g, sees) {
    let tx = this.px, ty = this.py;
    if (!sees) {
      if (!this.field) this.field = this.distances(Math.floor(this.px), Math.floor(this.py), false);
      const gx = Math.floor(g.x), gy = Math.floor(g.y);
      let best = this.field[gy * MAP_W + gx];
      if (best < 0) return;                       // behind a closed door: stay
      for (const [nx, ny] of [[gx + 1, gy], [gx - 1, gy], [gx, gy + 1], [gx, gy - 1]]) {
        const d = this.field[ny * MAP_W + nx];
        if (d >= 0 && d < best) { best = d; tx = nx + 0.5; ty = ny + 0.5; }
      }
    }
    const dx = tx - g.x, dy = ty - g.y;
    const len = Math.hypot(dx, dy);
    if (len < 1e-6) return;
    const mx = dx / len * GUARD_STEP, my = dy / len * GUARD_STEP;
    if (this.fits(g.x + mx, g.y, GUARD_R)) g.x += mx;
    if (this.fits(g.x, g.y + my, GUARD_R)) g.y += my;
  };

  Core.prototype.loseLife = function () {
    this.deaths++;
    this.lives--;
    if (this.lives <= 0) {
      this.lives = 0;
      this.health = 0;
      this.finish("fail", "out_of_lives");
      return;
    }
    // Back to the start; the guards still standing return to their posts.
    this.health = MAX_HEALTH;
    this.ammo = Math.max(this.ammo, START_AMMO);
    this.px = START.x;
    this.py = START.y;
    this.angle = START.angle;
    this.cooldown = 0;
    this.pendingShot = false;
    for (const g of this.guards) {
      if (g.state === "dead") continue;
      g.state = "idle";
      g.x = g.homeX;
      g.y = g.homeY;
      g.hp = GUARD_HP;
      g.fireTimer = 0;
    }
  };

  Core.prototype.finish = function (outcome, reason) {
    this.status = "terminal";
    this.outcome = outcome;
    this.reason = reason;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.runRng = { s: this.runRng.s };
    c.doors = this.doors.map((d) => Object.assign({}, d));
    c.guards = this.guards.map((g) => Object.assign({}, g));
    c.clips = this.clips.map((k) => Object.assign({}, k));
    c.field = null;
    return c;
  };

  const r3 = (v) => Math.round(v * 1000) / 1000;

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const guards = this.guards.map((g) => {
      const rel = this.relAngle(g.x, g.y);
      const dist = Math.hypot(g.x - this.px, g.y - this.py);
      const los = g.state !== "dead" && this.clearLine(this.px, this.py, g.x, g.y);
      return {
        id: g.id, x: r3(g.x), y: r3(g.y), room: g.room, state: g.state, hp: g.hp,
        visible: los && Math.abs(rel) <= FOV_DEG / 2,
        distance: r3(dist), rel_angle_deg: r3(rel),
      };
    });
    let nearest = null;
    for (const g of guards) {
      if (g.state === "dead") continue;
      if (!nearest || g.distance < nearest.distance) nearest = g;
    }
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      game_state: {
        score: this.kills,
        level: this.level,
        completion_progress: this.kills / GUARD_COUNT,
        health: this.health,
        lives: this.lives,
        player: {
          x: r3(this.px), y: r3(this.py), angle_deg: this.angle,
          health: this.health, ammo: this.ammo, alive: alive, room: roomAt(this.px, this.py),
        },
        guards: guards.map((g) => ({
          id: g.id, x: g.x, y: g.y, room: g.room, state: g.state, hp: g.hp, visible: g.visible,
        })),
        doors: this.doors.map((d) => ({
          x: d.cx, y: d.cy, open: d.openTicks >= DOOR_OPEN_TICKS, open_fraction: r3(d.openTicks / DOOR_OPEN_TICKS),
        })),
        clips: this.clips.filter((c) => !c.taken).map((c) => ({ x: r3(c.x), y: r3(c.y) })),
        environment: {
          nearest_enemy: nearest
            ? { id: nearest.id, distance: nearest.distance, rel_angle_deg: nearest.rel_angle_deg, visible: nearest.visible }
            : null,
        },
      },
      metrics: {
        primary_score: this.kills,
        kills: this.kills,
        health: this.health,
        ammo: this.ammo,
        lives: this.lives,
        deaths: this.deaths,
        shots: this.shots,
        hits: this.hits,
      },
      raw: {
        ticks: this.totalTicks,
        units: "cells; angles in degrees, 0 = east, clockwise (map y points south)",
        map: MAP.slice(),
        cooldown_ticks: this.cooldown,
      },
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still gives one `pressed` edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "x", " ", "Enter"],
    // Humans only: Enter on the game-over screen starts again. Agents never see
    // a terminal frame (the harness resets first) and have no Enter key.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  function consumeInput() {
    const { pressed, down } = keys.take();
    const on = (k) => down.has(k) || pressed.has(k);   // a tap counts as held for one tick
    return {
      forward: on("ArrowUp"), backward: on("ArrowDown"),
      left: on("ArrowLeft"), right: on("ArrowRight"),
      shoot: pressed.has("x"), use: pressed.has(" "),
    };
  }

  // ---------------------------------------------------------------------------
  // Renderer
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    ceilingTop: "#1E1E22", ceilingLow: "#34343A",
    floorLow: "#55555A", floorNear: "#7E7E84",
    edge: "rgba(10,10,14,0.85)",
    khaki: "#B8A46A", khakiDark: "#7D6C3C", helmet: "#5E5A36", skin: "#E0B48C",
    gun: "#2A2A2E", gunLight: "#5A5A62", flash: "#FFE066", flashCore: "#FFFFFF",
    clip: "#F5C518", clipRim: "#6B5000",
    bar: "#202632", barBox: "#0F131B", barLine: "#4A5A78",
  };
  // Flat wall colours per tile and face: [x-facing, y-facing (darker)].
  const WALL_RGB = {
    [T_STONE]: [[74, 111, 194], [50, 78, 140]],
    [T_WOOD]: [[139, 94, 52], [104, 68, 36]],
    [T_DOOR]: [[32, 168, 158], [22, 122, 115]],
  };
  const SHADE_LEVELS = 8;           // distance fog in flat steps, so columns batch by colour
  const SEAM = 4;                   // extra "tile" index for the dark door seam
  const wallStyle = {};
  for (const t of [T_STONE, T_WOOD, T_DOOR, SEAM]) {
    wallStyle[t] = [[], []];
    for (let side = 0; side < 2; side++) {
      for (let lv = 0; lv < SHADE_LEVELS; lv++) {
        const f = 1 - lv * 0.07;
        const rgb = t === SEAM ? [12, 70, 66] : WALL_RGB[t][side];
        wallStyle[t][side].push("rgb(" + rgb.map((c) => Math.round(c * f)).join(",") + ")");
      }
    }
  }

  function textOutlined(str, x, y, font, align, color) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#111";
    ctx.strokeText(str, x, y);
    ctx.fillStyle = color || "#fff";
    ctx.fillText(str, x, y);
  }

  function offscreen(w, h, draw) {
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    draw(c.getContext("2d"), w, h);
    return c;
  }

  // Static layers, drawn once: the ceiling/floor backdrop and the status bar frame.
  const backdrop = offscreen(W, VIEW_H, (g) => {
    const half = VIEW_H / 2;
    let grad = g.createLinearGradient(0, 0, 0, half);
    grad.addColorStop(0, COLORS.ceilingTop);
    grad.addColorStop(1, COLORS.ceilingLow);
    g.fillStyle = grad;
    g.fillRect(0, 0, W, half);
    grad = g.createLinearGradient(0, half, 0, VIEW_H);
    grad.addColorStop(0, COLORS.floorLow);
    grad.addColorStop(1, COLORS.floorNear);
    g.fillStyle = grad;
    g.fillRect(0, half, W, half);
  });

  const BAR_BOXES = [
    { label: "HEALTH", x: 20, w: 290 },
    { label: "AMMO", x: 330, w: 290 },
    { label: "LIVES", x: 640, w: 290 },
    { label: "KILLS", x: 950, w: 310 },
  ];
  const barLayer = offscreen(W, H - BAR_Y, (g, w, h) => {
    g.fillStyle = COLORS.bar;
    g.fillRect(0, 0, w, h);
    g.fillStyle = COLORS.barLine;
    g.fillRect(0, 0, w, 3);
    for (const b of BAR_BOXES) {
      g.fillStyle = COLORS.barBox;
      g.fillRect(b.x, 10, b.w, h - 20);
      g.strokeStyle = COLORS.barLine;
      g.lineWidth = 2;
      g.strokeRect(b.x + 1, 11, b.w - 2, h - 22);
      g.font = "20px sans-serif";
      g.textAlign = "left";
      g.textBaseline = "middle";
      g.fillStyle = "#C8D0E0";
      g.fillText(b.label, b.x + 16, h / 2);
    }
  });

  // Guard poses, drawn once at 2x the largest on-screen detail we need.
  const SPR_W = 120;
  const SPR_H = 240;
  function drawGuardBody(g, pose) {
    const cx = SPR_W / 2;
    g.lineWidth = 3;
    g.strokeStyle = "#2A2414";
    // legs and boots
    g.fillStyle = COLORS.khakiDark;
    g.fillRect(cx - 22, 150, 18, 70);
    g.fillRect(cx + 4, 150, 18, 70);
    g.strokeRect(cx - 22, 150, 18, 70);
    g.strokeRect(cx + 4, 150, 18, 70);
    g.fillStyle = "#3A2E1A";
    g.fillRect(cx - 25, 212, 22, 20);
    g.fillRect(cx + 3, 212, 22, 20);
    // torso
    g.fillStyle = COLORS.khaki;
    g.beginPath();
    g.moveTo(cx - 32, 72);
    g.lineTo(cx + 32, 72);
    g.lineTo(cx + 27, 156);
    g.lineTo(cx - 27, 156);
    g.closePath();
    g.fill();
    g.stroke();
    g.fillStyle = "#5A3E1E";                 // belt
    g.fillRect(cx - 28, 134, 56, 8);
    // head and helmet
    g.fillStyle = COLORS.skin;
    g.beginPath();
    g.arc(cx, 50, 17, 0, Math.PI * 2);
    g.fill();
    g.stroke();
    g.fillStyle = COLORS.helmet;
    g.beginPath();
    g.arc(cx, 44, 20, Math.PI, 0);
    g.lineTo(cx + 24, 46);
    g.lineTo(cx - 24, 46);
    g.closePath();
    g.fill();
    g.stroke();
    g.fillStyle = "#111";
    g.fillRect(cx - 9, 52, 5, 4);
    g.fillRect(cx + 4, 52, 5, 4);
    // arms and gun
    g.fillStyle = COLORS.khaki;
    if (pose === "idle") {
      g.fillRect(cx - 44, 78, 14, 60);
      g.fillRect(cx + 30, 78, 14, 60);
      g.strokeRect(cx - 44, 78, 14, 60);
      g.strokeRect(cx + 30, 78, 14, 60);
      g.fillStyle = COLORS.gun;
      g.fillRect(cx + 33, 120, 8, 44);
    } else {
      // aiming at the viewer: forearms meet in front, the muzzle points at you
      g.fillRect(cx - 36, 86, 30, 16);
      g.fillRect(cx + 6, 86, 30, 16);
      g.strokeRect(cx - 36, 86, 30, 16);
      g.strokeRect(cx + 6, 86, 30, 16);
      g.fillStyle = COLORS.gun;
      g.fillRect(cx - 12, 82, 24, 26);
      g.fillStyle = "#000";
      g.beginPath();
      g.arc(cx, 95, 6, 0, Math.PI * 2);
      g.fill();
      if (pose === "fire") {
        g.fillStyle = COLORS.flash;
        g.beginPath();
        for (let k = 0; k < 10; k++) {
          const r = k % 2 ? 12 : 30;
          const a = k * Math.PI / 5;
          g.lineTo(cx + Math.cos(a) * r, 95 + Math.sin(a) * r);
        }
        g.closePath();
        g.fill();
        g.fillStyle = COLORS.flashCore;
        g.beginPath();
        g.arc(cx, 95, 8, 0, Math.PI * 2);
        g.fill();
      }
    }
  }
  const guardSprites = {
    idle: offscreen(SPR_W, SPR_H, (g) => drawGuardBody(g, "idle")),
    alert: offscreen(SPR_W, SPR_H, (g) => drawGuardBody(g, "alert")),
    fire: offscreen(SPR_W, SPR_H, (g) => drawGuardBody(g, "fire")),
    hurt: offscreen(SPR_W, SPR_H, (g) => {
      drawGuardBody(g, "alert");
      g.globalCompositeOperation = "source-atop";
      g.fillStyle = "rgba(255,60,40,0.55)";
      g.fillRect(0, 0, SPR_W, SPR_H);
    }),
    dead: offscreen(SPR_W, SPR_H / 4, (g) => {
      g.fillStyle = "rgba(90,20,15,0.8)";
      g.beginPath();
      g.ellipse(SPR_W / 2, 46, 56, 12, 0, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = COLORS.khakiDark;
      g.strokeStyle = "#2A2414";
      g.lineWidth = 3;
      g.fillRect(12, 24, 84, 22);
      g.strokeRect(12, 24, 84, 22);
      g.fillStyle = COLORS.helmet;
      g.beginPath();
      g.arc(104, 34, 12, 0, Math.PI * 2);
      g.fill();
      g.stroke();
    }),
  };
  const clipSprite = offscreen(60, 40, (g) => {
    g.fillStyle = COLORS.clip;
    g.strokeStyle = COLORS.clipRim;
    g.lineWidth = 4;
    g.fillRect(4, 6, 52, 30);
    g.strokeRect(4, 6, 52, 30);
    g.fillStyle = COLORS.clipRim;
    g.fillRect(14, 14, 6, 14);
    g.fillRect(27, 14, 6, 14);
    g.fillRect(40, 14, 6, 14);
  });

  // World size of the billboards (cells) and where they stand.
  const SPRITE_SIZE = {
    guard: { w: 0.5, h: 0.95 },
    dead: { w: 0.9, h: 0.3 },
    clip: { w: 0.36, h: 0.24 },
  };

  const PISTOL_W = 220;
  const PISTOL_H = 200;
  function drawPistol(g, flash) {
    const cx = PISTOL_W / 2;
    if (flash) {
      g.fillStyle = COLORS.flash;
      g.beginPath();
      for (let k = 0; k < 14; k++) {
        const r = k % 2 ? 18 : 44;
        const a = k * Math.PI / 7;
        g.lineTo(cx + Math.cos(a) * r, 46 + Math.sin(a) * r);
      }
      g.closePath();
      g.fill();
      g.fillStyle = COLORS.flashCore;
      g.beginPath();
      g.arc(cx, 46, 12, 0, Math.PI * 2);
      g.fill();
    }
    g.strokeStyle = "#0A0A0C";
    g.lineWidth = 3;
    g.fillStyle = COLORS.gun;                 // barrel and slide
    g.fillRect(cx - 16, 60, 32, 80);
    g.strokeRect(cx - 16, 60, 32, 80);
    g.fillStyle = COLORS.gunLight;
    g.fillRect(cx - 8, 64, 6, 70);
    g.fillStyle = COLORS.skin;                // hand
    g.beginPath();
    g.moveTo(cx - 46, PISTOL_H);
    g.lineTo(cx - 38, 128);
    g.lineTo(cx + 38, 128);
    g.lineTo(cx + 50, PISTOL_H);
    g.closePath();
    g.fill();
    g.stroke();
    g.fillStyle = "#C89A74";
    g.fillRect(cx - 30, 140, 60, 8);
  }
  const pistolSprites = [
    offscreen(PISTOL_W, PISTOL_H, (g) => drawPistol(g, false)),
    offscreen(PISTOL_W, PISTOL_H, (g) => drawPistol(g, true)),
  ];

  // Per-column results of the last cast, reused every frame.
  const zbuf = new Float64Array(COLS);
  const colTop = new Float64Array(COLS);
  const colBot = new Float64Array(COLS);
  const colKey = new Int32Array(COLS);

  // One DDA ray per 4 px column. The distance is measured along the view
  // direction (perpendicular to the camera plane), not along the ray, which is
  // what removes the fisheye bulge. Columns are filled grouped by colour.
  function castWalls(c) {
    const a = c.angle * DEG;
    const dirX = Math.cos(a), dirY = Math.sin(a);
    const planeX = -dirY * PLANE, planeY = dirX * PLANE;
    const buckets = new Map();
    for (let i = 0; i < COLS; i++) {
      const camX = 2 * (i + 0.5) / COLS - 1;
      const rx = dirX + planeX * camX, ry = dirY + planeY * camX;
      let mx = Math.floor(c.px), my = Math.floor(c.py);
      const ddx = rx !== 0 ? Math.abs(1 / rx) : 1e30;
      const ddy = ry !== 0 ? Math.abs(1 / ry) : 1e30;
      const sx = rx < 0 ? -1 : 1, sy = ry < 0 ? -1 : 1;
      let sdx = (rx < 0 ? c.px - mx : mx + 1 - c.px) * ddx;
      let sdy = (ry < 0 ? c.py - my : my + 1 - c.py) * ddy;
      let side = 0, dist = 0, tile = T_STONE, frac = 0;
      for (let n = 0; n < 64; n++) {
        if (sdx < sdy) { sdx += ddx; mx += sx; side = 0; } else { sdy += ddy; my += sy; side = 1; }
        const t = tileAt(mx, my);
        if (t === T_FLOOR) continue;
        if (t === T_DOOR) {
          // The slab sits in the middle of the door cell and slides sideways.
          const d = c.doorAt(mx, my);
          const wantSide = d.axis === "x" ? 0 : 1;
          if (side !== wantSide) continue;
          const pd = side === 0 ? (mx + 0.5 - c.px) / rx : (my + 0.5 - c.py) / ry;
          const along = side === 0 ? c.py + pd * ry - my : c.px + pd * rx - mx;
          const open = d.openTicks / DOOR_OPEN_TICKS;
          if (along < 0 || along >= 1 || along < open) continue;
          dist = pd;
          tile = T_DOOR;
          frac = along - open;
          break;
        }
        dist = side === 0 ? sdx - ddx : sdy - ddy;
        tile = t;
        break;
      }
      dist = Math.max(dist, 0.05);
      zbuf[i] = dist;
      const hgt = PROJ / dist;
      const top = Math.max(VIEW_Y, Math.round(HORIZON - hgt / 2));
      const bot = Math.min(BAR_Y, Math.round(HORIZON + hgt / 2));
      colTop[i] = top;
      colBot[i] = bot;
      colKey[i] = ((my * MAP_W + mx) << 1) | side;
      const lv = Math.min(SHADE_LEVELS - 1, Math.floor(dist / 1.6));
      const seam = tile === T_DOOR && frac > 0.47 && frac < 0.53;
      const style = wallStyle[seam ? SEAM : tile][side][lv];
      let list = buckets.get(style);
      if (!list) buckets.set(style, (list = []));
      list.push(i * COL_W, top, bot - top);
    }
    ctx.drawImage(backdrop, 0, VIEW_Y);
    for (const [style, list] of buckets) {
      ctx.fillStyle = style;
      for (let k = 0; k < list.length; k += 3) ctx.fillRect(list[k], list[k + 1], COL_W, list[k + 2]);
    }
    // A thin dark line wherever the next column shows another cell or face.
    ctx.fillStyle = COLORS.edge;
    for (let i = 1; i < COLS; i++) {
      if (colKey[i] === colKey[i - 1]) continue;
      const top = Math.min(colTop[i], colTop[i - 1]);
      const bot = Math.max(colBot[i], colBot[i - 1]);
      ctx.fillRect(i * COL_W - 1, top, 2, bot - top);
    }
  }

  // Billboards, far to near, each drawn only over the column runs where it is
  // nearer than the wall (the z-buffer).
  function drawSprites(c) {
    const a = c.angle * DEG;
    const dirX = Math.cos(a), dirY = Math.sin(a);
    const list = [];
    const add = (x, y, img, size, lift) => {
      const rx = x - c.px, ry = y - c.py;
      const depth = rx * dirX + ry * dirY;
      if (depth < 0.2) return;
      const lat = -rx * dirY + ry * dirX;
      list.push({ depth, lat, img, size, lift });
    };
    for (const g of c.guards) {
      if (g.state === "dead") {
        add(g.x, g.y, guardSprites.dead, SPRITE_SIZE.dead, 0);
        continue;
      }
      let img = guardSprites.idle;
      if (g.hurt > 0) img = guardSprites.hurt;
      else if (g.firing > 0) img = guardSprites.fire;
      else if (g.state === "alert") img = guardSprites.alert;
      add(g.x, g.y, img, SPRITE_SIZE.guard, 0);
    }
    for (const k of c.clips) {
      if (!k.taken) add(k.x, k.y, clipSprite, SPRITE_SIZE.clip, 0);
    }
    list.sort((p, q) => q.depth - p.depth);
    for (const s of list) {
      const scale = PROJ / s.depth;                   // px per cell at this depth
      const centreX = W / 2 + s.lat * scale;
      const wPx = s.size.w * scale;
      const hPx = s.size.h * scale;
      const floorY = HORIZON + scale / 2;
      const x0 = centreX - wPx / 2;
      const y0 = floorY - hPx - s.lift * scale;
      const c0 = Math.max(0, Math.floor(x0 / COL_W));
      const c1 = Math.min(COLS - 1, Math.floor((x0 + wPx) / COL_W));
      let run = -1;
      for (let i = c0; i <= c1 + 1; i++) {
        const vis = i <= c1 && s.depth < zbuf[i];
        if (vis && run < 0) run = i;
        if (!vis && run >= 0) {
          const rx0 = Math.max(x0, run * COL_W), rx1 = Math.min(x0 + wPx, i * COL_W);
          if (rx1 > rx0) {
            const u0 = (rx0 - x0) / wPx * s.img.width, u1 = (rx1 - x0) / wPx * s.img.width;
            ctx.drawImage(s.img, u0, 0, u1 - u0, s.img.height, rx0, y0, rx1 - rx0, hPx);
          }
          run = -1;
        }
      }
    }
  }

  function drawCrosshair() {
    const x = W / 2, y = HORIZON;
    ctx.fillStyle = "#111";
    ctx.fillRect(x - 15, y - 3, 30, 6);
    ctx.fillRect(x - 3, y - 15, 6, 30);
    ctx.fillStyle = "#fff";
    ctx.fillRect(x - 13, y - 1, 26, 2);
    ctx.fillRect(x - 1, y - 13, 2, 26);
  }

  function drawHud(c) {
    ctx.fillStyle = "#0B0D12";
    ctx.fillRect(0, 0, W, HUD_H);
    textOutlined("Wolfenstein 3D", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined("Level " + c.level, 250, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined("Kills " + c.kills + "/" + GUARD_COUNT, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined("Health " + c.health + "   Ammo " + c.ammo + "   Lives " + c.lives,
      W - 20, HUD_H / 2 + 1, "20px sans-serif", "right");
    ctx.drawImage(barLayer, 0, BAR_Y);
    const values = [String(c.health), String(c.ammo), String(c.lives), c.kills + "/" + GUARD_COUNT];
    const mid = BAR_Y + (H - BAR_Y) / 2;
    BAR_BOXES.forEach((b, k) => {
      const low = (k === 0 && c.health <= 30) || (k === 1 && c.ammo === 0);
      textOutlined(values[k], b.x + b.w - 18, mid, "bold 28px sans-serif", "right", low ? "#FF6B5E" : "#fff");
    });
  }

  function drawPanel(lines) {
    const pw = 620;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.65)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => textOutlined(ln.text, W / 2, py + 43 + k * 46, ln.font, "center"));
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    const c = core;
    // Everything below stays inside the view band, so the HUD strip and the
    // status bar are repainted only when their numbers change.
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, VIEW_Y, W, VIEW_H);
    ctx.clip();
    castWalls(c);
    drawSprites(c);
    drawCrosshair();
    ctx.drawImage(pistolSprites[c.flash > 0 ? 1 : 0], W / 2 - PISTOL_W / 2, BAR_Y - PISTOL_H);
    if (c.hurt > 0) {
      ctx.fillStyle = "rgba(229,57,53,0.28)";
      ctx.fillRect(0, VIEW_Y, W, VIEW_H);
    }
    ctx.restore();
    const hud = hudKey(c);
    if (hud !== drawnHud) {
      drawHud(c);
      drawnHud = hud;
    }
    if (c.status === "terminal") {
      drawnHud = "";                 // the panel overlaps the bars
      const lines = c.outcome === "success"
        ? [{ text: "LEVEL COMPLETE", font: "bold 36px sans-serif" }]
        : [{ text: "GAME OVER \u2013 " + c.reason, font: "bold 36px sans-serif" }];
      lines.push({ text: "Kills " + c.kills + "/" + GUARD_COUNT, font: "bold 28px sans-serif" });
      if (!window.__GW_HARNESS__) lines.push({ text: "Press Enter to play again", font: "20px sans-serif" });
      drawPanel(lines);
    }
  }

  function hudKey(c) {
    return ep.attempts + "|" + c.level + "|" + c.health + "," + c.ammo + "," + c.lives + "," + c.kills;
  }

  // Everything the picture depends on; the frame is redrawn only when it changes.
  function viewKey(c) {
    if (!c) return "none";
    let k = ep.attempts + "|" + c.status + "|" + c.px + "," + c.py + "," + c.angle + "|" +
      c.health + "," + c.ammo + "," + c.lives + "," + c.kills + "|" + (c.flash > 0) + (c.hurt > 0) + "|";
    for (const d of c.doors) k += d.openTicks + ",";
    for (const g of c.guards) k += g.x + "," + g.y + g.state + (g.firing > 0) + (g.hurt > 0) + ";";
    for (const cl of c.clips) k += cl.taken ? "t" : "c";
    return k;
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;
  let drawnKey = "";
  let drawnHud = "";

  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const inp = consumeInput();
      if (core) core.tick(inp);
    },
    render() {
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
    // One map: only level 1 exists (capabilities.supports_level_select = false).
    if (l !== undefined && l !== null && Number(l) !== 1) console.warn(GAME_ID + " has only level 1; got " + l);
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed) {
      keys.clear();
      core = createCore(seed, 1);
      render();                      // the first screenshot is already current
      drawnKey = viewKey(core);
    },
  });

  const api = {
    capabilities: {
      supports_seed: true,         // the seed places the guards and drives their aim
      supports_inplace_reset: true,
      supports_level_select: false,
    },

    init: ep.init,
    reset: ep.reset,

    getState() {
      const s = (core || createCore(ep.seed, 1)).snapshot();
      if (!core) s.status = "loading";
      s.metrics.attempts = ep.attempts;
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),   // the harness's virtual clock
        gameTimeMs: s.gameTimeMs,
        status: s.status,
        terminal: s.terminal,
        game_state: s.game_state,
        metrics: s.metrics,
        raw: s.raw,
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
