// How often the searches read their clock: every `clock.checkEvery` nodes when the clock says
// (the wall clock: 256, so a slow or busy device overshoots a budget by little), else every
// CHECK_EVERY (1,024: the CPU clock's read is a system call). No timing: a clock that counts.

import test from "node:test";
import assert from "node:assert/strict";
import { CHECK_EVERY, WALL_CHECK_EVERY, checkEvery, wallClock } from "../../../static/js/computer/caro/clock.js";
import { SearchBoard } from "../../../static/js/computer/caro/board.js";
import { AlphaBeta } from "../../../static/js/computer/caro/search.js";
import { ThreatSearch } from "../../../static/js/computer/caro/threats.js";

const FREESTYLE = { size: 15, win_length: 5, exact: false, blocked: "none", renju: false };

/** A clock that never reaches a deadline and counts its reads; `every` as its checkEvery. */
function countingReads(every) {
  const clock = () => {
    clock.reads++;
    return 0;
  };
  clock.reads = 0;
  if (every) clock.checkEvery = every;
  return clock;
}

function board(squares) {
  const fb = new SearchBoard(FREESTYLE);
  for (const square of squares) fb.play(fb.index(square));
  return fb;
}

test("the wall clock is read every WALL_CHECK_EVERY nodes, a clock that does not say every CHECK_EVERY", () => {
  assert.equal(checkEvery(wallClock), WALL_CHECK_EVERY);
  assert.ok(WALL_CHECK_EVERY < CHECK_EVERY);
  assert.equal(checkEvery(() => 0), CHECK_EVERY);
  for (const every of [64, undefined]) {
    const clock = countingReads(every);
    const fb = board(["H8", "I9"]);
    const ab = new AlphaBeta(fb, { deadline: 1, clock, width: 10, hard: true, shared: false });
    ab.root(ab.moves(fb.turn, 10), 5);
    const step = every || CHECK_EVERY;
    assert.ok(ab.nodes > 2 * step, `${ab.nodes} nodes`);
    assert.equal(clock.reads, Math.floor(ab.nodes / step), `alpha-beta, every ${step}`);
  }
});

test("the threat search reads its clock every checkEvery nodes too", () => {
  const clock = countingReads(32);
  // X's four stones in two crossing pairs: a VCT search that runs to its node cap
  const ts = new ThreatSearch(board(["H8", "H9", "I8", "I9", "G7", "J10", "F6", "K11"]), { deadline: 1, clock, maxNodes: 3000 });
  ts.vct(10);
  assert.ok(ts.nodes > 4 * 32, `${ts.nodes} nodes`);
  assert.equal(clock.reads, Math.floor(ts.nodes / 32));
});
