// The room chat (docs/protocol.md, "Chat"): two channels in tabs. The server decides the channel
// from the sender's seat; every line is drawn with textContent (escaped, links stay text).

const MAX_CHARS = 200;

export function initChat(root, send) {
  const box = root.querySelector('[data-role="chat"]');
  if (!box) return { connected() {}, onFrame() {}, setSeat() {} };
  const lists = { players: box.querySelector('[data-channel="players"]'), spectators: box.querySelector('[data-channel="spectators"]') };
  const tabs = [...box.querySelectorAll("[data-tab]")];
  // Without a name the page has no chat form (a button gives a guest name first): only reading.
  const form = box.querySelector('[data-role="chat-form"]');
  const input = form ? form.querySelector("input") : null;
  const note = box.querySelector('[data-role="chat-note"]');
  const unread = box.querySelector('[data-role="chat-unread"]');
  let player = null;
  let opened = "players";
  let unseen = 0;

  function open(channel) {
    opened = channel;
    for (const t of tabs) t.setAttribute("aria-selected", String(t.dataset.tab === channel));
    for (const [name, list] of Object.entries(lists)) list.hidden = name !== channel;
    if (channel === "spectators") { unseen = 0; unread.textContent = ""; }
    lists[channel].scrollTop = lists[channel].scrollHeight;
  }
  for (const t of tabs) t.addEventListener("click", () => open(t.dataset.tab));

  function placeholder() {
    if (!input) return;
    input.placeholder = player ? gettext("To opponent & spectators") : gettext("To the other spectators");
  }

  function add(line) {
    const list = lists[line.channel];
    if (!list || list.querySelector(`[data-id="${Number(line.id)}"]`)) return;
    const li = document.createElement("li");
    li.dataset.id = String(Number(line.id));
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${line.name}: `;
    li.append(who, document.createTextNode(line.text));
    list.append(li);
    while (list.children.length > 100) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
    if (line.channel === "spectators" && opened !== "spectators" && player) {
      unseen += 1;
      unread.textContent = `(${unseen})`;
    }
  }

  // A muted user (or one whose mute was lifted): the box is disabled with the reason under it, from
  // the page (data-muted-until-ms), from the `chat_mute` frame of a mute given live, or from the
  // server's "muted" refusal; it opens again when the mute ends (`untilMs`, Unix ms).
  let unmuteTimer = null;
  function setMuted(message, untilMs) {
    if (!form) return;
    clearTimeout(unmuteTimer);
    const muted = Boolean(message);
    for (const el of form.querySelectorAll("input, button")) el.disabled = muted;
    form.dataset.muted = muted ? "1" : "";
    note.textContent = muted ? message : "";
    const left = Number(untilMs) - Date.now();
    // setTimeout holds at most ~24.8 days; a longer mute opens again with the next page.
    if (muted && untilMs && left < 2 ** 31 - 1) unmuteTimer = setTimeout(() => setMuted(null), Math.max(0, left));
  }
  if (form && form.dataset.mutedUntilMs !== undefined) setMuted(note.textContent, Number(form.dataset.mutedUntilMs) || null);

  if (form) form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) { note.textContent = gettext("Write something before sending."); return; }
    if (text.length > MAX_CHARS) { note.textContent = gettext("A chat message can have at most 200 characters."); return; }
    if (send({ type: "chat", text })) {
      input.value = ""; note.textContent = "";
      // The line goes to the sender's own channel (a player's to the players', as the input's
      // hint says): show that tab, so it appears where the sender looks.
      open(player ? "players" : "spectators");
    }
  });

  return {
    // The socket (re)opened: ask for the recent lines (they replace what is shown).
    connected() { send({ type: "chat_history" }); },
    // Returns true when the frame was a chat frame.
    onFrame(f) {
      if (f.type === "chat") { add(f); return true; }
      if (f.type === "chat_history") { for (const l of Object.values(lists)) l.replaceChildren(); for (const line of f.lines || []) add(line); unseen = 0; unread.textContent = ""; return true; }
      if (f.type === "chat_hidden") { box.querySelectorAll(`[data-id="${Number(f.id)}"]`).forEach((li) => li.remove()); return true; }
      if (f.type === "chat_mute") { setMuted(f.message, f.until_ms); return true; }
      if (f.type === "error" && f.code === "muted") { setMuted(f.message, null); return true; }
      if (f.type === "error" && typeof f.code === "string" && f.code.startsWith("chat_")) { note.textContent = f.message; return true; }
      return false;
    },
    setSeat(you) {
      const was = player;
      player = Boolean(you);
      placeholder();
      if (was !== player) open(player ? "players" : "spectators");
    },
  };
}
