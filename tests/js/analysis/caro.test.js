// The caro analysis (static/js/analysis/caro.js, caro-search.js) on small games whose answers
// are known by hand: the forced wins found at each ply, whether the move played kept them, the
// verdicts, and lines that the rules engine replays to the attacker's five under each rule set.
// The shared puzzles (../shared/cases/gomoku-puzzles.json) are run from pytest
// (tests/unit/analysis/test_analysis_puzzles.py), which also replays the lines in the Python engine.

import test from "node:test";
import assert from "node:assert/strict";

import { analyseCaro, confirmLine } from "../../../static/js/analysis/caro.js";
import { BUDGET, FirstMoveSearch, SearchBoard, forcedWin } from "../../../static/js/analysis/caro-search.js";
import { deepWin, plausible } from "../../../static/js/analysis/caro-deep.js";
import { Board, PRESETS, Rules } from "../../../static/js/engine/caro.js";

const FREESTYLE = PRESETS.freestyle.rules.toDict();
const CARO_VN = PRESETS["caro-vn"].rules.toDict();
const RENJU = PRESETS.renju.rules.toDict();

// X builds an open three H8 I8 J8 while O plays in the corners (not blocking it: "allowed" at
// ply 6); X then plays B2 (missing the win K8 / G8), O again does not block (O15), X makes the
// open four K8 (the deciding move) and the five L8. Those are the verdicts of the threat searches
// alone (the second look off: NO_DEEP); with it, the analysis sees X's win one move earlier (two
// X stones in a row and O's two in the corners: a quiet win for X, so A15 already "allowed" it
// and J8 kept it).
const GAME_A = ["H8", "A1", "I8", "A15", "J8", "O1", "B2", "O15", "K8", "G8", "L8"];
const GAME_A_VERDICTS = { 6: "allowed", 7: "missed", 8: "allowed", 9: "decisive", 11: "kept" };
const GAME_A_DEEP_VERDICTS = { 4: "allowed", 5: "kept", 7: "missed", 8: "allowed", 9: "decisive", 11: "kept" };
const NO_DEEP = { deep: null };

/** Replays `line` from ply `from` of `moves` on the engine; returns the outcome. */
function replay(rules, moves, from, line) {
  const board = new Board(Rules.fromDict(rules));
  for (const sq of moves.slice(0, from)) board.play(sq);
  let outcome = null;
  for (const sq of line) {
    assert.equal(outcome, null, `the line goes on after the game ended: ${line}`);
    outcome = board.play(sq);
  }
  return outcome;
}

function verdicts(result) {
  return Object.fromEntries(result.plies.filter((p) => p.move && p.move.verdict).map((p) => [p.ply, p.move.verdict]));
}

for (const [name, rules] of [["freestyle", FREESTYLE], ["caro with blocked ends", CARO_VN]]) {
  test(`a missed win, a forced loss allowed and the deciding move (${name})`, () => {
    const result = analyseCaro({ rules, moves: GAME_A }, NO_DEEP);
    assert.deepEqual(verdicts(result), GAME_A_VERDICTS);
    assert.equal(result.decisive, 9);
    assert.equal(result.winner, "X");
    assert.equal(result.stats.invalidLines, 0);
    // ply 6: X to move has a forced win starting with an open four
    const six = result.plies[6];
    assert.equal(six.win.side, "X");
    assert.ok(["G8", "K8"].includes(six.win.line[0]), six.win.line.join(" "));
    assert.equal(result.plies[7].move.line, six.win.line);
    assert.equal(result.plies[7].move.lineFrom, 6);
    // the line shown for each verdict ends in the attacker's five on the engine
    for (const p of result.plies) {
      if (p.win) {
        const end = replay(rules, GAME_A, p.ply, p.win.line);
        assert.equal(end.winner, p.win.side);
        assert.equal(end.termination, "five");
      }
      if (p.move && p.move.line) assert.equal(replay(rules, GAME_A, p.move.lineFrom, p.move.line).termination, "five");
    }
    // scores: X's forced wins are +1 on the graph, and the finished game too
    assert.equal(result.plies[6].graph, 1);
    assert.equal(result.plies[11].graph, 1);
    assert.ok(result.plies.every((p) => p.graph >= -1 && p.graph <= 1));
  });
}

test("positions before `from` are not analysed; the verdicts start after it", () => {
  const result = analyseCaro({ rules: FREESTYLE, moves: GAME_A }, { from: 6, ...NO_DEEP });
  assert.equal(result.plies[3].score, null);
  assert.equal(result.plies[3].win, null);
  const { 6: _six, ...after } = GAME_A_VERDICTS; // move 6 comes from ply 5, before `from`
  assert.deepEqual(verdicts(result), after);
});

test("a game won without a five (resignation): the record's winner decides the deciding move", () => {
  const moves = GAME_A.slice(0, 9); // X has just made the open four; O resigns
  const result = analyseCaro({ rules: FREESTYLE, moves, winner: "X" }, NO_DEEP);
  assert.equal(result.decisive, 9);
  assert.equal(result.plies[9].turn, "O");
  assert.equal(analyseCaro({ rules: FREESTYLE, moves }, NO_DEEP).decisive, null);
});

test("FirstMoveSearch proves a win only for the first move it is given", () => {
  const fb = new SearchBoard(FREESTYLE);
  for (const sq of GAME_A.slice(0, 6)) fb.play(fb.index(sq));
  const hash = [fb.h1, fb.h2];
  const k8 = forcedWin(fb, BUDGET, fb.index("K8"));
  assert.equal(fb.name(k8.line[0]), "K8");
  assert.equal(forcedWin(fb, BUDGET, fb.index("B2")).line, null);
  assert.deepEqual([fb.h1, fb.h2], hash, "the board is left as it was");
  const ts = new FirstMoveSearch(fb, fb.index("G8"), { maxNodes: 1000 });
  assert.equal(fb.name(ts.vcf(4)[0]), "G8");
});

test("confirmLine refuses a line the rules refuse or that does not end in a five", () => {
  const rules = FREESTYLE;
  const board = new Board(Rules.fromDict(rules));
  for (const sq of GAME_A.slice(0, 6)) board.play(sq);
  const fb = new SearchBoard(rules);
  for (const sq of GAME_A.slice(0, 6)) fb.play(fb.index(sq));
  assert.deepEqual(confirmLine(fb, board, ["K8", "L8", "G8"]), ["K8", "L8", "G8"]);
  assert.equal(confirmLine(fb, board, ["A1"]), null, "an occupied square");
  // a line that stops short is carried on to the five: the defender blocks, the attacker wins
  const carried = confirmLine(fb, board, ["K8", null]);
  assert.equal(carried.length, 3);
  assert.equal(replay(rules, GAME_A, 6, carried).winner, "X");
  // a six is no five under exact five: X G8 H8 I8 J8 K8 L8 is refused as a win
  const exact = { ...FREESTYLE, exact: true };
  const moves = ["H8", "A1", "I8", "A15", "J8", "O1", "L8", "O15"]; // X: H8 I8 J8 . L8
  const b2 = new Board(Rules.fromDict(exact));
  for (const sq of moves) b2.play(sq);
  const fb2 = new SearchBoard(exact);
  for (const sq of moves) fb2.play(fb2.index(sq));
  assert.equal(confirmLine(fb2, b2, ["G8", "F8", "K8"]), null, "G8 then K8 makes six in a row");
});

test("under Renju no line has X play a foul, and a double-three is no win for X", () => {
  // X: G8 H8 (row 8) and J10 J11 (column J): J8 would make two threes, a foul for X under Renju
  const moves = ["G8", "A1", "H8", "A15", "J10", "O1", "J11", "O15"];
  const free = analyseCaro({ rules: FREESTYLE, moves });
  const renju = analyseCaro({ rules: RENJU, moves });
  for (const result of [free, renju]) assert.equal(result.stats.invalidLines, 0);
  const board = new Board(Rules.fromDict(RENJU));
  for (const sq of moves) board.play(sq);
  assert.equal(board.foul("J8"), "double-three");
  const win = renju.plies[8].win;
  if (win) {
    const end = replay(RENJU, moves, 8, win.line); // throws IllegalMove on a foul
    assert.equal(end.winner, "X");
  }
  assert.ok(free.plies[8].win, "freestyle: X wins with threes");
});

test("the second look: a quiet win found before the open three, its line replayed to the five", () => {
  const result = analyseCaro({ rules: FREESTYLE, moves: GAME_A });
  assert.deepEqual(verdicts(result), GAME_A_DEEP_VERDICTS);
  assert.equal(result.stats.invalidLines, 0);
  assert.ok(result.stats.deepNodes > 0);
  const four = result.plies[4];
  assert.equal(four.win.side, "X");
  assert.equal(four.win.kind, "quiet");
  assert.equal(four.win.deep, true);
  const end = replay(FREESTYLE, GAME_A, 4, four.win.line);
  assert.equal(end.winner, "X");
  assert.equal(end.termination, "five");
  // the move that allowed it shows that line
  assert.equal(result.plies[4].move.line, four.win.line);
  assert.equal(result.plies[4].move.lineFrom, 4);
});

test("the second look is only taken where a win is plausible", () => {
  const fb = new SearchBoard(FREESTYLE);
  for (const sq of ["H8", "A1"]) fb.play(fb.index(sq));
  assert.equal(plausible(fb), false, "one X stone: no open three to make");
  for (const sq of ["I8", "A15"]) fb.play(fb.index(sq));
  assert.equal(plausible(fb), true, "an open two with room: four open-three cells");
  assert.deepEqual(deepWin(new SearchBoard(FREESTYLE), false), { kind: null, line: null, stage: -1, nodes: 0 });
});

test("the second look's lines obey each rule set (exact five, blocked ends, Renju): replayed to the five", () => {
  const EXACT = { ...FREESTYLE, exact: true };
  let deep = 0;
  for (const rules of [EXACT, CARO_VN, RENJU]) {
    const result = analyseCaro({ rules, moves: GAME_A });
    assert.equal(result.stats.invalidLines, 0);
    for (const p of result.plies) {
      if (!p.win) continue;
      if (p.win.deep) deep++;
      const end = replay(rules, GAME_A, p.ply, p.win.line); // throws IllegalMove on a foul
      assert.equal(end.winner, p.win.side);
      assert.equal(end.termination, "five");
    }
  }
  assert.ok(deep > 0, "the second look found a win under some rule set");
});
