// The game an on-device page's address asks for (static/js/play/device-config.js): the rules of
// the chosen preset with the chosen numbers, the site's defaults for anything missing or not on its
// lists, and a position to continue from.

import "./globals.js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { gameConfig, parseMoves } from "../../../static/js/play/device-config.js";

const R = (size, win) => ({ size, win_length: win, exact: false, blocked: "opponent_or_edge", renju: false });
const KNOWN = {
  default: "caro-vn",
  presets: { "caro-vn": { size: 15, win_length: 5 }, "renju-rif": { size: 15, win_length: 5 }, reversi: {} },
  choices: {
    "caro-vn|15|5": { rules: R(15, 5), opening: "" },
    "caro-vn|19|5": { rules: R(19, 5), opening: "" },
    "caro-vn|19|6": { rules: R(19, 6), opening: "" },
    "renju-rif|15|5": { rules: { ...R(15, 5), renju: true, blocked: "none" }, opening: "rif" },
    reversi: { rules: {}, opening: "" },
  },
};
const ask = (query, mode = "computer", random) => gameConfig(mode, new URLSearchParams(query), KNOWN, random);

describe("the page's address", () => {
  test("gives the preset's rules with the chosen board, the level and the side", () => {
    const { config, note } = ask("preset=caro-vn&size=19&win_length=6&level=hard&side=O");
    assert.deepEqual([config.kind, config.rules.size, config.rules.win_length, config.level, config.hostSide], ["caro", 19, 6, "hard", "O"]);
    assert.equal(note, "");
  });
  test("falls back to the defaults for what is missing or unknown", () => {
    const { config } = ask("preset=nope&size=99&level=expert&side=Z");
    assert.deepEqual([config.preset, config.rules.size, config.level, config.hostSide], ["caro-vn", 15, "easy", "X"]);
    assert.equal(ask("preset=caro-vn&size=19&win_length=4").config.rules.win_length, 5); // 19×19 four: not offered
  });
  test("keeps Renju on its own numbers and carries its opening procedure", () => {
    const { config } = ask("preset=renju-rif&size=19");
    assert.deepEqual([config.rules.size, config.opening], [15, "rif"]);
  });
  test("draws a random side when asked", () => {
    assert.equal(ask("side=random", "computer", () => 0.2).config.hostSide, "X");
    assert.equal(ask("side=random", "computer", () => 0.7).config.hostSide, "O");
  });
  test("reads a position to continue: the person then plays the side to move", () => {
    const { config } = ask("preset=reversi&moves=f5,d6");
    assert.deepEqual([config.kind, config.moves, config.hostSide], ["reversi", ["f5", "d6"], "to-move"]);
    assert.deepEqual(ask("moves=H8,I9&side=X").config.hostSide, "X");
    const bad = ask("moves=H8,<script>");
    assert.deepEqual(bad.config.moves, []);
    assert.ok(bad.note.includes("cannot be continued"));
    assert.deepEqual(parseMoves(""), []);
    assert.equal(parseMoves("A01"), null);
  });
});
