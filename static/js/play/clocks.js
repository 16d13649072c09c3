// The clocks beside the names. The player to move's counts down to the server's deadline
// (`deadline_ms`, Unix ms), on this browser's clock corrected by the offset measured from the
// fastest ping round trips; with total-time banks the other player's bank stands still. Under 10 s
// a clock turns red. Games without a clock (the computer, one device) show none.

import { mmss } from "./words.js";

export const TICK_MS = 250;
export const LOW_MS = 10000;

// The most a clock may show for `side`: its bank when the server last sent it (total time), or the
// time per move; Infinity when neither is known.
export function clockLimit(state, side) {
  if (state.banks && state.banks[side] != null) return state.banks[side];
  return state.move_time_ms || Infinity;
}

// What each clock shows at server time `now`: {X: ms | null, O: ms | null}.
export function clockTimes(state, now) {
  const out = {};
  for (const side of ["X", "O"]) {
    let ms = null;
    if (state.turn === side && state.deadline_ms != null) {
      // Never more than the move's time (or the bank) the server gave: this clock may be a little off.
      ms = Math.min(state.deadline_ms - now, clockLimit(state, side));
    } else if (state.banks && state.status === "active") ms = state.banks[side];
    out[side] = ms;
  }
  return out;
}

export class Clocks {
  // root: the page's `.room`; lowTime(ms): the player's own clock is running low.
  constructor(root, { lowTime }) {
    this.els = { X: root.querySelector('[data-role="clock-X"]'), O: root.querySelector('[data-role="clock-O"]') };
    this.lowTime = lowTime;
    this.offset = 0; // server clock minus this clock, in ms (from ping/pong round trips)
    this.bestRtt = Infinity;
  }

  // The server's clock now (Unix ms), as well as this page knows it.
  now() {
    return Date.now() + this.offset;
  }

  // A pong: `t` (this page's clock when it pinged) and `server_ms` (the server's when it answered).
  // The estimate is kept from the fastest round trips.
  pong(t, serverMs) {
    if (typeof t !== "number" || typeof serverMs !== "number") return;
    const rtt = Date.now() - t;
    if (rtt <= this.bestRtt * 1.5 || rtt < 200) {
      this.bestRtt = Math.min(this.bestRtt, rtt);
      this.offset = serverMs - (t + rtt / 2);
    }
  }

  // Draw both clocks from `state`; `own` is the side whose low time this page warns about (or null).
  render(state, own) {
    const times = clockTimes(state, this.now());
    for (const side of ["X", "O"]) {
      const ms = times[side];
      this.els[side].textContent = ms == null ? "" : mmss(ms);
      this.els[side].classList.toggle("low", ms != null && ms < LOW_MS && state.turn === side);
      if (ms != null && state.turn === side && side === own) this.lowTime(ms);
    }
  }
}
