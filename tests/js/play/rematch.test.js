// The rematch line under the board (controls.js rematchView) and the players' names (players.js
// seatName) after a game: a spectator sees no rematch line unless a player asked (the trial of
// 2026-12-06 saw "Waiting for your opponent to accept…" on every spectator's page), and after a
// player left the table nobody is offered a rematch and the seat says who left.

import "./globals.js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { rematchView } from "../../../static/js/play/controls.js";
import { seatName } from "../../../static/js/play/players.js";

const players = { X: { name: "Lan", guest: true }, O: { name: "Minh", guest: true } };
const over = (extra) => ({ status: "finished", winner: "X", termination: "five", players, rematch_offer: null,
  left: null, you: null, ...extra });

describe("rematch after a game", () => {
  test("a spectator sees nothing when no player asked", () => {
    const view = rematchView(over({ you: null }), false, null);
    assert.deepEqual(view, { offer: false, answering: false, waiting: false, note: "" });
  });
  test("a spectator sees who asked, and is offered no button", () => {
    const view = rematchView(over({ you: null, rematch_offer: "O" }), false, null);
    assert.equal(view.note, "Minh wants to play again.");
    assert.equal(view.offer, false);
    assert.equal(view.waiting, false);
  });
  test("a spectator is not told about a declined rematch", () => {
    assert.equal(rematchView(over({ you: null }), false, "O").note, "");
  });
  test("a player who asked waits; the other may accept or decline", () => {
    const asker = rematchView(over({ you: "X", rematch_offer: "X" }), true, null);
    assert.deepEqual(asker, { offer: true, answering: false, waiting: true, note: "Waiting for your opponent to accept…" });
    const other = rematchView(over({ you: "O", rematch_offer: "X" }), true, null);
    assert.deepEqual(other, { offer: true, answering: true, waiting: false, note: "Lan wants to play again." });
  });
  test("a player with no offer pending may ask, with no line", () => {
    assert.deepEqual(rematchView(over({ you: "O" }), true, null), { offer: true, answering: false, waiting: false, note: "" });
    assert.equal(rematchView(over({ you: "X" }), true, "O").note, "Minh declined the rematch.");
  });
  test("nothing while the game is on", () => {
    assert.equal(rematchView(over({ status: "active", you: "X", rematch_offer: "X" }), true, null).offer, false);
  });
  test("after the opponent left the table there is no rematch, and the page says so", () => {
    const view = rematchView(over({ you: "X", termination: "left", left: "O" }), true, null);
    assert.equal(view.offer, false);
    assert.equal(view.answering, false);
    assert.match(view.note, /Your opponent left the table/);
    const spectator = rematchView(over({ termination: "left", left: "O" }), false, null);
    assert.deepEqual(spectator, { offer: false, answering: false, waiting: false, note: "" });
  });
});

describe("the players' names", () => {
  test("the one who left the table is marked once the game is over", () => {
    const state = over({ you: "X", termination: "left", left: "O" });
    assert.equal(seatName(state, "O"), "Minh (left the table)");
    assert.equal(seatName(state, "X"), "Lan (you)");
  });
  test("no mark while nobody left", () => {
    assert.equal(seatName(over({ you: null }), "O"), "Minh");
  });
});
