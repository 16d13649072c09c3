// Every file of ../shared/cases against the browser engine, as tests/unit/engine runs them
// against the Python engine: caro win verdicts and lines, Renju foul points (exhaustive), the
// Reversi vectors, and the gomoku puzzle positions (legal, game on, answers on empty squares).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Board, Rules, Termination, geometry } from "../../../static/js/engine/caro.js";
import { foulPoints } from "../../../static/js/engine/explain.js";
import { Board as ReversiBoard, perft } from "../../../static/js/engine/reversi.js";
import { refusal, sharedCases } from "../helpers.js";

const RENJU = new Rules({ renju: true, blocked: "none" });

describe("caro-rules.json", () => {
  const { cases } = sharedCases("caro-rules.json");
  test("has 62 cases", () => assert.equal(cases.length, 62));
  for (const c of cases) {
    test(c.id, () => {
      const board = Board.fromStones(Rules.fromDict(c.rules), { x: c.x, o: c.o, toMove: c.to_move });
      const outcome = board.play(c.move);
      if (c.wins) {
        assert.ok(outcome !== null);
        assert.equal(outcome.winner, c.to_move);
        assert.equal(outcome.termination, Termination.FIVE);
        assert.deepEqual([...outcome.line].sort(), [...c.line].sort());
      } else {
        assert.equal(outcome, null);
        assert.equal(board.outcome, null);
      }
    });
  }
});

describe("renju-fouls.json", () => {
  const { cases } = sharedCases("renju-fouls.json");
  test("has 13 positions", () => assert.equal(cases.length, 13));
  for (const c of cases) {
    test(`${c.id}: every empty point`, () => {
      const board = Board.fromStones(RENJU, { x: c.black, o: c.white, toMove: "X" });
      const found = {};
      for (const square of geometry(15).names) {
        if (board.stoneAt(square) === null) {
          const kind = board.foul(square);
          if (kind !== null) found[square] = kind;
        }
      }
      assert.deepEqual(found, c.forbidden_exhaustive);
      assert.deepEqual(foulPoints(board), c.forbidden_exhaustive);
      const legal = new Set(board.legalMoves());
      for (const [square, kind] of Object.entries(c.forbidden_exhaustive)) {
        assert.ok(!legal.has(square));
        const error = refusal(() => board.copy().play(square));
        assert.equal(error.reason, "foul");
        assert.equal(error.foul, kind);
      }
      const empties = geometry(15).names.filter((s) => board.stoneAt(s) === null && !(s in found));
      assert.deepEqual([...legal].sort(), empties.sort());
    });
    test(`${c.id}: White has no fouls, nor does X without Renju`, () => {
      const white = Board.fromStones(RENJU, { x: c.black, o: c.white, toMove: "O" });
      const free = Board.fromStones(new Rules({ blocked: "none" }), { x: c.black, o: c.white });
      for (const square of Object.keys(c.forbidden_exhaustive)) {
        assert.equal(white.foul(square), null);
        white.copy().play(square);
        assert.equal(free.foul(square), null);
      }
    });
  }
});

describe("reversi.json", () => {
  const vectors = sharedCases("reversi.json");
  test("initial position", () => {
    const board = new ReversiBoard();
    assert.equal(board.turn, "black");
    assert.deepEqual(board.legalMoves(), vectors.initial_legal_moves_black);
    assert.deepEqual(board.discs(), { e4: "black", d5: "black", d4: "white", e5: "white" });
    assert.deepEqual(board.count(), [2, 2]);
  });
  for (const [depth, count] of Object.entries(vectors.perft)) {
    test(`perft(${depth})`, () => {
      const board = new ReversiBoard();
      assert.equal(perft(board, Number(depth)), count);
      assert.deepEqual(board.moves, []);
      assert.deepEqual(board.count(), [2, 2]);
    });
  }
  for (const c of vectors.forced_pass) {
    test(`forced pass ${c.moves}`, () => {
      const moves = c.moves;
      const board = ReversiBoard.fromMoves(moves.slice(0, -2));
      const result = board.play(moves.slice(-2));
      assert.equal(result.passed, true);
      assert.equal(board.turn, "white");
      assert.deepEqual(board.legalMoves(), c.white_legal_after_pass);
      const [black, white] = board.count();
      assert.deepEqual({ black, white }, c.discs);
      assert.equal(board.passes, 1);
      const discs = Object.entries(board.discs());
      const beforePass = ReversiBoard.fromDiscs({
        black: discs.filter(([, v]) => v === "black").map(([s]) => s),
        white: discs.filter(([, v]) => v === "white").map(([s]) => s),
        turn: "black",
      });
      assert.deepEqual(beforePass.legalMoves(), c.black_to_move_legal);
      assert.equal(refusal(() => beforePass.play("e3")).reason, "must_pass");
      beforePass.passTurn();
      assert.equal(beforePass.turn, "white");
      assert.equal(board.undo(), moves.slice(-2));
      assert.equal(board.turn, "white");
      assert.equal(board.passes, 0);
      assert.deepEqual(board.moves, moves.slice(0, -2).match(/../g));
    });
  }
  test("championship game", () => {
    const game = vectors.full_game;
    const board = ReversiBoard.fromMoves(game.moves);
    assert.deepEqual(board.outcome, { winner: "black", black: game.result.black, white: game.result.white });
    assert.equal(board.passes, game.result.passes);
    assert.equal(board.ply, 60);
    assert.deepEqual(board.legalMoves(), []);
    assert.equal(refusal(() => board.play("a1")).reason, "game_over");
  });
});

describe("gomoku-puzzles.json", () => {
  const puzzles = sharedCases("gomoku-puzzles.json").filter((entry) => "id" in entry);
  test("38 wins and 34 defences", () => {
    const kinds = puzzles.map((p) => p.kind);
    assert.deepEqual([kinds.filter((k) => k === "win").length, kinds.filter((k) => k === "defend").length], [38, 34]);
  });
  for (const puzzle of puzzles) {
    test(`${puzzle.id} replays legally`, () => {
      const board = new Board(new Rules({ size: puzzle.size, blocked: "none", exact: puzzle.rule === "exact" }));
      for (const square of puzzle.moves) assert.equal(board.play(square), null);
      assert.equal(board.turn, puzzle.to_move);
      const answers = ["winning", "holding", "losing", "checked"].flatMap((key) => puzzle[key] ?? []);
      assert.ok(answers.length > 0);
      for (const square of answers) assert.equal(board.stoneAt(square), null);
      const first = puzzle[puzzle.kind === "win" ? "winning" : "holding"][0];
      const outcome = board.play(first, puzzle.to_move);
      if (puzzle.kind === "win" && puzzle.mate_plies === 1) assert.equal(outcome?.winner, puzzle.to_move);
    });
  }
});
