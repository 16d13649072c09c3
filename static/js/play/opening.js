// The opening procedures (RIF, Swap2; docs/protocol.md, "Opening procedures"): what must happen
// now and who does it, the buttons of a choice (swap or keep, a colour, the two points offered for
// the 5th move and the pick among them), and the steps taken so far. It reads the `opening` view of
// the state, whichever source made it, and hands the chosen action to its owner.

import { fmt, playerName, sideName } from "./words.js";

// The running opening procedure (state.opening while not done), or null.
export function openingNow(state) {
  const op = state.opening;
  return op && !op.done && state.status === "active" ? op : null;
}

// Who acts in the opening, in words: "X (Lan)" / "You (X)" / on one device "X". The opening's
// sides are named by the site's X and O, as their stones are drawn (an opening game draws the
// first mover's stones as X: Game.mark_of), never "Black" / "White" beside them.
function actorWords(state, side) {
  if (state.local) return sideName(state, side);
  if (state.you === side) return fmt(gettext("You (%(colour)s)"), { colour: sideName(state, side) });
  return fmt(gettext("%(colour)s (%(name)s)"), { colour: sideName(state, side), name: playerName(state, side) });
}

const OPENING_PROMPTS = () => ({
  place_1: gettext("%(who)s: place stone 1 (X) on the centre point."),
  place_2: gettext("%(who)s: place stone 2 (O) inside the central 3×3."),
  place_3: gettext("%(who)s: place stone 3 (X) inside the central 5×5."),
  swap: gettext("%(who)s: swap sides (take X) or keep O?"),
  place_4: gettext("%(who)s: place stone 4 (O) anywhere."),
  offer_5: gettext("%(who)s: offer two points for the 5th move (X); your opponent picks one."),
  select_5: gettext("%(who)s: pick one of the two offered points; it becomes the 5th move."),
  place_three: gettext("%(who)s: place the first three stones, X, O, X (stone %(n)s now)."),
  second_choice: gettext("%(who)s: choose X or O, or place two more stones (O, then X) and hand the choice back."),
  second_place: gettext("%(who)s: place stone %(n)s (%(colour)s)."),
  first_choice: gettext("%(who)s: choose X or O for the rest of the game."),
});

// One logged step in words: "X (Lan) placed stone 1 on H8.", "O (Minh) swapped sides.", "X offered J9, G9".
export function openingStepText(state, entry) {
  // The side held at that step (a swap changes it after), the person by the side they hold now.
  const who = sideName(state, entry.as ?? entry.by) + (state.local ? "" : ` (${playerName(state, entry.by)})`);
  const squares = entry.squares.join(", ");
  switch (entry.kind) {
    case "place": return fmt(gettext("%(who)s placed stone %(n)s on %(square)s."), { who, n: entry.plies[0], square: squares });
    case "swap": return fmt(gettext("%(who)s swapped sides."), { who });
    case "keep": return fmt(gettext("%(who)s kept their side."), { who });
    case "offer": return fmt(gettext("%(who)s offered %(squares)s for the 5th move."), { who, squares });
    case "select": return fmt(gettext("%(who)s picked %(square)s as the 5th move."), { who, square: squares });
    case "choose": return fmt(gettext("%(who)s chose %(colour)s."), { who, colour: sideName(state, entry.color) });
    default: return "";
  }
}

export class OpeningPanel {
  // root: the page's `.room`; act(frame): send an opening action ({action, square(s), color}),
  // returns whether it was sent; changed(): draw the page again; note(text): say something.
  constructor(root, { act, changed, note }) {
    this.$ = (role) => root.querySelector(`[data-role="${role}"]`);
    this.changed = changed;
    this.note = note;
    this.proposal = []; // RIF: the 5th-move points chosen for the offer, not sent yet
    this.$("opening-choices").addEventListener("click", (e) => {
      const btn = e.target.closest("button[data-opening]");
      if (!btn) return;
      const frame = JSON.parse(btn.dataset.opening);
      if (frame.clear) { this.proposal = []; changed(); return; }
      if (act(frame)) btn.disabled = true;
    });
  }

  // A new state arrived: the points chosen for an offer stay only while the offer is still to make.
  stateChanged(state) {
    const op = openingNow(state);
    if (!op || op.step !== "offer_5") this.proposal = [];
  }

  // RIF's offer: a click on an empty point (not a foul: the owner checks) adds it to, or takes it
  // off, the two points to offer.
  propose(sq) {
    if (this.proposal.includes(sq)) this.proposal = this.proposal.filter((p) => p !== sq);
    else if (this.proposal.length < 2) this.proposal.push(sq);
    else this.note(gettext("Two points are chosen: click one again to change it, or offer them."));
    this.changed();
  }

  // me: the side this browser plays now (null for a spectator).
  render(state, me) {
    const box = this.$("opening");
    const op = state.opening;
    box.hidden = !op;
    if (!op) return;
    const running = openingNow(state);
    const n = (state.ply || 0) + 1;
    const computerActs = Boolean(running && state.bot && running.actor === state.bot.side);
    const mine = running && me === running.actor && !computerActs;
    const proposal = this.proposal;
    let prompt = "";
    if (running) {
      prompt = fmt(OPENING_PROMPTS()[running.step] || "", { who: actorWords(state, running.actor), n,
        colour: n % 2 ? sideName(state, "X") : sideName(state, "O") });
      if (computerActs) prompt += " " + gettext("The computer is deciding…");
      if (mine && running.step === "offer_5") {
        prompt += " " + (proposal.length ? fmt(gettext("Chosen: %(points)s."), { points: proposal.join(", ") })
          : gettext("Click two empty points."));
      }
    } else {
      prompt = op.swapped ? gettext("Opening over: the players swapped X and O.") : gettext("Opening over: X and O stay as they began.");
    }
    this.$("opening-prompt").textContent = prompt;
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
      add(gettext("Swap: I take X"), { action: "swap" }, "opening-swap", true);
      add(gettext("Keep O"), { action: "keep" }, "opening-keep");
    }
    if (mine && running.allowed.includes("choose")) {
      add(gettext("Play X"), { action: "choose", color: "X" }, "opening-choose-X", true);
      add(gettext("Play O"), { action: "choose", color: "O" }, "opening-choose-O");
      if (running.allowed.includes("place")) {
        const hint = document.createElement("span");
        hint.className = "hint";
        hint.textContent = gettext("…or place the 4th stone (O) on the board to put two more stones.");
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
    this.$("opening-choices").replaceChildren(...buttons);
    this.$("opening-log").replaceChildren(...op.log.map((entry) => {
      const li = document.createElement("li");
      li.textContent = openingStepText(state, entry);
      return li;
    }));
  }
}
