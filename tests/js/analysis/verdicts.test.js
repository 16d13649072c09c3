// The verdicts (static/js/analysis/verdicts.js) from hand-made facts: what makes a move "missed",
// "allowed", "decisive"; the Reversi losses; the graph's squash.

import test from "node:test";
import assert from "node:assert/strict";

import { caroVerdicts, hasEndgame, reversiVerdicts, squash, squashDiscs } from "../../../static/js/analysis/verdicts.js";

const WIN = 10_000_000;

/** Plies from a compact list: [turn, win side | null, move side, had, kept] per ply. */
function plies(rows) {
  return rows.map(([turn, win, side, had, kept], ply) => ({
    ply, turn, win: win ? { side: win, kind: "vcf", line: [`L${ply}`] } : null,
    move: ply === 0 ? null : { square: `S${ply}`, side, had, kept, verdict: null, line: kept ? [`S${ply}`] : null,
      lineFrom: kept ? ply - 1 : null },
  }));
}

test("a move after which the opponent has a forced win allowed it, unless the game was lost already", () => {
  const p = plies([
    ["X", null],
    ["O", null, "X", false, null],
    ["X", "X", "O", false, null], // O let X have a win: allowed
    ["O", "O", "X", true, true], // X plays its win... and the search says O wins too? X kept: O was lost
    ["X", "X", "O", false, null], // O's move: X (who kept) wins: not allowed, O was lost already
  ]);
  caroVerdicts(p, "X");
  assert.equal(p[2].move.verdict, "allowed");
  assert.equal(p[2].move.line, p[2].win.line);
  assert.equal(p[2].move.lineFrom, 2);
  assert.equal(p[4].move.verdict, null);
});

test("missed: had a forced win, and the move does not start one; both missed and allowed: allowed", () => {
  const p = plies([
    ["X", "X"],
    ["O", null, "X", true, false], // missed
    ["X", "X", "O", false, null], // allowed
    ["O", "O", "X", true, false], // missed and allowed
  ]);
  caroVerdicts(p, null);
  assert.equal(p[1].move.verdict, "missed");
  assert.equal(p[1].move.line, p[0].win.line);
  assert.equal(p[1].move.lineFrom, 0);
  assert.equal(p[3].move.verdict, "allowed");
  assert.equal(p[3].move.missed, true);
});

test("a win only likely kept (a quiet move) is no missed win, and does not make the next move's forced loss its own", () => {
  const p = plies([
    ["X", "X"],
    ["O", "X", "X", true, "likely"],
    ["X", "X", "O", false, null], // X still wins after O's reply: O is marked, X was not proven to win
  ]);
  caroVerdicts(p, null);
  assert.equal(p[1].move.verdict, null);
  assert.equal(p[1].move.missed, false);
  assert.equal(p[2].move.verdict, "allowed");
});

test("decisive: the winner's first move of the forced win it kept to the end", () => {
  const p = plies([
    ["X", "X"],
    ["O", null, "X", true, false], // missed
    ["X", "X", "O", false, null], // allowed
    ["O", null, "X", true, true], // kept: the start of the final streak
    ["X", null, "O", false, null],
    ["O", null, "X", true, true], // kept (the five)
  ]);
  assert.equal(caroVerdicts(p, "X"), 3);
  assert.equal(p[3].move.verdict, "decisive");
  assert.equal(p[5].move.verdict, "kept");
  assert.equal(caroVerdicts(plies([["X", null], ["O", null, "X", false, null]]), "X"), null);
});

test("Reversi: lost discs against the best move, blunders change the result's sign", () => {
  const p = [
    { ply: 0, exact: { a1: 4, b1: 2, c1: -2 }, move: null },
    { ply: 1, exact: { d1: 0, e1: 0 }, move: { square: "c1", side: "X" } },
    { ply: 2, exact: null, move: { square: "e1", side: "O" } },
    { ply: 3, exact: null, move: { square: "h8", side: "X" } },
  ];
  reversiVerdicts(p);
  assert.equal(p[1].move.lost, 6);
  assert.deepEqual(p[1].move.best, ["a1"]);
  assert.equal(p[1].move.verdict, "blunder");
  assert.equal(p[2].move.verdict, "best");
  assert.deepEqual(p[2].move.best, ["d1", "e1"]);
  assert.equal(p[3].move.verdict, undefined, "no exact values before it: no verdict");
  const q = [{ ply: 0, exact: { a1: 10, b1: 2 }, move: null }, { ply: 1, exact: null, move: { square: "b1", side: "X" } }];
  reversiVerdicts(q);
  assert.equal(q[1].move.verdict, "mistake");
  assert.equal(q[1].move.lost, 8);
});

test("the graph's values stay inside [-1, 1]; only a forced win reaches the edge", () => {
  assert.equal(squash(WIN, WIN), 1);
  assert.equal(squash(-WIN + 5, WIN), -1);
  assert.equal(squash(0, WIN), 0);
  assert.ok(squash(50_000, WIN) < 0.9 && squash(50_000, WIN) > 0.8);
  assert.ok(squash(-1000, WIN) < 0);
  assert.equal(squashDiscs(0), 0);
  assert.ok(squashDiscs(64) < 1 && squashDiscs(-64) > -1 && squashDiscs(8) > 0.3);
});

test("a Reversi game over before its endgame has no endgame move to judge", () => {
  assert.equal(hasEndgame([{ ply: 0, exact: null }, { ply: 1, exact: null }]), false);
  assert.equal(hasEndgame([{ ply: 0, exact: null }, { ply: 1, exact: { a1: 4 } }]), true);
});
