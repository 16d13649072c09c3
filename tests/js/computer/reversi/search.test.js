// Hard's evaluation, midgame search and endgame solver against the Python reference values
// (python_cases.json, made by bench/reversi_js_cases.py) and a plain minimax. Every search here is
// limited by nodes or by the size of the position, never by time.

import assert from "node:assert/strict";
import { test } from "node:test";
import { NAMES } from "../../../../static/js/computer/reversi/bitboard.js";
import { Control } from "../../../../static/js/computer/reversi/control.js";
import { Endgame } from "../../../../static/js/computer/reversi/endgame.js";
import { W, evaluate, features } from "../../../../static/js/computer/reversi/evaluation.js";
import { exactMoveValues } from "../../../../static/js/computer/reversi/hard.js";
import { MidgameSearch, INF } from "../../../../static/js/computer/reversi/midgame.js";
import { moves, out } from "../../../../static/js/computer/reversi/bitboard.js";
import { CASES, halves, minimax, randomPositions } from "./helpers.js";

function both(c) {
  return [halves(c.me), halves(c.opp)];
}

function legalBoards(me, opp) {
  const mylo = moves(me[0], me[1], opp[0], opp[1]);
  const myhi = out[0];
  const thlo = moves(opp[0], opp[1], me[0], me[1]);
  return [mylo, myhi, thlo, out[0]];
}

test("the weights are Python's, in evaluation units", () => {
  assert.deepEqual(Array.from(W.slice(0, 9)), [72, -14, 1490, -2532, -521, 43, 389, -82, 168]);
});

test("features and evaluation equal the Python's", () => {
  assert.ok(CASES.evaluation.length >= 50);
  for (const c of CASES.evaluation) {
    const [me, opp] = both(c);
    const legal = legalBoards(me, opp);
    assert.deepEqual(features(...me, ...opp, ...legal), c.features, c.me + " " + c.opp);
    assert.equal(evaluate(...me, ...opp, ...legal), c.value, c.me + " " + c.opp);
  }
});

test("midgame search values equal the Python's (iterative deepening, fresh tables)", () => {
  const control = new Control();
  const search = new MidgameSearch(control);
  for (const c of CASES.midgame) {
    const [me, opp] = both(c);
    search.clear();
    control.reset(Infinity);
    let first = -1;
    for (let d = 1; d <= c.depth; d++) first = search.root(...me, ...opp, d, first);
    assert.equal(search.rootValue, c.value, c.me + " " + c.opp);
    assert.ok(first >= 0 && search.rootValue > -INF);
  }
});

test("exact endgame values equal the Python solver's (8-16 empties, every legal move)", () => {
  const control = new Control();
  const endgame = new Endgame(control);
  const seen = new Set();
  for (const c of CASES.solves) {
    const [me, opp] = both(c);
    endgame.clear();
    control.reset(Infinity);
    const [value, sq] = endgame.root(...me, ...opp);
    assert.equal(value, c.value, `${c.empties} empties: ${c.me} ${c.opp}`);
    assert.equal(c.moves[NAMES[sq]], value, "the best move achieves the value");
    const values = exactMoveValues(me, opp);
    assert.deepEqual(Object.fromEntries([...values].map(([s, v]) => [NAMES[s], v])), c.moves);
    seen.add(c.empties);
  }
  assert.deepEqual([...seen].sort((a, b) => a - b), [8, 10, 12, 14, 16]);
  assert.ok(CASES.solves.filter((c) => c.pass_in_tree).length >= 4, "positions with passes are covered");
});

test("the solver equals a plain minimax on small positions, passes included", () => {
  const control = new Control();
  const endgame = new Endgame(control);
  for (const { me, opp } of randomPositions(3, 40, 53, 57)) {
    endgame.clear();
    control.reset(Infinity);
    assert.equal(endgame.root(...me, ...opp)[0], minimax(me, opp));
  }
});

test("a win/draw/loss window gives the sign of the exact value", () => {
  const control = new Control();
  const endgame = new Endgame(control);
  for (const c of CASES.solves.filter((s) => s.empties <= 12)) {
    const [me, opp] = both(c);
    endgame.clear();
    control.reset(Infinity);
    const [value] = endgame.root(...me, ...opp, -1, -1, 1);
    assert.equal(Math.sign(value), Math.sign(c.value));
  }
});

test("the node limit stops a solve and a search", () => {
  const control = new Control();
  const endgame = new Endgame(control);
  const c = CASES.solves.find((s) => s.empties === 16);
  const [me, opp] = both(c);
  endgame.clear();
  control.reset(Infinity, 5000);
  assert.deepEqual(endgame.root(...me, ...opp), [0, -1]);
  assert.ok(control.stop && control.nodes <= 5000 + 64); // the last squares count their nodes without a look
  assert.equal(exactMoveValues(me, opp, { maxNodes: 5000 }), null);
  const search = new MidgameSearch(control);
  search.clear();
  control.reset(Infinity, 3000);
  search.root(...me, ...opp, 30);
  assert.ok(control.stop && control.nodes <= 3000 + 64);
});
