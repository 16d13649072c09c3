// Records in the browser engine (square lists, Piskvork .psq, Reversi strings) against
// tests/engine_vectors/records.json, run against the Python engine by
// tests/unit/engine/test_engine_records.py.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Board, Rules } from "../../../static/js/engine/caro.js";
import {
  formatPsq, formatReversi, formatSquares, parsePsq, parseReversi, parseSquares,
} from "../../../static/js/engine/records.js";
import { refusal, sharedCases, vectorText, vectors } from "../helpers.js";

const V = vectors("records.json");

function rulesOf(vector) {
  return vector.rules === undefined || vector.rules === null ? null : Rules.fromDict(vector.rules);
}

/** A vector read to its moves, or refused with its reason (then null). */
function checkRead(vector, parse) {
  if (!("reason" in vector)) return parse();
  const error = refusal(parse);
  assert.equal(error.reason, vector.reason, error.message);
  assert.equal(error.foul, vector.foul ?? null);
  if ("square" in vector) assert.equal(error.square, vector.square);
  for (const words of vector.message_has ?? []) assert.ok(error.message.includes(words), error.message);
  return null;
}

describe("square lists", () => {
  test("round trip", () => {
    const board = new Board(new Rules());
    for (const square of V.game) board.play(square);
    const text = formatSquares(board.moves);
    assert.equal(text, V.game.join(" "));
    const again = parseSquares(text);
    assert.deepEqual(again.moves, board.moves);
    assert.deepEqual(again.stones(), board.stones());
  });
  V.square_lists.forEach((vector, n) => {
    test(`vector ${n}: ${JSON.stringify(vectorText(vector.text)).slice(0, 40)}`, () => {
      const board = checkRead(vector, () => parseSquares(vectorText(vector.text), rulesOf(vector)));
      if (board !== null) {
        assert.deepEqual(board.moves, vector.moves);
        assert.equal(board.outcome?.winner ?? null, vector.winner ?? null);
      }
    });
  });
});

describe("PSQ", () => {
  test("round trip", () => {
    const spec = V.psq_round_trip;
    for (const size of spec.sizes) {
      const text = formatPsq(V.game, size, spec.times);
      assert.deepEqual(text.split("\n").slice(0, 3), spec.first_lines.map((line) => line.replaceAll("{size}", String(size))));
      const game = parsePsq(text);
      assert.deepEqual(game, { size, moves: V.game, times: spec.times, names: ["", ""] });
    }
    for (const size of spec.other_sizes) assert.equal(parsePsq(formatPsq(spec.other_moves, size)).size, size);
    const text = formatPsq(V.game, 15, null, spec.names);
    assert.ok(text.endsWith(spec.names_tail));
    assert.deepEqual(parsePsq(text).names, spec.names);
  });
  V.psq.forEach((vector, n) => {
    test(`vector ${n}: ${JSON.stringify(vectorText(vector.text)).slice(0, 50)}`, () => {
      const game = checkRead(vector, () => parsePsq(vectorText(vector.text), rulesOf(vector)));
      if (game !== null) assert.deepEqual(game, { size: vector.size, moves: vector.moves, times: vector.times, names: vector.names });
    });
  });
});

describe("Reversi strings", () => {
  test("round trip of the championship game", () => {
    const moves = sharedCases("reversi.json").full_game.moves;
    assert.equal(formatReversi(parseReversi(moves)), moves.toLowerCase());
  });
  V.reversi_strings.forEach((vector, n) => {
    test(`vector ${n}: ${JSON.stringify(vectorText(vector.text))}`, () => {
      const board = checkRead(vector, () => parseReversi(vectorText(vector.text)));
      if (board !== null) assert.deepEqual(board.moves, vector.moves);
    });
  });
});

describe("not text", () => {
  const names = { null: "NoneType", number: "int", object: "list" };
  for (const junk of V.not_text) {
    test(`${JSON.stringify(junk)} is not a record`, () => {
      for (const parse of [parseSquares, parsePsq, parseReversi]) {
        const error = refusal(() => parse(junk));
        assert.equal(error.reason, "bad_record");
        assert.ok(error.message.includes(names[junk === null ? "null" : typeof junk]), error.message);
      }
    });
  }
});
