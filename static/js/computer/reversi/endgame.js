// Exact endgame solver of Reversi Hard: the final disc difference (side to move's view; empty squares
// go to the winner) by alpha-beta with a table of bounds, fewest-replies-first ordering and, near the
// leaves, quadrant parity ordering: the algorithm of bench/pybots/reversi_nb.py (`solve`, `solve_root`),
// on 32-bit-half bitboards. `moveValues` gives the exact value of every legal move (post-game
// analysis, issue 29).

import { after, countFlips, low32, moves, flips, out, play, pop32 } from "./bitboard.js";
import { PLIES, PRIORITY, STATIC_ORDER, slotOf, takeLowest } from "./midgame.js";

export const TT_BITS = 18; // 2**18 table entries
const ENTRY = 6; // Int32 slots per table entry
export const TT_EMPTIES = 7; // positions with more empties than this are stored
export const SORT_EMPTIES = 6; // with more empties than this, children are sorted by opponent replies
// from this many empties down, the solver walks a list of the empty squares (no move generation, no
// table): a square is tried by computing its flips, and the last square only counts them
export const SHALLOW_EMPTIES = 6;
// (The hot loops here and in midgame.js make a child's boards inline rather than through
// bitboard.play: measured 3-4 % faster each.)
const LIST = 8; // list slots per ply (SHALLOW_EMPTIES or more)
/** Quadrant (0-3: a1-d4, e1-h4, a5-d8, e5-h8) of each square, for parity ordering. */
const QUADRANT = Int8Array.from({ length: 64 }, (_, sq) => (sq >= 32 ? 2 : 0) + ((sq & 7) >= 4 ? 1 : 0));
const REPLY_KEY = 16; // ordering key per opponent reply (PRIORITY breaks ties)
export const MAX_DIFF = 64; // a value is within -64..64

/**
 * One solver context: the table of bounds (cleared by `clear()`) and per-ply buffers for sorting
 * children. `control` (control.js) stops it.
 */
export class Endgame {
  constructor(control) {
    this.control = control;
    const n = 1 << TT_BITS;
    // per entry: me lo, me hi, opp lo, opp hi, lower and upper bound of the exact value
    this.table = new Int32Array(ENTRY * n);
    this.orderKey = new Int32Array(PLIES * 64);
    this.child = new Int32Array(PLIES * 64 * 4);
    this.empties = new Int8Array((PLIES + 1) * LIST); // per ply: the empty squares (shallow solver)
  }

  /** Empty the table (a new move). */
  clear() {
    this.table.fill(0); // no position has no discs: an empty slot never matches
  }

  /** Exact final disc difference within (alpha, beta), fail-soft (0 after a stop: throw it away). */
  solve(mlo, mhi, olo, ohi, alpha, beta, ply) {
    const ctl = this.control;
    if (++ctl.nodes >= ctl.nextCheck) ctl.check();
    if (ctl.stop) return 0;
    const elo = ~(mlo | olo);
    const ehi = ~(mhi | ohi);
    const nEmpty = pop32(elo) + pop32(ehi);
    if (nEmpty <= SHALLOW_EMPTIES) {
      if (nEmpty === 0) return pop32(mlo) + pop32(mhi) - pop32(olo) - pop32(ohi);
      if (nEmpty === 1) return lastSquare(mlo, mhi, olo, ohi, elo ? low32(elo) : 32 + low32(ehi));
      // the list of empty squares and the quadrants holding an odd number of them
      const list = this.empties;
      const base = ply * LIST;
      let n = 0;
      let parity = 0;
      for (let rest = elo; rest; rest &= rest - 1) {
        const sq = low32(rest);
        list[base + n++] = sq;
        parity ^= 1 << QUADRANT[sq];
      }
      for (let rest = ehi; rest; rest &= rest - 1) {
        const sq = 32 + low32(rest);
        list[base + n++] = sq;
        parity ^= 1 << QUADRANT[sq];
      }
      return this.shallow(mlo, mhi, olo, ohi, alpha, beta, n, ply, parity, false);
    }
    const llo = moves(mlo, mhi, olo, ohi);
    const lhi = out[0];
    if ((llo | lhi) === 0) {
      if ((moves(olo, ohi, mlo, mhi) | out[0]) === 0) {
        const diff = pop32(mlo) + pop32(mhi) - pop32(olo) - pop32(ohi);
        return diff > 0 ? diff + nEmpty : diff < 0 ? diff - nEmpty : 0;
      }
      return 0 - this.solve(olo, ohi, mlo, mhi, 0 - beta, 0 - alpha, ply + 1);
    }
    const table = this.table;
    let e = -1;
    if (nEmpty > TT_EMPTIES) {
      e = slotOf(mlo, mhi, olo, ohi, TT_BITS) * ENTRY;
      if (table[e] === mlo && table[e + 1] === mhi && table[e + 2] === olo && table[e + 3] === ohi) {
        const lo = table[e + 4];
        const hi = table[e + 5];
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo === hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
      }
    }
    const a0 = alpha;
    const b0 = beta;
    let best = -MAX_DIFF - 1;
    {
      const okeys = this.orderKey;
      const child = this.child;
      const base = ply << 6;
      let n = 0;
      let rlo = llo;
      let rhi = lhi;
      while (rlo | rhi) {
        let sq;
        if (rlo) {
          sq = low32(rlo);
          rlo &= rlo - 1;
        } else {
          sq = 32 + low32(rhi);
          rhi &= rhi - 1;
        }
        const flo = flips(mlo, mhi, olo, ohi, sq);
        const fhi = out[0];
        const nme_lo = olo & ~flo;
        const nme_hi = ohi & ~fhi;
        const nop_lo = mlo | flo | (sq < 32 ? 1 << sq : 0);
        const nop_hi = mhi | fhi | (sq < 32 ? 0 : 1 << (sq - 32));
        okeys[base + n] = (pop32(moves(nme_lo, nme_hi, nop_lo, nop_hi)) + pop32(out[0])) * REPLY_KEY - PRIORITY[sq];
        const c = (base + n) * 4;
        child[c] = nme_lo;
        child[c + 1] = nme_hi;
        child[c + 2] = nop_lo;
        child[c + 3] = nop_hi;
        n++;
      }
      for (let i = 0; i < n; i++) {
        const c = takeLowest(okeys, base, n) * 4;
        const value = 0 - this.solve(child[c], child[c + 1], child[c + 2], child[c + 3], 0 - beta, 0 - alpha, ply + 1);
        if (ctl.stop) return 0;
        if (value > best) {
          best = value;
          if (value > alpha) {
            alpha = value;
            if (alpha >= beta) break;
          }
        }
      }
    }
    if (e >= 0) {
      let lo = -MAX_DIFF - 1;
      let hi = MAX_DIFF + 1;
      if (table[e] === mlo && table[e + 1] === mhi && table[e + 2] === olo && table[e + 3] === ohi) {
        lo = table[e + 4];
        hi = table[e + 5];
      }
      if (best <= a0) hi = Math.min(hi, best); // fail low: an upper bound
      else if (best >= b0) lo = Math.max(lo, best); // fail high: a lower bound
      else lo = hi = best;
      table[e] = mlo;
      table[e + 1] = mhi;
      table[e + 2] = olo;
      table[e + 3] = ohi;
      table[e + 4] = lo;
      table[e + 5] = hi;
    }
    return best;
  }

  /**
   * Exact value within (alpha, beta) of a position with `n` (2 to SHALLOW_EMPTIES) empty squares,
   * listed at `ply` in `this.empties`; `parity`: bit q set when quadrant q holds an odd number of them
   * (squares there are tried first). `passed`: the other side just passed.
   */
  shallow(mlo, mhi, olo, ohi, alpha, beta, n, ply, parity, passed) {
    const ctl = this.control;
    if (++ctl.nodes >= ctl.nextCheck) ctl.check();
    if (ctl.stop) return 0;
    const list = this.empties;
    const base = ply * LIST;
    const next = base + LIST;
    let best = -MAX_DIFF - 1;
    for (let round = 0; round < 2; round++) {
      const wanted = round === 0 ? 1 : 0; // odd quadrants first
      for (let i = 0; i < n; i++) {
        const sq = list[base + i];
        if (((parity >> QUADRANT[sq]) & 1) !== wanted) continue;
        const flo = flips(mlo, mhi, olo, ohi, sq);
        const fhi = out[0];
        if ((flo | fhi) === 0) continue;
        const nme_lo = olo & ~flo;
        const nme_hi = ohi & ~fhi;
        const nop_lo = mlo | flo | (sq < 32 ? 1 << sq : 0);
        const nop_hi = mhi | fhi | (sq < 32 ? 0 : 1 << (sq - 32));
        let value;
        if (n === 2) {
          ctl.nodes++;
          value = 0 - lastSquare(nme_lo, nme_hi, nop_lo, nop_hi, list[base + 1 - i]);
        } else {
          for (let j = 0, k = next; j < n; j++) if (j !== i) list[k++] = list[base + j];
          value = 0 - this.shallow(nme_lo, nme_hi, nop_lo, nop_hi, 0 - beta, 0 - alpha, n - 1, ply + 1,
            parity ^ (1 << QUADRANT[sq]), false);
          if (ctl.stop) return 0;
        }
        if (value > best) {
          best = value;
          if (value > alpha) {
            alpha = value;
            if (alpha >= beta) return best;
          }
        }
      }
    }
    if (best > -MAX_DIFF - 1) return best;
    // no move: the other side plays on (its turn at the next ply, same squares), or the game is over
    if (!passed) {
      for (let i = 0; i < n; i++) {
        if (countFlips(olo, ohi, mlo, mhi, list[base + i])) {
          for (let j = 0; j < n; j++) list[next + j] = list[base + j];
          return 0 - this.shallow(olo, ohi, mlo, mhi, 0 - beta, 0 - alpha, n, ply + 1, parity, true);
        }
      }
    }
    const diff = pop32(mlo) + pop32(mhi) - pop32(olo) - pop32(ohi);
    return diff > 0 ? diff + n : diff < 0 ? diff - n : 0;
  }

  /** Value of the move `sq` of `me` (must be legal): the child's solve, negated. */
  solveMove(mlo, mhi, olo, ohi, sq, alpha, beta) {
    play(mlo, mhi, olo, ohi, sq);
    return 0 - this.solve(after[0], after[1], after[2], after[3], 0 - beta, 0 - alpha, 1);
  }

  /**
   * [value, best square] of an exact solve in the window (alpha, beta) (exact only inside it: -1, 1
   * for win/draw/loss) for the side to move, which must have a legal move. `first`: a move tried
   * first (-1: none). After a stop the square is -1 and the value means nothing.
   */
  root(mlo, mhi, olo, ohi, first = -1, alpha = -MAX_DIFF - 1, beta = MAX_DIFF + 1) {
    const order = legalOrder(mlo, mhi, olo, ohi, first);
    let best = -MAX_DIFF - 1;
    let bestSq = order[0];
    for (const sq of order) {
      const value = this.solveMove(mlo, mhi, olo, ohi, sq, alpha, beta);
      if (this.control.stop) return [0, -1];
      if (value > best) {
        best = value;
        bestSq = sq;
        if (value > alpha) {
          alpha = value;
          if (alpha >= beta) break;
        }
      }
    }
    return [best, bestSq];
  }

  /**
   * The exact final disc difference after each legal move of the side to move (who must have one):
   * a Map square -> value (side to move's view), or null after a stop. `first`: a move solved first
   * (its value narrows nothing: every move gets its own full-window solve).
   */
  moveValues(mlo, mhi, olo, ohi, first = -1) {
    const values = new Map();
    for (const sq of legalOrder(mlo, mhi, olo, ohi, first)) {
      const value = this.solveMove(mlo, mhi, olo, ohi, sq, -MAX_DIFF - 1, MAX_DIFF + 1);
      if (this.control.stop) return null;
      values.set(sq, value);
    }
    return values;
  }
}

/** Legal squares of `me`: `first` (if legal), then by STATIC_ORDER. */
function legalOrder(mlo, mhi, olo, ohi, first) {
  const llo = moves(mlo, mhi, olo, ohi);
  const lhi = out[0];
  const isLegal = (sq) => (sq < 32 ? (llo >>> sq) & 1 : (lhi >>> (sq - 32)) & 1) === 1;
  const order = first >= 0 && isLegal(first) ? [first] : [];
  for (const sq of STATIC_ORDER) if (sq !== order[0] && isLegal(sq)) order.push(sq);
  return order;
}

/**
 * Exact final disc difference (side to move's view) with one empty square `sq` left (63 discs): the
 * side to move plays it if it flips something, else the other side does, else it goes to the winner.
 */
function lastSquare(mlo, mhi, olo, ohi, sq) {
  const diff = 2 * (pop32(mlo) + pop32(mhi)) - 63;
  let n = countFlips(mlo, mhi, olo, ohi, sq);
  if (n) return diff + 2 * n + 1;
  n = countFlips(olo, ohi, mlo, mhi, sq);
  if (n) return diff - 2 * n - 1;
  return diff > 0 ? diff + 1 : diff - 1;
}
