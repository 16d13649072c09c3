// The game's own buttons under the board: take back, resign, and once the game is over "Play
// again" (between two people an offer the opponent accepts or declines; against the computer with
// the level of the next game), with the line that says where a rematch stands, and the links to
// the finished game's record (replay, download, report: the room page's `record_url`).

import { fmt, playerName } from "./words.js";

// The record page among a game's `record_url` ({vi, en}) for a page in language `lang`
// (Vietnamese unless English).
export function recordLink(urls, lang) {
  return urls[lang === "en" || (lang || "").startsWith("en-") ? "en" : "vi"] || urls.vi;
}

// Where the rematch stands after a game, for this browser (seated: it plays in the game; a
// spectator's `state.you` is null): `offer` (show "Play again"), `answering` (the opponent asked:
// the button accepts, and the offer may be declined), `waiting` (this player asked: the button
// waits) and `note`, the line under the buttons. A spectator sees a line only when a player asked.
// After a player left the table (the state's `left`) no rematch is offered (the server refuses
// one, `opponent_left`): the one who stayed is told so.
export function rematchView(state, seated, declinedBy) {
  const over = state.status === "finished" || state.status === "aborted";
  const view = { offer: false, answering: false, waiting: false, note: "" };
  if (!over) return view;
  const mine = Boolean(seated && state.you);
  if (state.left) {
    if (mine && state.left !== state.you) {
      view.note = gettext("Your opponent left the table: there is no rematch. Start a new game from the home page.");
    }
    return view;
  }
  const offered = state.rematch_offer || null;
  view.offer = Boolean(seated);
  view.waiting = mine && offered === state.you;
  view.answering = Boolean(seated && offered && offered !== state.you);
  view.note = view.waiting ? gettext("Waiting for your opponent to accept…")
    : offered ? fmt(gettext("%(name)s wants to play again."), { name: playerName(state, offered) })
    : declinedBy && seated && declinedBy !== state.you
      ? fmt(gettext("%(name)s declined the rematch."), { name: playerName(state, declinedBy) }) : "";
  return view;
}

export class Controls {
  // root: the page's `.room`. Each action returns whether it was sent: playAgain(level | null),
  // declineRematch(), undo(), resign().
  constructor(root, { playAgain, declineRematch, undo, resign }) {
    this.root = root;
    const $ = (this.$ = (role) => root.querySelector(`[data-role="${role}"]`));
    $("play-again").addEventListener("click", () => {
      // A computer or one-device room the server made before such games moved to the device: the
      // next game opens on the device page, with the same rules and level (the room's data-device-url).
      if (root.dataset.deviceUrl) { window.location.assign(root.dataset.deviceUrl); return; }
      const level = $("level");
      if (playAgain(level ? level.value : null)) $("play-again").disabled = true;
    });
    $("decline-rematch").addEventListener("click", () => {
      if (declineRematch()) $("decline-rematch").disabled = true;
    });
    $("undo").addEventListener("click", () => undo());
    $("resign").addEventListener("click", () => { if (confirm(gettext("Resign this game?"))) resign(); });
  }

  // An action was refused: the decline button may be pressed again.
  refused() {
    this.$("decline-rematch").disabled = false;
  }

  // seated: this browser plays in the game; declinedBy: the side that declined this game's last
  // rematch offer (its note), or null.
  render(state, seated, declinedBy) {
    const $ = this.$;
    const view = rematchView(state, seated, declinedBy);
    const again = $("play-again");
    again.hidden = !view.offer;
    again.textContent = view.answering ? gettext("Accept the rematch") : gettext("Play again");
    // A banned player (the page said so when drawn, or a moderator's ban just came): the play
    // buttons stay disabled, described by the notice that gives the reason.
    const refusal = this.root.dataset.closed === "banned" ? "moderation-notice"
      : this.root.dataset.playRefused === "1" ? "restriction-notice" : null;
    again.disabled = Boolean(refusal) || view.waiting;
    for (const button of [again, document.querySelector('[data-testid="take-seat"]')]) {
      if (!button) continue;
      if (refusal) { button.disabled = true; button.setAttribute("aria-describedby", refusal); }
    }
    const decline = $("decline-rematch");
    if (decline.hidden === view.answering) decline.disabled = false; // shown afresh for each offer
    decline.hidden = !view.answering;
    const levelChoice = this.root.querySelector(".level-choice");
    if (levelChoice) levelChoice.hidden = !view.offer;
    $("rematch-note").textContent = view.note;
    $("resign").hidden = !(seated && state.status === "active");
    $("undo").hidden = !(seated && state.can_undo);
    this.renderRecord(state, seated);
    for (const el of document.querySelectorAll("[data-show-when-waiting]")) {
      el.hidden = state.status !== "waiting" || (el.dataset.showWhenWaiting === "seated") !== seated;
    }
  }

  // A game that is over links to its record page in the page's language (`record_url` of the
  // state and of `game_over`, docs/protocol.md): the replay, its downloads, and for a player
  // whose opponent was a person the report form. Pages without the box (on the device) skip it.
  renderRecord(state, seated) {
    const box = this.$("record-links");
    if (!box) return;
    const over = state.status === "finished" || state.status === "aborted";
    const urls = over ? state.record_url : null;
    box.hidden = !urls;
    if (!urls) return;
    const url = recordLink(urls, document.documentElement.lang);
    this.$("record-replay").href = url;
    this.$("record-export").href = `${url}#downloads`;
    const other = (state.players || {})[state.you === "X" ? "O" : "X"];
    const report = this.$("record-report");
    report.hidden = !(seated && !state.local && other && !other.bot);
    report.href = `${url}#report`;
  }
}
