// The watch page (lobby/templates/lobby/watch.html): its list of live games comes again over the
// live socket within a second of a game between people starting or ending, and every 10 s when
// only the move counts changed (lobby/consumers.py, docs/protocol.md "Live socket"); htmx also
// polls it every 10 s (a socket that is away). A filter (htmx) swaps the tabs and the list: the
// socket follows the new kind. One job: keep the list live. The socket: live-socket.js.
import { keepLive } from "./live-socket.js";

const page = document.querySelector('[data-testid="watch-page"]');
const list = () => document.getElementById("live-games");
if (page && list()) {
  let kind = list().dataset.liveWatch || "all";
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const url = () => `${proto}://${location.host}/ws/live/?watch=${encodeURIComponent(kind)}&lang=${encodeURIComponent(document.documentElement.lang)}`;
  const live = keepLive(url, {
    frame: (f) => {
      const box = list();
      if (f.type === "watch" && box) { box.innerHTML = f.html; box.dataset.updated = String(Date.now()); }
    },
    status: (on) => { page.dataset.connected = on ? "1" : ""; },
  });
  document.body.addEventListener("htmx:afterSwap", () => {
    const next = list()?.dataset.liveWatch || "all";
    if (next !== kind) { kind = next; live.restart(); }
  });
}
