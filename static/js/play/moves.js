// The move list: numbered pairs ("12.  H8  I9") with Reversi's passes, scrolled inside its box so
// that the last move is in view; pointing at a move highlights its square on the board and the
// other way round. Online rooms and games on the device share it.

import { fmt } from "./words.js";

// The moves as entries {side, square} in order, with a pass ({side, square: null}) wherever a side
// moved twice in a row (Reversi: the other side had no legal move; the state and the move event's
// `passed` agree on it). X always moves first. `moves`: [[square, side], ...]; `active`: the game
// is on; `turn`: the side to move; `passes`: the game has passes (Reversi). Caro has none: during a
// RIF or Swap2 opening the side to act may be the one that just placed a stone (stones 1-3, the
// offered 5th moves, a swap), and that decision is not a move of the list.
export function moveEntries(moves, active, turn, passes = true) {
  const out = [];
  for (const [square, side] of moves) {
    const prev = out.length ? out[out.length - 1].side : "O";
    if (passes && prev === side) out.push({ side: side === "X" ? "O" : "X", square: null });
    out.push({ side, square });
  }
  // The side that just moved is to move again: the other one has just passed.
  const lastSide = out.length ? out[out.length - 1].side : null;
  if (passes && active && lastSide && turn === lastSide) {
    out.push({ side: lastSide === "X" ? "O" : "X", square: null });
  }
  return out;
}

// The entries of a game state's move list: passes only in Reversi.
export function stateEntries(state) {
  return moveEntries(state.moves, state.status === "active", state.turn, state.kind === "reversi");
}

export class MoveList {
  // list: the <ol data-role="moves">; board: the BoardView whose squares are highlighted.
  constructor(list, board) {
    this.list = list;
    this.board = board;
    this.hovered = null;
    list.addEventListener("pointerover", (e) => { const mv = e.target.closest(".mv[data-sq]"); this.highlight(mv ? mv.dataset.sq : null); });
    list.addEventListener("pointerleave", () => this.highlight(null));
  }

  // state: the game state (moves, status, turn); name(side): a side in words.
  render(state, name) {
    const entries = stateEntries(state);
    const last = state.moves.length ? state.moves[state.moves.length - 1][0] : null;
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
          mv.title = `${name(entry.side)} ${entry.square}`;
        } else {
          mv.classList.add("pass");
          mv.textContent = gettext("pass");
          mv.title = fmt(gettext("%(side)s passes"), { side: name(entry.side) });
        }
        li.append(mv);
      }
      rows.push(li);
    }
    const changed = String(entries.length) !== this.list.dataset.count;
    this.list.replaceChildren(...rows);
    this.list.dataset.count = entries.length;
    const played = this.list.querySelectorAll(".mv[data-sq]");
    if (played.length && last) played[played.length - 1].classList.add("last");
    if (changed) this.list.scrollTop = this.list.scrollHeight; // inside the box only: the page does not move
    if (this.hovered) this.highlight(this.hovered);
  }

  // Highlight `sq` (null: nothing) in the list and on the board.
  highlight(sq) {
    this.hovered = sq;
    for (const el of this.list.querySelectorAll(".hl")) el.classList.remove("hl");
    this.board.highlight(sq);
    if (!sq) return;
    for (const el of this.list.querySelectorAll(`.mv[data-sq="${sq}"]`)) el.classList.add("hl");
  }
}
