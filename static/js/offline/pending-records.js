/* "My games": the finished on-device games this browser still holds (records-queue.js): those
   waiting to be sent, and those the server refused, with its reason and a button to remove them.
   Fills the list of caro/offline/templates/offline/pending_records.html; words from the
   JavaScript catalogue (djangojs.po). */
import { EVENT_NAME, REFUSED, discard, pending } from "../records-queue.js";

/** The words of one queued entry, {title, detail, result, state}, from the JavaScript catalogue's
    gettext, ngettext and interpolate (globals the page loads first); `formatTime(ms)` gives the
    finish time's text. */
export function describe(entry, formatTime) {
  const { record } = entry;
  const reversi = record.game === "reversi";
  const levels = { easy: gettext("Easy"), medium: gettext("Medium"), hard: gettext("Hard") };
  const title = record.mode === "computer"
    ? interpolate(gettext("Against the computer (%(level)s)"), { level: levels[record.level] || record.level || "" }, true)
    : gettext("Two players on one device");
  const size = record.rules && record.rules.size;
  const board = reversi ? gettext("Reversi") : size ? `Caro ${size}×${size}` : "Caro";
  const plies = (record.moves || []).length;
  const moves = interpolate(ngettext("%(n)s move", "%(n)s moves", plies), { n: plies }, true);
  const detail = [board, moves, record.finished_at ? formatTime(record.finished_at) : ""].filter(Boolean).join(" · ");
  const winner = record.result && record.result.winner;
  let result;
  if (!winner) result = gettext("Draw");
  else if (record.mode === "computer") result = winner === record.side ? gettext("You won") : gettext("You lost");
  else {
    const side = reversi ? (winner === "X" ? gettext("Black") : gettext("White")) : winner;
    result = interpolate(gettext("%(side)s won"), { side }, true);
  }
  const state = entry.state === REFUSED
    ? interpolate(gettext("Refused by the server: %(reason)s"), { reason: entry.message || gettext("the record is not valid.") }, true)
    : gettext("Waiting to be sent");
  return { title, detail, result, state };
}

async function render(section) {
  const list = section.querySelector("[data-role=pending-list]");
  const entries = await pending();
  const time = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" });
  list.replaceChildren(...entries.map((entry) => {
    const words = describe(entry, (ms) => time.format(new Date(ms)));
    const item = document.createElement("li");
    item.dataset.recordId = entry.id;
    item.dataset.state = entry.state;
    for (const [cls, text] of [["who", words.title], ["meta", words.detail], ["res", words.result], ["state", words.state]]) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      item.append(span);
    }
    if (entry.state === REFUSED) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "btn btn-quiet";
      remove.textContent = gettext("Remove from this browser");
      remove.addEventListener("click", () => discard(entry.id));
      item.append(remove);
    }
    return item;
  }));
  section.hidden = entries.length === 0;
}

const section = globalThis.document?.querySelector("[data-records-pending]");
if (section) {
  const update = () => render(section).catch(() => {});
  globalThis.addEventListener(EVENT_NAME, (event) => {
    // Games just stored by the server belong in the list the server renders: show it again.
    if (event.detail && event.detail.type === "flushed" && event.detail.sent.length) location.reload();
    else update();
  });
  update();
}
