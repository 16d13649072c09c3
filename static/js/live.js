// The lobby page (lobby/templates/lobby/lobby.html): its list of open rooms comes again over the
// live socket whenever it changes (lobby/consumers.py, docs/protocol.md "Live socket"); htmx swaps
// it when the filter changes. This module also marks, in every list it shows, the viewer's own
// rooms and the rooms only accounts may join, and fills the forms' CSRF token (the socket's list
// is the same for everyone, rendered without a request). The socket: live-socket.js.
import { keepLive } from "./live-socket.js";

const box = document.querySelector("[data-live-lobby]");
if (box) {
  const words = {};
  for (const el of document.getElementById("lobby-words").content.querySelectorAll("[data-word]")) {
    words[el.dataset.word] = el.textContent;
  }
  const token = () => document.querySelector('input[name="csrfmiddlewaretoken"][value]:not([value=""])')?.value
    || (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  let kind = box.dataset.liveLobby;

  function mark() {
    const csrf = token();
    for (const input of box.querySelectorAll('input[name="csrfmiddlewaretoken"]')) if (!input.value) input.value = csrf;
    for (const row of box.querySelectorAll("[data-code]")) {
      const button = row.querySelector('button[type="submit"]');
      const note = row.querySelector(".take-note");
      if (!button) continue;
      if (box.dataset.viewerId && row.dataset.hostId === box.dataset.viewerId) {
        const link = document.createElement("a");
        link.className = "btn"; link.href = `/r/${row.dataset.code}/`; link.textContent = words.mine;
        link.dataset.testid = "my-open-room";
        button.replaceWith(link);
      } else if (box.dataset.refused) {
        button.disabled = true;
        button.setAttribute("aria-describedby", "restriction-notice");
      } else if (row.dataset.accountsOnly && !box.dataset.viewerAccount) {
        button.disabled = true;
        note.textContent = words.accounts; note.hidden = false;
        note.id = `note-${row.dataset.code}`;
        button.setAttribute("aria-describedby", note.id);
      }
    }
  }

  const proto = location.protocol === "https:" ? "wss" : "ws";
  const url = () => `${proto}://${location.host}/ws/live/?lobby=${encodeURIComponent(kind)}&lang=${encodeURIComponent(document.documentElement.lang)}`;
  let live = null; // the socket keeper, once started below

  // A filter (htmx) swaps the list and pushes ?kind=: the socket follows the new kind.
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target !== box) return;
    mark();
    const list = box.querySelector("[data-kind]");
    const next = new URL(location.href).searchParams.get("kind") || "all";
    if (next !== kind) { kind = next; box.dataset.liveLobby = kind; live.restart(); }
    for (const a of document.querySelectorAll(".kind-tabs a")) {
      const current = a.dataset.kind === kind;
      a.classList.toggle("current", current);
      if (current) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    }
    void list;
  });
  mark();
  live = keepLive(url, {
    frame: (f) => {
      if (f.type === "lobby") { box.innerHTML = f.html; mark(); box.dataset.updated = String(Date.now()); }
    },
    status: (on) => { box.dataset.connected = on ? "1" : ""; },
  });
}
