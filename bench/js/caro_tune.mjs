// Fit of Hard's caro evaluation (static/js/computer/caro/evaluation.js) on labelled positions
// (bench/caro_tune_js.py label: ~/caro-gate/tune/positions-<preset>.jsonl, one position a line:
// {preset, moves, eval (Rapfi's, side to move), result (1 / 0.5 / 0 for the side to move)}).
//
//   node bench/js/caro_tune.mjs --dir ~/caro-gate/tune [--k 300] [--result-weight 0.25] [--l2 1e-4] [--opening-weight 1]
//                               [--iters 3000] [--holdout 5] [--model pairs|table]
//
// Features per position (the side to move "me", the other "opp"): for each side, over its empty
// cells, how many lines carry each class ONE .. OPEN4 and how many cells have each pair of
// strongest classes (evaluation.js pairIndex); the GLOBAL indicators; a tempo constant. The model
// is logistic: P(me wins) = sigmoid(w . f); the target mixes Rapfi's sigmoid(eval / k) and the
// game's result. Positions where a side has a five to make are left out (the search never
// evaluates them). `--model table`: instead of the line and pair counts, for each side how many
// cells have each combination rank (COMBO_RANK: the 330 multisets of four line classes),
// so every combination gets its own value (printed as RANK_ATTACK / RANK_DEFENCE; evaluation.js
// has no such table: this fit was no better than the pairs' on held-out positions); the GLOBAL
// indicators and the tempo as before. Starts from the evaluation in the code, scaled to logit units by the one factor
// that fits it best; the L2 term pulls towards that start. Prints the held-out loss of the
// current evaluation (best scale) and of the fit, then the fitted tables in pattern units.

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SearchBoard } from "../../static/js/computer/caro/board.js";
import { PRESETS } from "../../static/js/computer/caro/rules.js";
import { FIVE } from "../../static/js/computer/caro/patterns.js";
import {
  LINE_ATTACK, PAIR_ATTACK, LINE_DEFENCE, PAIR_DEFENCE, GLOBAL, GLOBAL_NAMES, TEMPO, PAIRS,
  COMBOS, topTwo, pairIndex, globalFeatures, evaluate, cellTables,
} from "../../static/js/computer/caro/evaluation.js";

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const DIR = args.dir;
const K = Number(args.k ?? 300);
const RW = Number(args["result-weight"] ?? 0.25);
const L2 = Number(args.l2 ?? 1e-4);
const ITERS = Number(args.iters ?? 3000);
const HOLDOUT = Number(args.holdout ?? 5);
const OPENING_PLIES = 14; // positions with at most this many stones ...
const OPENING_WEIGHT = Number(args["opening-weight"] ?? 1); // ... count this many times in the fit // one game in HOLDOUT held out (by its first 8 moves)

/**
 * (--model table) A combination's rank among the 330 multisets of four classes (the order of the lines does
 * not matter to a cell's value): COMBO_RANK[idx], 0 for a cell with no class on any line. Ranks
 * follow the sorted classes (a >= b >= c >= d) in lexicographic order.
 */
const RANKS = 330;
const COMBO_RANK = (() => {
  const rankOf = new Map();
  for (let a = 0; a < 8; a++) for (let b = 0; b <= a; b++) for (let c = 0; c <= b; c++) for (let d = 0; d <= c; d++) {
    rankOf.set(((a * 8 + b) * 8 + c) * 8 + d, rankOf.size);
  }
  const out = new Int16Array(COMBOS);
  for (let idx = 0; idx < COMBOS; idx++) {
    const k = [0, 1, 2, 3].map((d) => (idx >> (3 * d)) & 7).sort((x, y) => y - x);
    out[idx] = rankOf.get(((k[0] * 8 + k[1]) * 8 + k[2]) * 8 + k[3]);
  }
  return out;
})();

const MODEL = args.model ?? "pairs";
const TABLE = MODEL === "table";
const NL = 6; // line classes ONE .. OPEN4
const NG = GLOBAL_NAMES.length;
const SIDE = TABLE ? RANKS : NL + PAIRS; // features of one side's cells
const NF = 2 * SIDE + NG + 1;

/** The position's features, sparse: {idx: Int32Array, val: Float64Array}. */
function features(fb) {
  const f = new Float64Array(NF);
  const me = fb.turn;
  const NC = fb.NC;
  for (const q of fb.geo.reals) {
    if (fb.cells[q] !== 0) continue;
    for (const s of [me, 3 - me]) {
      const shift = s === 1 ? 0 : 3;
      const base = s === me ? 0 : SIDE;
      let idx = 0;
      for (let d = 0; d < 4; d++) {
        const c = (fb.codes[d * NC + q] >> shift) & 7;
        idx |= c << (3 * d);
        if (!TABLE && c >= 1 && c <= NL) f[base + c - 1]++;
      }
      if (TABLE) {
        if (idx !== 0) f[base + COMBO_RANK[idx]]++;
      } else {
        const [a, b] = topTwo(idx);
        const p = pairIndex(a, b);
        if (p >= 0) f[base + NL + p]++;
      }
    }
  }
  const g = globalFeatures(fb);
  for (let i = 0; i < NG; i++) f[2 * SIDE + i] = g[i];
  f[NF - 1] = 1;
  const nz = [];
  for (let j = 0; j < NF; j++) if (f[j] !== 0) nz.push(j);
  return { idx: Int32Array.from(nz), val: Float64Array.from(nz, (j) => f[j]) };
}

function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const sigmoid = (x) => 1 / (1 + Math.exp(-x));

// -- data -----------------------------------------------------------------------------------------
const train = [];
const test = [];
let skipped = 0;
for (const name of readdirSync(DIR).filter((n) => /^positions-.*\.jsonl$/.test(n)).sort()) {
  for (const line of readFileSync(join(DIR, name), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    const rules = PRESETS[r.preset].rules;
    const x = r.moves.filter((_, i) => i % 2 === 0);
    const o = r.moves.filter((_, i) => i % 2 === 1);
    const fb = SearchBoard.fromNames(rules, { x, o, toMove: r.moves.length % 2 === 0 ? "X" : "O" });
    const me = fb.turn;
    if (fb.count(me, FIVE) > 0 || fb.count(3 - me, FIVE) > 0) {
      skipped++;
      continue;
    }
    const ev = Math.max(-3000, Math.min(3000, r.eval));
    const rw = name.includes("-openings") ? 0 : RW; // (caro_tune_js.py opening-positions: no game played out)
    const target = (1 - rw) * sigmoid(ev / K) + rw * r.result;
    const wt = r.moves.length <= OPENING_PLIES ? OPENING_WEIGHT : 1;
    const item = { f: features(fb), old: evaluate(fb), target, wt, opening: r.moves.length <= OPENING_PLIES };
    (hash(r.moves.slice(0, 8).join(" ")) % HOLDOUT === 0 ? test : train).push(item);
  }
}
console.log(`positions: ${train.length} train, ${test.length} held out, ${skipped} skipped (a five to make)`);

function loss(set, predict) {
  let l = 0;
  for (const it of set) {
    const p = Math.min(1 - 1e-9, Math.max(1e-9, sigmoid(predict(it))));
    l -= it.target * Math.log(p) + (1 - it.target) * Math.log(1 - p);
  }
  return l / set.length;
}
const bestLoss = (set) => {
  let l = 0;
  for (const it of set) {
    const t = Math.min(1 - 1e-9, Math.max(1e-9, it.target));
    l -= t * Math.log(t) + (1 - t) * Math.log(1 - t);
  }
  return l / set.length;
};

// -- the current evaluation's scale ---------------------------------------------------------------
let scale = 1e-3;
{
  let best = Infinity;
  for (let a = 1e-5; a < 1e-1; a *= 1.05) {
    const l = loss(train, (it) => a * it.old);
    if (l < best) {
      best = l;
      scale = a;
    }
  }
}
console.log(`current evaluation: scale ${scale.toExponential(3)} logit / unit; loss train ${loss(train, (it) => scale * it.old).toFixed(4)}, held out ${loss(test, (it) => scale * it.old).toFixed(4)} (floor ${bestLoss(test).toFixed(4)})`);

// -- the start: the code's weights in logit units --------------------------------------------------
const w0 = new Float64Array(NF);
if (TABLE) {
  // the code's cell values (O's tables: no Renju foul) per rank
  const t = cellTables(PRESETS.freestyle.rules);
  for (let idx = 0; idx < COMBO_RANK.length; idx++) {
    w0[COMBO_RANK[idx]] = t.attack[2][idx] * scale;
    w0[SIDE + COMBO_RANK[idx]] = t.defence[2][idx] * scale;
  }
} else {
  for (let c = 1; c <= NL; c++) {
    w0[c - 1] = LINE_ATTACK[c] * scale;
    w0[NL + PAIRS + c - 1] = LINE_DEFENCE[c] * scale;
  }
  for (let p = 0; p < PAIRS; p++) {
    w0[NL + p] = PAIR_ATTACK[p] * scale;
    w0[2 * NL + PAIRS + p] = PAIR_DEFENCE[p] * scale;
  }
}
for (let i = 0; i < NG; i++) w0[2 * SIDE + i] = GLOBAL[i] * scale;
w0[NF - 1] = TEMPO * scale;

// feature scales (Adam on standardised steps: the counts of ONE lines run to hundreds, a pair to 0-3);
// a feature no training position has keeps its start (scale 1, zero gradient but the L2 pull)
const fs = new Float64Array(NF);
for (const it of train) for (let k = 0; k < it.f.idx.length; k++) fs[it.f.idx[k]] += it.f.val[k] * it.f.val[k];
for (let j = 0; j < NF; j++) fs[j] = Math.sqrt(fs[j] / train.length) || 1;

const w = Float64Array.from(w0);
const m = new Float64Array(NF);
const v = new Float64Array(NF);
const lr = 0.01;
const dot = (f) => {
  let s = 0;
  for (let k = 0; k < f.idx.length; k++) s += w[f.idx[k]] * f.val[k];
  return s;
};
for (let t = 1; t <= ITERS; t++) {
  const g = new Float64Array(NF);
  for (const it of train) {
    const e = (sigmoid(dot(it.f)) - it.target) * it.wt;
    for (let k = 0; k < it.f.idx.length; k++) g[it.f.idx[k]] += e * it.f.val[k];
  }
  for (let j = 0; j < NF; j++) {
    // gradient in the standardised coordinates u_j = w_j * fs_j
    const gj = g[j] / train.length / fs[j] + 2 * L2 * (w[j] - w0[j]) * fs[j];
    m[j] = 0.9 * m[j] + 0.1 * gj;
    v[j] = 0.999 * v[j] + 0.001 * gj * gj;
    const mh = m[j] / (1 - 0.9 ** t);
    const vh = v[j] / (1 - 0.999 ** t);
    w[j] -= (lr * mh / (Math.sqrt(vh) + 1e-8)) / fs[j];
  }
  if (t % 500 === 0 || t === ITERS) {
    console.log(`  iter ${t}: loss train ${loss(train, (it) => dot(it.f)).toFixed(4)}, held out ${loss(test, (it) => dot(it.f)).toFixed(4)}`);
  }
}
{
  const open = test.filter((it) => it.opening);
  console.log(`held-out opening positions (<= ${OPENING_PLIES} stones): ${open.length}; loss of the code's evaluation ${loss(open, (it) => scale * it.old).toFixed(4)}, of the fit ${loss(open, (it) => dot(it.f)).toFixed(4)} (floor ${bestLoss(open).toFixed(4)})`);
}

// -- the tables in pattern units ------------------------------------------------------------------
const units = (x) => Math.round(x / scale);
const lineA = [0];
const lineD = [0];
for (let c = 1; c <= NL; c++) {
  lineA.push(units(w[c - 1]));
  lineD.push(units(w[NL + PAIRS + c - 1]));
}
lineA.push(LINE_ATTACK[7]);
lineD.push(LINE_DEFENCE[7]);
const pairA = [];
const pairD = [];
for (let p = 0; p < PAIRS; p++) {
  pairA.push(units(w[NL + p]));
  pairD.push(units(w[2 * NL + PAIRS + p]));
}
const glob = [];
for (let i = 0; i < NG; i++) glob.push(units(w[2 * SIDE + i]));
if (TABLE) {
  const ra = [];
  const rd = [];
  for (let r = 0; r < RANKS; r++) {
    ra.push(r === 0 ? 0 : units(w[r]));
    rd.push(r === 0 ? 0 : units(w[SIDE + r]));
  }
  console.log(`export const RANK_ATTACK = Object.freeze([${ra.join(", ")}]);`);
  console.log(`export const RANK_DEFENCE = Object.freeze([${rd.join(", ")}]);`);
  console.log(`export const GLOBAL = Object.freeze([${glob.join(", ")}]);`);
  console.log(`export const TEMPO = ${units(w[NF - 1])};`);
  process.exit(0);
}
console.log(`export const LINE_ATTACK = Object.freeze([${lineA.join(", ")}]);`);
console.log(`export const PAIR_ATTACK = Object.freeze([${pairA.join(", ")}]);`);
console.log(`export const LINE_DEFENCE = Object.freeze([${lineD.join(", ")}]);`);
console.log(`export const PAIR_DEFENCE = Object.freeze([${pairD.join(", ")}]);`);
console.log(`export const GLOBAL = Object.freeze([${glob.join(", ")}]);`);
console.log(`export const TEMPO = ${units(w[NF - 1])};`);
