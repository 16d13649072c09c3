// The words "My games" shows for a game this browser still holds (static/js/offline/pending-records.js).
import { test } from "node:test";
import assert from "node:assert/strict";

// The JavaScript catalogue's globals (what /jsi18n/ defines), marking what they translated.
globalThis.gettext = (s) => `«${s}»`;
globalThis.ngettext = (s, p, n) => `«${n === 1 ? s : p}»`;
globalThis.interpolate = (fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_m, k) => obj[k]);
const { describe } = await import("../../../static/js/offline/pending-records.js");
const time = (ms) => `t${ms}`;
const entry = (record, extra = {}) => ({ id: record.id, record, state: "waiting", message: "", ...extra });

test("a computer game: level, board, moves, finish time, the player's result, waiting", () => {
  const words = describe(entry({ id: "a", mode: "computer", game: "caro", level: "hard", side: "O",
    rules: { size: 15 }, moves: ["H8", "H9", "H10"], result: { winner: "O" }, finished_at: 5 }), time);
  assert.deepEqual(words, {
    title: "«Against the computer («Hard»)»",
    detail: "Caro 15×15 · «3 moves» · t5",
    result: "«You won»",
    state: "«Waiting to be sent»",
  });
  const lost = describe(entry({ id: "b", mode: "computer", game: "caro", level: "easy", side: "X", rules: { size: 19 },
    moves: ["J10"], result: { winner: "O" } }), time);
  assert.equal(lost.result, "«You lost»");
  assert.equal(lost.detail, "Caro 19×19 · «1 move»");
});

test("a one-device Reversi game names the winning colour; a draw is a draw", () => {
  const words = describe(entry({ id: "c", mode: "local", game: "reversi", moves: [], result: { winner: "X" } }), time);
  assert.equal(words.title, "«Two players on one device»");
  assert.equal(words.result, "««Black» won»");
  assert.equal(words.detail, "«Reversi» · «0 moves»");
  const draw = describe(entry({ id: "d", mode: "local", game: "caro", rules: { size: 15 }, moves: [], result: { winner: null } }), time);
  assert.equal(draw.result, "«Draw»");
});

test("a refused game says why, with the server's words or a sentence of our own", () => {
  const base = { id: "e", mode: "local", game: "caro", rules: { size: 15 }, moves: [], result: { winner: "X" } };
  assert.equal(describe(entry(base, { state: "refused", message: "Nước đi không hợp lệ." }), time).state,
    "«Refused by the server: Nước đi không hợp lệ.»");
  assert.equal(describe(entry(base, { state: "refused" }), time).state,
    "«Refused by the server: «the record is not valid.»»");
});
