// The on-device pages, "Play the computer" (/choi-may/) and "Two players on one device"
// (/choi-hai-nguoi/): the game controller fed by the game on the device (device-source.js), with
// no socket and no server round trip. Everything about the game comes from the address and this
// browser (CONTRACTS.md section 3), so one cached copy of the page serves every game offline:
//   preset (a caro preset slug or "reversi"), size, win_length, level (computer), side
//   (computer: "X" | "O" | "random"), moves (comma-separated squares: a position to continue from).
// The game in progress is kept in this browser and comes back on a reload: once started, the
// address carries `game=<id>`, and a page whose `game` is the saved one restores it.

import { Controller } from "./controller.js";
import { DeviceGame, DeviceSource } from "./device-source.js";
import { gameConfig } from "./device-config.js";
import { fmt } from "./words.js";

const root = document.querySelector(".room");
const mode = root.dataset.mode; // "computer" | "local"
const choices = JSON.parse(document.getElementById("device-choices").textContent);
const KEY = `caro.device.${mode}`;

// Finished games go to the records queue (static/js/records-queue.js: IndexedDB, sent to "My
// games" when the network allows, exactly once). Until the queue has taken a record, it waits here
// too, so a failure to load the queue loses nothing: the next page load hands it over again.
const UNSENT = "caro.device.unsent";
function unsent() {
  try { return JSON.parse(localStorage.getItem(UNSENT) || "[]"); } catch { return []; }
}
function keepUnsent(records) {
  try { localStorage.setItem(UNSENT, JSON.stringify(records)); } catch { /* full: the queue may still take it */ }
}
async function handOver(record) {
  if (record) keepUnsent([...unsent().filter((r) => r.id !== record.id), record]);
  const queue = await import("../records-queue.js");
  for (const r of unsent()) {
    await queue.enqueue(r);
    keepUnsent(unsent().filter((x) => x.id !== r.id));
  }
}

const store = {
  save(data) { try { localStorage.setItem(KEY, JSON.stringify(data)); } catch { /* full or private mode: the game goes on */ } },
  load() { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; } },
};

// The game the address asks for: the saved one (a reload), or a new one from the query string.
function openGame() {
  const params = new URLSearchParams(location.search);
  const saved = store.load();
  if (saved && params.get("game") === saved.id) {
    try { return { game: new DeviceGame(saved), note: "" }; } catch { /* not readable any more: a new game */ }
  }
  const { config, note } = gameConfig(mode, params, choices);
  let game;
  try {
    game = DeviceGame.start(config);
  } catch {
    // a position that cannot be continued (an illegal move in it, or already over): the empty board
    game = DeviceGame.start({ ...config, moves: [] });
    return { game, note: gettext("That position cannot be continued: a new game starts from the empty board.") };
  }
  return { game, note };
}

// Once the server has stored a finished game's record (the queue announces it, from this tab or
// another), the page links to its record page: the replay and "Analyse this game". A new game
// hides the link.
const recordLink = root.querySelector('[data-role="device-record"]');
let recorded = null; // {game: the device game's id, record: its record's id}
addEventListener("caro:records-queue", (event) => {
  const detail = event.detail || {};
  if (detail.type !== "flushed" || !recorded || !recordLink) return;
  const sent = (detail.sent || []).find((s) => s.id === recorded.record && s.url);
  if (!sent || source.game.data.id !== recorded.game) return;
  recordLink.href = sent.url;
  recordLink.hidden = false;
});

const { game, note } = openGame();
const state = game.state();
root.dataset.size = String(state.size);
root.dataset.game = state.kind;
const ctl = new Controller(root, state, { home: root.dataset.home });
const source = new DeviceSource(game, {
  frame: (f, ordered) => {
    ctl.onFrame(f, ordered);
    if (f.type === "state") showGame(source.game);
  },
  store,
  enqueue: (record) => {
    recorded = { game: source.game.data.id, record: record.id };
    return handOver(record).catch((e) => console.error("records queue:", e));
  },
  worker: () => new Worker(new URL("../computer/worker.js", import.meta.url), { type: "module" }),
});
ctl.attach(source);

// The address names the game (a reload restores it), the rules line and the level say what it is.
function showGame(g) {
  if (recordLink && recorded && g.data.id !== recorded.game) recordLink.hidden = true;
  const url = new URL(location.href);
  const level = g.data.level || "";
  if (url.searchParams.get("game") !== g.data.id || (level && url.searchParams.get("level") !== level)) {
    url.searchParams.set("game", g.data.id);
    url.searchParams.delete("moves"); // the game holds them now
    if (level) url.searchParams.set("level", level); // a copied address starts the level played now
    history.replaceState(null, "", url);
  }
  const key = g.data.kind === "reversi" ? "reversi" : `${g.data.preset}|${g.data.rules.size}|${g.data.rules.win_length}`;
  const line = root.querySelector('[data-role="rules-line"]');
  const known = choices.choices[key];
  line.textContent = known ? known.line : line.textContent;
  if (known && g.data.opening === "" && known.opening) line.textContent = known.plain; // continued: no procedure
  // "Change": the home page's rules choice, opened on this game's rules
  const change = root.querySelector('[data-testid="change-rules"]');
  const rules = new URLSearchParams({ preset: g.data.preset, rules: "open" });
  if (g.data.kind === "caro") { rules.set("size", g.data.rules.size); rules.set("win_length", g.data.rules.win_length); }
  change.href = `${root.dataset.home}?${rules}`;
  const choice = root.querySelector('[data-role="level"]');
  if (choice) choice.value = g.data.level;
  const number = root.querySelector('[data-role="game-number"]');
  if (number) number.textContent = g.data.number > 1 ? fmt(gettext("Game %(n)s"), { n: g.data.number }) : "";
}

ctl.notices.connection("live");
if (unsent().length) handOver(null).catch((e) => console.error("records queue:", e));
if (note) ctl.notices.note(note);
ctl.render();
source.start();
