// The tab title says whose turn it is; when the opponent moves while the tab is in the background
// it flashes "Your turn!" until the tab is looked at again (no notification permission needed).

import { fmt, sideName } from "./words.js";

// The steady title's words for `state`.
export function titleWords(state) {
  if (state.status === "waiting") return gettext("Waiting for an opponent");
  if (state.status !== "active") return gettext("Game over");
  if (state.local) return fmt(gettext("%(side)s to move"), { side: sideName(state, state.turn) });
  if (state.you && state.turn === state.you) return gettext("Your turn");
  return fmt(gettext("%(side)s to move"), { side: sideName(state, state.turn) });
}

export class Title {
  // root: the page's `.room` (`data-title-flash` is set on it while the title flashes).
  constructor(root) {
    this.root = root;
    this.base = document.title;
    this.flashing = null;
    this.state = null;
    document.addEventListener("visibilitychange", () => { if (!document.hidden && this.flashing) this.stop(); });
  }

  steady() {
    return `${titleWords(this.state)} · ${this.base}`;
  }

  // myTurn: this player is to move now (a flash stops once it is not).
  render(state, myTurn) {
    this.state = state;
    if (this.flashing && !myTurn) this.stop();
    if (!this.flashing) document.title = this.steady();
  }

  // The opponent moved while the tab is hidden.
  flash() {
    if (this.flashing) return;
    let on = false;
    const tick = () => { on = !on; document.title = on ? gettext("Your turn!") : this.base; };
    tick();
    this.flashing = setInterval(tick, 1000);
    this.root.dataset.titleFlash = "1";
  }

  stop() {
    clearInterval(this.flashing);
    this.flashing = null;
    delete this.root.dataset.titleFlash;
    document.title = this.steady();
  }
}
