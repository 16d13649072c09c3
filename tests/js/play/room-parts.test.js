// The room's parts added by issue 30: a rated game's ratings and stakes in words (players.js) and
// the record page of a game that is over in the page's language (controls.js).

import "./globals.js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { recordLink } from "../../../static/js/play/controls.js";
import { changeRating, stakeRating, stakeWords } from "../../../static/js/play/players.js";

describe("stakes of a rated game in play", () => {
  test("a provisional rating is marked, an established one is not", () => {
    assert.equal(stakeRating({ rating: 1200, games: 0, provisional: true }), "1200?");
    assert.equal(stakeRating({ rating: 1540, games: 40, provisional: false }), "1540");
  });
  test("the three changes are signed, with a true minus and ±0", () => {
    assert.equal(stakeWords({ win: 22, draw: 0, loss: -18 }), "win +22 · draw \u00b10 · loss \u221218");
    assert.equal(stakeWords({ win: 9, draw: -1, loss: -11 }), "win +9 · draw \u22121 · loss \u221211");
  });
});

describe("the new rating after a rated game", () => {
  test("a player still provisional keeps the ? on the new rating", () => {
    assert.equal(changeRating({ before: 1200, after: 1220, delta: 20, games: 1, provisional: true }), "1220? (+20)");
    assert.equal(changeRating({ before: 1200, after: 1180, delta: -20, games: 9, provisional: true }), "1180? (\u221220)");
  });
  test("an established player's new rating has no mark", () => {
    assert.equal(changeRating({ before: 1540, after: 1531, delta: -9, games: 10, provisional: false }), "1531 (\u22129)");
  });
});

describe("record link", () => {
  const urls = { vi: "/van/7/", en: "/en/game/7/" };
  test("follows the page's language, Vietnamese first", () => {
    assert.equal(recordLink(urls, "en"), "/en/game/7/");
    assert.equal(recordLink(urls, "en-us"), "/en/game/7/");
    assert.equal(recordLink(urls, "vi"), "/van/7/");
    assert.equal(recordLink(urls, ""), "/van/7/");
    assert.equal(recordLink({ vi: "/van/7/" }, "en"), "/van/7/");
  });
});
