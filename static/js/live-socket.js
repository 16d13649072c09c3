// The live socket of the home page (featured.js: the featured game and the counts), of the lobby's
// list (live.js) and of the watch page's list (watch.js):
// lobby/consumers.py, docs/protocol.md "Live socket". One job: keep one socket open while the
// browser is online, without hammering a server that is away.
//
// - Offline (`navigator.onLine` false, or the `offline` event): no attempt at all; the socket is
//   dropped (Chromium's network emulation leaves a dead socket looking open) and the `online`
//   event opens a new one at once.
// - A socket that closes (a server restart, a proxy, a network that is there but no server) is
//   opened again after retryDelay(n): 1 s doubling up to 60 s, ±25 % so that the pages of a
//   restarted server do not all come back at the same moment. The count of tries goes back to
//   zero only once the server has sent a frame, so a server that accepts and then closes at once
//   is backed off too.
// - Close codes in FINAL are not retried (4429: too many sockets from this address; 4999: the page
//   closed it itself to open another).

export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 60000;
export const PING_EVERY_MS = 25000;
export const FINAL = new Set([4429, 4999]);

// The delay before reconnect attempt `n` (0, 1, …), ms.
export function retryDelay(n, random = Math.random()) {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** n) * (0.75 + random * 0.5);
}

// Keep a socket to `url()` (a function: the address may change, as the lobby's filter does) open.
// frame(f): each frame from the server, parsed; status(live): true once a socket is open, false
// when it closed or the browser went offline. `win`: the window (its navigator, WebSocket, timers
// and events). Returns {restart(), tries()}: restart() drops the socket and opens a new one now.
export function keepLive(url, { frame, status }, win = globalThis) {
  let socket = null;
  let tries = 0;
  let timer = null;
  let pinger = null;

  function drop() {
    const old = socket;
    socket = null;
    win.clearInterval(pinger);
    if (old) { try { old.close(4999); } catch { /* already closing */ } }
  }

  function later() {
    if (timer !== null || win.navigator.onLine === false) return; // offline: the `online` event brings it back
    timer = win.setTimeout(connect, retryDelay(tries++));
  }

  function connect() {
    win.clearTimeout(timer);
    timer = null;
    if (win.navigator.onLine === false) { status(false); return; }
    const ws = new win.WebSocket(url());
    socket = ws;
    ws.addEventListener("open", () => {
      if (ws !== socket) return;
      status(true);
      win.clearInterval(pinger);
      pinger = win.setInterval(() => ws.send(JSON.stringify({ type: "ping" })), PING_EVERY_MS);
    });
    ws.addEventListener("message", (e) => {
      if (ws !== socket) return;
      tries = 0; // the server is there and talking
      let f;
      try { f = JSON.parse(e.data); } catch { return; }
      frame(f);
    });
    ws.addEventListener("close", (e) => {
      if (ws !== socket) return;
      socket = null;
      win.clearInterval(pinger);
      status(false);
      if (!FINAL.has(e.code)) later();
    });
  }

  win.addEventListener("offline", () => {
    drop();
    win.clearTimeout(timer);
    timer = null;
    status(false);
  });
  win.addEventListener("online", () => {
    tries = 0;
    if (!socket) connect();
  });
  connect();
  return {
    restart() { drop(); connect(); },
    tries: () => tries,
  };
}
