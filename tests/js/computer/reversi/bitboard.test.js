// The computer's bitboards: legal moves, flips and flip counts agree with a square-by-square walk on random
// positions (every empty square, both sides), perft from the start, square names.

import assert from "node:assert/strict";
import { test } from "node:test";
import { INDEX, NAMES, countFlips, flips, moves, out } from "../../../../static/js/computer/reversi/bitboard.js";
import { legalList, play, randomPositions } from "./helpers.js";

const DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]];

function bitAt(b, sq) {
  return sq < 32 ? (b[0] >>> sq) & 1 : (b[1] >>> (sq - 32)) & 1;
}

/** Flipped squares by walking each direction one square at a time. */
function walkFlips(me, opp, sq) {
  const flipped = [];
  for (const [dc, dr] of DIRECTIONS) {
    const run = [];
    let c = (sq & 7) + dc;
    let r = (sq >> 3) + dr;
    while (c >= 0 && c < 8 && r >= 0 && r < 8 && bitAt(opp, r * 8 + c)) {
      run.push(r * 8 + c);
      c += dc;
      r += dr;
    }
    if (run.length && c >= 0 && c < 8 && r >= 0 && r < 8 && bitAt(me, r * 8 + c)) flipped.push(...run);
  }
  return flipped.sort((a, b) => a - b);
}

function squares(lo, hi) {
  const list = [];
  for (let sq = 0; sq < 64; sq++) if (bitAt([lo, hi], sq)) list.push(sq);
  return list;
}

test("legal moves, flips and flip counts agree with a square-by-square walk", () => {
  for (const { me, opp } of randomPositions(1, 300, 0, 59)) {
    for (const [a, b] of [[me, opp], [opp, me]]) {
      const legal = squares(moves(a[0], a[1], b[0], b[1]), out[0]);
      const expected = [];
      for (let sq = 0; sq < 64; sq++) {
        if (bitAt(a, sq) || bitAt(b, sq)) continue;
        const walked = walkFlips(a, b, sq);
        assert.deepEqual(squares(flips(a[0], a[1], b[0], b[1], sq), out[0]), walked);
        assert.equal(countFlips(a[0], a[1], b[0], b[1], sq), walked.length);
        if (walked.length) expected.push(sq);
      }
      assert.deepEqual(legal, expected);
    }
  }
});

function perft(me, opp, depth, passed = false) {
  if (depth === 0) return 1;
  const list = legalList(me, opp);
  if (!list.length) return passed ? 1 : perft(opp, me, depth - 1, true);
  let n = 0;
  for (const sq of list) n += perft(...play(me, opp, sq), depth - 1);
  return n;
}

test("perft from the start", () => {
  const black = [1 << 28, 1 << 3]; // d5 e4
  const white = [1 << 27, 1 << 4]; // d4 e5
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((d) => perft(black, white, d)), [4, 12, 56, 244, 1396, 8200, 55092]);
});

test("square names: a1 is bit 0, h1 bit 7, a8 bit 56", () => {
  assert.equal(NAMES[0], "a1");
  assert.equal(NAMES[7], "h1");
  assert.equal(NAMES[56], "a8");
  assert.equal(INDEX.f5, 4 * 8 + 5);
});
