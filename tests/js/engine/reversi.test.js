// Reversi in the browser engine against tests/engine_vectors/reversi.json (run against the Python
// engine by tests/unit/engine/test_engine_reversi.py) and the same procedural checks; perft,
// the forced pass and the championship game are in shared-cases.test.js.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Board, flipsBits, legalBits, perft } from "../../../static/js/engine/reversi.js";
import { refusal, valueError, vectors } from "../helpers.js";

const V = vectors("reversi.json");

describe("moves", () => {
  for (const [square, reason] of V.play_errors) {
    test(`${square} from the start: ${reason}`, () => {
      const board = new Board();
      assert.equal(refusal(() => board.play(square)).reason, reason);
      assert.deepEqual(board.moves, []);
      assert.equal(board.turn, "black");
    });
  }
  test("wrong side, then a move in capitals", () => {
    const board = new Board();
    assert.equal(refusal(() => board.play("f5", "white")).reason, "wrong_turn");
    assert.deepEqual(board.play("F5", "black"), { square: "f5", flips: ["e5"], passed: false, outcome: null });
  });
  for (const vector of V.flips) {
    test(`flips of ${vector.square}: ${vector.note}`, () => {
      const board = Board.fromDiscs({ black: vector.black, white: vector.white, turn: vector.turn });
      assert.deepEqual(board.flips(vector.square), vector.flips);
      const result = board.play(vector.square);
      assert.deepEqual(result.flips, vector.flips);
      const other = vector.turn === "black" ? "white" : "black";
      for (const s of vector.flips) assert.equal(board.discAt(s), vector.turn);
      for (const s of vector[other]) if (!vector.flips.includes(s)) assert.equal(board.discAt(s), other);
    });
  }
  for (const [black, white, move] of V.edge_wraps) {
    test(`no wrap round the edge: ${move}`, () => {
      const board = Board.fromDiscs({ black: [...black, "c6"], white: [...white, "d6"], turn: "black" });
      assert.deepEqual(board.legalMoves(), ["e6"]);
      assert.deepEqual(board.flips(move), []);
      assert.equal(refusal(() => board.play(move)).reason, "no_flip");
    });
  }
  test("pass refused while a legal move exists", () => {
    const board = new Board();
    assert.equal(refusal(() => board.passTurn()).reason, "must_play");
    assert.equal(board.turn, "black");
  });
  test("undo restores everything", () => {
    const board = Board.fromMoves("f5d6c3d3c4");
    const snapshot = JSON.stringify([board.discs(), board.turn, board.moves]);
    board.play("f4");
    board.undo();
    assert.equal(JSON.stringify([board.discs(), board.turn, board.moves]), snapshot);
    for (let k = 0; k < 5; k += 1) board.undo();
    assert.deepEqual(board.discs(), new Board().discs());
    assert.equal(board.turn, "black");
    valueError(() => board.undo());
  });
  test("queries never change the board", () => {
    const board = Board.fromMoves("f5d6c3d3c4f4");
    const snapshot = () => JSON.stringify([board.discs(), board.turn, board.moves, board.outcome, String(board)]);
    const before = snapshot();
    board.legalMoves(); board.flips("e6"); board.discAt("e6"); board.count(); perft(board, 3);
    board.copy().play(board.legalMoves()[0]); board.discs().a1 = "black"; board.moves.push("a1");
    assert.equal(snapshot(), before);
  });
  test("the bitboard helpers", () => {
    // the start, Black to move: c4 d3 e6 f5 are bits 26, 19, 44, 37
    const [hi, lo] = legalBits(1 << 3, 1 << 28, 1 << 4, 1 << 27);
    assert.equal(hi, (1 << (44 - 32)) | (1 << (37 - 32)));
    assert.equal(lo, (1 << 26) | (1 << 19));
    assert.deepEqual(flipsBits(1 << 3, 1 << 28, 1 << 4, 1 << 27, 37), [1 << 4, 0]);
  });
});

describe("perft", () => {
  test("a pass is a ply, a finished game a leaf", () => {
    const board = Board.fromDiscs({ black: ["b1"], white: ["a1"], turn: "black" });
    assert.equal(board.outcome, null);
    assert.deepEqual(board.legalMoves(), []);
    assert.equal(perft(board, 1), 1);
    board.passTurn();
    assert.deepEqual(board.legalMoves(), ["c1"]);
    const result = board.play("c1");
    assert.deepEqual(result.outcome, { winner: "white", black: 0, white: 3 });
    assert.equal(result.passed, false);
    assert.equal(perft(new Board(), 0), 1);
    valueError(() => perft(new Board(), -1));
  });
  for (const vector of V.perft_positions) {
    test(`set-up position ${JSON.stringify([vector.black, vector.white, vector.turn])}`, () => {
      const board = Board.fromDiscs({ black: vector.black, white: vector.white, turn: vector.turn });
      assert.deepEqual(board.outcome, vector.outcome ?? null);
      for (const [depth, count] of Object.entries(vector.perft)) assert.equal(perft(board, Number(depth)), count);
    });
  }
});

describe("the stored position (the Python engine's text)", () => {
  test("plays on exactly like the board it came from", () => {
    const board = Board.fromMoves("f5d6c3d3c4f4f6");
    const restored = Board.fromPosition(board.position());
    assert.equal(restored.position(), board.position());
    assert.equal(restored.turn, board.turn);
    assert.deepEqual(restored.discs(), board.discs());
    assert.deepEqual(restored.legalMoves(), board.legalMoves());
    assert.deepEqual(restored.moves, []);
    assert.equal(restored.outcome, null);
    for (const square of ["f3", "e6", "e7"]) assert.deepEqual(board.play(square), restored.play(square));
    assert.equal(restored.position(), board.position());
    assert.equal(new Board().position(), V.start_position);
    // every disc in the top bit of each half survives the text
    const corners = Board.fromDiscs({ black: ["h4", "h8"], white: ["a1", "a5"] });
    assert.equal(Board.fromPosition(corners.position()).position(), corners.position());
    assert.equal(corners.position(), "black:8000000080000000:0000000100000001");
  });
  for (const wrong of V.bad_positions) {
    test(`refused: ${JSON.stringify(wrong)}`, () => valueError(() => Board.fromPosition(wrong)));
  }
});
