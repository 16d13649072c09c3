// The online game source: the room's websocket, speaking docs/protocol.md and nothing else. It
// connects, reconnects with backoff, keeps a heartbeat (ping/pong), applies the versions rule (an
// event is the next one of the current game, else it asks for `sync`), and says honestly whether
// the connection is live. The controller gets the frames and never touches the socket.
//
// A connection can die without closing: a phone that lost its network, a proxy that dropped it,
// or Chromium's network emulation, which leaves an open socket looking alive (docs/protocol.md,
// "Heartbeat"). So the source also counts the connection as lost when the browser says it went
// offline (`offline` event) or when the server has not answered a ping in PONG_WAIT_MS, and from
// then on refuses to send anything until a new socket is open and the game's state came back.

// Heartbeat: a ping goes out when nothing was heard from the server for PING_EVERY_MS (any frame
// counts, so a busy game pings less); any frame answers it. No answer in PONG_WAIT_MS: the
// connection counts as lost (said at once, moves refused), so a silent drop is said at most
// PING_EVERY_MS + PONG_WAIT_MS (2.6 s) after the last frame; no answer in DEAD_AFTER_MS: the socket
// is dropped and a new one opened. A hidden tab pings every HIDDEN_PING_EVERY_MS and at once when
// it is shown again. Most pings are `light` (a liveness probe the server answers at once on its
// event loop, without the database); one at least every HEARTBEAT_EVERY_MS is the full heartbeat,
// which refreshes the socket's presence (gone after 45 s without) and brings the game's version
// (issue 27). bench/ws_ping.py prices both.
export const PING_EVERY_MS = 1600;
export const HIDDEN_PING_EVERY_MS = 15000;
export const HEARTBEAT_EVERY_MS = 15000;
export const PONG_WAIT_MS = 1000;
export const DEAD_AFTER_MS = 6000;
const RETRY_MAX_MS = 8000;

// Close codes after which the page does not reconnect (docs/protocol.md, "Close codes").
const GONE = 4404; // no such room
const FINAL = new Set([4429, 4403, 4410]); // too many sockets / the room is full, banned, room closed
// A 4429 after the `error` frame `too_many_sockets` is retried, later: it may be the leases of a
// web process that died (they count for up to 90 s, caro.rooms.limits.WS_LEASE_S) or a tab being
// closed, and a player left without a socket would lose the game by absence. From
// TOO_MANY_RETRY_FIRST_MS, doubling up to TOO_MANY_RETRY_MAX_MS, ±25 %.
const TOO_MANY = 4429;
export const TOO_MANY_RETRY_FIRST_MS = 15000;
export const TOO_MANY_RETRY_MAX_MS = 60000;

// The events the page applies by `version` (docs/protocol.md, "Versions"). `state_changed` is
// answered by a full `state`, which brings its version: the page waits for that.
const VERSIONED = new Set(["move", "game_over", "draw_offer", "draw_declined", "undo_request", "undo_declined",
  "presence", "rematch_offer", "rematch_declined"]);

// The delay before reconnect attempt `n` (0, 1, …): 0.5 s doubling up to 8 s, ±25 % so that the
// pages of a restarted server do not all come back at the same moment.
export function retryDelay(n, random = Math.random(), tooMany = false) {
  if (tooMany) return Math.min(TOO_MANY_RETRY_MAX_MS, TOO_MANY_RETRY_FIRST_MS * 2 ** n) * (0.75 + random * 0.5);
  return Math.min(RETRY_MAX_MS, 500 * 2 ** n) * (0.75 + random * 0.5);
}

// Whether event `f` is the next one of the game at `game` ({game_id, version}): "next", "other"
// (another game's: ignored) or "gap" (not the next version: the page asks for the state).
export function eventOrder(game, f) {
  if (!game || f.game_id !== game.game_id) return "other";
  return f.version === game.version + 1 ? "next" : "gap";
}

export class SocketSource {
  // url: the room socket's address. frame(f, ordered): every frame from the server; `ordered` is
  // true for a versioned event that is the next one (the controller applies only those), false
  // for one that is not (a `sync` has been sent), undefined for the others. opened(): a socket
  // opened (the `state` follows). status(s): "live", "lost" (reconnecting), or "gone" with a
  // message (no reconnect).
  constructor(url, { frame, opened, status }) {
    this.url = url;
    this.onFrame = frame;
    this.onOpened = opened;
    this.onStatus = status;
    this.socket = null;
    this.retry = 0;
    this.retryTimer = null;
    this.lastError = null; // the code of the last `error` frame of the current socket
    this.tooMany = false; // the last close was a 4429 for too many sockets: retried later
    this.live = false; // open, answering, and the browser online: frames may be sent
    this.game = null; // {game_id, version} of the last applied state and events
    this.waiting = false; // a ping is unanswered
    this.lastHeartbeat = -Infinity; // when the last full ping went (Date.now())
    this.pingTimer = null;
    this.pongTimer = null;
    this.deadTimer = null;
    addEventListener("offline", () => this.lost(true));
    addEventListener("online", () => { if (!this.live) this.reconnectNow(); });
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.ping(); });
  }

  start() {
    this.connect();
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (navigator.onLine === false) { this.lost(false); return; } // the `online` event brings it back
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.lastError = null;
      if (!this.tooMany) this.retry = 0; // after a 4429: once the state came (the socket was kept)
      this.lastHeartbeat = -Infinity;
      this.answered();
      this.live = true;
      this.onStatus("live");
      this.ping();
      this.onOpened();
    });
    socket.addEventListener("message", (e) => {
      if (socket !== this.socket) return;
      this.answered(); // anything from the server answers the ping
      this.schedulePing();
      if (!this.live && socket.readyState === WebSocket.OPEN && navigator.onLine !== false) {
        this.live = true; // a slow answer after all: still the same connection
        this.onStatus("live");
      }
      let f;
      try { f = JSON.parse(e.data); } catch { return; }
      this.receive(f);
    });
    socket.addEventListener("close", (e) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.answered();
      clearTimeout(this.pingTimer);
      if (e.code === GONE) {
        this.live = false;
        this.onStatus("gone", gettext("This room does not exist any more. Create a new one from the home page."));
        return;
      }
      const tooMany = e.code === TOO_MANY && this.lastError === "too_many_sockets";
      if (FINAL.has(e.code) && !tooMany) { this.live = false; this.onStatus("gone", null); return; } // the frame before said why
      if (tooMany && !this.tooMany) this.retry = 0; // the first 4429: from TOO_MANY_RETRY_FIRST_MS
      this.tooMany = tooMany;
      this.lost(false);
      this.scheduleReconnect();
    });
  }

  // The connection is lost (or could not be made): say so at once; `drop`: abandon the socket now
  // (it may look open while it is dead) and open a new one as soon as the browser is online.
  lost(drop) {
    const was = this.live;
    this.live = false;
    if (was || drop || !this.socket) this.onStatus("lost");
    if (drop && this.socket) {
      const socket = this.socket;
      this.socket = null;
      this.answered();
      clearTimeout(this.pingTimer);
      try { socket.close(); } catch { /* already closing */ }
      this.scheduleReconnect();
    }
  }

  scheduleReconnect() {
    if (this.retryTimer) return;
    if (navigator.onLine === false) return; // the `online` event brings it back
    this.retryTimer = setTimeout(() => this.connect(), retryDelay(this.retry++, Math.random(), this.tooMany));
  }

  // Back online: try at once, and from the shortest delay again.
  reconnectNow() {
    this.retry = 0;
    if (this.socket && this.socket.readyState === WebSocket.CONNECTING) return;
    if (this.socket) this.lost(true);
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  // The next ping, PING_EVERY_MS from now (HIDDEN_PING_EVERY_MS in a hidden tab).
  schedulePing() {
    clearTimeout(this.pingTimer);
    this.pingTimer = setTimeout(() => this.ping(), document.hidden ? HIDDEN_PING_EVERY_MS : PING_EVERY_MS);
  }

  ping() {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const frame = { type: "ping", t: Date.now() };
    const now = Date.now();
    if (now - this.lastHeartbeat >= HEARTBEAT_EVERY_MS || now < this.lastHeartbeat) this.lastHeartbeat = now;
    else frame.light = true;
    socket.send(JSON.stringify(frame));
    this.schedulePing();
    if (this.waiting) return; // the first unanswered ping's timers run
    this.waiting = true;
    this.pongTimer = setTimeout(() => {
      if (socket !== this.socket) return;
      if (this.live) this.lost(false); // silent for too long: lost, until an answer comes
      this.deadTimer = setTimeout(() => { if (socket === this.socket) this.lost(true); }, DEAD_AFTER_MS - PONG_WAIT_MS);
    }, PONG_WAIT_MS);
  }

  // The server answered (any frame): the heartbeat's timers stop.
  answered() {
    this.waiting = false;
    clearTimeout(this.pongTimer);
    clearTimeout(this.deadTimer);
  }

  // Send `frame` if the connection is live; false (nothing sent) otherwise.
  send(frame) {
    if (!this.live || !this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  receive(f) {
    if (f.type === "error") this.lastError = f.code; // a close that follows may depend on why
    if (f.type === "state") {
      if (this.tooMany) { this.tooMany = false; this.retry = 0; }
      this.game = { game_id: f.game_id, version: f.version };
      this.onFrame(f);
      return;
    }
    if (f.type === "pong") {
      // Issue 27: the pong says the game's current version; behind it, this page missed an event.
      if (this.game && f.game_id === this.game.game_id && typeof f.version === "number" && f.version > this.game.version) {
        this.send({ type: "sync", version: this.game.version });
      }
      this.onFrame(f);
      return;
    }
    if (!VERSIONED.has(f.type) || typeof f.version !== "number") { this.onFrame(f); return; }
    const order = eventOrder(this.game, f);
    if (order === "next") this.game.version = f.version;
    else if (order === "gap") this.send({ type: "sync", version: this.game.version });
    this.onFrame(f, order === "next");
  }
}
