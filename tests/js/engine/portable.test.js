// The engine's files run in the page, in a module Web Worker and in Node: no Node-only API in
// them (no process, Buffer, require, __dirname or node: imports), only relative imports of each
// other, and every file a plain ES module. (Chromium runs them for real in
// tests/e2e/test_engine_in_browser.py.)

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { ROOT } from "../helpers.js";

const ENGINE = path.join(ROOT, "static", "js", "engine");
const NODE_ONLY = [/\bprocess\./, /\bBuffer\b/, /\brequire\(/, /__dirname|__filename/, /from\s+["']node:/, /import\(["']node:/];

for (const name of fs.readdirSync(ENGINE).filter((f) => f.endsWith(".js"))) {
  test(`${name} uses no Node-only API and imports only its siblings`, () => {
    const code = fs.readFileSync(path.join(ENGINE, name), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    for (const pattern of NODE_ONLY) assert.doesNotMatch(code, pattern);
    for (const [, target] of code.matchAll(/(?:import|export)[^"']*from\s+["']([^"']+)["']/g)) {
      assert.match(target, /^\.\/[a-z]+\.js$/, `${name} imports ${target}`);
      assert.ok(fs.existsSync(path.join(ENGINE, target)), target);
    }
  });
}

test("static/js/package.json makes Node read the .js files as ES modules", () => {
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ROOT, "static", "js", "package.json"), "utf8")), { type: "module" });
});
