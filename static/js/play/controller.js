// The game controller: holds the game's state (the `state` frame of docs/protocol.md), applies the
// events its source sends, decides what the player may do, and draws the page through its views
// (board, move list, clocks, players, offers, opening, controls, notices, sounds, title). The
// source is either the room's socket (socket.js) or the engine and the computer on the device
// (device.js); both speak the same frames, so the controller never knows which it has.

import { BoardView } from "./board.js";
import { Clocks, TICK_MS } from "./clocks.js";
import { Controls } from "./controls.js";
import { uuid } from "./ids.js";
import { MoveList } from "./moves.js";
import { Notices } from "./notices.js";
import { Offers } from "./offers.js";
import { OpeningPanel, openingNow } from "./opening.js";
import { Players } from "./players.js";
import { Share } from "./share.js";
import { Sounds } from "./sounds.js";
import { Title } from "./title.js";
import { firstMoveNote, fmt, foulKind, isReversi, markOf, ruleNote, sideName, statusText } from "./words.js";

const LEAVE_WAIT_MS = 3000; // after "Leave the table", home at the latest this long after sending it

export class Controller {
  // root: the page's `.room`; state: the first `state` (from the page, or the device's source);
  // stateApplied(state): called after each new `state` (the chat follows the seat); home: the home
  // page's address (leaving the table goes there).
  constructor(root, state, { stateApplied = () => {}, home = "/" } = {}) {
    this.root = root;
    this.state = state;
    this.source = null;
    this.stateApplied = stateApplied;
    this.home = home;
    this.pending = null; // {square, id, ply} sent, not yet confirmed
    this.resend = false; // a socket reopened: a move sent before may not have arrived
    this.declinedBy = null; // the side that declined this game's last rematch offer (its note)
    this.lastFlips = new Set(); // Reversi: the discs the last move turned over (highlighted once)
    this.leaving = null; // the timer of going home after "Leave the table", while no game_over came
    const reversi = isReversi(state);
    this.notices = new Notices(root);
    this.sounds = new Sounds(root);
    this.title = new Title(root);
    this.players = new Players(root);
    this.board = new BoardView(root, {
      size: Number(root.dataset.size) || state.size,
      reversi,
      choose: (sq) => this.choose(sq),
      play: (sq) => this.play(sq),
      changed: () => this.render(),
      hover: (sq) => this.moveList.highlight(sq),
    });
    this.moveList = new MoveList(root.querySelector('[data-role="moves"]'), this.board);
    this.clocks = new Clocks(root, { lowTime: (ms) => this.sounds.lowTime(`${this.state.game_id}:${this.state.ply}`, ms) });
    this.offers = new Offers(root, { choose: (type) => this.choice(type) });
    this.opening = new OpeningPanel(root, {
      act: (frame) => this.send({ type: "opening", ...frame }),
      changed: () => this.render(),
      note: (text) => this.notices.note(text),
    });
    this.controls = new Controls(root, {
      playAgain: (level) => {
        const frame = { type: "play_again", game_id: this.state.game_id };
        if (level) frame.level = level;
        return this.send(frame);
      },
      declineRematch: () => this.send({ type: "decline_rematch", game_id: this.state.game_id }),
      undo: () => this.send({ type: "undo" }),
      resign: () => this.send({ type: "resign" }),
    });
    this.share = new Share(root, { flash: (text) => this.notices.flash(text) });
    setInterval(() => this.tick(), TICK_MS);
  }

  // source: {send(frame) -> bool, live}.
  attach(source) {
    this.source = source;
  }

  // ---------------------------------------------------------------- who may do what

  // The side this browser plays now: on one device it is always the side to move.
  me() {
    return this.state.local ? this.state.turn : this.state.you;
  }

  seated() {
    return this.state.you === "X" || this.state.you === "O";
  }

  myTurn() {
    const s = this.state;
    return s.status === "active" && Boolean(this.me()) && s.turn === this.me() && !this.pending;
  }

  // Send `frame` through the source. Refused while the connection is lost: the page says so (for
  // a move, in the connection banner) and nothing is sent. `warn`: say something when refused.
  send(frame, warn = true) {
    if (this.source && this.source.send(frame)) return true;
    if (!warn) return false;
    if (this.notices.state === "lost") this.notices.connection("lost", { refused: frame.type === "move" || frame.type === "opening" });
    else this.notices.flash(gettext("Not connected yet; wait a moment and try again."));
    return false;
  }

  // Reversi: a square where the side to move may play (the `legal` list of the state); anything
  // else is refused here with the reason, and no move is sent. Caro: every empty square.
  playable(sq) {
    if (!isReversi(this.state) || (this.state.legal || []).includes(sq)) return true;
    this.notices.note(fmt(gettext("%(square)s flips no disc: play one of the squares marked with a dot."), { square: sq }));
    return false;
  }

  // A square was chosen on the board (a click or tap): whether it may be played now; what the
  // opening step does with it otherwise.
  choose(sq) {
    const foul = !this.board.occupied(sq) && (this.state.fouls || {})[sq];
    const foulNote = () => this.notices.note(fmt(gettext("%(square)s is a foul point for X: %(kind)s."), { square: sq, kind: foulKind(foul) }));
    if (!this.myTurn() || this.board.occupied(sq)) {
      if (foul) foulNote(); // anyone may ask what a marked square is (the opponent, a spectator)
      return false;
    }
    const op = openingNow(this.state);
    if (op && op.step === "offer_5") {
      if (foul) foulNote(); else this.opening.propose(sq);
      return false;
    }
    if (op && !op.allowed.includes("place") && !op.allowed.includes("select")) {
      this.notices.note(gettext("This step is a choice: use the buttons under the board.")); return false;
    }
    if (foul) { foulNote(); return false; }
    return this.playable(sq);
  }

  play(sq) {
    if (!this.myTurn() || this.board.occupied(sq) || !this.playable(sq)) return;
    const id = uuid();
    const ply = this.state.ply + 1;
    if (this.send({ type: "move", square: sq, ply, id })) {
      this.pending = { square: sq, id, ply };
      this.board.clearGhost();
      this.render();
    }
  }

  // A choice of the offers panel (offer a draw, answer, leave, absence decisions).
  choice(type) {
    if (!this.send({ type })) return false;
    // leaving the table: back home once the server has ended the game (the home page says what
    // leaving did), or after LEAVE_WAIT_MS whatever happened
    if (type === "leave") this.leaving = setTimeout(() => this.goHome(), LEAVE_WAIT_MS);
    return true;
  }

  goHome() {
    location.href = `${this.home}?left=${encodeURIComponent(this.root.dataset.code)}`;
  }

  // ---------------------------------------------------------------- from the source

  // The source's connection: "live", "lost" or "gone" (with a message, or null: a frame said why).
  onStatus(status, message) {
    if (status === "gone") {
      this.notices.connection("gone");
      if (message) this.notices.line(message);
      return;
    }
    if (status === "live") this.notices.line("");
    this.notices.connection(status);
  }

  // A socket (re)opened; its `state` follows.
  onOpened() {
    this.resend = Boolean(this.pending);
  }

  // A frame from the source; `ordered`: for a versioned event, whether it is the next one.
  onFrame(f, ordered) {
    const state = this.state;
    switch (f.type) {
      case "state":
        this.applyState(f);
        break;
      case "banned":
      case "room_closed": {
        const el = this.root.querySelector('[data-role="moderation-notice"]');
        el.textContent = f.message;
        el.hidden = false;
        this.root.dataset.closed = f.type;
        this.render(); // the play buttons say why they are disabled
        break;
      }
      case "move":
        if (!ordered) return;
        state.moves.push([f.square, f.side]);
        state.stones[f.square] = f.side;
        for (const sq of f.flips || []) state.stones[sq] = f.side;
        state.legal = f.legal || [];
        state.legal_flips = f.legal_flips || {};
        this.lastFlips = new Set(f.flips || []);
        this.notices.note(f.passed ? fmt(gettext("%(side)s has no legal move and passes."), { side: sideName(state, f.passed) }) : "");
        state.ply = f.ply;
        state.turn = f.turn ?? null;
        state.deadline_ms = f.deadline_ms ?? null;
        state.fouls = f.fouls || {};
        state.can_undo = Boolean(f.can_undo);
        state.banks = f.banks ?? null;
        state.draw_offer = f.draw_offer ?? null;
        state.undo_request = f.undo_request ?? null;
        if (f.choices) state.choices = f.choices;
        this.sounds.move(Boolean(state.you && f.side !== state.you && !state.local));
        if (this.pending && this.pending.id === f.id) this.pending = null;
        if (document.hidden && this.myTurn() && !state.local) this.title.flash();
        if (f.note) this.notices.note(ruleNote(state, f.note));
        this.render();
        break;
      case "game_over":
        if (this.leaving) { clearTimeout(this.leaving); this.goHome(); return; }
        if (!ordered) return;
        Object.assign(state, { status: f.status, winner: f.winner, termination: f.termination,
          line: f.line, turn: null, deadline_ms: null, fouls: {}, can_undo: false, legal: [], legal_flips: {},
          left: f.left ?? null, absent: f.absent ?? null, choices: [], absence: null,
          draw_offer: null, undo_request: null, ratings: f.ratings ?? null, record_url: f.record_url ?? null });
        this.pending = null;
        this.sounds.over();
        this.render();
        break;
      case "draw_offer":
      case "draw_declined":
      case "undo_request":
      case "undo_declined":
        if (!ordered) return;
        if (f.type === "draw_offer") {
          state.draw_offer = f.by;
          if (Number.isInteger(f.again_ply)) state.draw_again = { ...(state.draw_again || {}), [f.by]: f.again_ply };
        }
        if (f.type === "draw_declined") { state.draw_offer = null; this.notices.note(f.by === state.you ? "" : gettext("Your draw offer was declined.")); }
        if (f.type === "undo_request") state.undo_request = f.by;
        if (f.type === "undo_declined") { state.undo_request = null; this.notices.note(f.by === state.you ? "" : gettext("Your opponent did not allow the take-back.")); }
        state.choices = f.choices || [];
        this.render();
        break;
      case "presence":
        if (!ordered) return;
        state.presence = { ...(state.presence || {}), [f.side]: f.present };
        state.absence = f.absence;
        state.choices = f.choices || [];
        this.render();
        break;
      case "crowd":
        if (f.game_id === state.game_id) { state.crowd = f.count; this.share.renderCrowd(state); }
        break;
      case "rematch_offer":
      case "rematch_declined":
        if (!ordered) return;
        state.rematch_offer = f.type === "rematch_offer" ? f.by : null;
        this.declinedBy = f.type === "rematch_declined" ? f.by : null;
        this.render();
        break;
      case "pong":
        this.clocks.pong(f.t, f.server_ms);
        break;
      case "requeued":
        // A quick or ranked game the opponent never opened was aborted: back to the queue, in front.
        if (f.game_id === state.game_id && (f.sides || []).includes(state.you)) location.href = f.url;
        break;
      case "error":
        this.pending = null;
        if (this.leaving) { clearTimeout(this.leaving); this.leaving = null; } // not left: the page says why
        this.controls.refused();
        this.notices.flash(f.message);
        this.render();
        break;
      default:
        break;
    }
  }

  applyState(f) {
    if (f.game_id !== this.state.game_id) { this.notices.note(""); this.declinedBy = null; } // a new game: the last game's notes are gone
    const pending = this.pending;
    this.state = f;
    this.pending = null;
    this.board.clearGhost();
    this.lastFlips = new Set();
    // A move sent just before the connection dropped, that the game does not hold after the
    // reconnection: sent again with the same id (the server applies an id once), so nothing is lost.
    if (this.resend && pending && this.myTurn() && f.ply + 1 === pending.ply && !(f.stones || {})[pending.square]) {
      if (this.send({ type: "move", square: pending.square, ply: pending.ply, id: pending.id }, false)) this.pending = pending;
    }
    this.resend = false;
    this.opening.stateChanged(f);
    this.stateApplied(f);
    this.render();
  }

  // ---------------------------------------------------------------- drawing

  render() {
    const state = this.state;
    const seated = this.seated();
    const myTurn = this.myTurn();
    const running = openingNow(state);
    this.board.render({
      stones: state.stones, me: this.me(), myTurn, seated,
      legal: state.legal, legalFlips: state.legal_flips,
      last: state.moves.length ? state.moves[state.moves.length - 1][0] : null,
      line: state.line, fouls: state.fouls, pending: this.pending && this.pending.square,
      lastFlips: this.lastFlips, opening: running, proposal: this.opening.proposal,
      mark: (side) => markOf(state, side),
      name: (side) => sideName(state, side),
    });
    this.players.render(state);
    const over = state.status === "finished" || state.status === "aborted";
    const status = this.root.querySelector('[data-role="status"]');
    status.textContent = statusText(state, seated, this.root.dataset.accountsNeeded === "1");
    status.dataset.result = over ? state.status : "";
    const firstMove = this.root.querySelector('[data-role="first-move-note"]');
    if (firstMove) {
      const note = firstMoveNote(state);
      if (firstMove.textContent !== note) firstMove.textContent = note;
      firstMove.hidden = !note;
    }
    this.controls.render(state, seated, this.declinedBy);
    this.offers.render(state, seated);
    this.opening.render(state, this.me());
    this.share.render(state);
    this.moveList.render(state, (side) => sideName(state, side));
    this.title.render(state, myTurn);
    this.tick();
  }

  // Every TICK_MS: the clocks and the absence countdown.
  tick() {
    const state = this.state;
    this.clocks.render(state, state.local ? null : state.you);
    this.offers.renderAbsence(state, this.clocks.now());
  }
}
