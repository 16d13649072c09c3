// The records queue's logic (static/js/records-queue.js, CONTRACTS.md section 4), on the in-memory
// store, with a stand-in for POST /api/local-games/ that keeps what it stores by id as the real
// endpoint does (only here, in Node; the browser tests use the real endpoint).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  REFUSED, RETRY_MAX_MS, RETRY_MIN_MS, WAITING, cookieValue, createQueue, httpSender, memoryStore, mutex, retryDelay,
} from "../../../static/js/records-queue.js";

const record = (id, extra = {}) => ({
  id, mode: "computer", game: "caro", preset: "caro-vn", level: "hard", side: "X", moves: ["H8", "H9"],
  result: { winner: "X", termination: "resign" }, started_at: 1, finished_at: 2, ...extra,
});

/** A server: stores each id once (201, then 200), refuses records marked `forged` (400), and can
    be told to fail (`down`: no answer; `status`: that status for everything). */
function server() {
  const stored = new Map();
  const s = { stored, posts: [], down: false, status: null, delayMs: 0 };
  s.send = async (body) => {
    s.posts.push(body.id);
    if (s.delayMs) await new Promise((r) => setTimeout(r, s.delayMs));
    if (s.down) throw new TypeError("Failed to fetch");
    if (s.status) return { status: s.status, body: null, retryAfter: "30" };
    if (body.forged) return { status: 400, body: { error: "illegal_move", message: "Nước đi không hợp lệ." }, retryAfter: null };
    const again = stored.has(body.id);
    stored.set(body.id, (stored.get(body.id) || 0) + 1);
    return { status: again ? 200 : 201, body: { url: `/van/${body.id}/`, id: 7 }, retryAfter: null };
  };
  return s;
}

test("a queued record is sent once and removed on 201", async () => {
  const api = server();
  const queue = createQueue({ store: memoryStore(), send: api.send });
  assert.equal(await queue.enqueue(record("a")), true);
  assert.deepEqual((await queue.pending()).map((e) => [e.id, e.state]), [["a", WAITING]]);
  const result = await queue.flush();
  assert.deepEqual(result.sent, [{ id: "a", url: "/van/a/" }]);
  assert.deepEqual(await queue.pending(), []);
  await queue.flush();
  assert.deepEqual(api.posts, ["a"]);
});

test("a record already stored (200) is removed too", async () => {
  const api = server();
  api.stored.set("a", 1);
  const queue = createQueue({ store: memoryStore(), send: api.send });
  await queue.enqueue(record("a"));
  assert.equal((await queue.flush()).sent.length, 1);
  assert.deepEqual(await queue.pending(), []);
});

test("the same id queued twice is kept once", async () => {
  const queue = createQueue({ store: memoryStore(), send: server().send });
  assert.equal(await queue.enqueue(record("a")), true);
  assert.equal(await queue.enqueue(record("a", { moves: ["A1"] })), false);
  const [entry] = await queue.pending();
  assert.deepEqual(entry.record.moves, ["H8", "H9"]);
});

test("a record without its own id is refused at once", async () => {
  const queue = createQueue({ store: memoryStore(), send: server().send });
  await assert.rejects(queue.enqueue({ mode: "local" }), TypeError);
  await assert.rejects(queue.enqueue(null), TypeError);
  await assert.rejects(queue.enqueue(record("")), TypeError);
});

test("a 400 refusal is kept aside with the server's message and never sent again", async () => {
  const api = server();
  const queue = createQueue({ store: memoryStore(), send: api.send });
  await queue.enqueue(record("bad", { forged: true }));
  await queue.enqueue(record("good"));
  const result = await queue.flush();
  assert.deepEqual(result.refused, [{ id: "bad", error: "illegal_move", message: "Nước đi không hợp lệ." }]);
  assert.deepEqual(result.sent.map((s) => s.id), ["good"]);
  const [kept] = await queue.pending();
  assert.equal(kept.id, "bad");
  assert.equal(kept.state, REFUSED);
  assert.equal(kept.message, "Nước đi không hợp lệ.");
  assert.equal(kept.lastStatus, 400);
  await queue.flush();
  assert.deepEqual(api.posts, ["bad", "good"]);
  // only the player removes it, and only a refused one
  await queue.discard("bad");
  assert.deepEqual(await queue.pending(), []);
});

test("a waiting record cannot be discarded", async () => {
  const queue = createQueue({ store: memoryStore(), send: server().send });
  await queue.enqueue(record("a"));
  await queue.discard("a");
  assert.equal((await queue.pending()).length, 1);
});

test("no network: everything waits, the round stops at the first failure, and goes on later", async () => {
  const api = server();
  api.down = true;
  const queue = createQueue({ store: memoryStore(), send: api.send });
  await queue.enqueue(record("a"));
  await queue.enqueue(record("b"));
  const offline = await queue.flush();
  assert.deepEqual(offline.sent, []);
  assert.equal(offline.waiting, 2);
  assert.equal(offline.retryInMs, RETRY_MIN_MS);
  assert.deepEqual(api.posts, ["a"]);
  const [a] = await queue.pending();
  assert.equal(a.attempts, 1);
  assert.equal(a.lastStatus, 0);
  api.down = false;
  assert.deepEqual((await queue.flush()).sent.map((s) => s.id), ["a", "b"]);
  assert.deepEqual([...api.stored.entries()], [["a", 1], ["b", 1]]);
});

test("403, 404, 429 and 5xx keep the record waiting (the server may take it later)", async () => {
  for (const status of [403, 404, 429, 500, 502, 503]) {
    const api = server();
    api.status = status;
    const queue = createQueue({ store: memoryStore(), send: api.send });
    await queue.enqueue(record("a"));
    const result = await queue.flush();
    assert.equal(result.waiting, 1, `status ${status}`);
    assert.ok(result.retryInMs >= RETRY_MIN_MS);
    assert.equal((await queue.pending())[0].state, WAITING);
  }
});

test("two tabs flushing at once send each record once (one lock, one store)", async () => {
  const api = server();
  api.delayMs = 5;
  const store = memoryStore();
  const lock = mutex(); // what the Web Lock is across tabs
  const tab1 = createQueue({ store, send: api.send, lock });
  const tab2 = createQueue({ store, send: api.send, lock });
  for (const id of ["a", "b", "c"]) await tab1.enqueue(record(id));
  const [one, two] = await Promise.all([tab1.flush(), tab2.flush()]);
  assert.equal(one.sent.length + two.sent.length, 3);
  assert.deepEqual(api.posts.sort(), ["a", "b", "c"]);
  assert.deepEqual(await tab2.pending(), []);
});

test("a record queued during a round is sent by the next one; flushes asked for meanwhile share it", async () => {
  const api = server();
  api.delayMs = 5;
  const queue = createQueue({ store: memoryStore(), send: api.send });
  await queue.enqueue(record("a"));
  const first = queue.flush();
  await new Promise((r) => setTimeout(r, 1));
  await queue.enqueue(record("b"));
  const second = queue.flush();
  const third = queue.flush();
  assert.equal(second, third);
  await first;
  await second;
  assert.deepEqual(api.posts, ["a", "b"]);
  assert.deepEqual(await queue.pending(), []);
});

test("retry delays double per failure up to the cap, and follow Retry-After on 429/503", () => {
  assert.equal(retryDelay(0, null, 1), RETRY_MIN_MS);
  assert.equal(retryDelay(500, null, 2), 2 * RETRY_MIN_MS);
  assert.equal(retryDelay(500, null, 30), RETRY_MAX_MS);
  assert.equal(retryDelay(429, "120", 1), 120_000);
  assert.equal(retryDelay(429, "1", 1), RETRY_MIN_MS);
  assert.equal(retryDelay(503, "Wed, 21 Oct 2015 07:30:00 GMT", 1, Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")), 120_000);
  assert.equal(retryDelay(429, "soon", 1), RETRY_MIN_MS);
});

test("the HTTP sender posts JSON with the CSRF cookie's token and reads the answer", async () => {
  const calls = [];
  const fetchStub = async (url, init) => {
    calls.push({ url, init });
    return { status: 201, json: async () => ({ url: "/van/9/", id: 9 }), headers: { get: () => null } };
  };
  const send = httpSender(fetchStub, () => "/api/local-games/", () => cookieValue("a=1; csrftoken=tok%3D; b=2", "csrftoken"));
  const answer = await send(record("a"));
  assert.deepEqual(answer, { status: 201, body: { url: "/van/9/", id: 9 }, retryAfter: null });
  assert.equal(calls[0].url, "/api/local-games/");
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.credentials, "same-origin");
  assert.equal(calls[0].init.headers["X-CSRFToken"], "tok=");
  assert.equal(calls[0].init.headers["Content-Type"], "application/json");
  assert.equal(JSON.parse(calls[0].init.body).id, "a");
  // an answer that is not JSON (a proxy's page) still gives its status
  const html = httpSender(async () => ({ status: 502, json: async () => { throw new SyntaxError("x"); }, headers: { get: () => "5" } }),
    () => "/api/local-games/", () => "");
  assert.deepEqual(await html(record("b")), { status: 502, body: null, retryAfter: "5" });
  assert.equal(cookieValue("", "csrftoken"), "");
});
