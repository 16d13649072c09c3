// The on-device game source: the game played in the page (device-game.js, the browser rules
// engine) and, against the computer, the computer in a Web Worker (static/js/computer/worker.js,
// CONTRACTS.md section 2), so the board never freezes while it thinks. It takes the controller's
// frames (move, opening, undo, resign, play_again, sync) and answers with the frames an online
// room would send, with no socket and no server: the game is saved in this browser after every
// change (store.js) and a finished game is handed to the records queue, which sends it to "My
// games" once the network allows.

import { DeviceGame, Refused } from "./device-game.js";

// What the computer may spend on a move (ms); Hard uses it all, the others less.
export const COMPUTER_BUDGET_MS = 1000;

// The sentence of a refusal (the server's caro/games/errors.py MESSAGES, same words).
const REFUSALS = () => ({
  game_over: gettext("This game is over. Start a new one to keep playing."),
  not_your_turn: gettext("It is not your turn yet."),
  occupied: gettext("That square is already taken."),
  foul: gettext("That move is a foul for X under Renju rules."),
  no_flip: gettext("That move flips no disc: choose one of the marked squares."),
  illegal: gettext("That move is not allowed by the rules of this game."),
  undo_refused: gettext("You cannot take back a move now. Taking back is for games against the computer (in caro at Easy and Medium), while the game is on."),
  undo_opening: gettext("The opening's stones stay on the board: you can take back your own moves once you have played one after the opening."),
  undo_nothing: gettext("You have no move to take back yet."),
  opening_over: gettext("The opening is over: play an ordinary move."),
  opening_step: gettext("That is not the step the opening asks for now."),
  not_in_area: gettext("In the RIF opening, stone 1 goes on the centre point, stone 2 inside the central 3×3 and stone 3 inside the central 5×5."),
  offer_count: gettext("Offer exactly two different points for the 5th move."),
  equivalent_fifth: gettext("These two points are mirror images of each other in this position: offer two points that differ."),
  not_offered: gettext("Choose one of the two offered points for the 5th move."),
  bad_color: gettext("Choose X or O."),
});

export class DeviceSource {
  // game: a DeviceGame; frame(f, ordered): the controller's; store: {save(data), clear()};
  // enqueue(record): the records queue's; worker(): a new computer Worker (called when needed);
  // failed(text): the computer could not move.
  constructor(game, { frame, store, enqueue, worker }) {
    this.game = game;
    this.onFrame = frame;
    this.store = store;
    this.enqueue = enqueue;
    this.makeWorker = worker;
    this.worker = null;
    this.asked = null; // the id of the computer request waiting for its answer
    this.live = true; // nothing to lose: the game is here
  }

  start() {
    this.emit([this.game.stateFrame()]);
    this.afterChange();
  }

  // The controller's frames. Always taken (true); the answers come after this call returns.
  send(frame) {
    queueMicrotask(() => this.handle(frame));
    return true;
  }

  handle(frame) {
    const game = this.game;
    const person = game.data.mode === "computer" ? "host" : game.actorSeat();
    try {
      switch (frame.type) {
        case "move": this.emit(game.move(person, frame.square, frame.id)); break;
        case "opening": this.emit(game.opening(person, openingAction(frame))); break;
        case "undo": this.stopComputer(); this.emit(game.undo()); break;
        case "resign": this.stopComputer(); this.emit(game.resign(game.data.mode === "computer" ? "host" : game.actorSeat() || "host")); break;
        case "play_again": this.newGame(frame.level); return;
        case "sync": this.emit([game.stateFrame()]); return;
        default: return; // chat, ping, offers: nothing on the device
      }
    } catch (exc) {
      if (!(exc instanceof Refused)) throw exc;
      this.refuse(exc);
      return;
    }
    this.afterChange();
  }

  refuse(exc) {
    const message = REFUSALS()[exc.code] || REFUSALS().illegal;
    this.onFrame({ type: "error", code: exc.code, message, detail: exc.detail });
    this.onFrame(this.game.stateFrame());
  }

  emit(frames) {
    for (const f of frames) this.onFrame(f, true);
  }

  newGame(level) {
    if (this.game.active) { this.refuse(new Refused("not_over")); return; }
    this.stopComputer();
    this.game = this.game.next(level);
    this.emit([this.game.stateFrame()]);
    this.afterChange();
  }

  // After every change: save the game, hand a finished one to the records queue (once), and
  // let the computer move when it is its turn.
  afterChange() {
    const game = this.game;
    if (game.data.status === "finished" && !game.data.recorded) {
      const record = game.record();
      game.data.recorded = true;
      if (record) Promise.resolve().then(() => this.enqueue(record)).catch(() => {});
    }
    this.store.save(game.toData());
    if (game.computerToMove()) this.askComputer();
  }

  // ---------------------------------------------------------------- the computer

  askComputer() {
    if (this.asked) return;
    const id = `${this.game.data.id}:${this.game.data.version}`;
    this.asked = id;
    const request = { id, ...this.game.request(COMPUTER_BUDGET_MS) };
    if (!this.worker) this.worker = new ComputerWorker(this.makeWorker(), (msg) => this.answer(msg), (why) => this.computerFailed(why));
    this.worker.post(request);
  }

  answer(msg) {
    if (msg.id !== this.asked) return; // an answer to a position that is gone (undo, new game)
    this.asked = null;
    const game = this.game;
    if (!game.computerToMove()) return;
    if (msg.error) { this.computerFailed(msg.error); return; }
    try {
      if (msg.action) this.emit(game.opening("guest", msg.action));
      else this.emit(game.move("guest", msg.square));
    } catch (exc) {
      if (!(exc instanceof Refused)) throw exc;
      this.computerFailed(exc.code);
      return;
    }
    this.afterChange();
  }

  // The computer could not move (its worker failed): say so; a reload asks it again.
  computerFailed(why) {
    this.asked = null;
    console.error("computer:", why);
    this.onFrame({ type: "error", code: "server_error",
      message: gettext("The computer could not move. Reload the page to let it try again; the game is kept.") });
  }

  // A search that is no longer wanted (a take-back, a resignation, a new game): the worker is
  // ended, so the processor is free at once (a search runs to its budget), and a new one is made
  // when the computer is asked next.
  stopComputer() {
    if (this.asked && this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
    this.asked = null;
  }
}

// How often a new worker is asked whether it listens yet (ms), and for how long at most.
const READY_PROBE_MS = 100;
const READY_WAIT_MS = 30000;

// The computer's worker, answering only once it listens: a module worker takes messages only once
// its modules are loaded (the computer's load a Reversi module with a top-level await, and a
// message posted before that is dropped), so a new worker is probed with a message it refuses
// (`{id, error}` for an unknown op, CONTRACTS.md section 2) until one answer comes; then the
// requests go. Answers to the probes are not passed on.
class ComputerWorker {
  constructor(worker, answer, failed) {
    this.worker = worker;
    this.ready = false;
    this.queue = [];
    this.probes = 0;
    worker.addEventListener("message", (e) => {
      const msg = e.data || {};
      if (typeof msg.id === "string" && msg.id.startsWith("probe:")) { this.listening(); return; }
      answer(msg);
    });
    worker.addEventListener("error", (e) => failed(e.message || "the computer's worker failed"));
    const started = performance.now();
    this.probe = setInterval(() => {
      if (performance.now() - started > READY_WAIT_MS) { clearInterval(this.probe); failed("the computer's worker never answered"); return; }
      worker.postMessage({ id: `probe:${this.probes++}`, op: "ready?" });
    }, READY_PROBE_MS);
    worker.postMessage({ id: `probe:${this.probes++}`, op: "ready?" });
  }

  listening() {
    if (this.ready) return;
    this.ready = true;
    clearInterval(this.probe);
    for (const msg of this.queue.splice(0)) this.worker.postMessage(msg);
  }

  post(msg) {
    if (this.ready) this.worker.postMessage(msg);
    else this.queue.push(msg);
  }

  terminate() {
    clearInterval(this.probe);
    this.worker.terminate();
  }
}

// The engine action of an `opening` frame ({action, square, squares, color}).
function openingAction(frame) {
  const act = { kind: frame.action };
  if (frame.square != null) act.square = frame.square;
  if (frame.squares != null) act.squares = frame.squares;
  if (frame.color != null) act.color = frame.color;
  return act;
}

export { DeviceGame };
