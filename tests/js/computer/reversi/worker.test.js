// The Reversi computer through the worker's protocol (static/js/computer/worker.js, CONTRACTS.md
// section 2): {id, op: "move", game: "reversi", moves, level, budgetMs} -> {id, square} with a legal
// square for the side to move after the engine's automatic passes, or {id, error} for a finished game
// or an illegal move list.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Board } from "../../../../static/js/engine/reversi.js";
import { createHandler } from "../../../../static/js/computer/worker.js";

function harness() {
  const out = [];
  return { out, handle: createHandler((message) => out.push(message)) };
}

test("every level answers a legal square for the side to move, the opening included", async () => {
  const { out, handle } = harness();
  const games = [[], ["f5"], ["f5", "d6", "c3", "d3", "c4"]];
  let id = 0;
  for (const moves of games) {
    for (const level of ["easy", "medium", "hard"]) {
      await handle({ id: ++id, op: "move", game: "reversi", moves, level, budgetMs: 50 });
      const reply = out.at(-1);
      assert.equal(reply.id, id);
      const board = Board.fromMoves(moves.join(""));
      assert.ok(board.legalMoves().includes(reply.square), `${level} after ${moves.join("")}: ${JSON.stringify(reply)}`);
    }
  }
});

test("a whole game of Hard against Easy through the worker ends as the engine says", async () => {
  const { out, handle } = harness();
  const board = new Board();
  let id = 0;
  while (!board.outcome) {
    await handle({ id: ++id, op: "move", game: "reversi", moves: board.moves.slice(), level: board.turn === "black" ? "hard" : "easy",
      budgetMs: 20 });
    const reply = out.at(-1);
    assert.ok(reply.square, JSON.stringify(reply));
    board.play(reply.square); // throws on an illegal move
  }
  assert.equal(board.outcome.black + board.outcome.white <= 64, true);
});

test("a finished game and an illegal move list get an error answer", async () => {
  const { out, handle } = harness();
  // a finished game: each side plays its first legal move (by the engine's order) to the end
  const board = new Board();
  while (!board.outcome) board.play(board.legalMoves()[0]);
  await handle({ id: 1, op: "move", game: "reversi", moves: board.moves.slice(), level: "hard", budgetMs: 20 });
  assert.equal(out[0].id, 1);
  assert.match(out[0].error, /over/);
  await handle({ id: 2, op: "move", game: "reversi", moves: ["a1"], level: "hard", budgetMs: 20 });
  assert.equal(out[1].id, 2);
  assert.ok(out[1].error && !out[1].square, JSON.stringify(out[1]));
});
