// The page's words and pure helpers (static/js/play: words, moves, clocks, socket, offers):
// what the status line, the move list and the clocks say for a state, and the socket's rules.

import "./globals.js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { clockTimes } from "../../../static/js/play/clocks.js";
import { moveEntries, stateEntries } from "../../../static/js/play/moves.js";
import { drawWaitText, sortChoices } from "../../../static/js/play/offers.js";
import { eventOrder, retryDelay } from "../../../static/js/play/socket.js";
import { firstMoveNote, mmss, playerName, ruleText, signedDelta, statusText } from "../../../static/js/play/words.js";

const caro = (extra = {}) => ({ kind: "caro", status: "active", rules: { size: 15, win_length: 5, blocked: "opponent_or_edge" },
  players: { X: { name: "Lan" }, O: { bot: "hard" } }, marks: { X: "X", O: "O" }, moves: [], turn: "X", ...extra });

describe("status line", () => {
  test("says whose turn it is, to the player and about the computer", () => {
    assert.equal(statusText(caro({ you: "X" }), true), "Your turn.");
    assert.equal(statusText(caro({ you: "X", turn: "O", bot: { side: "O", level: "hard" } }), true), "The computer is thinking…");
    assert.equal(statusText(caro({ local: true, turn: "O" }), true), "O to move.");
  });
  test("tells a visitor without an account that an accounts-only seat is not theirs", () => {
    const waiting = caro({ status: "waiting", you: null });
    assert.equal(statusText(waiting, false), "A seat is free: take it to play, or just watch.");
    assert.equal(statusText(waiting, false, true),
      "A seat is free for a player with an account: sign up or log in to play, or just watch.");
    assert.equal(statusText(caro({ status: "waiting", you: "X" }), true, true), "Waiting for an opponent: share the link or the code.");
  });
  test("gives the result and why, for the player and for a spectator", () => {
    const won = caro({ status: "finished", winner: "X", termination: "five", line: ["A1", "B1", "C1", "D1", "E1"], you: "X", turn: null });
    assert.equal(statusText(won, true), "You won with 5 in a row (5 or more to win, not blocked at both ends)!");
    assert.equal(statusText({ ...won, you: null }, false), "Lan (X) won with 5 in a row (5 or more to win, not blocked at both ends).");
    assert.equal(statusText(caro({ status: "finished", winner: null, termination: "discs", kind: "reversi" }), false), "Draw: as many discs each.");
    assert.equal(statusText(caro({ status: "aborted", termination: "abort" }), true),
      "Game aborted: it ended before both players had moved. Nobody wins or loses.");
  });
  test("names the sides of one device by side, and the computer by level", () => {
    assert.equal(playerName(caro({ local: true }), "O"), "O side");
    assert.equal(playerName(caro(), "O"), "Computer (Hard)");
    assert.equal(ruleText({ rules: { win_length: 4, exact: true, blocked: "none" } }), "exactly 4 to win");
  });
  test("writes times rounded up and rating changes with a true minus", () => {
    assert.deepEqual([mmss(0), mmss(1), mmss(59_001), mmss(61_000)], ["0:00", "0:01", "1:00", "1:01"]);
    assert.deepEqual([signedDelta(12), signedDelta(-8), signedDelta(0)], ["+12", "\u22128", "\u00b10"]);
  });
});

describe("move list", () => {
  test("numbers pairs and shows a pass where a side moved twice", () => {
    const entries = moveEntries([["d3", "X"], ["c3", "O"], ["c4", "O"]], true, "X");
    assert.deepEqual(entries.map((e) => e.square), ["d3", "c3", null, "c4"]);
    assert.equal(entries[2].side, "X");
  });
  test("shows the pass of the side to move again at the end", () => {
    const entries = moveEntries([["d3", "X"], ["c3", "O"]], true, "O");
    assert.deepEqual(entries.map((e) => [e.side, e.square]), [["X", "d3"], ["O", "c3"], ["X", null]]);
  });
  test("caro has no passes: a RIF opening's next stone or offered 5th moves by the same side are not a pass", () => {
    // After stone 1 the first player places stone 2 too; after stone 4 X offers two 5th moves.
    assert.deepEqual(moveEntries([["H8", "X"]], true, "X", false).map((e) => e.square), ["H8"]);
    const four = [["H8", "X"], ["H9", "O"], ["I9", "X"], ["J10", "O"]];
    assert.deepEqual(moveEntries(four, true, "O", false).map((e) => e.square), ["H8", "H9", "I9", "J10"]);
    const rif = caro({ moves: [["H8", "X"]], turn: "X", opening: { kind: "rif", done: false } });
    assert.deepEqual(stateEntries(rif).map((e) => e.square), ["H8"]);
    assert.deepEqual(stateEntries(caro({ moves: four, turn: "O" })).map((e) => e.square), ["H8", "H9", "I9", "J10"]);
    // Reversi's real passes keep showing.
    const reversi = caro({ kind: "reversi", moves: [["d3", "X"], ["c3", "O"], ["c4", "O"]], turn: "O" });
    assert.deepEqual(stateEntries(reversi).map((e) => e.square), ["d3", "c3", null, "c4", null]);
  });
});

describe("clocks", () => {
  test("count the mover down to the deadline, never above the move's time; banks stand still", () => {
    const state = { status: "active", turn: "X", deadline_ms: 100_000, move_time_ms: 30_000, banks: null };
    assert.deepEqual(clockTimes(state, 90_000), { X: 10_000, O: null });
    assert.deepEqual(clockTimes(state, 0), { X: 30_000, O: null });
    const banked = { status: "active", turn: "O", deadline_ms: 50_000, banks: { X: 120_000, O: 40_000 } };
    assert.deepEqual(clockTimes(banked, 20_000), { X: 120_000, O: 30_000 });
  });
});

describe("offers", () => {
  test("sorts the choices into offers, answers and absence decisions; spectators get none", () => {
    const state = { status: "active", choices: ["resign", "offer_draw", "accept_undo", "decline_undo", "claim_win"] };
    assert.deepEqual(sortChoices(state, true), { offers: ["offer_draw"], answers: ["accept_undo", "decline_undo"], decisions: ["claim_win"] });
    assert.deepEqual(sortChoices(state, false), { offers: [], answers: [], decisions: [] });
  });
  test("says why a player may not offer a draw again yet, and until when", () => {
    const after = (extra) => ({ status: "active", you: "X", ply: 5, draw_offer: null, choices: ["resign", "leave"],
      draw_again: { X: 22, O: null }, ...extra });
    assert.equal(drawWaitText(after(), true),
      "Your draw offer was not accepted: you may offer a draw again after 17 more moves (yours and your opponent's).");
    assert.equal(drawWaitText(after({ ply: 21 }), true),
      "Your draw offer was not accepted: you may offer a draw again after 1 more move (yours or your opponent's).");
    assert.equal(drawWaitText(after({ ply: 22, choices: ["offer_draw"] }), true), "");
    assert.equal(drawWaitText(after({ draw_offer: "X" }), true), ""); // still waiting for the answer
    assert.equal(drawWaitText(after({ you: "O" }), true), ""); // never offered one
    assert.equal(drawWaitText(after({ you: null }), false), ""); // a spectator
    assert.equal(drawWaitText(after({ draw_again: undefined }), true), "");
  });
});

describe("socket", () => {
  test("applies only the next version of the current game", () => {
    const game = { game_id: 7, version: 4 };
    assert.equal(eventOrder(game, { game_id: 7, version: 5 }), "next");
    assert.equal(eventOrder(game, { game_id: 7, version: 6 }), "gap");
    assert.equal(eventOrder(game, { game_id: 7, version: 4 }), "gap");
    assert.equal(eventOrder(game, { game_id: 8, version: 1 }), "other");
  });
  test("waits 0.5 s doubling up to 8 s, ±25 %, between reconnects", () => {
    assert.equal(retryDelay(0, 0.5), 500);
    assert.equal(retryDelay(3, 0.5), 4000);
    assert.equal(retryDelay(9, 0.5), 8000);
    assert.equal(retryDelay(0, 0), 375);
    assert.equal(retryDelay(0, 1), 625);
  });
});

describe("first move on the clock", () => {
  // Two people, a clock of 1:00 a move started with the game (a ranked pairing: stakes present).
  const ranked = (extra = {}) => caro({ players: { X: { name: "Lan" }, O: { name: "Minh" } }, ply: 0, move_time_ms: 60000,
    deadline_ms: 1_700_000_060_000, stakes: { X: {}, O: {} }, ...extra });
  test("tells the first mover their time runs already, and that running out aborts without rating", () => {
    assert.equal(firstMoveNote(ranked({ you: "X" })),
      "The clock is already running: make your first move within 1:00, or the game is aborted and no rating changes.");
    assert.equal(firstMoveNote(ranked({ you: "X", stakes: undefined })),
      "The clock is already running: make your first move within 1:00, or the game is aborted.");
  });
  test("tells the other player and a spectator whose first move is on the clock", () => {
    const text = "The clock is already running: Lan has 1:00 for their first move. A first move not made in time aborts the game, and no rating changes.";
    assert.equal(firstMoveNote(ranked({ you: "O" })), text);
    assert.equal(firstMoveNote(ranked({ you: null })), text);
  });
  test("after X's move it is O's first move; once both have moved, or over, nothing", () => {
    assert.match(firstMoveNote(ranked({ you: "O", turn: "O", ply: 1 })), /make your first move within 1:00/);
    assert.equal(firstMoveNote(ranked({ you: "X", ply: 2 })), "");
    assert.equal(firstMoveNote(ranked({ you: "X", status: "aborted", turn: null, deadline_ms: null })), "");
  });
  test("a total-time clock gives the bank; no clock, the computer or one device say nothing", () => {
    assert.match(firstMoveNote(ranked({ you: "X", move_time_ms: 0, bank_ms: 300000, banks: { X: 300000, O: 300000 } })), /within 5:00/);
    assert.equal(firstMoveNote(ranked({ you: "X", deadline_ms: null })), "");
    assert.equal(firstMoveNote(ranked({ you: "X", bot: { side: "O", level: "hard" } })), "");
    assert.equal(firstMoveNote(ranked({ local: true })), "");
  });
  test("with an opening procedure, a step of each player counts as their first move", () => {
    const opening = (by) => ({ kind: "swap2", log: by.map((side) => ({ by: side })) });
    assert.notEqual(firstMoveNote(ranked({ you: "X", ply: 3, opening: opening(["X"]) })), "");
    assert.equal(firstMoveNote(ranked({ you: "X", ply: 3, opening: opening(["X", "O"]) })), "");
  });
});
