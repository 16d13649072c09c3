// A game played on the device (against the computer, or two people on one device): the rules of
// play that the server applies to its rooms (caro/games/services), applied here with the browser
// rules engine (static/js/engine, the same reason codes and data as caro/engine). Pure: no DOM,
// no storage, no worker; it answers in the frames of docs/protocol.md, so the page's controller
// draws it exactly as it draws an online room. Node runs it in tests.
//
// Seats: "host" is the person (computer games) or the first seat of the device; "guest" the
// computer or the other seat. A seat keeps its caro mark for the whole series (caro: each person
// keeps X or O, so the first mover may draw O); under RIF and Swap2 the colours are drawn (Black
// is X). Sides ("X" moves first, Black in Reversi) change from game to game and, during an opening
// procedure, with a swap or a colour choice.

import { Board as CaroBoard, Rules } from "../engine/caro.js";
import { foulPoints, refusedFive } from "../engine/explain.js";
import { FIRST, SECOND, openingFromDict } from "../engine/openings.js";
import { BLACK, Board as ReversiBoard } from "../engine/reversi.js";
import { LEVELS } from "./device-config.js";
import { uuid } from "./ids.js";

// Caro levels that may take back a move (Reversi: every level), as caro.games.kinds UNDO_LEVELS.
export const CARO_UNDO_LEVELS = ["easy", "medium"];
// Plies after which both sides have moved in a game without an opening procedure
// (caro.games.state.PLIES_BEFORE_BOTH_MOVED): resigning earlier aborts the game.
export const PLIES_BEFORE_BOTH_MOVED = 2;
// Chebyshev radius of the area a RIF placement must lie in, by step (RIF §4), as
// caro.games.openings.RIF_AREAS.
const RIF_AREAS = { place_1: 0, place_2: 1, place_3: 2 };
// Caro engine terminations in the game's words (caro.games.kinds.Caro._TERMINATIONS).
const TERMINATIONS = { five: "five", draw: "full_board", no_legal_move: "no_legal_move" };
// Engine reason codes of a refused opening step, as the service names them
// (caro.games.services.opening.OPENING_CODES).
const OPENING_CODES = { wrong_turn: "not_your_turn", not_central: "not_in_area" };

const other = (side) => (side === "X" ? "O" : "X");
const otherSeat = (seat) => (seat === "host" ? "guest" : "host");

// A refusal, as the server's GameError: `code` is a protocol error code (docs/protocol.md).
export class Refused extends Error {
  constructor(code, detail = null) {
    super(code);
    this.code = code;
    this.detail = detail;
  }
}

export class DeviceGame {
  // data: the saved form (`toData`): {id, mode ("computer" | "local"), kind ("caro" | "reversi"),
  // preset, rules (caro rule dict; {} for Reversi), opening ("rif" | "swap2" | ""), level,
  // hostSide ("X" | "O": the side the host seat plays at the start), hostMark, actions (the opening
  // steps taken: [{kind, square?, squares?, color?, seat, step, plies}]), moves (every stone or
  // disc placed, opening stones included), startMoves, status ("active" | "finished" |
  // "aborted"), winner, termination, line, startedAt, finishedAt, version, number (the game's
  // place in the series), recorded}. Raises the engine's errors for data that does not replay.
  constructor(data) {
    this.data = { ...data, actions: [...(data.actions || [])], moves: [...(data.moves || [])] };
    this.replay();
  }

  // A new game. `config`: {mode, kind, preset, rules, opening, level, hostSide, hostMark,
  // moves (a position to continue from: squares), number}.
  static start(config) {
    const data = {
      id: uuid(), mode: config.mode, kind: config.kind, preset: config.preset, rules: config.rules || {},
      opening: config.moves && config.moves.length ? "" : (config.opening || ""), level: config.level || "easy",
      hostSide: config.hostSide || "X", hostMark: config.hostMark || config.hostSide || "X",
      actions: [], moves: [...(config.moves || [])], startMoves: (config.moves || []).length,
      status: "active", winner: null, termination: null, line: [], startedAt: Date.now(), finishedAt: null,
      version: 0, number: config.number || 1, recorded: false, presetOpening: config.opening || "",
    };
    if (data.hostSide === "to-move") data.hostSide = data.hostMark = "X";
    const game = new DeviceGame(data);
    if (game.board.outcome) throw new Refused("game_over"); // the position is already over
    if (config.hostSide === "to-move") game.data.hostSide = game.data.hostMark = game.turn(); // X and O alike: no opening
    return game;
  }

  toData() {
    return { ...this.data, actions: [...this.data.actions], moves: [...this.data.moves] };
  }

  // ---------------------------------------------------------------- the engine's position

  // Rebuild the engine's board (and opening machine) from the saved actions and moves.
  replay() {
    const d = this.data;
    this.machine = null;
    this.sides = []; // the side of each placed stone or disc, in order
    this.flips = []; // Reversi: the discs each move turned over
    this.passes = []; // Reversi: the side that passed after each move, or null
    if (d.kind === "reversi") {
      this.board = new ReversiBoard();
      for (const sq of d.moves) this.playOnBoard(sq);
      return;
    }
    const rules = Rules.fromDict(d.rules);
    if (d.opening) {
      this.machine = openingFromDict({ kind: d.opening, rules: rules.toDict(), actions: [] });
      for (const a of d.actions) this.machine.apply(engineAction(a));
      this.board = this.machine.board;
      const placed = this.board.moves.length;
      for (let i = 0; i < placed; i++) this.sides.push(i % 2 ? "O" : "X");
      for (const sq of d.moves.slice(placed)) this.playOnBoard(sq);
    } else {
      this.board = new CaroBoard(rules);
      for (const sq of d.moves) this.playOnBoard(sq);
    }
  }

  // Play `sq` on the engine's board for the side to move; returns {side, flips, passed, outcome}
  // (outcome in the game's words: {winner, termination, line} or null). Throws IllegalMove.
  playOnBoard(sq) {
    if (this.data.kind === "reversi") {
      const side = this.board.turn === BLACK ? "X" : "O";
      const r = this.board.play(sq);
      const passed = r.passed ? other(side) : null;
      this.sides.push(side);
      this.flips.push([...(r.flips || [])]);
      this.passes.push(passed);
      const o = r.outcome || this.board.outcome;
      const outcome = o ? { winner: o.winner === BLACK ? "X" : o.winner ? "O" : null, termination: "discs", line: [] } : null;
      return { side, square: r.square || sq, flips: [...(r.flips || [])], passed, outcome };
    }
    const side = this.board.turn;
    const o = this.board.play(sq);
    this.sides.push(side);
    const outcome = o ? { winner: o.winner || null, termination: TERMINATIONS[o.termination] || o.termination, line: [...(o.line || [])] } : null;
    return { side, square: sq, flips: [], passed: null, outcome };
  }

  get kind() { return this.data.kind; }
  get active() { return this.data.status === "active"; }
  get ply() { return this.data.moves.length; }

  openingRunning() {
    return Boolean(this.machine) && !done(this.machine);
  }

  // The machine's seat ("first"/"second") of a game seat: "first" is the seat that played X at
  // the start of the procedure.
  machineSeat(seat) {
    const firstSeat = this.data.hostSide === "X" ? "host" : "guest";
    return seat === firstSeat ? FIRST : SECOND;
  }

  gameSeat(machineSeat) {
    const firstSeat = this.data.hostSide === "X" ? "host" : "guest";
    return machineSeat === FIRST ? firstSeat : otherSeat(firstSeat);
  }

  // The side `seat` plays now (the opening's tentative or final colours, else the game's).
  sideOf(seat) {
    if (this.machine) return this.machine.colors[this.machineSeat(seat)];
    return seat === "host" ? this.data.hostSide : other(this.data.hostSide);
  }

  seatPlaying(side) {
    return this.sideOf("host") === side ? "host" : "guest";
  }

  // The side to move: during an opening the side the acting seat holds (the clock, the computer
  // and one-device play follow it), else the board's.
  turn() {
    if (!this.active) return null;
    if (this.openingRunning()) return this.sideOf(this.gameSeat(this.machine.actor));
    return this.data.kind === "reversi" ? (this.board.turn === BLACK ? "X" : "O") : this.board.turn;
  }

  // The seat that acts now (null when the game is over).
  actorSeat() {
    const turn = this.turn();
    return turn ? this.seatPlaying(turn) : null;
  }

  // Whether the computer acts now (a computer game that is on, at the computer's turn or step).
  computerToMove() {
    return this.data.mode === "computer" && this.active && this.actorSeat() === "guest";
  }

  // How many stones the opening procedure placed (0 while it runs or without one).
  openingPlies() {
    return this.machine && done(this.machine) ? this.openingStones() : 0;
  }

  // How many stones the opening's steps have placed so far (the machine's board is the game's
  // board: its move list goes on with the ordinary moves, so it cannot say).
  openingStones() {
    return this.data.actions.reduce((n, a) => n + (a.plies ? a.plies.length : 0), 0);
  }

  // `side` has a stone played as an ordinary move (caro.games.state.has_move_after_opening).
  hasMoveAfterOpening(side) {
    if (this.openingRunning()) return false;
    const base = this.openingPlies();
    const firstAfter = base % 2 === 0 ? "X" : "O";
    return this.ply >= base + (side === firstAfter ? 1 : 2);
  }

  bothHaveMoved() {
    if (this.machine) return new Set(this.data.actions.map((a) => a.seat)).size >= 2;
    return this.ply >= PLIES_BEFORE_BOTH_MOVED;
  }

  undoAllowed() {
    return this.data.kind === "reversi" || CARO_UNDO_LEVELS.includes(this.data.level);
  }

  canUndo() {
    return this.data.mode === "computer" && this.active && this.undoAllowed() && this.hasMoveAfterOpening(this.sideOf("host"));
  }

  marks() {
    if (this.data.kind === "reversi" || this.data.opening) return { X: "X", O: "O" };
    const hostSide = this.data.hostSide;
    const mark = this.data.hostMark;
    return { [hostSide]: mark, [other(hostSide)]: other(mark) };
  }

  stones() {
    if (this.data.kind === "reversi") {
      const out = {};
      for (const [sq, colour] of Object.entries(this.board.discs())) out[sq] = colour === BLACK || colour === "X" ? "X" : "O";
      return out;
    }
    return { ...this.board.stones() };
  }

  legal() {
    return this.data.kind === "reversi" && this.active ? this.board.legalMoves() : [];
  }

  legalFlips() {
    const out = {};
    for (const sq of this.legal()) out[sq] = [...this.board.flips(sq)];
    return out;
  }

  fouls() {
    return this.data.kind === "caro" && this.active ? { ...foulPoints(this.board) } : {};
  }

  choices() {
    return this.active ? ["resign"] : [];
  }

  // ---------------------------------------------------------------- what the page sees

  // The `opening` view of the state (caro.games.openings.view), or null without a procedure.
  openingView() {
    if (!this.machine) return null;
    const d = this.data;
    const machine = openingFromDict({ kind: d.opening, rules: Rules.fromDict(d.rules).toDict(), actions: [] });
    const log = [];
    for (const a of d.actions) {
      const as = machine.colors[this.machineSeat(a.seat)];
      machine.apply(engineAction(a));
      log.push({ step: a.step, kind: a.kind, by: this.sideOf(a.seat), as,
        squares: a.squares ? [...a.squares] : a.square ? [a.square] : [], color: a.color ?? null, plies: [...(a.plies || [])] });
    }
    const m = this.machine;
    const over = done(m);
    let area = null;
    if (m.state in RIF_AREAS) {
      const size = d.rules.size;
      const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
      const radius = RIF_AREAS[m.state];
      const centre = Math.floor(size / 2);
      area = [];
      for (let r = centre - radius; r <= centre + radius; r++) {
        for (let c = centre - radius; c <= centre + radius; c++) area.push(`${letters[c]}${r + 1}`);
      }
    }
    return {
      kind: d.opening, step: m.state, done: over, actor: over ? null : this.sideOf(this.gameSeat(m.actor)),
      allowed: over ? [] : [...m.allowed].sort(), area,
      offers: m.state === "select_5" ? [...(m.offers || [])] : [],
      swapped: this.sideOf(this.gameSeat(FIRST)) !== "X", log,
    };
  }

  // The `state` frame (docs/protocol.md).
  stateFrame() {
    return { type: "state", ...this.state() };
  }

  // The full state (caro.games.snapshot.state_for) as the host sees it.
  state() {
    const d = this.data;
    const computer = d.mode === "computer";
    const hostSide = this.sideOf("host");
    const players = {};
    for (const side of ["X", "O"]) {
      players[side] = computer && side !== hostSide ? { name: null, guest: false, bot: d.level }
        : { name: computer ? gettext("Player") : "", guest: true };
    }
    return {
      game_id: d.id, kind: d.kind, version: d.version, status: d.status, rules: d.kind === "reversi" ? {} : { ...d.rules },
      size: d.kind === "reversi" ? 8 : d.rules.size,
      moves: d.moves.map((sq, i) => [sq, this.sides[i]]), stones: this.stones(),
      legal: this.legal(), legal_flips: this.legalFlips(), ply: this.ply, turn: this.turn(), players,
      bot: computer ? { side: other(hostSide), level: d.level } : null, local: !computer,
      can_undo: this.canUndo(), move_time_ms: 0, bank_ms: 0, increment_ms: 0, banks: null, remaining_ms: null,
      deadline_ms: null, marks: this.marks(), throws: [], presence: null, absence: null, draw_offer: null,
      undo_request: null, rematch_offer: null, winner: d.winner, termination: d.termination, left: null,
      line: [...(d.line || [])], fouls: this.fouls(), crowd: 0, opening: this.openingView(),
      you: hostSide, choices: this.choices(),
    };
  }

  // ---------------------------------------------------------------- actions

  // Play `square` for `seat` ("host", "guest"; on one device the seat to move); `id`: the mover's
  // id of the move (the page's, echoed as the server does; a fresh one for the computer's).
  // Returns the events to show: [move] or [move, game_over]; during an opening procedure [state].
  // Throws Refused with the protocol's error code.
  move(seat, square, id = null) {
    this.check(seat);
    if (this.openingRunning()) {
      const kind = this.machine.state === "select_5" ? "select" : "place";
      return this.opening(seat, { kind, square });
    }
    let played;
    try {
      played = this.playOnBoard(square);
    } catch (exc) {
      this.replay();
      throw new Refused(exc.reason || "illegal", exc.foul || null);
    }
    this.data.moves.push(played.square);
    this.data.version += 1;
    const event = { type: "move", game_id: this.data.id, version: this.data.version, ply: this.ply,
      side: played.side, square: played.square, id: id || uuid() };
    if (this.data.kind === "reversi") { event.flips = played.flips; if (played.passed) event.passed = played.passed; }
    if (played.outcome) {
      this.finish(played.outcome.winner, played.outcome.termination, played.outcome.line);
      return [event, this.gameOver()];
    }
    Object.assign(event, { turn: this.turn(), remaining_ms: null, deadline_ms: null, banks: null, draw_offer: null,
      undo_request: null, choices: this.choices(), can_undo: this.canUndo(), legal: this.legal() });
    if (this.data.kind === "reversi") event.legal_flips = this.legalFlips();
    else {
      event.fouls = this.fouls();
      const note = refusedFive(this.board, played.square);
      if (note) event.note = { kind: note.kind, line: [...note.line] };
    }
    return [event];
  }

  // An opening step for `seat`: an engine action ({kind: "place" | "swap" | "keep" | "choose" |
  // "offer" | "select", square?, squares?, color?}). Returns [state]; throws Refused.
  opening(seat, action) {
    this.check(seat);
    if (!this.openingRunning()) throw new Refused("opening_over");
    const was = this.machine.state;
    const before = this.board.moves.length;
    const entry = { kind: action.kind };
    if (action.square != null) entry.square = action.square;
    if (action.squares != null) entry.squares = [...action.squares];
    if (action.color != null) entry.color = action.color;
    try {
      this.machine.apply(engineAction(entry), this.machineSeat(seat));
    } catch (exc) {
      this.replay();
      throw new Refused(OPENING_CODES[exc.reason] || exc.reason || "illegal", exc.foul || null);
    }
    const placed = this.board.moves.slice(before);
    for (let i = 0; i < placed.length; i++) this.sides.push((before + i) % 2 ? "O" : "X");
    this.data.moves.push(...placed);
    const plies = placed.map((_, i) => before + i + 1);
    this.data.actions.push({ ...entry, seat, step: was, plies });
    this.data.version += 1;
    return [this.stateFrame()];
  }

  // Take back the person's last ordinary move and everything after it (computer games at a level
  // that allows it). Returns [state]; throws Refused `undo_refused`, `undo_opening` or `undo_nothing`.
  undo() {
    if (!this.canUndo()) {
      const could = this.data.mode === "computer" && this.active && this.undoAllowed();
      throw new Refused(!could ? "undo_refused" : this.machine ? "undo_opening" : "undo_nothing");
    }
    const side = this.sideOf("host");
    const lastOwn = this.sides.lastIndexOf(side); // 0-based index of the person's last stone
    this.data.moves = this.data.moves.slice(0, lastOwn);
    this.data.version += 1;
    this.replay();
    return [this.stateFrame()];
  }

  // `seat` resigns (on one device: the seat to move). Before both have moved, the game is aborted.
  resign(seat) {
    this.check(seat, false);
    if (!this.bothHaveMoved()) this.finish(null, "abort", [], "aborted");
    else this.finish(other(this.sideOf(seat)), "resign", []);
    return [this.gameOver()];
  }

  check(seat, turn = true) {
    if (!this.active) throw new Refused("game_over");
    if (turn && seat !== this.actorSeat()) throw new Refused("not_your_turn");
  }

  finish(winner, termination, line, status = "finished") {
    Object.assign(this.data, { status, winner: winner || null, termination, line: line || [], finishedAt: Date.now() });
    this.data.version += 1;
  }

  gameOver() {
    const d = this.data;
    return { type: "game_over", game_id: d.id, version: d.version, status: d.status, winner: d.winner,
      termination: d.termination, line: [...d.line], left: null, absent: null };
  }

  // The next game of the series (after this one is over): the same seats, marks and rules; the
  // first mover by the lifecycle rule (caro.games.state.first_seat_of_next): caro, the loser, or
  // after a draw or an abort the seat that moved second; Reversi, the colours swap. `level`
  // changes the computer's level.
  next(level = null) {
    const d = this.data;
    if (d.status === "active") throw new Refused("not_over");
    const second = this.seatPlaying("O");
    let first = second;
    if (d.kind !== "reversi" && d.winner) first = this.seatPlaying(other(d.winner));
    return DeviceGame.start({
      mode: d.mode, kind: d.kind, preset: d.preset, rules: d.rules, opening: d.opening || openingOfPreset(d),
      level: LEVELS.includes(level) ? level : d.level, hostSide: first === "host" ? "X" : "O", hostMark: d.hostMark,
      moves: [], number: d.number + 1,
    });
  }

  // What the computer is asked (CONTRACTS.md section 2, the worker's "move" message without id).
  request(budgetMs) {
    const d = this.data;
    const msg = { op: "move", game: d.kind, moves: [...d.moves], opening: null, level: d.level, budgetMs };
    if (d.kind === "caro") {
      msg.rules = { ...d.rules };
      if (this.openingRunning()) msg.opening = this.machine.toDict();
    }
    return msg;
  }

  // The finished game as the records queue takes it (CONTRACTS.md section 4), or null when there
  // is nothing to keep (the game is on, or was aborted).
  record() {
    const d = this.data;
    if (d.status !== "finished") return null;
    const openingPlies = this.machine ? this.openingStones() : 0;
    const rec = {
      id: d.id, mode: d.mode, game: d.kind,
      opening: this.machine ? this.machine.toDict() : null,
      moves: d.moves.slice(openingPlies), start_moves: d.startMoves,
      result: { winner: d.winner, termination: d.termination },
      started_at: d.startedAt, finished_at: d.finishedAt,
    };
    if (d.kind === "caro") { rec.preset = d.preset; rec.rules = { ...d.rules }; }
    if (d.mode === "computer") { rec.level = d.level; rec.side = this.sideOf("host"); }
    return rec;
  }
}

// An action as the engine's machine takes it (the saved entry without the game's own fields).
function engineAction(a) {
  const act = { kind: a.kind };
  if (a.square != null) act.square = a.square;
  if (a.squares != null) act.squares = [...a.squares];
  if (a.color != null) act.color = a.color;
  return act;
}

// A game continued from a position has no procedure; its next game has its preset's.
function openingOfPreset(d) {
  return d.presetOpening || "";
}

// Whether an opening machine's procedure is over.
function done(machine) {
  return machine.state === "done";
}
