// The Reversi computer: `chooseReversiMove(board, level, {budgetMs, rng, clock})` (CONTRACTS.md,
// section 2). Plain ES module with no dependencies: runs in the page, in a module Web Worker and in
// Node. Levels (the characters of bench/pybots/reversi_bots.py):
//
// * "easy": greedy with noise, a random legal move a quarter of the time (levels.js).
// * "medium": 3-ply alpha-beta on mobility and corners (levels.js).
// * "hard": iterative-deepening negascout with the pattern evaluation (tables fitted on positions a
//   strong engine scored), exact endgame from 16 empties, win/draw/loss from 18 (hard.js, midgame.js,
//   endgame.js, patterns.js, weights.js).
//
// `exactReversiMoveValues(board, {deadline, maxNodes})` gives the exact result of every legal move
// (post-game analysis).

import { NAMES } from "./bitboard.js";
import { wallClock } from "./control.js";
import { chooseHard, exactMoveValues } from "./hard.js";
import { chooseEasy, chooseMedium } from "./levels.js";
import { checkToMove, fromEngineBoard } from "./position.js";

export const LEVELS = Object.freeze(["easy", "medium", "hard"]);
export const DEFAULT_BUDGET_MS = 1000;

/**
 * The move of the computer at `level` for the side to move of `position` = {me: [lo, hi], opp: [lo, hi]}
 * (position.js), as a square name "a1"-"h8". Options as chooseReversiMove, plus `maxNodes` and `info`
 * for Hard (see hard.js).
 * @throws {Error} when the game is over, the side to move must pass, or the level is unknown
 */
export function choosePositionMove(position, level, { budgetMs = DEFAULT_BUDGET_MS, rng = Math.random, clock = wallClock,
  maxNodes, info } = {}) {
  const { me, opp } = checkToMove(position);
  let sq;
  if (level === "easy") sq = chooseEasy(me, opp, rng);
  else if (level === "medium") sq = chooseMedium(me, opp, budgetMs, clock);
  else if (level === "hard") sq = chooseHard(me, opp, budgetMs, { clock, maxNodes, info });
  else throw new Error(`unknown level: ${level} (one of ${LEVELS.join(", ")})`);
  return NAMES[sq];
}

/**
 * The computer's move on the engine's Reversi `board` (static/js/engine/reversi.js) for the side to
 * move, as a square name "a1"-"h8".
 *
 * @param {string} level "easy" | "medium" | "hard"
 * @param {object} options `budgetMs` thinking time (ms of `clock`; Hard plans 70 % of it, Medium
 *   stops at it, Easy ignores it), `rng` (() => a number in [0, 1); Easy's randomness; default
 *   Math.random), `clock` (() => ms, any origin; default performance.now: a CPU-time clock keeps a
 *   loaded machine from weakening Hard), `maxNodes` and `info` (Hard: a node limit per search and an
 *   object receiving its report; hard.js)
 * @throws {Error} when the game is over, the side to move must pass, or the level is unknown
 */
export function chooseReversiMove(board, level, options = {}) {
  return choosePositionMove(fromEngineBoard(board), level, options);
}

/**
 * The exact final disc difference after each legal move of the side to move on the engine's Reversi
 * `board`, from that side's view (empty squares to the winner), for post-game analysis: an object
 * {square name: value}, or null when `deadline` (ms of `clock`) or `maxNodes` came first. Hard
 * solves exactly from 16 empty squares within its move budget; give this more time from 20.
 * @throws {Error} when the game is over or the side to move must pass
 */
export function exactReversiMoveValues(board, { clock = wallClock, deadline = Infinity, maxNodes = Infinity } = {}) {
  const { me, opp } = fromEngineBoard(board);
  const values = exactMoveValues(me, opp, { clock, deadline, maxNodes });
  return values && Object.fromEntries([...values].map(([sq, value]) => [NAMES[sq], value]));
}
