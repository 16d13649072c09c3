// The caro computer's entry points: a move for a position, at a level.

import { SearchBoard } from "./board.js";
import { CHOOSERS } from "./levels.js";
import { findThreatWin } from "./threats.js";
import { makeRng } from "../rng.js";
import { wallClock } from "./clock.js";
import { squareName } from "./rules.js";

export const LEVELS = Object.freeze(["easy", "medium", "hard"]);

/**
 * A move for the side to move of a caro position. `position`: {rules: {size, win_length, exact,
 * blocked, renju}, x: [square, ...], o: [square, ...], toMove: "X" | "O"}. `level`: "easy" |
 * "medium" | "hard". Options: `budgetMs` (thinking time, default 1000: Hard plans to use 0.9 of
 * it, Easy and Medium far less), `rng` (seed, function or rng object; Easy and Medium use it),
 * `clock` (ms function, default the wall clock), `stats` (an object Hard fills with its search's
 * depth, nodes and the phase that chose). Returns the square name of a legal move. Throws Error for
 * an unknown level or when the side to move has no legal move.
 */
export function choosePositionMove(position, level, { budgetMs = 1000, rng, clock = wallClock, stats = null } = {}) {
  const choose = CHOOSERS[level];
  if (!choose || !Object.hasOwn(CHOOSERS, level)) throw new Error(`unknown level: ${level}`);
  const fb = SearchBoard.fromNames(position.rules, position);
  const q = choose(fb, budgetMs, makeRng(rng), clock, stats);
  return fb.name(q);
}

/**
 * chooseMove for a caro engine board (static/js/engine/caro.js Board: `rules`, `stones()`,
 * `turn`, `outcome`; not changed). Throws Error when the game is over (see choosePositionMove).
 */
export function chooseCaroMove(board, level, opts = {}) {
  if (board.outcome) throw new Error("the game is over: no move to choose");
  const x = [];
  const o = [];
  for (const [square, side] of Object.entries(board.stones())) (side === "X" ? x : o).push(square);
  return choosePositionMove({ rules: board.rules, x, o, toMove: board.turn }, level, opts);
}

/** Openings the warm-up plays out (offsets from the centre, X and O alternating). */
const WARM_OPENINGS = [[[0, 0], [1, 1], [1, 0], [-1, 0]], [[0, 0], [1, 0], [0, 1], [0, -1]], [[0, 0], [1, 1], [-1, 1]]];

/**
 * Let Hard play against itself from a few openings of each rule set in `rulesList` for about
 * `totalMs` (default 1500), a move of `budgetMs` (default 100) at a time, so that the first timed
 * move of a fresh process (the brain) meets compiled code (V8 reaches its fastest tier only after a
 * function has run a while) and filled pattern tables. Returns the milliseconds it took.
 */
export function warmUp(rulesList, { totalMs = 1500, budgetMs = 100, clock = wallClock } = {}) {
  const t0 = clock();
  const each = totalMs / Math.max(1, rulesList.length);
  for (const rules of rulesList) {
    const start = clock();
    const c = rules.size >> 1;
    for (let k = 0; clock() - start < each && k < 20; k++) {
      const stones = WARM_OPENINGS[k % WARM_OPENINGS.length].map(([dc, dr]) => squareName(c + dc, c + dr));
      const x = stones.filter((_, i) => i % 2 === 0);
      const o = stones.filter((_, i) => i % 2 === 1);
      for (let ply = 0; ply < 12 && clock() - start < each; ply++) {
        const toMove = (x.length + o.length) % 2 ? "O" : "X";
        const square = choosePositionMove({ rules, x, o, toMove }, "hard", { budgetMs, clock, rng: k });
        (toMove === "X" ? x : o).push(square);
      }
    }
  }
  return clock() - t0;
}

/**
 * Whether the side to move of a caro position has a forced win by threats, and its line (post-game
 * analysis, issue 29). `position`: as choosePositionMove's, or an engine board. Options: `vct`
 * (false: fours only, a VCF; true: a VCF first, then fours and open threes), `depth` (attacker
 * moves; default 16 for a VCF, 12 for a VCT), `maxNodes` (default 200,000), `deadline` / `clock`
 * (ms), `zone` (false: threes anywhere). Returns {line, nodes, timedOut}: `line` the main line as
 * square names, attacker and defender alternating from the attacker's move, a final null meaning
 * "no defence: any reply loses to a five"; null when no win was found (which is not a proof that
 * none exists, above all when `timedOut`). Every line obeys the position's rules (blocked ends,
 * exact five, Renju fouls).
 */
export function threatWin(position, options = {}) {
  let spec = position;
  if (typeof position.stones === "function") {
    const x = [];
    const o = [];
    for (const [square, side] of Object.entries(position.stones())) (side === "X" ? x : o).push(square);
    spec = { rules: position.rules, x, o, toMove: position.turn };
  }
  const fb = SearchBoard.fromNames(spec.rules, spec);
  const found = findThreatWin(fb, options);
  return { ...found, line: found.line && found.line.map((q) => (q === null ? null : fb.name(q))) };
}
