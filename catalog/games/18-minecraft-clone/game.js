// Minecraft Clone for pytest-gameworld: a first-person block world, mined by holding the mouse.
//
// Layout of this file:
//   1. constants and helpers (hash, PRNG, blocks)                    - pure
//   2. world generation (value-noise terrain, trees, a cliff, buried iron) - pure, deterministic retry
//   3. createCore(seed, level): the simulation                        - pure, no DOM, no clock
//   4. renderer: per-pixel voxel DDA at 320x180, scaled x4; overlays at full size
//   5. browser shell: input queue, fixed-tick rAF loop, window.gameAPI
//
// The core consumes plain input events (keys, mouse moves and buttons in canvas
// pixels) once per 1/60 s tick, so a run is a pure function of (seed, level,
// events per tick). The oracle clones the core through window.__gwCore and
// feeds it the same events the harness would send.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "18-minecraft-clone";
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;
  const TICK_MS = 1000 / TICK_HZ;

  const W = 1280;
  const H = 720;
  const HUD_H = 56;
  const CX = W / 2;                // crosshair / re-centring point
  const CY = H / 2;

  const SX = 48;                   // world size in blocks (x, z) and height (y)
  const SZ = 48;
  const SY = 32;
  const LAYER = SX * SZ;

  const EYE = 1.6;
  const HALF_W = 0.3;              // player half width
  const HEIGHT = 1.8;
  const WALK = 4.3;                // blocks/s
  const GRAVITY = 32;              // blocks/s^2
  const JUMP_V = Math.sqrt(2 * GRAVITY * 1.25);   // a 1.25-block jump
  const MAX_FALL = 30;
  const REACH = 5;
  const PX_PER_DEG = 5;            // 0.2 degrees per pixel of mouse travel
  const PITCH_MAX_PX = 89 * PX_PER_DEG;
  const RECENTRE_PX = 4;
  const REST_TICKS = 6;            // a pointer still for 0.1 s counts as re-centred (harness mode)
  const DRAG_PX = 8;
  const SHORT_CLICK_TICKS = 9;     // 0.15 s
  const JUMP_BUFFER_TICKS = 6;
  const EPS = 1e-4;

  // Block ids. Items are named as upstream's inventory paths.
  const AIR = 0, GRASS = 1, DIRT = 2, STONE = 3, LOG = 4, LEAVES = 5, IRON = 6, BEDROCK = 7;
  const ITEM_OF = [null, "dirt", "dirt", "stone", "wood_log", "leaves", "iron_ore", null];
  const BLOCK_OF_ITEM = { dirt: DIRT, stone: STONE, wood_log: LOG, leaves: LEAVES, iron_ore: IRON };
  const ITEMS = ["dirt", "wood_log", "leaves", "stone", "iron_ore"];
  // Accelerated "benchmark" break times in ticks: 0.15, 0.25, 0.45, 0.6 s.
  const BREAK_TICKS = [0, 15, 15, 27, 27, 9, 36, Infinity];
  const STACK = 64;

  const KEY_DIR = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

  const { hash32, makeRng, nextRandom } = window.GameShell;  // seeded randomness (catalog/games/_shell)
  function randInt(rng, n) {
    return Math.floor(nextRandom(rng) * n);
  }

  function blockIndex(x, y, z) {
    return x + SX * (z + SZ * y);
  }

  // Voxel walk (Amanatides-Woo) from a point along a unit direction up to
  // `reach`; calls visit(idx, type, dist, face) for each non-air block until
  // it returns false. face: 0..5 = west, east, bottom, top, north, south
  // (the side of the block the ray entered through).
  function walkRay(blocks, ox, oy, oz, dx, dy, dz, reach, visit) {
    let x = Math.floor(ox), y = Math.floor(oy), z = Math.floor(oz);
    const stepX = dx > 0 ? 1 : -1, stepY = dy > 0 ? 1 : -1, stepZ = dz > 0 ? 1 : -1;
    const tdx = dx !== 0 ? Math.abs(1 / dx) : Infinity;
    const tdy = dy !== 0 ? Math.abs(1 / dy) : Infinity;
    const tdz = dz !== 0 ? Math.abs(1 / dz) : Infinity;
    let tmx = dx !== 0 ? (dx > 0 ? x + 1 - ox : ox - x) * tdx : Infinity;
    let tmy = dy !== 0 ? (dy > 0 ? y + 1 - oy : oy - y) * tdy : Infinity;
    let tmz = dz !== 0 ? (dz > 0 ? z + 1 - oz : oz - z) * tdz : Infinity;
    let t = 0;
    let face = -1;
    // The start cell holds the eye (air); the walk looks at the cells after it.
    for (let n = 0; n < 64; n++) {
      if (tmx < tmy && tmx < tmz) {
        x += stepX; t = tmx; tmx += tdx; face = stepX > 0 ? 0 : 1;
      } else if (tmy < tmz) {
        y += stepY; t = tmy; tmy += tdy; face = stepY > 0 ? 2 : 3;
      } else {
        z += stepZ; t = tmz; tmz += tdz; face = stepZ > 0 ? 4 : 5;
      }
      if (t > reach) return;
      if (x < 0 || x >= SX || z < 0 || z >= SZ || y < 0 || y >= SY) return;
      const idx = blockIndex(x, y, z);
      const type = blocks[idx];
      if (type !== AIR && visit(idx, type, t, face) === false) return;
    }
  }
  const FACE_NAMES = ["west", "east", "bottom", "top", "north", "south"];
  const FACE_NORMALS = [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]];

  // Look direction for a pose in mouse pixels: yaw 0 faces north (-z), yaw
  // grows clockwise seen from above (east = 90), pitch up is positive.
  function lookDir(yawPx, pitchPx) {
    const yaw = (yawPx / PX_PER_DEG) * Math.PI / 180;
    const pitch = (pitchPx / PX_PER_DEG) * Math.PI / 180;
    const cp = Math.cos(pitch);
    return [Math.sin(yaw) * cp, Math.sin(pitch), -Math.cos(yaw) * cp];
  }

  // ----------------------------------------------------------- 2. world
  // Two-octave value noise on lattices of 16 and 8 blocks, smoothstepped.
  function valueNoise(rng) {
    const octaves = [{ cell: 16, weight: 0.65 }, { cell: 8, weight: 0.35 }].map((o) => {
      const n = SX / o.cell + 2;
      const v = new Float64Array(n * n);
      for (let i = 0; i < v.length; i++) v[i] = nextRandom(rng);
      return { cell: o.cell, weight: o.weight, n, v };
    });
    const smooth = (t) => t * t * (3 - 2 * t);
    return (x, z) => {
      let sum = 0;
      for (const o of octaves) {
        const gx = x / o.cell, gz = z / o.cell;
        const ix = Math.floor(gx), iz = Math.floor(gz);
        const fx = smooth(gx - ix), fz = smooth(gz - iz);
        const at = (a, b) => o.v[b * o.n + a];
        const top = at(ix, iz) + (at(ix + 1, iz) - at(ix, iz)) * fx;
        const bot = at(ix, iz + 1) + (at(ix + 1, iz + 1) - at(ix, iz + 1)) * fx;
        sum += o.weight * (top + (bot - top) * fz);
      }
      return sum;
    };
  }

  const SPAWN_X = 24, SPAWN_Z = 24;
  const FRONT_TREE_Z = SPAWN_Z - 4;  // 4 blocks north, in front of the spawn view
  const CLIFF_DEPTH = 8;
  const CLIFF_HALF = 4;              // the cliff spans zc - CLIFF_HALF .. zc + CLIFF_HALF
  // The buried iron's pocket: blocks behind the cliff face (D) and heights
  // above the strip's ground (Y).
  const POCKET_D0 = 4, POCKET_D1 = 5, POCKET_Y0 = -1, POCKET_Y1 = 2;
  const POCKET_ORE = 8;

  function plantTree(blocks, heights, x, z, trunk, rng) {
    const base = heights[z * SX + x] + 1;
    blocks[blockIndex(x, base - 1, z)] = DIRT;
    const top = base + trunk - 1;
    const leaf = (lx, ly, lz) => {
      if (lx < 0 || lx >= SX || lz < 0 || lz >= SZ || ly >= SY) return;
      const i = blockIndex(lx, ly, lz);
      if (blocks[i] === AIR) blocks[i] = LEAVES;
    };
    for (let y = top - 2; y <= top + 1; y++) {
      const r = y <= top - 1 ? 2 : 1;
      for (let dz = -r; dz <= r; dz++) {
        for (let dx = -r; dx <= r; dx++) {
          const corner = Math.abs(dx) === r && Math.abs(dz) === r;
          if (corner && (y === top + 1 || nextRandom(rng) < 0.5)) continue;
          leaf(x + dx, y, z + dz);
        }
      }
    }
    for (let y = base; y <= top; y++) blocks[blockIndex(x, y, z)] = LOG;
    return { x, z, base, logs: trunk };
  }

  // True when every iron block has solid ground (or the world's edge) at all
  // cells within two steps: at least two blocks to dig through to reach it.
  function oreCovered(blocks) {
    for (let i = 0; i < blocks.length; i++) {
      if (blocks[i] !== IRON) continue;
      const x = i % SX, z = Math.floor(i / SX) % SZ, y = Math.floor(i / LAYER);
      for (let dy = -2; dy <= 2; dy++) {
        for (let dz = -2; dz <= 2; dz++) {
          for (let dx = -2; dx <= 2; dx++) {
            if (Math.abs(dx) + Math.abs(dy) + Math.abs(dz) > 2) continue;
            const ax = x + dx, ay = y + dy, az = z + dz;
            if (ax < 0 || ax >= SX || az < 0 || az >= SZ || ay < 0) continue;
            if (ay >= SY || blocks[blockIndex(ax, ay, az)] === AIR) return false;
          }
        }
      }
    }
    return true;
  }

  function buildWorld(seed, level) {
    for (let k = 0; ; k++) {
      const world = tryWorld(seed, level, k);
      if (world.ok || k >= 200) {
        world.subSeed = k;
        return world;
      }
    }
  }

  function tryWorld(seed, level, k) {
    const rng = makeRng(hash32(GAME_ID, seed, level, "world", k));
    const noise = valueNoise(rng);
    const heights = new Int32Array(LAYER);
    for (let z = 0; z < SZ; z++) {
      for (let x = 0; x < SX; x++) heights[z * SX + x] = 8 + Math.round(5 * noise(x, z));
    }
    const hs = heights[SPAWN_Z * SX + SPAWN_X];
    // A level lane from the spawn to the front tree, eased into its surroundings.
    for (let z = FRONT_TREE_Z - 2; z <= SPAWN_Z + 2; z++) {
      for (let x = SPAWN_X - 2; x <= SPAWN_X + 2; x++) {
        const inner = Math.abs(x - SPAWN_X) <= 1 && z >= FRONT_TREE_Z - 1 && z <= SPAWN_Z + 1;
        const i = z * SX + x;
        heights[i] = inner ? hs : Math.round((heights[i] + hs) / 2);
      }
    }
    // The cliff: a bare stone block 8 deep and 9 wide whose face looks back at
    // the spawn across a flat strip 3 blocks deep, on the left or right. Its
    // size leaves room for a pocket of iron with stone all round (below).
    const side = nextRandom(rng) < 0.5 ? -1 : 1;
    const dist = 5 + randInt(rng, 2);
    const cliffH = 4 + randInt(rng, 2);
    const zc = FRONT_TREE_Z + randInt(rng, 3);
    const faceX = SPAWN_X + side * dist;
    const cliffCols = [];
    for (let z = zc - CLIFF_HALF; z <= zc + CLIFF_HALF; z++) {
      for (let d = -3; d <= CLIFF_DEPTH - 1; d++) {
        const x = faceX + side * d;
        if (d < 0) heights[z * SX + x] = hs;              // the flat strip in front
        else cliffCols.push([x, z]);
      }
    }
    const blocks = new Uint8Array(LAYER * SY);
    for (let z = 0; z < SZ; z++) {
      for (let x = 0; x < SX; x++) {
        const h = heights[z * SX + x];
        blocks[blockIndex(x, 0, z)] = BEDROCK;
        for (let y = 1; y <= h; y++) blocks[blockIndex(x, y, z)] = y === h ? GRASS : y >= h - 3 ? DIRT : STONE;
      }
    }
    const cliffTop = hs + cliffH;
    for (const [x, z] of cliffCols) {
      for (let y = 1; y <= cliffTop; y++) blocks[blockIndex(x, y, z)] = STONE;
      heights[z * SX + x] = cliffTop;
    }
    // Ore veins of 2-4 blocks in the stone underground.
    for (let v = 0; v < 40; v++) {
      let x = randInt(rng, SX), z = randInt(rng, SZ), y = 1 + randInt(rng, 6);
      const len = 2 + randInt(rng, 3);
      for (let n = 0; n < len; n++) {
        const i = blockIndex(x, y, z);
        if (blocks[i] === STONE) blocks[i] = IRON;
        const a = randInt(rng, 3);
        if (a === 0) x = Math.max(0, Math.min(SX - 1, x + (randInt(rng, 2) ? 1 : -1)));
        else if (a === 1) z = Math.max(0, Math.min(SZ - 1, z + (randInt(rng, 2) ? 1 : -1)));
        else y = Math.max(1, Math.min(6, y + (randInt(rng, 2) ? 1 : -1)));
      }
    }
    // Iron used to show on the cliff face. Those veins are gone, but their
    // draws are still taken so that the trees drawn next stay where they were.
    const oldFace = new Set();
    for (let v = 0; v < 12 && oldFace.size < 8; v++) {
      let z = zc - 3 + randInt(rng, 7), y = hs + 1 + randInt(rng, cliffH);
      const len = 2 + randInt(rng, 3);
      for (let n = 0; n < len; n++) {
        oldFace.add(y * SZ + z);
        if (randInt(rng, 2)) z = Math.max(zc - 3, Math.min(zc + 3, z + (randInt(rng, 2) ? 1 : -1)));
        else y = Math.max(hs + 1, Math.min(cliffTop, y + (randInt(rng, 2) ? 1 : -1)));
      }
    }
    // Buried iron (the original sends the player underground for it): veins
    // of 2-4 in a pocket 4-5 blocks behind the face, from one below the
    // strip's ground to two above it and at least two blocks in from the
    // cliff's sides, top and back. No ore touches air; a tunnel of four
    // blocks from the strip reaches the pocket. A vein keeps a block of stone
    // from the others, so each vein is a dig of its own. Own random stream,
    // so the trees drawn next stay put.
    const oreRng = makeRng(hash32(GAME_ID, seed, level, "iron", k));
    const veinAt = new Map();          // block index -> vein number
    const fits = (x, y, z, v) => {
      const d = (x - faceX) * side;
      if (d < POCKET_D0 || d > POCKET_D1 || y < hs + POCKET_Y0 || y > hs + POCKET_Y1 || Math.abs(z - zc) > CLIFF_HALF - 2) return false;
      for (const [ax, ay, az] of [[x, y, z], [x + 1, y, z], [x - 1, y, z], [x, y + 1, z], [x, y - 1, z], [x, y, z + 1], [x, y, z - 1]]) {
        const o = veinAt.get(blockIndex(ax, ay, az));
        if (o !== undefined && o !== v) return false;
      }
      return true;
    };
    let buried = 0;
    for (let v = 0; v < 60 && buried < POCKET_ORE; v++) {
      const x = faceX + side * (POCKET_D0 + randInt(oreRng, POCKET_D1 - POCKET_D0 + 1));
      const y = hs + POCKET_Y0 + randInt(oreRng, POCKET_Y1 - POCKET_Y0 + 1);
      const z = zc - CLIFF_HALF + 2 + randInt(oreRng, 2 * CLIFF_HALF - 3);
      const len = 2 + randInt(oreRng, 3);
      if (!fits(x, y, z, v)) continue;
      // grow from a random member of the vein to a random neighbour
      const cells = [[x, y, z]];
      veinAt.set(blockIndex(x, y, z), v);
      for (let t = 0; t < 12 && cells.length < len; t++) {
        const [cx, cy, cz] = cells[randInt(oreRng, cells.length)];
        const a = randInt(oreRng, 3), s = randInt(oreRng, 2) ? 1 : -1;
        const nx = a === 0 ? cx + s : cx, ny = a === 1 ? cy + s : cy, nz = a === 2 ? cz + s : cz;
        if (veinAt.get(blockIndex(nx, ny, nz)) === v || !fits(nx, ny, nz, v)) continue;
        cells.push([nx, ny, nz]);
        veinAt.set(blockIndex(nx, ny, nz), v);
      }
      if (cells.length < 2) {
        veinAt.delete(blockIndex(x, y, z));
        continue;
      }
      for (const [cx, cy, cz] of cells) blocks[blockIndex(cx, cy, cz)] = IRON;
      buried += cells.length;
    }
    // Trees: the one in front of the spawn, then scattered oaks away from the
    // spawn lane and the cliff (these bounds are the old 4 x 7 cliff's, kept so
    // most worlds keep their trees; none grows on the larger cliff's stone top).
    const trees = [plantTree(blocks, heights, SPAWN_X, FRONT_TREE_Z, 5 + randInt(rng, 2), rng)];
    const x0 = Math.min(faceX - 3 * side, faceX + 3 * side) - 2, x1 = Math.max(faceX - 3 * side, faceX + 3 * side) + 2;
    for (let n = 0; n < 90 && trees.length < 16; n++) {
      // the first candidates fall near the spawn, the rest anywhere
      const span = n < 50 ? 21 : SX - 6;
      const lo = n < 50 ? SPAWN_X - 10 : 3;
      const x = lo + randInt(rng, span), z = lo + randInt(rng, span);
      const trunk = 5 + randInt(rng, 2);
      if (x >= x0 && x <= x1 && z >= zc - 5 && z <= zc + 5) continue;
      if (Math.abs(x - SPAWN_X) <= 2 && z >= FRONT_TREE_Z - 3 && z <= SPAWN_Z + 3) continue;
      if (trees.some((t) => Math.max(Math.abs(t.x - x), Math.abs(t.z - z)) < 5)) continue;
      if (blocks[blockIndex(x, heights[z * SX + x], z)] !== GRASS) continue;
      trees.push(plantTree(blocks, heights, x, z, trunk, rng));
    }
    let maxY = 0;
    for (let i = 0; i < blocks.length; i++) if (blocks[i] !== AIR) maxY = Math.max(maxY, Math.floor(i / LAYER));
    const world = {
      blocks, maxY, trees, spawn: { x: SPAWN_X + 0.5, y: hs + 1, z: SPAWN_Z + 0.5 },
      cliff: { side, faceX, zc, height: cliffH, base: hs }, ok: false,
    };
    // Guarantees (docs/games.md 18, but for iron): the front tree fills the spawn
    // crosshair, three or more trees within 10 blocks, the cliff face shows
    // >= 20 stone within 8 blocks, >= POCKET_ORE iron lies in the pocket
    // behind it, and no iron anywhere has air within two blocks.
    let first = null;
    const dir = lookDir(0, 0);
    walkRay(blocks, world.spawn.x, world.spawn.y + EYE, world.spawn.z, dir[0], dir[1], dir[2], REACH, (idx, type) => {
      first = type;
      return false;
    });
    const near = trees.filter((t) => Math.hypot(t.x - SPAWN_X, t.z - SPAWN_Z) <= 10).length;
    let shownStone = 0;
    for (let z = zc - CLIFF_HALF; z <= zc + CLIFF_HALF; z++) {
      for (let y = hs + 1; y <= cliffTop; y++) {
        if (blocks[blockIndex(faceX - side, y, z)] !== AIR) continue;
        if (blocks[blockIndex(faceX, y, z)] === STONE) shownStone++;
      }
    }
    world.ok = first === LOG && near >= 5 && shownStone >= 20 && buried >= POCKET_ORE && oreCovered(blocks) && maxY < SY - 2;
    return world;
  }

  // Worlds are rebuilt on every reset; keep the last few to make that free.
  const worldCache = new Map();
  function worldFor(seed, level) {
    const key = seed + "|" + level;
    let w = worldCache.get(key);
    if (!w) {
      w = buildWorld(seed, level);
      if (worldCache.size > 4) worldCache.delete(worldCache.keys().next().value);
      worldCache.set(key, w);
    }
    return w;
  }

  // ----------------------------------------------------------- 3. core
  function Core() {}

  let recentreOnRest = true;

  function createCore(seed, level) {
    const world = worldFor(seed, level);
    const c = new Core();
    c.seed = seed;
    c.level = level;
    c.blocks = world.blocks.slice();
    c.maxY = world.maxY;
    c.subSeed = world.subSeed;
    // Runtime stream, reserved: nothing random happens at run time yet.
    c.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    c.x = world.spawn.x;
    c.y = world.spawn.y;
    c.z = world.spawn.z;
    c.vy = 0;
    c.onGround = true;
    c.yawPx = 0;
    c.pitchPx = 0;
    c.held = { up: false, down: false, left: false, right: false, jump: false };
    c.jumpBuffer = 0;
    // Mouse: last pointer position (canvas px) and the left-button press.
    c.ptrX = 0;
    c.ptrY = 0;
    c.hasPtr = false;
    c.restTicks = REST_TICKS;
    // Without pointer lock a script cannot put the pointer back at the
    // centre, so under the harness a resting pointer is treated as re-centred
    // (every look control then turns the same angle). Humans keep plain deltas.
    c.recentre = recentreOnRest;
    c.leftDown = false;
    c.pressTicks = 0;
    c.pressX = 0;
    c.pressY = 0;
    c.dragging = false;
    c.brokeInPress = false;
    c.miningIdx = -1;
    c.miningTicks = 0;
    c.slots = [null, null, null, null, null, null, null, null, null];
    c.selected = 0;
    c.gains = { dirt: 0, wood_log: 0, leaves: 0, stone: 0, iron_ore: 0 };
    c.blocksMined = 0;
    c.blocksPlaced = 0;
    c.placedCells = new Set();
    c.hotbarUsage = 0;
    c.lookChanges = 0;
    c.playTicks = 0;
    c.worldVersion = 0;
    c.invVersion = 0;
    c.status = "playing";
    c.updateTarget();
    return c;
  }

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.blocks = this.blocks.slice();
    c.runtimeRng = { s: this.runtimeRng.s };
    c.held = Object.assign({}, this.held);
    c.slots = this.slots.map((s) => (s ? { item: s.item, count: s.count } : null));
    c.gains = Object.assign({}, this.gains);
    c.placedCells = new Set(this.placedCells);
    c.target = this.target ? Object.assign({}, this.target) : null;
    return c;
  };

  Core.prototype.solidAt = function (x, y, z) {
    if (x < 0 || x >= SX || z < 0 || z >= SZ || y < 0) return true;
    if (y >= SY) return false;
    return this.blocks[blockIndex(x, y, z)] !== AIR;
  };

  // Does the player's box at (x, y, z) overlap a solid block?
  Core.prototype.boxHits = function (x, y, z) {
    const x0 = Math.floor(x - HALF_W + EPS), x1 = Math.floor(x + HALF_W - EPS);
    const y0 = Math.floor(y + EPS), y1 = Math.floor(y + HEIGHT - EPS);
    const z0 = Math.floor(z - HALF_W + EPS), z1 = Math.floor(z + HALF_W - EPS);
    for (let by = y0; by <= y1; by++) {
      for (let bz = z0; bz <= z1; bz++) {
        for (let bx = x0; bx <= x1; bx++) if (this.solidAt(bx, by, bz)) return true;
      }
    }
    return false;
  };

  // Move along one axis; on contact stop flush against the block. Returns true on contact.
  Core.prototype.moveAxis = function (axis, delta) {
    if (delta === 0) return false;
    const pos = { x: this.x, y: this.y, z: this.z };
    pos[axis] += delta;
    if (!this.boxHits(pos.x, pos.y, pos.z)) {
      this[axis] = pos[axis];
      return false;
    }
    const lo = axis === "y" ? 0 : -HALF_W;
    const hi = axis === "y" ? HEIGHT : HALF_W;
    this[axis] = delta > 0 ? Math.floor(this[axis] + hi + delta) - hi - EPS : Math.floor(this[axis] + lo + delta) + 1 - lo + EPS;
    if (this.boxHits(this.x, this.y, this.z)) this[axis] = pos[axis] - delta;   // never end inside a block
    return true;
  };

  Core.prototype.eye = function () {
    return [this.x, this.y + EYE, this.z];
  };

  // The crosshair's block within reach, with the face the ray entered through.
  Core.prototype.updateTarget = function () {
    const d = lookDir(this.yawPx, this.pitchPx);
    let hit = null;
    walkRay(this.blocks, this.x, this.y + EYE, this.z, d[0], d[1], d[2], REACH, (idx, type, dist, face) => {
      hit = { idx, type, dist, face };
      return false;
    });
    this.target = hit;
  };

  // Blocks along a pose's ray within reach, in order: [{idx, type, dist}] (for the oracle).
  Core.prototype.rayBlocks = function (yawPx, pitchPx) {
    const d = lookDir(yawPx, pitchPx);
    const out = [];
    walkRay(this.blocks, this.x, this.y + EYE, this.z, d[0], d[1], d[2], REACH, (idx, type, dist) => {
      out.push({ idx, type, dist });
      return type !== BEDROCK;
    });
    return out;
  };

  // A block the player placed comes back to the hotbar when mined but is not a
  // new gain: placing and re-mining one block must not count it over and over.
  Core.prototype.addItem = function (item, gained) {
    if (gained) this.gains[item]++;
    let slot = this.slots.findIndex((s) => s && s.item === item && s.count < STACK);
    if (slot < 0) slot = this.slots.indexOf(null);
    if (slot >= 0) {
      if (this.slots[slot]) this.slots[slot].count++;
      else this.slots[slot] = { item, count: 1 };
    }
    this.invVersion++;
  };

  // Right click (or a short left click): put the selected block against the
  // target's face, unless that cell is taken or inside the player.
  Core.prototype.place = function () {
    const t = this.target;
    const slot = this.slots[this.selected];
    if (!t || !slot) return;
    const n = FACE_NORMALS[t.face];
    const bx = (t.idx % SX) + n[0];
    const bz = Math.floor(t.idx / SX) % SZ + n[2];
    const by = Math.floor(t.idx / LAYER) + n[1];
    if (bx < 0 || bx >= SX || bz < 0 || bz >= SZ || by < 0 || by >= SY) return;
    const i = blockIndex(bx, by, bz);
    if (this.blocks[i] !== AIR) return;
    this.blocks[i] = BLOCK_OF_ITEM[slot.item];
    if (this.boxHits(this.x, this.y, this.z)) {
      this.blocks[i] = AIR;
      return;
    }
    slot.count--;
    if (slot.count === 0) this.slots[this.selected] = null;
    this.maxY = Math.max(this.maxY, by);
    this.placedCells.add(i);
    this.blocksPlaced++;
    this.worldVersion++;
    this.invVersion++;
  };

  // One input event (see the shell): keys by KeyboardEvent.key, mouse in canvas px.
  Core.prototype.applyEvent = function (ev, tapped) {
    if (ev.type === "keydown" || ev.type === "keyup") {
      const down = ev.type === "keydown";
      const dir = KEY_DIR[ev.key];
      if (dir) {
        if (down) tapped[dir] = true;
        this.held[dir] = down;
      } else if (ev.key === " ") {
        if (down && !this.held.jump) this.jumpBuffer = JUMP_BUFFER_TICKS;
        this.held.jump = down;
      } else if (down && ev.key >= "1" && ev.key <= "9" && ev.key.length === 1) {
        this.selected = ev.key.charCodeAt(0) - 49;
        this.hotbarUsage++;
        this.invVersion++;
      }
      return;
    }
    // Mouse: turn by the travel since the previous pointer position; a move
    // ending at the canvas centre only re-centres the pointer.
    if (ev.type === "mousemove" || ev.type === "mousedown") {
      if (ev.type === "mousemove") {
        if (this.recentre && this.restTicks >= REST_TICKS) {
          this.ptrX = CX;
          this.ptrY = CY;
          this.hasPtr = true;
        }
        this.restTicks = 0;
      }
      const centre = Math.abs(ev.x - CX) <= RECENTRE_PX && Math.abs(ev.y - CY) <= RECENTRE_PX;
      if (ev.type === "mousemove" && this.hasPtr && !centre && (ev.x !== this.ptrX || ev.y !== this.ptrY)) {
        this.yawPx = (((this.yawPx + ev.x - this.ptrX) % 1800) + 1800) % 1800;
        this.pitchPx = Math.max(-PITCH_MAX_PX, Math.min(PITCH_MAX_PX, this.pitchPx - (ev.y - this.ptrY)));
        tapped.look = true;
      }
      this.ptrX = ev.x;
      this.ptrY = ev.y;
      this.hasPtr = true;
      if (this.leftDown && Math.hypot(ev.x - this.pressX, ev.y - this.pressY) > DRAG_PX) this.dragging = true;
    }
    if (ev.type === "mousedown") {
      if (ev.button === 0) {
        this.leftDown = true;
        this.pressTicks = 0;
        this.pressX = ev.x;
        this.pressY = ev.y;
        this.dragging = false;
        this.brokeInPress = false;
        this.miningIdx = -1;
        this.miningTicks = 0;
      } else if (ev.button === 2) {
        this.updateTarget();
        this.place();
      }
    } else if (ev.type === "mouseup" && ev.button === 0 && this.leftDown) {
      this.leftDown = false;
      if (this.pressTicks <= SHORT_CLICK_TICKS && !this.brokeInPress && !this.dragging) {
        this.updateTarget();
        this.place();
      }
      this.miningIdx = -1;
      this.miningTicks = 0;
    }
  };

  // events: the input events that arrived since the previous tick, in order.
  Core.prototype.tick = function (events) {
    const tapped = {};
    const yaw0 = this.yawPx, pitch0 = this.pitchPx;
    this.restTicks++;
    if (events) for (const ev of events) this.applyEvent(ev, tapped);
    if (tapped.look && (this.yawPx !== yaw0 || this.pitchPx !== pitch0)) this.lookChanges++;
    const on = (d) => this.held[d] || tapped[d] === true;
    // Walking: arrows relative to the view's yaw, at a constant speed.
    const fwd = (on("up") ? 1 : 0) - (on("down") ? 1 : 0);
    const strafe = (on("right") ? 1 : 0) - (on("left") ? 1 : 0);
    let vx = 0, vz = 0;
    if (fwd || strafe) {
      const yaw = (this.yawPx / PX_PER_DEG) * Math.PI / 180;
      const s = Math.sin(yaw), c = Math.cos(yaw);
      vx = fwd * s + strafe * c;
      vz = -fwd * c + strafe * s;
      const len = Math.hypot(vx, vz);
      vx = (vx / len) * WALK;
      vz = (vz / len) * WALK;
    }
    if (this.onGround && (this.jumpBuffer > 0 || this.held.jump)) {
      this.vy = JUMP_V;
      this.onGround = false;
      this.jumpBuffer = 0;
    }
    if (this.jumpBuffer > 0) this.jumpBuffer--;
    this.vy = Math.max(-MAX_FALL, this.vy - GRAVITY * DT);
    const hitY = this.moveAxis("y", this.vy * DT);
    if (hitY) {
      if (this.vy < 0) this.onGround = true;
      this.vy = 0;
    } else {
      this.onGround = false;
    }
    const hx = this.moveAxis("x", vx * DT);
    const hz = this.moveAxis("z", vz * DT);
    // Auto-jump: walking into a one-block step with room above climbs it.
    if ((hx || hz) && this.onGround && !this.boxHits(this.x + vx * DT, this.y + 1.01, this.z + vz * DT)) {
      this.vy = JUMP_V;
      this.onGround = false;
    }
    this.updateTarget();
    this.mine();
    this.playTicks++;
  };

  Core.prototype.mine = function () {
    if (!this.leftDown) return;
    this.pressTicks++;
    const t = this.target;
    if (this.dragging || !t || BREAK_TICKS[t.type] === Infinity) {
      this.miningIdx = -1;
      this.miningTicks = 0;
      return;
    }
    if (t.idx !== this.miningIdx) {
      this.miningIdx = t.idx;
      this.miningTicks = 0;
    }
    this.miningTicks++;
    if (this.miningTicks < BREAK_TICKS[t.type]) return;
    this.blocks[t.idx] = AIR;
    const placedHere = this.placedCells.delete(t.idx);
    this.addItem(ITEM_OF[t.type], !placedHere);
    this.blocksMined++;
    this.brokeInPress = true;
    this.worldVersion++;
    this.miningIdx = -1;
    this.miningTicks = 0;
    this.updateTarget();
  };

  Core.prototype.miningProgress = function () {
    if (this.miningIdx < 0 || !this.target || this.target.idx !== this.miningIdx) return 0;
    return this.miningTicks / BREAK_TICKS[this.target.type];
  };

  function round3(v) {
    return Math.round(v * 1000) / 1000;
  }

  function facing(yawPx) {
    const names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
    return names[Math.round(yawPx / PX_PER_DEG / 45) % 8];
  }

  Core.prototype.snapshot = function () {
    const t = this.target;
    let target = null;
    if (t) {
      target = {
        x: t.idx % SX, y: Math.floor(t.idx / LAYER), z: Math.floor(t.idx / SX) % SZ,
        type: t.type === GRASS ? "grass" : t.type === BEDROCK ? "bedrock" : ITEM_OF[t.type],
        distance: round3(t.dist), face: FACE_NAMES[t.face],
      };
    }
    const progress = this.miningProgress();
    const total = ITEMS.reduce((s, k) => s + this.gains[k], 0);
    const gains = Object.assign({}, this.gains);
    return {
      status: this.status,
      terminal: { isTerminal: false, outcome: null, reason: null },
      gameTimeMs: Math.round(this.playTicks * TICK_MS),
      game_state: {
        score: total,
        level: this.level,
        completion_progress: 0,
        inventory: {
          slots: this.slots.map((s) => (s ? { item: s.item, count: s.count } : null)),
          selected_slot: this.selected + 1,
          item_gains: gains,
        },
        player: {
          x: round3(this.x), y: round3(this.y), z: round3(this.z),
          yaw_deg: this.yawPx / PX_PER_DEG, pitch_deg: this.pitchPx / PX_PER_DEG,
          facing: facing(this.yawPx), on_ground: this.onGround, alive: true,
        },
        target,
        mining: this.leftDown && !this.dragging && t && progress > 0 ? { type: target.type, progress: round3(progress) } : null,
        world: { size_x: SX, size_z: SZ, height: SY },
      },
      metrics: {
        primary_score: total,
        item_gains: Object.assign({}, gains),
        blocks_mined: this.blocksMined,
        blocks_placed: this.blocksPlaced,
        blocks_recovered: this.blocksMined - total,  // mined again after placing: no gain
        hotbar_usage: this.hotbarUsage,
        look_changes: this.lookChanges,
      },
      raw: { world_sub_seed: this.subSeed, play_ticks: this.playTicks },
    };
  };

  // ----------------------------------------------------------- 4. renderer
  const RW = 320, RH = 180;        // internal resolution, scaled x4
  const TAN_V = Math.tan((70 / 2) * Math.PI / 180);
  const TAN_H = TAN_V * W / H;
  const FOG0 = 14, FOG1 = 30;

  function rgb(hex) {
    return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
  }
  function pack(r, g, b) {
    return (255 << 24 | Math.max(0, Math.min(255, Math.round(b))) << 16 |
      Math.max(0, Math.min(255, Math.round(g))) << 8 | Math.max(0, Math.min(255, Math.round(r)))) >>> 0;
  }
  const FOG_RGB = rgb("#A9CFF2");
  const SKY_TOP = rgb("#5E9CE6");

  // 8x8 texel pattern per block and face class (0 top, 1 bottom, 2 side),
  // as a colour per texel; hashed noise keeps them fixed.
  function texel(type, fclass, u, v) {
    const n = (hash32("tex", type, fclass, u, v) & 255) / 255;     // 0..1 cosmetic noise
    const edge = u === 0 || v === 0 || u === 7 || v === 7;
    let c;
    switch (type) {
      case GRASS:
        if (fclass === 0 || (fclass === 2 && (v < 2 || (v === 2 && n < 0.5)))) c = rgb(n < 0.3 ? "#6AAE34" : n < 0.8 ? "#7CC242" : "#8FD153");
        else c = rgb(n < 0.4 ? "#7A5230" : "#8D6038");
        break;
      case DIRT: c = rgb(n < 0.25 ? "#6F4A2A" : n < 0.85 ? "#8D6038" : "#A0744A"); break;
      case STONE: c = rgb(n < 0.3 ? "#7D7D7D" : n < 0.85 ? "#929292" : "#A6A6A6"); break;
      case LOG:
        if (fclass === 2) c = rgb(u % 3 === 1 ? "#4E3520" : n < 0.5 ? "#6B4A2B" : "#785433");
        else c = rgb((Math.max(Math.abs(u - 3.5), Math.abs(v - 3.5)) | 0) % 2 ? "#B08A57" : "#9A764A");
        break;
      case LEAVES: c = rgb(n < 0.25 ? "#1C4F1E" : n < 0.8 ? "#2E7031" : "#3C8A3D"); break;
      case IRON: {
        // stone with orange-tan specks in a fixed pattern
        const speck = [[1, 1], [2, 1], [5, 2], [6, 2], [2, 4], [3, 4], [3, 5], [5, 5], [6, 6], [1, 6]]
          .some(([a, b]) => a === u && b === v);
        c = speck ? rgb(n < 0.5 ? "#E0A060" : "#D08848") : rgb(n < 0.3 ? "#7D7D7D" : "#929292");
        break;
      }
      case BEDROCK: c = rgb(n < 0.5 ? "#2A2A2A" : "#4A4A4A"); break;
      default: c = [255, 0, 255];
    }
    if (edge && type !== LEAVES) c = c.map((x) => x * 0.86);
    return c;
  }

  // TEX[((type * 4 + shade) * 2 + checker) * 64 + v * 8 + u]; shade: 0 top
  // 1.0, 1 bottom 0.5, 2 east/west sides 0.8, 3 north/south sides 0.65.
  const SHADES = [1.0, 0.5, 0.8, 0.65];
  const TEX = new Uint32Array(8 * 4 * 2 * 64);
  const TEX_RGB = new Float32Array(8 * 4 * 2 * 64 * 3);
  for (let type = 1; type < 8; type++) {
    for (let s = 0; s < 4; s++) {
      const fclass = s === 0 ? 0 : s === 1 ? 1 : 2;
      for (let ch = 0; ch < 2; ch++) {
        for (let v = 0; v < 8; v++) {
          for (let u = 0; u < 8; u++) {
            const c = texel(type, fclass, u, v).map((x) => x * SHADES[s] * (ch ? 0.93 : 1));
            const i = ((type * 4 + s) * 2 + ch) * 64 + v * 8 + u;
            TEX[i] = pack(c[0], c[1], c[2]);
            TEX_RGB[i * 3] = c[0];
            TEX_RGB[i * 3 + 1] = c[1];
            TEX_RGB[i * 3 + 2] = c[2];
          }
        }
      }
    }
  }
  // Sky by the ray's vertical component (64 bins from straight down to straight up).
  const SKY = new Uint32Array(64);
  for (let i = 0; i < 64; i++) {
    const up = Math.max(0, (i / 63) * 2 - 1);
    const k = Math.min(1, up * 1.6);
    SKY[i] = pack(FOG_RGB[0] + (SKY_TOP[0] - FOG_RGB[0]) * k, FOG_RGB[1] + (SKY_TOP[1] - FOG_RGB[1]) * k,
      FOG_RGB[2] + (SKY_TOP[2] - FOG_RGB[2]) * k);
  }
  const COL_SX = new Float64Array(RW);
  for (let i = 0; i < RW; i++) COL_SX[i] = ((2 * (i + 0.5)) / RW - 1) * TAN_H;
  // |f + sx r + sy u| depends only on the pixel (the basis is orthonormal).
  const RAY_LEN = new Float64Array(RW * RH);
  for (let j = 0; j < RH; j++) {
    const sy = (1 - (2 * (j + 0.5)) / RH) * TAN_V;
    for (let i = 0; i < RW; i++) RAY_LEN[j * RW + i] = Math.sqrt(1 + COL_SX[i] * COL_SX[i] + sy * sy);
  }

  // Camera basis for a pose: forward, right, up.
  function camera(core) {
    const f = lookDir(core.yawPx, core.pitchPx);
    const yaw = (core.yawPx / PX_PER_DEG) * Math.PI / 180;
    const r = [Math.cos(yaw), 0, Math.sin(yaw)];
    const u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]];
    return { e: core.eye(), f, r, u };
  }

  // Per-pixel voxel DDA (<= 64 steps, early exit above the highest block)
  // into a 320x180 Uint32 buffer.
  function castScene(core, out) {
    const B = core.blocks;
    const cam = camera(core);
    const ox = cam.e[0], oy = cam.e[1], oz = cam.e[2];
    const [fx, fy, fz] = cam.f, [rx, , rz] = cam.r, [ux, uy, uz] = cam.u;
    const ix0 = Math.floor(ox), iy0 = Math.floor(oy), iz0 = Math.floor(oz);
    const topStop = Math.min(SY, Math.max(core.maxY + 1, iy0 + 1));
    const startIdx = blockIndex(Math.max(0, Math.min(SX - 1, ix0)), Math.max(0, Math.min(SY - 1, iy0)), Math.max(0, Math.min(SZ - 1, iz0)));
    const fr = FOG_RGB[0], fg = FOG_RGB[1], fb = FOG_RGB[2];
    let p = 0;
    for (let j = 0; j < RH; j++) {
      const sy = (1 - (2 * (j + 0.5)) / RH) * TAN_V;
      const bx = fx + sy * ux, by = fy + sy * uy, bz = fz + sy * uz;
      for (let i = 0; i < RW; i++, p++) {
        const sx = COL_SX[i];
        const dx = bx + sx * rx, dy = by, dz = bz + sx * rz;
        const len = RAY_LEN[p];
        const stepX = dx > 0 ? 1 : -1, stepY = dy > 0 ? 1 : -1, stepZ = dz > 0 ? 1 : -1;
        const tdx = dx !== 0 ? Math.abs(1 / dx) : 1e30;
        const tdy = dy !== 0 ? Math.abs(1 / dy) : 1e30;
        const tdz = dz !== 0 ? Math.abs(1 / dz) : 1e30;
        let tmx = (dx > 0 ? ix0 + 1 - ox : ox - ix0) * tdx;
        let tmy = (dy > 0 ? iy0 + 1 - oy : oy - iy0) * tdy;
        let tmz = (dz > 0 ? iz0 + 1 - oz : oz - iz0) * tdz;
        const yStop = stepY > 0 ? topStop : -1;
        const dIdxX = stepX, dIdxY = stepY * LAYER, dIdxZ = stepZ * SX;
        let x = ix0, y = iy0, z = iz0, idx = startIdx, t = 0, face = 0, hit = 0;
        for (let n = 0; n < 64; n++) {
          if (tmx < tmy) {
            if (tmx < tmz) {
              x += stepX;
              if (x < 0 || x >= SX) break;
              idx += dIdxX; t = tmx; tmx += tdx; face = 2;
            } else {
              z += stepZ;
              if (z < 0 || z >= SZ) break;
              idx += dIdxZ; t = tmz; tmz += tdz; face = 3;
            }
          } else if (tmy < tmz) {
            y += stepY;
            if (y === yStop) break;
            idx += dIdxY; t = tmy; tmy += tdy; face = stepY > 0 ? 1 : 0;
          } else {
            z += stepZ;
            if (z < 0 || z >= SZ) break;
            idx += dIdxZ; t = tmz; tmz += tdz; face = 3;
          }
          hit = B[idx];
          if (hit !== 0) break;
        }
        if (hit === 0) {
          const k = ((dy / len + 1) * 31.5) | 0;
          out[p] = SKY[k < 0 ? 0 : k > 63 ? 63 : k];
          continue;
        }
        // texel on the face that was hit
        const hx = ox + dx * t, hy = oy + dy * t, hz = oz + dz * t;
        let u, v;
        if (face === 2) { u = hz - Math.floor(hz); v = 1 - (hy - Math.floor(hy)); }
        else if (face === 3) { u = hx - Math.floor(hx); v = 1 - (hy - Math.floor(hy)); }
        else { u = hx - Math.floor(hx); v = hz - Math.floor(hz); }
        let tu = (u * 8) | 0, tv = (v * 8) | 0;
        if (tu > 7) tu = 7;
        if (tv > 7) tv = 7;
        const ti = ((hit * 4 + face) * 2 + ((x + y + z) & 1)) * 64 + tv * 8 + tu;
        const dist = t * len;
        if (dist <= FOG0) {
          out[p] = TEX[ti];
        } else {
          const f = dist >= FOG1 ? 1 : (dist - FOG0) / (FOG1 - FOG0);
          const g = 1 - f;
          const c = ti * 3;
          out[p] = (0xff000000 | ((TEX_RGB[c + 2] * g + fb * f) << 16) | ((TEX_RGB[c + 1] * g + fg * f) << 8) |
            (TEX_RGB[c] * g + fr * f)) >>> 0;
        }
      }
    }
  }

  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  const scene = document.createElement("canvas");
  scene.width = RW;
  scene.height = RH;
  const sceneCtx = scene.getContext("2d");
  const sceneImage = sceneCtx.createImageData(RW, RH);
  const scenePixels = new Uint32Array(sceneImage.data.buffer);

  function hudText(g, str, x, y, font, align) {
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

  // Project a world point to canvas px; null when behind the near plane.
  function project(cam, p) {
    const vx = p[0] - cam.e[0], vy = p[1] - cam.e[1], vz = p[2] - cam.e[2];
    const cz = vx * cam.f[0] + vy * cam.f[1] + vz * cam.f[2];
    const cx = vx * cam.r[0] + vy * cam.r[1] + vz * cam.r[2];
    const cy = vx * cam.u[0] + vy * cam.u[1] + vz * cam.u[2];
    return [cx, cy, cz];
  }
  function toScreen(c) {
    return [CX + (c[0] / c[2] / TAN_H) * CX, CY - (c[1] / c[2] / TAN_V) * CY];
  }

  const NEAR = 0.05;
  function drawOutline(core, cam) {
    const t = core.target;
    if (!t) return;
    const bx = t.idx % SX, by = Math.floor(t.idx / LAYER), bz = Math.floor(t.idx / SX) % SZ;
    const corners = [];
    for (let i = 0; i < 8; i++) {
      corners.push(project(cam, [bx + (i & 1 ? 1.002 : -0.002), by + (i & 2 ? 1.002 : -0.002), bz + (i & 4 ? 1.002 : -0.002)]));
    }
    ctx.beginPath();
    for (let a = 0; a < 8; a++) {
      for (let bit = 1; bit < 8; bit <<= 1) {
        if (a & bit) continue;
        let p = corners[a], q = corners[a | bit];
        if (p[2] < NEAR && q[2] < NEAR) continue;
        if (p[2] < NEAR || q[2] < NEAR) {
          const k = (NEAR - p[2]) / (q[2] - p[2]);
          const m = [p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k, NEAR];
          if (p[2] < NEAR) p = m; else q = m;
        }
        const s = toScreen(p), e = toScreen(q);
        ctx.moveTo(s[0], s[1]);
        ctx.lineTo(e[0], e[1]);
      }
    }
    strokeOutlined(2);
  }

  // Stroke the current path white over a wider dark line, readable on any block.
  function strokeOutlined(width) {
    ctx.lineWidth = width + 3;
    ctx.strokeStyle = "rgba(0,0,0,0.7)";
    ctx.stroke();
    ctx.lineWidth = width;
    ctx.strokeStyle = "#FFFFFF";
    ctx.stroke();
  }

  function drawCrosshair(progress) {
    ctx.fillStyle = "rgba(0,0,0,0.75)";
    ctx.fillRect(CX - 13, CY - 3, 26, 6);
    ctx.fillRect(CX - 3, CY - 13, 6, 26);
    ctx.fillStyle = "#FFFFFF";
    ctx.fillRect(CX - 12, CY - 1, 24, 2);
    ctx.fillRect(CX - 1, CY - 12, 2, 24);
    if (progress > 0) {
      ctx.lineCap = "butt";
      ctx.beginPath();
      ctx.arc(CX, CY, 22, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * progress);
      strokeOutlined(4);
    }
  }

  // Item icons: the block's side texture at 5 px per texel, drawn once.
  const icons = {};
  function icon(item) {
    if (icons[item]) return icons[item];
    const c = document.createElement("canvas");
    c.width = 40;
    c.height = 40;
    const g = c.getContext("2d");
    const type = BLOCK_OF_ITEM[item];
    for (let v = 0; v < 8; v++) {
      for (let u = 0; u < 8; u++) {
        const col = texel(type, 2, u, v);
        g.fillStyle = "rgb(" + col.map(Math.round).join(",") + ")";
        g.fillRect(u * 5, v * 5, 5, 5);
      }
    }
    icons[item] = c;
    return c;
  }

  // The hotbar and the HUD strip are painted into their own layers, redrawn
  // only when what they show changed, and copied onto each frame.
  const SLOT = 60, SLOT_GAP = 6, BAR_PAD = 8;
  const BAR_W = 9 * SLOT + 8 * SLOT_GAP + 2 * BAR_PAD;
  const BAR_H = SLOT + 2 * BAR_PAD;
  const BAR_X = Math.round(CX - BAR_W / 2);
  const BAR_Y = H - BAR_H - 4;
  function layer(w, h) {
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    return { canvas: c, g: c.getContext("2d"), key: null };
  }
  const bar = layer(BAR_W, BAR_H);
  const hud = layer(W, HUD_H);

  function hotbarLayer(core) {
    const key = JSON.stringify(core.slots) + core.selected;
    if (bar.key === key) return bar.canvas;
    const g = bar.g;
    g.clearRect(0, 0, BAR_W, BAR_H);
    g.fillStyle = "rgba(0,0,0,0.5)";
    g.fillRect(0, 0, BAR_W, BAR_H);
    for (let i = 0; i < 9; i++) {
      const x = BAR_PAD + i * (SLOT + SLOT_GAP), y = BAR_PAD;
      g.fillStyle = "rgba(40,40,40,0.85)";
      g.fillRect(x, y, SLOT, SLOT);
      const s = core.slots[i];
      if (s) {
        g.drawImage(icon(s.item), x + 10, y + 10);
        hudText(g, String(s.count), x + SLOT - 4, y + SLOT - 12, "bold 20px sans-serif", "right");
      }
      hudText(g, String(i + 1), x + 4, y + 12, "18px sans-serif", "left");
      g.lineWidth = i === core.selected ? 4 : 2;
      g.strokeStyle = i === core.selected ? "#FFFFFF" : "rgba(160,160,160,0.9)";
      g.strokeRect(x, y, SLOT, SLOT);
    }
    bar.key = key;
    return bar.canvas;
  }

  const GAIN_LABELS = [["dirt", "Dirt"], ["wood_log", "Logs"], ["leaves", "Leaves"], ["stone", "Stone"], ["iron_ore", "Iron"]];
  function hudLayer(core) {
    const pos = "x " + Math.floor(core.x) + "  y " + Math.floor(core.y) + "  z " + Math.floor(core.z) + "   facing " + facing(core.yawPx);
    const key = JSON.stringify(core.gains) + pos;
    if (hud.key === key) return hud.canvas;
    const g = hud.g;
    g.clearRect(0, 0, W, HUD_H);
    g.fillStyle = "rgba(0,0,0,0.55)";
    g.fillRect(0, 0, W, HUD_H);
    hudText(g, "Minecraft Clone", 16, HUD_H / 2, "bold 22px sans-serif", "left");
    // centre: the five gains the tasks score, label then number
    const parts = GAIN_LABELS.map(([k, label]) => {
      g.font = "20px sans-serif";
      const lw = g.measureText(label + " ").width;
      g.font = "bold 28px sans-serif";
      const nw = g.measureText(String(core.gains[k])).width;
      return { label, num: String(core.gains[k]), lw, nw };
    });
    const gap = 26;
    const total = parts.reduce((sum, q) => sum + q.lw + q.nw, 0) + gap * (parts.length - 1);
    let x = CX + 20 - total / 2;
    for (const q of parts) {
      hudText(g, q.label, x, HUD_H / 2 + 1, "20px sans-serif", "left");
      hudText(g, q.num, x + q.lw, HUD_H / 2, "bold 28px sans-serif", "left");
      x += q.lw + q.nw + gap;
    }
    hudText(g, pos, W - 16, HUD_H / 2 + 1, "20px sans-serif", "right");
    hud.key = key;
    return hud.canvas;
  }

  // What is on screen. The 3D layer is recast only when the pose or the world
  // changed. While it keeps changing (walking, falling) the harness gets a
  // cast every castEvery frames, and any input event (the key-up or button-up
  // that ends an action, before the harness takes its screenshot) first
  // brings a stale picture up to date. A mining-progress change repaints only
  // the crosshair square.
  let castEvery = 4;
  const CROSS = { x: CX - 32, y: CY - 32, size: 64 };
  let drawn = { core: null, view: "", target: "", progress: 0, inv: -1 };
  let frameNo = 0;
  let lastCast = -1000;

  function compose(core, clip) {
    ctx.save();
    if (clip) {
      ctx.beginPath();
      ctx.rect(clip.x, clip.y, clip.size, clip.size);
      ctx.clip();
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(scene, clip.x / 4, clip.y / 4, clip.size / 4, clip.size / 4, clip.x, clip.y, clip.size, clip.size);
    } else {
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(scene, 0, 0, W, H);
    }
    drawOutline(core, camera(core));
    drawCrosshair(drawn.progress);
    if (!clip) {
      ctx.drawImage(hotbarLayer(core), BAR_X, BAR_Y);
      ctx.drawImage(hudLayer(core), 0, 0);
    }
    ctx.restore();
  }

  function render(core, force, flush) {
    if (!flush) frameNo++;
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      drawn = { core: null, view: "", target: "", progress: 0, inv: -1 };
      return;
    }
    const view = core.x + "," + core.y + "," + core.z + "," + core.yawPx + "," + core.pitchPx + "," + core.worldVersion;
    const t = core.target;
    const target = t ? t.idx + ":" + t.face : "-";
    const progress = Math.floor(core.miningProgress() * 16) / 16;
    if (force || drawn.core !== core || view !== drawn.view) {
      if (!force && !flush && frameNo - lastCast < castEvery) return;
      castScene(core, scenePixels);
      sceneCtx.putImageData(sceneImage, 0, 0);
      lastCast = frameNo;
      drawn = { core, view, target, progress, inv: core.invVersion };
      compose(core, null);
    } else if (target !== drawn.target || core.invVersion !== drawn.inv) {
      drawn.target = target;
      drawn.inv = core.invVersion;
      drawn.progress = progress;
      compose(core, null);
    } else if (progress !== drawn.progress) {
      drawn.progress = progress;
      compose(core, CROSS);
    }
  }

  // ----------------------------------------------------------- 5. browser shell
  const Shell = window.GameShell;
  let core = null;
  const queue = [];                // input events since the last tick, in arrival order
  const USED_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);

  function onKey(e, down) {
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (!USED_KEYS.has(key)) return;
    e.preventDefault();
    if (e.repeat) return;
    queue.push({ type: down ? "keydown" : "keyup", key });
    render(core, false, true);
  }
  window.addEventListener("keydown", (e) => onKey(e, true));
  window.addEventListener("keyup", (e) => onKey(e, false));

  function onMouse(e) {
    const rect = canvas.getBoundingClientRect();
    const x = ((e.clientX - rect.left) * W) / rect.width;
    const y = ((e.clientY - rect.top) * H) / rect.height;
    queue.push({ type: e.type, x, y, button: e.button });
    if (e.type !== "mousemove") e.preventDefault();
    render(core, false, true);
  }
  canvas.addEventListener("mousemove", onMouse);
  canvas.addEventListener("mousedown", onMouse);
  canvas.addEventListener("mouseup", onMouse);
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());

  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    tick() {
      const events = queue.splice(0, queue.length);
      if (core) core.tick(events);
    },
    render: () => render(core, false),
  });

  function pickLevel(l) {
    if (Number(l) === 1) return 1;
    console.warn(GAME_ID + ": no level " + l + "; using level 1");
    return 1;
  }

  const ep = Shell.episodes({
    pickLevel,
    start(seed, level) {
      queue.length = 0;
      core = createCore(seed, level);
      render(core, true);            // the first screenshot is already current
    },
  });

  const api = {
    capabilities: {
      supports_seed: true,
      supports_inplace_reset: true,
      supports_level_select: false,
    },
    init: ep.init,
    reset: ep.reset,
    getState() {
      if (!core) {
        const gains = { dirt: 0, wood_log: 0, leaves: 0, stone: 0, iron_ore: 0 };
        return {
          gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: 0, status: "loading",
          terminal: { isTerminal: false, outcome: null, reason: null },
          game_state: { score: 0, level: ep.level, completion_progress: 0, inventory: { slots: [], selected_slot: 1, item_gains: gains },
            player: { x: 0, y: 0, z: 0, alive: true } },
          metrics: { primary_score: 0, item_gains: Object.assign({}, gains), attempts: 0 },
          raw: {},
        };
      }
      const s = core.snapshot();
      s.metrics.attempts = ep.attempts;
      // Date.now() is the harness's virtual clock, so this stays deterministic.
      return {
        gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: s.gameTimeMs,
        status: s.status, terminal: s.terminal, game_state: s.game_state, metrics: s.metrics, raw: s.raw,
      };
    },
  };

  // Pure helpers the oracle shares with the game (no access to live state).
  window.__gwMinecraft = { createCore, BREAK_TICKS, ITEM_OF, blocks: { AIR, GRASS, DIRT, STONE, LOG, LEAVES, IRON, BEDROCK }, SX, SZ, SY };
  if (!window.__GW_HARNESS__) {
    recentreOnRest = false;
    castEvery = 1;                 // a person sees every frame
  }
  Shell.mount({ api, core: () => core, canvas, first: () => render(null, true), loop });
})();
