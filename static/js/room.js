// The room page (online games): the game controller fed by the room's socket, the chat, and what
// only a room has (tabs of the same browser that must reload, the moderation notice). The parts
// are modules of their own under play/ (docs/architecture.md, "The page scripts").
// Strings come from Django's JavaScript catalogue (/jsi18n/, loaded before this module).

import { initChat } from "./chat.js";
import { Controller } from "./play/controller.js";
import { SocketSource } from "./play/socket.js";

const root = document.querySelector(".room");
const state = JSON.parse(document.getElementById("initial-state").textContent);

let chat = null;
const ctl = new Controller(root, state, {
  home: root.dataset.home,
  stateApplied: (s) => chat.setSeat(s.you),
});
chat = initChat(root, (frame) => ctl.send(frame));

const proto = location.protocol === "https:" ? "wss" : "ws";
const source = new SocketSource(
  `${proto}://${location.host}/ws/room/${root.dataset.code}/?lang=${encodeURIComponent(document.documentElement.lang)}`,
  {
    frame: (f, ordered) => { if (!chat.onFrame(f)) ctl.onFrame(f, ordered); },
    opened: () => { ctl.onOpened(); chat.connected(); },
    status: (status, message) => ctl.onStatus(status, message),
  },
);
source.game = { game_id: state.game_id, version: state.version };
ctl.attach(source);

// Tabs of this browser: every room page says, on BroadcastChannel "caro.visitor", which visitor it
// was drawn for (the user id, "" for a visitor without a name yet) and whether that visitor is
// seated here. A page of the same room that only watches, drawn for someone else, is out of date:
// taking the seat in another tab gave this browser a guest name (a new session), which this page's
// socket and header do not know. It reloads, and comes back as the player. (A tab of the same
// session needs none of this: the server sends each of its sockets its new seat.)
const visitor = root.dataset.visitor || "";
if ("BroadcastChannel" in window) {
  const tabs = new BroadcastChannel("caro.visitor");
  tabs.addEventListener("message", (e) => {
    const m = e.data || {};
    if (m.code === root.dataset.code && m.seated && m.visitor !== visitor && !ctl.state.you) location.reload();
  });
  tabs.postMessage({ code: root.dataset.code, visitor, seated: Boolean(state.you) });
}

ctl.render();
source.start();
