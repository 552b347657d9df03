// Fireboy and Watergirl for pytest-gameworld: a two-role cooperative platformer.
//
// Layout: a pure simulation core (createCore) over hand-made tile levels, a
// canvas renderer with the temple (walls, pools, door frames) cached per level,
// a keyboard queue with independent key sets per character, one
// requestAnimationFrame loop with fixed 1/60 s ticks, and window.gameAPI. The
// oracle clones the core through window.__gwCore to look ahead.
//
// The layouts are fixed and nothing is random, so the seed changes nothing
// (capabilities.supports_seed = false).
(function () {
  "use strict";

  const GAME_ID = "12-fireboy-and-watergirl";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 12). Units: px, px/s, px/s^2, ticks of 1/60 s.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const TILE = 32;
  const COLS = 40;
  const ROWS = 20;
  const TOP = 60;                 // screen y of row 0 (play area y 60-700)

  const CHAR_W = 28;
  const CHAR_H = 40;
  const WALK = 260;
  const GRAVITY = 2400;
  const JUMP_VY = -760;
  const MAX_FALL = 900;
  const BUFFER_TICKS = 6;         // 0.1 s jump buffer
  const COYOTE_TICKS = 6;         // 0.1 s coyote time
  const BOX = 32;
  const POOL_DEPTH = 10;          // pools are basins: their floor lies 10 px below the floor line
  const SURFACE = 2;              // the liquid surface, and its hitbox, 2 px below the floor line
  const PUSH_PER_TICK = 120 / TICK_HZ;
  const LIFT_H = 16;
  const LIFT_PER_TICK = 160 / TICK_HZ;
  const DOOR_TICKS = 30;          // both in their doors for 0.5 s
  const ROLES = ["watergirl", "fireboy"];
  const GEM_OF = { fireboy: "r", watergirl: "b" };
  // Which pool kinds kill whom: lava (L) kills Watergirl, water (A) Fireboy, goo (G) both.
  const KILLS = { fireboy: { A: true, G: true }, watergirl: { L: true, G: true } };

  // ---------------------------------------------------------------------------
  // Levels: 40 x 20 tiles, one string per row.
  //   '#' stone   '.' air   'L' lava / 'A' water / 'G' goo pool (set into the floor)
  //   'r' red diamond (Fireboy)   'b' blue diamond (Watergirl)
  //   'f' / 'w' start of Fireboy / Watergirl (standing on the floor below)
  //   'F' / 'W' door of Fireboy / Watergirl (standing on the floor below)
  //   'X' box   'p' 'q' buttons and 'v' 'u' levers (linked lift in `links`)
  // Lifts: {id, col, width (tiles), down, up (rows whose top the lift's top
  // reaches), colour}; a button lift rises while any of its buttons is held, a
  // lever lift stands up while an odd number of its levers is on.
  // ---------------------------------------------------------------------------
  const LEVELS = {
    1: {
      rows: [
        "########################################",
        "########################################",
        "########################################",
        "########################################",
        "########################################",
        "########################################",
        "########################################",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#.W.F...b.....r.....b.....r....v.......#",
        "#################################......#",
        "#......................................#",
        "#......................................#",
        "#................###....####...........#",
        "#................#......#..............#",
        "#.w.f............#rb....#r.b...........#",
        "########LL###AA#########################",
      ],
      lifts: [{ id: "lift", col: 34, width: 5, down: 16, up: 13, colour: "purple" }],
      links: { v: "lift" },
    },
    2: {
      rows: [
        "########################################",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#.......bbbb..q.....W.F................#",
        "#.....##################################",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#.........p..........rrrr..............#",
        "#.....###########################......#",
        "#......................................#",
        "#......................................#",
        "#.................................######",
        "#......................................#",
        "#.w.f...................rrrr.bbbb......#",
        "###################GG###################",
      ],
      lifts: [{ id: "lift", col: 1, width: 5, down: 13, up: 7, colour: "yellow" }],
      links: { p: "lift", q: "lift" },
    },
    3: {
      rows: [
        "########################################",
        "########################################",
        "########################################",
        "########################################",
        "########################################",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#..............vF......Wu..............#",
        "#.............####....####.............#",
        "#....rrrrrr..................bbbbbb....#",
        "#...#########..............#########...#",
        "#......................................#",
        "#......................................#",
        "###..................................###",
        "###..................................###",
        "###..................................###",
        "###...X.bbbb....f......w....rrrr.X...###",
        "#############LL###....###AA#############",
      ],
      lifts: [{ id: "lift", col: 18, width: 4, down: 19, up: 10, colour: "purple" }],
      links: { v: "lift", u: "lift" },
    },
    4: {
      rows: [
        "########################################",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#.....bbbbW..q..............Frrrr......#",
        "#....##########..........##########....#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#......................................#",
        "#.....b.b..........wf........r.p.r.....#",
        "#....######LL###AA####LL####AA#####....#",
      ],
      lifts: [
        { id: "lift_a", col: 1, width: 4, down: 19, up: 11, colour: "yellow" },
        { id: "lift_b", col: 35, width: 4, down: 19, up: 11, colour: "purple" },
      ],
      links: { p: "lift_a", q: "lift_b" },
    },
  };
  const LAST_LEVEL = 4;

  const rowTop = (r) => TOP + r * TILE;

  // Static facts of a level, parsed once and shared by every core and clone.
  const parsed = {};
  function levelInfo(level) {
    if (parsed[level]) return parsed[level];
    const spec = LEVELS[level];
    const grid = spec.rows.map((row) => row.split(""));
    const info = {
      grid: grid, pools: [], gems: [], doors: {}, starts: {}, buttons: [], levers: [], boxes: [],
      lifts: spec.lifts, totals: { fireboy: 0, watergirl: 0 },
    };
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        const ch = grid[r][c];
        const x = c * TILE;
        const floorY = rowTop(r + 1);
        if (ch === "L" || ch === "A" || ch === "G") {
          // One basin per run of pool tiles; its hitbox is exactly the drawn liquid.
          const last = info.pools[info.pools.length - 1];
          if (last && last.kind === ch && last.row === r && last.x + last.w === x) last.w += TILE;
          else info.pools.push({ kind: ch, row: r, x: x, y: rowTop(r) + SURFACE, w: TILE, h: TILE - SURFACE });
        } else if (ch === "r" || ch === "b") {
          info.gems.push({ kind: ch, x: x + 5, y: rowTop(r) + 5, w: 22, h: 22 });
          info.totals[ch === "r" ? "fireboy" : "watergirl"]++;
        } else if (ch === "F" || ch === "W") {
          info.doors[ch === "F" ? "fireboy" : "watergirl"] = { x: x - 8, y: floorY - 64, w: 48, h: 64 };
        } else if (ch === "f" || ch === "w") {
          info.starts[ch === "f" ? "fireboy" : "watergirl"] = { x: x + 2, y: floorY - CHAR_H };
        } else if (ch === "p" || ch === "q") {
          info.buttons.push({ id: ch, lift: spec.links[ch], x: x, w: TILE, floorY: floorY });
        } else if (ch === "v" || ch === "u") {
          info.levers.push({ id: ch, lift: spec.links[ch], x: x + 6, y: rowTop(r) + 4, w: 20, h: 28 });
        } else if (ch === "X") {
          info.boxes.push({ x: x, y: rowTop(r) });
        }
        if (ch !== "#" && ch !== "L" && ch !== "A" && ch !== "G") grid[r][c] = ".";
      }
    }
    parsed[level] = info;
    return info;
  }

  function solidTile(info, c, r) {
    if (c < 0 || c >= COLS || r < 0 || r >= ROWS) return true;   // outside the temple is rock
    const ch = info.grid[r][c];
    return ch === "#" || ch === "L" || ch === "A" || ch === "G";
  }

  function overlap(a, b) {
    return a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------
  function Core() {}

  function createCore(level) {
    const info = levelInfo(level);
    const core = new Core();
    core.level = level;
    core.info = info;
    core.chars = {};
    for (const name of ROLES) {
      const s = info.starts[name];
      core.chars[name] = {
        x: s.x, y: s.y, w: CHAR_W, h: CHAR_H, vx: 0, vy: 0, onGround: true, alive: true,
        coyote: 0, buffer: 0, atDoor: false, collected: 0,
      };
    }
    core.taken = info.gems.map(() => false);
    core.levers = info.levers.map(() => false);
    core.lifts = info.lifts.map((l) => ({
      x: l.col * TILE, y: rowTop(l.down), w: l.width * TILE, h: LIFT_H,
    }));
    core.boxes = info.boxes.map((b) => ({ x: b.x, y: b.y, w: BOX, h: BOX, vy: 0, onGround: true }));
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;
    core.playTicks = 0;
    core.doorTicks = 0;
    core.ghost = null;
    return core;
  }

  Core.prototype.clone = function () {
    const c = new Core();
    c.level = this.level;
    c.info = this.info;
    c.chars = {};
    for (const name of ROLES) c.chars[name] = Object.assign({}, this.chars[name]);
    c.taken = this.taken.slice();
    c.levers = this.levers.slice();
    c.lifts = this.lifts.map((l) => Object.assign({}, l));
    c.boxes = this.boxes.map((b) => Object.assign({}, b));
    c.status = this.status;
    c.outcome = this.outcome;
    c.reason = this.reason;
    c.totalTicks = this.totalTicks;
    c.playTicks = this.playTicks;
    c.doorTicks = this.doorTicks;
    c.ghost = this.ghost;
    return c;
  };

  // Move a body along one axis and stop it at the first solid (stone, lifts and,
  // with `boxes`, the boxes other than itself); returns true on a hit.
  Core.prototype.moveAxis = function (body, dx, dy, boxes) {
    body.x += dx;
    body.y += dy;
    let hit = false;
    const clamp = (sx, sy, sw, sh) => {
      if (!(body.x < sx + sw && body.x + body.w > sx && body.y < sy + sh && body.y + body.h > sy)) return;
      hit = true;
      if (dx > 0) body.x = sx - body.w;
      else if (dx < 0) body.x = sx + sw;
      else if (dy > 0) body.y = sy - body.h;
      else if (dy < 0) body.y = sy + sh;
    };
    const c0 = Math.floor(body.x / TILE);
    const c1 = Math.floor((body.x + body.w - 1e-9) / TILE);
    const r0 = Math.floor((body.y - TOP) / TILE);
    const r1 = Math.floor((body.y + body.h - 1e-9 - TOP) / TILE);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        if (!solidTile(this.info, c, r)) continue;
        const ch = r >= 0 && r < ROWS && c >= 0 && c < COLS ? this.info.grid[r][c] : "#";
        const dip = ch === "#" ? 0 : POOL_DEPTH;
        clamp(c * TILE, rowTop(r) + dip, TILE, TILE - dip);
      }
    }
    for (const l of this.lifts) clamp(l.x, l.y, l.w, l.h);
    if (boxes) for (const b of this.boxes) if (b !== body) clamp(b.x, b.y, b.w, b.h);
    return hit;
  };

  function standsOnPlate(o, b) {
    return o.onGround && Math.abs(o.y + o.h - b.floorY) < 1 && o.x < b.x + b.w && o.x + o.w > b.x;
  }

  Core.prototype.buttonPressed = function (b) {
    for (const box of this.boxes) if (standsOnPlate(box, b)) return true;
    for (const n of ROLES) {
      const c = this.chars[n];
      if (c.alive && standsOnPlate(c, b)) return true;
    }
    return false;
  };

  Core.prototype.liftActive = function (i) {
    const id = this.info.lifts[i].id;
    let flips = 0;
    for (const b of this.info.buttons) if (b.lift === id && this.buttonPressed(b)) return true;
    this.info.levers.forEach((l, k) => { if (l.lift === id && this.levers[k]) flips++; });
    return flips % 2 === 1;
  };

  // Lifts move first and carry whatever stands on them; a lift stops rather than crush.
  Core.prototype.stepLifts = function () {
    for (let i = 0; i < this.lifts.length; i++) {
      const lift = this.lifts[i];
      const spec = this.info.lifts[i];
      const target = rowTop(this.liftActive(i) ? spec.up : spec.down);
      if (lift.y === target) continue;
      const dy = Math.max(-LIFT_PER_TICK, Math.min(LIFT_PER_TICK, target - lift.y));
      const bodies = this.boxes.concat([this.chars.watergirl, this.chars.fireboy]);
      const riders = bodies.filter((o) => Math.abs(o.y + o.h - lift.y) < 0.5 &&
        o.x < lift.x + lift.w && o.x + o.w > lift.x && o.vy >= 0);
      const moved = { x: lift.x, y: lift.y + dy, w: lift.w, h: lift.h };
      if (bodies.some((o) => riders.indexOf(o) < 0 && overlap(o, moved))) continue;
      lift.y = Math.abs(target - moved.y) < 1e-6 ? target : moved.y;
      for (const o of riders) o.y = lift.y - o.h;
    }
  };

  // Horizontal move of a character; walking into a box on the ground pushes it.
  Core.prototype.walk = function (ch, dx) {
    const x0 = ch.x;
    if (this.moveAxis(ch, dx, 0, false) && ch.onGround) {
      // Step out of a pool basin: retry the move 10 px higher, then settle back down.
      const x1 = ch.x;
      const y0 = ch.y;
      ch.x = x0;
      if (!this.moveAxis(ch, 0, -POOL_DEPTH, true) && !this.moveAxis(ch, dx, 0, false)) {
        this.moveAxis(ch, 0, POOL_DEPTH, true);
      } else {
        ch.x = x1;
        ch.y = y0;
      }
    }
    for (const box of this.boxes) {
      if (!overlap(ch, box)) continue;
      const side = ch.y + ch.h > box.y + 2 && ch.y < box.y + box.h;
      if (side && ch.onGround) {
        const want = dx > 0 ? ch.x + ch.w - box.x : ch.x - (box.x + box.w);
        const push = Math.sign(want) * Math.min(Math.abs(want), PUSH_PER_TICK);
        this.moveAxis(box, push, 0, true);
      }
      if (overlap(ch, box)) ch.x = dx > 0 ? box.x - ch.w : box.x + box.w;
    }
  };

  Core.prototype.stepChar = function (name, inp) {
    const ch = this.chars[name];
    if (!ch.alive) return;
    const dir = (inp.right ? 1 : 0) - (inp.left ? 1 : 0);
    if (inp.jump) ch.buffer = BUFFER_TICKS;
    if (ch.buffer > 0 && (ch.onGround || ch.coyote > 0)) {
      ch.vy = JUMP_VY;
      ch.buffer = 0;
      ch.coyote = 0;
      ch.onGround = false;
    }
    if (ch.buffer > 0) ch.buffer--;
    ch.vx = dir * WALK;
    const x0 = ch.x;
    if (dir !== 0) this.walk(ch, ch.vx * DT);
    ch.vy = Math.min(ch.vy + GRAVITY * DT, MAX_FALL);
    const wasGround = ch.onGround;
    const dy = ch.vy * DT;
    const hit = this.moveAxis(ch, 0, dy, true);
    ch.onGround = hit && dy > 0;
    if (hit) ch.vy = 0;
    if (ch.onGround) ch.coyote = COYOTE_TICKS;
    else if (wasGround && ch.vy >= 0) ch.coyote = COYOTE_TICKS - 1;
    else if (ch.coyote > 0) ch.coyote--;
    // Levers flip when walked into from the side: rightwards turns one on, leftwards off.
    const moved = ch.x - x0;
    this.info.levers.forEach((l, k) => {
      if (!overlap(ch, l)) return;
      if (moved > 0 && !this.levers[k]) this.levers[k] = true;
      else if (moved < 0 && this.levers[k]) this.levers[k] = false;
    });
  };

  Core.prototype.stepBoxes = function () {
    for (const box of this.boxes) {
      box.vy = Math.min(box.vy + GRAVITY * DT, MAX_FALL);
      const dy = box.vy * DT;
      const hit = this.moveAxis(box, 0, dy, true);
      box.onGround = hit && dy > 0;
      if (hit) box.vy = 0;
    }
  };

  Core.prototype.interact = function () {
    const info = this.info;
    for (const name of ROLES) {
      const ch = this.chars[name];
      if (!ch.alive) continue;
      info.gems.forEach((g, i) => {
        if (!this.taken[i] && g.kind === GEM_OF[name] && overlap(ch, g)) {
          this.taken[i] = true;
          ch.collected++;
        }
      });
      // `ghost` (set only on the oracle's look-ahead clones) cannot die: its partner plans alone.
      for (const p of info.pools) {
        if (name !== this.ghost && KILLS[name][p.kind] && overlap(ch, p)) {
          ch.alive = false;
          this.status = "terminal";
          this.outcome = "fail";
          this.reason = name + "_died";
          return;
        }
      }
      const d = info.doors[name];
      ch.atDoor = !!d && ch.onGround && ch.x >= d.x && ch.x + ch.w <= d.x + d.w &&
        Math.abs(ch.y + ch.h - (d.y + d.h)) < 1;
    }
    if (this.chars.fireboy.atDoor && this.chars.watergirl.atDoor) {
      this.doorTicks++;
      if (this.doorTicks >= DOOR_TICKS) {
        this.status = "terminal";
        this.outcome = "success";
        this.reason = "level_complete";
      }
    } else {
      this.doorTicks = 0;
    }
  };

  // input = {watergirl: {left, right, jump}, fireboy: {...}}; jump is a pressed edge.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status === "terminal") return;
    this.playTicks++;
    this.stepLifts();
    for (const name of ROLES) this.stepChar(name, (input && input[name]) || {});
    this.stepBoxes();
    this.interact();
  };

  Core.prototype.diamonds = function () {
    const out = {};
    for (const name of ROLES) out[name] = { collected: this.chars[name].collected, total: this.info.totals[name] };
    return out;
  };

  Core.prototype.charState = function (name) {
    const ch = this.chars[name];
    const d = this.info.doors[name];
    const cx = ch.x + ch.w / 2;
    const cy = ch.y + ch.h / 2;
    const dist = d ? Math.hypot(cx - (d.x + d.w / 2), cy - (d.y + d.h / 2)) : 0;
    return {
      x: cx, y: cy, vx: ch.vx, vy: ch.vy, on_ground: ch.onGround, alive: ch.alive,
      at_door: ch.atDoor, distance_to_door: Math.round(dist * 10) / 10,
    };
  };

  Core.prototype.snapshot = function () {
    const info = this.info;
    const dia = this.diamonds();
    const got = dia.fireboy.collected + dia.watergirl.collected;
    const total = dia.fireboy.total + dia.watergirl.total;
    const mechanisms = [];
    info.buttons.forEach((b) => mechanisms.push({
      id: "button_" + b.id, type: "button", lift: b.lift, state: this.buttonPressed(b) ? "pressed" : "up",
      x: b.x + b.w / 2, y: b.floorY,
    }));
    info.levers.forEach((l, k) => mechanisms.push({
      id: "lever_" + l.id, type: "lever", lift: l.lift, state: this.levers[k] ? "on" : "off",
      x: l.x + l.w / 2, y: l.y + l.h,
    }));
    this.lifts.forEach((l, i) => {
      const spec = info.lifts[i];
      const up = rowTop(spec.up);
      const down = rowTop(spec.down);
      mechanisms.push({
        id: spec.id, type: "lift", state: l.y === up ? "up" : l.y === down ? "down" : "moving",
        x: l.x + l.w / 2, y: l.y, width: l.w, top_y: up, bottom_y: down,
      });
    });
    const gems = [];
    info.gems.forEach((g, i) => {
      if (!this.taken[i]) gems.push({ color: g.kind === "r" ? "red" : "blue", x: g.x + g.w / 2, y: g.y + g.h / 2 });
    });
    return {
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: got,
      level: this.level,
      completion_progress: total ? got / total : 0,
      diamonds: dia,
      fireboy: this.charState("fireboy"),
      watergirl: this.charState("watergirl"),
      mechanisms: mechanisms,
      boxes: this.boxes.map((b) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 })),
      gems_left: gems.slice(0, 30),
      doors: {
        fireboy: info.doors.fireboy ? { x: info.doors.fireboy.x + 24, y: info.doors.fireboy.y + 64 } : null,
        watergirl: info.doors.watergirl ? { x: info.doors.watergirl.x + 24, y: info.doors.watergirl.y + 64 } : null,
      },
      deaths: this.outcome === "fail" ? 1 : 0,
      time_s: Math.round(this.playTicks / TICK_HZ * 100) / 100,
      ticks: this.totalTicks,
    };
  };

  // Cheap fingerprint of everything drawn, so frames that change nothing are not redrawn.
  Core.prototype.drawKey = function () {
    const parts = [this.status, this.doorTicks > 0, this.taken.join(), this.levers.join()];
    for (const n of ROLES) {
      const c = this.chars[n];
      parts.push(c.x.toFixed(1), c.y.toFixed(1), c.vx, c.alive, c.atDoor);
    }
    for (const l of this.lifts) parts.push(l.y.toFixed(1));
    for (const b of this.boxes) parts.push(b.x.toFixed(1), b.y.toFixed(1));
    this.info.buttons.forEach((b) => parts.push(this.buttonPressed(b)));
    return parts.join("|");
  };

  // ---------------------------------------------------------------------------
  // Keyboard: one queue; each character reads only its own keys, so holding d
  // never blocks an arrow. Consumed at the start of each tick.
  // ---------------------------------------------------------------------------
  const KEYMAP = {
    watergirl: { left: "a", right: "d", jump: "w" },
    fireboy: { left: "ArrowLeft", right: "ArrowRight", jump: "ArrowUp" },
  };
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: ["a", "d", "w", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", " ", "Enter"],
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  function consumeInput() {
    const { pressed, down: held } = keys.take();
    for (const k of pressed) held.add(k);   // a tap counts as held for one tick
    const out = {};
    for (const name of ROLES) {
      const m = KEYMAP[name];
      out[name] = { left: held.has(m.left), right: held.has(m.right), jump: pressed.has(m.jump) };
    }
    return out;
  }

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");

  const COLORS = {
    bg: "#24221d",
    bgBrick: "#2e2b24",
    stone: "#6b6450",
    stoneTop: "#8d8468",
    stoneDark: "#4a4536",
    lava: "#FF5722", lavaTop: "#FFB74D",
    water: "#1E88E5", waterTop: "#90CAF9",
    goo: "#43A047", gooTop: "#B9F6CA",
    fire: "#E53935", fireDark: "#7f1010", flame: "#FFA726", flameTip: "#FFEB3B",
    aqua: "#2D7DF6", aquaDark: "#0d2f6b", drop: "#81D4FA",
    gemRed: "#FF1744", gemRedRim: "#6d0010", gemBlue: "#40C4FF", gemBlueRim: "#01406b",
    box: "#9c7046", boxDark: "#5d3f22",
    yellow: "#FDD835", purple: "#AB47BC",
    metal: "#9e9e9e", metalDark: "#555",
  };
  const POOL_COLORS = {
    L: [COLORS.lava, COLORS.lavaTop], A: [COLORS.water, COLORS.waterTop], G: [COLORS.goo, COLORS.gooTop],
  };

  function textOutlined(str, x, y, font, align, fill) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#111";
    ctx.strokeText(str, x, y);
    ctx.fillStyle = fill || "#fff";
    ctx.fillText(str, x, y);
  }

  function flameShape(g, cx, y, w, h) {
    g.beginPath();
    g.moveTo(cx - w / 2, y + h);
    g.quadraticCurveTo(cx - w / 2, y + h * 0.4, cx - w * 0.25, y + h * 0.2);
    g.lineTo(cx - w * 0.1, y + h * 0.45);
    g.lineTo(cx, y);
    g.lineTo(cx + w * 0.15, y + h * 0.4);
    g.lineTo(cx + w * 0.3, y + h * 0.15);
    g.quadraticCurveTo(cx + w / 2, y + h * 0.45, cx + w / 2, y + h);
    g.closePath();
  }

  function dropShape(g, cx, y, w, h) {
    g.beginPath();
    g.moveTo(cx, y);
    g.bezierCurveTo(cx + w * 0.2, y + h * 0.3, cx + w / 2, y + h * 0.5, cx + w / 2, y + h * 0.7);
    g.arc(cx, y + h * 0.7, w / 2, 0, Math.PI);
    g.bezierCurveTo(cx - w / 2, y + h * 0.5, cx - w * 0.2, y + h * 0.3, cx, y);
    g.closePath();
  }

  // The temple: background bricks, stone tiles, pools and door frames, drawn once per level.
  const templeCache = {};
  function templeImage(level) {
    if (templeCache[level]) return templeCache[level];
    const info = levelInfo(level);
    const cv = document.createElement("canvas");
    cv.width = W;
    cv.height = H;
    const g = cv.getContext("2d");
    g.fillStyle = COLORS.bg;
    g.fillRect(0, 0, W, H);
    g.strokeStyle = COLORS.bgBrick;
    g.lineWidth = 2;
    for (let y = TOP; y < H; y += 24) {
      g.beginPath(); g.moveTo(0, y); g.lineTo(W, y); g.stroke();
      const off = ((y - TOP) / 24) % 2 ? 24 : 0;
      for (let x = off; x < W; x += 48) { g.beginPath(); g.moveTo(x, y); g.lineTo(x, y + 24); g.stroke(); }
    }
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        if (!solidTile(info, c, r)) continue;
        const x = c * TILE;
        const y = rowTop(r);
        g.fillStyle = COLORS.stone;
        g.fillRect(x, y, TILE, TILE);
        g.fillStyle = COLORS.stoneDark;
        g.fillRect(x, y + TILE - 3, TILE, 3);
        g.fillRect(x + TILE - 3, y, 3, TILE);
        if (r > 0 && !solidTile(info, c, r - 1)) {
          g.fillStyle = COLORS.stoneTop;
          g.fillRect(x, y, TILE, 5);
        }
      }
    }
    for (const p of info.pools) {
      // A basin cut into the floor, filled to 2 px under the floor line; the
      // filled area is exactly the hitbox, and the feet of a character in it sink in.
      const [body, top] = POOL_COLORS[p.kind];
      const floorY = rowTop(p.row);
      g.fillStyle = COLORS.stoneDark;
      g.fillRect(p.x - 3, floorY, p.w + 6, POOL_DEPTH + 12);
      g.fillStyle = body;
      g.fillRect(p.x, p.y, p.w, POOL_DEPTH + 8);
      g.fillStyle = top;
      g.beginPath();
      g.moveTo(p.x, p.y + 5);
      for (let x = p.x; x <= p.x + p.w; x += 8) g.quadraticCurveTo(x + 2, p.y - 1, x + 4, p.y + 2);
      g.lineTo(p.x + p.w, p.y + 5);
      g.closePath();
      g.fill();
      g.fillRect(p.x, p.y, p.w, 2);
      g.fillStyle = "rgba(255,255,255,0.45)";
      for (let x = p.x + 7; x < p.x + p.w - 4; x += 19) g.fillRect(x, p.y + 8 + (x % 3) * 2, 5, 3);
    }
    for (const name of ROLES) {
      const d = info.doors[name];
      if (!d) continue;
      const fire = name === "fireboy";
      g.fillStyle = fire ? "#b71c1c" : "#0d47a1";
      g.fillRect(d.x, d.y, d.w, d.h);
      g.fillStyle = fire ? "#4a0a0a" : "#06204a";
      g.fillRect(d.x + 6, d.y + 8, d.w - 12, d.h - 8);
      g.strokeStyle = "#fff";
      g.lineWidth = 2;
      g.strokeRect(d.x, d.y, d.w, d.h);
      g.fillStyle = fire ? COLORS.flame : COLORS.drop;
      if (fire) flameShape(g, d.x + d.w / 2, d.y + 18, 18, 26);
      else dropShape(g, d.x + d.w / 2, d.y + 18, 18, 26);
      g.fill();
    }
    templeCache[level] = cv;
    return cv;
  }

  function drawGem(g, red) {
    const x = g.x;
    const y = g.y;
    const cx = g.x + g.w / 2;
    ctx.fillStyle = red ? COLORS.gemRed : COLORS.gemBlue;
    ctx.strokeStyle = red ? COLORS.gemRedRim : COLORS.gemBlueRim;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.moveTo(cx, y - 2);
    ctx.lineTo(x + g.w + 2, y + 8);
    ctx.lineTo(cx, y + g.h + 3);
    ctx.lineTo(x - 2, y + 8);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.beginPath();
    ctx.moveTo(cx - 3, y + 3);
    ctx.lineTo(cx + 2, y + 3);
    ctx.lineTo(cx - 4, y + 10);
    ctx.closePath();
    ctx.fill();
  }

  function drawGems(c) {
    c.info.gems.forEach((g, i) => {
      if (!c.taken[i]) drawGem(g, g.kind === "r");
    });
  }

  function liftColour(id, info) {
    const l = info.lifts.find((x) => x.id === id);
    return COLORS[l ? l.colour : "purple"];
  }

  function drawMechanisms(c) {
    const info = c.info;
    c.lifts.forEach((l, i) => {
      ctx.fillStyle = COLORS.metal;
      ctx.fillRect(l.x, l.y, l.w, l.h);
      ctx.fillStyle = COLORS[info.lifts[i].colour];
      ctx.fillRect(l.x + 4, l.y + 4, l.w - 8, l.h - 8);
      ctx.strokeStyle = COLORS.metalDark;
      ctx.lineWidth = 2;
      ctx.strokeRect(l.x + 1, l.y + 1, l.w - 2, l.h - 2);
    });
    for (const b of info.buttons) {
      // a dark base plate with a coloured cap that sinks while held
      const cap = c.buttonPressed(b) ? 3 : 9;
      ctx.fillStyle = COLORS.metalDark;
      ctx.fillRect(b.x - 3, b.floorY - 4, b.w + 6, 4);
      ctx.fillStyle = liftColour(b.lift, info);
      ctx.fillRect(b.x + 2, b.floorY - 4 - cap, b.w - 4, cap);
      ctx.strokeStyle = "#111";
      ctx.lineWidth = 1.5;
      ctx.strokeRect(b.x + 2, b.floorY - 4 - cap, b.w - 4, cap);
    }
    info.levers.forEach((l, k) => {
      const on = c.levers[k];
      const bx = l.x + l.w / 2;
      const by = l.y + l.h;
      ctx.strokeStyle = "#ddd";
      ctx.lineWidth = 5;
      ctx.beginPath();
      ctx.moveTo(bx, by - 4);
      ctx.lineTo(bx + (on ? 14 : -14), by - 26);
      ctx.stroke();
      ctx.fillStyle = liftColour(l.lift, info);
      ctx.beginPath();
      ctx.arc(bx + (on ? 14 : -14), by - 26, 7, 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = "#111";
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.fillStyle = COLORS.metalDark;
      ctx.fillRect(l.x - 2, by - 8, l.w + 4, 8);
    });
    for (const b of c.boxes) {
      ctx.fillStyle = COLORS.box;
      ctx.fillRect(b.x, b.y, b.w, b.h);
      ctx.strokeStyle = COLORS.boxDark;
      ctx.lineWidth = 3;
      ctx.strokeRect(b.x + 1.5, b.y + 1.5, b.w - 3, b.h - 3);
      ctx.beginPath();
      ctx.moveTo(b.x + 3, b.y + 3); ctx.lineTo(b.x + b.w - 3, b.y + b.h - 3);
      ctx.moveTo(b.x + b.w - 3, b.y + 3); ctx.lineTo(b.x + 3, b.y + b.h - 3);
      ctx.stroke();
    }
  }

  function drawDoorGlow(c) {
    for (const name of ROLES) {
      const d = c.info.doors[name];
      if (!d || !c.chars[name].atDoor) continue;
      ctx.strokeStyle = "#fff59d";
      ctx.lineWidth = 4;
      ctx.strokeRect(d.x - 3, d.y - 3, d.w + 6, d.h + 6);
    }
  }

  function drawChar(c, name) {
    const ch = c.chars[name];
    if (!ch.alive) return;
    const fire = name === "fireboy";
    const x = ch.x;
    const y = ch.y;
    const cx = x + ch.w / 2;
    // body: the lower 24 px of the 28x40 box, head above it
    ctx.fillStyle = fire ? COLORS.fire : COLORS.aqua;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.rect(x + 4, y + 20, ch.w - 8, 20);
    ctx.fill();
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx, y + 16, 11, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    // hair: a flame or a water drop rising from the head
    ctx.fillStyle = fire ? COLORS.flame : COLORS.drop;
    if (fire) flameShape(ctx, cx + 2, y - 8, 18, 18);
    else dropShape(ctx, cx - 3, y - 8, 16, 18);
    ctx.fill();
    ctx.strokeStyle = fire ? COLORS.fireDark : COLORS.aquaDark;
    ctx.lineWidth = 1.5;
    ctx.stroke();
    // eyes look where the character walks
    const look = ch.vx > 0 ? 2 : ch.vx < 0 ? -2 : 0;
    ctx.fillStyle = "#fff";
    ctx.fillRect(cx - 7 + look, y + 12, 5, 7);
    ctx.fillRect(cx + 2 + look, y + 12, 5, 7);
    ctx.fillStyle = "#111";
    ctx.fillRect(cx - 5 + look, y + 14, 2, 4);
    ctx.fillRect(cx + 4 + look, y + 14, 2, 4);
  }

  function hudGem(x, y, red) {
    drawGem({ x: x, y: y, w: 18, h: 18 }, red);
  }

  function drawHud(c) {
    ctx.fillStyle = "rgba(0,0,0,0.75)";
    ctx.fillRect(0, 0, W, HUD_H);
    textOutlined("Fireboy & Watergirl", 16, HUD_H / 2, "bold 26px sans-serif", "left");
    textOutlined("Level " + c.level, 300, HUD_H / 2 + 1, "20px sans-serif", "left");
    const d = c.diamonds();
    const got = d.fireboy.collected + d.watergirl.collected;
    textOutlined("Diamonds " + got + "/" + (d.fireboy.total + d.watergirl.total), W / 2, HUD_H / 2,
      "bold 28px sans-serif", "center");
    hudGem(W - 372, 17, true);
    textOutlined("Fireboy " + d.fireboy.collected + "/" + d.fireboy.total, W - 348, HUD_H / 2,
      "bold 20px sans-serif", "left");
    hudGem(W - 190, 17, false);
    textOutlined("Watergirl " + d.watergirl.collected + "/" + d.watergirl.total, W - 166, HUD_H / 2,
      "bold 20px sans-serif", "left");
  }

  function drawOverlay(c) {
    if (c.status !== "terminal") return;
    const lines = c.outcome === "success"
      ? ["LEVEL COMPLETE"]
      : ["GAME OVER \u2013 " + c.reason];
    const pw = 620;
    const ph = 140;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.65)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    textOutlined(lines[0], W / 2, py + 50, "bold 36px sans-serif", "center");
    textOutlined("Press Enter to play again", W / 2, py + 100, "20px sans-serif", "center");
  }

  let lastKey = null;
  function render(force) {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    const key = core.drawKey() + "|" + ep.attempts;
    if (!force && key === lastKey) return;
    lastKey = key;
    ctx.drawImage(templeImage(core.level), 0, 0);
    drawDoorGlow(core);
    drawGems(core);
    drawMechanisms(core);
    drawChar(core, "watergirl");
    drawChar(core, "fireboy");
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;

  function runTick() {
    const inp = consumeInput();
    if (!core || core.status === "terminal") return;   // input ignored until reset
    core.tick(inp);
  }

  // A backlog is dropped rather than spiral.
  const loop = Shell.loop({ tickMs: TICK_MS, tick: runTick, render: () => render(false) });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  function normLevel(l) {
    const n = Number(l);
    return Number.isInteger(n) && n >= 1 && n <= LAST_LEVEL ? n : 1;
  }

  // No randomness: the seed changes nothing.
  const ep = Shell.episodes({
    pickLevel: normLevel,
    start(seed, level) {
      keys.clear();
      core = createCore(level);
      render(true);
    },
  });

  const api = {
    capabilities: {
      supports_seed: false,
      supports_inplace_reset: true,
      supports_level_select: true,
    },

    init: ep.init,
    reset: ep.reset,

    getState() {
      const c = core || createCore(ep.level);
      const s = c.snapshot();
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),   // the harness's virtual clock
        gameTimeMs: s.gameTimeMs,
        status: core ? s.status : "loading",
        terminal: s.terminal,
        game_state: {
          score: s.score,
          level: s.level,
          completion_progress: s.completion_progress,
          diamonds: s.diamonds,
          fireboy: s.fireboy,
          watergirl: s.watergirl,
          player: s.watergirl,
          mechanisms: s.mechanisms,
          boxes: s.boxes,
          gems_left: s.gems_left,
          doors: s.doors,
        },
        metrics: {
          primary_score: s.score,
          fireboy_diamonds: s.diamonds.fireboy.collected,
          watergirl_diamonds: s.diamonds.watergirl.collected,
          deaths: s.deaths,
          time_s: s.time_s,
          attempts: ep.attempts,
        },
        raw: { ticks: s.ticks, tile_px: TILE, play_top_y: TOP, char_size: [CHAR_W, CHAR_H] },
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(true), loop });
})();
