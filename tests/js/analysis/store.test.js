// Results kept in the browser (static/js/analysis/store.js): the key, and the localStorage
// fallback where IndexedDB is missing (Node has none; the browser tests use IndexedDB).

import test from "node:test";
import assert from "node:assert/strict";

import { KEEP, analysisKey, hash, load, save } from "../../../static/js/analysis/store.js";

test("the key names the game, the analysis version and the moves", () => {
  const key = analysisKey(42, 1, ["H8", "I9"]);
  assert.match(key, /^42:v1:[0-9a-f]{8}$/);
  assert.equal(analysisKey(42, 1, ["H8", "I9"]), key);
  assert.notEqual(analysisKey(42, 2, ["H8", "I9"]), key);
  assert.notEqual(analysisKey(42, 1, ["H8", "I9", "J10"]), key);
  assert.notEqual(analysisKey(43, 1, ["H8", "I9"]), key);
  assert.notEqual(hash("H8,I9"), hash("H8,I1"));
});

test("without IndexedDB the results go to localStorage, the newest KEEP of them", async () => {
  const items = new Map(); // Web Storage keeps the order of insertion
  globalThis.localStorage = {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
    removeItem: (k) => items.delete(k),
    key: (i) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
  try {
    assert.equal(await load("1:v1:0"), null);
    assert.equal(await save("1:v1:0", { total: 3 }), true);
    assert.deepEqual(await load("1:v1:0"), { total: 3 });
    for (let i = 2; i < KEEP + 5; i++) await save(`${i}:v1:0`, { total: i });
    assert.equal([...items.keys()].length, KEEP);
    assert.equal(await load("1:v1:0"), null, "the oldest went first");
    assert.deepEqual(await load(`${KEEP + 4}:v1:0`), { total: KEEP + 4 });
  } finally {
    delete globalThis.localStorage;
  }
});
