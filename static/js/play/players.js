// The two players' boxes: each side's mark or colour, the name (with "(you)"), Reversi's disc
// count, the side to move highlighted, and a rated game's new ratings; the rock-paper-scissors
// rounds that decided the first mover.

import { colourName, fmt, isReversi, markOf, playerName, signedDelta } from "./words.js";

export class Players {
  constructor(root) {
    this.root = root;
    this.$ = (role) => root.querySelector(`[data-role="${role}"]`);
  }

  render(state) {
    const reversi = isReversi(state);
    const stones = Object.values(state.stones || {});
    for (const side of ["X", "O"]) {
      let name = playerName(state, side);
      if (state.you === side && !state.local) name += ` (${gettext("you")})`;
      this.$(`name-${side}`).textContent = name;
      if (reversi) this.$(`count-${side}`).textContent = stones.filter((v) => v === side).length;
      this.root.querySelector(`.player[data-side="${side}"]`).classList.toggle("to-move", state.turn === side);
    }
    this.root.dataset.turn = state.turn || "";
    this.renderThrows(state);
    this.renderMarks(state);
    this.renderRatings(state);
  }

  // Rock-paper-scissors that decided who moves first in this room: every round, both throws.
  renderThrows(state) {
    const el = this.$("throws");
    if (!el) return;
    const rounds = state.throws || [];
    if (!rounds.length) { el.hidden = true; return; }
    const name = { rock: gettext("rock"), paper: gettext("paper"), scissors: gettext("scissors") };
    const parts = rounds.map((r) => ["X", "O"].map((side) => `${playerName(state, side)}: ${name[r[side]]}`).join(" – "));
    el.textContent = fmt(gettext("Rock-paper-scissors: %(rounds)s. %(name)s moves first."),
      { rounds: parts.join("; "), name: playerName(state, "X") });
    el.hidden = false;
  }

  // In caro the marks beside the names follow the people: the first mover may hold O. Reversi:
  // Black and White.
  renderMarks(state) {
    const reversi = isReversi(state);
    for (const side of ["X", "O"]) {
      const player = this.root.querySelector(`.player[data-side="${side}"]`);
      const mark = markOf(state, side);
      const colour = side === "X" ? "black" : "white";
      player.querySelector(".mark").className = `mark mark-${reversi ? colour : mark.toLowerCase()}`;
      player.querySelector(".side-mark").textContent = reversi ? colourName(side) : mark;
    }
  }

  // A rated game that is over: each player's new rating and change beside their name (the
  // `ratings` field of `game_over` and `state`, docs/protocol.md).
  renderRatings(state) {
    for (const side of ["X", "O"]) {
      const el = this.$(`rating-${side}`);
      if (!el) continue;
      const r = state.ratings ? state.ratings[side] : null;
      el.hidden = !r;
      el.textContent = r ? `${r.after} (${signedDelta(r.delta)})` : "";
      el.dataset.trend = !r ? "" : r.delta > 0 ? "up" : r.delta < 0 ? "down" : "";
      el.title = r ? fmt(gettext("Rating %(before)s → %(after)s"), { before: r.before, after: r.after }) : "";
    }
  }
}
