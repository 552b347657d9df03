// Reference expert for Wordle.
//
// It never reads the answer. It keeps the words of the built-in list that
// agree with every row of feedback so far, and guesses the list word that
// splits those candidates into the most feedback patterns (ties: a word that
// may itself be the answer, then the smallest largest pattern group). The
// opener is fixed ("trace"). Checked on the whole list: every answer falls in
// at most 4 guesses. Each guess is typed in one `type_text` action; the row
// submits itself at the fifth letter.
(function () {
  "use strict";

  const OPENER = "trace";
  const WAIT = { control: "wait", args: {} };

  // Same rule as the game: greens first, then yellows up to the letter's
  // remaining count in the answer.
  function feedback(guess, answer) {
    const out = ["x", "x", "x", "x", "x"];
    const left = {};
    for (let i = 0; i < 5; i++) {
      if (guess[i] === answer[i]) out[i] = "g";
      else left[answer[i]] = (left[answer[i]] || 0) + 1;
    }
    for (let i = 0; i < 5; i++) {
      if (out[i] !== "g" && left[guess[i]] > 0) {
        out[i] = "y";
        left[guess[i]]--;
      }
    }
    return out.join("");
  }

  function candidates(words, guesses) {
    return words.filter((w) => guesses.every((g) => feedback(g.word, w) === g.result));
  }

  function bestGuess(words, cands) {
    if (cands.length <= 2) return cands[0];
    const isCand = new Set(cands);
    let best = null;
    for (const w of words) {
      const groups = new Map();
      let largest = 0;
      for (const c of cands) {
        const k = feedback(w, c);
        const n = (groups.get(k) || 0) + 1;
        groups.set(k, n);
        if (n > largest) largest = n;
      }
      const score = [groups.size, isCand.has(w) ? 1 : 0, -largest];
      if (!best || better(score, best.score)) best = { word: w, score };
    }
    return best.word;
  }

  function better(a, b) {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
    return false;
  }

  function choose(words, guesses) {
    if (guesses.length === 0) return OPENER;
    return bestGuess(words, candidates(words, guesses));
  }

  const api = {
    feedback,
    choose,
    act(state, task, role) {
      const core = window.__gwCore;
      if (!core || !state || state.status !== "playing") return WAIT;
      const gs = state.game_state;
      const word = choose(core.words, gs.guesses);
      // A half-typed row (never left by this oracle) is completed from the
      // guess's tail, so the next action starts on a clean row.
      const text = word.slice(gs.current_guess.length);
      return { control: "type_text", args: { text } };
    },
  };

  if (typeof window !== "undefined") window.gameOracle = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})();
