// The room page's game socket: state, moves, clocks, reconnects (docs/protocol.md).
// One small module, no framework. Strings come from Django's JavaScript catalogue (/jsi18n/,
// loaded before this module): gettext() and interpolate() are globals it defines.

import { initChat } from "./chat.js";

const root = document.querySelector(".room");
let state = JSON.parse(document.getElementById("initial-state").textContent);
let socket = null;
let retry = 0;
let pending = null; // {square, id} sent, not yet confirmed
let ghost = null; // square chosen when confirmation is on, waiting for the second tap
let clockOffset = 0; // server clock minus this clock, in ms (from ping/pong round trips)
let bestRtt = Infinity;
let pongDue = null;
let rematchDeclinedBy = null; // the side that declined this game's last rematch offer (its note)
let proposal = []; // RIF: the 5th-move points chosen for the offer, not sent yet
let lastFlips = new Set(); // Reversi: the discs the last move turned over (highlighted once) // timer: the connection is considered dead if no pong arrives in time
const HEARTBEAT_MS = 15000;
const PONG_TIMEOUT_MS = 8000;
const LEAVE_WAIT_MS = 3000; // after "Leave the table", home at the latest this long after sending it
let leaving = null; // the timer of that, while the server's game_over has not come
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
  five: gettext("You won with %(count)s in a row (%(rule)s)!"),
  discs: gettext("You won: more discs!"),
  timeout: gettext("You won: your opponent ran out of time."),
  resign: gettext("You won: your opponent resigned."),
  left: gettext("You won: your opponent left the table."),
  absence: gettext("You won: your opponent did not come back."),
});
const YOU_LOST = () => ({
  five: gettext("You lost: your opponent made %(count)s in a row (%(rule)s)."),
  discs: gettext("You lost: fewer discs."),
  timeout: gettext("You lost: your time ran out."),
  resign: gettext("You resigned."),
  left: gettext("You left the table and lost this game."),
  absence: gettext("You lost: you did not come back in time."),
});
const SIDE_WON = () => ({
  five: gettext("%(side)s won with %(count)s in a row (%(rule)s)."),
  discs: gettext("%(side)s won on discs."),
  timeout: gettext("%(side)s won: the opponent ran out of time."),
  resign: gettext("%(side)s won: the opponent resigned."),
  left: gettext("%(side)s won: %(left)s left the table."),
  absence: gettext("%(side)s won: %(absent)s did not come back."),
});
const DRAW = () => ({
  full_board: gettext("Draw: the board is full."),
  no_legal_move: gettext("Draw: X has only foul points left."),
  discs: gettext("Draw: as many discs each."),
  agreement: gettext("Draw by agreement."),
  absence: gettext("Draw: %(absent)s did not come back, and the opponent called it a draw."),
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
  socket = new WebSocket(`${proto}://${location.host}/ws/room/${root.dataset.code}/?lang=${encodeURIComponent(document.documentElement.lang)}`);
  socket.addEventListener("open", () => {
    retry = 0;
    setConn("");
    root.dataset.connected = "1";
    ping();
    chat.connected();
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
    if (e.code === 4429) return; // the room is full of spectators: the error frame said so; no retry
    if (e.code === 4403 || e.code === 4410) return; // banned, or the room was closed: the frame said why
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

const chat = initChat(root, (frame) => send(frame));

function send(frame, warn = true) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(frame));
    return true;
  }
  if (warn) flash(gettext("Not connected yet; wait a moment and try again."));
  return false;
}

function onFrame(f) {
  if (chat.onFrame(f)) return;
  switch (f.type) {
    case "state":
      if (state && f.game_id !== state.game_id) { note(""); rematchDeclinedBy = null; } // a new game: the last game's notes are gone
      state = f; pending = null; ghost = null; lastFlips = new Set();
      if (!openingNow() || openingNow().step !== "offer_5") proposal = [];
      chat.setSeat(state.you);
      render();
      break;
    case "banned":
    case "room_closed": {
      const el = $("moderation-notice");
      el.textContent = f.message;
      el.hidden = false;
      root.dataset.closed = f.type;
      break;
    }
    case "move":
      if (!inOrder(f)) return;
      state.moves.push([f.square, f.side]);
      state.stones[f.square] = f.side;
      for (const sq of f.flips || []) state.stones[sq] = f.side;
      state.legal = f.legal || [];
      state.legal_flips = f.legal_flips || {};
      lastFlips = new Set(f.flips || []);
      note(f.passed ? fmt(gettext("%(side)s has no legal move and passes."), { side: sideName(f.passed) }) : "");
      state.ply = f.ply;
      state.turn = f.turn ?? null;
      state.deadline_ms = f.deadline_ms ?? null;
      state.fouls = f.fouls || {};
      state.can_undo = Boolean(f.can_undo);
      state.banks = f.banks ?? null;
      state.draw_offer = f.draw_offer ?? null;
      state.undo_request = f.undo_request ?? null;
      if (f.choices) state.choices = f.choices;
      sounds.move(f.side);
      if (pending && pending.id === f.id) pending = null;
      if (document.hidden && myTurn() && !state.local) startFlash();
      if (f.note) note(fmt(NOTES()[f.note.kind], { from: f.note.line[0], to: f.note.line[f.note.line.length - 1], n: state.rules.win_length }));
      render();
      break;
    case "game_over":
      if (leaving) { clearTimeout(leaving); goHome(); return; }
      if (!inOrder(f)) return;
      Object.assign(state, { status: f.status, winner: f.winner, termination: f.termination,
        line: f.line, turn: null, deadline_ms: null, fouls: {}, can_undo: false, legal: [], legal_flips: {},
        left: f.left ?? null, absent: f.absent ?? null, choices: [], absence: null,
        draw_offer: null, undo_request: null, ratings: f.ratings ?? null });
      pending = null;
      sounds.over();
      render();
      break;
    case "draw_offer":
    case "draw_declined":
    case "undo_request":
    case "undo_declined":
      if (!inOrder(f)) return;
      if (f.type === "draw_offer") state.draw_offer = f.by;
      if (f.type === "draw_declined") { state.draw_offer = null; note(f.by === state.you ? "" : gettext("Your draw offer was declined.")); }
      if (f.type === "undo_request") state.undo_request = f.by;
      if (f.type === "undo_declined") { state.undo_request = null; note(f.by === state.you ? "" : gettext("Your opponent did not allow the take-back.")); }
      state.choices = f.choices || [];
      render();
      break;
    case "presence":
      if (!inOrder(f)) return;
      state.presence = { ...(state.presence || {}), [f.side]: f.present };
      state.absence = f.absence;
      state.choices = f.choices || [];
      render();
      break;
    case "crowd":
      if (f.game_id === state.game_id) { state.crowd = f.count; renderCrowd(); }
      break;
    case "rematch_offer":
    case "rematch_declined":
      if (!inOrder(f)) return;
      state.rematch_offer = f.type === "rematch_offer" ? f.by : null;
      rematchDeclinedBy = f.type === "rematch_declined" ? f.by : null;
      render();
      break;
    case "pong":
      onPong(f);
      break;
    case "requeued":
      // A quick or ranked game the opponent never opened was aborted: back to the queue, in front.
      if (state && f.game_id === state.game_id && (f.sides || []).includes(state.you)) location.href = f.url;
      break;
    case "error":
      pending = null;
      if (leaving) { clearTimeout(leaving); leaving = null; } // not left: the page says why
      $("decline-rematch").disabled = false;
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
  // The previewed move (first of two taps, or sent and not confirmed yet) and, in Reversi, the
  // discs it would flip (the server's `legal_flips`, docs/protocol.md).
  const previewSq = [ghost, pending && pending.square].find((sq) => sq && !stones.get(sq)) || null;
  const flipping = new Set(previewSq && reversi ? (state.legal_flips || {})[previewSq] || [] : []);
  for (const [sq, btn] of squares) {
    const side = stones.get(sq) || "";
    const preview = sq === previewSq;
    btn.dataset.stone = side ? markOf(side) : "";
    btn.textContent = side ? markOf(side) : (preview && !reversi ? markOf(me()) : "");
    if (preview && reversi) btn.dataset.preview = me(); else delete btn.dataset.preview;
    btn.classList.toggle("will-flip", flipping.has(sq));
    if (flipping.has(sq)) btn.dataset.flipTo = me(); else delete btn.dataset.flipTo;
    btn.classList.toggle("last", sq === last);
    btn.classList.toggle("win", line.has(sq));
    if (line.has(sq)) btn.dataset.win = dir; else delete btn.dataset.win;
    btn.classList.toggle("ghost", Boolean(preview));
    const foul = !side && (state.fouls || {})[sq];
    btn.classList.toggle("foul", Boolean(foul));
    btn.classList.toggle("legal", legal.has(sq));
    btn.classList.toggle("flipped", lastFlips.has(sq));
    const op = openingNow();
    btn.classList.toggle("area", Boolean(op && op.area && op.area.includes(sq) && !side));
    btn.classList.toggle("offered", Boolean(op && op.offers.includes(sq)));
    btn.classList.toggle("proposed", proposal.includes(sq));
    let label = `${sq}, ${side ? sideName(side) : gettext("empty")}`;
    if (sq === last) label += `, ${gettext("last move")}`;
    if (line.has(sq)) label += `, ${gettext("winning line")}`;
    if (foul) label += `, ${fmt(gettext("foul point for X (%(kind)s)"), { kind: foulKind(foul) })}`;
    if (legal.has(sq)) label += `, ${gettext("legal move")}`;
    if (preview && reversi) label += `, ${previewWords(flipping.size)}`;
    if (flipping.has(sq)) label += `, ${fmt(gettext("flips to %(colour)s if %(square)s is played"), { colour: colourWord(me()), square: previewSq })}`;
    btn.setAttribute("aria-label", label);
    btn.setAttribute("aria-disabled", side || !myTurn() || (reversi && !legal.has(sq)) ? "true" : "false");
  }
  root.classList.toggle("my-turn", myTurn());
  root.dataset.turn = state.turn || "";
  for (const side of ["X", "O"]) {
    let name = playerName(side);
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
  const answering = Boolean(seated && over && offered && offered !== state.you);
  again.textContent = answering ? gettext("Accept the rematch") : gettext("Play again");
  again.disabled = offered === state.you;
  const decline = $("decline-rematch");
  if (decline.hidden === answering) decline.disabled = false; // shown afresh for each offer
  decline.hidden = !answering;
  const levelChoice = root.querySelector(".level-choice");
  if (levelChoice) levelChoice.hidden = !(seated && over);
  $("rematch-note").textContent = !over ? ""
    : offered === state.you ? gettext("Waiting for your opponent to accept…")
    : offered ? fmt(gettext("%(name)s wants to play again."), { name: playerName(offered) })
    : rematchDeclinedBy && seated && rematchDeclinedBy !== state.you
      ? fmt(gettext("%(name)s declined the rematch."), { name: playerName(rematchDeclinedBy) }) : "";
  $("resign").hidden = !(seated && state.status === "active");
  $("confirm-choice").hidden = !seated; // nothing to confirm for a spectator
  renderOffers(seated);
  renderOpening();
  renderThrows();
  renderCrowd();
  renderMarks();
  renderRatings();
  $("undo").hidden = !(seated && state.can_undo);
  $("confirm").hidden = !ghost;
  renderPreviewNote(previewSq, flipping);
  for (const el of document.querySelectorAll("[data-show-when-waiting]")) {
    el.hidden = state.status !== "waiting" || (el.dataset.showWhenWaiting === "seated") !== seated;
  }
  renderMoves(last);
  renderWatchHint();
  renderTitle();
  renderZoom();
  tickClocks();
}

// Reversi: "black"/"white" inside a sentence.
function colourWord(side) {
  return side === "X" ? gettext("black") : gettext("white");
}

// The previewed Reversi move in words: "preview: a black disc here flips 3 discs".
function previewWords(n) {
  return fmt(ngettext("preview: a %(colour)s disc here flips %(n)s disc", "preview: a %(colour)s disc here flips %(n)s discs", n),
    { colour: colourWord(me()), n });
}

// Under the board while a Reversi move is previewed: what it does and how to play it (also read
// out: the element is a polite live region).
function renderPreviewNote(sq, flipping) {
  const el = $("preview-note");
  const text = reversi && sq && sq === ghost ? fmt(ngettext(
    "%(square)s: a %(colour)s disc here flips %(n)s disc (%(discs)s). Tap the square again, or “Play here”, to play.",
    "%(square)s: a %(colour)s disc here flips %(n)s discs (%(discs)s). Tap the square again, or “Play here”, to play.",
    flipping.size), { square: sq, colour: colourWord(me()), n: flipping.size, discs: [...flipping].join(", ") }) : "";
  if (el.textContent !== text) el.textContent = text;
}

// The moves as entries {side, square} in order, with a pass ({side, square: null}) wherever a side
// moved twice in a row (Reversi: the other side had no legal move; the state and the move event's
// `passed` agree on it). X always moves first.
function moveEntries() {
  const out = [];
  for (const [square, side] of state.moves) {
    const prev = out.length ? out[out.length - 1].side : "O";
    if (prev === side) out.push({ side: side === "X" ? "O" : "X", square: null });
    out.push({ side, square });
  }
  // The side that just moved is to move again: the other one has just passed.
  const lastSide = out.length ? out[out.length - 1].side : null;
  if (state.status === "active" && lastSide && state.turn === lastSide) {
    out.push({ side: lastSide === "X" ? "O" : "X", square: null });
  }
  return out;
}

// Numbered pairs ("12.  H8  I9"), scrolled inside the box so that the last move is in view.
function renderMoves(last) {
  const list = $("moves");
  const entries = moveEntries();
  const rows = [];
  for (let i = 0; i < entries.length; i += 2) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${i / 2 + 1}.`;
    li.append(num);
    for (const entry of entries.slice(i, i + 2)) {
      const mv = document.createElement("span");
      mv.className = "mv";
      mv.dataset.side = entry.side;
      if (entry.square) {
        mv.dataset.sq = entry.square;
        mv.textContent = entry.square;
        mv.title = `${sideName(entry.side)} ${entry.square}`;
      } else {
        mv.classList.add("pass");
        mv.textContent = gettext("pass");
        mv.title = fmt(gettext("%(side)s passes"), { side: sideName(entry.side) });
      }
      li.append(mv);
    }
    rows.push(li);
  }
  const changed = String(entries.length) !== list.dataset.count;
  list.replaceChildren(...rows);
  list.dataset.count = entries.length;
  const played = list.querySelectorAll(".mv[data-sq]");
  if (played.length && last) played[played.length - 1].classList.add("last");
  if (changed) list.scrollTop = list.scrollHeight; // inside the box only: the page does not move
  if (hovered) highlight(hovered);
}

// Pointing at a move in the list highlights its square on the board, and the other way round.
let hovered = null;
function highlight(sq) {
  hovered = sq;
  for (const el of root.querySelectorAll(".hl")) el.classList.remove("hl");
  if (!sq) return;
  squares.get(sq)?.classList.add("hl");
  for (const el of $("moves").querySelectorAll(`.mv[data-sq="${sq}"]`)) el.classList.add("hl");
}
$("moves").addEventListener("pointerover", (e) => { const mv = e.target.closest(".mv[data-sq]"); highlight(mv ? mv.dataset.sq : null); });
$("moves").addEventListener("pointerleave", () => highlight(null));
root.querySelector(".board").addEventListener("pointerover", (e) => {
  const btn = e.target.closest(".sq");
  highlight(btn && btn.dataset.stone ? btn.dataset.sq : null);
});
root.querySelector(".board").addEventListener("pointerleave", () => highlight(null));

// The tab title says whose turn it is; when the opponent moves while the tab is in the background
// it flashes "Your turn!" until the tab is looked at again (no notification permission needed).
const baseTitle = document.title;
let titleFlash = null;

function steadyTitle() {
  let words;
  if (state.status === "waiting") words = gettext("Waiting for an opponent");
  else if (state.status !== "active") words = gettext("Game over");
  else if (state.local) words = fmt(gettext("%(side)s to move"), { side: sideName(state.turn) });
  else if (state.you && state.turn === state.you) words = gettext("Your turn");
  else words = fmt(gettext("%(side)s to move"), { side: sideName(state.turn) });
  return `${words} · ${baseTitle}`;
}

function renderTitle() {
  if (titleFlash && !myTurn()) stopFlash();
  if (!titleFlash) document.title = steadyTitle();
}

function startFlash() {
  if (titleFlash) return;
  let on = false;
  const tick = () => { on = !on; document.title = on ? gettext("Your turn!") : baseTitle; };
  tick();
  titleFlash = setInterval(tick, 1000);
  root.dataset.titleFlash = "1";
}

function stopFlash() {
  clearInterval(titleFlash);
  titleFlash = null;
  delete root.dataset.titleFlash;
  document.title = steadyTitle();
}
document.addEventListener("visibilitychange", () => { if (!document.hidden && titleFlash) stopFlash(); });

// Big boards on a narrow screen: a zoom button makes the squares large enough to tap, and the board
// scrolls inside its box with the coordinates kept in view (site.css, .zoomed).
const MIN_SQUARE_PX = 22; // smaller squares get a zoom button (19×19 on a phone: 17 px)
let zoomWanted = localStorage.getItem("caro.zoom") === "1"; // the player's last choice
function renderZoom() {
  const wrap = $("board-wrap");
  const small = (wrap.clientWidth - 18) / size < MIN_SQUARE_PX;
  const zoom = $("zoom");
  zoom.hidden = !small;
  const on = small && zoomWanted;
  const was = root.classList.contains("zoomed");
  root.classList.toggle("zoomed", on);
  zoom.setAttribute("aria-pressed", on ? "true" : "false");
  zoom.textContent = on ? gettext("Whole board") : gettext("Zoom the board");
  if (on && !was) {
    const moves = state.moves;
    const target = squares.get(moves.length ? moves[moves.length - 1][0] : focusSq);
    const box = target.getBoundingClientRect();
    const frame = wrap.getBoundingClientRect();
    wrap.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
    wrap.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
  }
}
$("zoom").addEventListener("click", () => {
  const on = !root.classList.contains("zoomed");
  zoomWanted = on;
  localStorage.setItem("caro.zoom", on ? "1" : "0");
  renderZoom();
});
addEventListener("resize", () => renderZoom());

// Who plays and who watches, once both seats are taken.
function renderWatchHint() {
  const hint = $("watch-hint");
  if (root.dataset.kind !== "friend") return;
  if (state.status === "waiting") {
    hint.textContent = gettext("Anyone with the link can watch; a free seat goes to the first who takes it.");
  } else if (state.status === "finished" || state.status === "aborted") {
    // Over: not "are playing" any more (the result itself is the status line's).
    hint.textContent = fmt(gettext("The game between %(x)s and %(o)s is over; anyone who opens the link sees how it ended."),
      { x: playerName("X"), o: playerName("O") });
  } else {
    hint.textContent = fmt(gettext("%(x)s and %(o)s are playing; anyone else who opens the link watches."),
      { x: playerName("X"), o: playerName("O") });
  }
}

// Who holds `side`, in words. On one device one person holds both seats: each seat is named by
// its side ("X side", "Black side"), not by the same name twice.
function playerName(side) {
  if (state.local) return fmt(gettext("%(side)s side"), { side: sideName(side) });
  const p = state.players[side];
  return !p ? gettext("free seat") : p.bot ? botName(p.bot) : p.name;
}

// The winner of a game as a spectator reads it: the name with the mark or colour, "Lan (X)"; on
// one device the side alone.
function winnerWords(side) {
  if (state.local) return sideName(side);
  return fmt(gettext("%(name)s (%(side)s)"), { name: playerName(side), side: sideName(side) });
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

// The mark a side's stones are drawn with: in caro each person keeps their mark (X or O) for the
// whole room, so the first mover may draw O; Reversi: the side itself (Black is "X").
function markOf(side) {
  return reversi ? side : ((state.marks || {})[side] || side);
}

// "X"/"O" (the mark that side's player holds) for caro; Black/White (translated) for Reversi.
function sideName(side) {
  return reversi ? (side === "X" ? gettext("Black") : gettext("White")) : markOf(side);
}

function myTurn() {
  return state.status === "active" && me() && state.turn === me() && !pending;
}

// The side this browser plays now: on one device it is always the side to move.
function me() {
  return state.local ? state.turn : state.you;
}

// The length of the winning run (the stones of `line`), else the rule's count.
function winCount() {
  return (state.line || []).length || (state.rules || {}).win_length || 5;
}

// The winning rule in a few words: "5 or more to win, blocked two ends", "exactly 4 to win", "Renju rules".
function ruleText() {
  const r = state.rules || {};
  if (r.renju) return gettext("Renju rules");
  const parts = [fmt(r.exact ? gettext("exactly %(n)s to win") : gettext("%(n)s or more to win"), { n: r.win_length || 5 })];
  if (r.blocked && r.blocked !== "none") parts.push(gettext("not blocked at both ends"));
  return parts.join(", ");
}

function statusText(seated) {
  if (state.status === "waiting") return seated ? gettext("Waiting for an opponent: share the link or the code.") : gettext("A seat is free: take it to play, or just watch.");
  if (state.status === "aborted" && state.termination === "abandoned") return gettext("Game abandoned: nobody played in it for a long time.");
  if (state.status === "aborted" && state.termination === "moderator") return gettext("A moderator stopped this game. Nobody wins or loses.");
  if (state.status === "aborted") return gettext("Game aborted: it ended before both players had moved. Nobody wins or loses.");
  if (state.status === "finished") {
    const term = state.termination;
    const absent = state.absent ? playerName(state.absent) : "";
    if (!state.winner) return fmt(DRAW()[term] || DRAW().full_board, { absent });
    const values = { side: winnerWords(state.winner), count: winCount(), rule: ruleText(),
      left: state.left ? playerName(state.left) : "", absent };
    if (state.you && !state.local) return fmt((state.you === state.winner ? YOU_WON() : YOU_LOST())[term] || "", values);
    return fmt(SIDE_WON()[term] || "", values);
  }
  if (state.local) return fmt(gettext("%(side)s to move."), { side: sideName(state.turn) });
  if (state.bot && state.turn === state.bot.side) return gettext("The computer is thinking…");
  if (state.you && state.turn === state.you) return gettext("Your turn.");
  const p = state.players[state.turn];
  return fmt(gettext("%(side)s to move (%(name)s)."), { side: sideName(state.turn), name: p ? (p.bot ? botName(p.bot) : p.name) : "" });
}

// "m:ss" for a number of milliseconds (rounded up: a clock never shows less time than it has).
function mmss(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The most a clock may show for `side`: its bank when the server last sent it (total time), or the
// time per move; Infinity when neither is known.
function clockLimit(side) {
  if (state.banks && state.banks[side] != null) return state.banks[side];
  return state.move_time_ms || Infinity;
}

// The clocks beside the names: the player to move's counts down to the server's deadline; with
// total-time banks the other player's bank stands still. Under 10 s a clock turns red.
function tickClocks() {
  const now = Date.now() + clockOffset;
  for (const side of ["X", "O"]) {
    const el = $(`clock-${side}`);
    let ms = null;
    if (state.turn === side && state.deadline_ms != null) {
      // Never more than the move's time (or the bank) the server gave: this clock may be a little off.
      ms = Math.min(state.deadline_ms - now, clockLimit(side));
    } else if (state.banks && state.status === "active") ms = state.banks[side];
    el.textContent = ms == null ? "" : mmss(ms);
    el.classList.toggle("low", ms != null && ms < 10000 && state.turn === side);
    if (ms != null && state.turn === side && side === state.you && !state.local) sounds.lowTime(ms);
  }
  renderAbsence(now);
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

// ------------------------------------------------------------------ offers, absence, crowd

// What each choice the server offers is called on its button, and the question asked before the
// ones that end the game.
const CHOICES = () => ({
  offer_draw: [gettext("Offer a draw")],
  accept_draw: [gettext("Accept the draw")],
  decline_draw: [gettext("Decline the draw")],
  request_undo: [gettext("Ask to take back")],
  accept_undo: [gettext("Allow the take-back")],
  decline_undo: [gettext("Refuse the take-back")],
  wait: [gettext("Wait one more minute")],
  claim_win: [gettext("Claim the win"), gettext("Claim the win now?")],
  claim_draw: [gettext("Call it a draw"), gettext("End the game as a draw?")],
  leave: [gettext("Leave the table"), gettext("Leave the table? You lose this game.")],
});

// The answers to the opponent's open offer (draw, take-back), and what to do about an opponent who
// did not come back in time: shown with what they answer in their own box (room.html: beside the
// status on a desktop, a bar fixed at the bottom of a phone's screen), so the player sees them
// without scrolling.
const ANSWERS = new Set(["accept_draw", "decline_draw", "accept_undo", "decline_undo"]);
const DECISIONS = new Set(["wait", "claim_win", "claim_draw"]);

// Whether this player chooses now what happens to an opponent whose grace ran out.
function deciding() {
  return state.status === "active" && (state.choices || []).some((c) => DECISIONS.has(c));
}

function choiceButton(c, labels) {
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = c.startsWith("accept") || c === "claim_win" ? "btn btn-primary" : "btn";
  btn.dataset.frame = c;
  btn.dataset.testid = `choice-${c}`;
  btn.textContent = labels[c][0];
  if (labels[c][1]) btn.dataset.confirm = labels[c][1];
  return btn;
}

// The other offer buttons sit in their own box below the notices, away from the board (no
// misclicks on a phone); spectators never get any (their `choices` are always empty).
function renderOffers(seated) {
  const choices = seated && state.status === "active" ? (state.choices || []).filter((c) => c !== "resign") : [];
  const labels = CHOICES();
  const known = choices.filter((c) => labels[c]);
  const box = $("offers");
  box.replaceChildren(...known.filter((c) => !ANSWERS.has(c) && !DECISIONS.has(c)).map((c) => choiceButton(c, labels)));
  box.hidden = box.childElementCount === 0;
  const answers = known.filter((c) => ANSWERS.has(c));
  const decisions = known.filter((c) => DECISIONS.has(c));
  const offer = []; // what the page says about offers under the board (own offers; all, for spectators)
  const incoming = []; // the opponent's offers this player may answer now
  if (state.status === "active" && state.draw_offer) {
    const text = state.draw_offer === state.you ? gettext("You offered a draw; waiting for the answer.")
      : fmt(gettext("%(name)s offers a draw."), { name: playerName(state.draw_offer) });
    (answers.includes("accept_draw") ? incoming : offer).push(text);
  }
  if (state.status === "active" && state.undo_request) {
    const text = state.undo_request === state.you ? gettext("You asked to take back your last move; waiting for the answer.")
      : fmt(gettext("%(name)s asks to take back their own last move (and your reply after it, if any)."), { name: playerName(state.undo_request) });
    (answers.includes("accept_undo") ? incoming : offer).push(text);
  }
  if (decisions.length && state.absence) { // what they are about (the line above the board is hidden then)
    incoming.push(fmt(gettext("%(name)s did not come back in time."), { name: playerName(state.absence.side) }));
  }
  $("offer-note").textContent = offer.join(" ");
  const bar = $("incoming");
  const note = incoming.join(" ");
  if ($("incoming-note").textContent !== note) $("incoming-note").textContent = note;
  $("answers").replaceChildren(...answers.map((c) => choiceButton(c, labels)));
  $("decisions").replaceChildren(...decisions.map((c) => choiceButton(c, labels)));
  bar.setAttribute("aria-label", answers.length ? gettext("Your opponent's offer") : gettext("Your opponent did not come back"));
  bar.hidden = answers.length + decisions.length === 0;
  fitIncoming();
}

// On a phone the open offer is a bar over the bottom of the screen: the page gets as much room
// below its end, so the bar never hides the last lines for good.
function fitIncoming() {
  const bar = $("incoming");
  const fixed = !bar.hidden && getComputedStyle(bar).position === "fixed";
  document.body.style.paddingBottom = fixed ? `${bar.offsetHeight}px` : "";
}
addEventListener("resize", fitIncoming);

// "… lost the connection — 0:42 left", ticking; when the grace ran out, what happens now.
function renderAbsence(now) {
  const el = $("absence");
  const a = state.status === "active" ? state.absence : null;
  // no absence, or this player's choice: then the bar with the choices says it (renderOffers); or
  // this player's own absence, from the page as it was made while they were away: they are back
  if (!a || deciding() || (state.you && !state.local && a.side === state.you)) { el.textContent = ""; el.hidden = true; return; }
  const name = playerName(a.side);
  el.hidden = false;
  if (!a.expired) {
    el.textContent = fmt(gettext("%(name)s lost the connection — %(time)s left to come back."),
      { name, time: mmss(Math.min(a.deadline_ms - now, a.grace_ms || Infinity)) });
    // the present player's own clock does not stop for it: waiting it out would lose on time
    if (state.you && !state.local && state.turn === state.you && state.deadline_ms != null) {
      el.textContent += " " + gettext("Your clock is still running: make your move.");
    }
  } else if (state.you && state.you !== a.side) {
    el.textContent = fmt(gettext("%(name)s did not come back. Wait one more minute, claim the win, or call it a draw."), { name });
  } else {
    el.textContent = fmt(gettext("%(name)s did not come back; the opponent is choosing what happens now."), { name });
  }
}

// Rock-paper-scissors that decided who moves first in this room: every round, both throws.
function renderThrows() {
  const el = $("throws");
  const rounds = state.throws || [];
  if (!rounds.length) { el.hidden = true; return; }
  const name = { rock: gettext("rock"), paper: gettext("paper"), scissors: gettext("scissors") };
  const parts = rounds.map((r) => ["X", "O"].map((side) => `${playerName(side)}: ${name[r[side]]}`).join(" – "));
  el.textContent = fmt(gettext("Rock-paper-scissors: %(rounds)s. %(name)s moves first."),
    { rounds: parts.join("; "), name: playerName("X") });
  el.hidden = false;
}

function renderCrowd() {
  const n = state.crowd || 0;
  const el = $("crowd");
  el.textContent = n ? fmt(ngettext("%(n)s spectator", "%(n)s spectators", n), { n }) : "";
}

// In caro the marks beside the names follow the people: the first mover may hold O.
function renderMarks() {
  if (reversi) return;
  for (const side of ["X", "O"]) {
    const player = root.querySelector(`.player[data-side="${side}"]`);
    const mark = markOf(side);
    player.querySelector(".mark").className = `mark mark-${mark.toLowerCase()}`;
    player.querySelector(".side-mark").textContent = mark;
  }
}

// A rated game that is over: each player's new rating and change beside their name (the
// `ratings` field of `game_over` and `state`, docs/protocol.md).
function renderRatings() {
  for (const side of ["X", "O"]) {
    const el = $(`rating-${side}`);
    const r = state.ratings ? state.ratings[side] : null;
    el.hidden = !r;
    el.textContent = r ? `${r.after} (${signedDelta(r.delta)})` : "";
    el.dataset.trend = !r ? "" : r.delta > 0 ? "up" : r.delta < 0 ? "down" : "";
    el.title = r ? fmt(gettext("Rating %(before)s → %(after)s"), { before: r.before, after: r.after }) : "";
  }
}

function signedDelta(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "\u00b10";
}

// ------------------------------------------------------------------ sounds

// Short tones made by the browser (no files): a move, your turn, low time, game over. On by
// default; one switch turns them off, remembered in this browser.
const sounds = (() => {
  const toggle = $("sound-toggle");
  toggle.checked = localStorage.getItem("caro.sound") !== "off";
  toggle.addEventListener("change", () => localStorage.setItem("caro.sound", toggle.checked ? "on" : "off"));
  let ctx = null;
  let warned = null;
  const unlock = () => {
    if (!ctx && window.AudioContext) ctx = new AudioContext();
    if (ctx && ctx.state === "suspended") ctx.resume();
  };
  document.addEventListener("pointerdown", unlock, { once: false, passive: true });
  document.addEventListener("keydown", unlock, { once: false, passive: true });
  function tone(freq, ms, delay = 0) {
    if (!toggle.checked || !ctx || ctx.state !== "running") return;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const t = ctx.currentTime + delay / 1000;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.12, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + ms / 1000);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + ms / 1000);
    root.dataset.lastSound = String(freq);
  }
  return {
    move(side) {
      tone(520, 70);
      if (state.you && side !== state.you && !state.local) tone(780, 120, 90); // your turn
    },
    lowTime(ms) {
      const key = `${state.game_id}:${state.ply}`;
      if (ms < 10000 && ms > 0 && warned !== key) { warned = key; tone(880, 150); }
    },
    over() { tone(660, 160); tone(440, 260, 170); },
  };
})();

// ------------------------------------------------------------------ opening procedures (RIF, Swap2)

// The running opening procedure (state.opening while not done), or null.
function openingNow() {
  const op = state.opening;
  return op && !op.done && state.status === "active" ? op : null;
}

function colourName(side) {
  return side === "X" ? gettext("Black") : gettext("White");
}

// Who acts in the opening, in words: "Black (Lan)" / "You (Black)" / on one device "Black".
function actorWords(side) {
  if (state.local) return colourName(side);
  if (state.you === side) return fmt(gettext("You (%(colour)s)"), { colour: colourName(side) });
  return fmt(gettext("%(colour)s (%(name)s)"), { colour: colourName(side), name: playerName(side) });
}

const OPENING_PROMPTS = () => ({
  place_1: gettext("%(who)s: place stone 1 (black) on the centre point."),
  place_2: gettext("%(who)s: place stone 2 (white) inside the central 3×3."),
  place_3: gettext("%(who)s: place stone 3 (black) inside the central 5×5."),
  swap: gettext("%(who)s: swap colours or keep White?"),
  place_4: gettext("%(who)s: place stone 4 (white) anywhere."),
  offer_5: gettext("%(who)s: offer two points for the 5th move (Black); your opponent picks one."),
  select_5: gettext("%(who)s: pick one of the two offered points; it becomes the 5th move."),
  place_three: gettext("%(who)s: place the first three stones, black, white, black (stone %(n)s now)."),
  second_choice: gettext("%(who)s: choose a colour, or place two more stones (white, then black) and hand the choice back."),
  second_place: gettext("%(who)s: place stone %(n)s (%(colour)s)."),
  first_choice: gettext("%(who)s: choose your colour for the rest of the game."),
});

// The opening box: what must happen now, the buttons of a choice, and the steps so far.
function renderOpening() {
  const box = $("opening");
  const op = state.opening;
  box.hidden = !op;
  if (!op) return;
  const running = openingNow();
  const n = (state.ply || 0) + 1;
  const mine = running && me() === running.actor && !(state.bot && running.actor === state.bot.side);
  let prompt = "";
  if (running) {
    prompt = fmt(OPENING_PROMPTS()[running.step] || "", { who: actorWords(running.actor), n,
      colour: n % 2 ? gettext("black") : gettext("white") });
    if (state.bot && running.actor === state.bot.side) prompt += " " + gettext("The computer is deciding…");
    if (mine && running.step === "offer_5") {
      prompt += " " + (proposal.length ? fmt(gettext("Chosen: %(points)s."), { points: proposal.join(", ") })
        : gettext("Click two empty points."));
    }
  } else {
    prompt = op.swapped ? gettext("Opening over: the players swapped colours.") : gettext("Opening over: the colours stay as they began.");
  }
  $("opening-prompt").textContent = prompt;
  const buttons = [];
  const add = (label, frame, testid, primary = false, disabled = false) => {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = primary ? "btn btn-primary" : "btn";
    btn.textContent = label;
    btn.dataset.opening = JSON.stringify(frame);
    btn.dataset.testid = testid;
    btn.disabled = disabled;
    buttons.push(btn);
  };
  if (mine && running.allowed.includes("swap")) {
    add(gettext("Swap: I take Black"), { action: "swap" }, "opening-swap", true);
    add(gettext("Keep White"), { action: "keep" }, "opening-keep");
  }
  if (mine && running.allowed.includes("choose")) {
    add(gettext("Play Black"), { action: "choose", color: "X" }, "opening-choose-X", true);
    add(gettext("Play White"), { action: "choose", color: "O" }, "opening-choose-O");
    if (running.allowed.includes("place")) {
      const hint = document.createElement("span");
      hint.className = "hint";
      hint.textContent = gettext("…or place the 4th stone (white) on the board to put two more stones.");
      buttons.push(hint);
    }
  }
  if (mine && running.step === "offer_5") {
    add(gettext("Offer these two points"), { action: "offer", squares: proposal }, "opening-offer", true, proposal.length !== 2);
    add(gettext("Clear"), { clear: true }, "opening-clear", false, proposal.length === 0);
  }
  if (mine && running.step === "select_5") {
    for (const sq of running.offers) add(fmt(gettext("Play %(square)s"), { square: sq }), { action: "select", square: sq }, `opening-select-${sq}`, true);
  }
  if (running && !mine && running.offers.length) {
    const offered = document.createElement("span");
    offered.textContent = fmt(gettext("Offered for the 5th move: %(points)s."), { points: running.offers.join(", ") });
    buttons.push(offered);
  }
  $("opening-choices").replaceChildren(...buttons);
  $("opening-log").replaceChildren(...op.log.map((entry) => {
    const li = document.createElement("li");
    li.textContent = openingStepText(entry);
    return li;
  }));
}

// One logged step in words: "Black (Lan) placed H8", "White swapped colours", "Black offered J9, G9".
function openingStepText(entry) {
  // The colour held at that step (a swap changes it after), the person by the side they hold now.
  const who = colourName(entry.as ?? entry.by) + (state.local ? "" : ` (${playerName(entry.by)})`);
  const squares = entry.squares.join(", ");
  switch (entry.kind) {
    case "place": return fmt(gettext("%(who)s placed stone %(n)s on %(square)s."), { who, n: entry.plies[0], square: squares });
    case "swap": return fmt(gettext("%(who)s swapped colours."), { who });
    case "keep": return fmt(gettext("%(who)s kept the colours."), { who });
    case "offer": return fmt(gettext("%(who)s offered %(squares)s for the 5th move."), { who, squares });
    case "select": return fmt(gettext("%(who)s picked %(square)s as the 5th move."), { who, square: squares });
    case "choose": return fmt(gettext("%(who)s chose %(colour)s."), { who, colour: colourName(entry.color) });
    default: return "";
  }
}

function propose(sq) {
  if ((state.fouls || {})[sq]) { note(fmt(gettext("%(square)s is a foul point for X: %(kind)s."), { square: sq, kind: foulKind(state.fouls[sq]) })); return; }
  if (proposal.includes(sq)) proposal = proposal.filter((p) => p !== sq);
  else if (proposal.length < 2) proposal.push(sq);
  else note(gettext("Two points are chosen: click one again to change it, or offer them."));
  render();
}

$("opening-choices").addEventListener("click", (e) => {
  const btn = e.target.closest("button[data-opening]");
  if (!btn) return;
  const frame = JSON.parse(btn.dataset.opening);
  if (frame.clear) { proposal = []; render(); return; }
  if (send({ type: "opening", ...frame })) btn.disabled = true;
});

// ------------------------------------------------------------------ input

// Reversi: a square where the side to move may play (the server's `legal` list, docs/protocol.md);
// anything else is refused here with the reason, and no move is sent. Caro: every empty square.
function playable(sq) {
  if (!reversi || (state.legal || []).includes(sq)) return true;
  note(fmt(gettext("%(square)s flips no disc: play one of the squares marked with a dot."), { square: sq }));
  return false;
}

function play(sq) {
  if (!myTurn() || squares.get(sq).dataset.stone || !playable(sq)) return;
  const id = uuid();
  if (send({ type: "move", square: sq, ply: state.ply + 1, id })) {
    pending = { square: sq, id };
    ghost = null;
    render();
  }
}

function choose(sq) {
  if (!myTurn() || squares.get(sq).dataset.stone) return;
  const op = openingNow();
  if (op && op.step === "offer_5") { propose(sq); return; }
  if (op && !op.allowed.includes("place") && !op.allowed.includes("select")) {
    note(gettext("This step is a choice: use the buttons under the board.")); return;
  }
  const foul = (state.fouls || {})[sq];
  if (foul) { note(fmt(gettext("%(square)s is a foul point for X: %(kind)s."), { square: sq, kind: foulKind(foul) })); return; }
  if (!playable(sq)) return;
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
$("decline-rematch").addEventListener("click", () => {
  if (send({ type: "decline_rematch", game_id: state.game_id })) $("decline-rematch").disabled = true;
});
$("undo").addEventListener("click", () => send({ type: "undo" }));
function onChoice(e) {
  const btn = e.target.closest("button[data-frame]");
  if (!btn) return;
  if (btn.dataset.confirm && !confirm(btn.dataset.confirm)) return;
  if (!send({ type: btn.dataset.frame })) return;
  btn.disabled = true;
  // leaving the table: back home once the server has ended the game (the home page says what
  // leaving did), or after LEAVE_WAIT_MS whatever happened
  if (btn.dataset.frame === "leave") leaving = setTimeout(goHome, LEAVE_WAIT_MS);
}
function goHome() {
  location.href = `${root.dataset.home}?left=${encodeURIComponent(root.dataset.code)}`;
}
$("offers").addEventListener("click", onChoice);
$("answers").addEventListener("click", onChoice);
$("decisions").addEventListener("click", onChoice);
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
    if (m.code === root.dataset.code && m.seated && m.visitor !== visitor && !state.you) location.reload();
  });
  tabs.postMessage({ code: root.dataset.code, visitor, seated: Boolean(state.you) });
}

render();
connect();
