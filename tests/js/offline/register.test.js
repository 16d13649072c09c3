// The worker's registration (static/js/offline/register.js): what it tells the worker.
import { test } from "node:test";
import assert from "node:assert/strict";

import { digest, registerWorker } from "../../../static/js/offline/register.js";

test("only a SHA-256 digest of the CSRF cookie is sent, and nothing for no cookie", async () => {
  assert.equal(await digest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(await digest(""), "");
});

test("the worker is registered at the root and told the visitor's language and key", async () => {
  const posted = [];
  const registered = [];
  const container = {
    register: async (url, options) => { registered.push([url, options]); return { scope: "/" }; },
    ready: Promise.resolve({ active: { postMessage: (m) => posted.push(m) } }),
  };
  assert.deepEqual(await registerWorker("/sw.js", "en", "abc", container), { scope: "/" });
  await container.ready;
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(registered, [["/sw.js", { scope: "/" }]]);
  assert.deepEqual(posted, [{ type: "visitor", lang: "en", key: await digest("abc") }]);
});

test("nothing is registered where workers are off or missing", async () => {
  const container = { register: async () => assert.fail("registered") };
  assert.equal(await registerWorker("", "vi", "abc", container), null);
  assert.equal(await registerWorker("/sw.js", "vi", "abc", undefined), null);
});
