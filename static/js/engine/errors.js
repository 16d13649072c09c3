/**
 * The one exception type thrown for a refused move or action (mirror of caro/engine/errors.py).
 *
 * Every refusal carries a short machine-readable `reason` code (the site maps it to a translated
 * message) and a readable English message for logs and tests. The codes are the Python engine's,
 * letter for letter: the two engines refuse the same tries with the same code.
 *
 * Malformed data that is not a move (invalid rules, a position text of the wrong size, opening
 * data that is not an object) throws a `RangeError` where Python raises `ValueError`.
 * @module engine/errors
 */

// Reason codes, listed once so callers and tests can refer to them.
/** The square name is malformed ("Z", "H0", "8H"). */
export const BAD_SQUARE = "bad_square";
/** Well-formed name, but off this board ("P8" on 15x15). */
export const OUT_OF_BOARD = "out_of_board";
/** The square already holds a stone or disc. */
export const OCCUPIED = "occupied";
/** The acting side or seat is not the one to act. */
export const WRONG_TURN = "wrong_turn";
/** The game has already finished. */
export const GAME_OVER = "game_over";
/** Renju: the move is a foul for Black (see `IllegalMove.foul`). */
export const FOUL = "foul";
/** Reversi: the move would flip no disc. */
export const NO_FLIP = "no_flip";
/** Reversi: the side to move has no legal move and must pass. */
export const MUST_PASS = "must_pass";
/** Reversi: a pass was asked for while a legal move exists. */
export const MUST_PLAY = "must_play";
/** An opening action not allowed in the current step. */
export const OPENING_STEP = "opening_step";
/** An opening action after the opening has finished. */
export const OPENING_OVER = "opening_over";
/** RIF: move 1-3 outside the required central area. */
export const NOT_CENTRAL = "not_central";
/** RIF: the 5th-move offer is not exactly two distinct squares. */
export const OFFER_COUNT = "offer_count";
/** RIF: the two 5th-move offers are symmetric. */
export const EQUIVALENT_FIFTH = "equivalent_fifth";
/** RIF: White picked a 5th move Black did not offer. */
export const NOT_OFFERED = "not_offered";
/** An opening "choose" action with a colour other than "X"/"O". */
export const BAD_COLOR = "bad_color";
/** A game record (PSQ, move list) cannot be read. */
export const BAD_RECORD = "bad_record";

/** Every reason code. */
export const REASONS = Object.freeze(new Set([
  BAD_SQUARE, OUT_OF_BOARD, OCCUPIED, WRONG_TURN, GAME_OVER, FOUL, NO_FLIP, MUST_PASS,
  MUST_PLAY, OPENING_STEP, OPENING_OVER, NOT_CENTRAL, OFFER_COUNT, EQUIVALENT_FIFTH,
  NOT_OFFERED, BAD_COLOR, BAD_RECORD,
]));

/**
 * A move or action the rules refuse.
 *
 * `reason` is one of the codes in {@link REASONS}; `foul` is the Renju foul kind
 * ("double-three", "double-four" or "overline") when `reason === "foul"`, else null;
 * `square` is the square name involved, when there is one (else null).
 */
export class IllegalMove extends Error {
  /**
   * @param {string} reason one of {@link REASONS}; anything else throws a RangeError
   * @param {string} [message] English text for logs (default: the reason with spaces)
   * @param {{square?: string|null, foul?: string|null}} [details]
   */
  constructor(reason, message, { square = null, foul = null } = {}) {
    if (!REASONS.has(reason)) throw new RangeError(`unknown reason code ${JSON.stringify(reason)}`);
    super(message || reason.replaceAll("_", " "));
    this.name = "IllegalMove";
    this.reason = reason;
    this.square = square;
    this.foul = foul;
  }
}

/**
 * Python's `repr` of a value for messages: strings in single quotes as Python writes them.
 * @param {unknown} value
 * @returns {string}
 */
export function repr(value) {
  if (typeof value === "string") return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
