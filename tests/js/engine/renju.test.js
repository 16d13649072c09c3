// Renju fouls in the browser engine: the judgements of tests/engine_vectors/renju.json (run
// against the Python engine by tests/unit/engine/test_engine_renju.py), the foul points of
// explain.js, and the no-legal-move draw, as in the Python tests.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Board, Rules, Termination, geometry } from "../../../static/js/engine/caro.js";
import { foulPoints } from "../../../static/js/engine/explain.js";
import { foulAt, foulMap } from "../../../static/js/engine/renju.js";
import { refusal, sharedCases, valueError, vectors } from "../helpers.js";

const RENJU = new Rules({ renju: true, blocked: "none" });

describe("foul judgements", () => {
  for (const vector of vectors("renju.json").fouls) {
    test(`${vector.square} with X ${vector.x.join(" ")} / O ${vector.o.join(" ")}: ${vector.foul}`, () => {
      const board = Board.fromStones(RENJU, { x: vector.x, o: vector.o });
      assert.equal(board.foul(vector.square), vector.foul);
      const points = foulPoints(board);
      assert.equal(points[vector.square] ?? null, vector.foul);
      if (vector.foul !== null) {
        const error = refusal(() => board.play(vector.square));
        assert.equal(error.reason, "foul");
        assert.equal(error.foul, vector.foul);
        assert.equal(error.square, vector.square);
      }
    });
  }
  test("foulAt needs an empty cell and leaves the cells as they were", () => {
    const board = Board.fromStones(RENJU, { x: ["F8", "G8", "H6", "H7"], o: ["A1"] });
    const cells = board._cells.slice();
    assert.equal(foulAt(board._cells, geometry(15).rays, 7 * 15 + 7), "double-three");
    assert.deepEqual(board._cells, cells);
    valueError(() => foulAt(board._cells, geometry(15).rays, 7 * 15 + 5));
  });
});

// 15x15 Renju board filled without any five (rows alternate XXOO / OOXX), with E8-G8 and I8-J8
// Black so that H8 is an overline for X; H8, A1 and `extraEmpty` left empty, O to move.
function stalemateBoard(extraEmpty = []) {
  const stones = new Map();
  for (const square of geometry(15).names) {
    const col = square.charCodeAt(0) - 65;
    const row = Number(square.slice(1)) - 1;
    stones.set(square, (col + 2 * row) % 4 < 2 ? "X" : "O");
  }
  for (const s of ["E8", "F8", "G8", "I8", "J8"]) stones.set(s, "X");
  for (const s of ["D8", "K8"]) stones.set(s, "O");
  for (const s of ["H8", "A1", ...extraEmpty]) stones.delete(s);
  const x = [...stones].filter(([, v]) => v === "X").map(([s]) => s);
  const o = [...stones].filter(([, v]) => v === "O").map(([s]) => s);
  return Board.fromStones(RENJU, { x, o, toMove: "O" });
}

describe("X left with only foul points", () => {
  test("is a draw (no_legal_move)", () => {
    const board = stalemateBoard();
    const outcome = board.play("A1");
    assert.deepEqual(outcome, { winner: null, termination: Termination.NO_LEGAL_MOVE, line: [] });
    assert.equal(board.outcome, outcome);
    assert.equal(board.turn, "X");
    assert.ok(!board.isFull());
    assert.deepEqual(board.legalMoves(), []);
    assert.equal(board.foul("H8"), "overline");
    assert.equal(refusal(() => board.play("H8")).reason, "game_over");
    assert.deepEqual(foulPoints(board), {}); // the game is over
    assert.equal(board.undo(), "A1");
    assert.equal(board.outcome, null);
    assert.deepEqual(board.legalMoves(), ["A1", "H8"]); // O may play anywhere
  });
  test("one non-foul point left keeps the game going", () => {
    const board = stalemateBoard(["O1"]);
    assert.equal(board.play("A1"), null);
    assert.deepEqual(board.legalMoves(), ["O1"]);
    assert.deepEqual(foulPoints(board), { H8: "overline" });
  });
  test("a set-up position with only fouls stays consistent", () => {
    const board = stalemateBoard();
    const stones = Object.entries(board.stones());
    const stuck = Board.fromStones(RENJU, {
      x: stones.filter(([, v]) => v === "X").map(([s]) => s),
      o: [...stones.filter(([, v]) => v === "O").map(([s]) => s), "A1"],
      toMove: "X",
    });
    assert.equal(stuck.outcome, null);
    assert.deepEqual(stuck.legalMoves(), []);
    assert.equal(refusal(() => stuck.play("H8")).reason, "foul");
  });
});

describe("foulMap", () => {
  const { cases } = sharedCases("renju-fouls.json");
  for (const c of cases) {
    test(`${c.id}: the fast listing judges as foulAt on every empty point, both colourings`, () => {
      const { rays } = geometry(15);
      for (const [black, white] of [[c.black, c.white], [c.white, c.black]]) {
        const board = Board.fromStones(RENJU, { x: black, o: white });
        const cells = board._cells.slice();
        const expected = new Map();
        cells.forEach((v, i) => {
          const kind = v === 0 ? foulAt(cells, rays, i) : null;
          if (kind !== null) expected.set(i, kind);
        });
        assert.deepEqual(foulMap(cells, rays), expected);
        assert.deepEqual(cells, board._cells);
      }
    });
  }
});
