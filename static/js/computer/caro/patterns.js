// Line-window classes of one rule set: what a stone of each side on an empty cell would make on
// one line (bench/pybots/fastboard.py _Patterns, ported once).
//
// A window is the n = 2H + 1 cells of one line centred on an empty cell (H = win_length + 1),
// two bits a cell (0 empty, 1 X, 2 O, 3 off the board) packed into one integer key: the cell at
// offset j - H from the centre in bits 2j. A key fits 30 bits (win_length 6: n = 15).
// classify(key) packs the classes for both sides and the X stones near the centre (the Renju
// foul filter reads them); it is computed once per distinct window and kept in an
// open-addressing table, so the search board's update is a table look-up per window.

import { EDGE, EMPTY, XS, OS, runWins } from "./rules.js";

// Classes, weakest to strongest (a stone on the centre would make ...):
export const NONE = 0;
export const ONE = 1; // a two-stone shape in a window of win_length free cells
export const TWO = 2; // three stones in such a window
export const CTHREE = 3; // a closed three: one more stone makes a four
export const THREE = 4; // an open three: one more stone makes an open four
export const FOUR = 5; // a four: one completion to a winning run
export const OPEN4 = 6; // an open four: no single defender stone stops every completion
export const FIVE = 7; // a winning run (exact five, blocked ends, Renju's exact five for X)

/** Score of a cell for a side, per class on one line (summed over the four lines). */
export const WEIGHT = Object.freeze([0, 2, 8, 30, 120, 100, 900, 6000]);

const EMPTY_KEY = -1;
const DIRECT_BITS = 20; // the largest direct table: 2 ** 20 codes (2 MB)

/** Memoised window classifier for one rule set (see the module comment). */
export class Patterns {
  constructor(rules) {
    this.rules = rules;
    this.L = rules.win_length;
    this.H = this.L + 1;
    this.C = this.H + 1; // the centre in a padded window (one EMPTY cell each side)
    this.R = this.L - 1;
    this.n = 2 * this.H + 1;
    this.blocked = rules.blocked;
    // the farthest distance from the centre at which a stone can change the code (the search
    // board skips the look-up beyond it): with blocked ends the whole window (a run's end cell);
    // when a run longer than win_length does not win (exact five, Renju's X) win_length (a stone
    // there makes the overline); else win_length - 1 (every window of win_length through the
    // centre, the runs through it, the stones counted for Renju all lie within it; a run reaching
    // farther is already long enough). tests/js/computer/caro-patterns-reach.test.js checks it.
    this.reach = this.blocked !== "none" ? this.H : rules.exact || rules.renju ? this.L : this.L - 1;
    // when the cells within reach fit in DIRECT_BITS, the codes are also kept in a table indexed
    // by them (directIndex; code + 1, 0: not looked up yet): one read, no probing, and small
    // (freestyle: 2 ** 16 entries)
    const bits = 4 * this.reach;
    this.direct = bits <= DIRECT_BITS ? new Uint16Array(1 << bits) : null;
    this.dShift = 2 * (this.H - this.reach); // the key's bits of the nearest cell at -reach
    this.dMask = (1 << (2 * this.reach)) - 1;
    this.dHigh = this.dShift + 2 * this.reach + 2; // ... and of the cell at +1
    this.sideMemo = new Map();
    this.table = new Int32Array(2 << 16).fill(EMPTY_KEY); // [key, code] pairs, open addressing
    this.stored = 0;
    this.w = new Int8Array(this.n + 2);
  }

  /** The direct table's index of window `key` (the centre empty): the cells within reach. */
  directIndex(key) {
    return ((key >>> this.dShift) & this.dMask) | (((key >>> this.dHigh) & this.dMask) << (2 * this.reach));
  }

  /**
   * Packed classes of window `key`: bits 0-2 X's class, 3-5 O's class, 6-9 X stones within
   * win_length - 1 of the centre. Classified on the first look-up, then read from the table.
   */
  code(key) {
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    let i = (Math.imul(key ^ (key >>> 15), 0x2c1b3c6d) >>> 12) & mask;
    for (;;) {
      const k = table[2 * i];
      if (k === key) return table[2 * i + 1];
      if (k === EMPTY_KEY) break;
      i = (i + 1) & mask;
    }
    const value = this.compute(key);
    this.stored++;
    if (this.stored * 2 > mask + 1) this.grow();
    this.store(key, value);
    return value;
  }

  store(key, value) {
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    let i = (Math.imul(key ^ (key >>> 15), 0x2c1b3c6d) >>> 12) & mask;
    while (table[2 * i] !== EMPTY_KEY && table[2 * i] !== key) i = (i + 1) & mask;
    table[2 * i] = key;
    table[2 * i + 1] = value;
  }

  grow() {
    const old = this.table;
    this.table = new Int32Array(old.length * 2).fill(EMPTY_KEY);
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] !== EMPTY_KEY) this.store(old[i], old[i + 1]);
    }
  }

  compute(key) {
    const { n, H, R } = this;
    const w = new Array(n);
    for (let j = 0; j < n; j++) w[j] = (key >>> (2 * j)) & 3;
    const cx = this.sideClass(w, XS);
    const co = this.sideClass(w, OS);
    let nx = 0;
    for (let j = H - R; j <= H + R; j++) if (w[j] === XS) nx++;
    return cx | (co << 3) | (nx << 6);
  }

  /** Class for side `s`, memoised on a canonical window: cells beyond the first opponent stone
   * or edge on each side cannot matter, and a window and its mirror classify alike. */
  sideClass(w, s) {
    const opp = 3 - s;
    const C = this.H;
    const n = this.n;
    const c = w.slice();
    let j = C - 1;
    while (j >= 0 && c[j] !== opp && c[j] !== EDGE) j--;
    for (let i = 0; i < j; i++) c[i] = opp;
    j = C + 1;
    while (j < n && c[j] !== opp && c[j] !== EDGE) j++;
    for (let i = j + 1; i < n; i++) c[i] = opp;
    let text = c.join("");
    const mirror = c.slice().reverse().join("");
    if (mirror < text) text = mirror;
    const memoKey = s + text;
    let hit = this.sideMemo.get(memoKey);
    if (hit === undefined) {
      const padded = this.w;
      padded[0] = EMPTY;
      for (let i = 0; i < n; i++) padded[i + 1] = Number(text[i]);
      padded[n + 1] = EMPTY;
      hit = this.classify(padded, s);
      this.sideMemo.set(memoKey, hit);
    }
    return hit;
  }

  /** Whether the run of `s` through `e` in the padded window `w` wins (and covers index `need`). */
  wins(w, e, s, need) {
    let a = e - 1;
    while (w[a] === s) a--;
    let b = e + 1;
    while (w[b] === s) b++;
    return a < need && need < b && runWins(this.rules, s, b - a - 1, w[a], w[b]);
  }

  completions(w, s) {
    const { C, R } = this;
    let count = 0;
    for (let e = C - R; e <= C + R; e++) {
      if (w[e] === EMPTY) {
        w[e] = s;
        if (this.wins(w, e, s, C)) count++;
        w[e] = EMPTY;
      }
    }
    return count;
  }

  /** 0: no four through the centre; 1: a four; 2: an open four (no single defender stone in the
   * window stops every completion; under blocked ends a four whose two completions depend on
   * each other is only a four). */
  fourKind(w, s) {
    const comps = this.completions(w, s);
    if (comps < 2) return comps;
    if (this.blocked === "none") return 2;
    const opp = 3 - s;
    for (let y = 1; y <= this.n; y++) {
      if (w[y] === EMPTY) {
        w[y] = opp;
        const left = this.completions(w, s);
        w[y] = EMPTY;
        if (left === 0) return 1;
      }
    }
    return 2;
  }

  classify(w, s) {
    const { C, R, L } = this;
    if (w[C] !== EMPTY) return NONE;
    w[C] = s;
    try {
      if (this.wins(w, C, s, C)) return FIVE;
      const kind = this.fourKind(w, s);
      if (kind === 2) return OPEN4;
      if (kind === 1) return FOUR;
      let best = 0;
      for (let e = C - R; e <= C + R; e++) {
        if (w[e] === EMPTY) {
          w[e] = s;
          best = Math.max(best, this.fourKind(w, s));
          w[e] = EMPTY;
          if (best >= 2) return THREE;
        }
      }
      if (best === 1) return CTHREE;
      let m = 0;
      for (let start = C - L + 1; start <= C; start++) {
        let count = 0;
        let free = true;
        for (let i = start; i < start + L; i++) {
          if (w[i] === s) count++;
          else if (w[i] !== EMPTY) {
            free = false;
            break;
          }
        }
        if (free) m = Math.max(m, count);
      }
      return m >= 3 ? TWO : m === 2 ? ONE : NONE;
    } finally {
      w[C] = EMPTY;
    }
  }
}

const TABLES = new Map();

/** A string naming a rule set (the key of the tables kept per rule set). */
export function rulesKey(rules) {
  return `${rules.size}/${rules.win_length}/${rules.exact ? 1 : 0}/${rules.blocked}/${rules.renju ? 1 : 0}`;
}

/** The shared, memoised pattern table of `rules`. */
export function patterns(rules) {
  const key = rulesKey(rules);
  let table = TABLES.get(key);
  if (!table) {
    table = new Patterns(rules);
    TABLES.set(key, table);
  }
  return table;
}
