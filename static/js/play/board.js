// The board view: draws the squares (stones, the last move, the winning line, Renju foul points,
// Reversi's legal dots and the discs a move flips, the opening's area and offered points) and takes
// the player's input: pointer, keyboard (one focusable square, arrows, Enter), touch with the
// two-tap confirmation (first tap a ghost, second tap or "Play here" plays), and the zoom of big
// boards on a phone. It knows nothing of sockets, engines or rules: it is told what to draw
// (`render`) and asks its owner whether a chosen square may be played (`choose`) and to play it
// (`play`). Online rooms and games on the device share it.

import { colourWord, fmt, foulKind } from "./words.js";

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const MIN_SQUARE_PX = 22; // smaller squares get a zoom button (19×19 on a phone: 17 px)

// Column names left to right: A, B, … for caro (I included), a–h for Reversi.
export function columnLetters(reversi, size) {
  const letters = LETTERS.slice(0, size);
  return reversi ? letters.toLowerCase() : letters;
}

// "h", "v", "d" (down-right) or "a" (up-right) for a winning line given as square names.
export function lineDirection(sqs) {
  if (sqs.length < 2) return "";
  const pos = (sq) => [LETTERS.indexOf(sq[0].toUpperCase()), Number(sq.slice(1))];
  const [c1, r1] = pos(sqs[0]);
  const [c2, r2] = pos(sqs[1]);
  if (r1 === r2) return "h";
  if (c1 === c2) return "v";
  return (c2 - c1) * (r2 - r1) > 0 ? "d" : "a";
}

// The previewed Reversi move in words: "preview: a black disc here flips 3 discs".
function previewWords(side, n) {
  return fmt(ngettext("preview: a %(colour)s disc here flips %(n)s disc", "preview: a %(colour)s disc here flips %(n)s discs", n),
    { colour: colourWord(side), n });
}

export class BoardView {
  // root: the page's `.room` element, holding [data-role=board-wrap] (with its table, or empty: the
  // table is built here), the confirm switch and button, the zoom button and the preview note.
  // choose(sq) -> bool: the owner's checks (whose turn, a foul, an opening step); false when the
  // square may not be played now (the owner said why). play(sq): play it. changed(): something
  // the board shows changed by input alone (a ghost), draw the page again. hover(sq | null): a
  // stone is pointed at.
  constructor(root, { size, reversi, choose, play, changed, hover }) {
    this.root = root;
    this.size = size;
    this.reversi = reversi;
    this.choose = choose;
    this.play = play;
    this.changed = changed;
    this.hover = hover;
    this.ghost = null; // square chosen when confirmation is on, waiting for the second tap
    this.last = null;
    const $ = (role) => root.querySelector(`[data-role="${role}"]`);
    this.wrap = $("board-wrap");
    if (!this.wrap.querySelector(".sq")) this.build();
    this.table = this.wrap.querySelector(".board");
    this.squares = new Map();
    for (const btn of this.wrap.querySelectorAll(".sq")) this.squares.set(btn.dataset.sq, btn);
    this.letters = columnLetters(reversi, size);
    this.confirmButton = $("confirm");
    this.zoomButton = $("zoom");
    this.previewNote = $("preview-note");
    this.zoomWanted = localStorage.getItem("caro.zoom") === "1"; // the player's last choice

    // Move confirmation (tap to preview, tap again to play): on by default on touch screens.
    this.toggle = $("confirm-toggle");
    const saved = localStorage.getItem("caro.confirm");
    this.toggle.checked = saved === null ? matchMedia("(pointer: coarse)").matches : saved === "1";
    this.toggle.addEventListener("change", () => {
      localStorage.setItem("caro.confirm", this.toggle.checked ? "1" : "0");
      this.ghost = null;
      this.changed();
    });

    this.table.addEventListener("click", (e) => {
      const btn = e.target.closest(".sq");
      if (btn) this.tap(btn.dataset.sq);
    });
    this.confirmButton.addEventListener("click", () => { if (this.ghost) this.play(this.ghost); });
    this.table.addEventListener("pointerover", (e) => {
      const btn = e.target.closest(".sq");
      this.hover(btn && btn.dataset.stone ? btn.dataset.sq : null);
    });
    this.table.addEventListener("pointerleave", () => this.hover(null));
    this.zoomButton.addEventListener("click", () => {
      const on = !root.classList.contains("zoomed");
      this.zoomWanted = on;
      localStorage.setItem("caro.zoom", on ? "1" : "0");
      this.renderZoom();
    });
    addEventListener("resize", () => this.renderZoom());
    this.keyboard();
  }

  // The table of a page that leaves it to the script (the on-device pages: any size, any game).
  build() {
    const letters = columnLetters(this.reversi, this.size);
    const table = document.createElement("table");
    table.className = `board ${this.reversi ? "reversi" : "caro"}`;
    table.setAttribute("role", "grid");
    table.setAttribute("aria-label", this.reversi ? gettext("Reversi board 8 by 8")
      : fmt(gettext("Caro board %(n)s by %(n)s"), { n: this.size }));
    table.style.setProperty("--size", String(this.size));
    const head = document.createElement("tr");
    head.append(document.createElement("td"));
    for (const c of letters) {
      const th = document.createElement("th");
      th.scope = "col";
      th.setAttribute("aria-hidden", "true");
      th.textContent = c;
      head.append(th);
    }
    const thead = document.createElement("thead");
    thead.append(head);
    const tbody = document.createElement("tbody");
    for (let r = 1; r <= this.size; r++) {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.setAttribute("aria-hidden", "true");
      th.textContent = String(r);
      tr.append(th);
      for (const c of letters) {
        const td = document.createElement("td");
        td.setAttribute("role", "gridcell");
        const btn = document.createElement("button");
        btn.type = "button";
        btn.className = "sq";
        btn.dataset.sq = `${c}${r}`;
        btn.tabIndex = -1;
        btn.setAttribute("aria-label", `${c}${r}, ${gettext("empty")}`);
        td.append(btn);
        tr.append(td);
      }
      tbody.append(tr);
    }
    table.append(thead, tbody);
    this.wrap.replaceChildren(table);
  }

  // A square was clicked or tapped: the owner's checks, then the two-tap confirmation, then play.
  tap(sq) {
    if (!this.choose(sq)) return;
    if (this.toggle.checked && this.ghost !== sq) { this.ghost = sq; this.changed(); return; }
    this.play(sq);
  }

  clearGhost() {
    this.ghost = null;
  }

  // Whether a stone or disc stands on `sq` as last drawn.
  occupied(sq) {
    return Boolean(this.squares.get(sq)?.dataset.stone);
  }

  // v: {stones: {square: side}, me (the side this browser plays now, or null), myTurn, seated,
  // legal: [squares] (Reversi), legalFlips: {square: [discs]}, last, line: [squares], fouls:
  // {square: kind}, pending (a move sent, not confirmed), lastFlips: Set, opening (the running
  // procedure's view, or null), proposal: [squares], mark(side), name(side)}.
  render(v) {
    const stones = new Map(Object.entries(v.stones || {}));
    const legal = new Set(v.myTurn ? v.legal || [] : []);
    const line = new Set(v.line || []);
    const dir = lineDirection(v.line || []);
    this.last = v.last;
    // The previewed move (first of two taps, or sent and not confirmed yet) and, in Reversi, the
    // discs it would flip (the `legal_flips` of the state, docs/protocol.md).
    const previewSq = [this.ghost, v.pending].find((sq) => sq && !stones.get(sq)) || null;
    const flipping = new Set(previewSq && this.reversi ? (v.legalFlips || {})[previewSq] || [] : []);
    const op = v.opening;
    for (const [sq, btn] of this.squares) {
      const side = stones.get(sq) || "";
      const preview = sq === previewSq;
      btn.dataset.stone = side ? v.mark(side) : "";
      btn.textContent = side ? v.mark(side) : (preview && !this.reversi ? v.mark(v.me) : "");
      if (preview && this.reversi) btn.dataset.preview = v.me; else delete btn.dataset.preview;
      btn.classList.toggle("will-flip", flipping.has(sq));
      if (flipping.has(sq)) btn.dataset.flipTo = v.me; else delete btn.dataset.flipTo;
      btn.classList.toggle("last", sq === v.last);
      btn.classList.toggle("win", line.has(sq));
      if (line.has(sq)) btn.dataset.win = dir; else delete btn.dataset.win;
      btn.classList.toggle("ghost", Boolean(preview));
      const foul = !side && (v.fouls || {})[sq];
      btn.classList.toggle("foul", Boolean(foul));
      btn.classList.toggle("legal", legal.has(sq));
      btn.classList.toggle("flipped", v.lastFlips.has(sq));
      btn.classList.toggle("area", Boolean(op && op.area && op.area.includes(sq) && !side));
      btn.classList.toggle("offered", Boolean(op && op.offers.includes(sq)));
      btn.classList.toggle("proposed", v.proposal.includes(sq));
      let label = `${sq}, ${side ? v.name(side) : gettext("empty")}`;
      if (sq === v.last) label += `, ${gettext("last move")}`;
      if (line.has(sq)) label += `, ${gettext("winning line")}`;
      if (foul) label += `, ${fmt(gettext("foul point for X (%(kind)s)"), { kind: foulKind(foul) })}`;
      if (legal.has(sq)) label += `, ${gettext("legal move")}`;
      if (preview && this.reversi) label += `, ${previewWords(v.me, flipping.size)}`;
      if (flipping.has(sq)) label += `, ${fmt(gettext("flips to %(colour)s if %(square)s is played"), { colour: colourWord(v.me), square: previewSq })}`;
      btn.setAttribute("aria-label", label);
      btn.setAttribute("aria-disabled", side || !v.myTurn || (this.reversi && !legal.has(sq)) ? "true" : "false");
    }
    this.root.classList.toggle("my-turn", v.myTurn);
    this.root.querySelector('[data-role="confirm-choice"]').hidden = !v.seated; // nothing to confirm for a spectator
    this.confirmButton.hidden = !this.ghost;
    this.renderPreviewNote(previewSq, flipping, v.me);
    this.renderZoom();
  }

  // Under the board while a Reversi move is previewed: what it does and how to play it (also read
  // out: the element is a polite live region).
  renderPreviewNote(sq, flipping, side) {
    const text = this.reversi && sq && sq === this.ghost ? fmt(ngettext(
      "%(square)s: a %(colour)s disc here flips %(n)s disc (%(discs)s). Tap the square again, or “Play here”, to play.",
      "%(square)s: a %(colour)s disc here flips %(n)s discs (%(discs)s). Tap the square again, or “Play here”, to play.",
      flipping.size), { square: sq, colour: colourWord(side), n: flipping.size, discs: [...flipping].join(", ") }) : "";
    if (this.previewNote.textContent !== text) this.previewNote.textContent = text;
  }

  // A move pointed at (in the move list or on the board) is highlighted on its square.
  highlight(sq) {
    for (const el of this.table.querySelectorAll(".hl")) el.classList.remove("hl");
    if (sq) this.squares.get(sq)?.classList.add("hl");
  }

  // Big boards on a narrow screen: a zoom button makes the squares large enough to tap, and the
  // board scrolls inside its box with the coordinates kept in view (site.css, .zoomed).
  renderZoom() {
    const small = (this.wrap.clientWidth - 18) / this.size < MIN_SQUARE_PX;
    this.zoomButton.hidden = !small;
    const on = small && this.zoomWanted;
    const was = this.root.classList.contains("zoomed");
    this.root.classList.toggle("zoomed", on);
    this.zoomButton.setAttribute("aria-pressed", on ? "true" : "false");
    this.zoomButton.textContent = on ? gettext("Whole board") : gettext("Zoom the board");
    if (on && !was) {
      const target = this.squares.get(this.last || this.focusSq);
      const box = target.getBoundingClientRect();
      const frame = this.wrap.getBoundingClientRect();
      this.wrap.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
      this.wrap.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
    }
  }

  // Keyboard: one square is focusable at a time (roving tabindex); arrows move, Enter/Space plays.
  keyboard() {
    const half = Math.floor(this.size / 2);
    this.focusSq = `${this.letters[half]}${half + 1}`;
    this.squares.get(this.focusSq).tabIndex = 0;
    this.table.addEventListener("keydown", (e) => {
      const btn = e.target.closest(".sq");
      if (!btn) return;
      const col = this.letters.indexOf(btn.dataset.sq[0]);
      const row = Number(btn.dataset.sq.slice(1));
      const delta = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (delta) {
        e.preventDefault();
        const c = Math.min(this.size - 1, Math.max(0, col + delta[0]));
        const r = Math.min(this.size, Math.max(1, row + delta[1]));
        this.moveFocus(`${this.letters[c]}${r}`);
      } else if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        this.play(btn.dataset.sq);
      }
    });
    this.table.addEventListener("focusin", (e) => {
      const btn = e.target.closest(".sq");
      if (btn && btn.dataset.sq !== this.focusSq) this.moveFocus(btn.dataset.sq, false);
    });
  }

  moveFocus(sq, focus = true) {
    this.squares.get(this.focusSq).tabIndex = -1;
    this.focusSq = sq;
    const btn = this.squares.get(sq);
    btn.tabIndex = 0;
    if (focus) btn.focus();
  }
}
