// Hard's pattern evaluation (patterns.js, tables in weights.js fitted by bench/reversi_pattern_fit.py):
// the fast reading equals the plain one on random positions, the instances of a pattern are images of
// each other under the board's symmetries, the fitted tables say what every Othello player knows, and
// Hard searches with them.

import assert from "node:assert/strict";
import { test } from "node:test";
import { INDEX, moves, out } from "../../../../static/js/computer/reversi/bitboard.js";
import { popDiff } from "../../../../static/js/computer/reversi/evaluation.js";
import { chooseHard } from "../../../../static/js/computer/reversi/hard.js";
import { MidgameSearch } from "../../../../static/js/computer/reversi/midgame.js";
import { Control } from "../../../../static/js/computer/reversi/control.js";
import {
  PATTERN_SQUARES, PHASE_OF, SIZE, TABLE, evaluatePatterns, evaluatePatternsPlain, patternIndexes,
} from "../../../../static/js/computer/reversi/patterns.js";
import { PHASES } from "../../../../static/js/computer/reversi/weights.js";
import { legalList, play, randomPositions } from "./helpers.js";

function legal(me, opp) {
  const mylo = moves(me[0], me[1], opp[0], opp[1]);
  const myhi = out[0];
  const thlo = moves(opp[0], opp[1], me[0], me[1]);
  return [mylo, myhi, thlo, out[0]];
}

function score(me, opp) {
  return evaluatePatterns(me[0], me[1], opp[0], opp[1], ...legal(me, opp));
}

test("the fast pattern reading equals the plain one on random positions of every phase", () => {
  let n = 0;
  for (const [seed, low, high] of [[1, 0, 15], [2, 15, 35], [3, 35, 58]]) {
    for (const { me, opp } of randomPositions(seed, 150, low, high)) {
      const l = legal(me, opp);
      assert.equal(score(me, opp), evaluatePatternsPlain(me, opp, popDiff(...l)));
      n++;
    }
  }
  assert.equal(n, 450);
  // the full and the empty board (every index at its ends)
  assert.equal(score([-1, -1], [0, 0]), evaluatePatternsPlain([-1, -1], [0, 0], 0));
  assert.equal(score([0, 0], [-1, -1]), evaluatePatternsPlain([0, 0], [-1, -1], 0));
  const idx = patternIndexes([-1, -1], [0, 0]);
  idx.forEach((insts, k) => insts.forEach((i) => assert.equal(i, (3 ** PATTERN_SQUARES[k][1][0].length - 1) / 2)));
});

test("a pattern's instances are its images under the board's symmetries, squares in order", () => {
  const sq = (c, r) => c + 8 * r;
  const maps = [
    (s) => s,
    (s) => sq(7 - (s & 7), s >> 3),
    (s) => sq(s & 7, 7 - (s >> 3)),
    (s) => sq(7 - (s & 7), 7 - (s >> 3)),
    (s) => sq(s >> 3, s & 7),
    (s) => sq(7 - (s >> 3), s & 7),
    (s) => sq(s >> 3, 7 - (s & 7)),
    (s) => sq(7 - (s >> 3), 7 - (s & 7)),
  ];
  const names = [];
  for (const [name, insts] of PATTERN_SQUARES) {
    names.push(name);
    const first = insts[0];
    assert.equal(new Set(first).size, first.length, name);
    for (const inst of insts) assert.ok(maps.some((f) => inst.every((s, i) => s === f(first[i]))), `${name} ${inst}`);
  }
  assert.deepEqual(names, ["hv2", "hv3", "hv4", "d8", "d7", "d6", "d5", "d4", "edge2x", "corner3x3"]);
  assert.equal(TABLE.length, PHASES * SIZE);
  assert.deepEqual([PHASE_OF[4], PHASE_OF[64]], [0, PHASES - 1]);
});

/** [me, opp] after the squares `names` from the start (no passes in these lines). */
function afterMoves(names) {
  let me = [1 << 28, 1 << 3]; // Black: e4 d5
  let opp = [1 << 27, 1 << 4]; // White: d4 e5
  for (const name of names.match(/../g) ?? []) [me, opp] = play(me, opp, INDEX[name]);
  return [me, opp];
}

test("the fitted tables value corners and fear X squares next to an empty corner", () => {
  // mean change of the score when a square is the side to move's rather than the other side's, over
  // positions of random games where it is empty (its corner empty too for an X square)
  const mean = (sq, corner) => {
    let sum = 0;
    let n = 0;
    for (const { me, opp } of randomPositions(11, 300, 20, 40)) {
      const free = (s) => !(s < 32 ? ((me[0] | opp[0]) >>> s) & 1 : ((me[1] | opp[1]) >>> (s - 32)) & 1);
      if (!free(sq) || !free(corner)) continue;
      const add = (b) => (sq < 32 ? [b[0] | (1 << sq), b[1]] : [b[0], b[1] | (1 << (sq - 32))]);
      sum += score(add(me), opp) - score(me, add(opp));
      n++;
    }
    assert.ok(n >= 100, `${n} positions`);
    return sum / n;
  };
  for (const corner of [0, 7, 56, 63]) assert.ok(mean(corner, corner) > 300, `corner ${corner}`); // > 3 discs
  for (const [x, corner] of [[9, 0], [14, 7], [49, 56], [54, 63]]) assert.ok(mean(x, corner) < -100, `X square ${x}`);
});

test("Hard searches with the pattern evaluation: depth 1 is the best child's negated pattern score", () => {
  for (const { me, opp } of randomPositions(7, 5, 20, 40)) {
    const info = {};
    chooseHard(me, opp, 1000, { maxNodes: 50000, info, clock: () => 0 }); // stopped by nodes only
    assert.ok(info.depth >= 4, `depth ${info.depth}`);
    const control = new Control();
    const search = new MidgameSearch(control, evaluatePatterns);
    search.clear();
    control.reset(Infinity);
    search.root(...me, ...opp, 1);
    let best = -Infinity;
    for (const sq of legalList(me, opp)) {
      const [cm, co] = play(me, opp, sq);
      if (legalList(cm, co).length === 0) continue; // a pass: searched on, not evaluated here
      best = Math.max(best, -score(cm, co));
    }
    if (best > -Infinity) assert.ok(search.rootValue >= best, `${search.rootValue} ${best}`);
    if (legalList(me, opp).every((sq) => legalList(...play(me, opp, sq)).length > 0)) assert.equal(search.rootValue, best);
  }
});
