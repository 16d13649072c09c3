// The live socket of the featured game and the lobby (static/js/live-socket.js) with a fake window
// (WebSocket, navigator, events) and Node's mock timers: no attempt while offline, the socket
// dropped on `offline` and opened at once on `online`, a back-off from 1 s up to 60 s while the
// server is away (also for a server that accepts and closes at once), and no retry after a final
// close code.

import assert from "node:assert/strict";
import { beforeEach, describe, mock, test } from "node:test";

const { FINAL, RETRY_FIRST_MS, RETRY_MAX_MS, RETRY_TOO_MANY_FIRST_MS, TOO_MANY, keepLive, retryDelay } = await import("../../../static/js/live-socket.js");

class FakeSocket {
  constructor(url) {
    this.url = url;
    this.handlers = {};
    this.sent = [];
    FakeSocket.made.push(this);
  }
  addEventListener(type, fn) { (this.handlers[type] ||= []).push(fn); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close(code) { this.closedWith = code; }
  fire(type, data = {}) { for (const fn of this.handlers[type] || []) fn(data); }
}

function fakeWindow(onLine = true) {
  const listeners = {};
  return {
    navigator: { onLine },
    WebSocket: FakeSocket,
    setTimeout, clearTimeout, setInterval, clearInterval,
    addEventListener(type, fn) { (listeners[type] ||= []).push(fn); },
    emit(type) { for (const fn of listeners[type] || []) fn(); },
  };
}

function keeper(win) {
  const seen = { frames: [], status: [] };
  const live = keepLive(() => "ws://test/ws/live/?featured=1", {
    frame: (f) => seen.frames.push(f),
    status: (on) => seen.status.push(on),
  }, win);
  return { live, seen };
}

describe("live socket", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    mock.timers.reset();
    mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  });

  test("the delays grow from 1 s to 60 s, ±25 %", () => {
    assert.equal(retryDelay(0, 0.5), RETRY_FIRST_MS);
    assert.equal(retryDelay(3, 0.5), 8 * RETRY_FIRST_MS);
    assert.equal(retryDelay(20, 0.5), RETRY_MAX_MS);
    assert.equal(retryDelay(0, 0), 0.75 * RETRY_FIRST_MS);
    assert.equal(retryDelay(20, 1), 1.25 * RETRY_MAX_MS);
  });

  test("a page opened offline makes no socket until the browser is online, then one at once", () => {
    const win = fakeWindow(false);
    const { seen } = keeper(win);
    mock.timers.tick(10 * 60 * 1000);
    assert.equal(FakeSocket.made.length, 0);
    assert.deepEqual(seen.status, [false]);
    win.navigator.onLine = true;
    win.emit("online");
    assert.equal(FakeSocket.made.length, 1);
    FakeSocket.made[0].fire("open");
    FakeSocket.made[0].fire("message", { data: JSON.stringify({ type: "featured", game: null }) });
    assert.deepEqual(seen.frames, [{ type: "featured", game: null }]);
    assert.equal(seen.status.at(-1), true);
  });

  test("going offline drops the socket and tries nothing until online again", () => {
    const win = fakeWindow();
    const { seen } = keeper(win);
    const first = FakeSocket.made[0];
    first.fire("open");
    win.navigator.onLine = false;
    win.emit("offline");
    assert.equal(first.closedWith, 4999);
    assert.equal(seen.status.at(-1), false);
    first.fire("close", { code: 1006 }); // the dropped socket's own close changes nothing
    mock.timers.tick(10 * 60 * 1000);
    assert.equal(FakeSocket.made.length, 1, "no attempt while offline");
    win.navigator.onLine = true;
    win.emit("online");
    assert.equal(FakeSocket.made.length, 2);
  });

  test("a server that is away is tried after 1, 2, 4 … s, not every second", () => {
    const win = fakeWindow();
    keeper(win);
    const random = mock.method(Math, "random", () => 0.5);
    const attempts = [0];
    let now = 0;
    // Each attempt fails at once (no server); a minute and a half of it.
    while (now < 90_000) {
      FakeSocket.made.at(-1).fire("close", { code: 1006 });
      const before = FakeSocket.made.length;
      let waited = 0;
      while (FakeSocket.made.length === before) { mock.timers.tick(100); waited += 100; }
      now += waited;
      attempts.push(now);
    }
    random.mock.restore();
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
    assert.deepEqual(gaps.slice(0, 6), [1000, 2000, 4000, 8000, 16000, 32000]);
    assert.ok(attempts.length <= 8, `${attempts.length} attempts in 90 s`);
  });

  test("a server that accepts and closes at once is backed off too; a frame resets the back-off", () => {
    const win = fakeWindow();
    keeper(win);
    const random = mock.method(Math, "random", () => 0.5);
    for (const wait of [1000, 2000, 4000]) {
      const ws = FakeSocket.made.at(-1);
      ws.fire("open");
      ws.fire("close", { code: 1011 });
      mock.timers.tick(wait - 1);
      const before = FakeSocket.made.length;
      mock.timers.tick(1);
      assert.equal(FakeSocket.made.length, before + 1, `retried after ${wait} ms`);
    }
    const ws = FakeSocket.made.at(-1);
    ws.fire("open");
    ws.fire("message", { data: "{\"type\": \"featured\", \"game\": null}" });
    ws.fire("close", { code: 1006 });
    mock.timers.tick(1000);
    assert.equal(FakeSocket.made.length, 5, "the first delay again");
    random.mock.restore();
  });

  test("final close codes are not retried; restart opens a new socket now", () => {
    const win = fakeWindow();
    const { live } = keeper(win);
    for (const code of FINAL) {
      const ws = FakeSocket.made.at(-1);
      ws.fire("close", { code });
      mock.timers.tick(10 * 60 * 1000);
      assert.equal(FakeSocket.made.at(-1), ws);
      live.restart();
    }
    assert.equal(FakeSocket.made.length, 1 + FINAL.size);
  });

  test("after 4429 (too many sockets: a dead process's leases) the page retries, later, backing off", () => {
    const random = mock.method(Math, "random", () => 0.5);
    const win = fakeWindow();
    keeper(win);
    assert.ok(!FINAL.has(TOO_MANY));
    FakeSocket.made[0].fire("close", { code: TOO_MANY });
    mock.timers.tick(RETRY_TOO_MANY_FIRST_MS - 1);
    assert.equal(FakeSocket.made.length, 1, "not at the ordinary first delay");
    mock.timers.tick(1);
    assert.equal(FakeSocket.made.length, 2);
    FakeSocket.made[1].fire("close", { code: TOO_MANY });
    mock.timers.tick(2 * RETRY_TOO_MANY_FIRST_MS - 1);
    assert.equal(FakeSocket.made.length, 2, "the delay doubles");
    mock.timers.tick(1);
    assert.equal(FakeSocket.made.length, 3);
    FakeSocket.made[2].fire("close", { code: TOO_MANY });
    mock.timers.tick(RETRY_MAX_MS);
    assert.equal(FakeSocket.made.length, 4, "up to the longest delay");
    // The leases ran out: the socket opens and talks; a later drop starts from 1 s again.
    const ws = FakeSocket.made[3];
    ws.fire("open");
    ws.fire("message", { data: "{\"type\": \"pong\"}" });
    ws.fire("close", { code: 1006 });
    mock.timers.tick(RETRY_FIRST_MS);
    assert.equal(FakeSocket.made.length, 5);
    assert.equal(retryDelay(0, 0.5, true), RETRY_TOO_MANY_FIRST_MS);
    assert.equal(retryDelay(20, 0.5, true), RETRY_MAX_MS);
    random.mock.restore();
  });

  test("4408 (too slow) is retried as any drop", () => {
    const win = fakeWindow();
    keeper(win);
    FakeSocket.made[0].fire("close", { code: 4408 });
    mock.timers.tick(1.25 * RETRY_FIRST_MS);
    assert.equal(FakeSocket.made.length, 2);
  });

  test("an open socket pings every 25 s", () => {
    const win = fakeWindow();
    keeper(win);
    const ws = FakeSocket.made[0];
    ws.fire("open");
    mock.timers.tick(50_000);
    assert.deepEqual(ws.sent, [{ type: "ping" }, { type: "ping" }]);
  });
});
