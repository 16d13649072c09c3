// Positions for the computer: the side to move's and the other side's discs as [lo, hi] bitboards
// (bitboard.js), from the browser engine's board (static/js/engine/reversi.js).

import { INDEX, NAMES, moves, out } from "./bitboard.js";

export const BLACK = "black"; // the engine's colour names (caro/engine/reversi.py, static/js/engine/reversi.js)
export const WHITE = "white";

/**
 * The position of an engine board (static/js/engine/reversi.js: `.outcome`, `.turn`, `.discs()` ->
 * {square: colour} or a Map of them): {me, opp} of the side to move.
 * @throws {Error} when the game is over or the side to move has no legal move (it must pass)
 */
export function fromEngineBoard(board) {
  if (board.outcome) throw new Error("the game is over: no move to choose");
  const discs = board.discs();
  const sides = { [BLACK]: [0, 0], [WHITE]: [0, 0] };
  for (const [name, colour] of discs instanceof Map ? discs : Object.entries(discs)) {
    const sq = INDEX[name];
    if (sq === undefined || !sides[colour]) throw new Error(`bad disc ${name}: ${colour}`);
    sides[colour][sq >> 5] |= 1 << (sq & 31);
  }
  const me = sides[board.turn];
  const opp = sides[board.turn === BLACK ? WHITE : BLACK];
  if (!me) throw new Error(`bad turn ${board.turn}`);
  return checkToMove({ me, opp });
}

/**
 * `position` ({me, opp}) itself when the side to move has a legal move.
 * @throws {Error} when the game is over or the side to move must pass
 */
function checkToMove(position) {
  const { me, opp } = position;
  if ((moves(me[0], me[1], opp[0], opp[1]) | out[0]) === 0) {
    throw new Error((moves(opp[0], opp[1], me[0], me[1]) | out[0]) === 0
      ? "the game is over: no move to choose" : "the side to move has no legal move (it must pass)");
  }
  return position;
}

export { NAMES, INDEX, checkToMove };
