// The room's invitation to watch: the spectators' count, who plays and who watches, and the copy
// buttons of the share links.

import { fmt, playerName } from "./words.js";

export class Share {
  // root: the page's `.room` (its `data-kind` is the room's kind); flash(text): say something.
  constructor(root, { flash }) {
    this.root = root;
    this.$ = (role) => root.querySelector(`[data-role="${role}"]`);
    for (const btn of root.querySelectorAll('[data-role="copy"]')) {
      btn.addEventListener("click", async () => {
        const input = document.getElementById(btn.dataset.target);
        try { await navigator.clipboard.writeText(input.value); flash(gettext("Link copied.")); } catch { input.select(); }
      });
    }
  }

  render(state) {
    this.renderCrowd(state);
    this.renderWatchHint(state);
  }

  renderCrowd(state) {
    const el = this.$("crowd");
    if (!el) return;
    const n = state.crowd || 0;
    el.textContent = n ? fmt(ngettext("%(n)s spectator", "%(n)s spectators", n), { n }) : "";
  }

  // Who plays and who watches, once both seats are taken.
  renderWatchHint(state) {
    const hint = this.$("watch-hint");
    if (!hint || this.root.dataset.kind !== "friend") return;
    if (state.status === "waiting") {
      hint.textContent = gettext("Anyone with the link can watch; a free seat goes to the first who takes it.");
    } else if (state.status === "finished" || state.status === "aborted") {
      // Over: not "are playing" any more (the result itself is the status line's).
      hint.textContent = fmt(gettext("The game between %(x)s and %(o)s is over; anyone who opens the link sees how it ended."),
        { x: playerName(state, "X"), o: playerName(state, "O") });
    } else {
      hint.textContent = fmt(gettext("%(x)s and %(o)s are playing; anyone else who opens the link watches."),
        { x: playerName(state, "X"), o: playerName(state, "O") });
    }
  }
}
