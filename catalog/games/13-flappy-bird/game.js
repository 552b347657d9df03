// Flappy Bird for pytest-gameworld.
//
// Layout: a pure simulation core (createCore) that knows nothing about the DOM,
// a canvas renderer, a keyboard queue, one requestAnimationFrame loop with fixed
// 1/60 s ticks, and window.gameAPI. The oracle clones the core through
// window.__gwCore to look ahead; nothing else is exposed.
(function () {
  "use strict";

  const GAME_ID = "13-flappy-bird";

  // ---------------------------------------------------------------------------
  // Constants (docs/games.md section 13). Units: px, px/s, px/s^2, ticks of 1/60 s.
  //
  // Four values differ from the spec (gap 190, flap -520, max fall 700, climb
  // up to 250 between pipes). With those, an agent that may act only every
  // 200 ms (docs/games.md 1.9) often has no safe choice: a flap lifts the bird 75 px
  // while two waits later it drops 140 px per step, and the 160 px of slack in
  // a 190 px gap cannot hold both; even an exhaustive 2 s look-ahead died on 3
  // of 10 seeds. With a 220 px gap, a 56 px flap arc, a 500 px/s fall cap and
  // climbs of at most 200 px (the spec's window otherwise), the oracle clears
  // 15 pipes on seeds 0-199 under every frame timing the harness produces and
  // under random 11-13 tick steps. Gravity, speed, spacing, sizes as specified.
  // ---------------------------------------------------------------------------
  const W = 1280;
  const H = 720;
  const HUD_H = 56;               // HUD strip; also the ceiling that clamps the bird
  const GROUND_Y = 660;           // touching this line is a collision
  const TICK_HZ = 60;
  const DT = 1 / TICK_HZ;

  const BIRD_X = 320;             // bird centre x (fixed; the world scrolls)
  const BIRD_W = 40;
  const BIRD_H = 30;
  const BIRD_START_Y = 360;       // bird centre y while `ready`

  const GRAVITY = 1800;
  const FLAP_VY = -450;           // spec -520
  const MAX_FALL = 500;           // spec 700

  const PIPE_W = 100;
  const GAP = 220;                // spec 190 (see above)
  const PIPE_SPACING = 360;
  const SCROLL = 360;             // px/s, i.e. exactly 6 px per tick
  const SCROLL_PER_TICK = SCROLL / TICK_HZ;
  // The first pipe's left edge meets the bird's right edge 1.6 s after the start.
  const FIRST_PIPE_X = BIRD_X + BIRD_W / 2 + 1.6 * SCROLL;   // 916
  const GAP_MIN = 200;            // range of gap centres
  const GAP_MAX = 540;
  const GAP_DOWN_MAX = 200;       // next centre at most 200 px lower ...
  const GAP_UP_MAX = 200;         // ... or 200 px higher (spec 250, see above)

  const PIPES_IN_STATE = 3;
  const SCORE_FOR_FULL_PROGRESS = 15;  // hardest task target; progress is diagnostic

  // ---------------------------------------------------------------------------
  // Deterministic randomness
  // ---------------------------------------------------------------------------

  // FNV-1a over the parts joined by "|" and mulberry32 (catalog/games/_shell): stable across hosts, no Math.random.
  const { fnv32: hash32, makeRng, nextRandom: rngNext } = window.GameShell;
  function rngInt(rng, lo, hi) {           // inclusive bounds
    return lo + Math.floor(rngNext(rng) * (hi - lo + 1));
  }

  // ---------------------------------------------------------------------------
  // Core: pure simulation, one call to tick() = 1/60 s
  // ---------------------------------------------------------------------------

  function createCore(seed, level) {
    const base = hash32(GAME_ID, seed, level);
    const core = new Core();
    core.seed = seed;
    core.level = level;
    // Two streams (docs/games.md 1.5): the level stream makes the pipes; the runtime
    // stream is reserved for runtime events (Flappy Bird has none), so adding
    // any later can never shift the pipe layout.
    core.levelRng = makeRng(base);
    core.runtimeRng = makeRng(hash32(GAME_ID, seed, level, "runtime"));
    core.gapCentres = [];
    core.status = "ready";
    core.outcome = null;
    core.reason = null;
    core.totalTicks = 0;          // every tick, for cosmetic animation only
    core.playTicks = 0;           // ticks while playing -> gameTimeMs
    core.birdY = BIRD_START_Y;
    core.birdVy = 0;
    core.scrolled = 0;            // world px scrolled since the first flap
    core.nextToPass = 0;          // index of the first pipe not yet scored
    core.score = 0;
    core.flaps = 0;
    return core;
  }

  function Core() {}

  // Gap centre of pipe i. Pipes are generated in index order from the level
  // stream, so pipe i is the same whatever tick first asks for it.
  Core.prototype.gapCentre = function (i) {
    while (this.gapCentres.length <= i) {
      const prev = this.gapCentres.length
        ? this.gapCentres[this.gapCentres.length - 1]
        : BIRD_START_Y;
      const lo = Math.max(GAP_MIN, prev - GAP_UP_MAX);
      const hi = Math.min(GAP_MAX, prev + GAP_DOWN_MAX);
      this.gapCentres.push(rngInt(this.levelRng, lo, hi));
    }
    return this.gapCentres[i];
  };

  // Screen x of pipe i's left edge.
  Core.prototype.pipeX = function (i) {
    return FIRST_PIPE_X + i * PIPE_SPACING - this.scrolled;
  };

  Core.prototype.pipe = function (i) {
    const c = this.gapCentre(i);
    return {
      index: i,
      x: this.pipeX(i),
      gap_top: c - GAP / 2,
      gap_bottom: c + GAP / 2,
      passed: i < this.nextToPass,
    };
  };

  // First pipe whose right edge is still right of the bird's left edge: the
  // only pipes that can still hit the bird.
  Core.prototype.firstRelevantPipe = function () {
    const birdLeft = BIRD_X - BIRD_W / 2;
    let i = Math.max(0, Math.floor((this.scrolled + birdLeft - FIRST_PIPE_X - PIPE_W) / PIPE_SPACING));
    while (this.pipeX(i) + PIPE_W <= birdLeft) i++;
    return i;
  };

  // input = {flap: boolean}: true on the tick a Space press edge arrives.
  Core.prototype.tick = function (input) {
    this.totalTicks++;
    if (this.status === "terminal") return;
    const flap = !!(input && input.flap);
    if (this.status === "ready") {
      if (!flap) return;          // world frozen until the first flap
      this.status = "playing";    // ... which starts play and also applies
    }
    this.playTicks++;
    this.stepBird(flap);
    this.scrolled += SCROLL_PER_TICK;
    this.updateScore();
    this.checkCollision();
  };

  Core.prototype.stepBird = function (flap) {
    if (flap) {
      this.birdVy = FLAP_VY;
      this.flaps++;
    } else {
      this.birdVy = Math.min(this.birdVy + GRAVITY * DT, MAX_FALL);
    }
    this.birdY += this.birdVy * DT;
    // The top of the play area (under the HUD) stops the bird but never kills
    // it, so the bird always stays visible.
    const minY = HUD_H + BIRD_H / 2;
    if (this.birdY < minY) {
      this.birdY = minY;
      if (this.birdVy < 0) this.birdVy = 0;
    }
  };

  // +1 once per pipe, when the bird's centre passes the pipe's right edge.
  Core.prototype.updateScore = function () {
    while (this.pipeX(this.nextToPass) + PIPE_W < BIRD_X) {
      this.nextToPass++;
      this.score++;
    }
  };

  Core.prototype.checkCollision = function () {
    const top = this.birdY - BIRD_H / 2;
    const bottom = this.birdY + BIRD_H / 2;
    const left = BIRD_X - BIRD_W / 2;
    const right = BIRD_X + BIRD_W / 2;
    let hit = bottom >= GROUND_Y;
    for (let i = this.firstRelevantPipe(); !hit; i++) {
      const x = this.pipeX(i);
      if (x >= right) break;      // pipes further right cannot touch yet
      const c = this.gapCentre(i);
      const overlapsX = right > x && left < x + PIPE_W;
      const outsideGap = top < c - GAP / 2 || bottom > c + GAP / 2;
      hit = overlapsX && outsideGap;
    }
    if (hit) {
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "collision";
    }
  };

  // Smallest distance (px) between the bird's box and anything that kills it:
  // the ground, and the gap edges of a pipe the bird overlaps horizontally.
  // Negative once hit. Used by the oracle to prefer safe futures.
  Core.prototype.clearance = function () {
    const top = this.birdY - BIRD_H / 2;
    const bottom = this.birdY + BIRD_H / 2;
    const left = BIRD_X - BIRD_W / 2;
    const right = BIRD_X + BIRD_W / 2;
    let clear = GROUND_Y - bottom;
    for (let i = this.firstRelevantPipe(); ; i++) {
      const x = this.pipeX(i);
      if (x >= right) break;
      if (right > x && left < x + PIPE_W) {
        const c = this.gapCentre(i);
        clear = Math.min(clear, top - (c - GAP / 2), (c + GAP / 2) - bottom);
      }
    }
    return clear;
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.levelRng = { s: this.levelRng.s };
    c.runtimeRng = { s: this.runtimeRng.s };
    c.gapCentres = this.gapCentres.slice();
    return c;
  };

  // Plain JSON view of the episode (no live references).
  Core.prototype.snapshot = function () {
    const first = this.firstRelevantPipe();
    const pipes = [];
    for (let i = first; i < first + PIPES_IN_STATE; i++) pipes.push(this.pipe(i));
    const alive = !(this.status === "terminal" && this.outcome === "fail");
    return {
      status: this.status,
      terminal: {
        isTerminal: this.status === "terminal",
        outcome: this.outcome,
        reason: this.reason,
      },
      gameTimeMs: Math.round(this.playTicks * 1000 / TICK_HZ),
      score: this.score,
      level: this.level,
      progress: Math.min(1, this.score / SCORE_FOR_FULL_PROGRESS),
      player: { x: BIRD_X, y: this.birdY, vy: this.birdVy, alive: alive },
      pipes: pipes,
      flaps: this.flaps,
      deaths: alive ? 0 : 1,
      ticks: this.totalTicks,
      playTicks: this.playTicks,
      scrolled: this.scrolled,
    };
  };

  // ---------------------------------------------------------------------------
  // Keyboard: events are queued and consumed at the start of each tick, so a
  // press and release between two ticks still gives one `pressed` edge.
  // ---------------------------------------------------------------------------
  const Shell = window.GameShell;
  const keys = Shell.keyboard({
    keys: [" ", "Enter", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"],
    // Humans only: Enter on the game-over screen starts a new flight. Agents
    // never see a terminal frame (the harness resets first) and have no Enter.
    onDown(k) {
      if (k !== "Enter" || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // ---------------------------------------------------------------------------
  // Renderer
  // ---------------------------------------------------------------------------
  const canvas = document.getElementById("game");
  // Opaque, and every frame starts with a full-canvas paint: the browser can
  // then drop earlier frames' draw calls instead of rasterising them all at the
  // next screenshot.
  const ctx = canvas.getContext("2d", { alpha: false });

  const COLORS = {
    skyTop: "#9CCBDA",
    skyBottom: "#CBE6EC",
    cloud: "rgba(255,255,255,0.75)",
    pipe: "#3FAE3A",
    pipeLight: "#7BD66B",
    pipeEdge: "#1E4D1B",
    ground: "#C9A66B",
    groundDark: "#8C6A3A",
    grass: "#6E9B3A",
    bird: "#FFD21F",
    birdEdge: "#5A3A00",
    wing: "#F2A900",
    beak: "#F26B1D",
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

  // The sky (gradient and clouds) is painted once into a wide spare canvas and copied each
  // frame at the parallax offset: filling a gradient and clouds every frame is the costliest
  // thing a software rasterizer (headless Chromium) does here.
  const CLOUD_PERIOD = 1600;
  let skyLayer = null;
  function skyImage() {
    if (skyLayer) return skyLayer;
    skyLayer = document.createElement("canvas");
    skyLayer.width = CLOUD_PERIOD + W;
    skyLayer.height = GROUND_Y;
    const sctx = skyLayer.getContext("2d");
    const g = sctx.createLinearGradient(0, 0, 0, GROUND_Y);
    g.addColorStop(0, COLORS.skyTop);
    g.addColorStop(1, COLORS.skyBottom);
    sctx.fillStyle = g;
    sctx.fillRect(0, 0, skyLayer.width, GROUND_Y);
    // Slow parallax clouds; purely decorative, low contrast. Two copies cover the wrap.
    sctx.fillStyle = COLORS.cloud;
    for (let k = 0; k < 6; k++) {
      for (let rep = 0; rep < 2; rep++) {
        const x = k * 320 - 160 + rep * CLOUD_PERIOD;
        const y = 150 + (k % 3) * 90;
        sctx.beginPath();
        sctx.ellipse(x, y, 70, 22, 0, 0, Math.PI * 2);
        sctx.ellipse(x + 45, y - 12, 45, 20, 0, 0, Math.PI * 2);
        sctx.fill();
      }
    }
    return skyLayer;
  }

  function drawSky(c) {
    const off = Math.floor((c.scrolled * 0.25) % CLOUD_PERIOD);
    ctx.drawImage(skyImage(), off, 0, W, GROUND_Y, 0, 0, W, GROUND_Y);
  }

  function drawPipeBody(x, y0, y1, capAtBottom) {
    const capH = 26;
    ctx.fillStyle = COLORS.pipe;
    ctx.strokeStyle = COLORS.pipeEdge;
    ctx.lineWidth = 3;
    ctx.fillRect(x, y0, PIPE_W, y1 - y0);
    ctx.strokeRect(x, y0, PIPE_W, y1 - y0);
    ctx.fillStyle = COLORS.pipeLight;
    ctx.fillRect(x + 12, y0, 14, y1 - y0);
    // Cap at the gap side; drawn within the pipe's 100 px so the picture
    // matches the collision box exactly.
    const capY = capAtBottom ? y1 - capH : y0;
    ctx.fillStyle = COLORS.pipe;
    ctx.fillRect(x, capY, PIPE_W, capH);
    ctx.fillStyle = COLORS.pipeLight;
    ctx.fillRect(x + 12, capY + 4, 14, capH - 8);
    ctx.strokeRect(x, capY, PIPE_W, capH);
  }

  function drawPipes(c) {
    const first = c.firstRelevantPipe();
    for (let i = Math.max(0, first - 1); ; i++) {
      const x = c.pipeX(i);
      if (x > W) break;
      if (x + PIPE_W < 0) continue;
      const centre = c.gapCentre(i);
      drawPipeBody(x, 0, centre - GAP / 2, true);
      drawPipeBody(x, centre + GAP / 2, GROUND_Y, false);
    }
  }

  function drawGround(c) {
    ctx.fillStyle = COLORS.ground;
    ctx.fillRect(0, GROUND_Y, W, H - GROUND_Y);
    ctx.fillStyle = COLORS.grass;
    ctx.fillRect(0, GROUND_Y, W, 10);
    ctx.strokeStyle = COLORS.groundDark;
    ctx.lineWidth = 4;
    const off = c.scrolled % 48;
    ctx.beginPath();
    for (let x = -off; x < W + 48; x += 48) {
      ctx.moveTo(x, GROUND_Y + 22);
      ctx.lineTo(x + 24, GROUND_Y + 46);
    }
    ctx.stroke();
    ctx.fillStyle = COLORS.groundDark;
    ctx.fillRect(0, GROUND_Y, W, 2);
  }

  function drawBird(c) {
    // The bob while `ready` is drawn only; the collision box stays at y = 360.
    const bob = c.status === "ready" ? Math.sin(c.totalTicks / 60 * Math.PI * 2 * 0.8) * 8 : 0;
    const y = c.birdY + bob;
    const tilt = c.status === "ready" ? 0 : Math.max(-0.45, Math.min(1.1, c.birdVy / 700));
    ctx.save();
    ctx.translate(BIRD_X, y);
    ctx.rotate(tilt);
    // body (exactly the 40x30 box, rounded)
    ctx.fillStyle = COLORS.bird;
    ctx.strokeStyle = COLORS.birdEdge;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.ellipse(0, 0, BIRD_W / 2, BIRD_H / 2, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    // wing flaps with game time
    const wingUp = Math.floor(c.totalTicks / 6) % 2 === 0;
    ctx.fillStyle = COLORS.wing;
    ctx.beginPath();
    ctx.ellipse(-7, wingUp ? -2 : 4, 11, 7, wingUp ? -0.4 : 0.3, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    // eye
    ctx.fillStyle = "#fff";
    ctx.beginPath();
    ctx.arc(9, -6, 7, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = "#111";
    ctx.beginPath();
    ctx.arc(11, -6, 3, 0, Math.PI * 2);
    ctx.fill();
    // beak
    ctx.fillStyle = COLORS.beak;
    ctx.beginPath();
    ctx.moveTo(14, 1);
    ctx.lineTo(28, 5);
    ctx.lineTo(14, 10);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.restore();
  }

  function drawHud(c) {
    ctx.fillStyle = "rgba(0,0,0,0.55)";
    ctx.fillRect(0, 0, W, HUD_H);
    textOutlined("Flappy Bird", 20, HUD_H / 2, "bold 28px sans-serif", "left");
    textOutlined("Level " + c.level, 210, HUD_H / 2 + 1, "20px sans-serif", "left");
    textOutlined("Score " + c.score, W / 2, HUD_H / 2, "bold 28px sans-serif", "center");
    textOutlined("Attempt " + ep.attempts, W - 20, HUD_H / 2, "20px sans-serif", "right");
  }

  function drawPanel(lines) {
    const pw = 560;
    const ph = 40 + lines.length * 46;
    const px = (W - pw) / 2;
    const py = (H - ph) / 2 - 20;
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillRect(px, py, pw, ph);
    ctx.strokeStyle = "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2;
    ctx.strokeRect(px, py, pw, ph);
    lines.forEach((ln, k) => {
      textOutlined(ln.text, W / 2, py + 43 + k * 46, ln.font, "center");
    });
  }

  function drawOverlay(c) {
    if (c.status === "ready") {
      textOutlined("PRESS SPACE TO FLAP", W / 2, 200, "bold 36px sans-serif", "center");
    } else if (c.status === "terminal") {
      drawPanel([
        { text: "GAME OVER \u2013 " + c.reason, font: "bold 36px sans-serif" },
        { text: "Score " + c.score, font: "bold 28px sans-serif" },
        { text: "Press Enter to fly again", font: "20px sans-serif" },
      ]);
    }
  }

  function render() {
    if (!core) {
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, W, H);
      return;
    }
    drawSky(core);
    drawPipes(core);
    drawGround(core);
    drawBird(core);
    drawHud(core);
    drawOverlay(core);
  }

  // ---------------------------------------------------------------------------
  // Loop: one rAF loop for the page's lifetime, fixed ticks from an accumulator.
  // ---------------------------------------------------------------------------
  const TICK_MS = 1000 / TICK_HZ;
  let core = null;

  function runTick() {
    const { pressed } = keys.take();
    if (!core) return;
    if (core.status === "terminal") return;   // input ignored until reset
    core.tick({ flap: pressed.has(" ") });
  }

  // Only the frames the harness can photograph are drawn (Shell.frameCanBeSeen); a backlog is dropped.
  const loop = Shell.loop({ tickMs: TICK_MS, visibleOnly: true, tick: runTick, render: () => render() });

  // ---------------------------------------------------------------------------
  // window.gameAPI
  // ---------------------------------------------------------------------------
  // No levels: only level 1 exists (capabilities.supports_level_select = false).
  const ep = Shell.episodes({
    pickLevel: () => 1,
    start(seed, level) {
      keys.clear();
      core = createCore(seed, level);
      render();                      // the first screenshot is already current
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
        return {
          gameId: GAME_ID, seed: ep.seed, timestampMs: Date.now(), gameTimeMs: 0,
          status: "loading",
          terminal: { isTerminal: false, outcome: null, reason: null },
          game_state: {
            score: 0, level: ep.level, progress: 0, completion_progress: 0,
            player: { x: BIRD_X, y: BIRD_START_Y, vy: 0, alive: true }, pipes: [],
          },
          metrics: { primary_score: 0, pipes_passed: 0, flaps: 0, attempts: 0, deaths: 0 },
          raw: {},
        };
      }
      const s = core.snapshot();
      return {
        gameId: GAME_ID,
        seed: ep.seed,
        timestampMs: Date.now(),   // the harness's virtual clock
        gameTimeMs: s.gameTimeMs,
        status: s.status,
        terminal: s.terminal,
        game_state: {
          score: s.score,
          level: s.level,
          progress: s.progress,
          completion_progress: s.progress,
          player: s.player,
          pipes: s.pipes.map((p) => ({
            x: p.x, gap_top: p.gap_top, gap_bottom: p.gap_bottom, passed: p.passed,
          })),
        },
        metrics: {
          primary_score: s.score,
          pipes_passed: s.score,
          flaps: s.flaps,
          attempts: ep.attempts,
          deaths: s.deaths,
        },
        raw: {
          ticks: s.ticks,
          play_ticks: s.playTicks,
          scrolled_px: s.scrolled,
          next_pipe_index: s.pipes.length ? s.pipes[0].index : 0,
          bird_size: [BIRD_W, BIRD_H],
          ground_y: GROUND_Y,
          ceiling_y: HUD_H,
        },
      };
    },
  };

  Shell.mount({ api, core: () => core, canvas, first: () => render(), loop });
})();
