// Midgame search of Reversi Hard: iterative-deepening negascout (principal variation search) with a
// transposition table, move ordering by the table's move, killer moves, a history table and, from
// MOBILITY_ORDER_DEPTH, the opponent's mobility after the move: the algorithm of
// bench/pybots/reversi_nb.py (`search`, `root`), on 32-bit-half bitboards, but for the table's use
// (TT_MIN_DEPTH, buckets of two). Scores are from the side to move's view in evaluation units
// (evaluation.js: SCALE per disc, a finished game ±WIN). Values are negated as `0 - x`, never `-x`:
// -0 is not a small integer in V8 (and fails deepEqual).

import { low32, moves, flips, out, pop32 } from "./bitboard.js";
import { evaluate, finalScore } from "./evaluation.js";

export const INF = 1_000_000_000;
export const PLIES = 80; // deepest ply of one search (depth plus passes)
export const TT_BITS = 18; // 2**18 table entries
const ENTRY = 8; // Int32 slots per table entry (32 bytes)
// Only positions searched this deep use the table. The Python search also stores leaf parents (depth
// 1); skipping them keeps its always-replace slots for deeper positions and saves a cache miss per
// leaf parent: 17 % fewer nodes and 30 % less CPU time to depth 11 on 16 midgame positions (the
// same values). The move choice can differ from the Python's at an equal node limit.
export const TT_MIN_DEPTH = 2;
// The table's slots go in buckets of two (one 64-byte line): a new position replaces the one searched
// less deep (the Python always replaces its one slot): 7 % fewer nodes, 5 % less time to depth 10.
export const MOBILITY_ORDER_DEPTH = 3; // from this remaining depth, children are sorted by opponent replies
const KILLER_SLOTS = 128; // killer moves by remaining depth
const KILLER_BONUS = 5000; // ordering keys: lower first
const MOBILITY_KEY = 300; // per opponent reply
const PRIORITY_KEY = 64; // per point of PRIORITY
const PRIORITY_KEY_MOBILITY = 40; // per point of PRIORITY, in addition, where mobility orders
const TAKEN = 0x7fffffff; // the key of a child already searched (above any real key)

// Square priorities for move ordering: corners first, X squares last (PRIORITY of the Python).
const ROW_PRIORITY = [
  [9, 1, 7, 5, 5, 7, 1, 9],
  [1, 0, 3, 3, 3, 3, 0, 1],
  [7, 3, 6, 4, 4, 6, 3, 7],
  [5, 3, 4, 4, 4, 4, 3, 5],
  [5, 3, 4, 4, 4, 4, 3, 5],
  [7, 3, 6, 4, 4, 6, 3, 7],
  [1, 0, 3, 3, 3, 3, 0, 1],
  [9, 1, 7, 5, 5, 7, 1, 9],
];
export const PRIORITY = Int32Array.from({ length: 64 }, (_, i) => ROW_PRIORITY[i >> 3][i & 7]);
/** Squares by falling priority; ties by index (Python's stable sort). */
export const STATIC_ORDER = Int32Array.from(
  Array.from({ length: 64 }, (_, i) => i).sort((a, b) => PRIORITY[b] - PRIORITY[a] || a - b));

// The squares of each PRIORITY value, highest first (lo, hi): walking them by index is STATIC_ORDER.
const PRIORITY_VALUES = [...new Set(PRIORITY)].sort((a, b) => b - a);
const PRIORITY_CLASSES = PRIORITY_VALUES.length;
const CLASS_LO = Int32Array.from(PRIORITY_VALUES, (p) => PRIORITY.slice(0, 32).reduce((m, q, i) => (q === p ? m | (1 << i) : m), 0));
const CLASS_HI = Int32Array.from(PRIORITY_VALUES, (p) => PRIORITY.slice(32).reduce((m, q, i) => (q === p ? m | (1 << i) : m), 0));

/** Table slot of a position (a multiplicative hash of the four halves). */
export function slotOf(mlo, mhi, olo, ohi, bits) {
  let h = Math.imul(mlo, 0x9e3779b1) ^ Math.imul(mhi, 0x85ebca77) ^ Math.imul(olo, 0xc2b2ae3d) ^ Math.imul(ohi, 0x27d4eb2f);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 13;
  return h >>> (32 - bits);
}

/**
 * Index of the lowest of the `n` keys from `base` not taken yet, the first found on a tie (the order a
 * stable sort gives), which is then marked as taken. Picking children one at a time costs one pass
 * where a cutoff comes after the first child (most nodes), a sort n²/4 moves.
 */
export function takeLowest(keys, base, n) {
  let k = base;
  let low = keys[base];
  for (let j = base + 1; j < base + n; j++) {
    if (keys[j] < low) {
      low = keys[j];
      k = j;
    }
  }
  keys[k] = TAKEN;
  return k;
}

/**
 * One midgame search context: the table, history and killers (kept across the iterations of a move,
 * cleared by `clear()`), and per-ply buffers for sorting children. `control` (control.js) stops it.
 */
export class MidgameSearch {
  /**
   * @param {Control} control
   * @param {Function} evaluateFn the leaf evaluation, (m lo, m hi, o lo, o hi, m's moves lo, hi, o's moves
   *   lo, hi) -> evaluation units: evaluation.js's (the Python's, the default) or patterns.js's (Hard)
   */
  constructor(control, evaluateFn = evaluate) {
    this.control = control;
    this.evaluate = evaluateFn;
    const n = 1 << TT_BITS;
    // per entry: me lo, me hi, opp lo, opp hi, depth, flag (-1 upper bound, 0 exact, 1 lower bound),
    // value, move
    this.table = new Int32Array(ENTRY * n);
    this.history = new Int32Array(64);
    this.killers = new Int32Array(KILLER_SLOTS).fill(-1);
    this.orderKey = new Int32Array(PLIES * 64);
    this.orderSq = new Int32Array(PLIES * 64);
    this.child = new Int32Array(PLIES * 64 * 6); // per child: new me lo, hi, new opp lo, hi, its legal moves lo, hi
    this.rootValue = -INF; // best value, square and root moves searched of the last root iteration
    this.rootBest = -1;
    this.rootDone = 0;
  }

  /** Empty the table, history and killers (a new move). */
  clear() {
    this.table.fill(0); // no position has no discs: an empty slot never matches
    this.history.fill(0);
    this.killers.fill(-1);
  }

  /**
   * Fill the children of (m, o) at `ply` with their ordering keys (lower first; see takeLowest()); returns
   * their count. Child k (in the order the legal moves were found) is `orderSq[ply * 64 + k]`, its key
   * `orderKey[ply * 64 + k]`. `first`: a move put first; `killer` (-1: none); `mobility`: whether
   * opponent replies count: then the child's record (its boards and legal moves) is made too, at
   * `child[(ply * 64 + k) * 6]`; without, the caller makes the child it searches.
   */
  order(mlo, mhi, olo, ohi, llo, lhi, ply, first, killer, mobility) {
    const keys = this.orderKey;
    const sqs = this.orderSq;
    const child = this.child;
    const history = this.history;
    const base = ply << 6;
    let n = 0;
    while (llo | lhi) {
      let sq;
      if (llo) {
        sq = low32(llo);
        llo &= llo - 1;
      } else {
        sq = 32 + low32(lhi);
        lhi &= lhi - 1;
      }
      let key;
      sqs[base + n] = sq;
      if (mobility) {
        // the child's board and legal moves: its ordering key, and its search needs them (passed on)
        const flo = flips(mlo, mhi, olo, ohi, sq);
        const fhi = out[0];
        const c = (base + n) * 6;
        const nme_lo = olo & ~flo;
        const nme_hi = ohi & ~fhi;
        const nop_lo = mlo | flo | (sq < 32 ? 1 << sq : 0);
        const nop_hi = mhi | fhi | (sq < 32 ? 0 : 1 << (sq - 32));
        const rlo = moves(nme_lo, nme_hi, nop_lo, nop_hi);
        const rhi = out[0];
        child[c] = nme_lo;
        child[c + 1] = nme_hi;
        child[c + 2] = nop_lo;
        child[c + 3] = nop_hi;
        child[c + 4] = rlo;
        child[c + 5] = rhi;
        key = sq === first ? -INF
          : (pop32(rlo) + pop32(rhi)) * MOBILITY_KEY - PRIORITY[sq] * (PRIORITY_KEY + PRIORITY_KEY_MOBILITY) - history[sq];
      } else {
        // the key needs no board: the child is made when it is searched (a cutoff skips the rest)
        key = sq === first ? -INF : -PRIORITY[sq] * PRIORITY_KEY - history[sq];
      }
      if (sq === killer && sq !== first) key -= KILLER_BONUS;
      keys[base + n] = key;
      n++;
    }
    return n;
  }

  /**
   * Negascout value for the side to move, `depth` plies deep (0 after a stop: throw it away). `known`:
   * the side to move's legal moves are (`klo`, `khi`) (the parent made them to order its children).
   */
  search(mlo, mhi, olo, ohi, depth, alpha, beta, ply, known, klo, khi) {
    const ctl = this.control;
    if (++ctl.nodes >= ctl.nextCheck) ctl.check();
    if (ctl.stop) return 0;
    let llo = klo;
    let lhi = khi;
    if (!known) {
      llo = moves(mlo, mhi, olo, ohi);
      lhi = out[0];
    }
    if ((llo | lhi) === 0) {
      const plo = moves(olo, ohi, mlo, mhi);
      const phi = out[0];
      if ((plo | phi) === 0) return finalScore(mlo, mhi, olo, ohi);
      return 0 - this.search(olo, ohi, mlo, mhi, depth, 0 - beta, 0 - alpha, ply + 1, true, plo, phi);
    }
    if (depth <= 0) {
      const tlo = moves(olo, ohi, mlo, mhi);
      return this.evaluate(mlo, mhi, olo, ohi, llo, lhi, tlo, out[0]);
    }
    const table = this.table;
    let e = -1;
    if (depth >= TT_MIN_DEPTH) {
      // a bucket of two entries (one cache line): the one holding this position, else the shallower
      const e0 = (slotOf(mlo, mhi, olo, ohi, TT_BITS) & ~1) * ENTRY;
      const e1 = e0 + ENTRY;
      if (table[e0] === mlo && table[e0 + 1] === mhi && table[e0 + 2] === olo && table[e0 + 3] === ohi) e = e0;
      else if (table[e1] === mlo && table[e1 + 1] === mhi && table[e1 + 2] === olo && table[e1 + 3] === ohi) e = e1;
      else e = -1 - (table[e1 + 4] < table[e0 + 4] ? e1 : e0); // not found: -1 - the entry to replace
    }
    let first = -1;
    if (e >= 0) {
      first = table[e + 7];
      if (table[e + 4] >= depth) {
        const flag = table[e + 5];
        const value = table[e + 6];
        if (flag === 0 || (flag === 1 && value >= beta) || (flag === -1 && value <= alpha)) return value;
      }
    }
    const a0 = alpha;
    let best = -INF;
    let bestSq = -1;
    if (depth === 1) {
      // leaf parents: the table's move, then the static order, plain alpha-beta; children are made
      // one by one (a cutoff skips the rest)
      let rlo = llo;
      let rhi = lhi;
      if (first >= 0 && (first < 32 ? (llo >>> first) & 1 : (lhi >>> (first - 32)) & 1)) {
        if (first < 32) rlo &= ~(1 << first);
        else rhi &= ~(1 << (first - 32));
      } else first = -1;
      // class -1 is the table's move; then the squares of each PRIORITY class, by index (STATIC_ORDER)
      children: for (let c = first >= 0 ? -1 : 0; c < PRIORITY_CLASSES; c++) {
        let plo;
        let phi;
        if (c < 0) {
          plo = first < 32 ? 1 << first : 0;
          phi = first < 32 ? 0 : 1 << (first - 32);
        } else {
          plo = rlo & CLASS_LO[c];
          phi = rhi & CLASS_HI[c];
        }
        while (plo | phi) {
          let sq;
          if (plo) {
            sq = low32(plo);
            plo &= plo - 1;
          } else {
            sq = 32 + low32(phi);
            phi &= phi - 1;
          }
          const flo = flips(mlo, mhi, olo, ohi, sq);
          const fhi = out[0];
          const nme_lo = olo & ~flo;
          const nme_hi = ohi & ~fhi;
          const nop_lo = mlo | flo | (sq < 32 ? 1 << sq : 0);
          const nop_hi = mhi | fhi | (sq < 32 ? 0 : 1 << (sq - 32));
          ctl.nodes++;
          const nllo = moves(nme_lo, nme_hi, nop_lo, nop_hi);
          const nlhi = out[0];
          let value;
          if (nllo | nlhi) {
            const tlo = moves(nop_lo, nop_hi, nme_lo, nme_hi);
            value = 0 - this.evaluate(nme_lo, nme_hi, nop_lo, nop_hi, nllo, nlhi, tlo, out[0]);
          } else {
            value = 0 - this.search(nme_lo, nme_hi, nop_lo, nop_hi, 0, 0 - beta, 0 - alpha, ply + 1, true, 0, 0);
            if (ctl.stop) return 0;
          }
          if (value > best) {
            best = value;
            bestSq = sq;
            if (value > alpha) {
              alpha = value;
              if (alpha >= beta) break children;
            }
          }
        }
      }
    } else {
      const killer = depth < KILLER_SLOTS ? this.killers[depth] : -1;
      const n = this.order(mlo, mhi, olo, ohi, llo, lhi, ply, first, killer, depth >= MOBILITY_ORDER_DEPTH);
      const child = this.child;
      const known = depth >= MOBILITY_ORDER_DEPTH;
      for (let i = 0; i < n; i++) {
        const k = takeLowest(this.orderKey, ply << 6, n);
        const sq = this.orderSq[k];
        let nme_lo, nme_hi, nop_lo, nop_hi, klo, khi;
        if (known) {
          const c = k * 6;
          nme_lo = child[c];
          nme_hi = child[c + 1];
          nop_lo = child[c + 2];
          nop_hi = child[c + 3];
          klo = child[c + 4];
          khi = child[c + 5];
        } else {
          const flo = flips(mlo, mhi, olo, ohi, sq);
          const fhi = out[0];
          nme_lo = olo & ~flo;
          nme_hi = ohi & ~fhi;
          nop_lo = mlo | flo | (sq < 32 ? 1 << sq : 0);
          nop_hi = mhi | fhi | (sq < 32 ? 0 : 1 << (sq - 32));
          klo = 0;
          khi = 0;
        }
        let value;
        if (i === 0) value = 0 - this.search(nme_lo, nme_hi, nop_lo, nop_hi, depth - 1, 0 - beta, 0 - alpha, ply + 1, known, klo, khi);
        else {
          value = 0 - this.search(nme_lo, nme_hi, nop_lo, nop_hi, depth - 1, -alpha - 1, 0 - alpha, ply + 1, known, klo, khi);
          if (alpha < value && value < beta && !ctl.stop) {
            value = 0 - this.search(nme_lo, nme_hi, nop_lo, nop_hi, depth - 1, 0 - beta, 0 - value, ply + 1, known, klo, khi);
          }
        }
        if (ctl.stop) return 0;
        if (value > best) {
          best = value;
          bestSq = sq;
          if (value > alpha) {
            alpha = value;
            if (alpha >= beta) {
              if (depth < KILLER_SLOTS) this.killers[depth] = sq;
              this.history[sq] += depth * depth;
              break;
            }
          }
        }
      }
    }
    if (depth < TT_MIN_DEPTH) return best;
    if (e < 0) e = -1 - e;
    table[e] = mlo;
    table[e + 1] = mhi;
    table[e + 2] = olo;
    table[e + 3] = ohi;
    table[e + 4] = depth;
    table[e + 5] = best >= beta ? 1 : best <= a0 ? -1 : 0;
    table[e + 6] = best;
    table[e + 7] = bestSq;
    return best;
  }

  /**
   * One root iteration at `depth` for the side to move (who must have a legal move); `first`: a move
   * tried first (-1: none). Returns the best square, or -1 if stopped before the first move was
   * searched; `rootValue`, `rootBest` and `rootDone` hold the best value, its square and the root
   * moves searched so far (a caller may use a partial iteration after a stop).
   */
  root(mlo, mhi, olo, ohi, depth, first = -1) {
    const llo = moves(mlo, mhi, olo, ohi);
    const lhi = out[0];
    // the root's children, copied out of the per-ply buffers (ply 0 is reused below)
    const n = this.order(mlo, mhi, olo, ohi, llo, lhi, 0, first, -2, true);
    const sqs = new Int32Array(n);
    const child = new Int32Array(6 * n);
    for (let i = 0; i < n; i++) {
      const k = takeLowest(this.orderKey, 0, n);
      sqs[i] = this.orderSq[k];
      child.set(this.child.subarray(6 * k, 6 * k + 6), 6 * i);
    }
    const ctl = this.control;
    let alpha = -INF;
    const beta = INF;
    let best = -INF;
    let bestSq = -1;
    this.rootDone = 0;
    for (let i = 0; i < n; i++) {
      const c = i * 6;
      const [nme_lo, nme_hi, nop_lo, nop_hi, klo, khi] = child.subarray(c, c + 6);
      let value;
      if (i === 0) value = 0 - this.search(nme_lo, nme_hi, nop_lo, nop_hi, depth - 1, 0 - beta, 0 - alpha, 1, true, klo, khi);
      else {
        value = 0 - this.search(nme_lo, nme_hi, nop_lo, nop_hi, depth - 1, -alpha - 1, 0 - alpha, 1, true, klo, khi);
        if (value > alpha && !ctl.stop) {
          value = 0 - this.search(nme_lo, nme_hi, nop_lo, nop_hi, depth - 1, 0 - beta, 0 - value, 1, true, klo, khi);
        }
      }
      if (ctl.stop) break;
      if (value > best) {
        best = value;
        bestSq = sqs[i];
        if (value > alpha) alpha = value;
      }
      this.rootValue = best;
      this.rootBest = bestSq;
      this.rootDone = i + 1;
    }
    return bestSq;
  }
}
