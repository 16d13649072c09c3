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
      if (f.type === "error" && typeof f.code === "string" && (f.code.startsWith("chat_") || f.code === "muted")) { note.textContent = f.message; return true; }
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
