// The caro computer's alpha-beta (bench/pybots/caro_bots.py AlphaBeta / HardSearch and nbsearch.py,
// ported once): negamax over restricted candidates with a transposition table.
//
// Medium uses it plain (pattern totals as the evaluation, full-window children, a table of its
// own); Hard as a principal-variation search with at most HARD_SCHEDULE candidates a node, the
// shape evaluation with threat terms for both sides, and a table per rule set kept across moves
// (every entry is a pure function of the position, so the next move's search starts with the
// values and best moves of the previous ones). Hard also (HARD_TUNE; issue 28, docs/strength.md):
// - forcing moves cost less depth: the forced block of a five-threat is free (a four and its
//   block cost one ply), a move that makes an open three gains a ply (threeExt a line);
// - ordering: the table's move, then the pattern order (fours and threes first) with the two
//   killers of the ply after the shape moves and the quiet tail by history (depth squared a cut);
// - late-move reductions: a quiet move (no four, no open three, no block of the other side's
//   three) from the lmrFrom-th on is searched shallower with a null window first;
// - an optional VCF by fours alone at the horizon (leafVcfNodes; off: it cost more than it found).
// Both:
// - a side with a five on the board wins (WIN - ply); facing a five-threat only the blocks are
//   searched (none: lost); a side with an unstoppable five-threat (open four, double four) and
//   no four to answer wins two plies later;
// - under an open three of the other side only the defences are candidates: its open-four
//   cells, its four best four cells, and (unless forceDefence, Medium's rule) our fours;
// - else the `width` best empty cells near the stones by 10 x own score + 9 x other's, ties to
//   the lower cell.

import { XS } from "./rules.js";
import { FOUR, OPEN4, FIVE, THREE, rulesKey } from "./patterns.js";
import { Timeout, checkEvery, wallClock } from "./clock.js";
import { evaluate as shapeValue, doubleThreats } from "./evaluation.js";

/** Value of a won position (less the plies to the win). */
export const WIN = 10_000_000;
/** Hard's most candidates per node by ply below the root (the last entry from there on): a hard
 * cap only; late quiet moves are searched shallower (late-move reductions, HARD_TUNE). */
export const HARD_SCHEDULE = Object.freeze([16, 14, 12, 10, 9]);
/** Hard's search settings (plies, nodes, move indexes), one object so benches can try others:
 * - lmrFrom / lmrFrom2: a quiet move at this index or later (0 = the first) is searched 1 / 2
 *   plies shallower with a null window, and again at full depth if it beats alpha; lmrDepth: only
 *   with at least this many plies left;
 * - leafVcfNodes / leafVcfDepth: at the horizon, the side to move's VCF by its fours alone (the
 *   other side must block each), at most this many four moves tried and this many in a row;
 * - threeExt: plies a line may gain from moves that make an open three (the reply is forced);
 * - killers: the killer moves (two a ply) are tried right after the table's move. */
export const HARD_TUNE = {
  lmrFrom: 3,
  lmrFrom2: 8,
  lmrDepth: 3,
  lmrKeep: THREE, // ... and not reduced when the other side would make this class (or more) there
  leafVcfNodes: 0, // (off: measured 4-5x the CPU for the same nodes on the puzzle positions)
  leafVcfDepth: 6,
  leafVcfFours: 2, // ... only when it has at least this many cells that make a four
  threeExt: 1,
  killers: true,
  history: true,
};
/** Puts cell `q` of value `v` into `cells` / `values`, which hold their `n` best cells best first
 * (a tie to the lower cell) and at most `cap`: a cell worse than all of a full list is left out,
 * the worst of a full list drops. Returns the new count. (The candidate and defence selections:
 * an insertion into a short list, no array or sort callback per node.) */
function insertBest(cells, values, n, cap, q, v) {
  if (n === cap && (v < values[n - 1] || (v === values[n - 1] && q > cells[n - 1]))) return n;
  let j = n < cap ? n++ : n - 1;
  while (j > 0 && (v > values[j - 1] || (v === values[j - 1] && q < cells[j - 1]))) {
    cells[j] = cells[j - 1];
    values[j] = values[j - 1];
    j--;
  }
  cells[j] = q;
  values[j] = v;
  return n;
}
const MAX_PLY = 128; // killer slots
const VCF_BITS = 16; // leaf VCF verdicts kept: 2 ** bits
/** Hard's evaluation terms (pattern units): side to move / other side. */
export const MY_OPEN3 = 1500; // the side to move can make an open four (the other side has fours to counter)
export const MY_FOUR_THREE = 2500; // the side to move has a four-three cell
export const MY_THREE_THREE = 1200; // the side to move has a three-three cell
export const OPP_DOUBLE = 1500; // the other side has a double-threat cell (four-three or three-three)
export const OPP_OPEN3 = 300; // the other side has an open three (the side to move must answer)
/** Weights (tenths) of the side to move's and the other side's pattern totals. */
export const ATTACK = 10;
export const DEFENCE = 15;
export const TT_BITS = 18; // alpha-beta table entries: 2 ** bits
const MAX_FORCED_PLY = 40; // deeper than this, a forced block is not followed further
const MAX_DEFENCE_FOURS = 4; // the other side's four cells taken under its open three
const SIDE_K1 = 0x5bd1e995 | 0; // xor-ed into the key when O is to move
const SIDE_K2 = 0x1b873593 | 0;

/** Alpha-beta transposition table: one slot per key, always replaced. Per slot: key half 1, key
 * half 2, value, and best cell << 10 | depth << 2 | bound (0 empty, 1 upper, 2 exact, 3 lower). */
class SearchTable {
  constructor(bits) {
    this.mask = (1 << bits) - 1;
    this.e = new Int32Array(4 << bits);
  }
}

const SHARED = new Map(); // "rules key/width" -> SearchTable of Hard
const TOP = new Int32Array(64); // moves()' best candidates so far (scratch) ...
const TOP_VALUES = new Int32Array(64); // ... and their values
const DEF = new Int32Array(MAX_DEFENCE_FOURS); // defenceMoves()' best four cells of the other side ...
const DEF_VALUES = new Int32Array(MAX_DEFENCE_FOURS); // ... and their values

export { doubleThreats }; // (evaluation.js: Hard's evaluation reads it)

/**
 * Negamax alpha-beta over `fb` (changed during a search, restored after). Options: `deadline` /
 * `clock` (ms; throws Timeout), `width` (candidates per node), `hard` (Hard's search: PVS, the
 * schedule, the threat-term evaluation, the shared table), `forceDefence` (under an open three
 * only the defences, no counter-fours: Medium), `attack` / `defence` (tenths), `shared` (Hard's
 * table kept across moves; false: a fresh one of 2 ** `tableBits` slots).
 */
export class AlphaBeta {
  constructor(fb, { deadline = Infinity, clock = wallClock, width = 10, hard = false, forceDefence = false,
    attack = ATTACK, defence = DEFENCE, shared = hard, tableBits = 12 } = {}) {
    this.fb = fb;
    this.deadline = deadline;
    this.clock = clock;
    this.width = width;
    this.hard = hard;
    this.schedule = hard ? Int32Array.from(HARD_SCHEDULE) : null; // (typed: read at every node)
    this.forceDefence = forceDefence;
    this.attack = attack;
    this.defence = defence;
    this.nodes = 0;
    this.checkEvery = checkEvery(clock); // nodes between two reads of the clock
    this.nextCheck = this.checkEvery;
    this.stack = [];
    this.partial = [];
    this.maxPly = 0; // the deepest ply reached (a measure for the benches)
    if (shared) {
      const key = `${rulesKey(fb.rules)}/${width}`;
      this.tt = SHARED.get(key);
      if (!this.tt) SHARED.set(key, (this.tt = new SearchTable(TT_BITS)));
    } else {
      this.tt = new SearchTable(tableBits);
    }
    this.buffers = []; // search()'s candidate lists by ply
    this.tune = HARD_TUNE;
    this.killers = new Int32Array(2 * MAX_PLY).fill(-1);
    this.history = hard ? new Int32Array(3 * fb.NC) : null;
    this.vcfBudget = 0;
    this.vcfNodes = 0; // leaf VCF moves tried (a measure for the benches)
    this.mark = null; // defenceMoves()' cells taken (== markGen)
    this.markGen = 0;
  }

  /** leafVcf from the side to move's position, its verdicts kept in a small table (key halves and
   * the verdict: 1 none, 2 a win). */
  leafVcfCached() {
    const fb = this.fb;
    const k1 = fb.turn === 2 ? fb.h1 ^ SIDE_K1 : fb.h1;
    const k2 = (fb.turn === 2 ? fb.h2 ^ SIDE_K2 : fb.h2) | 3;
    const t = this.vcfTable || (this.vcfTable = new Int32Array(2 << VCF_BITS));
    const slot = 2 * ((k1 ^ (k1 >>> 15)) & ((1 << VCF_BITS) - 1));
    if (t[slot] === k1 && (t[slot + 1] | 3) === k2) return (t[slot + 1] & 3) === 2;
    this.vcfBudget = this.tune.leafVcfNodes;
    const win = this.leafVcf(this.tune.leafVcfDepth);
    t[slot] = k1;
    t[slot + 1] = (k2 & ~3) | (win ? 2 : 1);
    return win;
  }

  /** Whether the side to move wins by continuous fours from here, at most `d` in a row (each
   * block forced; a block that makes a four of the other side ends the line), within
   * this.vcfBudget four moves. The caller has checked that the other side has no five-threat. */
  leafVcf(d) {
    const fb = this.fb;
    const me = fb.turn;
    const opp = 3 - me;
    const fours = fb.fourMoves(me);
    for (let i = 0; i < fours.length; i++) {
      if (this.vcfBudget <= 0) return false;
      this.vcfBudget--;
      this.vcfNodes++;
      const q = fours[i];
      fb.play(q);
      let win = false;
      const blocks = fb.defences(me);
      if (blocks.length === 0) {
        win = true;
      } else if (blocks.length === 1 && d > 1 && fb.legal(blocks[0], opp)) {
        fb.play(blocks[0]);
        if (fb.count(opp, FIVE) === 0 && fb.count(me, FOUR) + fb.count(me, OPEN4) > 0) win = this.leafVcf(d - 1);
        fb.undo();
      } else if (blocks.length === 1 && !fb.legal(blocks[0], opp)) {
        win = true; // Renju: X may not block on a foul
      }
      fb.undo();
      if (win) return true;
    }
    return false;
  }

  /** Static score for the side to move (pattern units, positive = good for it). */
  evaluate() {
    const fb = this.fb;
    if (this.hard) return shapeValue(fb); // evaluation.js: the four lines' classes together, tuned
    const me = fb.turn;
    const opp = 3 - me;
    let value = Math.floor((fb.total[me] * this.attack - fb.total[opp] * this.defence) / 10);
    if (!this.hard) return value;
    const oppFours = fb.count(opp, FOUR) > 0 || fb.count(opp, OPEN4) > 0;
    if (fb.count(me, OPEN4) > 0) {
      value += MY_OPEN3;
    } else {
      const [ft, tt] = doubleThreats(fb, me);
      if (ft) value += oppFours ? Math.floor(MY_FOUR_THREE / 3) : MY_FOUR_THREE;
      else if (tt && !oppFours) value += MY_THREE_THREE;
    }
    const myFours = fb.count(me, FOUR) > 0 || fb.count(me, OPEN4) > 0;
    if (fb.count(opp, OPEN4) > 0 && !myFours) value -= OPP_OPEN3;
    const [ft, tt] = doubleThreats(fb, opp);
    if ((ft || tt) && !myFours) value -= OPP_DOUBLE;
    return value;
  }

  /** Ordered candidates for `me` (the side to move), at most `limit` outside an open three, in
   * `out` (emptied first; a new array by default). */
  moves(me, limit, out = []) {
    const fb = this.fb;
    const opp = 3 - me;
    const NC = fb.NC;
    const score = fb.score;
    const sm = me * NC;
    const so = opp * NC;
    out.length = 0;
    if (fb.count(opp, OPEN4) > 0) return this.defenceMoves(me, out);
    const renjuX = me === XS && fb.renju;
    const cap = Math.min(renjuX ? limit + 6 : limit, TOP.length);
    // the best `cap` of the candidate cells (empty, near a stone) by value, a tie to the lower cell
    const cand = fb.candCells;
    let n = 0;
    for (let r = 0, nc = fb.candLen; r < nc; r++) {
      const q = cand[r];
      const v = score[sm + q] * 10 + score[so + q] * 9;
      n = insertBest(TOP, TOP_VALUES, n, cap, q, v);
    }
    for (let i = 0; i < n && out.length < limit; i++) if (!renjuX || !fb.isFoul(TOP[i])) out.push(TOP[i]);
    return out;
  }

  /** moves() under the other side's open three: its open-four cells, its MAX_DEFENCE_FOURS best
   * four cells (by its score, a tie to the lower cell), and (unless forceDefence) our four cells
   * (fourMoves), the legal ones by both scores (a tie to the lower cell). Written without sets,
   * spreads and sort callbacks (it runs at every node under a three). */
  defenceMoves(me, out) {
    const fb = this.fb;
    const opp = 3 - me;
    const NC = fb.NC;
    const score = fb.score;
    const sm = me * NC;
    const so = opp * NC;
    const cells = fb.setCells;
    const mark = this.mark || (this.mark = new Int32Array(NC));
    const gen = ++this.markGen;
    const add = (q) => {
      if (mark[q] !== gen) {
        mark[q] = gen;
        out.push(q);
      }
    };
    for (let i = (opp * 8 + OPEN4) * NC, end = i + fb.setLen[opp * 8 + OPEN4]; i < end; i++) add(cells[i]);
    // the best four cells of the other side (selection: few)
    let nTop = 0;
    for (let i = (opp * 8 + FOUR) * NC, end = i + fb.setLen[opp * 8 + FOUR]; i < end; i++) {
      const q = cells[i];
      const v = score[so + q];
      nTop = insertBest(DEF, DEF_VALUES, nTop, MAX_DEFENCE_FOURS, q, v);
    }
    for (let j = 0; j < nTop; j++) add(DEF[j]);
    if (!this.forceDefence) {
      const cnt = fb.cnt;
      const o5 = (me * 8 + FIVE) * NC;
      const o4 = (me * 8 + FOUR) * NC;
      const renjuX = me === XS && fb.renju;
      for (let k = FOUR; k <= OPEN4; k++) {
        for (let i = (me * 8 + k) * NC, end = i + fb.setLen[me * 8 + k]; i < end; i++) {
          const q = cells[i];
          if (cnt[o5 + q] > 0 || (k === OPEN4 && cnt[o4 + q] > 0)) continue;
          if (renjuX && fb.isFoul(q)) continue;
          add(q);
        }
      }
    }
    let n = 0;
    for (let i = 0; i < out.length; i++) if (fb.legal(out[i], me)) out[n++] = out[i];
    out.length = n;
    for (let a = 1; a < n; a++) { // by both scores, a tie to the lower cell (a total order)
      const q = out[a];
      const v = score[sm + q] + score[so + q];
      let b = a - 1;
      while (b >= 0) {
        const p = out[b];
        const w = score[sm + p] + score[so + p];
        if (w > v || (w === v && p < q)) break;
        out[b + 1] = p;
        b--;
      }
      out[b + 1] = q;
    }
    return out;
  }

  nodeWidth(ply) {
    const s = this.schedule;
    if (!s) return this.width;
    return Math.min(this.width, ply < s.length ? s[ply] : s[s.length - 1]);
  }

  tick() {
    this.nodes++;
    if (this.nodes >= this.nextCheck) {
      this.nextCheck = this.nodes + this.checkEvery;
      if (this.clock() > this.deadline) throw new Timeout();
    }
  }

  /** The value for the side to move, `depth` plies left, `ply` below the root; `ext` plies this
   * line has gained from open threes (Hard). */
  search(depth, alpha, beta, ply, ext = 0) {
    this.tick();
    const fb = this.fb;
    const me = fb.turn;
    const opp = 3 - me;
    const hard = this.hard;
    if (ply > this.maxPly) this.maxPly = ply;
    if (fb.count(me, FIVE) > 0) return WIN - ply;
    let moves;
    let useTT = false;
    let slot = 0;
    let k1 = 0;
    let k2 = 0;
    let forced = false;
    if (fb.count(opp, FIVE) > 0) {
      // the other side threatens a five: only the blocks (no table); Hard: the block is free
      // (outside blocked ends, defences() is the one five cell or none: read here without its array)
      moves = this.buffers[ply] || (this.buffers[ply] = []);
      moves.length = 0;
      if (!fb.blockedAny) {
        if (fb.count(opp, FIVE) === 1 && fb.legal(fb.first(opp, FIVE), me)) moves.push(fb.first(opp, FIVE));
      } else {
        for (const z of fb.defences(opp)) if (fb.legal(z, me)) moves.push(z);
      }
      if (!moves.length) return -(WIN - ply - 1);
      if (ply > MAX_FORCED_PLY) return this.evaluate();
      forced = hard;
    } else {
      if (fb.count(opp, FOUR) === 0 && fb.count(opp, OPEN4) === 0 && fb.hasWinningFour(me)) {
        return WIN - ply - 2;
      }
      if (depth <= 0) {
        if (hard && this.tune.leafVcfNodes > 0 && fb.count(me, FOUR) + fb.count(me, OPEN4) >= this.tune.leafVcfFours
          && this.leafVcfCached()) {
          return WIN - ply - 4;
        }
        return this.evaluate();
      }
      const e = this.tt.e;
      k1 = me === 2 ? fb.h1 ^ SIDE_K1 : fb.h1;
      k2 = me === 2 ? fb.h2 ^ SIDE_K2 : fb.h2;
      slot = 4 * ((k1 ^ (k1 >>> 17)) & this.tt.mask);
      useTT = true;
      let first = -1;
      const info = e[slot + 3];
      if ((info & 3) !== 0 && e[slot] === k1 && e[slot + 1] === k2) {
        first = info >> 10;
        if (((info >> 2) & 255) >= depth) {
          const flag = (info & 3) - 2;
          const value = e[slot + 2];
          if (flag === 0 || (flag === 1 && value >= beta) || (flag === -1 && value <= alpha)) return value;
        }
      }
      // (a list per ply, reused: the search below this node fills the deeper plies' lists)
      moves = this.moves(me, this.nodeWidth(ply), this.buffers[ply] || (this.buffers[ply] = []));
      if (!moves.length) {
        const legal = fb.legalCells(me);
        if (!legal.length) return 0; // the board is full (a draw) or no legal move
        moves = [legal[0]];
      }
      if (hard) this.order(moves, first, ply, me);
      else if (first >= 0) {
        const i = moves.indexOf(first);
        if (i > 0) {
          moves.splice(i, 1);
          moves.unshift(first);
        }
      }
    }
    const a0 = alpha;
    let best = -WIN * 2;
    let bestMove = moves[0];
    const tune = this.tune;
    const threeExt = hard && !forced && ext < tune.threeExt;
    const canReduce = hard && !forced && depth >= tune.lmrDepth && moves.length > tune.lmrFrom;
    const NC = fb.NC;
    const cnt = fb.cnt;
    for (let i = 0; i < moves.length; i++) {
      const q = moves[i];
      let d = forced ? depth : depth - 1;
      let e2 = ext;
      let reduce = 0;
      if (hard && !forced) {
        const makesThree = cnt[(me * 8 + THREE) * NC + q] > 0;
        const makesFour = cnt[(me * 8 + FOUR) * NC + q] > 0 || cnt[(me * 8 + OPEN4) * NC + q] > 0;
        if (threeExt && makesThree && !makesFour) {
          d++;
          e2++;
        }
        if (canReduce && i >= tune.lmrFrom && !makesThree && !makesFour && !this.isKiller(ply, q)
          && fb.cls(q, opp) < tune.lmrKeep) {
          reduce = i >= tune.lmrFrom2 && depth >= tune.lmrDepth + 1 ? 2 : 1;
        }
      }
      fb.play(q);
      this.stack.push(q);
      let value;
      if (i === 0 || !hard) {
        value = -this.search(d, -beta, -alpha, ply + 1, e2);
      } else {
        if (reduce) {
          value = -this.search(d - reduce, -alpha - 1, -alpha, ply + 1, e2);
          if (value > alpha) value = -this.search(d, -alpha - 1, -alpha, ply + 1, e2);
        } else {
          value = -this.search(d, -alpha - 1, -alpha, ply + 1, e2);
        }
        if (alpha < value && value < beta) value = -this.search(d, -beta, -alpha, ply + 1, e2);
      }
      this.stack.pop();
      fb.undo();
      if (value > best) {
        best = value;
        bestMove = q;
        if (value > alpha) {
          alpha = value;
          if (alpha >= beta) {
            if (hard && !forced) this.cutoff(ply, me, q, depth);
            break;
          }
        }
      }
    }
    if (useTT) {
      const e = this.tt.e;
      e[slot] = k1;
      e[slot + 1] = k2;
      e[slot + 2] = best;
      e[slot + 3] = (bestMove << 10) | (Math.min(depth, 255) << 2) | (best >= beta ? 3 : best <= a0 ? 1 : 2);
    }
    return best;
  }

  isKiller(ply, q) {
    const k = this.killers;
    return ply < MAX_PLY && (k[2 * ply] === q || k[2 * ply + 1] === q);
  }

  /** A beta cut-off by `q` at `ply`: it becomes the ply's first killer, and its history rises by
   * depth squared. */
  cutoff(ply, me, q, depth) {
    if (ply < MAX_PLY && this.killers[2 * ply] !== q) {
      this.killers[2 * ply + 1] = this.killers[2 * ply];
      this.killers[2 * ply] = q;
    }
    if (this.history) this.history[me * this.fb.NC + q] += depth * depth;
  }

  /** Hard's order of `moves` (pattern order in): the table's move, the moves that make a four,
   * the killers, then the rest by pattern order and, within a quiet tail, history. */
  order(moves, first, ply, me) {
    const tune = this.tune;
    let head = 0;
    if (first >= 0) {
      const i = moves.indexOf(first);
      if (i > 0) {
        moves.splice(i, 1);
        moves.unshift(first);
      }
      if (i >= 0) head = 1;
    }
    if (tune.killers && ply < MAX_PLY) {
      for (let s = 0; s < 2; s++) {
        const k = this.killers[2 * ply + s];
        if (k < 0) continue;
        const i = moves.indexOf(k);
        if (i > head) {
          // after the shape moves that make a four or an open three, which lead the pattern order
          let at = head;
          const fb = this.fb;
          while (at < i && fb.cls(moves[at], me) >= THREE) at++;
          if (at < i) {
            moves.splice(i, 1);
            moves.splice(at, 0, k);
          }
          if (at >= head) head = Math.max(head, at + 1);
        }
      }
    }
    if (tune.history && this.history) {
      // the quiet tail (from the 4th move on) by history, ties kept in pattern order (stable sort)
      const from = Math.max(head, tune.lmrFrom);
      if (moves.length - from > 1) {
        const h = this.history;
        const base = me * this.fb.NC;
        for (let a = from + 1; a < moves.length; a++) { // (an insertion sort: stable, no allocation)
          const q = moves[a];
          const hq = h[base + q];
          let b = a - 1;
          while (b >= from && h[base + moves[b]] < hq) {
            moves[b + 1] = moves[b];
            b--;
          }
          moves[b + 1] = q;
        }
      }
    }
  }

  /**
   * Score every root move at `depth`, each searched with the window open upwards from the best so
   * far. Returns [[score, cell], ...] best first (ties in search order); the pairs scored so far
   * are kept in this.partial for salvage(). Throws Timeout at the deadline (the board restored).
   */
  root(moves, depth) {
    const fb = this.fb;
    const out = (this.partial = []);
    let alpha = -WIN * 2;
    try {
      for (const q of moves) {
        fb.play(q);
        this.stack.push(q);
        const value = -this.search(depth - 1, -WIN * 2, -alpha + 1, 1);
        this.stack.pop();
        fb.undo();
        out.push([value, q]);
        if (value > alpha) alpha = value;
      }
    } catch (e) {
      while (this.stack.length) {
        this.stack.pop();
        fb.undo();
      }
      throw e;
    }
    return out.slice().sort((a, b) => b[0] - a[0]);
  }

  /** `ranked` (the last complete iteration, best first, whose order the timed-out one followed)
   * with the move of the timed-out iteration that beat ranked's first move at the new depth put
   * first, if there is one (a score above the first move's is exact: the root window is open
   * upwards). */
  salvage(ranked) {
    const part = this.partial;
    if (part.length < 2 || part[0][1] !== ranked[0][1]) return ranked;
    let best = null;
    for (const t of part.slice(1)) if (t[0] > part[0][0] && (best === null || t[0] > best[0])) best = t;
    if (best === null) return ranked;
    return [best, ...ranked.filter((t) => t[1] !== best[1])];
  }
}
