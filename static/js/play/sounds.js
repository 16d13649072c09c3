// Short tones made by the browser (no files): a move, your turn, low time, game over. On by
// default; one switch turns them off, remembered in this browser. The last tone's pitch is kept on
// the page's root (`data-last-sound`) for the tests.

export class Sounds {
  // root: the page's `.room`, holding the [data-role=sound-toggle] switch.
  constructor(root) {
    this.root = root;
    this.toggle = root.querySelector('[data-role="sound-toggle"]');
    this.toggle.checked = localStorage.getItem("caro.sound") !== "off";
    this.toggle.addEventListener("change", () => localStorage.setItem("caro.sound", this.toggle.checked ? "on" : "off"));
    this.ctx = null;
    this.warned = null;
    // Browsers start audio only after a gesture: the first tap or key press opens it.
    const unlock = () => {
      if (!this.ctx && window.AudioContext) this.ctx = new AudioContext();
      if (this.ctx && this.ctx.state === "suspended") this.ctx.resume();
    };
    document.addEventListener("pointerdown", unlock, { once: false, passive: true });
    document.addEventListener("keydown", unlock, { once: false, passive: true });
  }

  tone(freq, ms, delay = 0) {
    const ctx = this.ctx;
    if (!this.toggle.checked || !ctx || ctx.state !== "running") return;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const t = ctx.currentTime + delay / 1000;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.12, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + ms / 1000);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + ms / 1000);
    this.root.dataset.lastSound = String(freq);
  }

  // A stone or disc was placed; `yourTurn`: it was the opponent's, and now this player moves.
  move(yourTurn) {
    this.tone(520, 70);
    if (yourTurn) this.tone(780, 120, 90);
  }

  // The player's own clock shows `ms`; one warning per move (`key` names the move).
  lowTime(key, ms) {
    if (ms < 10000 && ms > 0 && this.warned !== key) { this.warned = key; this.tone(880, 150); }
  }

  over() { this.tone(660, 160); this.tone(440, 260, 170); }
}
