// What the Reversi analysis asks of the browser computer (static/js/computer/reversi/), in one
// place: Hard's midgame score of a position, and the exact final result of every legal move.
//
// The computer exports exactReversiMoveValues(board), which solves each move in the full window
// with a table it clears first. The analysis asks for the values of a whole game's endgame, ply
// after ply, so ExactValues below drives the computer's Endgame solver (endgame.js, an exported
// class, and its solveMove) itself: every move in a window of one value around a guess, moved
// until the value falls inside (MTD(f); the values are even, so (g - 1, g + 1) holds one), and
// one table kept across the plies (its entries are bounds of exact positions: always true). It
// gives the same values as exactReversiMoveValues (a test checks it) in about 60 % of its nodes.
//
// Every search is bounded by nodes, never by time (the same analysis on any machine).

import { Control } from "../computer/reversi/control.js";
import { Endgame, MAX_DIFF } from "../computer/reversi/endgame.js";
import { NAMES, moves as legalBits, out } from "../computer/reversi/bitboard.js";
import { choosePositionMove } from "../computer/reversi/index.js";
import { SCALE, WIN } from "../computer/reversi/evaluation.js";

/** Nodes of Hard's midgame search for one position's score. */
export const MIDGAME_NODES = 150000;

/** The legal squares (bit indices, ascending) of `me` = [lo, hi] against `opp`. */
export function legalSquares(me, opp) {
  const lo = legalBits(me[0], me[1], opp[0], opp[1]);
  const hi = out[0];
  const squares = [];
  for (let sq = 0; sq < 64; sq++) if (sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1) squares.push(sq);
  return squares;
}

/**
 * Hard's score of the position {me, opp} (the side to move has a legal move) in discs, from the
 * side to move's view: its iterative-deepening search to MIDGAME_NODES nodes (no clock), the
 * evaluation units turned into discs (a finished game found by the search: its disc difference).
 */
export function midgameScore(position, maxNodes = MIDGAME_NODES) {
  const info = {};
  choosePositionMove(position, "hard", { clock: () => 0, maxNodes, info });
  const s = info.score;
  if (info.solved === "exact") return s;
  if (Math.abs(s) >= WIN / 2) return (Math.sign(s) * (Math.abs(s) - WIN)) / SCALE;
  return s / SCALE;
}

const even = (v, up) => (v % 2 === 0 ? v : up ? v + 1 : v - 1);

/** The computer's exact endgame solver with one table for a whole game (see the module comment). */
export class ExactValues {
  constructor() {
    this.control = new Control(() => 0);
    this.endgame = new Endgame(this.control);
    this.nodes = 0;
  }

  /** The exact final disc difference (`me`'s view, empty squares to the winner) after `me`
   * plays bit `sq`, searched around `guess`. */
  value(me, opp, sq, guess) {
    let lo = -MAX_DIFF;
    let hi = MAX_DIFF;
    let g = even(Math.max(lo, Math.min(hi, Math.round(guess))), true);
    for (;;) {
      this.control.reset(Infinity);
      const r = this.endgame.solveMove(me[0], me[1], opp[0], opp[1], sq, g - 1, g + 1);
      this.nodes += this.control.nodes;
      if (r > g - 1 && r < g + 1) return r;
      if (r < g) hi = Math.min(hi, r);
      else lo = Math.max(lo, r);
      if (lo >= hi) return lo;
      g = r < g ? even(hi, false) : even(lo, true);
    }
  }

  /**
   * The exact value of every legal move of `me` against `opp` (who must have one): yields after
   * each move (so a worker can report progress) and returns {square name: value}. `guess`: the
   * expected value of the position (the first move is searched around it, each next move around
   * the value before).
   */
  *moveValues(me, opp, guess = 0) {
    const values = {};
    let g = guess;
    for (const sq of legalSquares(me, opp)) {
      const v = this.value(me, opp, sq, g);
      values[NAMES[sq]] = v;
      g = v;
      yield NAMES[sq];
    }
    return values;
  }
}
