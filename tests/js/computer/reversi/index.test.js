// chooseReversiMove (CONTRACTS.md section 2) on the browser engine's Reversi board: the adapter
// reads `outcome`, `turn` and `discs()` ({square: "black" | "white"}), the move is legal for the
// side to move, and a finished game, a side that must pass or an unknown level is an error.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { INDEX, NAMES } from "../../../../static/js/computer/reversi/bitboard.js";
import { Board } from "../../../../static/js/engine/reversi.js";
import { LEVELS, chooseReversiMove, exactReversiMoveValues } from "../../../../static/js/computer/reversi/index.js";
import { fromEngineBoard } from "../../../../static/js/computer/reversi/position.js";
import { seededRandom } from "../../../../static/js/computer/reversi/random.js";
import { CASES, halves, legalList, play, positionOf, randomPositions } from "./helpers.js";


/** The engine board's surface the adapter reads, for a position {me, opp} with `turn` to move. */
function standIn({ me, opp }, turn) {
  const other = turn === "black" ? "white" : "black";
  const discs = {};
  for (let sq = 0; sq < 64; sq++) {
    const bit = (b) => (sq < 32 ? (b[0] >>> sq) & 1 : (b[1] >>> (sq - 32)) & 1);
    if (bit(me)) discs[NAMES[sq]] = turn;
    if (bit(opp)) discs[NAMES[sq]] = other;
  }
  return { outcome: null, turn, discs: () => discs, legalMoves: () => legalList(me, opp).map((s) => NAMES[s]) };
}

test("the adapter reads the engine board's discs and turn", () => {
  for (const [i, p] of randomPositions(12, 40, 0, 58).entries()) {
    const turn = i % 2 ? "white" : "black";
    assert.deepEqual(fromEngineBoard(standIn(p, turn)), { me: p.me, opp: p.opp });
    const asMap = { ...standIn(p, turn), discs: () => new Map(Object.entries(standIn(p, turn).discs())) };
    assert.deepEqual(fromEngineBoard(asMap), { me: p.me, opp: p.opp });
  }
});

test("every level answers a legal square name for the side to move", () => {
  const board = standIn(positionOf("f5d6c3d3c4"), "white");
  for (const level of LEVELS) {
    const move = chooseReversiMove(board, level, { budgetMs: 50, rng: seededRandom(1) });
    assert.ok(board.legalMoves().includes(move), `${level}: ${move}`);
  }
  assert.throws(() => chooseReversiMove(board, "expert"), /unknown level: expert/);
});

test("exact values of every move on an engine board equal the Python solver's", () => {
  for (const c of CASES.solves.filter((s) => s.empties <= 12)) {
    const board = standIn({ me: halves(c.me), opp: halves(c.opp) }, "white");
    assert.deepEqual(exactReversiMoveValues(board), c.moves);
  }
  const deep = CASES.solves.find((s) => s.empties === 16);
  assert.equal(exactReversiMoveValues(standIn({ me: halves(deep.me), opp: halves(deep.opp) }, "black"), { maxNodes: 1000 }), null);
});

test("a finished game, a side that must pass and a bad board are errors", () => {
  const over = { ...standIn(positionOf("f5"), "white"), outcome: { winner: "black", black: 4, white: 1 } };
  assert.throws(() => chooseReversiMove(over, "hard"), /game is over/);
  const mustPass = { outcome: null, turn: "black", discs: () => ({ b1: "black", a1: "white" }) }; // only White has c1
  assert.throws(() => chooseReversiMove(mustPass, "easy"), /must pass/);
  const bad = { outcome: null, turn: "black", discs: () => ({ z9: "black" }) };
  assert.throws(() => chooseReversiMove(bad, "easy"), /bad disc z9/);
});

test("on the browser engine's own board: the same position as a replay on the computer's bitboards", () => {
  const rng = seededRandom(5);
  for (const game of ["", "f5", "f5d6c3d3c4f4f6", "f5f6e6f4e3c5c4e7"]) {
    const board = Board.fromMoves(game);
    let me = [1 << 28, 1 << 3]; // Black: d5 e4
    let opp = [1 << 27, 1 << 4]; // White: d4 e5
    for (let k = 0; k < game.length; k += 2) {
      [me, opp] = play(me, opp, INDEX[game.slice(k, k + 2)]);
      if (!legalList(me, opp).length) [me, opp] = [opp, me]; // a pass
    }
    assert.deepEqual(fromEngineBoard(board), { me, opp });
    for (const level of LEVELS) assert.ok(board.legalMoves().includes(chooseReversiMove(board, level, { budgetMs: 50, rng })));
  }
  // a whole game of Hard against Easy on the engine's board, passes handled by the engine
  const board = Board.fromMoves("");
  while (board.outcome === null) {
    const level = board.turn === "black" ? "hard" : "easy";
    board.play(chooseReversiMove(board, level, { budgetMs: 20, rng }));
  }
  assert.ok(board.outcome.black + board.outcome.white <= 64);
});

test("the modules a Web Worker loads use no Node API (only cli.js does)", () => {
  const dir = new URL("../../../../static/js/computer/reversi/", import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith(".js") && f !== "cli.js");
  assert.ok(files.includes("index.js") && files.length >= 8);
  for (const file of files) {
    const code = readFileSync(new URL(file, dir), "utf8");
    assert.doesNotMatch(code, /from "node:|require\(|\bprocess\.|\bBuffer\b|__dirname/, file);
    for (const [, target] of code.matchAll(/from "([^"]+)"/g)) assert.match(target, /^\.\/[a-z]+\.js$/, `${file} imports ${target}`);
  }
});
