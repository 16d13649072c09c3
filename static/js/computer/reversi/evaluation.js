// The evaluation of Reversi Hard: the features and tuned weights of bench/pybots/reversi_search.py
// (`features`, `WEIGHTS`, `evaluate`), on 32-bit-half bitboards (see bitboard.js). Every score is
// from the side to move's view, in SCALE units per disc of expected final disc difference.

import { pop32 } from "./bitboard.js";

export const SCALE = 100; // evaluation units per disc of final difference
export const WIN = 1_000_000; // added to a finished game's score by the winner (minus by the loser)

export const FEATURES = Object.freeze(["mobility", "potential", "corners", "x_squares", "c_squares", "edges",
  "stable", "discs", "parity"]);

// Phases by discs on the board: 4-24, 25-36, 37-48, 49-64.
export const PHASE_BOUNDS = Object.freeze([24, 36, 48, 64]);
export const PHASE_OF = Int32Array.from({ length: 65 }, (_, n) => PHASE_BOUNDS.findIndex((top) => n <= top));

// Weights per phase, in FEATURES order, in discs of final difference per unit of a feature: those of
// bench/pybots/reversi_search.py, fitted by `python bench/reversi_tune.py --games 500 --depth 3 --seed 2`
// (ridge least squares on 29,704 positions of our own self-play games; R² per phase 0.18, 0.42,
// 0.60, 0.84).
export const WEIGHTS = Object.freeze([
  [0.72, -0.14, 14.90, -25.32, -5.21, 0.43, 3.89, -0.82, 1.68],
  [0.59, 0.43, 13.65, -13.90, -0.01, 0.28, 2.04, -0.45, 2.35],
  [1.30, 0.29, 4.62, -7.74, -1.96, -0.12, 1.50, 0.10, 1.61],
  [3.19, -1.23, -1.46, -3.67, -1.87, -1.07, 1.36, 0.61, 2.35],
].map(Object.freeze));
const NF = FEATURES.length;
/** The weights in SCALE units, rounded as Python's `_W` (round half to even), flat: W[phase * 9 + feature]. */
export const W = Int32Array.from(WEIGHTS.flat(), (w) => roundHalfEven(w * SCALE));

function roundHalfEven(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const NOT_A = 0xfefefefe | 0;
const NOT_H = 0x7f7f7f7f;
// corners a1 h1 (low half) and a8 h8 (high half)
const CORNERS_LO = 0x00000081;
const CORNERS_HI = 0x81000000 | 0;
const EDGES_LO = 0x818181ff | 0; // rows 1-4 of the border
const EDGES_HI = 0xff818181 | 0; // rows 5-8
// plain edge squares: the border without corners and C squares (a2 b1 g1 h2, a7 b8 g8 h7)
const A_EDGES_LO = EDGES_LO & ~CORNERS_LO & ~((1 << 1) | (1 << 6) | (1 << 8) | (1 << 15));
const A_EDGES_HI = EDGES_HI & ~CORNERS_HI & ~((1 << 16) | (1 << 23) | (1 << 25) | (1 << 30));

// Per corner: its square, its X square and its two C squares (bit indexes), as CORNER_NEAR of the Python.
export const CORNER_NEAR = Object.freeze([[0, 9, 1, 8], [7, 14, 6, 15], [56, 49, 48, 57], [63, 54, 55, 62]]);

/** Count of the bits of an 8-bit edge joined to either end by set bits (per byte 0-255). */
const ANCHORED = Int32Array.from({ length: 256 }, (_, byte) => {
  let mask = 0;
  for (let i = 0; i < 8 && (byte >> i) & 1; i++) mask |= 1 << i;
  for (let i = 7; i >= 0 && (byte >> i) & 1; i--) mask |= 1 << i;
  return pop32(mask);
});

function bit(lo, hi, sq) {
  return sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1;
}

/** Column a of a board as one byte (a1 = bit 0, a8 = bit 7). */
function colA(lo, hi) {
  return ((Math.imul(lo & 0x01010101, 0x01020408) >>> 24) & 15) | (((Math.imul(hi & 0x01010101, 0x01020408) >>> 24) & 15) << 4);
}

/**
 * The discs of (lo, hi) and the squares next to them (8 directions, no wrap): a spread along the row,
 * then up and down a row. Returns the low half; the high half is in NB[0]. (Callers mask with the
 * empty squares, which drops the discs themselves.)
 */
const NB = new Int32Array(1);
function neighbours(lo, hi) {
  const rlo = lo | ((lo << 1) & NOT_A) | ((lo >>> 1) & NOT_H);
  const rhi = hi | ((hi << 1) & NOT_A) | ((hi >>> 1) & NOT_H);
  NB[0] = rhi | (rhi << 8) | (rhi >>> 8) | (rlo >>> 24);
  return rlo | (rlo << 8) | (rlo >>> 8) | (rhi << 24);
}

/** Stable edge discs of `me`: on a full edge, or joined to a corner by own discs along the edge. */
function stableEdges(mlo, mhi, olo, ohi) {
  const clo = mlo | olo;
  const chi = mhi | ohi;
  const edgeOwn = [mlo & 0xff, mhi >>> 24, colA(mlo, mhi), colA(mlo >>> 7, mhi >>> 7)];
  const edgeFull = [clo & 0xff, chi >>> 24, colA(clo, chi), colA(clo >>> 7, chi >>> 7)];
  let total = 0;
  for (let e = 0; e < 4; e++) total += edgeFull[e] === 0xff ? pop32(edgeOwn[e]) : ANCHORED[edgeOwn[e]];
  return total;
}

/**
 * The features of the evaluation (side to move's view, in FEATURES order), as features() of
 * bench/pybots/reversi_search.py. `my` / `their` moves are the two sides' legal-move boards.
 * @returns {number[]} nine integers
 */
export function features(mlo, mhi, olo, ohi, mylo, myhi, thlo, thhi) {
  const elo = ~(mlo | olo);
  const ehi = ~(mhi | ohi);
  let xs = 0;
  let cs = 0;
  for (const [corner, x, c1, c2] of CORNER_NEAR) {
    if (bit(elo, ehi, corner)) {
      xs += bit(mlo, mhi, x) - bit(olo, ohi, x);
      cs += bit(mlo, mhi, c1) + bit(mlo, mhi, c2) - bit(olo, ohi, c1) - bit(olo, ohi, c2);
    }
  }
  const nolo = neighbours(olo, ohi);
  const nohi = NB[0];
  const nmlo = neighbours(mlo, mhi);
  const nmhi = NB[0];
  return [
    pop32(mylo) + pop32(myhi) - pop32(thlo) - pop32(thhi),
    pop32(nolo & elo) + pop32(nohi & ehi) - pop32(nmlo & elo) - pop32(nmhi & ehi),
    pop32(mlo & CORNERS_LO) + pop32(mhi & CORNERS_HI) - pop32(olo & CORNERS_LO) - pop32(ohi & CORNERS_HI),
    xs,
    cs,
    pop32(mlo & A_EDGES_LO) + pop32(mhi & A_EDGES_HI) - pop32(olo & A_EDGES_LO) - pop32(ohi & A_EDGES_HI),
    stableEdges(mlo, mhi, olo, ohi) - stableEdges(olo, ohi, mlo, mhi),
    pop32(mlo) + pop32(mhi) - pop32(olo) - pop32(ohi),
    (pop32(elo) + pop32(ehi)) & 1 ? 1 : -1,
  ];
}

/** Set bits of the board (lo, hi): the two halves' counts summed inside one SWAR pipeline. */
export function pop64(lo, hi) {
  lo -= (lo >>> 1) & 0x55555555;
  hi -= (hi >>> 1) & 0x55555555;
  lo = (lo & 0x33333333) + ((lo >>> 2) & 0x33333333) + (hi & 0x33333333) + ((hi >>> 2) & 0x33333333);
  lo = (lo & 0x0f0f0f0f) + ((lo >>> 4) & 0x0f0f0f0f);
  return Math.imul(lo, 0x01010101) >>> 24;
}

/**
 * Set bits of (alo, ahi) minus set bits of (blo, bhi): pop(a) + pop(~b) - 64, the four halves counted
 * in one SWAR pipeline (each byte's sum stays under 256: at most 32 bits a byte over four words).
 */
export function popDiff(alo, ahi, blo, bhi) {
  blo = ~blo;
  bhi = ~bhi;
  alo -= (alo >>> 1) & 0x55555555;
  ahi -= (ahi >>> 1) & 0x55555555;
  blo -= (blo >>> 1) & 0x55555555;
  bhi -= (bhi >>> 1) & 0x55555555;
  let x = (alo & 0x33333333) + ((alo >>> 2) & 0x33333333) + (ahi & 0x33333333) + ((ahi >>> 2) & 0x33333333);
  const y = (blo & 0x33333333) + ((blo >>> 2) & 0x33333333) + (bhi & 0x33333333) + ((bhi >>> 2) & 0x33333333);
  x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f) + (y & 0x0f0f0f0f) + ((y >>> 4) & 0x0f0f0f0f);
  return (Math.imul(x, 0x01010101) >>> 24) - 64;
}

/**
 * Score of the position for the side to move (`m`), in SCALE units: the phase's weights W times
 * features(), unrolled as reversi_nb.evaluate. `my` / `their`: both sides' legal moves.
 */
export function evaluate(mlo, mhi, olo, ohi, mylo, myhi, thlo, thhi) {
  const clo = mlo | olo;
  const chi = mhi | ohi;
  const elo = ~clo;
  const ehi = ~chi;
  const nOcc = pop64(clo, chi);
  const w = PHASE_OF[nOcc] * NF;
  const nolo = neighbours(olo, ohi) & elo;
  const nohi = NB[0] & ehi;
  const nmlo = neighbours(mlo, mhi) & elo;
  const nmhi = NB[0] & ehi;
  let score = W[w] * popDiff(mylo, myhi, thlo, thhi)
    + W[w + 1] * popDiff(nolo, nohi, nmlo, nmhi)
    + W[w + 7] * (2 * pop64(mlo, mhi) - nOcc)
    + W[w + 5] * popDiff(mlo & A_EDGES_LO, mhi & A_EDGES_HI, olo & A_EDGES_LO, ohi & A_EDGES_HI);
  score += nOcc & 1 ? W[w + 8] : -W[w + 8]; // an odd number of empties (64 - nOcc): +parity
  const edgeLo = clo & EDGES_LO;
  const edgeHi = chi & EDGES_HI;
  if (edgeLo | edgeHi) {
    const cornersLo = clo & CORNERS_LO;
    const cornersHi = chi & CORNERS_HI;
    const anyCorner = cornersLo | cornersHi;
    if (anyCorner) {
      score += W[w + 2] * popDiff(mlo & CORNERS_LO, mhi & CORNERS_HI, olo & CORNERS_LO, ohi & CORNERS_HI);
    }
    if (cornersLo !== CORNERS_LO || cornersHi !== CORNERS_HI) {
      const wx = W[w + 3];
      const wc = W[w + 4];
      // a1: X b2 (9), C b1 (1) a2 (8); h1: X g2 (14), C g1 (6) h2 (15)
      if (!(cornersLo & 1)) {
        score += wx * (((mlo >>> 9) & 1) - ((olo >>> 9) & 1))
          + wc * (((mlo >>> 1) & 1) + ((mlo >>> 8) & 1) - ((olo >>> 1) & 1) - ((olo >>> 8) & 1));
      }
      if (!(cornersLo & 0x80)) {
        score += wx * (((mlo >>> 14) & 1) - ((olo >>> 14) & 1))
          + wc * (((mlo >>> 6) & 1) + ((mlo >>> 15) & 1) - ((olo >>> 6) & 1) - ((olo >>> 15) & 1));
      }
      // a8: X b7 (49), C a7 (48) b8 (57); h8: X g7 (54), C h7 (55) g8 (62)
      if (!(cornersHi & 0x01000000)) {
        score += wx * (((mhi >>> 17) & 1) - ((ohi >>> 17) & 1))
          + wc * (((mhi >>> 16) & 1) + ((mhi >>> 25) & 1) - ((ohi >>> 16) & 1) - ((ohi >>> 25) & 1));
      }
      if (!(cornersHi & (0x80000000 | 0))) {
        score += wx * (((mhi >>> 22) & 1) - ((ohi >>> 22) & 1))
          + wc * (((mhi >>> 23) & 1) + ((mhi >>> 30) & 1) - ((ohi >>> 23) & 1) - ((ohi >>> 30) & 1));
      }
    }
    if (anyCorner) {
      let stab = 0;
      let full = clo & 0xff;
      if (full === 0xff) stab += pop32(mlo & 0xff) - pop32(olo & 0xff);
      else if (full & 0x81) stab += ANCHORED[mlo & 0xff] - ANCHORED[olo & 0xff];
      full = chi >>> 24;
      if (full === 0xff) stab += pop32(mhi >>> 24) - pop32(ohi >>> 24);
      else if (full & 0x81) stab += ANCHORED[mhi >>> 24] - ANCHORED[ohi >>> 24];
      full = colA(clo, chi);
      if (full === 0xff) stab += pop32(colA(mlo, mhi)) - pop32(colA(olo, ohi));
      else if (full & 0x81) stab += ANCHORED[colA(mlo, mhi)] - ANCHORED[colA(olo, ohi)];
      full = colA(clo >>> 7, chi >>> 7);
      if (full === 0xff) stab += pop32(colA(mlo >>> 7, mhi >>> 7)) - pop32(colA(olo >>> 7, ohi >>> 7));
      else if (full & 0x81) stab += ANCHORED[colA(mlo >>> 7, mhi >>> 7)] - ANCHORED[colA(olo >>> 7, ohi >>> 7)];
      score += W[w + 6] * stab;
    }
  } else {
    const wx = W[w + 3];
    score += wx * (((mlo >>> 9) & 1) - ((olo >>> 9) & 1) + ((mlo >>> 14) & 1) - ((olo >>> 14) & 1)
      + ((mhi >>> 17) & 1) - ((ohi >>> 17) & 1) + ((mhi >>> 22) & 1) - ((ohi >>> 22) & 1));
  }
  return score;
}

/**
 * A finished game's score: disc difference (empty squares to the winner) in SCALE units, plus or
 * minus WIN; 0 for a draw.
 */
export function finalScore(mlo, mhi, olo, ohi) {
  const a = pop32(mlo) + pop32(mhi);
  const b = pop32(olo) + pop32(ohi);
  const diff = a - b;
  if (diff > 0) return WIN + (diff + 64 - a - b) * SCALE;
  if (diff < 0) return -WIN + (diff - (64 - a - b)) * SCALE;
  return 0;
}
