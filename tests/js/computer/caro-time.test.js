// Caro Hard's time manager (levels.js HARD, predictNextMs; issue 28, docs/strength.md): a quiet
// middle-game move spends most of the budget and never passes it, a forced move stays fast, and
// the next iteration's predicted time follows the effective branching factor. No timing: a fake
// clock that advances a fixed step at every read (the searches read it every `checkEvery` nodes),
// so a budget is a node budget and every run is the same.

import test from "node:test";
import assert from "node:assert/strict";
import { choosePositionMove } from "../../../static/js/computer/caro/index.js";
import { HARD, HARD_UNRETIMED, hardSettings, predictNextMs } from "../../../static/js/computer/caro/levels.js";
import { PRESETS } from "../../../static/js/computer/caro/rules.js";

const BUDGET_MS = 400;
const STEP_MS = 0.25; // fake ms a read of the clock advances
const EVERY = 64; // nodes between two reads: 256 nodes a fake ms, ~100,000 a move

/** A clock that advances STEP_MS at every read; `.now()` reads it without advancing. */
function steppingClock() {
  let t = 0;
  const clock = () => (t += STEP_MS);
  clock.checkEvery = EVERY;
  clock.now = () => t;
  return clock;
}

/** Hard's move in the position after `moves` (squares, X first) under `preset`: {square, ms, stats}. */
function hardMove(preset, moves) {
  const x = moves.filter((_, i) => i % 2 === 0);
  const o = moves.filter((_, i) => i % 2 === 1);
  const clock = steppingClock();
  const stats = {};
  const t0 = clock.now();
  const square = choosePositionMove({ rules: PRESETS[preset].rules, x, o, toMove: moves.length % 2 ? "O" : "X" },
    "hard", { budgetMs: BUDGET_MS, clock, stats, rng: 1 });
  return { square, ms: clock.now() - t0, stats };
}

// Middle-game positions from the public-engine matches (docs/strength.md) with no forced move
// and no decided score for either side: the alpha-beta chooses.
const QUIET = [
  ["freestyle", "H8 I9 I8 G8 J8 K8 J7 H9"],
  ["freestyle", "H8 I9 I8 G8 J9 J7 G9 H10"],
  ["exact-five", "H8 I9 I8 G8 J8 K8 J7 H9 J9 J6"],
  ["caro-vn", "H8 I9 I8 G8 J8 K8 J7 H9"],
  ["renju", "H8 I9 I8 G8 J8 K8 J7 H9"],
];

test("the next iteration's predicted time: the last one's times the effective branching factor, clamped", () => {
  assert.equal(predictNextMs([]), null);
  assert.equal(predictNextMs([10]), 10 * HARD.ebfFirst);
  assert.equal(predictNextMs([10, 30]), 90);
  assert.equal(predictNextMs([10, 30, 90]), 270); // the geometric mean of the last two ratios: sqrt(90 / 10) = 3
  assert.equal(predictNextMs([10, 10, 90]), 270); // (9 and 1: 3)
  assert.equal(predictNextMs([1, 5, 100]), 100 * HARD.ebfMax);
  assert.equal(predictNextMs([100, 100, 100]), 100 * HARD.ebfMin);
  assert.equal(predictNextMs([0, 0, 0]), HARD.iterFloorMs * HARD.ebfMin); // first iterations from the table
});

test("Hard's time manager plans most of the budget and never searches past its limit", () => {
  assert.ok(HARD.share >= 0.85 && HARD.share < HARD.limit && HARD.limit < 1);
  assert.ok(HARD.guardReserve > 0 && HARD.guardReserve <= HARD.wideReserve && HARD.wideReserve < 0.5);
  assert.ok(HARD.moreGuard < HARD.guardReserve && HARD.moreMin < 0.5);
});

test("a quiet middle-game move spends most of the budget and never passes it, under every rule set", () => {
  for (const [preset, line] of QUIET) {
    const { square, ms, stats } = hardMove(preset, line.split(" "));
    const what = `${preset} ${line} -> ${square}: ${ms} fake ms, ${stats.phase}, depth ${stats.depth}, `
      + `iterations ${JSON.stringify(stats.iterMs)}`;
    assert.ok(["search", "defence"].includes(stats.phase), what);
    // the old manager (a new iteration only in the first half, deepening on to 0.72) stopped
    // below 0.75 of the budget
    assert.ok(ms >= 0.8 * BUDGET_MS, what);
    assert.ok(ms <= HARD.limit * BUDGET_MS + STEP_MS, what);
    assert.ok(stats.depth >= 5 && stats.iterMs.length >= 5, what);
  }
});

test("a forced or decided move stays fast: the block of a four, an own five, an own VCT", () => {
  const cases = [
    ["freestyle", "H8 A1 I8 A3 J8 A5 K8", "G8 L8"], // O blocks X's four (either end)
    ["freestyle", "H8 A1 I8 A3 J8 A5 K8 B9", "G8 L8"], // X completes its five
    ["exact-five", "H8 I9 I8 G8 J8 K8 J7 J10 A1 H10 A15", null], // O: a VCT of its own
  ];
  for (const [preset, line, expected] of cases) {
    const { square, ms, stats } = hardMove(preset, line.split(" "));
    const what = `${preset} ${line} -> ${square}: ${ms} fake ms, ${stats.phase}`;
    if (expected) assert.ok(expected.split(" ").includes(square), what);
    assert.ok(ms <= 0.1 * BUDGET_MS, what);
  }
});

test("Hard's retimed phases apply in freestyle and exact five only (Swap2 plays freestyle); the other rule sets keep the earlier ones", () => {
  for (const slug of ["freestyle", "exact-five", "swap2"]) assert.equal(hardSettings(PRESETS[slug].rules), HARD, slug);
  for (const slug of ["caro-vn", "caro-exact", "caro-edge-open", "renju", "renju-rif"]) {
    const settings = hardSettings(PRESETS[slug].rules);
    assert.equal(settings, HARD_UNRETIMED, slug);
    assert.ok(settings.quietShare > 0 && settings.defenceMoves === 16 && settings.guardByIterations === false, slug);
  }
  assert.ok(!HARD.quietShare && HARD.defenceMoves === 12, "the retimed settings");
});
