// The caro board of the browser engine: the vectors of tests/engine_vectors (coords.json,
// caro.json) that tests/unit/engine/test_engine_caro.py runs against the Python engine, and the
// same procedural checks as that file (turns, undo, edges, no wrap-around, full boards, positions).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  Board, DEFAULT_PRESET, O, PRESETS, Rules, SIZES, Termination, WIN_LENGTHS, X,
} from "../../../static/js/engine/caro.js";
import { parseSquare, parseReversiSquare, reversiSquareName, squareName } from "../../../static/js/engine/coords.js";
import { IllegalMove, REASONS } from "../../../static/js/engine/errors.js";
import { refusedFive } from "../../../static/js/engine/explain.js";
import { refusal, valueError, vectors } from "../helpers.js";

const COORDS = vectors("coords.json");
const CARO = vectors("caro.json");

describe("coordinates", () => {
  test("names and parsing", () => {
    for (const [col, row, name] of COORDS.names) assert.equal(squareName(col, row), name);
    for (const [name, size, cell] of COORDS.parse) assert.deepEqual(parseSquare(name, size), cell);
    assert.equal(reversiSquareName(5, 4), "f5");
    assert.deepEqual(parseReversiSquare("F5"), [5, 4]);
    valueError(() => squareName(26, 0));
    valueError(() => reversiSquareName(8, 0));
  });
  for (const name of COORDS.malformed) {
    test(`malformed ${JSON.stringify(name)}`, () => assert.equal(refusal(() => parseSquare(name, 15)).reason, "bad_square"));
  }
  for (const [name, size] of COORDS.off_board) {
    test(`off the board: ${name} on ${size}`, () => assert.equal(refusal(() => parseSquare(name, size)).reason, "out_of_board"));
  }
  test("IllegalMove knows only the Python reason codes", () => {
    assert.equal(REASONS.size, 17);
    valueError(() => new IllegalMove("nonsense"));
    const error = new IllegalMove("foul", undefined, { square: "H8", foul: "overline" });
    assert.ok(error instanceof Error);
    assert.equal(error.message, "foul");
    assert.equal(error.square, "H8");
  });
});

describe("rules and presets", () => {
  for (const kwargs of CARO.invalid_rules) {
    test(`invalid rules ${JSON.stringify(kwargs)}`, () => valueError(() => new Rules(kwargs)));
  }
  for (const data of CARO.bad_rules_data) {
    test(`bad rules data ${JSON.stringify(data)}`, () => valueError(() => Rules.fromDict(data)));
  }
  test("round trip through JSON", () => {
    for (const size of [11, 15, 19]) {
      for (const win_length of WIN_LENGTHS) {
        for (const exact of [false, true]) {
          for (const blocked of ["none", "opponent", "opponent_or_edge"]) {
            const rules = new Rules({ size, win_length, exact, blocked });
            assert.ok(Rules.fromDict(JSON.parse(JSON.stringify(rules.toDict()))).equals(rules));
          }
        }
      }
    }
    const renju = new Rules({ renju: true, blocked: "none" });
    assert.ok(Rules.fromDict(renju.toDict()).equals(renju));
    assert.deepEqual(Object.keys(renju.toDict()), ["size", "win_length", "exact", "blocked", "renju"]);
    assert.ok(Object.isFrozen(renju));
    assert.deepEqual(SIZES, [11, 13, 15, 19]);
  });
  test("presets: the Python engine's slugs, names, rules and openings, in order", () => {
    assert.ok(PRESETS["caro-vn"].rules.equals(new Rules()));
    assert.ok(new Rules().equals(new Rules({ size: 15, win_length: 5, exact: false, blocked: "opponent_or_edge", renju: false })));
    assert.equal(DEFAULT_PRESET, CARO.default_preset);
    assert.deepEqual(Object.keys(PRESETS), CARO.presets.map((p) => p.slug));
    for (const expected of CARO.presets) {
      const preset = PRESETS[expected.slug];
      assert.deepEqual({ slug: preset.slug, name: preset.name, rules: preset.rules.toDict(), opening: preset.opening }, expected);
    }
  });
});

function playAll(board, squares) {
  let outcome = null;
  for (const square of squares.split(" ")) outcome = board.play(square);
  return outcome;
}

describe("playing", () => {
  test("turns, moves, ply and undo", () => {
    const board = new Board(new Rules());
    assert.equal(board.turn, X);
    assert.equal(board.ply, 0);
    assert.deepEqual(board.moves, []);
    board.play("H8");
    assert.equal(board.turn, O);
    board.play("i9", "O");
    assert.deepEqual(board.moves, ["H8", "I9"]);
    assert.equal(board.ply, 2);
    assert.equal(board.stoneAt("H8"), X);
    assert.equal(board.stoneAt("I9"), O);
    assert.equal(board.stoneAt("A1"), null);
    assert.deepEqual(board.stones(), { H8: X, I9: O });
    assert.equal(board.undo(), "I9");
    assert.equal(board.turn, O);
    assert.deepEqual(board.moves, ["H8"]);
    assert.equal(board.stoneAt("I9"), null);
    board.undo();
    valueError(() => board.undo());
  });

  test("refused moves change nothing", () => {
    const board = new Board(new Rules());
    for (const square of CARO.play_errors.moves) board.play(square);
    for (const attempt of CARO.play_errors.tries) {
      const error = refusal(() => board.play(attempt.square, attempt.side ?? null));
      assert.equal(error.reason, attempt.reason);
      assert.ok(error.message);
    }
    assert.deepEqual(board.moves, CARO.play_errors.moves);
    assert.equal(board.turn, O);
  });

  for (const position of CARO.positions) {
    test(`position ${position.id}`, () => {
      for (const rules of Array.isArray(position.rules) ? position.rules : [position.rules]) {
        const board = Board.fromStones(Rules.fromDict(rules), { x: position.x, o: position.o, toMove: position.to_move });
        const outcome = board.play(position.move);
        if (position.outcome === null) {
          assert.equal(outcome, null);
          assert.equal(board.outcome, null);
        } else {
          assert.deepEqual({ ...outcome, line: [...outcome.line] }, position.outcome, JSON.stringify(rules));
          assert.deepEqual(board.winningLine(position.move), position.outcome.line);
        }
      }
    });
  }

  for (const vector of CARO.refused_fives) {
    test(`refused five: ${vector.id}`, () => {
      const board = Board.fromStones(Rules.fromDict(vector.rules), { x: vector.x, o: vector.o, toMove: vector.to_move });
      board.play(vector.move);
      assert.deepEqual(refusedFive(board, vector.move), vector.note);
    });
  }

  test("game over refuses moves, undo reopens", () => {
    const board = new Board(new Rules({ blocked: "none" }));
    const outcome = playAll(board, "A1 A2 B1 B2 C1 C2 D1 D2 E1");
    assert.equal(outcome, board.outcome);
    assert.equal(outcome.winner, X);
    assert.deepEqual(outcome.line, ["A1", "B1", "C1", "D1", "E1"]);
    assert.deepEqual(board.legalMoves(), []);
    assert.equal(refusal(() => board.play("F1")).reason, "game_over");
    board.undo();
    assert.equal(board.outcome, null);
    assert.equal(board.turn, X);
    assert.equal(board.play("H8"), null);
  });

  for (const size of SIZES) {
    test(`last row and last column, ${size}x${size}`, () => {
      const rules = new Rules({ size, blocked: "none" });
      const last = squareName(size - 1, 0)[0];
      const row = Array.from({ length: 5 }, (_, k) => squareName(size - 5 + k, size - 1));
      const col = Array.from({ length: 5 }, (_, k) => `${last}${size - 4 + k}`);
      for (const line of [row, col]) {
        assert.deepEqual(Board.fromStones(rules, { x: line.slice(0, -1) }).play(line.at(-1)).line, line);
        assert.deepEqual(Board.fromStones(rules, { x: line.slice(1) }).play(line[0]).line, line);
      }
    });
    test(`both diagonals into every corner, ${size}x${size}`, () => {
      for (const [flipC, flipR] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
        const names = Array.from({ length: 5 }, (_, k) => squareName(flipC ? size - 1 - k : k, flipR ? size - 1 - k : k));
        for (const blocked of ["none", "opponent", "opponent_or_edge"]) {
          for (const moveAt of [0, 4]) {
            // the far end (6th cell) is empty, so even edge blocking lets it win
            const board = Board.fromStones(new Rules({ size, blocked }), { x: names.filter((_, k) => k !== moveAt) });
            const outcome = board.play(names[moveAt]);
            assert.deepEqual([...outcome.line].sort(), [...names].sort());
          }
        }
      }
    });
  }

  for (const size of [11, 15, 19]) {
    test(`no wrap-around between rows, ${size}x${size}`, () => {
      const last = squareName(size - 1, 0)[0];
      const prev = (k) => String.fromCharCode(last.charCodeAt(0) - k);
      const board = Board.fromStones(new Rules({ size, blocked: "none" }), { x: [`${prev(2)}1`, `${prev(1)}1`, "A2"] });
      assert.equal(board.play(`${last}1`), null);
      board.play("H8");
      assert.equal(board.play("B2"), null);
      const diagonal = Board.fromStones(new Rules({ size, blocked: "none" }), { x: [`${last}3`, `${last}4`, "A5", "B6"] });
      assert.equal(diagonal.play(`${last}2`), null);
    });
  }

  // Every square of the board with no run of 4 of one side in any direction (as in the Python test).
  function fillWithoutFive(size) {
    const stones = [];
    for (let r = 0; r < size; r += 1) {
      for (let c = 0; c < size; c += 1) stones.push(Math.floor((c + Math.floor(r / 2) * 2 + (r % 2)) / 2) % 2 === 0 ? X : O);
    }
    return stones;
  }

  for (const [blocked, run, blockers] of [["none", [3, 4, 5, 6, 7], [2, 8]], ["opponent", [0, 1, 2, 3, 4], [5]]]) {
    test(`the last empty square completing five is a win, not a draw (${blocked})`, () => {
      const size = 11;
      const cells = new Map(fillWithoutFive(size).map((side, i) => [squareName(i % size, Math.floor(i / size)), side]));
      for (const c of run) cells.set(squareName(c, 5), X);
      for (const c of blockers) cells.set(squareName(c, 5), O);
      const last = squareName(run[2], 5);
      cells.delete(last);
      const x = [...cells].filter(([, v]) => v === X).map(([s]) => s);
      const o = [...cells].filter(([, v]) => v === O).map(([s]) => s);
      const board = Board.fromStones(new Rules({ size, blocked }), { x, o, toMove: X });
      assert.deepEqual(board.legalMoves(), [last]);
      const outcome = board.play(last);
      assert.equal(outcome.winner, X);
      assert.equal(outcome.termination, Termination.FIVE);
      assert.deepEqual(outcome.line, run.map((c) => squareName(c, 5)));
      assert.ok(board.isFull());
    });
  }

  test("a full board without five is a draw", () => {
    const size = 11;
    const pattern = fillWithoutFive(size);
    const names = pattern.map((_, i) => squareName(i % size, Math.floor(i / size)));
    const last = names.at(-1);
    const x = names.filter((n, i) => pattern[i] === X && n !== last);
    const o = names.filter((n, i) => pattern[i] === O && n !== last);
    const board = Board.fromStones(new Rules({ size, win_length: 4, blocked: "none" }), { x, o, toMove: pattern.at(-1) });
    assert.deepEqual(board.play(last), { winner: null, termination: Termination.DRAW, line: [] });
    assert.deepEqual(board.legalMoves(), []);
  });

  test("queries never change the board", () => {
    const board = Board.fromStones(new Rules({ renju: true, blocked: "none" }), { x: ["H8", "I8", "H9", "G10"], o: ["A1", "B1", "C1"] });
    board.play("J10");
    const snapshot = () => JSON.stringify([board.stones(), board.moves, board.ply, board.turn, board.outcome, String(board)]);
    const before = snapshot();
    board.legalMoves(); board.foul("I9"); board.stoneAt("I9"); board.winningLine("H8"); board.copy().play("I9");
    board.stones().H8 = O; board.moves.push("A2");
    assert.equal(snapshot(), before);
  });
});

describe("the stored position (the Python engine's text)", () => {
  for (const [slug, preset] of Object.entries(PRESETS)) {
    test(`a position plays on exactly like the board it came from (${slug})`, () => {
      const rules = preset.rules;
      const board = new Board(rules);
      for (const square of ["D8", "A1", "E8", "A3", "F8", "A5"]) board.play(square);
      const restored = Board.fromPosition(rules, board.position());
      assert.equal(restored.position(), board.position());
      assert.equal(restored.turn, X);
      assert.deepEqual(restored.stones(), board.stones());
      assert.deepEqual(restored.legalMoves(), board.legalMoves());
      assert.deepEqual(restored.moves, []);
      assert.equal(restored.outcome, null);
      for (const square of ["G8", "A7", "H8"]) {
        assert.deepEqual(restored.play(square), board.play(square));
        assert.equal(restored.position(), board.position());
      }
      assert.equal(restored.outcome.termination, Termination.FIVE);
    });
  }
  test("a position string that does not fit the rules is refused", () => {
    const text = new Board(new Rules({ size: 15 })).position();
    assert.equal(text, `X${".".repeat(225)}`);
    for (const wrong of ["", text.slice(0, -1), `Z${text.slice(1)}`, `X${"?".repeat(225)}`, 15]) {
      valueError(() => Board.fromPosition(new Rules({ size: 15 }), wrong));
    }
    valueError(() => Board.fromPosition(new Rules({ size: 19 }), text));
  });
});
