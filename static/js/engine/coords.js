/**
 * Square names for both games (mirror of caro/engine/coords.py).
 *
 * Caro / gomoku: column letter then row number, row 1 at the TOP, letters A, B, C, ... with I
 * included (15x15 runs A-O, 19x19 A-S; H8 is the centre of 15x15). Parsing is case-insensitive
 * ("h8" is H8) but otherwise strict: exactly the letter and the number, no surrounding or inner
 * whitespace. Reversi: a1-h8, written in lowercase (read in either case), column a at the left,
 * row 1 at the top.
 *
 * Internally a square is `[col, row]`, both 0-based, row 0 being the top row ("1").
 * @module engine/coords
 */

import { BAD_SQUARE, OUT_OF_BOARD, IllegalMove, repr } from "./errors.js";

/** Column letters, A first (I included). */
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** Row numbers run 1-99 in a name (the largest board is 19, but names parse up to 99). */
const MAX_ROW = 99;
/** Reversi's board side. */
const REVERSI_SIZE = 8;
const REVERSI_LETTERS = "abcdefgh";

// One ASCII letter, then 1-99 without a leading zero, and nothing else.
const SQUARE_RE = /^([A-Za-z])([1-9][0-9]?)$/;

/**
 * The caro name of 0-based `(col, row)`: `squareName(7, 7) === "H8"`.
 * @param {number} col
 * @param {number} row
 * @returns {string}
 * @throws {RangeError} for negative or too large (col > 25, row > 98) coordinates
 */
export function squareName(col, row) {
  if (!(Number.isInteger(col) && Number.isInteger(row) && col >= 0 && col < LETTERS.length && row >= 0 && row < MAX_ROW)) {
    throw new RangeError(`no square name for (${col}, ${row})`);
  }
  return `${LETTERS[col]}${row + 1}`;
}

/**
 * Parse a caro square name on a `size` x `size` board into 0-based `[col, row]`.
 *
 * `parseSquare("h8", 15)` is `[7, 7]`. Whitespace is not trimmed: "H8 " is bad_square.
 * @param {unknown} name
 * @param {number} size
 * @returns {[number, number]}
 * @throws {IllegalMove} `bad_square` for a malformed name (not one letter followed by a number
 *   1-99 without a leading zero), `out_of_board` for a well-formed name off this board
 */
export function parseSquare(name, size) {
  const match = typeof name === "string" ? SQUARE_RE.exec(name) : null;
  if (match === null) throw new IllegalMove(BAD_SQUARE, `not a square name: ${repr(name)}`);
  const col = LETTERS.indexOf(match[1].toUpperCase());
  const row = Number(match[2]) - 1;
  if (col >= size || row >= size) {
    throw new IllegalMove(OUT_OF_BOARD, `${name} is off the ${size}x${size} board`, { square: name });
  }
  return [col, row];
}

/**
 * The Reversi name of 0-based `(col, row)` on the 8x8 board: `(5, 4)` is "f5".
 * @param {number} col
 * @param {number} row
 * @returns {string}
 * @throws {RangeError} off the board
 */
export function reversiSquareName(col, row) {
  if (!(Number.isInteger(col) && Number.isInteger(row) && col >= 0 && col < REVERSI_SIZE && row >= 0 && row < REVERSI_SIZE)) {
    throw new RangeError(`no Reversi square (${col}, ${row})`);
  }
  return `${REVERSI_LETTERS[col]}${row + 1}`;
}

/**
 * Parse a Reversi square name ("f5", case-insensitive) into 0-based `[col, row]`.
 * @param {unknown} name
 * @returns {[number, number]}
 * @throws {IllegalMove} `bad_square` for malformed names, `out_of_board` for well-formed names
 *   off the 8x8 board ("i1", "a9")
 */
export function parseReversiSquare(name) {
  return parseSquare(name, REVERSI_SIZE);
}
