// The analysis worker's protocol (static/js/analysis/worker.js) without a worker around it:
// progress then the result, cancel, a newer request replacing an older one, refusals. The
// browser tests (tests/e2e/test_analysis.py) run it in a real module worker.

import test from "node:test";
import assert from "node:assert/strict";

import { createHandler } from "../../../static/js/analysis/worker.js";
import { PRESETS } from "../../../static/js/engine/caro.js";

const RULES = PRESETS.freestyle.rules.toDict();
const GAME = ["H8", "A1", "I8", "A15", "J8", "O1", "B2", "O15", "K8", "G8", "L8"];

function driver() {
  const sent = [];
  let clock = 0;
  // every step is "100 ms" later: each one reports its progress
  const handle = createHandler((m) => sent.push(m), () => Promise.resolve(), () => (clock += 100));
  return { sent, handle };
}

test("an analysis reports its progress, then its result", async () => {
  const { sent, handle } = driver();
  await handle({ id: 1, op: "analyse", game: "caro", rules: RULES, moves: GAME, winner: "X" });
  const progress = sent.filter((m) => m.progress).map((m) => m.progress);
  assert.equal(progress.length, GAME.length + 1);
  assert.deepEqual(progress.at(-1), { done: GAME.length + 1, total: GAME.length + 1 });
  const last = sent.at(-1);
  assert.equal(last.id, 1);
  assert.equal(last.result.game, "caro");
  assert.equal(last.result.plies[7].move.verdict, "missed");
  assert.equal(JSON.stringify(JSON.parse(JSON.stringify(last.result))), JSON.stringify(last.result), "plain JSON");
});

test("a cancelled analysis sends nothing more; a newer request replaces a running one", async () => {
  const { sent, handle } = driver();
  const first = handle({ id: 1, op: "analyse", game: "caro", rules: RULES, moves: GAME });
  handle({ id: 1, op: "cancel" });
  await first;
  assert.ok(sent.every((m) => !m.result), "no result after a cancel");
  assert.ok(sent.filter((m) => m.progress).length <= 2);
  sent.length = 0;
  const older = handle({ id: 2, op: "analyse", game: "caro", rules: RULES, moves: GAME });
  const newer = handle({ id: 3, op: "analyse", game: "reversi", moves: ["f5", "d6", "c3"] });
  await Promise.all([older, newer]);
  assert.deepEqual(sent.filter((m) => m.result).map((m) => m.id), [3]);
  assert.equal(sent.at(-1).result.game, "reversi");
});

test("bad requests and illegal records get an error code, never an exception's text", async () => {
  const { sent, handle } = driver();
  await handle({ id: 1, op: "analyse", game: "chess", moves: [] });
  await handle({ id: 2, op: "analyse", game: "caro", moves: ["H8"] }); // no rules
  await handle({ id: 3, op: "analyse", game: "caro", rules: RULES, moves: ["H8", "H8"] });
  await handle({ id: 4, op: "analyse", game: "reversi", moves: ["a1"] });
  await handle({ id: 5, op: "analyse", game: "caro", rules: { size: 7 }, moves: [] });
  await handle({ id: 6, op: "dance" });
  assert.deepEqual(sent.map((m) => [m.id, m.error]), [[1, "bad_request"], [2, "bad_request"], [3, "illegal_record"],
    [4, "illegal_record"], [5, "bad_request"], [6, "bad_request"]]);
});
