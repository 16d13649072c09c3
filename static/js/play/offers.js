// Offers and choices between two people: the buttons of what the player may do now (the `choices`
// of the state: offer a draw, ask to take back, leave), the answers to the opponent's open offer
// and what to do about an opponent who did not come back (in their own box: beside the status on a
// desktop, a bar fixed at the bottom of a phone's screen), and the absence countdown.

import { fmt, mmss, playerName } from "./words.js";

// What each choice is called on its button, and the question asked before the ones that end the game.
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

// The answers to the opponent's open offer (draw, take-back), and the choices about an opponent who
// did not come back in time.
const ANSWERS = new Set(["accept_draw", "decline_draw", "accept_undo", "decline_undo"]);
const DECISIONS = new Set(["wait", "claim_win", "claim_draw"]);

// Whether this player chooses now what happens to an opponent whose grace ran out.
export function deciding(state) {
  return state.status === "active" && (state.choices || []).some((c) => DECISIONS.has(c));
}

// The choices sorted into the three places they are shown: {offers, answers, decisions}.
export function sortChoices(state, seated) {
  const labels = CHOICES();
  const choices = seated && state.status === "active" ? (state.choices || []).filter((c) => c !== "resign" && labels[c]) : [];
  return {
    offers: choices.filter((c) => !ANSWERS.has(c) && !DECISIONS.has(c)),
    answers: choices.filter((c) => ANSWERS.has(c)),
    decisions: choices.filter((c) => DECISIONS.has(c)),
  };
}

// Why "Offer a draw" is gone after this player's offer was declined or lapsed: a player may offer
// again only 20 plies after their last offer (caro.games.state.DRAW_OFFER_EVERY_PLIES; the state's
// `draw_again` holds the ply from which each side may). "" when there is nothing to explain.
export function drawWaitText(state, seated) {
  const again = seated && !state.local && state.status === "active" && !state.draw_offer
    ? (state.draw_again || {})[state.you] : null;
  if (!Number.isInteger(again) || again <= state.ply || (state.choices || []).includes("offer_draw")) return "";
  const n = again - state.ply;
  return fmt(ngettext("Your draw offer was not accepted: you may offer a draw again after %(n)s more move (yours or your opponent's).",
    "Your draw offer was not accepted: you may offer a draw again after %(n)s more moves (yours and your opponent's).", n), { n });
}

// How long an absent player has left, and what runs out first: `{ms, by}` with `by` "clock" when
// their own move clock (still running while they are away: docs/protocol.md, "Presence and
// absence") ends before the grace period does, so a loss on time comes first, else "grace". The
// countdown never promises more than either allows (`grace_ms` caps it too). `now`: Unix ms.
export function absenceCountdown(state, now) {
  const a = state.absence;
  const grace = Math.max(0, Math.min(a.deadline_ms - now, a.grace_ms || Infinity));
  if (state.turn === a.side && state.deadline_ms != null) {
    const clock = Math.max(0, state.deadline_ms - now);
    if (clock < grace) return { ms: clock, by: "clock" };
  }
  return { ms: grace, by: "grace" };
}

// The sentence of the countdown while the absent player may still come back.
export function absenceText(state, now) {
  const name = playerName(state, state.absence.side);
  const { ms, by } = absenceCountdown(state, now);
  return by === "clock"
    ? fmt(gettext("%(name)s lost the connection — their clock runs out in %(time)s."), { name, time: mmss(ms) })
    : fmt(gettext("%(name)s lost the connection — %(time)s left to come back."), { name, time: mmss(ms) });
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

export class Offers {
  // root: the page's `.room`; choose(type, button): a choice was pressed (and confirmed where it
  // asks); returns whether it was sent.
  constructor(root, { choose }) {
    this.$ = (role) => root.querySelector(`[data-role="${role}"]`);
    const onClick = (e) => {
      const btn = e.target.closest("button[data-frame]");
      if (!btn) return;
      if (btn.dataset.confirm && !confirm(btn.dataset.confirm)) return;
      if (choose(btn.dataset.frame)) btn.disabled = true;
    };
    for (const role of ["offers", "answers", "decisions"]) this.$(role).addEventListener("click", onClick);
    addEventListener("resize", () => this.fitIncoming());
  }

  // The other offer buttons sit in their own box below the notices, away from the board (no
  // misclicks on a phone); spectators never get any (their `choices` are always empty).
  render(state, seated) {
    const labels = CHOICES();
    const { offers, answers, decisions } = sortChoices(state, seated);
    const box = this.$("offers");
    box.replaceChildren(...offers.map((c) => choiceButton(c, labels)));
    box.hidden = box.childElementCount === 0;
    const offer = []; // what the page says about offers under the board (own offers; all, for spectators)
    const incoming = []; // the opponent's offers this player may answer now
    if (state.status === "active" && state.draw_offer) {
      const text = state.draw_offer === state.you ? gettext("You offered a draw; waiting for the answer.")
        : fmt(gettext("%(name)s offers a draw."), { name: playerName(state, state.draw_offer) });
      (answers.includes("accept_draw") ? incoming : offer).push(text);
    }
    const drawWait = drawWaitText(state, seated);
    if (drawWait) offer.push(drawWait);
    if (state.status === "active" && state.undo_request) {
      const text = state.undo_request === state.you ? gettext("You asked to take back your last move; waiting for the answer.")
        : fmt(gettext("%(name)s asks to take back their own last move (and your reply after it, if any)."), { name: playerName(state, state.undo_request) });
      (answers.includes("accept_undo") ? incoming : offer).push(text);
    }
    if (decisions.length && state.absence) { // what they are about (the line above the board is hidden then)
      incoming.push(fmt(gettext("%(name)s did not come back in time."), { name: playerName(state, state.absence.side) }));
    }
    this.$("offer-note").textContent = offer.join(" ");
    const bar = this.$("incoming");
    const note = incoming.join(" ");
    if (this.$("incoming-note").textContent !== note) this.$("incoming-note").textContent = note;
    this.$("answers").replaceChildren(...answers.map((c) => choiceButton(c, labels)));
    this.$("decisions").replaceChildren(...decisions.map((c) => choiceButton(c, labels)));
    bar.setAttribute("aria-label", answers.length ? gettext("Your opponent's offer") : gettext("Your opponent did not come back"));
    bar.hidden = answers.length + decisions.length === 0;
    this.fitIncoming();
  }

  // On a phone the open offer is a bar over the bottom of the screen: the page gets as much room
  // below its end, so the bar never hides the last lines for good.
  fitIncoming() {
    const bar = this.$("incoming");
    const fixed = !bar.hidden && getComputedStyle(bar).position === "fixed";
    document.body.style.paddingBottom = fixed ? `${bar.offsetHeight}px` : "";
  }

  // "… lost the connection — 0:42 left", ticking (`now`: the server's clock, Unix ms); when the
  // grace ran out, what happens now.
  renderAbsence(state, now) {
    const el = this.$("absence");
    const a = state.status === "active" ? state.absence : null;
    // no absence, or this player's choice: then the bar with the choices says it (render); or
    // this player's own absence, from the page as it was made while they were away: they are back
    if (!a || deciding(state) || (state.you && !state.local && a.side === state.you)) { el.textContent = ""; el.hidden = true; return; }
    const name = playerName(state, a.side);
    el.hidden = false;
    if (!a.expired) {
      el.textContent = absenceText(state, now);
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
}
