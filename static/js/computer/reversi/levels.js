// Reversi Easy and Medium: the characters of bench/pybots/reversi_bots.py (ReversiEasy, ReversiMedium).
//
// * Easy: greedy (most discs flipped plus a fifth of the square value, plus noise), and a random legal
//   move RANDOM_SHARE of the time.
// * Medium: MEDIUM_DEPTH-ply alpha-beta with a transposition table; evaluation = mobility and corners.

import { after, flips, moves, out, play, pop32, squaresInto } from "./bitboard.js";

// The square values of the bots' positional table (corners high, X and C squares low).
const ROW_WEIGHTS = [
  [100, -20, 10, 5, 5, 10, -20, 100],
  [-20, -40, -2, -2, -2, -2, -40, -20],
  [10, -2, 2, 1, 1, 2, -2, 10],
  [5, -2, 1, 0, 0, 1, -2, 5],
  [5, -2, 1, 0, 0, 1, -2, 5],
  [10, -2, 2, 1, 1, 2, -2, 10],
  [-20, -40, -2, -2, -2, -2, -40, -20],
  [100, -20, 10, 5, 5, 10, -20, 100],
];
export const SQUARE_VALUES = Int32Array.from({ length: 64 }, (_, i) => ROW_WEIGHTS[i >> 3][i & 7]);
/** Squares by falling value; ties by index. */
export const VALUE_ORDER = Int32Array.from(
  Array.from({ length: 64 }, (_, i) => i).sort((a, b) => SQUARE_VALUES[b] - SQUARE_VALUES[a] || a - b));

export const EASY_RANDOM_SHARE = 0.25; // Easy plays a random legal move this part of the time
export const EASY_VALUE_DIVISOR = 5; // Easy adds a square's value divided by this to its flips
export const EASY_NOISE = 3; // and a uniform noise in [0, EASY_NOISE)
export const MEDIUM_DEPTH = 3; // Medium's search depth (plies)
export const MEDIUM_MOBILITY = 10; // Medium's evaluation per move of mobility difference
export const MEDIUM_CORNER = 80; // and per corner of difference
export const MEDIUM_WIN = 100000; // a finished game: ± this, plus the disc difference
const MEDIUM_CHECK_EVERY = 1024; // nodes between two looks at the clock
const CORNERS_LO = 0x81;
const CORNERS_HI = 0x81000000 | 0;

/** Legal squares of (m, o), ascending. */
export function legalSquares(mlo, mhi, olo, ohi) {
  const llo = moves(mlo, mhi, olo, ohi);
  const list = [];
  squaresInto(llo, out[0], list, 0);
  return list;
}

/** Easy's move for `me` = [lo, hi] against `opp`; `rng`: () => [0, 1). */
export function chooseEasy(me, opp, rng) {
  const [mlo, mhi] = me;
  const [olo, ohi] = opp;
  const list = legalSquares(mlo, mhi, olo, ohi);
  if (rng() < EASY_RANDOM_SHARE) return list[Math.floor(rng() * list.length)];
  let best = -1;
  let bestKey = -Infinity;
  for (const sq of list) {
    const f = pop32(flips(mlo, mhi, olo, ohi, sq)) + pop32(out[0]);
    const key = f + SQUARE_VALUES[sq] / EASY_VALUE_DIVISOR + rng() * EASY_NOISE;
    if (key > bestKey) {
      best = sq;
      bestKey = key;
    }
  }
  return best;
}

class Timeout extends Error {}

/** Medium's evaluation: mobility and corners, side to move's view. */
export function mediumEval(mlo, mhi, olo, ohi, mylo, myhi) {
  const thlo = moves(olo, ohi, mlo, mhi);
  const thhi = out[0];
  return MEDIUM_MOBILITY * (pop32(mylo) + pop32(myhi) - pop32(thlo) - pop32(thhi))
    + MEDIUM_CORNER * (pop32(mlo & CORNERS_LO) + pop32(mhi & CORNERS_HI) - pop32(olo & CORNERS_LO) - pop32(ohi & CORNERS_HI));
}

/** Negamax alpha-beta with a table and a deadline (Medium's search). */
class MediumSearch {
  constructor(clock, deadline) {
    this.clock = clock;
    this.deadline = deadline;
    this.nodes = 0;
    this.table = new Map();
  }

  search(mlo, mhi, olo, ohi, depth, alpha, beta, passed) {
    if ((++this.nodes & (MEDIUM_CHECK_EVERY - 1)) === 0 && this.clock() > this.deadline) throw new Timeout();
    const llo = moves(mlo, mhi, olo, ohi);
    const lhi = out[0];
    if ((llo | lhi) === 0) {
      if (passed || (moves(olo, ohi, mlo, mhi) | out[0]) === 0) {
        const diff = pop32(mlo) + pop32(mhi) - pop32(olo) - pop32(ohi);
        return MEDIUM_WIN * Math.sign(diff) + diff;
      }
      return -this.search(olo, ohi, mlo, mhi, depth, -beta, -alpha, true);
    }
    if (depth <= 0) return mediumEval(mlo, mhi, olo, ohi, llo, lhi);
    const key = `${mlo},${mhi},${olo},${ohi}`;
    const entry = this.table.get(key);
    let first = -1;
    if (entry !== undefined) {
      const [eDepth, flag, value, move] = entry;
      first = move;
      if (eDepth >= depth && (flag === 0 || (flag === 1 && value >= beta) || (flag === -1 && value <= alpha))) return value;
    }
    const a0 = alpha;
    let best = -Infinity;
    let bestSq = -1;
    for (const sq of this.order(llo, lhi, first)) {
      play(mlo, mhi, olo, ohi, sq);
      const value = -this.search(after[0], after[1], after[2], after[3], depth - 1, -beta, -alpha, false);
      if (value > best) {
        best = value;
        bestSq = sq;
        if (value > alpha) {
          alpha = value;
          if (alpha >= beta) break;
        }
      }
    }
    this.table.set(key, [depth, best >= beta ? 1 : best <= a0 ? -1 : 0, best, bestSq]);
    return best;
  }

  /** Legal squares by VALUE_ORDER, `first` (if legal) moved to the front. */
  order(llo, lhi, first) {
    const list = [];
    for (const sq of VALUE_ORDER) if (sq < 32 ? (llo >>> sq) & 1 : (lhi >>> (sq - 32)) & 1) list.push(sq);
    const at = list.indexOf(first);
    if (at > 0) list.unshift(...list.splice(at, 1));
    return list;
  }

  root(mlo, mhi, olo, ohi, depth) {
    const llo = moves(mlo, mhi, olo, ohi);
    const list = this.order(llo, out[0], -1);
    let best = -Infinity;
    let bestSq = list[0];
    let alpha = -Infinity;
    for (const sq of list) {
      play(mlo, mhi, olo, ohi, sq);
      const value = -this.search(after[0], after[1], after[2], after[3], depth - 1, -Infinity, -alpha, false);
      if (value > best) {
        best = value;
        bestSq = sq;
        alpha = Math.max(alpha, value);
      }
    }
    return bestSq;
  }
}

/** Medium's move for `me` against `opp` within `budgetMs` of `clock` (the best-valued legal square if out of time). */
export function chooseMedium(me, opp, budgetMs, clock) {
  const search = new MediumSearch(clock, clock() + Math.max(budgetMs, 50));
  try {
    return search.root(me[0], me[1], opp[0], opp[1], MEDIUM_DEPTH);
  } catch (error) {
    if (!(error instanceof Timeout)) throw error;
    const llo = moves(me[0], me[1], opp[0], opp[1]);
    return search.order(llo, out[0], -1)[0];
  }
}
