// The worker's message protocol (static/js/computer/worker.js), through its handler in Node.

import test from "node:test";
import assert from "node:assert/strict";
import { createHandler } from "../../../static/js/computer/worker.js";
import { engine, needsEngine } from "./judge.js";

const FREESTYLE = { size: 15, win_length: 5, exact: false, blocked: "none", renju: false };

function harness() {
  const out = [];
  return { out, handle: createHandler((message) => out.push(message)) };
}

test("a caro move: the stones alternate X, O from the first; the answer is a free square", async () => {
  const { out, handle } = harness();
  // O (to move) must block X's four on row 8
  await handle({ id: 7, op: "move", game: "caro", rules: FREESTYLE, moves: ["H8", "A1", "I8", "A3", "J8", "A5", "K8"],
    opening: null, level: "medium", budgetMs: 100 });
  assert.equal(out.length, 1);
  assert.equal(out[0].id, 7);
  assert.ok(["G8", "L8"].includes(out[0].square), JSON.stringify(out[0]));
});

test("stats: true adds what Hard's search reports (for benches); without it the answer is the square alone",
  async () => {
    const { out, handle } = harness();
    const base = { op: "move", game: "caro", rules: FREESTYLE, moves: ["H8", "I9", "I8", "G8"], opening: null,
      level: "hard", budgetMs: 60 };
    await handle({ ...base, id: 1, stats: true });
    await handle({ ...base, id: 2 });
    assert.equal(typeof out[0].square, "string");
    // (the worker's clock is the wall clock: on a loaded machine the search may stop at depth 0)
    const { depth, nodes, phase } = out[0].stats;
    assert.ok(Number.isInteger(depth) && depth >= 0 && Number.isInteger(nodes) && nodes >= 0, JSON.stringify(out[0]));
    assert.equal(typeof phase, "string");
    assert.deepEqual(Object.keys(out[1]).sort(), ["id", "square"]);
  });

test("answers keep the order of the requests; a cancelled request gets no answer", async () => {
  const { out, handle } = harness();
  const ask = (id, level) => handle({ id, op: "move", game: "caro", rules: FREESTYLE, moves: ["H8"], opening: null, level,
    budgetMs: 30 });
  ask(1, "easy");
  ask(2, "hard");
  handle({ id: 2, op: "cancel" }); // before it starts: never computed
  await ask(3, "medium");
  assert.deepEqual(out.map((m) => m.id), [1, 3]);
  assert.ok(out.every((m) => typeof m.square === "string"));
  // cancelled while it is computed: the cancel comes in before the answer goes out
  const running = ask(4, "hard");
  setTimeout(() => handle({ id: 4, op: "cancel" }), 0);
  await running;
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(out.map((m) => m.id), [1, 3]);
});

test("bad requests get an error, never a move", async () => {
  const { out, handle } = harness();
  const base = { op: "move", game: "caro", rules: FREESTYLE, moves: [], opening: null, level: "hard", budgetMs: 20 };
  await handle({ ...base, id: 1, rules: { ...FREESTYLE, size: 16 } });
  await handle({ ...base, id: 2, level: "grandmaster" });
  await handle({ ...base, id: 3, moves: ["H8", "H8"] });
  await handle({ ...base, id: 4, moves: ["Z99"] });
  await handle({ ...base, id: 5, moves: ["A1", "H8", "B1", "H9", "C1", "H10", "D1", "H11", "E1"] }); // X has five
  await handle({ ...base, id: 6, game: "go" });
  await handle({ id: 8, op: "frobnicate" });
  assert.deepEqual(out.map((m) => m.id), [1, 2, 3, 4, 5, 6, 8]);
  for (const m of out) assert.equal(typeof m.error, "string", JSON.stringify(m));
  assert.match(out[0].error, /size/);
  assert.match(out[4].error, /over/);
});

test("an opening step: the machine's dict in, an action it accepts out", { skip: needsEngine }, async () => {
  const { out, handle } = harness();
  const machine = new engine.OPENINGS.swap2(engine.PRESETS.swap2.rules);
  for (const square of ["H8", "J10", "G10"]) machine.apply({ kind: "place", square });
  await handle({ id: 9, op: "move", game: "caro", rules: machine.board.rules.toDict(), moves: machine.board.moves,
    opening: machine.toDict(), level: "hard", budgetMs: 100 });
  assert.equal(out[0].id, 9);
  assert.ok(out[0].action, JSON.stringify(out[0]));
  machine.apply(out[0].action);
  assert.equal(machine.state, "done");
});
