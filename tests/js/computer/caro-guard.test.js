// Hard's guard under an opponent's threat in freestyle (levels.js Hard.guard / lostAfter /
// guardOrder; issue 28, docs/strength.md): the alpha-beta's best move, F10 in the defend puzzle
// gmk-s045 (../shared/cases/gomoku-puzzles.json: Rapfi proved F10 and the other moves below
// lost, F11 and E12 hold), loses to a VCT with threes anywhere of ~57,000 nodes; the guard's wide
// check gets the time the alpha-beta leaves (HARD.wideReserve) and finds it, and the guard then
// tries the earlier iterations' best moves before the rest of the ranking. Deterministic: a
// counting clock (3 ms a read: a node budget), the brain's budget of 1,000 ms; the first search
// of this process (the threat searches' shared table starts empty).

import test from "node:test";
import assert from "node:assert/strict";
import { PRESETS } from "../../../static/js/engine/caro.js";
import { choosePositionMove } from "../../../static/js/computer/caro/index.js";
import { countingClock } from "./judge.js";

const S045 = "H8 I10 G9 H9 G8 I8 G7 G10 J7".split(" "); // O to move
const LOSING = "E11 E5 F10 F6 G5 G6 H10 H7 I11 I7 I9 J10 J6 K7".split(" ");

test("gmk-s045: the guard proves F10 lost to a VCT with threes anywhere and plays a move that holds", () => {
  const stats = {};
  const move = choosePositionMove({
    rules: PRESETS.freestyle.rules.toDict(),
    x: S045.filter((_, k) => k % 2 === 0),
    o: S045.filter((_, k) => k % 2 === 1),
    toMove: "O",
  }, "hard", { budgetMs: 1000, clock: countingClock(), stats });
  const what = `${move}: ${stats.phase}, depth ${stats.depth}, guard ${stats.guard}, wide ${stats.wide}`;
  assert.equal(stats.phase, "defence", what);
  assert.equal(stats.guard[0], "F10:2", what); // the alpha-beta's choice, safe from the zone's VCF / VCT
  assert.match(stats.wide[0], /^F10:\d+L$/, what); // ... lost to the wide VCT
  assert.ok(!LOSING.includes(move), what);
});
