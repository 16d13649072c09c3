// The pattern evaluation of Reversi Hard: per phase (discs on the board), a fitted value for every
// configuration of each pattern (a row, a column, a diagonal, an edge with its two X squares, a
// corner's 3x3 block), summed over the pattern's symmetric instances, plus mobility difference,
// parity and a bias. The tables (weights.js) are fitted by bench/reversi_pattern_fit.py on
// positions scored by a strong judge (bench/reversi_pattern_data.py); the fit lists every
// instance's squares (PATTERN_SQUARES) and this module reads the same configurations from the
// bitboards quickly (ternary index: sum of 3**i * state of the i-th square, state 0 empty, 1 the side
// to move's disc, 2 the other side's). `patternIndexes()` is the plain reading the tests compare with.
// Scores are from the side to move's view in evaluation units (evaluation.js SCALE per disc).

import { pop64, popDiff } from "./evaluation.js";
import { LINEAR, PATTERN_SQUARES, PHASES, PHASE_DISCS, STEPS, TABLES } from "./weights.js";

export { PATTERN_SQUARES };

const POW3 = Int32Array.from({ length: 11 }, (_, i) => 3 ** i);
/** Per pattern: the first entry of its table inside a phase's block; SIZE: a phase's entries. */
export const OFFSETS = Int32Array.from({ length: PATTERN_SQUARES.length + 1 }, (_, i) =>
  PATTERN_SQUARES.slice(0, i).reduce((sum, [, insts]) => sum + POW3[insts[0].length], 0));
export const SIZE = OFFSETS[PATTERN_SQUARES.length];
const OFF = Object.fromEntries(PATTERN_SQUARES.map(([name], i) => [name, OFFSETS[i]]));

/** The tables as evaluation units, phase after phase (Int16: every entry is within ±127 steps). */
export const TABLE = (() => {
  const bytes = atob(TABLES); // one byte a table entry (int8), phase after phase, pattern after pattern
  const table = new Int16Array(PHASES * SIZE);
  for (let p = 0; p < PHASES; p++) {
    for (let k = 0; k < PATTERN_SQUARES.length; k++) {
      const step = STEPS[p][k];
      for (let i = p * SIZE + OFFSETS[k]; i < p * SIZE + OFFSETS[k + 1]; i++) {
        const q = bytes.charCodeAt(i);
        table[i] = (q > 127 ? q - 256 : q) * step;
      }
    }
  }
  return table;
})();
const LIN = Int32Array.from(LINEAR.flat());

/** Phase of a position by its discs on the board (4-64). */
export const PHASE_OF = Int32Array.from({ length: 65 }, (_, n) => Math.max(0, Math.min(PHASES - 1, ((n - 4) / PHASE_DISCS) | 0)));

/** Bits of a byte as ternary digits (bit j -> 3**j), and reversed over k bits (bit j -> 3**(k-1-j)). */
const T8 = Int32Array.from({ length: 256 }, (_, b) => {
  let t = 0;
  for (let j = 0; j < 8; j++) if ((b >> j) & 1) t += POW3[j];
  return t;
});
const REVERSED = Array.from({ length: 9 }, (_, k) => Int32Array.from({ length: 256 }, (_, b) => {
  let t = 0;
  for (let j = 0; j < k; j++) if ((b >> j) & 1) t += POW3[k - 1 - j];
  return t;
}));
const R3 = REVERSED[3];

/** Column c of a board as one byte (row 1 = bit 0). */
function column(lo, hi, c) {
  return ((Math.imul((lo >>> c) & 0x01010101, 0x01020408) >>> 24) & 15)
    | (((Math.imul((hi >>> c) & 0x01010101, 0x01020408) >>> 24) & 15) << 4);
}

// The diagonal patterns: per instance its squares' masks (lo, hi) and how its columns give its digits:
// digit i on column first + i (SHIFT = first, REV = 0) or on column (k - 1 - i) (REV = k: REVERSED[k]).
const DIAGONAL_NAMES = ["d8", "d7", "d6", "d5", "d4"];
const DIAG = [];
for (const [name, insts] of PATTERN_SQUARES) {
  if (!DIAGONAL_NAMES.includes(name)) continue;
  for (const squares of insts) {
    const cols = squares.map((s) => s & 7);
    const k = squares.length;
    let lo = 0;
    let hi = 0;
    for (const s of squares) {
      if (s < 32) lo |= 1 << s;
      else hi |= 1 << (s - 32);
    }
    const rising = cols.every((c, i) => c === cols[0] + i);
    const falling = cols.every((c, i) => c === k - 1 - i);
    if (!rising && !falling) throw new Error(`diagonal ${name} is read by columns`);
    DIAG.push({ offset: OFF[name], lo, hi, shift: rising ? cols[0] : 0, rev: rising ? 0 : k });
  }
}
const DIAG_N = DIAG.length;
const DIAG_OFF = Int32Array.from(DIAG, (d) => d.offset);
const DIAG_LO = Int32Array.from(DIAG, (d) => d.lo);
const DIAG_HI = Int32Array.from(DIAG, (d) => d.hi);
const DIAG_SHIFT = Int32Array.from(DIAG, (d) => d.shift);
const DIAG_REV = Int32Array.from(DIAG, (d) => d.rev);

/** Ternary index of a diagonal instance j from the two sides' boards. */
function diagonal(j, mlo, mhi, olo, ohi) {
  const ml = DIAG_LO[j];
  const mh = DIAG_HI[j];
  const m = (Math.imul(mlo & ml, 0x01010101) >>> 24) | (Math.imul(mhi & mh, 0x01010101) >>> 24);
  const o = (Math.imul(olo & ml, 0x01010101) >>> 24) | (Math.imul(ohi & mh, 0x01010101) >>> 24);
  const rev = DIAG_REV[j];
  if (rev) {
    const t = REVERSED[rev];
    return t[m] + 2 * t[o];
  }
  const s = DIAG_SHIFT[j];
  return T8[m >>> s] + 2 * T8[o >>> s];
}

const O_HV2 = OFF.hv2;
const O_HV3 = OFF.hv3;
const O_HV4 = OFF.hv4;
const O_EDGE = OFF.edge2x;
const O_CORNER = OFF.corner3x3;

/**
 * The score of the position for the side to move (m) against o, in evaluation units. `my` /
 * `their`: both sides' legal moves (as evaluation.js's evaluate, so the search can use either).
 */
export function evaluatePatterns(mlo, mhi, olo, ohi, mylo, myhi, thlo, thhi) {
  const nOcc = pop64(mlo | olo, mhi | ohi);
  const phase = PHASE_OF[nOcc];
  const b = phase * SIZE;
  const t = TABLE;
  // rows (a..h = digits 0..7) and columns (rows 1..8 = digits 0..7)
  const m0 = mlo & 255;
  const m1 = (mlo >>> 8) & 255;
  const m2 = (mlo >>> 16) & 255;
  const m3 = mlo >>> 24;
  const m4 = mhi & 255;
  const m5 = (mhi >>> 8) & 255;
  const m6 = (mhi >>> 16) & 255;
  const m7 = mhi >>> 24;
  const o0 = olo & 255;
  const o1 = (olo >>> 8) & 255;
  const o2 = (olo >>> 16) & 255;
  const o3 = olo >>> 24;
  const o4 = ohi & 255;
  const o5 = (ohi >>> 8) & 255;
  const o6 = (ohi >>> 16) & 255;
  const o7 = ohi >>> 24;
  const c0 = T8[column(mlo, mhi, 0)] + 2 * T8[column(olo, ohi, 0)];
  const c7 = T8[column(mlo, mhi, 7)] + 2 * T8[column(olo, ohi, 7)];
  let score = t[b + O_HV2 + T8[m1] + 2 * T8[o1]] + t[b + O_HV2 + T8[m6] + 2 * T8[o6]]
    + t[b + O_HV2 + T8[column(mlo, mhi, 1)] + 2 * T8[column(olo, ohi, 1)]]
    + t[b + O_HV2 + T8[column(mlo, mhi, 6)] + 2 * T8[column(olo, ohi, 6)]]
    + t[b + O_HV3 + T8[m2] + 2 * T8[o2]] + t[b + O_HV3 + T8[m5] + 2 * T8[o5]]
    + t[b + O_HV3 + T8[column(mlo, mhi, 2)] + 2 * T8[column(olo, ohi, 2)]]
    + t[b + O_HV3 + T8[column(mlo, mhi, 5)] + 2 * T8[column(olo, ohi, 5)]]
    + t[b + O_HV4 + T8[m3] + 2 * T8[o3]] + t[b + O_HV4 + T8[m4] + 2 * T8[o4]]
    + t[b + O_HV4 + T8[column(mlo, mhi, 3)] + 2 * T8[column(olo, ohi, 3)]]
    + t[b + O_HV4 + T8[column(mlo, mhi, 4)] + 2 * T8[column(olo, ohi, 4)]];
  for (let j = 0; j < DIAG_N; j++) score += t[b + DIAG_OFF[j] + diagonal(j, mlo, mhi, olo, ohi)];
  // edges with their X squares: b2 (bit 9), g2 (14), b7 (49), g7 (54)
  const xb2 = ((mlo >>> 9) & 1) + 2 * ((olo >>> 9) & 1);
  const xg2 = ((mlo >>> 14) & 1) + 2 * ((olo >>> 14) & 1);
  const xb7 = ((mhi >>> 17) & 1) + 2 * ((ohi >>> 17) & 1);
  const xg7 = ((mhi >>> 22) & 1) + 2 * ((ohi >>> 22) & 1);
  score += t[b + O_EDGE + T8[m0] + 2 * T8[o0] + 6561 * xb2 + 19683 * xg2]
    + t[b + O_EDGE + T8[m7] + 2 * T8[o7] + 6561 * xb7 + 19683 * xg7]
    + t[b + O_EDGE + c0 + 6561 * xb2 + 19683 * xb7]
    + t[b + O_EDGE + c7 + 6561 * xg2 + 19683 * xg7];
  // corners' 3x3 blocks: a1 (rows 1-3, columns a-c), h1 (columns h-f), a8 (rows 8-6), h8
  score += t[b + O_CORNER + T8[m0 & 7] + 2 * T8[o0 & 7] + 27 * (T8[m1 & 7] + 2 * T8[o1 & 7]) + 729 * (T8[m2 & 7] + 2 * T8[o2 & 7])]
    + t[b + O_CORNER + R3[m0 >>> 5] + 2 * R3[o0 >>> 5] + 27 * (R3[m1 >>> 5] + 2 * R3[o1 >>> 5]) + 729 * (R3[m2 >>> 5] + 2 * R3[o2 >>> 5])]
    + t[b + O_CORNER + T8[m7 & 7] + 2 * T8[o7 & 7] + 27 * (T8[m6 & 7] + 2 * T8[o6 & 7]) + 729 * (T8[m5 & 7] + 2 * T8[o5 & 7])]
    + t[b + O_CORNER + R3[m7 >>> 5] + 2 * R3[o7 >>> 5] + 27 * (R3[m6 >>> 5] + 2 * R3[o6 >>> 5]) + 729 * (R3[m5 >>> 5] + 2 * R3[o5 >>> 5])];
  const l = phase * 3;
  score += LIN[l] * popDiff(mylo, myhi, thlo, thhi) + (nOcc & 1 ? LIN[l + 1] : -LIN[l + 1]) + LIN[l + 2];
  return score;
}

/**
 * The plain reading: per pattern and instance (PATTERN_SQUARES order) the ternary index of (me, opp),
 * each a [lo, hi] board. For tests.
 */
export function patternIndexes(me, opp) {
  const state = (s) => {
    const m = s < 32 ? (me[0] >>> s) & 1 : (me[1] >>> (s - 32)) & 1;
    const o = s < 32 ? (opp[0] >>> s) & 1 : (opp[1] >>> (s - 32)) & 1;
    return m + 2 * o;
  };
  return PATTERN_SQUARES.map(([, insts]) => insts.map((squares) =>
    squares.reduce((idx, s, i) => idx + POW3[i] * state(s), 0)));
}

/** The score from patternIndexes() (plain sums over the tables): what evaluatePatterns() must equal. */
export function evaluatePatternsPlain(me, opp, mobility) {
  const nOcc = pop64(me[0] | opp[0], me[1] | opp[1]);
  const phase = PHASE_OF[nOcc];
  let score = 0;
  patternIndexes(me, opp).forEach((idxs, k) => {
    for (const idx of idxs) score += TABLE[phase * SIZE + OFFSETS[k] + idx];
  });
  return score + LIN[phase * 3] * mobility + (nOcc & 1 ? LIN[phase * 3 + 1] : -LIN[phase * 3 + 1]) + LIN[phase * 3 + 2];
}
