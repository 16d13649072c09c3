// The page's short messages: a rule notice that stays until the next move (a five that does not
// win, a pass), a passing message (an error, "Link copied.", 6 s), and the connection's state, said
// honestly: a banner under the status line while the connection is lost ("reconnecting…", and
// that a move was not sent), then "connected again" for a moment once the game is back in step.

const FLASH_MS = 6000;
const BACK_MS = 4000;

export class Notices {
  constructor(root) {
    this.root = root;
    const $ = (role) => root.querySelector(`[data-role="${role}"]`);
    this.noteEl = $("note");
    this.connEl = $("conn");
    this.banner = $("conn-state");
    this.lasting = ""; // the connection line's own message (a room that is gone), under any flash
    this.flashTimer = null;
    this.backTimer = null;
    this.state = "connecting";
  }

  // A rule notice (a five that does not win, a pass): stays until the next move.
  note(message) {
    this.noteEl.textContent = message;
  }

  // A passing message on the connection line; the line's lasting message comes back after it.
  flash(message) {
    this.connEl.textContent = message;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => { if (this.connEl.textContent === message) this.connEl.textContent = this.lasting; }, FLASH_MS);
  }

  // A lasting message on the connection line ("" clears it, and any flash).
  line(message) {
    this.lasting = message;
    clearTimeout(this.flashTimer);
    this.connEl.textContent = message;
  }

  // The connection's state: "live", "lost" (reconnecting) or "gone" (no reconnect). `refused`:
  // a move was tried while lost, and not sent.
  connection(state, { refused = false } = {}) {
    const was = this.state;
    this.state = state;
    this.root.dataset.connected = state === "live" ? "1" : "0";
    this.root.dataset.conn = state;
    clearTimeout(this.backTimer);
    if (state === "lost") {
      const words = [gettext("Connection lost. Reconnecting…")];
      if (refused) words.push(gettext("Your move was not sent: play it again once the connection is back."));
      else words.push(gettext("Moves wait until it is back."));
      this.show(words.join(" "), "lost");
    } else if (state === "live" && was === "lost") {
      this.show(gettext("Connected again."), "back");
      this.backTimer = setTimeout(() => this.show("", ""), BACK_MS);
    } else {
      this.show("", "");
    }
  }

  show(text, kind) {
    if (!this.banner) return;
    this.banner.textContent = text;
    this.banner.dataset.kind = kind;
    this.banner.hidden = !text;
  }
}
