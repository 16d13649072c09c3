// The room page's game socket: state, moves, clocks, reconnects (docs/protocol.md).
// One small module, no framework. Strings come from Django's JavaScript catalogue (/jsi18n/,
// loaded before this module): gettext() and interpolate() are globals it defines.

const root = document.querySelector(".room");
let state = JSON.parse(document.getElementById("initial-state").textContent);
let socket = null;
let retry = 0;
let pending = null; // {square, id} sent, not yet confirmed
let ghost = null; // square chosen when confirmation is on, waiting for the second tap
let clockOffset = 0; // server clock minus this clock, in ms (from ping/pong round trips)
let bestRtt = Infinity;
let pongDue = null;
let lastFlips = new Set(); // Reversi: the discs the last move turned over (highlighted once) // timer: the connection is considered dead if no pong arrives in time
const HEARTBEAT_MS = 15000;
const PONG_TIMEOUT_MS = 8000;
const reversi = root.dataset.game === "reversi";
const squares = new Map();
for (const btn of root.querySelectorAll(".sq")) squares.set(btn.dataset.sq, btn);
const $ = (role) => root.querySelector(`[data-role="${role}"]`);

// Move confirmation (tap to preview, tap again to play): on by default on touch screens.
const confirmToggle = $("confirm-toggle");
const saved = localStorage.getItem("caro.confirm");
confirmToggle.checked = saved === null ? matchMedia("(pointer: coarse)").matches : saved === "1";
confirmToggle.addEventListener("change", () => {
  localStorage.setItem("caro.confirm", confirmToggle.checked ? "1" : "0");
  ghost = null;
  render();
});

// "%(name)s" placeholders, as in the Python code.
function fmt(template, values) {
  return interpolate(template, values, true);
}

// Translated texts chosen by a value (each msgid stays a literal, for makemessages).
const BOT_NAMES = () => ({ easy: gettext("Computer (Easy)"), medium: gettext("Computer (Medium)"),
  hard: gettext("Computer (Hard)") });
const FOUL_KINDS = () => ({ "double-three": gettext("double-three"), "double-four": gettext("double-four"),
  overline: gettext("overline") });
const YOU_WON = () => ({
  five: gettext("You won with five in a row!"),
  discs: gettext("You won: more discs!"),
  timeout: gettext("You won: your opponent ran out of time."),
  resign: gettext("You won: your opponent resigned."),
});
const YOU_LOST = () => ({
  five: gettext("You lost: your opponent made five in a row."),
  discs: gettext("You lost: fewer discs."),
  timeout: gettext("You lost: your time ran out."),
  resign: gettext("You resigned."),
});
const SIDE_WON = () => ({
  five: gettext("%(side)s won with five in a row."),
  discs: gettext("%(side)s won on discs."),
  timeout: gettext("%(side)s won: the opponent ran out of time."),
  resign: gettext("%(side)s won: the opponent resigned."),
});
const DRAW = () => ({
  full_board: gettext("Draw: the board is full."),
  no_legal_move: gettext("Draw: X has only foul points left."),
  discs: gettext("Draw: as many discs each."),
});
const NOTES = () => ({
  blocked: gettext("%(from)s–%(to)s does not win: both ends are blocked (blocked two ends rule)."),
  overline: gettext("%(from)s–%(to)s does not win: it is longer than %(n)s in a row (exact rule)."),
});
const foulKind = (kind) => FOUL_KINDS()[kind] || kind;
const botName = (level) => BOT_NAMES()[level] || level;

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ------------------------------------------------------------------ socket

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/room/${root.dataset.code}/`);
  socket.addEventListener("open", () => {
    retry = 0;
    setConn("");
    root.dataset.connected = "1";
    ping();
  });
  socket.addEventListener("message", (e) => {
    let frame;
    try { frame = JSON.parse(e.data); } catch { return; }
    onFrame(frame);
  });
  socket.addEventListener("close", (e) => {
    root.dataset.connected = "0";
    clearTimeout(pongDue);
    if (e.code === 4404) { setConn(gettext("This room does not exist any more. Create a new one from the home page.")); return; }
    setConn(gettext("Connection lost. Reconnecting…"));
    const delay = Math.min(8000, 500 * 2 ** retry++) * (0.75 + Math.random() * 0.5);
    setTimeout(connect, delay);
  });
}

// Heartbeat: measures the clock offset, and notices a connection that died without closing
// (a phone that lost its network): no pong in time means reconnect.
function ping() {
  if (!send({ type: "ping", t: Date.now() }, false)) return;
  clearTimeout(pongDue);
  pongDue = setTimeout(() => { if (socket) socket.close(); }, PONG_TIMEOUT_MS);
}
setInterval(ping, HEARTBEAT_MS);

function onPong(f) {
  clearTimeout(pongDue);
  if (typeof f.t !== "number" || typeof f.server_ms !== "number") return;
  const now = Date.now();
  const rtt = now - f.t;
  if (rtt <= bestRtt * 1.5 || rtt < 200) { // keep the estimate from the fastest round trips
    bestRtt = Math.min(bestRtt, rtt);
    clockOffset = f.server_ms - (f.t + rtt / 2);
  }
}

function send(frame, warn = true) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(frame));
    return true;
  }
  if (warn) flash(gettext("Not connected yet; wait a moment and try again."));
  return false;
}

function onFrame(f) {
  switch (f.type) {
    case "state":
      state = f; pending = null; ghost = null; lastFlips = new Set();
      render();
      break;
    case "move":
      if (!inOrder(f)) return;
      state.moves.push([f.square, f.side]);
      state.stones[f.square] = f.side;
      for (const sq of f.flips || []) state.stones[sq] = f.side;
      state.legal = f.legal || [];
      lastFlips = new Set(f.flips || []);
      note(f.passed ? fmt(gettext("%(side)s has no legal move and passes."), { side: sideName(f.passed) }) : "");
      state.ply = f.ply;
      state.turn = f.turn ?? null;
      state.deadline_ms = f.deadline_ms ?? null;
      state.fouls = f.fouls || {};
      state.can_undo = Boolean(f.can_undo);
      if (pending && pending.id === f.id) pending = null;
      if (f.note) note(fmt(NOTES()[f.note.kind], { from: f.note.line[0], to: f.note.line[f.note.line.length - 1], n: state.rules.win_length }));
      render();
      break;
    case "game_over":
      if (!inOrder(f)) return;
      Object.assign(state, { status: f.status, winner: f.winner, termination: f.termination,
        line: f.line, turn: null, deadline_ms: null, fouls: {}, can_undo: false, legal: [] });
      pending = null;
      render();
      break;
    case "rematch_offer":
      if (!inOrder(f)) return;
      state.rematch_offer = f.by;
      render();
      break;
    case "pong":
      onPong(f);
      break;
    case "error":
      pending = null;
      flash(f.message);
      render();
      break;
    default:
      break;
  }
}

// Apply an event only if it is the next version of the current game; otherwise ask for the state.
function inOrder(f) {
  if (f.game_id !== state.game_id) return false;
  if (f.version !== state.version + 1) { send({ type: "sync", version: state.version }, false); return false; }
  state.version = f.version;
  return true;
}

// ------------------------------------------------------------------ rendering

function render() {
  const stones = new Map(Object.entries(state.stones || {}));
  const legal = new Set(myTurn() ? state.legal || [] : []);
  const last = state.moves.length ? state.moves[state.moves.length - 1][0] : null;
  const line = new Set(state.line || []);
  const dir = lineDirection(state.line || []);
  for (const [sq, btn] of squares) {
    const side = stones.get(sq) || "";
    const preview = !side && (sq === ghost || (pending && pending.square === sq));
    btn.dataset.stone = side;
    btn.textContent = side || (preview ? me() : "");
    btn.classList.toggle("last", sq === last);
    btn.classList.toggle("win", line.has(sq));
    if (line.has(sq)) btn.dataset.win = dir; else delete btn.dataset.win;
    btn.classList.toggle("ghost", Boolean(preview));
    const foul = !side && (state.fouls || {})[sq];
    btn.classList.toggle("foul", Boolean(foul));
    btn.classList.toggle("legal", legal.has(sq));
    btn.classList.toggle("flipped", lastFlips.has(sq));
    let label = `${sq}, ${side ? sideName(side) : gettext("empty")}`;
    if (sq === last) label += `, ${gettext("last move")}`;
    if (line.has(sq)) label += `, ${gettext("winning line")}`;
    if (foul) label += `, ${fmt(gettext("foul point for X (%(kind)s)"), { kind: foulKind(foul) })}`;
    btn.setAttribute("aria-label", label);
    btn.setAttribute("aria-disabled", side || !myTurn() ? "true" : "false");
  }
  root.classList.toggle("my-turn", myTurn());
  for (const side of ["X", "O"]) {
    const p = state.players[side];
    let name = !p ? gettext("free seat") : p.bot ? botName(p.bot) : p.name;
    if (state.you === side && !state.local) name += ` (${gettext("you")})`;
    $(`name-${side}`).textContent = name;
    if (reversi) $(`count-${side}`).textContent = [...stones.values()].filter((v) => v === side).length;
    root.querySelector(`.player[data-side="${side}"]`).classList.toggle("to-move", state.turn === side);
  }
  const seated = state.you === "X" || state.you === "O";
  const over = state.status === "finished" || state.status === "aborted";
  $("status").textContent = statusText(seated);
  $("status").dataset.result = over ? state.status : "";
  const again = $("play-again");
  again.hidden = !(seated && over);
  const offered = state.rematch_offer;
  again.textContent = offered && offered !== state.you ? gettext("Accept the rematch") : gettext("Play again");
  again.disabled = offered === state.you;
  const levelChoice = root.querySelector(".level-choice");
  if (levelChoice) levelChoice.hidden = !(seated && over);
  $("rematch-note").textContent = !over || !offered ? ""
    : offered === state.you ? gettext("Waiting for your opponent to accept…") : fmt(gettext("%(side)s wants to play again."), { side: sideName(offered) });
  $("resign").hidden = !(seated && state.status === "active");
  $("undo").hidden = !(seated && state.can_undo);
  $("confirm").hidden = !ghost;
  for (const el of document.querySelectorAll("[data-show-when-waiting]")) {
    el.hidden = state.status !== "waiting" || (el.dataset.showWhenWaiting === "seated") !== seated;
  }
  const moves = $("moves");
  moves.replaceChildren(...state.moves.map(([sq, side]) => {
    const li = document.createElement("li");
    li.textContent = `${sideName(side)} ${sq}`;
    return li;
  }));
  tickClocks();
}

// "h", "v", "d" (down-right) or "a" (up-right) for a winning line given as square names.
function lineDirection(sqs) {
  if (sqs.length < 2) return "";
  const pos = (sq) => ["ABCDEFGHIJKLMNOPQRSTUVWXYZ".indexOf(sq[0]), Number(sq.slice(1))];
  const [c1, r1] = pos(sqs[0]);
  const [c2, r2] = pos(sqs[1]);
  if (r1 === r2) return "h";
  if (c1 === c2) return "v";
  return (c2 - c1) * (r2 - r1) > 0 ? "d" : "a";
}

// "X"/"O" for caro; Black/White (translated) for Reversi.
function sideName(side) {
  return reversi ? (side === "X" ? gettext("Black") : gettext("White")) : side;
}

function myTurn() {
  return state.status === "active" && me() && state.turn === me() && !pending;
}

// The side this browser plays now: on one device it is always the side to move.
function me() {
  return state.local ? state.turn : state.you;
}

function statusText(seated) {
  if (state.status === "waiting") return seated ? gettext("Waiting for an opponent: share the link or the code.") : gettext("A seat is free: take it to play, or just watch.");
  if (state.status === "aborted") return gettext("Game aborted: it ended before both players had moved. Nobody wins or loses.");
  if (state.status === "finished") {
    const term = state.termination;
    if (!state.winner) return DRAW()[term] || DRAW().full_board;
    if (state.you && !state.local) return (state.you === state.winner ? YOU_WON() : YOU_LOST())[term] || "";
    return fmt(SIDE_WON()[term] || "", { side: sideName(state.winner) });
  }
  if (state.local) return fmt(gettext("%(side)s to move."), { side: sideName(state.turn) });
  if (state.bot && state.turn === state.bot.side) return gettext("The computer is thinking…");
  if (state.you && state.turn === state.you) return gettext("Your turn.");
  const p = state.players[state.turn];
  return fmt(gettext("%(side)s to move (%(name)s)."), { side: sideName(state.turn), name: p ? (p.bot ? botName(p.bot) : p.name) : "" });
}

function tickClocks() {
  for (const side of ["X", "O"]) {
    const el = $(`clock-${side}`);
    if (state.turn === side && state.deadline_ms != null) {
      const ms = Math.max(0, state.deadline_ms - (Date.now() + clockOffset));
      const s = Math.ceil(ms / 1000);
      el.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
      el.classList.toggle("low", ms < 10000);
    } else {
      el.textContent = "";
      el.classList.remove("low");
    }
  }
}
setInterval(tickClocks, 250);

let flashTimer = null;
function flash(message) {
  const el = $("conn");
  el.textContent = message;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { if (el.textContent === message) el.textContent = ""; }, 6000);
}
function setConn(message) { $("conn").textContent = message; }
// A rule notice (a five that does not win, a pass): stays until the next move.
function note(message) { $("note").textContent = message; }

// ------------------------------------------------------------------ input

function play(sq) {
  if (!myTurn() || squares.get(sq).dataset.stone) return;
  const id = uuid();
  if (send({ type: "move", square: sq, ply: state.ply + 1, id })) {
    pending = { square: sq, id };
    ghost = null;
    render();
  }
}

function choose(sq) {
  if (!myTurn() || squares.get(sq).dataset.stone) return;
  const foul = (state.fouls || {})[sq];
  if (foul) { flash(fmt(gettext("foul point for X (%(kind)s)"), { kind: foulKind(foul) })); return; }
  if (confirmToggle.checked && ghost !== sq) { ghost = sq; render(); return; }
  play(sq);
}

root.querySelector(".board").addEventListener("click", (e) => {
  const btn = e.target.closest(".sq");
  if (btn) choose(btn.dataset.sq);
});
$("confirm").addEventListener("click", () => { if (ghost) play(ghost); });
$("play-again").addEventListener("click", () => {
  const level = $("level");
  const frame = { type: "play_again", game_id: state.game_id };
  if (level) frame.level = level.value;
  if (send(frame)) $("play-again").disabled = true;
});
$("undo").addEventListener("click", () => send({ type: "undo" }));
$("resign").addEventListener("click", () => { if (confirm(gettext("Resign this game?"))) send({ type: "resign" }); });
for (const btn of document.querySelectorAll('[data-role="copy"]')) {
  btn.addEventListener("click", async () => {
    const input = document.getElementById(btn.dataset.target);
    try { await navigator.clipboard.writeText(input.value); flash(gettext("Link copied.")); } catch { input.select(); }
  });
}

// Keyboard: one square is focusable at a time (roving tabindex); arrows move, Enter/Space plays.
const size = Number(root.dataset.size);
const letters = reversi ? "abcdefgh" : "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let focusSq = `${letters[Math.floor(size / 2)]}${Math.floor(size / 2) + 1}`;
squares.get(focusSq).tabIndex = 0;
root.querySelector(".board").addEventListener("keydown", (e) => {
  const btn = e.target.closest(".sq");
  if (!btn) return;
  const col = letters.indexOf(btn.dataset.sq[0]);
  const row = Number(btn.dataset.sq.slice(1));
  const delta = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (delta) {
    e.preventDefault();
    const c = Math.min(size - 1, Math.max(0, col + delta[0]));
    const r = Math.min(size, Math.max(1, row + delta[1]));
    moveFocus(`${letters[c]}${r}`);
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    play(btn.dataset.sq);
  }
});
root.querySelector(".board").addEventListener("focusin", (e) => {
  const btn = e.target.closest(".sq");
  if (btn && btn.dataset.sq !== focusSq) moveFocus(btn.dataset.sq, false);
});
function moveFocus(sq, focus = true) {
  squares.get(focusSq).tabIndex = -1;
  focusSq = sq;
  const btn = squares.get(sq);
  btn.tabIndex = 0;
  if (focus) btn.focus();
}

render();
connect();
