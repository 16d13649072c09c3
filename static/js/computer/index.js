// The browser computer: one entry point for both games and every level (CONTRACTS.md section 2).
//
//   chooseMove(board, level, {budgetMs = 1000, rng, clock}) -> square name
//   chooseOpeningAction(machine, level, {budgetMs = 1000, rng, clock}) -> action dict
//
// `board` is an engine board (static/js/engine/): a caro Board (it has `rules`) or a Reversi Board
// (it has `flips`); it is never changed. `level`: "easy" | "medium" | "hard". `budgetMs`: thinking
// time (Hard plans to use 0.9 of it for caro, never past 0.92; Easy and Medium far less). `rng`: an integer seed, a
// function returning [0, 1) or nothing (Math.random); Easy, Medium and the opening steps use it.
// `clock`: a function returning milliseconds (default performance.now()). Errors are thrown as
// Error with a message: an unknown level, a finished game, a board that is neither game's.
// Caro is static/js/computer/caro/; Reversi is static/js/computer/reversi/index.js
// (chooseReversiMove), written on the js-reversi branch: until it is there, a Reversi board gets a
// clear error and caro is unaffected.

import { LEVELS, chooseCaroMove } from "./caro/index.js";
import { chooseCaroOpeningAction } from "./caro/openings.js";

export { LEVELS };

let reversi = null;
let reversiMissing = null;
try {
  reversi = await import("./reversi/index.js");
} catch (e) {
  reversiMissing = e;
}

function isReversiBoard(board) {
  return board && typeof board.flips === "function" && !board.rules;
}

/** A move for the side to move of an engine board (see the module comment). */
export function chooseMove(board, level, opts = {}) {
  if (!LEVELS.includes(level)) throw new Error(`unknown level: ${level}; levels are ${LEVELS.join(", ")}`);
  if (isReversiBoard(board)) {
    if (!reversi) {
      throw new Error(`the Reversi computer (static/js/computer/reversi/index.js) is not available: ${reversiMissing}`);
    }
    return reversi.chooseReversiMove(board, level, opts);
  }
  if (!board || !board.rules || typeof board.stones !== "function") throw new Error("not an engine board");
  return chooseCaroMove(board, level, opts);
}

/** The computer's action for the current step of a RIF or Swap2 opening machine (see
 * static/js/computer/caro/openings.js). */
export function chooseOpeningAction(machine, level, opts = {}) {
  return chooseCaroOpeningAction(machine, level, opts);
}
