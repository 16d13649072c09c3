// The game on the device (static/js/play/device-game.js) plays by the server's room rules: the
// frames it answers with are the protocol's (docs/protocol.md), a five or the discs end the game,
// take-backs follow the level, resigning before both have moved aborts, the loser moves first next
// and keeps their mark, Reversi passes are said, the RIF opening's steps are shown as the server
// shows them, a saved game comes back the same, and a finished game makes the record of
// CONTRACTS.md section 4.

import "./globals.js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { DeviceGame, Refused } from "../../../static/js/play/device-game.js";

const CARO_VN = { size: 15, win_length: 5, exact: false, blocked: "opponent_or_edge", renju: false };
const RENJU = { size: 15, win_length: 5, exact: false, blocked: "none", renju: true };

function computerGame(extra = {}) {
  return DeviceGame.start({ mode: "computer", kind: "caro", preset: "caro-vn", rules: CARO_VN, opening: "", level: "easy",
    hostSide: "X", moves: [], ...extra });
}

function play(game, squares) {
  let events = [];
  for (const sq of squares) events = game.move(game.actorSeat(), sq);
  return events;
}

function refusedCode(fn) {
  try { fn(); } catch (e) { if (e instanceof Refused) return e.code; throw e; }
  throw new Error("nothing was refused");
}

describe("a caro game against the computer", () => {
  test("starts with the protocol's state: the person's side, the computer's level, no clock", () => {
    const s = computerGame({ hostSide: "O", level: "hard" }).state();
    assert.equal(s.status, "active");
    assert.equal(s.you, "O");
    assert.deepEqual(s.bot, { side: "X", level: "hard" });
    assert.equal(s.turn, "X");
    assert.deepEqual([s.deadline_ms, s.banks, s.move_time_ms, s.local], [null, null, 0, false]);
    assert.deepEqual(s.choices, ["resign"]);
  });

  test("answers a move with a move event, and a five with game_over and its line", () => {
    const g = computerGame();
    const [first] = g.move("host", "H8");
    assert.deepEqual([first.type, first.ply, first.side, first.square, first.turn], ["move", 1, "X", "H8", "O"]);
    assert.equal(g.computerToMove(), true);
    assert.equal(refusedCode(() => g.move("host", "I9")), "not_your_turn");
    play(g, ["A1", "I8", "A2", "J8", "A3", "K8", "A5"]);
    const [move, over] = g.move("host", "L8");
    assert.equal(move.turn, undefined);
    assert.deepEqual([over.type, over.status, over.winner, over.termination], ["game_over", "finished", "X", "five"]);
    assert.deepEqual(over.line, ["H8", "I8", "J8", "K8", "L8"]);
    assert.equal(refusedCode(() => g.move("guest", "B1")), "game_over");
  });

  test("says why a blocked five does not win", () => {
    const g = computerGame();
    // O blocks both ends of X's row: D8 and J8; X's five E8-I8 is blocked at both ends.
    play(g, ["E8", "D8", "F8", "J8", "G8", "A1", "H8", "A2"]);
    const [move] = g.move("host", "I8");
    assert.deepEqual(move.note, { kind: "blocked", line: ["E8", "F8", "G8", "H8", "I8"] });
    assert.equal(g.active, true);
  });

  test("takes back the person's last move and the reply at Easy, never at Hard", () => {
    const g = computerGame();
    assert.equal(refusedCode(() => g.undo()), "undo_nothing");
    play(g, ["H8", "A1", "I8", "A2"]);
    assert.equal(g.canUndo(), true);
    const [state] = g.undo();
    assert.deepEqual(state.moves, [["H8", "X"], ["A1", "O"]]);
    assert.equal(state.turn, "X");
    const hard = computerGame({ level: "hard" });
    play(hard, ["H8", "A1"]);
    assert.equal(hard.canUndo(), false);
    assert.equal(refusedCode(() => hard.undo()), "undo_refused");
  });

  test("resigning before both have moved aborts (no record); after, it is a loss with a record", () => {
    const g = computerGame();
    play(g, ["H8"]);
    const [over] = g.resign("host");
    assert.deepEqual([over.status, over.termination, over.winner], ["aborted", "abort", null]);
    assert.equal(g.record(), null);
    const h = computerGame({ level: "medium" });
    play(h, ["H8", "A1"]);
    h.resign("host");
    const rec = h.record();
    assert.deepEqual(rec.result, { winner: "O", termination: "resign" });
    assert.deepEqual([rec.mode, rec.game, rec.preset, rec.level, rec.side, rec.start_moves], ["computer", "caro", "caro-vn", "medium", "X", 0]);
    assert.deepEqual(rec.moves, ["H8", "A1"]);
    assert.deepEqual(rec.rules, CARO_VN);
    assert.equal(rec.opening, null);
    assert.ok(rec.finished_at >= rec.started_at);
  });

  test("the loser moves first in the next game and keeps their mark; the level may change", () => {
    const g = computerGame();
    play(g, ["H8", "A1"]);
    g.resign("host");
    const next = g.next("hard");
    const s = next.state();
    assert.deepEqual([s.you, s.turn, s.bot.level], ["X", "X", "hard"]); // the person lost: moves first
    const won = computerGame();
    play(won, ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"]);
    const after = won.next().state();
    assert.deepEqual([after.you, after.bot.side], ["O", "X"]);
    assert.deepEqual(after.marks, { O: "X", X: "O" }); // the person still draws X, now moving second
    assert.equal(refusedCode(() => computerGame().next()), "not_over");
  });

  test("continues a position from a record: its moves count as start moves", () => {
    const g = computerGame({ moves: ["H8", "I9", "H9"], hostSide: "to-move" });
    const s = g.state();
    assert.deepEqual([s.you, s.turn, s.ply], ["O", "O", 3]);
    assert.equal(g.data.startMoves, 3);
    assert.throws(() => computerGame({ moves: ["H8", "H8"] }));
  });
});

describe("a saved game", () => {
  test("comes back the same from its saved form", () => {
    const g = computerGame();
    play(g, ["H8", "A1", "I8"]);
    const again = new DeviceGame(JSON.parse(JSON.stringify(g.toData())));
    assert.deepEqual(again.state(), g.state());
  });
});

describe("Reversi on one device", () => {
  test("says the pass and gives the mover the turn again, with what each square flips", () => {
    const g = DeviceGame.start({ mode: "local", kind: "reversi", preset: "reversi", rules: {}, opening: "", level: "easy", hostSide: "X", moves: [] });
    assert.deepEqual(g.state().legal.sort(), ["c4", "d3", "e6", "f5"]);
    const [move] = play(g, ["c4", "c3", "f5", "b4", "a4", "a5", "b2", "a3"]);
    assert.deepEqual([move.side, move.passed, move.turn], ["O", "X", "O"]);
    assert.deepEqual(move.flips, ["a4"]);
    assert.deepEqual(move.legal_flips.f4, ["c4", "d4", "e4"]);
    assert.equal(g.state().local, true);
    assert.equal(g.canUndo(), false); // one device: no take-back
  });

  test("against the computer, take-back is allowed at every level", () => {
    const g = DeviceGame.start({ mode: "computer", kind: "reversi", preset: "reversi", rules: {}, opening: "", level: "hard", hostSide: "X", moves: [] });
    play(g, ["c4", "c3"]);
    assert.equal(g.canUndo(), true);
  });
});

describe("the RIF opening", () => {
  test("shows each step, its area and who acts, as the server does, and the swap changes sides", () => {
    const g = DeviceGame.start({ mode: "local", kind: "caro", preset: "renju-rif", rules: RENJU, opening: "rif", level: "easy", hostSide: "X", moves: [] });
    let op = g.state().opening;
    assert.deepEqual([op.kind, op.step, op.actor, op.area], ["rif", "place_1", "X", ["H8"]]);
    assert.equal(refusedCode(() => g.move(g.actorSeat(), "A1")), "not_in_area");
    play(g, ["H8", "H9", "J10"]);
    const s = g.state();
    assert.deepEqual([s.opening.step, s.opening.actor, s.turn], ["swap", "O", "O"]);
    assert.deepEqual(s.opening.log.map((e) => [e.step, e.squares, e.plies]), [["place_1", ["H8"], [1]], ["place_2", ["H9"], [2]], ["place_3", ["J10"], [3]]]);
    g.opening(g.actorSeat(), { kind: "swap" });
    op = g.state().opening;
    assert.equal(op.swapped, true);
    assert.deepEqual(op.log.at(-1), { step: "swap", kind: "swap", by: "X", as: "O", squares: [], color: null, plies: [] });
    assert.equal(op.log[0].by, "O"); // the first seat holds White now
  });

  test("asks the computer with the opening's actions while it runs", () => {
    const g = DeviceGame.start({ mode: "computer", kind: "caro", preset: "renju-rif", rules: RENJU, opening: "rif", level: "easy", hostSide: "O", moves: [] });
    assert.equal(g.computerToMove(), true);
    const msg = g.request(1000);
    assert.deepEqual([msg.op, msg.game, msg.level, msg.budgetMs], ["move", "caro", "easy", 1000]);
    assert.deepEqual(msg.opening, { kind: "rif", rules: RENJU, actions: [] });
    g.move("guest", "H8");
    assert.deepEqual(g.request(1000).moves, ["H8"]);
  });

  test("a finished game's record holds the opening's actions and, apart, every ordinary move after it", () => {
    const g = DeviceGame.start({ mode: "local", kind: "caro", preset: "renju-rif", rules: RENJU, opening: "rif", level: "easy", hostSide: "X", moves: [] });
    play(g, ["H8", "H9", "J10"]);
    g.opening(g.actorSeat(), { kind: "keep" });
    play(g, ["A1"]); // stone 4 (white)
    g.opening(g.actorSeat(), { kind: "offer", squares: ["A15", "B15"] });
    g.opening(g.actorSeat(), { kind: "select", square: "A15" });
    assert.equal(g.state().opening.step, "done");
    assert.equal(g.openingPlies(), 5);
    const after = ["O1", "C3", "O3", "D3", "O5", "E3", "O7", "F3", "O9", "G3"];
    const events = play(g, after);
    assert.equal(events.at(-1).type, "game_over");
    const rec = g.record();
    assert.deepEqual(rec.moves, after);
    assert.equal(rec.opening.kind, "rif");
    assert.deepEqual(rec.opening.actions.map((a) => a.kind), ["place", "place", "place", "keep", "place", "offer", "select"]);
  });

  test("the person's own moves after the opening can be taken back at Easy, the opening's stones cannot", () => {
    const g = DeviceGame.start({ mode: "computer", kind: "caro", preset: "swap2", rules: { ...RENJU, renju: false, exact: true }, opening: "swap2", level: "easy", hostSide: "X", moves: [] });
    for (const sq of ["H8", "H9", "J10"]) g.move("host", sq);
    g.opening("guest", { kind: "choose", color: "O" }); // the computer takes White, which moves next
    assert.equal(g.openingRunning(), false);
    assert.equal(g.openingPlies(), 3);
    g.move("guest", "A1"); // White's (the computer's) stone 4
    g.move("host", "O15"); // the person's first ordinary move
    assert.equal(g.canUndo(), true);
    g.undo();
    assert.equal(g.ply, 4);
    assert.equal(refusedCode(() => g.undo()), "undo_opening"); // only the opening's stones are left
  });
});
