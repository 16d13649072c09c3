// Hard's static evaluation of a caro position: the four line patterns through each empty cell read
// together (the shape of a classical gomoku evaluation: a value per cell from the combination of
// its four line classes, summed over the board), tuned by regression.
//
// For each side s and empty cell q the search board (board.js) keeps the class s would make on
// each of the four lines through q (patterns.js: NONE .. FIVE). The cell's combination is the four
// classes; its value is
//     sum over the lines of LINE[class] + PAIR[the two strongest classes]
// (PAIR only when the second strongest is at least a ONE: a four-three, a three-three, a cell
// making two twos ...). There are two tables, one for the side to move's cells (ATTACK:
// what it can make next) and one for the other side's (DEFENCE: what it threatens; negative).
// The board keeps both sums per side incrementally (cellTotals in board.js); evaluate() adds
// terms for the whole position that a per-cell sum cannot see (GLOBAL: an open four to make while
// the other side has a four to answer with, a four-three or three-three cell, the other side's
// open three to answer) and a tempo bonus for the side to move.
//
// Renju: Black's (X's) double-three and double-four cells are fouls, not threats: their pair term
// is left out and the cell counts only its lines' value less PAIR, i.e. a foul combination is
// worth no more than its single lines.
//
// The weights come from bench/caro_tune_js.py (a logistic regression of the side to move's winning
// chance on positions scored by Rapfi's search and by the game's result). The tables below: the
// second fit, `fit --l2 1e-3 --k 250`, started from the first fit's tables, on 24,025 positions
// (16,445 fitted, 3,860 held out, 3,720 with a five to make left out): the first fit's 4,010 (our
// games against Rapfi and the Python Hard, Rapfi at 50,000 nodes; random openings) and 20,015 of
// Rapfi-against-Rapfi games with random moves (`rapfi-games`, Rapfi at 20,000 nodes);
// docs/strength.md has the numbers. Units: the pattern units of the
// per-line weights (patterns.js WEIGHT), so the other levels' numbers and Hard's margins keep
// their meaning.

import { XS } from "./rules.js";
import { ONE, THREE, FOUR, OPEN4, FIVE } from "./patterns.js";

/** Line classes 0..7 (NONE..FIVE); a cell's combination index: class on line d in bits 3d. */
export const COMBOS = 4096;

/** The strongest two classes of combination `idx`: [a, b], a >= b. */
export function topTwo(idx) {
  let a = 0;
  let b = 0;
  for (let d = 0; d < 4; d++) {
    const c = (idx >> (3 * d)) & 7;
    if (c > a) {
      b = a;
      a = c;
    } else if (c > b) {
      b = c;
    }
  }
  return [a, b];
}

/** Index of the pair (a, b), ONE <= b <= a <= OPEN4, in PAIR tables (21 pairs); -1 otherwise. */
export function pairIndex(a, b) {
  if (b < ONE || a > OPEN4) return -1;
  const i = a - ONE;
  const j = b - ONE;
  return (i * (i + 1)) / 2 + j;
}
export const PAIRS = 21;

/** Whether combination `idx` is a Renju foul shape for X (two threes without a four, or two fours). */
export function foulShape(idx) {
  let threes = 0;
  let fours = 0;
  for (let d = 0; d < 4; d++) {
    const c = (idx >> (3 * d)) & 7;
    if (c === THREE) threes++;
    else if (c === FOUR || c === OPEN4) fours++;
  }
  return fours >= 2 || (threes >= 2 && fours === 0);
}

// -- the fitted weights (bench/caro_tune_js.py fit; pattern units) --------------------------------
// LINE_*: classes NONE, ONE, TWO, CTHREE, THREE, FOUR, OPEN4, FIVE on one line.
// PAIR_*: pairs (b <= a) in the order (ONE,ONE), (TWO,ONE), (TWO,TWO), (CTHREE,ONE), ...,
// (OPEN4,OPEN4) (pairIndex).
// GLOBAL: see GLOBAL_NAMES; TEMPO: the side to move's bonus.

export const LINE_ATTACK = Object.freeze([0, 18, 530, 220, 559, 1085, 2412, 6000]);
export const PAIR_ATTACK = Object.freeze([64, -734, 0, 6, -801, -289, 323, -1440, 329, 91, 396, -1886, 1261, 4827, 13790, 823, 5705, 11120, 4946, 11556, 42]);
export const LINE_DEFENCE = Object.freeze([0, 4, -289, -197, -381, -943, -2186, -9000]);
export const PAIR_DEFENCE = Object.freeze([-76, 219, 5189, -26, 280, 321, -312, -75, -419, 430, -641, 2017, -1222, -2601, -1902, -944, 150, -1639, 1761, 4360, 9233]);
export const GLOBAL_NAMES = Object.freeze([
  "my open four, other side has a four", // the side to move has an OPEN4 cell (the other side can counter)
  "my four-three, no four against", "my four-three, a four against",
  "my three-three, no four against",
  "their open three, I have no four", "their open three, I have a four",
  "their four-three or three-three, I have no four",
]);
export const GLOBAL = Object.freeze([11126, 3340, 5824, 11181, -977, -509, -1788]);
export const TEMPO = 991;

const TABLES = new Map();

/** A cell-value table over the 4096 combinations from LINE / PAIR weights (foul: Renju X). */
export function cellTable(line, pair, foul = false) {
  const t = new Int32Array(COMBOS);
  for (let idx = 0; idx < COMBOS; idx++) {
    let v = 0;
    for (let d = 0; d < 4; d++) v += line[(idx >> (3 * d)) & 7];
    const [a, b] = topTwo(idx);
    const p = pairIndex(a, b);
    if (p >= 0 && !(foul && foulShape(idx))) v += pair[p];
    t[idx] = v;
  }
  return t;
}

/**
 * The cell tables of `rules` (cached): {attack: [null, X's, O's], defence: [null, X's, O's]},
 * each an Int32Array over the 4096 combinations.
 */
export function cellTables(rules, weights = null) {
  const key = rules.renju ? "renju" : "plain";
  if (!weights && TABLES.has(key)) return TABLES.get(key);
  const w = weights || { lineAttack: LINE_ATTACK, pairAttack: PAIR_ATTACK, lineDefence: LINE_DEFENCE,
    pairDefence: PAIR_DEFENCE };
  const renju = !!rules.renju;
  const t = {
    attack: [null, cellTable(w.lineAttack, w.pairAttack, renju), cellTable(w.lineAttack, w.pairAttack)],
    defence: [null, cellTable(w.lineDefence, w.pairDefence, renju), cellTable(w.lineDefence, w.pairDefence)],
  };
  if (!weights) TABLES.set(key, t);
  return t;
}

/** Whether side `s` has a legal cell making a four and an open three on two lines (four-three),
 * and whether it has one making open threes on two lines (three-three): [ft, tt]. */
export function doubleThreats(fb, s) {
  const bits = doubleThreatBits(fb, s);
  return [(bits & 1) !== 0, (bits & 2) !== 0];
}

/** doubleThreats(fb, s) as bits (1: four-three, 2: three-three), no array. */
export function doubleThreatBits(fb, s) {
  const n3 = fb.count(s, THREE);
  if (n3 === 0) return 0;
  const NC = fb.NC;
  const cnt = fb.cnt;
  const o3 = (s * 8 + THREE) * NC;
  const o4 = (s * 8 + FOUR) * NC;
  const o5 = (s * 8 + OPEN4) * NC;
  const renjuX = s === XS && fb.renju;
  const cells = fb.setCells;
  let ft = false;
  let tt = false;
  for (let i = (s * 8 + THREE) * NC, end = i + n3; i < end; i++) {
    const q = cells[i];
    const fours = cnt[o4 + q] > 0 || cnt[o5 + q] > 0;
    if (!fours && cnt[o3 + q] < 2) continue;
    if (renjuX && fb.isFoul(q)) continue;
    if (fours) ft = true;
    else tt = true;
    if (ft && tt) break;
  }
  return (ft ? 1 : 0) | (tt ? 2 : 0);
}

/** The position's GLOBAL indicators (0/1 each, GLOBAL_NAMES' order) for the side to move. */
export function globalFeatures(fb, out = new Int8Array(GLOBAL_NAMES.length)) {
  const me = fb.turn;
  const opp = 3 - me;
  const oppFours = fb.count(opp, FOUR) > 0 || fb.count(opp, OPEN4) > 0 || fb.count(opp, FIVE) > 0;
  const myFours = fb.count(me, FOUR) > 0 || fb.count(me, OPEN4) > 0;
  out.fill(0);
  if (fb.count(me, OPEN4) > 0) {
    out[0] = 1;
  } else {
    const mine = doubleThreatBits(fb, me);
    if (mine & 1) out[oppFours ? 2 : 1] = 1;
    else if ((mine & 2) && !oppFours) out[3] = 1;
  }
  if (fb.count(opp, OPEN4) > 0) out[myFours ? 5 : 4] = 1;
  if (!myFours && doubleThreatBits(fb, opp) !== 0) out[6] = 1;
  return out;
}

const SCRATCH = new Int8Array(GLOBAL_NAMES.length);

/** Hard's static value of `fb` for the side to move (pattern units, positive: good for it). */
export function evaluate(fb) {
  const me = fb.turn;
  let v = fb.cellAttack[me] + fb.cellDefence[3 - me] + TEMPO;
  const g = globalFeatures(fb, SCRATCH);
  for (let i = 0; i < g.length; i++) if (g[i]) v += GLOBAL[i];
  return v;
}
