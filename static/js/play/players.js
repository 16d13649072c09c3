// The two players' boxes: each side's mark or colour, the name (with "(you)"), Reversi's disc
// count, the side to move highlighted, a rated game's ratings and stakes (in play) and new ratings
// (over); the rock-paper-scissors
// rounds that decided the first mover.

import { colourName, fmt, isReversi, markOf, playerName, signedDelta } from "./words.js";

// A side's entry of a rated game's `stakes` ({rating, games, provisional, win, draw, loss}): the
// rating as shown, "1200?" while provisional, and what each result would change, in words.
export function stakeRating(stake) {
  return `${stake.rating}${stake.provisional ? "?" : ""}`;
}

// A side's entry of a finished rated game's `ratings` ({before, after, delta, k, games,
// provisional}): the new rating and its change, "1220? (+20)" while the player is still
// provisional (fewer than ten rated games: the mark stays after the game, as on the leaderboard).
export function changeRating(change) {
  return `${change.after}${change.provisional ? "?" : ""} (${signedDelta(change.delta)})`;
}

export function stakeWords(stake) {
  return fmt(gettext("win %(win)s · draw %(draw)s · loss %(loss)s"),
    { win: signedDelta(stake.win), draw: signedDelta(stake.draw), loss: signedDelta(stake.loss) });
}

// The name in a side's box: "(you)" after this browser's own seat (not on one device), and once
// the game is over "(left the table)" after a player who left it (the state's `left`).
export function seatName(state, side) {
  let name = playerName(state, side);
  if (state.you === side && !state.local) name += ` (${gettext("you")})`;
  const over = state.status === "finished" || state.status === "aborted";
  if (over && state.left === side) name += ` (${gettext("left the table")})`;
  return name;
}

export class Players {
  constructor(root) {
    this.root = root;
    this.$ = (role) => root.querySelector(`[data-role="${role}"]`);
  }

  render(state) {
    const reversi = isReversi(state);
    const stones = Object.values(state.stones || {});
    for (const side of ["X", "O"]) {
      this.$(`name-${side}`).textContent = seatName(state, side);
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

  // A rated game: while it is played, each player's rating (a provisional one marked "?") and
  // what a win, a draw or a loss would change (the state's `stakes`, from before the first move);
  // once it is over, each player's new rating and change (the `ratings` field of `game_over` and
  // `state`, docs/protocol.md).
  renderRatings(state) {
    const over = state.status === "finished" || state.status === "aborted";
    let provisional = false;
    for (const side of ["X", "O"]) {
      const el = this.$(`rating-${side}`);
      if (!el) continue;
      const r = state.ratings ? state.ratings[side] : null;
      const st = !over && state.stakes ? state.stakes[side] : null;
      el.hidden = !r && !st;
      el.dataset.trend = !r ? "" : r.delta > 0 ? "up" : r.delta < 0 ? "down" : "";
      el.dataset.provisional = (r ? r.provisional : st && st.provisional) ? "1" : "";
      if ((r || st) && el.dataset.provisional) provisional = true;
      if (r) {
        el.textContent = changeRating(r);
        el.title = r.provisional
          ? fmt(gettext("Provisional rating %(before)s → %(after)s: few rated games yet"), { before: r.before, after: r.after })
          : fmt(gettext("Rating %(before)s → %(after)s"), { before: r.before, after: r.after });
      } else if (st) {
        el.textContent = stakeRating(st);
        el.title = st.provisional ? fmt(gettext("Provisional rating %(rating)s: few rated games yet"), { rating: st.rating })
          : fmt(gettext("Rating %(rating)s"), { rating: st.rating });
      } else {
        el.textContent = "";
        el.title = "";
      }
      const stakes = this.$(`stakes-${side}`);
      if (!stakes) continue;
      stakes.hidden = !st;
      stakes.textContent = st ? stakeWords(st) : "";
    }
    const note = this.$("rating-note");
    if (note) {
      note.hidden = !provisional;
      note.textContent = provisional ? gettext("“?”: a provisional rating, few rated games yet.") : "";
    }
  }
}
