// The online game source (static/js/play/socket.js) with a fake WebSocket and Node's mock timers:
// the versions rule and `sync`, the pong's version (issue 27), the heartbeat that says a silent
// connection is lost and drops it, the `offline` event, and nothing sent while lost.

import "./globals.js";
import assert from "node:assert/strict";
import { beforeEach, describe, mock, test } from "node:test";

const listeners = {};
globalThis.addEventListener = (type, fn) => { (listeners[type] ||= []).push(fn); };
globalThis.document = { hidden: false, addEventListener() {} };
globalThis.navigator = { onLine: true };

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.sent = [];
    this.handlers = {};
    FakeSocket.made.push(this);
  }
  addEventListener(type, fn) { (this.handlers[type] ||= []).push(fn); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = FakeSocket.CLOSED; this.closed = true; }
  fire(type, data = {}) { for (const fn of this.handlers[type] || []) fn(data); }
  open() { this.readyState = FakeSocket.OPEN; this.fire("open"); }
  receive(frame) { this.fire("message", { data: JSON.stringify(frame) }); }
}
globalThis.WebSocket = FakeSocket;

const { DEAD_AFTER_MS, HEARTBEAT_EVERY_MS, PING_EVERY_MS, PONG_WAIT_MS, SocketSource, TOO_MANY_RETRY_FIRST_MS,
  TOO_MANY_RETRY_MAX_MS } = await import("../../../static/js/play/socket.js");

function source() {
  const seen = { frames: [], status: [] };
  const src = new SocketSource("ws://test/ws/room/ABCDEF/", {
    frame: (f, ordered) => seen.frames.push([f.type, ordered]),
    opened: () => seen.status.push("opened"),
    status: (s) => seen.status.push(s),
  });
  src.start();
  const ws = FakeSocket.made.at(-1);
  ws.open();
  ws.receive({ type: "state", game_id: 7, version: 4 });
  ws.sent.length = 0;
  return { src, ws, seen };
}

describe("the socket source", () => {
  beforeEach(() => {
    mock.timers.reset();
    mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"] });
    FakeSocket.made.length = 0;
    navigator.onLine = true;
  });

  test("4429 after too_many_sockets (a dead process's leases) is retried from 15 s, doubling; a kept socket resets it", () => {
    const random = mock.method(Math, "random", () => 0.5);
    const { ws, seen } = source();
    const refuse = (socket) => {
      socket.open();
      socket.receive({ type: "error", code: "too_many_sockets", message: "too many pages" });
      socket.fire("close", { code: 4429 });
    };
    ws.receive({ type: "error", code: "too_many_sockets", message: "too many pages" });
    ws.fire("close", { code: 4429 });
    assert.equal(seen.status.at(-1), "lost", "not gone: it will try again");
    mock.timers.tick(TOO_MANY_RETRY_FIRST_MS - 1);
    assert.equal(FakeSocket.made.length, 1);
    mock.timers.tick(1);
    assert.equal(FakeSocket.made.length, 2);
    refuse(FakeSocket.made[1]);
    mock.timers.tick(2 * TOO_MANY_RETRY_FIRST_MS - 1);
    assert.equal(FakeSocket.made.length, 2, "the delay doubles");
    mock.timers.tick(1);
    refuse(FakeSocket.made[2]);
    mock.timers.tick(TOO_MANY_RETRY_MAX_MS);
    assert.equal(FakeSocket.made.length, 4, "up to 60 s");
    const kept = FakeSocket.made[3];
    kept.open();
    kept.receive({ type: "state", game_id: 7, version: 4 });
    kept.fire("close", { code: 1006 });
    mock.timers.tick(625);
    assert.equal(FakeSocket.made.length, 5, "a later drop: from 0.5 s again");
    random.mock.restore();
  });

  test("4429 for another reason (a full room, a flood) and 4403 stay final", () => {
    for (const [error, code] of [["crowd_full", 4429], ["banned", 4403]]) {
      FakeSocket.made.length = 0;
      const { ws, seen } = source();
      ws.receive({ type: "error", code: error, message: "no" });
      ws.fire("close", { code });
      assert.equal(seen.status.at(-1), "gone");
      mock.timers.tick(10 * 60 * 1000);
      assert.equal(FakeSocket.made.length, 1);
    }
  });

  test("applies the next version, and asks for the state at a gap", () => {
    const { ws, seen } = source();
    ws.receive({ type: "move", game_id: 7, version: 5 });
    ws.receive({ type: "move", game_id: 7, version: 7 });
    ws.receive({ type: "move", game_id: 8, version: 1 }); // another game's: not applied, no sync
    assert.deepEqual(seen.frames.slice(-3), [["move", true], ["move", false], ["move", false]]);
    assert.deepEqual(ws.sent, [{ type: "sync", version: 5 }]);
  });

  test("a pong ahead of the page's version asks for sync (issue 27); one in step does not", () => {
    const { ws } = source();
    ws.receive({ type: "pong", t: 1, server_ms: 2, game_id: 7, version: 4 });
    ws.receive({ type: "pong", t: 1, server_ms: 2 }); // a server without the fields
    assert.deepEqual(ws.sent, []);
    ws.receive({ type: "pong", t: 1, server_ms: 2, game_id: 7, version: 6 });
    assert.deepEqual(ws.sent, [{ type: "sync", version: 4 }]);
  });

  test("pings are light between two full heartbeats, one at least every 15 s", () => {
    const { ws } = source(); // the first ping (at open) was the full one
    const pings = [];
    for (let i = 0; i < 12; i++) {
      mock.timers.tick(PING_EVERY_MS);
      pings.push(ws.sent.at(-1));
      ws.receive({ type: "pong", t: 1, server_ms: 2 });
    }
    const full = pings.map((p, i) => [i, p.light]).filter(([, light]) => !light).map(([i]) => i);
    assert.deepEqual(full, [Math.ceil(HEARTBEAT_EVERY_MS / PING_EVERY_MS) - 1]);
    assert.ok(pings.every((p) => p.type === "ping" && typeof p.t === "number"));
  });

  test("a silent connection is lost after a ping unanswered, then dropped and opened again", () => {
    const { src, ws, seen } = source();
    mock.timers.tick(PING_EVERY_MS);
    assert.equal(ws.sent.at(-1).type, "ping");
    mock.timers.tick(PONG_WAIT_MS - 1);
    assert.equal(src.live, true);
    mock.timers.tick(1);
    assert.equal(src.live, false);
    assert.equal(seen.status.at(-1), "lost");
    assert.equal(src.send({ type: "move" }), false, "nothing is sent while lost");
    mock.timers.tick(DEAD_AFTER_MS - PONG_WAIT_MS);
    assert.equal(ws.closed, true);
    mock.timers.tick(1000); // the first retry comes within 0.625 s
    assert.equal(FakeSocket.made.length, 2);
    FakeSocket.made[1].open();
    assert.deepEqual(seen.status.slice(-2), ["live", "opened"]);
  });

  test("any frame answers the ping: a busy game pings less, and a late answer is live again", () => {
    const { src, ws } = source();
    mock.timers.tick(PING_EVERY_MS - 100);
    ws.receive({ type: "crowd", game_id: 7, count: 1 });
    mock.timers.tick(PING_EVERY_MS - 100);
    assert.deepEqual(ws.sent, [], "a frame heard resets the heartbeat");
    mock.timers.tick(100); // (Node's mock timers run a timer made during a tick at the next one)
    assert.equal(ws.sent.at(-1).type, "ping");
    mock.timers.tick(PONG_WAIT_MS);
    assert.equal(src.live, false);
    ws.receive({ type: "pong", t: 1, server_ms: 2 });
    assert.equal(src.live, true);
  });

  test("the offline event says lost at once and drops the socket; online opens a new one", () => {
    const { src, ws, seen } = source();
    navigator.onLine = false;
    listeners.offline.at(-1)(); // this source's (the earlier tests' sources listen too)
    assert.equal(src.live, false);
    assert.equal(seen.status.at(-1), "lost");
    assert.equal(ws.closed, true);
    mock.timers.tick(20_000);
    assert.equal(FakeSocket.made.length, 1, "no attempt while the browser is offline");
    navigator.onLine = true;
    listeners.online.at(-1)();
    assert.equal(FakeSocket.made.length, 2);
  });
});
