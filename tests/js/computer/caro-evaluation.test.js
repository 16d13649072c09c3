// Hard's caro evaluation (static/js/computer/caro/evaluation.js): the search board keeps the sums of
// the cells' combination values incrementally, equal to a count from scratch after any sequence of
// moves and take-backs in every rule set; the combination index, pairs and Renju's foul shapes; and
// the fitted weights judge the basic shapes the right way round.

import test from "node:test";
import assert from "node:assert/strict";
import { SearchBoard } from "../../../static/js/computer/caro/board.js";
import { PRESETS } from "../../../static/js/computer/caro/rules.js";
import { NONE, ONE, TWO, CTHREE, THREE, FOUR, OPEN4, FIVE } from "../../../static/js/computer/caro/patterns.js";
import {
  COMBOS, PAIRS, cellTables, evaluate, foulShape, pairIndex, topTwo,
  LINE_ATTACK, LINE_DEFENCE, PAIR_ATTACK, GLOBAL,
} from "../../../static/js/computer/caro/evaluation.js";
import { AlphaBeta } from "../../../static/js/computer/caro/search.js";
import { mulberry32 } from "../../../static/js/computer/rng.js";

/** The sums over the empty cells of the combination values, counted from scratch. */
function fromScratch(fb) {
  const t = cellTables(fb.rules);
  const attack = [0, 0, 0];
  const defence = [0, 0, 0];
  for (const q of fb.geo.reals) {
    if (fb.cells[q] !== 0) continue;
    for (const s of [1, 2]) {
      const shift = s === 1 ? 0 : 3;
      let idx = 0;
      for (let d = 0; d < 4; d++) idx |= ((fb.codes[d * fb.NC + q] >> shift) & 7) << (3 * d);
      attack[s] += t.attack[s][idx];
      defence[s] += t.defence[s][idx];
    }
  }
  return { attack, defence };
}

test("the board's combination sums equal a count from scratch after plays and take-backs, every rule set", () => {
  for (const [slug, preset] of Object.entries(PRESETS)) {
    const rules = preset.rules;
    const next = mulberry32(7 + slug.length);
    const fb = new SearchBoard(rules);
    fb.play(fb.candidates()[0]);
    for (let step = 0; step < 120; step++) {
      const cands = fb.candidates().filter((q) => fb.legal(q, fb.turn));
      if (!cands.length || fb.count(1, FIVE) || fb.count(2, FIVE)) break;
      if (fb.history.length > 3 && (next() >>> 0) % 4 === 0) fb.undo();
      else fb.play(cands[(next() >>> 0) % cands.length]);
      const want = fromScratch(fb);
      for (const s of [1, 2]) {
        assert.equal(fb.cellAttack[s], want.attack[s], `${slug}: attack sum of side ${s} after ${fb.history.length} plies`);
        assert.equal(fb.cellDefence[s], want.defence[s], `${slug}: defence sum of side ${s}`);
      }
    }
    while (fb.history.length) fb.undo();
    assert.equal(fb.cellAttack[1], 0, `${slug}: an empty board sums to nothing`);
    assert.equal(fb.cellDefence[2], 0);
  }
});

test("combinations: the two strongest classes, the pair index and Renju's foul shapes", () => {
  const idx = (...c) => c.reduce((acc, k, d) => acc | (k << (3 * d)), 0);
  assert.deepEqual(topTwo(idx(THREE, NONE, FOUR, ONE)), [FOUR, THREE]);
  assert.deepEqual(topTwo(idx(THREE, THREE, NONE, NONE)), [THREE, THREE]);
  const seen = new Set();
  for (let a = ONE; a <= OPEN4; a++) for (let b = ONE; b <= a; b++) seen.add(pairIndex(a, b));
  assert.equal(seen.size, PAIRS);
  assert.equal(Math.min(...seen), 0);
  assert.equal(Math.max(...seen), PAIRS - 1);
  assert.equal(pairIndex(THREE, NONE), -1);
  assert.equal(pairIndex(FIVE, FOUR), -1);
  assert.ok(foulShape(idx(THREE, THREE, NONE, NONE)));
  assert.ok(foulShape(idx(FOUR, OPEN4, NONE, NONE)));
  assert.ok(!foulShape(idx(FOUR, THREE, NONE, NONE)));
  // Renju: X's foul combinations keep only their lines' values; O's and freestyle's get the pair
  const renju = cellTables(PRESETS.renju.rules);
  const free = cellTables(PRESETS.freestyle.rules);
  const tt = idx(THREE, THREE, ONE, NONE);
  const lines = 2 * LINE_ATTACK[THREE] + LINE_ATTACK[ONE];
  assert.equal(renju.attack[1][tt], lines);
  assert.equal(renju.attack[2][tt], lines + PAIR_ATTACK[pairIndex(THREE, THREE)]);
  assert.equal(free.attack[1][tt], renju.attack[2][tt]);
  assert.equal(renju.attack[1].length, COMBOS);
});

test("the fitted weights: stronger shapes are worth more, the other side's threats cost", () => {
  for (const [a, b] of [[CTHREE, ONE], [THREE, CTHREE], [OPEN4, FOUR]]) {
    assert.ok(LINE_ATTACK[a] > LINE_ATTACK[b], `attack: class ${a} over ${b}`);
    assert.ok(LINE_DEFENCE[a] < LINE_DEFENCE[b], `defence: class ${a} costs more than ${b}`);
  }
  assert.ok(LINE_ATTACK[TWO] >= 0 && LINE_DEFENCE[OPEN4] < 0);
  assert.ok(GLOBAL[1] > 0 && GLOBAL[3] > 0, "my four-three and three-three count for me");
  assert.ok(GLOBAL[6] < 0, "the other side's double threat counts against me");
});

test("Hard's alpha-beta scores a leaf with evaluation.js; an open three to make is good, the other side's is bad", () => {
  const rules = PRESETS.freestyle.rules;
  // X: H8 I8 J8 (an open three: X to move makes an open four); O: H9 I9 (a two)
  const fb = SearchBoard.fromNames(rules, { x: ["H8", "I8", "J8"], o: ["H9", "I9", "K12"], toMove: "X" });
  const ab = new AlphaBeta(fb, { hard: true });
  assert.equal(ab.evaluate(), evaluate(fb));
  assert.ok(evaluate(fb) > 0, `X to move with an open three: ${evaluate(fb)}`);
  fb.turn = 2;
  assert.ok(evaluate(fb) < 0, `O to move against an open three: ${evaluate(fb)}`);
});
