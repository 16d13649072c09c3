// The caro computer's search board: flat padded cells, incremental line-window classes, per-side
// cell scores, threat sets and a Zobrist hash (bench/pybots/fastboard.py + nbcore.py, ported once).
//
// Cells are indices into a padded array: real square (col, row) is (row + 1) * W + col with
// W = size + 1; the extra column and the top and bottom rows hold EDGE. Sides are 1 (X, moves
// first) and 2 (O). For each empty cell and direction (row, column, diagonal, anti-diagonal) the
// window of 2H + 1 cells around it is kept as a key (patterns.js) and its class for each side
// is read from the rule set's table; a move re-classifies only the cells within H of it on its
// four lines (within patterns.js `reach`: no class sees farther; with the direct table the keys'
// bits beyond reach are not even kept). take-back of the last stone replays an undo log of the
// codes it changed (unmove) instead of classifying again. From the classes:
//   score[s * NC + q]  sum over the four lines of WEIGHT[class] for side s at empty cell q;
//   total[s]           the sum of score[s] over the empty cells;
//   cnt[(s * 8 + k) * NC + q]  lines on which s at q makes class k (k >= THREE);
//   the threat sets    the empty cells with cnt > 0, per side and class THREE..FIVE, kept as
//                      sparse sets (setCells/setPos/setLen, index s * 8 + k);
//   nearc[q]           stones within distance 2 (the candidate cells are the empty ones > 0,
//                      kept as a sparse set too: candCells/candPos/candLen);
//   cellAttack[s], cellDefence[s]  the sums over the empty cells of the values of s's
//                      combination of four classes there (evaluation.js: Hard's evaluation).
// The winning rule and Renju fouls come from rules.js (the engine's, through the adapter).

import { EDGE, EMPTY, XS, OS, foulAt, squareName, parseSquare, runWins } from "./rules.js";
import { FOUR, OPEN4, FIVE, THREE, WEIGHT, patterns } from "./patterns.js";
import { cellTables, COMBOS } from "./evaluation.js";
import { mulberry32 } from "../rng.js";

export { EMPTY, XS, OS, EDGE };

const NEAR = 24; // cells within distance 2 (5 x 5 less the centre)
const WEIGHTS = Int32Array.from(WEIGHT); // (a typed copy: the hot path reads it)
const FOUL_CACHE_BITS = 14;
const AD_TABLES = new Map(); // "renju" | "plain" -> interleaved cell tables (see adTables)

/** evaluation.js's cell tables of `rules` interleaved for the hot path: {t, base}, the attack value of
 * side s's combination idx at t[base[s] + 2 idx], its defence value right after; X and O share one
 * part when their tables are the same (outside Renju). */
function adTables(rules) {
  const key = rules.renju ? "renju" : "plain";
  let ad = AD_TABLES.get(key);
  if (!ad) {
    const ct = cellTables(rules);
    const same = ct.attack[1].every((v, i) => v === ct.attack[2][i]) && ct.defence[1].every((v, i) => v === ct.defence[2][i]);
    const t = new Int32Array((same ? 2 : 4) * COMBOS);
    const base = Int32Array.of(0, 0, same ? 0 : 2 * COMBOS);
    for (let s = 1; s <= 2; s++) {
      for (let i = 0; i < COMBOS; i++) {
        t[base[s] + 2 * i] = ct.attack[s][i];
        t[base[s] + 2 * i + 1] = ct.defence[s][i];
      }
    }
    ad = { t, base };
    AD_TABLES.set(key, ad);
  }
  return ad;
}

/** Geometry of one board size (cached): padded width, cell count, steps, real cells, names. */
class Geometry {
  constructor(size) {
    this.size = size;
    const W = (this.W = size + 1);
    this.NC = (size + 2) * W;
    this.steps = [1, W, W + 1, 1 - W];
    this.reals = new Int16Array(size * size);
    this.eng = new Int16Array(this.NC).fill(-1); // padded index -> engine index (row-major)
    this.names = [];
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const q = (r + 1) * W + c;
        this.reals[r * size + c] = q;
        this.eng[q] = r * size + c;
        this.names.push(squareName(c, r));
      }
    }
    this.near = new Int16Array(this.NC * NEAR).fill(-1);
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const q = (r + 1) * W + c;
        let k = 0;
        for (let rr = r - 2; rr <= r + 2; rr++) {
          for (let cc = c - 2; cc <= c + 2; cc++) {
            if (rr >= 0 && rr < size && cc >= 0 && cc < size && (rr !== r || cc !== c)) {
              this.near[q * NEAR + k++] = (rr + 1) * W + cc;
            }
          }
        }
      }
    }
  }
}

const GEOMETRIES = new Map();

function geometry(size) {
  let g = GEOMETRIES.get(size);
  if (!g) {
    g = new Geometry(size);
    GEOMETRIES.set(size, g);
  }
  return g;
}

const ZOBRIST = new Map();

/** Zobrist keys of a board of `nc` padded cells: two independent 32-bit halves per (side, cell),
 * index side * nc + cell (side 0 all zero). */
function zobrist(nc) {
  let z = ZOBRIST.get(nc);
  if (!z) {
    const next = mulberry32(20240604 + nc);
    const z1 = new Int32Array(3 * nc);
    const z2 = new Int32Array(3 * nc);
    for (let i = nc; i < 3 * nc; i++) {
      z1[i] = next();
      z2[i] = next();
    }
    z = { z1, z2 };
    ZOBRIST.set(nc, z);
  }
  return z;
}

/**
 * Search board for one rule set. `turn` is 1 (X) or 2 (O); play()/undo() keep the history.
 * Build it with SearchBoard.fromStones(rules, xCells, oCells, turn) or fromNames.
 */
export class SearchBoard {
  constructor(rules) {
    this.rules = rules;
    this.renju = !!rules.renju;
    this.blockedAny = rules.blocked !== "none";
    this.pat = patterns(rules);
    const g = (this.geo = geometry(rules.size));
    const NC = (this.NC = g.NC);
    this.H = this.pat.H;
    this.size = rules.size;
    this.cells = new Int8Array(NC).fill(EDGE);
    for (const q of g.reals) this.cells[q] = EMPTY;
    this.ecells = new Int8Array(rules.size * rules.size);
    this.keys = new Int32Array(4 * NC);
    this.codes = new Int32Array(4 * NC);
    this.score = new Int32Array(3 * NC);
    this.total = new Int32Array(3);
    this.cnt = new Uint8Array(24 * NC);
    this.setCells = new Int16Array(24 * NC); // set sk's cells from sk * NC on, setLen[sk] of them
    this.setPos = new Int16Array(24 * NC).fill(-1); // a cell's index in its set, -1: not in it
    this.setLen = new Int32Array(24);
    this.nearc = new Uint8Array(NC);
    // the candidate cells (empty, nearc > 0) as a sparse set, in no particular order
    this.candCells = new Int16Array(NC);
    this.candPos = new Int16Array(NC).fill(-1);
    this.candLen = 0;
    const ad = adTables(rules);
    this.tAD = ad.t;
    this.adBase = ad.base;
    this.cellAttack = new Int32Array(3);
    this.cellDefence = new Int32Array(3);
    this.combo = new Int16Array(3 * NC); // side s's combination index at cell c (classes, 3 bits a line)
    // the undo log: put() records each code it changes (cell << 12 | line << 10 | the old code) in
    // order; remove() of the last put stone replays them (no pattern look-ups). Frames: a put's
    // cell and the log length before it.
    this.ulog = new Int32Array(1024);
    this.ulen = 0;
    this.frameCell = new Int32Array(64);
    this.frameStart = new Int32Array(64);
    this.frameSums = new Int32Array(6 * 64); // a put's totals, cellAttack, cellDefence (sides 1, 2) before it
    this.frames = 0;
    const z = zobrist(NC);
    this.z1 = z.z1;
    this.z2 = z.z2;
    this.h1 = 0;
    this.h2 = 0;
    this.turn = XS;
    this.history = [];
    this.stones = 0;
    this.foulTag1 = null; // Renju: the foul cache (allocated on first use)
    // the window keys of an empty board, then every cell's classes
    const { steps } = g;
    const H = this.H;
    for (let d = 0; d < 4; d++) {
      for (const q of g.reals) this.keys[d * NC + q] = this.windowKey(q, steps[d], H);
    }
    for (const q of g.reals) {
      for (let d = 0; d < 4; d++) this.setCode(q, d, this.pat.code(this.keys[d * NC + q]));
    }
  }

  /** A board with X on `x` and O on `o` (padded cells), `turn` to move (history empty). */
  static fromCells(rules, x, o, turn) {
    const fb = new SearchBoard(rules);
    for (const q of x) fb.put(q, XS);
    for (const q of o) fb.put(q, OS);
    fb.turn = turn;
    return fb;
  }

  /** A board from square names: {x: [...], o: [...], toMove: "X" | "O"}. */
  static fromNames(rules, { x = [], o = [], toMove = "X" }) {
    const probe = new SearchBoard(rules);
    return SearchBoard.fromCells(rules, x.map((n) => probe.index(n)), o.map((n) => probe.index(n)),
      toMove === "X" ? XS : OS);
  }

  windowKey(q, step, H) {
    const cells = this.cells;
    let key = 0;
    let c = q;
    let j = H;
    while (j > 0) {
      c -= step;
      if (c < 0) break;
      const v = cells[c];
      if (v === EDGE) break;
      j--;
      key |= v << (2 * j);
    }
    while (j > 0) {
      j--;
      key |= EDGE << (2 * j);
    }
    c = q;
    j = H;
    while (j < 2 * H) {
      c += step;
      const v = cells[c];
      if (v === EDGE) break;
      j++;
      key |= v << (2 * j);
    }
    while (j < 2 * H) {
      j++;
      key |= EDGE << (2 * j);
    }
    return key;
  }

  /** Padded index of a square name ("H8"). Throws for a bad name. */
  index(name) {
    const [c, r] = parseSquare(name, this.size);
    return (r + 1) * this.geo.W + c;
  }

  /** Square name of padded index `q`. */
  name(q) {
    return this.geo.names[this.geo.eng[q]];
  }

  // -- moves ---------------------------------------------------------------------------------

  /** Place side `s` on empty cell `q` (no turn change, no history). */
  put(q, s) {
    this.cells[q] = s;
    this.ecells[this.geo.eng[q]] = s;
    this.h1 ^= this.z1[s * this.NC + q];
    this.h2 ^= this.z2[s * this.NC + q];
    this.stones++;
    this.move(q, s);
  }

  /** Take the stone off cell `q` (no turn change, no history). */
  remove(q) {
    const s = this.cells[q];
    this.cells[q] = EMPTY;
    this.ecells[this.geo.eng[q]] = 0;
    this.h1 ^= this.z1[s * this.NC + q];
    this.h2 ^= this.z2[s * this.NC + q];
    this.stones--;
    const f = this.frames - 1;
    if (f >= 0 && this.frameCell[f] === q) {
      this.unmove(q, f);
    } else {
      this.frames = 0; // not the last put stone (never done by the searches): the log is void
      this.ulen = 0;
      this.move(q, 0);
    }
  }

  /** Play the side to move on `q` and pass the turn. */
  play(q) {
    this.put(q, this.turn);
    this.history.push(q);
    this.turn = 3 - this.turn;
  }

  /** Take back the last play(). */
  undo() {
    this.remove(this.history.pop());
    this.turn = 3 - this.turn;
  }

  /** The stone `s` (0: removed) is now on `q`: neighbour counts, window keys, classes. */
  move(q, s) {
    const { cells, keys, codes, NC, H, renju } = this;
    const reach = this.pat.reach;
    const { direct, dShift, dMask, dHigh } = this.pat;
    const dBits = 2 * reach;
    // with the direct table no look-up reads a window's cells beyond reach (pat.code gives the
    // same code whatever they hold), so their bits in the keys are not kept up to date
    const span = direct !== null ? reach : H;
    const near = this.geo.near;
    const nearc = this.nearc;
    if (s > 0) {
      if (nearc[q] > 0) this.candRemove(q);
      for (let k = q * NEAR, end = k + NEAR; k < end; k++) {
        const nb = near[k];
        if (nb < 0) break;
        if (nearc[nb]++ === 0 && cells[nb] === EMPTY) this.candAdd(nb);
      }
    } else {
      this.nearDown(q);
    }
    const steps = this.geo.steps;
    const pat = this.pat;
    let table = pat.table;
    let mask = (table.length >> 1) - 1;
    const hb = 2 * H;
    // a put logs the codes it changes (see the constructor); a full log frame stack grows
    const log = s > 0;
    if (log) {
      if (this.frames === this.frameCell.length) {
        const grow = (a) => { const b = new Int32Array(a.length * 2); b.set(a); return b; };
        this.frameCell = grow(this.frameCell);
        this.frameStart = grow(this.frameStart);
        this.frameSums = grow(this.frameSums);
      }
      const fs = this.frameSums;
      const f6 = 6 * this.frames;
      fs[f6] = this.total[1];
      fs[f6 + 1] = this.total[2];
      fs[f6 + 2] = this.cellAttack[1];
      fs[f6 + 3] = this.cellAttack[2];
      fs[f6 + 4] = this.cellDefence[1];
      fs[f6 + 5] = this.cellDefence[2];
      this.frameCell[this.frames] = q;
      this.frameStart[this.frames++] = this.ulen;
      if (this.ulen + 64 * H > this.ulog.length) {
        const b = new Int32Array(this.ulog.length * 2);
        b.set(this.ulog);
        this.ulog = b;
      }
    }
    const ulog = this.ulog;
    for (let d = 0; d < 4; d++) {
      const step = steps[d];
      const base = d * NC;
      const kq = (keys[base + q] & ~(3 << hb)) | (s << hb);
      keys[base + q] = kq;
      const cq = s > 0 ? 0 : pat.code(kq);
      if (codes[base + q] !== cq) {
        if (log) ulog[this.ulen++] = (q << 12) | (d << 10) | codes[base + q];
        this.changeCode(q, d, base + q, cq);
      }
      // q sits at offset -t in the window of q + t * step (bits 2 (H - t)), at +t in that of
      // q - t * step
      for (let sgn = 1; sgn >= -1; sgn -= 2) {
        let seen = 0; // the stones met between q and c: 1 X, 2 O, 3 both
        let c = q;
        for (let t = 1, j = hb - 2 * sgn; t <= span; t++, j -= 2 * sgn) {
          c += sgn * step;
          if (c < 0) break;
          const v = cells[c];
          if (v === EDGE) break;
          const k = (keys[base + c] & ~(3 << j)) | (s << j);
          keys[base + c] = k;
          if (v !== EMPTY) {
            seen |= v;
            continue;
          }
          // with an X and an O stone between q and c, neither side's class at c sees q (a window
          // is read up to the first stone of the other side); only Renju's count of the X stones
          // near c, kept in the code for the foul filter, would change
          if (seen === 3 && !renju) continue;
          // beyond the pattern table's reach a stone changes no class (patterns.js `reach`)
          if (t > reach) continue;
          let code;
          if (direct !== null) {
            const di = ((k >>> dShift) & dMask) | (((k >>> dHigh) & dMask) << dBits);
            code = direct[di] - 1;
            if (code < 0) {
              code = pat.code(k);
              direct[di] = code + 1;
            }
            if (codes[base + c] !== code) {
              if (log) ulog[this.ulen++] = (c << 12) | (d << 10) | codes[base + c];
              this.changeCode(c, d, base + c, code);
            }
            continue;
          }
          // the pattern table's look-up, written out (pat.code classifies a window met first)
          let i = (Math.imul(k ^ (k >>> 15), 0x2c1b3c6d) >>> 12) & mask;
          for (;;) {
            const e = table[2 * i];
            if (e === k) {
              code = table[2 * i + 1];
              break;
            }
            if (e === -1) {
              code = pat.code(k);
              table = pat.table;
              mask = (table.length >> 1) - 1;
              break;
            }
            i = (i + 1) & mask;
          }
          if (codes[base + c] !== code) {
            if (log) ulog[this.ulen++] = (c << 12) | (d << 10) | codes[base + c];
            this.changeCode(c, d, base + c, code);
          }
        }
      }
    }
  }

  /** The stone on `q` was taken off (cells[q] is EMPTY): neighbour counts and candidates. */
  nearDown(q) {
    const near = this.geo.near;
    const nearc = this.nearc;
    const cells = this.cells;
    for (let k = q * NEAR, end = k + NEAR; k < end; k++) {
      const nb = near[k];
      if (nb < 0) break;
      if (--nearc[nb] === 0 && cells[nb] === EMPTY) this.candRemove(nb);
    }
    if (nearc[q] > 0) this.candAdd(q);
  }

  candAdd(c) {
    const n = this.candLen++;
    this.candCells[n] = c;
    this.candPos[c] = n;
  }

  candRemove(c) {
    const n = --this.candLen;
    const at = this.candPos[c];
    const last = this.candCells[n];
    this.candCells[at] = last;
    this.candPos[last] = at;
    this.candPos[c] = -1;
  }

  /** Undo the put on `q` of log frame `f` (the last): neighbour counts and window keys as move(),
   * then the logged codes back in the order the put changed them (the order move(q, 0) would change
   * them in, so the threat sets end in the same order). */
  unmove(q, f) {
    const { cells, keys, NC, H } = this;
    this.nearDown(q);
    const steps = this.geo.steps;
    const hb = 2 * H;
    const span = this.pat.direct !== null ? this.pat.reach : H; // (as move())
    for (let d = 0; d < 4; d++) {
      const step = steps[d];
      const base = d * NC;
      keys[base + q] &= ~(3 << hb);
      // q sits at bits 2 (H - t) of the window of q + t * step, 2 (H + t) of that of q - t * step
      for (let t = 1, c = q + step, j = hb - 2; t <= span; t++, c += step, j -= 2) {
        if (c < 0 || cells[c] === EDGE) break;
        keys[base + c] &= ~(3 << j);
      }
      for (let t = 1, c = q - step, j = hb + 2; t <= span; t++, c -= step, j += 2) {
        if (c < 0 || cells[c] === EDGE) break;
        keys[base + c] &= ~(3 << j);
      }
    }
    const ulog = this.ulog;
    const end = this.ulen;
    for (let i = this.frameStart[f]; i < end; i++) {
      const e = ulog[i];
      const c = e >> 12;
      const d = (e >> 10) & 3;
      this.restoreCode(c, d, d * NC + c, e & 1023);
    }
    const fs = this.frameSums;
    const f6 = 6 * f;
    this.total[1] = fs[f6];
    this.total[2] = fs[f6 + 1];
    this.cellAttack[1] = fs[f6 + 2];
    this.cellAttack[2] = fs[f6 + 3];
    this.cellDefence[1] = fs[f6 + 4];
    this.cellDefence[2] = fs[f6 + 5];
    this.ulen = this.frameStart[f];
    this.frames = f;
  }

  /** Cell `c`'s class code on line `d` is now `code`: scores, totals, counts and sets follow. */
  setCode(c, d, code) {
    if (this.codes[d * this.NC + c] !== code) this.changeCode(c, d, d * this.NC + c, code);
  }

  /** setCode when the code at `i` = d * NC + c differs from `code`. */
  changeCode(c, d, i, code) {
    const old = this.codes[i];
    this.codes[i] = code;
    const diff = old ^ code;
    if (diff & 7) this.sideChange(1, c, d, old & 7, code & 7);
    if (diff & 56) this.sideChange(2, c, d, (old >> 3) & 7, (code >> 3) & 7);
  }

  /** Side `side`'s class at cell `c` on line `d` went from `co` to `cn`: its score, total, threat
   * counts and sets, and the cell's combination (this.combo) and value (evaluation.js) in
   * cellAttack / cellDefence follow. */
  sideChange(side, c, d, co, cn) {
    const NC = this.NC;
    this.total[side] += this.classChange(side, c, co, cn);
    const at = side * NC + c;
    const was = this.combo[at];
    const idx = (was & ~(7 << (3 * d))) | (cn << (3 * d));
    this.combo[at] = idx;
    const t = this.tAD;
    const b = this.adBase[side];
    this.cellAttack[side] += t[b + 2 * idx] - t[b + 2 * was];
    this.cellDefence[side] += t[b + 2 * idx + 1] - t[b + 2 * was + 1];
  }

  /** Side `side`'s class at cell `c` went from `co` to `cn`: its score and its threat counts and
   * sets (shared by sideChange and the undo log's replay, restoreCode). Returns the score's change. */
  classChange(side, c, co, cn) {
    const NC = this.NC;
    const delta = WEIGHTS[cn] - WEIGHTS[co];
    this.score[side * NC + c] += delta;
    if (co >= THREE) {
      const sk = side * 8 + co;
      if (--this.cnt[sk * NC + c] === 0) this.setRemove(sk, c);
    }
    if (cn >= THREE) {
      const sk = side * 8 + cn;
      if (++this.cnt[sk * NC + c] === 1) this.setAdd(sk, c);
    }
    return delta;
  }

  /** changeCode on the undo log's replay: the same scores, threat counts and sets (the same set
   * operations in the same order) and combinations; the sums (total, cellAttack, cellDefence) are
   * left to unmove(), which puts back the put's snapshot of them. */
  restoreCode(c, d, i, code) {
    const NC = this.NC;
    const old = this.codes[i];
    this.codes[i] = code;
    const diff = old ^ code;
    for (let side = 1; side <= 2; side++) {
      const shift = side === 1 ? 0 : 3;
      if ((diff & (7 << shift)) === 0) continue;
      const co = (old >> shift) & 7;
      const cn = (code >> shift) & 7;
      this.classChange(side, c, co, cn);
      const at = side * NC + c;
      this.combo[at] = (this.combo[at] & ~(7 << (3 * d))) | (cn << (3 * d));
    }
  }

  setAdd(sk, c) {
    const base = sk * this.NC;
    const n = this.setLen[sk]++;
    this.setCells[base + n] = c;
    this.setPos[base + c] = n;
  }

  setRemove(sk, c) {
    const base = sk * this.NC;
    const cells = this.setCells;
    const pos = this.setPos;
    const n = --this.setLen[sk];
    const at = pos[base + c];
    const last = cells[base + n];
    cells[base + at] = last;
    pos[base + last] = at;
    pos[base + c] = -1;
  }

  // -- queries --------------------------------------------------------------------------------

  /** How many empty cells are in side `s`'s set of class `k` (k >= THREE). */
  count(s, k) {
    return this.setLen[s * 8 + k];
  }

  /** Whether empty cell `q` is in side `s`'s set of class `k` (k >= THREE). */
  has(s, k, q) {
    return this.cnt[(s * 8 + k) * this.NC + q] > 0;
  }

  /** The first cell of side `s`'s set of class `k` (-1 when it is empty). */
  first(s, k) {
    const sk = s * 8 + k;
    return this.setLen[sk] ? this.setCells[sk * this.NC] : -1;
  }

  /** The cells of side `s`'s set of class `k`, as a new array (any order). */
  members(s, k) {
    const sk = s * 8 + k;
    const out = [];
    for (let i = sk * this.NC, end = i + this.setLen[sk]; i < end; i++) out.push(this.setCells[i]);
    return out;
  }

  /** Best class side `s` would make on empty cell `q` over the four lines. */
  cls(q, s) {
    const shift = s === XS ? 0 : 3;
    let best = 0;
    for (let d = 0; d < 4; d++) best = Math.max(best, (this.codes[d * this.NC + q] >> shift) & 7);
    return best;
  }

  /** Lines on which `s` at `q` makes a four (open or not). */
  fourCount(q, s) {
    const NC = this.NC;
    return this.cnt[(s * 8 + FOUR) * NC + q] + this.cnt[(s * 8 + OPEN4) * NC + q];
  }

  /** Exactly whether a stone of `s` on empty `q` completes a winning run (the engine's rule on the
   * whole contiguous run through `q` on each line and its two end cells). */
  winsAt(q, s) {
    const cells = this.cells;
    for (const step of this.geo.steps) {
      let a = q - step;
      while (cells[a] === s) a -= step;
      let b = q + step;
      while (cells[b] === s) b += step;
      if (runWins(this.rules, s, (b - a) / step - 1, cells[a], cells[b])) return true;
    }
    return false;
  }

  /** Whether X on empty `q` is a Renju foul (always false outside Renju). A cheap filter on the
   * X stones near `q` first; the engine's foul test, cached per position, decides. */
  isFoul(q) {
    if (!this.renju) return false;
    const NC = this.NC;
    let heavy = 0;
    for (let d = 0; d < 4; d++) {
      const nx = this.codes[d * NC + q] >> 6;
      if (nx >= 4) {
        heavy = 2;
        break;
      }
      if (nx >= 2) heavy++;
    }
    if (heavy < 2) return false;
    if (this.foulTag1 === null) {
      const n = 1 << FOUL_CACHE_BITS;
      this.foulTag1 = new Int32Array(n);
      this.foulTag2 = new Int32Array(n);
      this.foulVal = new Int8Array(n); // 0 unknown, 1 no foul, 2 foul
    }
    const slot = (this.h1 ^ Math.imul(q, 0x9e3779b1)) & ((1 << FOUL_CACHE_BITS) - 1);
    const tag2 = this.h2 ^ q;
    if (this.foulVal[slot] !== 0 && this.foulTag1[slot] === this.h1 && this.foulTag2[slot] === tag2) {
      return this.foulVal[slot] === 2;
    }
    const foul = foulAt(this.ecells, this.size, this.geo.eng[q]) !== null;
    this.foulTag1[slot] = this.h1;
    this.foulTag2[slot] = tag2;
    this.foulVal[slot] = foul ? 2 : 1;
    return foul;
  }

  /** Whether side `s` may play empty cell `q` (Renju fouls excluded for X). */
  legal(q, s) {
    return !(s === XS && this.renju && this.isFoul(q));
  }

  /** Legal cells where `s` makes at least one four (open or not), not a five. */
  fourMoves(s) {
    const out = [];
    const NC = this.NC;
    const c5 = this.cnt;
    const o5 = (s * 8 + FIVE) * NC;
    const o4 = (s * 8 + FOUR) * NC;
    for (const k of [FOUR, OPEN4]) {
      const sk = s * 8 + k;
      const cells = this.setCells;
      for (let i = sk * NC, n = i + this.setLen[sk]; i < n; i++) {
        const q = cells[i];
        if (c5[o5 + q] > 0 || (k === OPEN4 && c5[o4 + q] > 0)) continue;
        if (s === XS && this.renju && this.isFoul(q)) continue;
        out.push(q);
      }
    }
    return out;
  }

  /** Legal cells where `s` makes an open three (and no four). */
  threeMoves(s) {
    const out = [];
    const sk = s * 8 + THREE;
    const cells = this.setCells;
    for (let i = sk * this.NC, n = i + this.setLen[sk]; i < n; i++) {
      const q = cells[i];
      if (this.has(s, FOUR, q) || this.has(s, OPEN4, q) || this.has(s, FIVE, q)) continue;
      if (s === XS && this.renju && this.isFoul(q)) continue;
      out.push(q);
    }
    return out;
  }

  /**
   * Cells (ascending) where the side not `a` stops every five of `a` with one stone. Empty: `a`
   * has a five-threat that cannot be stopped (or none: check count(a, FIVE) first). Under blocked
   * ends a five-threat can also be stopped beyond the far end of the would-be run; those cells are
   * tried by playing them. Renju legality of the reply is not checked here (see legal()).
   */
  defences(a) {
    const n5 = this.setLen[a * 8 + FIVE];
    if (n5 === 0) return [];
    const NC = this.NC;
    const setCells = this.setCells;
    const f0 = (a * 8 + FIVE) * NC;
    if (!this.blockedAny) return n5 === 1 ? [setCells[f0]] : [];
    const cells = this.cells;
    const cands = [];
    for (let i = 0; i < n5; i++) cands.push(setCells[f0 + i]);
    const L = this.rules.win_length;
    const steps = this.geo.steps;
    for (let i = 0; i < n5; i++) {
      const z = setCells[f0 + i];
      for (let d = 0; d < 4; d++) {
        const step = steps[d];
        let lo = z - step;
        while (lo >= 0 && cells[lo] === a) lo -= step;
        let hi = z + step;
        while (cells[hi] === a) hi += step;
        if ((hi - lo) / step - 1 >= L) {
          if (lo >= 0 && cells[lo] === EMPTY && !cands.includes(lo)) cands.push(lo);
          if (cells[hi] === EMPTY && !cands.includes(hi)) cands.push(hi);
        }
      }
    }
    // a candidate stops them when, with it on the board, none of the five cells wins any more (the
    // engine's rule on the whole run, as the pattern table's FIVE; a stone of the defender can only
    // shorten or close the attacker's runs, so no other cell becomes a five)
    const out = [];
    const d = 3 - a;
    for (const c of cands) {
      cells[c] = d;
      let stops = true;
      for (let i = 0; i < n5 && stops; i++) {
        const z = setCells[f0 + i];
        if (z !== c && this.winsAt(z, a)) stops = false;
      }
      cells[c] = EMPTY;
      if (stops) out.push(c);
    }
    return out.length > 1 ? out.sort((p, q) => p - q) : out;
  }

  /** Legal cells where `s` makes a five-threat the opponent cannot stop with one stone (an open
   * four or two fours), checked by playing it. */
  winningFourMoves(s, first = false) {
    const out = [];
    for (const q of this.fourMoves(s)) {
      if (this.has(s, OPEN4, q) || this.fourCount(q, s) >= 2) {
        this.put(q, s);
        const unstoppable = this.defences(s).length === 0;
        this.remove(q);
        if (unstoppable) {
          out.push(q);
          if (first) break;
        }
      }
    }
    return out;
  }

  /** Whether `s` has a legal cell making a five-threat the opponent cannot stop: the same answer,
   * cells tried in the same order, as winningFourMoves(s, true).length > 0, without its arrays. */
  hasWinningFour(s) {
    const NC = this.NC;
    const cnt = this.cnt;
    const o5 = (s * 8 + FIVE) * NC;
    const o4 = (s * 8 + FOUR) * NC;
    const oo = (s * 8 + OPEN4) * NC;
    const renjuX = s === XS && this.renju;
    const cells = this.setCells;
    const tries = this.tries || (this.tries = new Int16Array(NC)); // (put/remove reorder the sets)
    let n = 0;
    for (let k = FOUR; k <= OPEN4; k++) {
      const sk = s * 8 + k;
      for (let i = sk * NC, end = i + this.setLen[sk]; i < end; i++) {
        const q = cells[i];
        if (cnt[o5 + q] > 0 || (k === OPEN4 && cnt[o4 + q] > 0)) continue;
        if (renjuX && this.isFoul(q)) continue;
        if (cnt[oo + q] > 0 || cnt[o4 + q] + cnt[oo + q] >= 2) tries[n++] = q;
      }
    }
    for (let i = 0; i < n; i++) {
      const q = tries[i];
      this.put(q, s);
      const unstoppable = this.blockedAny ? this.defences(s).length === 0 : this.setLen[s * 8 + FIVE] !== 1;
      this.remove(q);
      if (unstoppable) return true;
    }
    return false;
  }

  /** Empty cells within distance 2 of a stone, ascending (the centre on an empty board). */
  candidates() {
    const out = [];
    for (const q of this.geo.reals) if (this.cells[q] === EMPTY && this.nearc[q] > 0) out.push(q);
    if (!out.length && this.stones === 0) {
      const c = this.size >> 1;
      out.push((c + 1) * this.geo.W + c);
    }
    return out;
  }

  /** Every empty real cell legal for `s`, ascending. */
  legalCells(s) {
    const out = [];
    for (const q of this.geo.reals) if (this.cells[q] === EMPTY && this.legal(q, s)) out.push(q);
    return out;
  }
}
