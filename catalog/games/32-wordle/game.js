// Wordle for pytest-gameworld.
//
// Layout of this file:
//   1. constants and helpers (word list, feedback rule)               - pure
//   2. createCore(seed, level): the simulation                        - pure, no DOM, no clock
//   3. renderer: draws a core onto the 1280x720 canvas
//   4. browser shell: window.gameAPI on the shared shell (catalog/games/_shell: seeded
//      randomness, keyboard queue, fixed-tick rAF loop, episodes, mounting)
//
// The round (level) and the episode (1 at init, +1 per reset) pick the answer
// from a seeded shuffle of the word list: every try of a round is a new word.
// Typed letters fill the current row and the row submits itself at the fifth
// letter, so a model can type a whole guess (or several) in one action.
(function () {
  "use strict";

  // ---------------------------------------------------------------- 1. basics
  const GAME_ID = "32-wordle";
  const TICK_MS = 1000 / 60;
  const ROWS = 6;
  const COLS = 5;
  // Rounds 1-5 are the tasks' levels; episodes of a round step through the
  // seed's answer order in strides of this, so no two (round, episode) pairs
  // of rounds 1-5 share a word within the first 112 episodes.
  const ROUNDS = 5;

  // Grid geometry (canvas px): 72 px tiles, 6 px gaps, centred under the HUD.
  const TILE = 72;
  const GAP = 6;
  const GRID_W = COLS * TILE + (COLS - 1) * GAP; // 384
  const GRID_X = 640 - GRID_W / 2;
  const GRID_Y = 70;

  // Tile flip on submit: each tile turns over in FLIP_MS, FLIP_STAGGER_MS after
  // its left neighbour. Drawn from game time only; input is never blocked.
  const FLIP_MS = 160;
  const FLIP_STAGGER_MS = 90;
  const FLIP_TOTAL_MS = FLIP_MS + (COLS - 1) * FLIP_STAGGER_MS;

  // Appendix A of docs/games.md: every word is a possible answer (561 words).
  const WORDS = (
    "about above actor acute admit adopt adult after again agent agree ahead alarm album alert alike alive allow " +
    "alone along alter among angel anger angle angry apart apple apply arena argue arise armor array arrow aside " +
    "asset audio avoid award aware awful bacon badge baker basic basin beach beard beast begin belly below bench " +
    "berry birth black blade blame blank blast blend bless blind block blood bloom board boost booth bound brain " +
    "brand brave bread break brick bride brief bring broad brown brush build built bunch burst buyer cabin cable " +
    "camel candy canoe cargo carry catch cause chain chair chalk charm chart chase cheap check cheek cheer chess " +
    "chest chief child chill choir civic claim class clean clear clerk click cliff climb clock close cloth cloud " +
    "coach coast color couch count court cover crack craft crane crash cream crime crisp cross crowd crown crust " +
    "curve cycle daily dance death debut delay depth diary dirty dizzy dough draft drain drama dream dress drink " +
    "drive eager early earth eight elbow elder empty enemy enjoy enter entry equal error event exact exist extra " +
    "faint fairy faith false fancy feast fence fever field fifth fight final flame flash fleet flesh float flock " +
    "flood floor flour fluid focus force forge forth found frame fresh front frost fruit funny gauge ghost giant " +
    "given glass globe glove grace grade grain grand grape grass grave great green greet grief grill gross group " +
    "guard guess guest guide habit happy harsh heart heavy hedge hello hobby honey honor horse hotel house human " +
    "humor hurry ideal image index inner input issue ivory jelly jewel joint judge juice knife knock label labor " +
    "large laser later laugh layer learn lease least leave legal lemon level light limit linen liver lobby local " +
    "logic loose lucky lunch magic major maker mango maple march match mayor medal metal meter might minor model " +
    "money month moral motor mount mouse mouth movie music nerve never night noble noise north novel nurse ocean " +
    "offer often olive onion opera orbit order organ other outer owner paint panel paper party pasta patch pause " +
    "peace pearl phase phone photo piano piece pilot pitch place plain plane plant plate point polar porch pound " +
    "power press price pride prime print prize proof proud queen quick quiet quite radio raise ranch range rapid " +
    "ratio reach react ready realm relax reply rider ridge rifle right rival river roast robot rocky rough round " +
    "route royal rural salad sauce scale scare scene scent scope score scout sense serve seven shade shake shape " +
    "share shark sharp sheep sheet shelf shell shift shine shirt shock shore short shout sight skill skirt sleep " +
    "slice slide slope small smart smile smoke snack snake solar solid solve sound south space spare spark speak " +
    "speed spell spend spice spine spoon sport spray squad stack staff stage stair stake stamp stand start state " +
    "steam steel steep stick still stone stool storm story stove straw strip study style sugar suite sunny super " +
    "sweet swing table taste teach thank theme thick thief thing think third thumb tiger title toast today token " +
    "tooth topic torch total touch tough tower trace track trade trail train treat trend trial tribe trick truck " +
    "truly trust truth twice uncle under union unity upper upset urban usual valid value video visit vital vivid " +
    "vocal voice waste watch water whale wheat wheel white whole width woman world worry worth write wrong yield " +
    "young youth zebra"
  ).split(" ");
  // Only rows that are words of this list earn "Letters correct": random
  // letter strings get their colours but no credit (see scoringRow).
  const WORD_SET = new Set(WORDS);

  const LETTERS = "abcdefghijklmnopqrstuvwxyz";
  const KEYBOARD_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
  // Result code per tile -> the state word for it; ranks order "best known".
  const RESULT_NAME = { g: "correct", y: "present", x: "absent" };
  const RANK = { unused: 0, absent: 1, present: 2, correct: 3 };

  // FNV-1a + murmur3 finaliser and mulberry32 on {s} (catalog/games/_shell). The
  // shell joins the parts as Array.join does, which differs from String() only
  // for null/undefined: the seed is never either (init and reset default it).
  const { hash32, makeRng, nextRandom } = window.GameShell;

  // Feedback for one guess, e.g. "gyxxg": greens first, then yellows while the
  // answer still has unmatched copies of the letter (the standard two-pass rule).
  function scoreGuess(guess, answer) {
    const out = ["x", "x", "x", "x", "x"];
    const left = {};
    for (let i = 0; i < COLS; i++) {
      if (guess[i] === answer[i]) out[i] = "g";
      else left[answer[i]] = (left[answer[i]] || 0) + 1;
    }
    for (let i = 0; i < COLS; i++) {
      if (out[i] === "g") continue;
      const c = guess[i];
      if (left[c] > 0) {
        out[i] = "y";
        left[c]--;
      }
    }
    return out.join("");
  }

  function countOf(result, code) {
    let n = 0;
    for (const r of result) if (r === code) n++;
    return n;
  }

  // The order of answers for one seed: a Fisher-Yates shuffle of the list's
  // indices. Depends on the seed only (not on the round); see answerFor.
  function answerOrder(seed) {
    const rng = makeRng(hash32(GAME_ID, seed, "answers"));
    const perm = WORDS.map((_, i) => i);
    for (let i = perm.length - 1; i > 0; i--) {
      const j = Math.floor(nextRandom(rng) * (i + 1));
      const t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    return perm;
  }

  // Round N's k-th episode plays perm[(N - 1 + 5 (k - 1)) mod 561]: the first
  // episodes of rounds 1-5 are five different words, and a reset after a
  // loss brings a new word (as the original's #infinite mode starts a new
  // word each round) instead of replaying one whose feedback is known.
  function answerFor(perm, level, episode) {
    return WORDS[perm[(level - 1 + ROUNDS * (episode - 1)) % perm.length]];
  }

  // ----------------------------------------------------------------- 2. core
  function createCore(seed, level, episode) {
    const core = new Core();
    core.seed = seed;
    core.level = level;
    core.episode = episode || 1;
    core.answer = answerFor(answerOrder(seed), level, core.episode);
    core.words = WORDS; // shared, read-only: the oracle's candidate pool
    core.guesses = []; // [{word, result, tick}]
    core.current = "";
    core.status = "playing";
    core.outcome = null;
    core.reason = null;
    core.ticks = 0; // every tick, for animations
    core.playTicks = 0; // ticks while playing -> gameTimeMs
    core.lettersTyped = 0;
    core.backspaces = 0;
    core.rev = 0; // bumped on every visible change (renderer cache key)
    return core;
  }

  function Core() {}

  // Advance one 1/60 s tick. input.pressed lists every key-down of this tick in
  // arrival order (duplicates kept: typing "speed" yields e twice).
  Core.prototype.tick = function (input) {
    const wasPlaying = this.status === "playing";
    if (wasPlaying) {
      for (const key of (input && input.pressed) || []) {
        this.key(key);
        if (this.status !== "playing") break; // letters after the end are dropped
      }
    }
    this.ticks++;
    if (wasPlaying) this.playTicks++;
  };

  // One key: a letter fills the row (the fifth submits it), Backspace deletes
  // from the unsubmitted row, anything else (Enter included) does nothing.
  Core.prototype.key = function (key) {
    if (this.status !== "playing") return;
    if (key.length === 1 && key >= "a" && key <= "z") {
      this.current += key;
      this.lettersTyped++;
      this.rev++;
      if (this.current.length === COLS) this.submit();
    } else if (key === "Backspace" && this.current.length > 0) {
      this.current = this.current.slice(0, -1);
      this.backspaces++;
      this.rev++;
    }
  };

  Core.prototype.submit = function () {
    const word = this.current;
    const result = scoreGuess(word, this.answer);
    this.guesses.push({ word, result, tick: this.ticks });
    this.current = "";
    if (result === "ggggg") {
      this.status = "terminal";
      this.outcome = "success";
      this.reason = "solved";
    } else if (this.guesses.length >= ROWS) {
      this.status = "terminal";
      this.outcome = "fail";
      this.reason = "out_of_guesses";
    }
  };

  Core.prototype.clone = function () {
    const c = new Core();
    Object.assign(c, this);
    c.guesses = this.guesses.map((g) => ({ word: g.word, result: g.result, tick: g.tick }));
    return c;
  };

  // Best known state of every letter a-z.
  Core.prototype.letterStates = function () {
    const states = {};
    for (const ch of LETTERS) states[ch] = "unused";
    for (const g of this.guesses) {
      for (let i = 0; i < COLS; i++) {
        const name = RESULT_NAME[g.result[i]];
        if (RANK[name] > RANK[states[g.word[i]]]) states[g.word[i]] = name;
      }
    }
    return states;
  };

  // 6x5 cell states: correct/present/absent for submitted rows, "tbd" for
  // typed letters of the current row, "empty" elsewhere.
  Core.prototype.cellStates = function () {
    const cells = [];
    for (let r = 0; r < ROWS; r++) {
      const row = [];
      const g = this.guesses[r];
      for (let c = 0; c < COLS; c++) {
        if (g) row.push(RESULT_NAME[g.result[c]]);
        else if (r === this.guesses.length && c < this.current.length) row.push("tbd");
        else row.push("empty");
      }
      cells.push(row);
    }
    return cells;
  };

  // A row earns "Letters correct" only when its guess is a word of the list
  // (every answer is one): a skilled guess, not a lucky letter string.
  function scoringRow(g) {
    return WORD_SET.has(g.word);
  }

  Core.prototype.bestCount = function (codes, onlyWords) {
    let best = 0;
    for (const g of this.guesses) {
      if (onlyWords && !scoringRow(g)) continue;
      let n = 0;
      for (const code of codes) n += countOf(g.result, code);
      if (n > best) best = n;
    }
    return best;
  };

  // The state as a fresh plain object (getState() without the wall-clock timestamp).
  Core.prototype.snapshot = function (attempts) {
    const lettersCorrect = this.bestCount("g", true);
    const letters = this.letterStates();
    const row = Math.min(this.guesses.length, ROWS - 1);
    const col = Math.min(this.current.length, COLS - 1);
    const solved = this.outcome === "success" ? 1 : 0;
    return {
      gameId: GAME_ID,
      seed: this.seed,
      gameTimeMs: Math.round((this.playTicks * 1000) / 60),
      status: this.status,
      terminal: { isTerminal: this.status === "terminal", outcome: this.outcome, reason: this.reason },
      game_state: {
        score: lettersCorrect,
        level: this.level,
        round: this.level,
        guesses: this.guesses.map((g) => ({ word: g.word, result: g.result, counts: scoringRow(g) })),
        current_guess: this.current,
        guesses_left: ROWS - this.guesses.length,
        letters,
        environment: {
          letters: Object.assign({}, letters),
          cell_states: this.cellStates(),
          current_guess_length: this.current.length,
        },
        completion_progress: lettersCorrect / COLS,
        // No avatar: the typing cursor stands in for the player convention.
        player: {
          x: GRID_X + col * (TILE + GAP) + TILE / 2,
          y: GRID_Y + row * (TILE + GAP) + TILE / 2,
          row,
          col,
          alive: this.outcome !== "fail",
        },
      },
      metrics: {
        primary_score: lettersCorrect,
        letters_correct: lettersCorrect,
        letters_present_best: this.bestCount("gy"),
        guesses_used: this.guesses.length,
        solved,
        letters_typed: this.lettersTyped,
        backspaces: this.backspaces,
        attempts,
      },
      raw: { ticks: this.ticks, word_list_size: WORDS.length },
    };
  };

  // A state for the moment before init() (every scored path is 0).
  function loadingSnapshot() {
    const core = createCore(42, 1, 1);
    const s = core.snapshot(0);
    s.seed = null;
    s.status = "loading";
    s.game_state.level = 0;
    s.game_state.round = 0;
    return s;
  }

  // ------------------------------------------------------------- 3. renderer
  const COLOURS = {
    page: "#121213",
    hud: "#1E1E20",
    empty: "#3A3A3C",
    tbdEdge: "#8E8E92",
    correct: "#538D4E",
    present: "#B59F3B",
    absent: "#4A4A4D",
    keyUnused: "#8A8C90",
    keyAbsent: "#262628",
    keyAbsentText: "#7A7A7E",
    text: "#FFFFFF",
  };
  const STATE_FILL = {
    correct: COLOURS.correct,
    present: COLOURS.present,
    absent: COLOURS.absent,
    unused: COLOURS.keyUnused,
  };
  // Keys of letters known to be absent go nearly black (dim letter), so they
  // stand apart from untried keys at a glance.
  const KEY_FILL = Object.assign({}, STATE_FILL, { absent: COLOURS.keyAbsent });
  const KEY_W = 52;
  const KEY_H = 46;
  const KEY_GAP = 7;
  const KEYS_Y = 548;

  const canvas = document.getElementById("game");
  // Opaque, and a full render starts with a full-canvas drawImage: the browser
  // can then drop earlier frames' draw calls instead of rasterising them all
  // when the picture is read back.
  const ctx = canvas.getContext("2d", { alpha: false });

  function outlined(c, text, x, y, font, align) {
    c.font = font;
    c.textAlign = align;
    c.textBaseline = "middle";
    c.lineJoin = "round";
    c.lineWidth = 3;
    c.strokeStyle = "#000";
    c.strokeText(text, x, y);
    c.fillStyle = COLOURS.text;
    c.fillText(text, x, y);
  }

  function roundRect(c, x, y, w, h, r) {
    c.beginPath();
    c.moveTo(x + r, y);
    c.arcTo(x + w, y, x + w, y + h, r);
    c.arcTo(x + w, y + h, x, y + h, r);
    c.arcTo(x, y + h, x, y, r);
    c.arcTo(x, y, x + w, y, r);
    c.closePath();
  }

  // The page background, HUD bar, empty grid and the help panels never change:
  // painted once on a spare canvas and copied on every redraw.
  let backdrop = null;
  function backdropImage() {
    if (backdrop) return backdrop;
    backdrop = document.createElement("canvas");
    backdrop.width = 1280;
    backdrop.height = 720;
    const b = backdrop.getContext("2d");
    b.fillStyle = COLOURS.page;
    b.fillRect(0, 0, 1280, 720);
    b.fillStyle = COLOURS.hud;
    b.fillRect(0, 0, 1280, 56);
    b.strokeStyle = COLOURS.empty;
    b.lineWidth = 2;
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        b.strokeRect(GRID_X + c * (TILE + GAP) + 1, GRID_Y + r * (TILE + GAP) + 1, TILE - 2, TILE - 2);
      }
    }
    // Left panel: how to play. Right panel: what the colours mean.
    outlined(b, "How to play", 40, 110, "bold 24px sans-serif", "left");
    const help = [
      "Type any 5 letters.", "The row is checked", "at the 5th letter.", "Backspace deletes",
      "an unchecked letter.", "6 guesses per word.", "Only common words", "earn letters correct.",
    ];
    help.forEach((t, i) => outlined(b, t, 40, 150 + i * 32, "20px sans-serif", "left"));
    outlined(b, "Colours", 900, 110, "bold 24px sans-serif", "left");
    const legend = [
      [COLOURS.correct, "right letter,", "right place"],
      [COLOURS.present, "in the word,", "other place"],
      [COLOURS.absent, "not in the word", ""],
    ];
    legend.forEach(([fill, a, bText], i) => {
      const y = 146 + i * 78;
      b.fillStyle = fill;
      b.fillRect(900, y, 44, 44);
      outlined(b, a, 958, y + (bText ? 11 : 22), "20px sans-serif", "left");
      if (bText) outlined(b, bText, 958, y + 35, "20px sans-serif", "left");
    });
    return backdrop;
  }

  function tileRect(r, c) {
    return { x: GRID_X + c * (TILE + GAP), y: GRID_Y + r * (TILE + GAP) };
  }

  // One tile; `flip` in 0..1 squashes it vertically (0.5 = edge-on), and the
  // result colour shows from the second half of the flip on.
  function drawTile(r, c, letter, fill, flip) {
    const p = tileRect(r, c);
    const squash = flip === undefined ? 1 : Math.abs(1 - 2 * flip);
    const h = Math.max(2, TILE * squash);
    const y = p.y + (TILE - h) / 2;
    if (fill) {
      ctx.fillStyle = fill;
      ctx.fillRect(p.x, y, TILE, h);
    } else {
      ctx.strokeStyle = COLOURS.tbdEdge;
      ctx.lineWidth = 3;
      ctx.strokeRect(p.x + 1.5, y + 1.5, TILE - 3, h - 3);
    }
    if (letter && squash > 0.25) {
      ctx.save();
      ctx.translate(p.x + TILE / 2, p.y + TILE / 2 + 2);
      ctx.scale(1, squash);
      ctx.font = "bold 40px sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillStyle = COLOURS.text;
      ctx.fillText(letter.toUpperCase(), 0, 0);
      ctx.restore();
    }
  }

  // Milliseconds since row g was submitted, or Infinity when long done.
  function rowAge(core, g) {
    return (core.ticks - g.tick) * TICK_MS;
  }

  // Rows whose flip is still running (submitted within the last FLIP_TOTAL_MS).
  function flipping(core, g) {
    return rowAge(core, g) <= FLIP_TOTAL_MS + TICK_MS;
  }

  function drawRow(core, r) {
    const g = core.guesses[r];
    const age = rowAge(core, g);
    for (let c = 0; c < COLS; c++) {
      const t = (age - c * FLIP_STAGGER_MS) / FLIP_MS;
      const fill = STATE_FILL[RESULT_NAME[g.result[c]]];
      if (t >= 1) drawTile(r, c, g.word[c], fill);
      else if (t < 0.5) drawTile(r, c, g.word[c], null, Math.max(0, t));
      else drawTile(r, c, g.word[c], fill, t);
    }
    // Left of the grid, clear of the help text: this row earns no credit.
    if (!scoringRow(g)) outlined(ctx, "no credit", GRID_X - 14, tileRect(r, 0).y + TILE / 2, "18px sans-serif", "right");
  }

  function drawGrid(core) {
    for (let r = 0; r < core.guesses.length; r++) drawRow(core, r);
    const r = core.guesses.length;
    if (r < ROWS) {
      for (let c = 0; c < core.current.length; c++) drawTile(r, c, core.current[c], null);
    }
  }

  // A flip frame repaints only the flipping rows over the backdrop; the rest
  // of the picture is unchanged since the last full render. The strip starts
  // at ROW_STRIP_X so that a row's "no credit" label is repainted, not overdrawn.
  // A row still flipping when the last frame was drawn is repainted too: its
  // flip may have ended in frames that were skipped (frameCanBeSeen).
  const ROW_STRIP_X = GRID_X - 110;
  function redrawFlippingRows(core, sinceTicks) {
    const bg = backdropImage();
    const w = GRID_X + GRID_W + 2 - ROW_STRIP_X;
    core.guesses.forEach((g, r) => {
      if ((sinceTicks - g.tick) * TICK_MS > FLIP_TOTAL_MS + TICK_MS) return;
      const y = GRID_Y + r * (TILE + GAP) - 2;
      ctx.drawImage(bg, ROW_STRIP_X, y, w, TILE + 4, ROW_STRIP_X, y, w, TILE + 4);
      drawRow(core, r);
    });
  }

  // The on-screen keyboard (read-only): a letter shows its colour once the
  // flip of the row that revealed it has finished. Cached per set of colours.
  let keyboardLayer = null;
  let keyboardKey = "";
  function keyboardImage(core) {
    const shown = core.clone();
    shown.guesses = core.guesses.filter((g) => !flipping(core, g));
    const states = shown.letterStates();
    const key = KEYBOARD_ROWS.join("").split("").map((ch) => states[ch][1]).join("");
    if (keyboardLayer && key === keyboardKey) return keyboardLayer;
    keyboardKey = key;
    if (!keyboardLayer) {
      keyboardLayer = document.createElement("canvas");
      keyboardLayer.width = 1280;
      keyboardLayer.height = 720 - KEYS_Y;
    }
    const k = keyboardLayer.getContext("2d");
    k.clearRect(0, 0, keyboardLayer.width, keyboardLayer.height);
    KEYBOARD_ROWS.forEach((row, i) => {
      const w = row.length * KEY_W + (row.length - 1) * KEY_GAP;
      const x0 = 640 - w / 2;
      const y = i * (KEY_H + KEY_GAP);
      for (let j = 0; j < row.length; j++) {
        const x = x0 + j * (KEY_W + KEY_GAP);
        const st = states[row[j]];
        k.fillStyle = KEY_FILL[st];
        roundRect(k, x, y, KEY_W, KEY_H, 6);
        k.fill();
        k.font = "bold 22px sans-serif";
        k.textAlign = "center";
        k.textBaseline = "middle";
        k.fillStyle = st === "absent" ? COLOURS.keyAbsentText : COLOURS.text;
        k.fillText(row[j].toUpperCase(), x + KEY_W / 2, y + KEY_H / 2 + 1);
      }
    });
    return keyboardLayer;
  }

  function drawHud(core) {
    outlined(ctx, "Wordle", 24, 28, "bold 28px sans-serif", "left");
    outlined(ctx, `Round ${core.level}`, 136, 29, "20px sans-serif", "left");
    outlined(ctx, `Letters correct ${core.bestCount("g", true)}/5`, 640, 28, "bold 28px sans-serif", "center");
    outlined(ctx, `Guesses left ${ROWS - core.guesses.length}`, 1256, 28, "bold 28px sans-serif", "right");
  }

  function drawTerminal(core) {
    ctx.fillStyle = "rgba(10, 10, 12, 0.82)";
    roundRect(ctx, 364, 250, 552, 170, 14);
    ctx.fill();
    ctx.strokeStyle = core.outcome === "success" ? COLOURS.correct : "#C0392B";
    ctx.lineWidth = 3;
    ctx.stroke();
    const n = core.guesses.length;
    if (core.outcome === "success") {
      outlined(ctx, "LEVEL COMPLETE", 640, 300, "bold 40px sans-serif", "center");
      outlined(ctx, `Solved in ${n} ${n === 1 ? "guess" : "guesses"}`, 640, 350, "bold 28px sans-serif", "center");
    } else {
      // The answer stays hidden (docs/games.md); the next try has a new word.
      outlined(ctx, "GAME OVER \u2013 out of guesses", 640, 300, "bold 34px sans-serif", "center");
      outlined(ctx, "Six guesses used", 640, 350, "bold 28px sans-serif", "center");
    }
    if (!window.__GW_HARNESS__) outlined(ctx, "Press Enter to try again", 640, 392, "20px sans-serif", "center");
  }

  function render(core) {
    ctx.drawImage(backdropImage(), 0, 0);
    if (!core) return;
    drawHud(core);
    drawGrid(core);
    ctx.drawImage(keyboardImage(core), 0, KEYS_Y);
    if (core.status === "terminal") drawTerminal(core);
  }

  // ------------------------------------------------------- 4. browser shell
  const Shell = window.GameShell;
  let core = null;
  const keys = Shell.keyboard({
    keys: [...LETTERS, "Backspace", "Enter"],
    // Humans restart from the end panel; the harness resets by API.
    onDown(key) {
      if (key !== "Enter" || window.__GW_HARNESS__ || !core || core.status !== "terminal") return false;
      api.reset({});
      return true;
    },
  });

  // Every key-down since the last tick, in order. Wordle has no held keys, and
  // a typed word arrives as many presses between two ticks: none may be lost
  // (so the raw events, not take()'s sets, which would merge the two e of "speed").
  function takeInput() {
    const pressed = [];
    for (const ev of keys.drain()) if (ev.down) pressed.push(ev.key);
    return { pressed };
  }

  // Fixed 1/60 s ticks from the shell's accumulator over rAF timestamps
  // (virtual under the harness). visibleOnly: under the harness only the last
  // frame before each 50 ms mark can be seen, so only those are drawn (a
  // skipped frame leaves drawnKey stale, so the next visible one draws).
  const loop = Shell.loop({
    tickMs: TICK_MS,
    keepTick: true,
    visibleOnly: true,
    tick() {
      const input = takeInput();
      if (core) core.tick(input);
    },
    render() {
      const key = viewKey(core);
      if (key === drawnKey) return;
      // Same letters and status as the last full render, only a flip moved on.
      if (key.startsWith(drawnBase + " anim") && core.status === "playing") redrawFlippingRows(core, drawnTicks);
      else fullRender(core);
      drawnKey = key;
      drawnTicks = core ? core.ticks : 0;
    },
  });

  // Redraw only when the picture can change: a flip is running, or letters,
  // rows or status changed. Idle frames cost nothing.
  let drawnKey = "";
  let drawnBase = "";
  let drawnTicks = 0;   // core.ticks when the last frame was drawn
  // A row whose flip has ended changes the keyboard's colours: a full render.
  function baseKey(core) {
    if (!core) return "none";
    const settled = core.guesses.filter((g) => !flipping(core, g)).length;
    return `${ep.attempts} ${core.rev} ${core.status} ${settled}`;
  }
  function viewKey(core) {
    const base = baseKey(core);
    if (core && core.guesses.some((g) => flipping(core, g))) return `${base} anim ${core.ticks}`;
    return base;
  }

  function fullRender(core) {
    render(core);
    drawnBase = baseKey(core);
  }

  // Rounds are 1-based; upstream's endless mode continues past 5, so any
  // positive integer is a round (wrapping around the list).
  function pickLevel(level) {
    const n = Math.floor(Number(level));
    if (!Number.isFinite(n) || n < 1) {
      if (level !== undefined && level !== null) console.warn(`${GAME_ID}: bad level ${level}; using 1`);
      return 1;
    }
    return n;
  }

  // The episode number (the shell's attempts: 1 at init, +1 per reset) picks
  // the round's word, so every try after a loss has a new one.
  const ep = Shell.episodes({
    pickLevel,
    start(seed, level, config, attempts) {
      keys.clear();
      core = createCore(seed, level, attempts);
      fullRender(core);
      drawnKey = viewKey(core);
      drawnTicks = core.ticks;
    },
  });

  const api = {
    capabilities: {
      supports_seed: true,
      supports_inplace_reset: true,
      supports_level_select: true,
    },
    init: ep.init,
    reset: ep.reset,
    getState() {
      const state = core ? core.snapshot(ep.attempts) : loadingSnapshot();
      // Date.now() is the harness's virtual clock, so this stays deterministic.
      state.timestampMs = Date.now();
      return state;
    },
  };

  // No canvas to fit: index.html's CSS scales it for humans.
  Shell.mount({ api, core: () => core, first: () => render(null), loop });
})();
