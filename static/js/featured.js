// The home page's featured game (lobby/templates/lobby/featured.html): the highest-rated live game
// between people, drawn as a small SVG board and kept current move by move over the live socket
// (lobby/consumers.py, docs/protocol.md "Live socket"). Replaced by the next game when it ends.
// The same socket brings the counts of who is here, handed to live-counts.js as a `live-counts` event.
// One job: draw what the socket says. It never judges a move (the server did). The socket
// (live-socket.js) is not tried while the browser is offline and backs off while the server is away.
import { keepLive } from "./live-socket.js";

const root = document.querySelector("[data-featured]");
if (root) {
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const words = {};
  for (const el of document.getElementById("featured-words").content.querySelectorAll("[data-word]")) {
    words[el.dataset.word] = el.textContent;
  }
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_m, key) => values[key] ?? "");
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 20;
  let game = null;      // the featured state, kept current by the events

  function el(name, attrs) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    return node;
  }

  // Square name -> [column, row] (0-based): "H8" (caro) or "d3" (Reversi); row 1 at the top.
  function place(square) {
    const col = game.columns.indexOf(square[0]);
    return [col, Number(square.slice(1)) - 1];
  }

  function stone(square, side) {
    const [c, r] = place(square);
    const x = c * CELL, y = r * CELL;
    const g = el("g", {"data-sq": square, "data-stone": side, class: "stone"});
    if (game.kind === "reversi") {
      g.appendChild(el("circle", {cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: side === "X" ? "disc-black" : "disc-white"}));
    } else if ((game.marks[side] || side) === "X") {
      g.appendChild(el("path", {d: `M${x + 5} ${y + 5}L${x + 15} ${y + 15}M${x + 15} ${y + 5}L${x + 5} ${y + 15}`, class: "mark-x"}));
    } else {
      g.appendChild(el("circle", {cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.32, class: "mark-o"}));
    }
    return g;
  }

  function draw() {
    const board = $("featured-board");
    const title = board.querySelector("title");
    board.replaceChildren(title);
    const n = game.size, side = n * CELL;
    board.setAttribute("viewBox", `0 0 ${side} ${side}`);
    board.dataset.kind = game.kind;
    board.appendChild(el("rect", {x: 0, y: 0, width: side, height: side, class: "featured-bg"}));
    let lines = "";
    for (let i = 0; i <= n; i++) lines += `M0 ${i * CELL}H${side}M${i * CELL} 0V${side}`;
    board.appendChild(el("path", {d: lines, class: "featured-grid"}));
    for (const [square, who] of Object.entries(game.stones)) board.appendChild(stone(square, who));
    if (game.last) {
      const [c, r] = place(game.last);
      board.appendChild(el("rect", {x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2, class: "featured-last", "data-last": game.last}));
    }
    root.dataset.gameId = game.game_id;
    root.dataset.ply = String(Object.keys(game.stones).length);
  }

  function text() {
    const p = game.players;
    // A guest has no rating ("" from the server): nothing is shown beside the name.
    const who = (side) => [game.labels[side], p[side].name, p[side].rating].filter(Boolean).join(" ");
    $("featured-players").textContent = `${who("X")} – ${who("O")}`;
    $("featured-rules").textContent = game.rules;
    $("featured-link").href = game.url;
    $("featured-link").setAttribute("aria-label", `${words.watch}: ${p.X.name} – ${p.O.name}`);
    $("featured-status").textContent = game.over ? words.over : fill(words.turn, {side: game.labels[game.turn] || ""});
  }

  function show(state) {
    game = state;
    $("featured-empty").hidden = Boolean(game);
    $("featured-game").hidden = !game;
    if (!game) { delete root.dataset.gameId; return; }
    draw();
    text();
  }

  function onMove(f) {
    if (!game || f.game_id !== game.game_id) return;
    game.stones[f.square] = f.side;
    for (const sq of f.flips || []) game.stones[sq] = f.side;
    game.last = f.square;
    game.turn = f.side === "X" ? "O" : "X";
    draw();
    text();
  }

  function onFrame(f) {
    if (f.type === "featured") show(f.game);
    else if (f.type === "move") onMove(f);
    else if (f.type === "over" && game && f.game_id === game.game_id) { game.over = true; text(); }
    // Who is here, pushed on the same socket: live-counts.js shows it.
    else if (f.type === "counts") document.dispatchEvent(new CustomEvent("live-counts", {detail: f.html}));
  }

  const proto = location.protocol === "https:" ? "wss" : "ws";
  const counts = document.getElementById("live-counts") ? "&counts=1" : "";
  keepLive(() => `${proto}://${location.host}/ws/live/?featured=1${counts}&lang=${encodeURIComponent(document.documentElement.lang)}`, {
    frame: (f) => { try { onFrame(f); } catch (err) { console.error(err); } },
    // Not connected (offline, the server away): the board shown is the last one seen, not live.
    status: (live) => { root.dataset.connected = live ? "1" : ""; },
  });
}
