// Positions for the computer: the side to move's and the other side's discs as [lo, hi] bitboards
// (bitboard.js), from the browser engine's board or from a move string.

import { INDEX, NAMES, after, moves, out, play } from "./bitboard.js";

export const BLACK = "black"; // the engine's colour names (caro/engine/reversi.py, static/js/engine/reversi.js)
export const WHITE = "white";
// d5 e4 black, d4 e5 white; Black moves first
const START = Object.freeze({ black: [1 << 28, 1 << 3], white: [1 << 27, 1 << 4] });

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
 * The position after a move string such as "f5d6c3" (case-insensitive; passes are not written: a
 * side with no legal move passes automatically, as in the engine's Board.fromMoves).
 * @returns {{me: number[], opp: number[], turn: string, over: boolean}} `over`: neither side can move
 * @throws {Error} on a bad square or an illegal move
 */
export function fromMoves(text) {
  const s = text.trim().toLowerCase();
  if (s.length % 2) throw new Error(`odd-length move string: ${text}`);
  let me = [...START.black];
  let opp = [...START.white];
  let turn = BLACK;
  const canMove = (a, b) => (moves(a[0], a[1], b[0], b[1]) | out[0]) !== 0;
  for (let k = 0; k < s.length; k += 2) {
    const name = s.slice(k, k + 2);
    const sq = INDEX[name];
    if (sq === undefined) throw new Error(`bad square: ${name}`);
    if (!canMove(me, opp)) throw new Error(`the game is over before ${name}`);
    const lo = moves(me[0], me[1], opp[0], opp[1]);
    const legal = sq < 32 ? (lo >>> sq) & 1 : (out[0] >>> (sq - 32)) & 1;
    if (!legal) throw new Error(`illegal move: ${name}`);
    play(me[0], me[1], opp[0], opp[1], sq);
    [me, opp] = [[after[0], after[1]], [after[2], after[3]]];
    turn = turn === BLACK ? WHITE : BLACK;
    if (!canMove(me, opp) && canMove(opp, me)) {
      [me, opp] = [opp, me];
      turn = turn === BLACK ? WHITE : BLACK;
    }
  }
  return { me, opp, turn, over: !canMove(me, opp) };
}

function checkToMove(position) {
  const { me, opp } = position;
  if ((moves(me[0], me[1], opp[0], opp[1]) | out[0]) === 0) {
    throw new Error((moves(opp[0], opp[1], me[0], me[1]) | out[0]) === 0
      ? "the game is over: no move to choose" : "the side to move has no legal move (it must pass)");
  }
  return position;
}

export { NAMES, INDEX, checkToMove };
