/**
 * Opening procedures as explicit state machines: Swap2 and the RIF Renju opening (mirror of
 * caro/engine/openings.py: the same steps, actors, refusal codes and stored dicts).
 *
 * Players sit in *seats*, "first" and "second"; which seat plays X (Black) is only known when the
 * opening ends, because colours can be swapped. A machine has a `state` (a step name), an
 * `actor` (the seat that must act now), `allowed` (action kinds accepted now) and `apply`,
 * which takes an {@link Action} or the equivalent object:
 *
 *     {kind: "place", square: "H8"}          // put the next stone (colours alternate X, O, X, ...)
 *     {kind: "choose", color: "X"}           // Swap2: the acting seat takes this colour
 *     {kind: "swap"} / {kind: "keep"}        // RIF: tentative White swaps colours or not
 *     {kind: "offer", squares: ["J9", "G9"]} // RIF: Black offers two 5th moves
 *     {kind: "select", square: "J9"}         // RIF: White picks one of them (it is played)
 *
 * Out-of-step actions throw `IllegalMove` with a reason code (`opening_step`, `opening_over`,
 * `wrong_turn`, `not_central`, `offer_count`, `equivalent_fifth`, `not_offered`, `bad_color`,
 * plus the board's own `occupied`, `bad_square`, `out_of_board` and `foul`). A machine persists
 * as the list of applied actions (`toDict` / {@link openingFromDict} replay them). When
 * `state === "done"`, `colors` is final and the game continues with ordinary moves on `board`
 * (those later moves are not part of the opening's state).
 * @module engine/openings
 */

import { Board, O, Rules, X } from "./caro.js";
import { parseSquare, squareName } from "./coords.js";
import {
  BAD_COLOR, EQUIVALENT_FIFTH, FOUL, NOT_CENTRAL, NOT_OFFERED, OCCUPIED, OFFER_COUNT, OPENING_OVER,
  OPENING_STEP, WRONG_TURN, IllegalMove, repr,
} from "./errors.js";

/** The seat that starts the opening (tentative Black). */
export const FIRST = "first";
/** The other seat. */
export const SECOND = "second";
const OTHER = Object.freeze({ [FIRST]: SECOND, [SECOND]: FIRST });

/** A state of an opening machine. */
export const Step = Object.freeze({
  /** Swap2: the first seat places X, O, X anywhere. */
  PLACE_THREE: "place_three",
  /** Swap2: the second seat chooses a colour or places the 4th stone (O). */
  SECOND_CHOICE: "second_choice",
  /** Swap2: the second seat places the 5th stone (X), then hands the choice back. */
  SECOND_PLACE: "second_place",
  /** Swap2: the first seat chooses a colour after five stones. */
  FIRST_CHOICE: "first_choice",
  /** RIF: tentative Black (first seat) plays move 1 on the centre point. */
  PLACE_1: "place_1",
  /** RIF: tentative Black places move 2 (White) inside the central 3x3. */
  PLACE_2: "place_2",
  /** RIF: tentative Black places move 3 (Black) inside the central 5x5. */
  PLACE_3: "place_3",
  /** RIF: tentative White (second seat) may swap colours. */
  SWAP: "swap",
  /** RIF: White plays move 4 anywhere. */
  PLACE_4: "place_4",
  /** RIF: Black offers two non-equivalent 5th moves. */
  OFFER_5: "offer_5",
  /** RIF: White selects one offered 5th move (it is played); White then plays move 6. */
  SELECT_5: "select_5",
  /** The opening is over; colours are final and the game goes on on `board`. */
  DONE: "done",
});

function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python's truth value of a JSON-like value (for `action.get("squares") or ()`). */
function truthy(value) {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

function typeName(value) {
  if (value === null || value === undefined) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "string") return "str";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "bool";
  return isPlainObject(value) ? "dict" : typeof value;
}

/** One opening action: `kind` plus `square`, `squares` or `color` as the kind needs. */
export class Action {
  /**
   * @param {string} kind
   * @param {unknown} [square] a square name (null when not set)
   * @param {ReadonlyArray<unknown>} [squares] the offered squares (empty when not set)
   * @param {unknown} [color] "X" or "O" (null when not set)
   */
  constructor(kind, square = null, squares = [], color = null) {
    this.kind = kind;
    this.square = square;
    this.squares = Object.freeze([...squares]);
    this.color = color;
    Object.freeze(this);
  }

  /**
   * An Action from an Action or its object form.
   * @param {Action|Record<string, unknown>} action
   * @returns {Action}
   * @throws {IllegalMove} `opening_step` for junk, `offer_count` for `squares` not a list
   */
  static coerce(action) {
    if (action instanceof Action) return action;
    if (!isPlainObject(action) || typeof action.kind !== "string") {
      throw new IllegalMove(OPENING_STEP, `not an opening action: ${repr(action)}`);
    }
    const squares = truthy(action.squares) ? action.squares : [];
    if (!Array.isArray(squares)) throw new IllegalMove(OFFER_COUNT, "squares must be a list of two square names");
    return new Action(action.kind, action.square ?? null, squares, action.color ?? null);
  }

  /** The JSON-friendly object form (only the fields that are set, in Python's key order). */
  toDict() {
    const data = { kind: this.kind };
    if (this.square !== null) data.square = this.square;
    if (this.squares.length) data.squares = [...this.squares];
    if (this.color !== null) data.color = this.color;
    return data;
  }
}

/** The 8 rotations and reflections of a `size` board about its centre, identity first. */
function transforms(size) {
  const m = size - 1;
  return [
    (c, r) => [c, r], (c, r) => [m - r, c], (c, r) => [m - c, m - r], (c, r) => [r, m - c],
    (c, r) => [m - c, r], (c, r) => [c, m - r], (c, r) => [r, c], (c, r) => [m - r, m - c],
  ];
}

/**
 * The rotations and reflections of the square board (about its centre) that map every stone
 * onto a stone of the same colour: the symmetry group of the position, identity first. Each is
 * a function `(col, row) => [col, row]` on 0-based coordinates.
 * @param {Board} board
 * @returns {Array<(col: number, row: number) => [number, number]>}
 */
export function symmetries(board) {
  const size = board.rules.size;
  const stones = Object.entries(board.stones()).map(([name, side]) => [parseSquare(name, size), side]);
  const cells = board._cells;
  const code = { X: 1, O: 2 };
  return transforms(size).filter((t) => stones.every(([[c, r], side]) => {
    const [tc, tr] = t(c, r);
    return cells[tr * size + tc] === code[side];
  }));
}

/** Shared machinery of the two openings: seats, colours, the board, the action log. */
class OpeningMachine {
  /** @param {Rules|null} [rules] */
  constructor(rules = null) {
    /** @type {Board} */
    this.board = new Board(rules);
    /** Seat -> colour; tentative until `state === "done"`. @type {{first: string, second: string}} */
    this.colors = { [FIRST]: X, [SECOND]: O };
    /** @type {string} a {@link Step} value */
    this.state = this.constructor.firstState;
    /** @type {Action[]} */
    this.actions = [];
  }

  /** The opening kind ("swap2" or "rif"), as stored in `toDict`. */
  get kind() {
    return this.constructor.kind;
  }

  /** Whether the opening is over (`state === "done"`). */
  get finished() {
    return this.state === Step.DONE;
  }

  /** The seat currently holding `color` ("X" or "O"). */
  seatOf(color) {
    return this.colors[FIRST] === color ? FIRST : SECOND;
  }

  /** The seat that must act now (after the opening: the seat whose colour is to move). */
  get actor() {
    return this.finished ? this.seatOf(this.board.turn) : this._actor();
  }

  /** The action kinds accepted in the current state (a new array; empty when done). @returns {string[]} */
  get allowed() {
    return [...this.constructor.allowedKinds[this.state]];
  }

  /**
   * Apply one action (optionally asserting the acting `seat`) and return the new state.
   * @param {Action|Record<string, unknown>} action
   * @param {string|null} [seat]
   * @returns {string} the new {@link Step}
   * @throws {IllegalMove} (see the module comment); a refused action changes nothing
   */
  apply(action, seat = null) {
    const act = Action.coerce(action);
    if (this.finished) throw new IllegalMove(OPENING_OVER, "the opening is over");
    if (seat !== null && seat !== undefined && seat !== this.actor) {
      throw new IllegalMove(WRONG_TURN, `it is the ${this.actor} seat's turn in the opening`);
    }
    if (!this.constructor.allowedKinds[this.state].includes(act.kind)) {
      throw new IllegalMove(OPENING_STEP, `${repr(act.kind)} is not allowed in step '${this.state}'`);
    }
    this._apply(act);
    this.actions.push(act);
    return this.state;
  }

  _place(act) {
    if (typeof act.square !== "string") throw new IllegalMove(OPENING_STEP, "a place action needs a square");
    this.board.play(act.square);
  }

  _choose(act) {
    if (act.color !== X && act.color !== O) {
      throw new IllegalMove(BAD_COLOR, `colour must be 'X' or 'O', not ${repr(act.color)}`);
    }
    const seat = this._actor();
    this.colors = { [seat]: act.color, [OTHER[seat]]: act.color === X ? O : X };
    this.state = Step.DONE;
  }

  /** JSON-friendly state: opening kind, rules and the applied actions in order (Python's dict). */
  toDict() {
    return { kind: this.kind, rules: this.board.rules.toDict(), actions: this.actions.map((a) => a.toDict()) };
  }

  /**
   * Rebuild a machine from `toDict` output by replaying its actions.
   * @param {unknown} data
   * @throws {RangeError} for malformed data: not an object, another opening kind, missing or bad
   *   `rules`, `actions` present but not an array
   * @throws {IllegalMove} if a stored action is refused
   */
  static fromDict(data) {
    checkData(data);
    if (data.kind !== this.kind) throw new RangeError(`not a ${this.kind} opening: ${repr(data.kind)}`);
    if (!("rules" in data)) throw new RangeError("opening data has no 'rules'");
    const actions = "actions" in data ? data.actions : [];
    if (!Array.isArray(actions)) throw new RangeError(`opening actions must be a list, not ${typeName(actions)}`);
    const opening = new this(Rules.fromDict(data.rules));
    for (const action of actions) opening.apply(action);
    return opening;
  }
}

/**
 * Swap2 (Gomoku World Championship opening): the first seat places X, O, X; the second seat
 * chooses X or O, or places two more stones (O then X) and lets the first seat choose.
 * Source: Gomocup / RIF Swap2 rule.
 */
export class Swap2Opening extends OpeningMachine {
  static kind = "swap2";
  static firstState = Step.PLACE_THREE;
  static allowedKinds = Object.freeze({
    [Step.PLACE_THREE]: ["place"], [Step.SECOND_CHOICE]: ["choose", "place"],
    [Step.SECOND_PLACE]: ["place"], [Step.FIRST_CHOICE]: ["choose"], [Step.DONE]: [],
  });

  /** Stones the first seat places before the second seat's choice. */
  static FIRST_STONES = 3;

  _actor() {
    return this.state === Step.PLACE_THREE || this.state === Step.FIRST_CHOICE ? FIRST : SECOND;
  }

  _apply(act) {
    if (act.kind === "choose") {
      this._choose(act);
      return;
    }
    this._place(act);
    if (this.state === Step.PLACE_THREE && this.board.ply === Swap2Opening.FIRST_STONES) this.state = Step.SECOND_CHOICE;
    else if (this.state === Step.SECOND_CHOICE) this.state = Step.SECOND_PLACE;
    else if (this.state === Step.SECOND_PLACE) this.state = Step.FIRST_CHOICE;
  }
}

/**
 * The RIF Renju opening: tentative Black (first seat) places move 1 on the centre, move 2
 * (White) in the central 3x3 and move 3 (Black) in the central 5x5; tentative White may swap;
 * White plays move 4 anywhere; Black offers two 5th moves not equivalent under the position's
 * symmetries; White selects one (it is played) and then plays move 6 as an ordinary move.
 * Source: RIF opening rules (renju.net, "RIF rules" §4).
 */
export class RifOpening extends OpeningMachine {
  static kind = "rif";
  static firstState = Step.PLACE_1;
  static allowedKinds = Object.freeze({
    [Step.PLACE_1]: ["place"], [Step.PLACE_2]: ["place"], [Step.PLACE_3]: ["place"],
    [Step.SWAP]: ["swap", "keep"], [Step.PLACE_4]: ["place"], [Step.OFFER_5]: ["offer"],
    [Step.SELECT_5]: ["select"], [Step.DONE]: [],
  });
  /** Chebyshev radius from the centre allowed for moves 1-3 (RIF §4: centre, 3x3, 5x5). */
  static ZONE = Object.freeze({ [Step.PLACE_1]: 0, [Step.PLACE_2]: 1, [Step.PLACE_3]: 2 });
  static NEXT = Object.freeze({
    [Step.PLACE_1]: Step.PLACE_2, [Step.PLACE_2]: Step.PLACE_3, [Step.PLACE_3]: Step.SWAP, [Step.PLACE_4]: Step.OFFER_5,
  });
  /** Black offers exactly this many 5th moves (RIF §4). */
  static OFFERS = 2;

  constructor(rules = null) {
    super(rules);
    /** The two offered 5th moves once offered (normalised names). @type {string[]} */
    this.offers = [];
  }

  _actor() {
    if (this.state === Step.PLACE_1 || this.state === Step.PLACE_2 || this.state === Step.PLACE_3) return FIRST;
    if (this.state === Step.SWAP) return SECOND;
    return this.seatOf(this.state === Step.OFFER_5 ? X : O);
  }

  _apply(act) {
    const size = this.board.rules.size;
    if (act.kind === "place") {
      const radius = RifOpening.ZONE[this.state];
      if (radius !== undefined && typeof act.square === "string") {
        const [col, row] = parseSquare(act.square, size);
        const half = Math.floor(size / 2);
        if (Math.max(Math.abs(col - half), Math.abs(row - half)) > radius) {
          const area = radius === 0 ? "the centre point" : `the central ${2 * radius + 1}x${2 * radius + 1}`;
          throw new IllegalMove(NOT_CENTRAL, `move ${this.board.ply + 1} must be on ${area}`, { square: act.square });
        }
      }
      this._place(act);
      this.state = RifOpening.NEXT[this.state];
    } else if (act.kind === "swap" || act.kind === "keep") {
      if (act.kind === "swap") this.colors = { [FIRST]: O, [SECOND]: X };
      this.state = Step.PLACE_4;
    } else if (act.kind === "offer") {
      this.offers = this._checkOffers(act.squares);
      this.state = Step.SELECT_5;
    } else { // select
      const chosen = typeof act.square === "string" ? this._normal(act.square) : null;
      if (!this.offers.includes(chosen)) {
        throw new IllegalMove(NOT_OFFERED, `${repr(act.square)} was not offered`, { square: act.square });
      }
      this.board.play(chosen);
      this.state = Step.DONE;
    }
  }

  _normal(name) {
    const [col, row] = parseSquare(name, this.board.rules.size);
    return squareName(col, row);
  }

  _checkOffers(squares) {
    if (squares.length !== RifOpening.OFFERS || !squares.every((s) => typeof s === "string")) {
      throw new IllegalMove(OFFER_COUNT, "offer exactly two 5th moves");
    }
    const [a, b] = squares.map((s) => this._normal(s));
    if (a === b) throw new IllegalMove(OFFER_COUNT, "the two 5th moves must differ");
    for (const name of [a, b]) {
      if (this.board.stoneAt(name) !== null) throw new IllegalMove(OCCUPIED, `${name} is occupied`, { square: name });
      const kind = this.board.foul(name);
      if (kind !== null) throw new IllegalMove(FOUL, `${name} is a foul for X (${kind})`, { square: name, foul: kind });
    }
    const size = this.board.rules.size;
    const pa = parseSquare(a, size);
    const pb = parseSquare(b, size);
    if (symmetries(this.board).some((t) => {
      const [c, r] = t(pa[0], pa[1]);
      return c === pb[0] && r === pb[1];
    })) {
      throw new IllegalMove(EQUIVALENT_FIFTH, `${a} and ${b} are symmetric in this position`);
    }
    return [a, b];
  }
}

function checkData(data) {
  if (!isPlainObject(data)) throw new RangeError(`opening data must be a dict, not ${typeName(data)}`);
}

/** The opening machines by kind. */
export const OPENINGS = Object.freeze({ swap2: Swap2Opening, rif: RifOpening });

/**
 * Rebuild whichever opening machine `data` describes (see `fromDict`).
 * @param {unknown} data
 * @returns {Swap2Opening|RifOpening}
 * @throws {RangeError} for malformed data (not an object, unknown kind, missing or bad rules,
 *   actions not an array)
 * @throws {IllegalMove} if a stored action is refused
 */
export function openingFromDict(data) {
  checkData(data);
  const kind = data.kind;
  const cls = typeof kind === "string" && Object.hasOwn(OPENINGS, kind) ? OPENINGS[kind] : null;
  if (cls === null) throw new RangeError(`unknown opening kind: ${repr(data.kind)}`);
  return cls.fromDict(data);
}
