/**
 * Caro / gomoku: rule sets, presets, a board you can set up and play on, and the outcome
 * (mirror of caro/engine/caro.py: the same rules, names, codes and position text).
 *
 *     const board = new Board(new Rules());
 *     for (const square of ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4"]) board.play(square);
 *     board.play("L8"); // {winner: "X", termination: "five", line: ["H8", "I8", "J8", "K8", "L8"]}
 *
 * Squares are names ("H8"; column letter then row number, row 1 at the top). Sides are "X"
 * (moves first; Black in Renju) and "O".
 *
 * Winning rule (site rules, from shared/reference/caro-blocked-ends-cocaro.txt and
 * caro-rule-sets.txt): after a move, each of the four lines through the new stone is looked at
 * once; the WHOLE contiguous run of the mover's stones on it wins when its length is at least
 * `win_length` (exactly `win_length` when `exact`) and it is not blocked at both ends. With
 * `blocked: "opponent"` an end is blocked by an opponent stone on the cell just beyond it; with
 * "opponent_or_edge" the board edge blocks too; with "none" nothing blocks. If any line wins,
 * the move wins (the first winning line, in the order row, column, diagonal, anti-diagonal, is
 * reported). Only lines through the last stone are examined: constant time per move.
 *
 * Renju (`renju: true`, RIF rules §9): X (Black) may not play a foul (double-three,
 * double-four, overline; see renju.js) and wins only with exactly five, whatever `exact` says;
 * O (White) wins by `exact` as set (RIF: five or more). `blocked` still applies to both sides'
 * winning runs (the Renju presets use "none"); fouls are judged on the stones alone and ignore
 * `blocked`. `win_length` must be 5 with Renju.
 *
 * Renju stalemate: when X is to move and every empty point is a foul, the game ends at once as a
 * draw (`Termination.NO_LEGAL_MOVE`). Source: the RIF "International Rules of Renju" (1996,
 * corrected 1998): a move is either placing a stone or declaring a pass (§4), and the game is a
 * draw when both players pass in succession. X can only pass there; the site has no pass action,
 * so it declares the game drawn at once instead of playing on. Checked after every move that
 * hands the turn to X (a scan of the empty points that stops at the first non-foul).
 * @module engine/caro
 */

import { parseSquare, squareName } from "./coords.js";
import { FOUL, GAME_OVER, OCCUPIED, WRONG_TURN, IllegalMove, repr } from "./errors.js";
import { Foul, foulAt, foulMap } from "./renju.js";

export { Foul };

/** The side that moves first (Black in Renju). */
export const X = "X";
/** The second side (White in Renju). */
export const O = "O";
/** Board sides the site plays. */
export const SIZES = Object.freeze([11, 13, 15, 19]);
/** Winning run lengths the site plays. */
export const WIN_LENGTHS = Object.freeze([4, 5, 6]);
/** Renju is played with five in a row (RIF §9). */
const RENJU_WIN_LENGTH = 5;

// Cell codes of the flat board.
const EMPTY = 0;
const CELL_X = 1;
const CELL_O = 2;
const EDGE = 3;
const CODE = Object.freeze({ X: CELL_X, O: CELL_O });
const SIDE = Object.freeze([null, X, O]);
/** The characters of `Board.position` per cell code. */
const POSITION_CHARS = ".XO";

/** Axis directions as [dcol, drow]: row, column, diagonal (down-right), anti-diagonal (up-right). */
export const AXES = Object.freeze([[1, 0], [0, 1], [1, 1], [1, -1]]);

/** Which cells beyond the ends of a winning run block it (both ends blocked: no win). */
export const Blocked = Object.freeze({
  /** Nothing blocks: any run long enough wins (freestyle, Renju). */
  NONE: "none",
  /** An opponent stone blocks an end; the board edge does not. */
  OPPONENT: "opponent",
  /** An opponent stone or the board edge blocks an end (Vietnamese caro). */
  OPPONENT_OR_EDGE: "opponent_or_edge",
});
const BLOCKED_VALUES = Object.freeze(Object.values(Blocked));

/** How a game starts. */
export const Opening = Object.freeze({
  /** No opening procedure: X plays first anywhere. */
  FREE: "free",
  /** RIF Renju opening (see `RifOpening` in openings.js). */
  RIF: "rif",
  /** Swap2 (see `Swap2Opening` in openings.js). */
  SWAP2: "swap2",
});

/** Why a caro game ended, as judged by the rules engine. */
export const Termination = Object.freeze({
  /** A side completed a winning run. */
  FIVE: "five",
  /** The board filled up with no winning run. */
  DRAW: "draw",
  /** Renju: every empty point is a foul for X, the side to move; the game is drawn. */
  NO_LEGAL_MOVE: "no_legal_move",
});

const RULE_KEYS = Object.freeze(["size", "win_length", "exact", "blocked", "renju"]);

function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tuple(values) {
  return `(${values.join(", ")})`;
}

/**
 * A caro rule set (immutable; JSON-friendly through `toDict`). The fields keep the Python names.
 *
 * `size`: board side, one of 11/13/15/19. `win_length`: 4, 5 or 6 stones. `exact`: a run longer
 * than `win_length` never wins. `blocked`: "none", "opponent" or "opponent_or_edge" (see the
 * module comment). `renju`: RIF fouls for X, which then needs exactly five.
 */
export class Rules {
  /**
   * @param {{size?: number, win_length?: number, exact?: boolean, blocked?: string, renju?: boolean}} [fields]
   *   missing fields take the defaults 15, 5, false, "opponent_or_edge", false
   * @throws {RangeError} for invalid values
   */
  constructor({ size = 15, win_length = 5, exact = false, blocked = Blocked.OPPONENT_OR_EDGE, renju = false } = {}) {
    if (typeof size !== "number" || !Number.isInteger(size) || !SIZES.includes(size)) {
      throw new RangeError(`size must be one of ${tuple(SIZES)}, not ${repr(size)}`);
    }
    if (typeof win_length !== "number" || !Number.isInteger(win_length) || !WIN_LENGTHS.includes(win_length)) {
      throw new RangeError(`win_length must be one of ${tuple(WIN_LENGTHS)}, not ${repr(win_length)}`);
    }
    if (typeof exact !== "boolean" || typeof renju !== "boolean") {
      throw new RangeError("exact and renju must be booleans");
    }
    if (typeof blocked !== "string" || !BLOCKED_VALUES.includes(blocked)) {
      throw new RangeError(`blocked must be one of ${JSON.stringify(BLOCKED_VALUES)}, not ${repr(blocked)}`);
    }
    if (renju && win_length !== RENJU_WIN_LENGTH) throw new RangeError("Renju is played with win_length 5");
    this.size = size;
    this.win_length = win_length;
    this.exact = exact;
    this.blocked = blocked;
    this.renju = renju;
    Object.freeze(this);
  }

  /** The rules as a plain JSON-serialisable object (all five fields, in Python's order). */
  toDict() {
    return { size: this.size, win_length: this.win_length, exact: this.exact, blocked: this.blocked, renju: this.renju };
  }

  /**
   * Rules from `toDict` output; missing keys take defaults.
   * @param {unknown} data
   * @returns {Rules}
   * @throws {RangeError} for data that is not an object, unknown keys or invalid values
   */
  static fromDict(data) {
    if (!isPlainObject(data)) {
      throw new RangeError(`rules must be a dict, not ${data === null ? "NoneType" : Array.isArray(data) ? "list" : typeof data}`);
    }
    const unknown = Object.keys(data).filter((key) => !RULE_KEYS.includes(key));
    if (unknown.length) throw new RangeError(`unknown rule keys: ${JSON.stringify(unknown.sort())}`);
    return new Rules(data);
  }

  /** Whether `other` is a Rules with the same five fields. */
  equals(other) {
    return other instanceof Rules && RULE_KEYS.every((key) => this[key] === other[key]);
  }

  toString() {
    return `Rules(size=${this.size}, win_length=${this.win_length}, exact=${this.exact}, blocked='${this.blocked}', renju=${this.renju})`;
  }
}

/**
 * Mark an English display name for translation (the site translates the preset names it shows).
 * @param {string} message
 */
export function gettextNoop(message) {
  return message;
}

/**
 * A named rule set offered to players: `slug`, English display `name` (a gettext msgid, the
 * Python engine's), `rules` and the `opening` procedure.
 * @typedef {{slug: string, name: string, rules: Rules, opening: string}} Preset
 */

function preset(slug, name, rules, opening = Opening.FREE) {
  return Object.freeze({ slug, name, rules, opening });
}

/** The presets by slug, in the Python engine's order. @type {Readonly<Record<string, Preset>>} */
export const PRESETS = Object.freeze(Object.fromEntries([
  // Site default: reference/caro-rules-cocaro.txt, caro-blocked-ends-cocaro.txt.
  preset("caro-vn", gettextNoop("Vietnamese caro: blocked two ends"), new Rules()),
  preset("freestyle", gettextNoop("Freestyle"), new Rules({ blocked: "none" })),
  preset("exact-five", gettextNoop("Exact five"), new Rules({ exact: true, blocked: "none" })),
  preset("caro-exact", gettextNoop("Caro with exact five"), new Rules({ exact: true, blocked: "opponent_or_edge" })),
  // The convention of reference/caro-rule-sets.txt: the edge never blocks.
  preset("caro-edge-open", gettextNoop("Caro, the edge does not block"), new Rules({ exact: true, blocked: "opponent" })),
  preset("renju", gettextNoop("Renju"), new Rules({ blocked: "none", renju: true })),
  preset("renju-rif", gettextNoop("Renju · RIF"), new Rules({ blocked: "none", renju: true }), Opening.RIF),
  preset("swap2", gettextNoop("Gomoku · Swap2"), new Rules({ exact: true, blocked: "none" }), Opening.SWAP2),
].map((p) => [p.slug, p])));
/** The site's default preset slug. */
export const DEFAULT_PRESET = "caro-vn";

/**
 * How a game ended: `winner` is "X", "O" or null (draw); `termination` a {@link Termination}
 * value; `line` the square names of the whole winning run, from one end to the other (empty for
 * a draw).
 * @typedef {{winner: string|null, termination: string, line: ReadonlyArray<string>}} Outcome
 */

function outcome(winner, termination, line = []) {
  return Object.freeze({ winner, termination, line: Object.freeze(line) });
}

/**
 * Square names and rays of a board size (cached per size): `names[i]` for cell `i = row * size
 * + col`; `rays[i][k]`: cell indices walking away from `i` (not including it) to the board edge,
 * k = 0..3 along {@link AXES}, k + 4 the opposite direction.
 * @typedef {{names: ReadonlyArray<string>, rays: ReadonlyArray<ReadonlyArray<Int16Array>>}} Geometry
 */

const GEOMETRIES = new Map();

/**
 * The {@link Geometry} of a `size` x `size` board (cached per size).
 * @param {number} size
 * @returns {Geometry}
 */
export function geometry(size) {
  let geo = GEOMETRIES.get(size);
  if (geo !== undefined) return geo;
  const names = [];
  const rays = [];
  for (let i = 0; i < size * size; i += 1) {
    const col = i % size;
    const row = Math.floor(i / size);
    names.push(squareName(col, row));
    const perCell = [];
    for (const sign of [1, -1]) {
      for (const [dc, dr] of AXES) {
        const ray = [];
        let c = col + sign * dc;
        let r = row + sign * dr;
        while (c >= 0 && c < size && r >= 0 && r < size) {
          ray.push(r * size + c);
          c += sign * dc;
          r += sign * dr;
        }
        perCell.push(Int16Array.from(ray));
      }
    }
    rays.push(Object.freeze(perCell));
  }
  geo = Object.freeze({ names: Object.freeze(names), rays: Object.freeze(rays) });
  GEOMETRIES.set(size, geo);
  return geo;
}

/**
 * Whether a WHOLE contiguous run of `me`'s stones wins under `rules`: the site's winning rule,
 * written once (Python: `run_wins`).
 *
 * Rule (module comment; shared/reference/caro-blocked-ends-cocaro.txt, caro-rule-sets.txt; RIF
 * §9 for Renju's exact five for X): the run wins when `length >= win_length`, and
 * `length === win_length` when `exact` (always for X under Renju), unless both ends are blocked
 * ("opponent": by an opponent stone; "opponent_or_edge": by an opponent stone or the edge;
 * "none": never).
 * @param {Rules} rules
 * @param {number} me the run's owner as a cell code, 1 (X) or 2 (O)
 * @param {number} length stones in the whole run (not a window of it)
 * @param {number} left code of the cell just beyond one end: 0 empty, 1 X, 2 O, 3 off the board
 * @param {number} right the same beyond the other end
 * @returns {boolean}
 */
export function runWins(rules, me, length, left, right) {
  const k = rules.win_length;
  if (length < k || (length > k && (rules.exact || (rules.renju && me === CELL_X)))) return false;
  const blocked = rules.blocked;
  if (blocked === Blocked.NONE) return true;
  const opp = 3 - me;
  if (blocked === Blocked.OPPONENT) return !(left === opp && right === opp);
  return !((left === opp || left === EDGE) && (right === opp || right === EDGE));
}

/**
 * A caro position under a {@link Rules}, with the moves played on it.
 *
 * `turn` is the side to move ("X" or "O"), `moves` the square names played via `play` in order,
 * `ply` their number, `outcome` null while the game goes on. Queries (`stoneAt`, `stones`,
 * `foul`, `legalMoves`) never change the board.
 */
export class Board {
  /** @param {Rules|null} [rules] default: `new Rules()` (caro-vn) */
  constructor(rules = null) {
    /** @type {Rules} */
    this.rules = rules ?? new Rules();
    this._geo = geometry(this.rules.size);
    this._cells = new Uint8Array(this.rules.size * this.rules.size);
    this._empty = this._cells.length;
    /** @type {number[]} cell indices played via play(), in order */
    this._played = [];
    /** @type {string} */
    this.turn = X;
    /** @type {Outcome|null} */
    this.outcome = null;
  }

  /**
   * Set up a position from stone lists (not necessarily reachable by play).
   *
   * The position is not judged: `outcome` starts as null even if a run is already on the board
   * or (Renju) X is to move with only foul points left (then `legalMoves` is empty and `play`
   * refuses every square, consistently), and `moves`/`ply` start empty.
   * @param {Rules|null} rules
   * @param {{x?: Iterable<string>, o?: Iterable<string>, toMove?: string}} [stones]
   * @returns {Board}
   * @throws {IllegalMove} `bad_square`, `out_of_board`, `occupied` (a square listed twice)
   * @throws {RangeError} for a `toMove` other than "X"/"O"
   */
  static fromStones(rules, { x = [], o = [], toMove = X } = {}) {
    if (toMove !== X && toMove !== O) throw new RangeError(`to_move must be 'X' or 'O', not ${repr(toMove)}`);
    const board = new Board(rules);
    for (const [code, squares] of [[CELL_X, x], [CELL_O, o]]) {
      for (const square of squares) {
        const i = board._index(square);
        if (board._cells[i] !== EMPTY) throw new IllegalMove(OCCUPIED, `${square} is listed twice`, { square });
        board._cells[i] = code;
        board._empty -= 1;
      }
    }
    board.turn = toMove;
    return board;
  }

  /**
   * The position as a compact string: the side to move, then every square in row order as "."
   * (empty), "X" or "O" ("O..X...."; 1 + size² characters). The moves played and the outcome are
   * not part of it: `fromPosition` gives a board to play on. Same text as the Python engine's.
   * @returns {string}
   */
  position() {
    let text = this.turn;
    for (const v of this._cells) text += POSITION_CHARS[v];
    return text;
  }

  /**
   * The board of `position()`'s `text` under `rules`, ready to play on: the same stones and side
   * to move, `moves` empty and `outcome` null (the position of a game in play).
   * @param {Rules|null} rules
   * @param {unknown} text
   * @returns {Board}
   * @throws {RangeError} for a string that is not a position of this board size
   */
  static fromPosition(rules, text) {
    const board = new Board(rules);
    const n = board._cells.length;
    if (typeof text !== "string" || text.length !== 1 + n || (text[0] !== X && text[0] !== O)) {
      throw new RangeError("not a caro position of this size");
    }
    let empty = 0;
    for (let i = 0; i < n; i += 1) {
      const code = POSITION_CHARS.indexOf(text[i + 1]);
      if (code < 0) throw new RangeError("not a caro position");
      board._cells[i] = code;
      if (code === EMPTY) empty += 1;
    }
    board._empty = empty;
    board.turn = text[0];
    return board;
  }

  /** An independent copy (same rules, stones, moves, turn and outcome). */
  copy() {
    const other = Object.create(Board.prototype);
    other.rules = this.rules;
    other._geo = this._geo;
    other._cells = this._cells.slice();
    other._empty = this._empty;
    other._played = this._played.slice();
    other.turn = this.turn;
    other.outcome = this.outcome;
    return other;
  }

  // -- queries -------------------------------------------------------------------------------

  /** Square names played via `play`, in order (a new array). @returns {string[]} */
  get moves() {
    const names = this._geo.names;
    return this._played.map((i) => names[i]);
  }

  /** Number of stones placed via `play` (set-up stones do not count). */
  get ply() {
    return this._played.length;
  }

  /**
   * "X", "O" or null for `square`.
   * @throws {IllegalMove} for bad names
   */
  stoneAt(square) {
    return SIDE[this._cells[this._index(square)]];
  }

  /** Every stone as `{square name: "X" | "O"}`, in row order. @returns {Record<string, string>} */
  stones() {
    const names = this._geo.names;
    const cells = this._cells;
    const result = {};
    for (let i = 0; i < cells.length; i += 1) if (cells[i]) result[names[i]] = SIDE[cells[i]];
    return result;
  }

  /** Whether no empty square is left. */
  isFull() {
    return this._empty === 0;
  }

  /**
   * The Renju foul the side to move would commit at `square`, else null: a {@link Foul} value
   * only under Renju rules, for X to move, on an empty square. Source: RIF rules §9.2-9.4.
   * @returns {string|null}
   * @throws {IllegalMove} for bad square names
   */
  foul(square) {
    const i = this._index(square);
    if (!this.rules.renju || this.turn !== X || this._cells[i] !== EMPTY) return null;
    return foulAt(this._cells, this._geo.rays, i);
  }

  /**
   * Square names the side to move may play, in row order (A1, B1, ..., then row 2). Empty when
   * the game is over; Renju fouls are left out for X.
   * @returns {string[]}
   */
  legalMoves() {
    if (this.outcome !== null) return [];
    const names = this._geo.names;
    const cells = this._cells;
    const fouls = this.rules.renju && this.turn === X ? foulMap(cells, this._geo.rays) : null;
    const result = [];
    for (let i = 0; i < cells.length; i += 1) {
      if (cells[i] === EMPTY && (fouls === null || !fouls.has(i))) result.push(names[i]);
    }
    return result;
  }

  /**
   * The winning run through the stone on `square` (whole run, one end to the other), or null if
   * none of its four lines wins for its owner. Null for an empty square.
   * @returns {string[]|null}
   * @throws {IllegalMove} for bad square names
   */
  winningLine(square) {
    const i = this._index(square);
    if (this._cells[i] === EMPTY) return null;
    return this._winningRun(i);
  }

  // -- moves ---------------------------------------------------------------------------------

  /**
   * Place the side to move's stone on `square`; return the {@link Outcome} if the game ended,
   * else null.
   * @param {string} square
   * @param {string|null} [side] asserts whose move it is ("X"/"O")
   * @returns {Outcome|null}
   * @throws {IllegalMove} `game_over`, `wrong_turn`, `bad_square`, `out_of_board`, `occupied` or
   *   `foul` (Renju, X only; `.foul` gives the kind), checked in that order
   */
  play(square, side = null) {
    if (this.outcome !== null) {
      throw new IllegalMove(GAME_OVER, "the game is over", { square: typeof square === "string" ? square : null });
    }
    if (side !== null && side !== undefined && side !== this.turn) {
      throw new IllegalMove(WRONG_TURN, `it is ${this.turn}'s turn, not ${side}'s`);
    }
    const i = this._index(square);
    const name = this._geo.names[i];
    if (this._cells[i] !== EMPTY) throw new IllegalMove(OCCUPIED, `${name} is occupied`, { square: name });
    if (this.rules.renju && this.turn === X) {
      const kind = foulAt(this._cells, this._geo.rays, i);
      if (kind !== null) throw new IllegalMove(FOUL, `${name} is a foul for X (${kind})`, { square: name, foul: kind });
    }
    this._cells[i] = CODE[this.turn];
    this._empty -= 1;
    this._played.push(i);
    const line = this._winningRun(i);
    if (line !== null) this.outcome = outcome(this.turn, Termination.FIVE, line);
    else if (this._empty === 0) this.outcome = outcome(null, Termination.DRAW);
    this.turn = this.turn === X ? O : X;
    if (this.outcome === null && this.rules.renju && this.turn === X && !this._hasLegalMove()) {
      this.outcome = outcome(null, Termination.NO_LEGAL_MOVE);
    }
    return this.outcome;
  }

  /**
   * Take back the last move made with `play` and return its square name. Clears the outcome and
   * gives the turn back.
   * @returns {string}
   * @throws {RangeError} when no move was played (Python: IndexError)
   */
  undo() {
    if (this._played.length === 0) throw new RangeError("no move to undo");
    const i = this._played.pop();
    this.turn = SIDE[this._cells[i]];
    this._cells[i] = EMPTY;
    this._empty += 1;
    this.outcome = null;
    return this._geo.names[i];
  }

  // -- internals -----------------------------------------------------------------------------

  _index(square) {
    const [col, row] = parseSquare(square, this.rules.size);
    return row * this.rules.size + col;
  }

  /** Whether the side to move has a legal move (stops at the first one found). */
  _hasLegalMove() {
    const cells = this._cells;
    const rays = this._geo.rays;
    const renjuX = this.rules.renju && this.turn === X;
    for (let i = 0; i < cells.length; i += 1) {
      if (cells[i] === EMPTY && (!renjuX || foulAt(cells, rays, i) === null)) return true;
    }
    return false;
  }

  _winningRun(i) {
    const cells = this._cells;
    const rays = this._geo.rays[i];
    const me = cells[i];
    for (let axis = 0; axis < 4; axis += 1) {
      const back = rays[axis + 4];
      const fwd = rays[axis];
      let nb = 0;
      while (nb < back.length && cells[back[nb]] === me) nb += 1;
      let nf = 0;
      while (nf < fwd.length && cells[fwd[nf]] === me) nf += 1;
      const left = nb < back.length ? cells[back[nb]] : EDGE;
      const right = nf < fwd.length ? cells[fwd[nf]] : EDGE;
      if (!runWins(this.rules, me, 1 + nb + nf, left, right)) continue;
      const names = this._geo.names;
      const line = [];
      for (let k = nb - 1; k >= 0; k -= 1) line.push(names[back[k]]);
      line.push(names[i]);
      for (let k = 0; k < nf; k += 1) line.push(names[fwd[k]]);
      return line;
    }
    return null;
  }

  toString() {
    const size = this.rules.size;
    const header = `    ${Array.from({ length: size }, (_, c) => squareName(c, 0)[0]).join(" ")}`;
    const rows = [];
    for (let r = 0; r < size; r += 1) {
      const cells = Array.from({ length: size }, (_, c) => ".XO"[this._cells[r * size + c]]);
      rows.push(`${String(r + 1).padStart(3)} ${cells.join(" ")}`);
    }
    return [header, ...rows].join("\n");
  }
}
