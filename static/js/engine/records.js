/**
 * Game records: square lists, Piskvork .psq and Reversi move strings, in and out (mirror of the
 * matching parts of caro/engine/records.py; GGF stays server-side).
 *
 * Every parser refuses bad input with `IllegalMove` and a reason code:
 * - `bad_record` for input that is not a record: not a string, a missing or malformed header,
 *   text outside the format's grammar, a token that is not a square name, a board size the site
 *   does not play, a move after the game has ended. When the cause is a move's own refusal
 *   (`bad_square`, `game_over`) its reason is kept in the message;
 * - the move's own reason (`out_of_board`, `occupied`, `no_flip`, `foul`...) when the record is
 *   well-formed but a move in it is not legal.
 *
 * A parsed record is replayed on a board, so what comes back is always a playable game. The
 * grammar is Python's, character for character (its whitespace, its line breaks, its
 * case-insensitive header).
 * @module engine/records
 */

import { Board, Rules, SIZES } from "./caro.js";
import { parseSquare, squareName } from "./coords.js";
import { BAD_RECORD, BAD_SQUARE, GAME_OVER, OUT_OF_BOARD, IllegalMove } from "./errors.js";
import { Board as ReversiBoard } from "./reversi.js";

// Python's whitespace (str.isspace, and `\s` of its re module) and its line breaks (splitlines).
const WS = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");
const LINE_BREAK = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/;
/** Digits a PSQ header's size may have before it is refused without being read. */
const PSQ_SIZE_DIGITS = 3;
/** Digits a PSQ coordinate may have. */
const PSQ_COORD_DIGITS = 6;
/** Digits (and sign) a PSQ move time may have. */
const PSQ_TIME_DIGITS = 12;

// A move refused for one of these reasons means the text is not a game record at all.
const RECORD_REASONS = [BAD_SQUARE, GAME_OVER];

function strip(text) {
  return text.replace(STRIP, "");
}

/** Python's str.splitlines(): no empty last line after a final break. */
function splitlines(text) {
  const lines = text.split(LINE_BREAK);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function pythonType(value) {
  if (value === null || value === undefined) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (value instanceof Uint8Array) return "bytes";
  return typeof value === "object" ? "dict" : typeof value;
}

function requireText(text) {
  if (typeof text !== "string") throw new IllegalMove(BAD_RECORD, `a record must be text (str), not ${pythonType(text)}`);
  return text;
}

/** `board.play(move)`; a `bad_square` or `game_over` refusal becomes `bad_record`. */
function play(board, move, n, side = null) {
  try {
    return board.play(move, side);
  } catch (error) {
    if (error instanceof IllegalMove && RECORD_REASONS.includes(error.reason)) {
      throw new IllegalMove(BAD_RECORD, `move ${n}: ${error.message} (${error.reason})`, { square: error.square });
    }
    throw error;
  }
}

// -- caro: plain square lists ----------------------------------------------------------------

/** `["H8", "I9"]` -> "H8 I9" (names as given by `Board.moves`). */
export function formatSquares(moves) {
  return moves.join(" ");
}

const SQUARE_SEPARATORS = new RegExp(`[${WS},;]+`);
const MOVE_NUMBER = /^[0-9]+\.$/;

/**
 * Replay a square list (separated by spaces, commas, semicolons or new lines; case ignored;
 * optional move numbers like "1. H8" ignored) and return the board.
 * @param {string} text
 * @param {Rules|null} [rules]
 * @returns {Board}
 * @throws {IllegalMove} `bad_record` for a text that is not a string, a token that is not a
 *   square name or a move number ("1.H8", "ZZ9") and a move after the game ended; the move's own
 *   reason (`out_of_board`, `occupied`, `foul`) for an illegal move
 */
export function parseSquares(text, rules = null) {
  requireText(text);
  const board = new Board(rules);
  let n = 0;
  for (const token of strip(text).split(SQUARE_SEPARATORS)) {
    if (token && !MOVE_NUMBER.test(token)) {
      n += 1;
      play(board, token, n);
    }
  }
  return board;
}

// -- gomoku: Piskvork .psq ---------------------------------------------------------------------

/**
 * A parsed Piskvork record: board `size`, `moves` (square names, X first), the thinking `times`
 * in milliseconds, one per move, and the players' `names` (X, O) from a tournament file's
 * trailer (["", ""] when it has none).
 * @typedef {{size: number, moves: string[], times: number[], names: [string, string]}} PsqGame
 */

// "Piskvorky WxH, ..." matched case-insensitively as Python's re.IGNORECASE does (i also
// matches ı and İ, s matches ſ, k matches the Kelvin sign).
const PSQ_HEADER = /^[Pp][Ii\u0130\u0131][Ss\u017f][Kk\u212a][Vv][Oo][Rr][Kk\u212a][Yy][ \t]+([0-9]+)[ \t]*[Xx][ \t]*([0-9]+)[ \t]*,.*$/;
const PSQ_MOVE = /^[ \t]*([0-9]+)[ \t]*,[ \t]*([0-9]+)[ \t]*(?:,[ \t]*(-?[0-9]+)[ \t]*)?$/;
// Looks like a move line but is not one (signs, Unicode digits, other spaces): refused, not
// taken for the start of the trailer.
const PSQ_LIKE_MOVE = new RegExp(
  `^[${WS}]*[+-]?\\p{Nd}+[${WS}]*,[${WS}]*[+-]?\\p{Nd}+[${WS}]*(?:,[${WS}]*[+-]?\\p{Nd}+[${WS}]*)?$`, "u",
);

// A trailer line that is not a name: "-1", a number, or a rule line such as "0,Freestyle15".
const PSQ_NOT_NAME = new RegExp(`^[${WS}]*-?[0-9]+[${WS}]*(,.*)?$`);
/** The longest player name kept from a record (characters). */
export const PSQ_NAME_LENGTH = 40;
// What Python's str.isprintable() refuses: control, format, surrogate, private-use, unassigned
// and separator characters, except the plain space.
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** A player name as a PSQ trailer line holds it: one line, printable, at most PSQ_NAME_LENGTH. */
function psqName(text) {
  const printable = Array.from(String(text)).filter((ch) => ch === " " || !NOT_PRINTABLE.test(ch)).join("");
  return Array.from(strip(printable)).slice(0, PSQ_NAME_LENGTH).join("");
}

/** An int from ASCII digits, refusing absurd lengths before converting. */
function psqInt(digits, limit, what) {
  if (digits.length > limit) throw new IllegalMove(BAD_RECORD, `${what} has too many digits (${digits.length})`);
  return Number.parseInt(digits, 10);
}

/**
 * Write a Piskvork .psq record: the header "Piskvorky 15x15, 11:11, 0" then one `x,y,ms` line
 * per move, 1-based, x the column and y the row from the top, then "-1", then the players'
 * `names` (X, then O; one line each, as tournament files write the programs' names) when both
 * are given.
 * @param {string[]} moves
 * @param {number} [size]
 * @param {number[]|null} [times] milliseconds, one per move
 * @param {[string, string]} [names]
 * @returns {string}
 * @throws {IllegalMove} for squares off the board
 * @throws {RangeError} if `times` has the wrong length
 */
export function formatPsq(moves, size = 15, times = null, names = ["", ""]) {
  if (times !== null && times.length !== moves.length) throw new RangeError("one time per move");
  const lines = [`Piskvorky ${size}x${size}, 11:11, 0`];
  moves.forEach((name, k) => {
    const [col, row] = parseSquare(name, size);
    lines.push(`${col + 1},${row + 1},${times && times.length ? times[k] : 0}`);
  });
  lines.push("-1");
  if (names.every((name) => psqName(name))) lines.push(...names.map(psqName));
  return `${lines.join("\n")}\n`;
}

/**
 * Read a Piskvork .psq record (Piskvork / Gomocup files). The header comes first; the move
 * lines `x,y[,ms]` follow it without a break and end at the first line that is not a move ("-1",
 * or the player names and rule lines of tournament files, whose first two other lines are the
 * players' names, X then O); a move line after that is refused.
 * Only the site's square boards (11, 13, 15, 19) are accepted. The moves are replayed under
 * `rules` (default: freestyle on the record's size; `rules.size` must match the header).
 * Source: Piskvork file format as written by Piskvork 8 / Gomocup.
 * @param {string} text
 * @param {Rules|null} [rules]
 * @returns {PsqGame}
 * @throws {IllegalMove} `bad_record`, `out_of_board` or a move's own reason (see the module comment)
 */
export function parsePsq(text, rules = null) {
  requireText(text);
  const lines = splitlines(text);
  const header = lines.length ? PSQ_HEADER.exec(strip(lines[0])) : null;
  if (header === null) throw new IllegalMove(BAD_RECORD, "not a Piskvork record (no 'Piskvorky WxH' header)");
  const width = psqInt(header[1], PSQ_SIZE_DIGITS, "the board width");
  const height = psqInt(header[2], PSQ_SIZE_DIGITS, "the board height");
  if (width !== height || !SIZES.includes(width)) {
    throw new IllegalMove(BAD_RECORD, `unsupported board ${width}x${height}: the site plays ${SIZES.map((n) => `${n}x${n}`).join(", ")} only`);
  }
  let theRules = rules;
  if (theRules === null) theRules = new Rules({ size: width, blocked: "none" });
  else if (theRules.size !== width) {
    throw new IllegalMove(BAD_RECORD, `the record is ${width}x${width} but the rules are ${theRules.size}x${theRules.size}`);
  }
  const board = new Board(theRules);
  const times = [];
  const trailer = []; // the lines after the moves that may be the players' names
  let end = null; // line number of the first line after the moves
  for (let k = 1; k < lines.length; k += 1) {
    const number = k + 1;
    const line = lines[k];
    const match = PSQ_MOVE.exec(line);
    if (match === null) {
      if (PSQ_LIKE_MOVE.test(line)) {
        throw new IllegalMove(BAD_RECORD, `line ${number}: not a move in ASCII digits: ${JSON.stringify(line.slice(0, 40))}`);
      }
      if (end === null) end = number;
      if (strip(line) && !PSQ_NOT_NAME.test(line)) trailer.push(psqName(line));
      continue;
    }
    if (end !== null) {
      throw new IllegalMove(BAD_RECORD, `line ${number}: a move after the non-move line ${end} (${JSON.stringify(lines[end - 1].slice(0, 40))})`);
    }
    const x = psqInt(match[1], PSQ_COORD_DIGITS, `line ${number}: x`);
    const y = psqInt(match[2], PSQ_COORD_DIGITS, `line ${number}: y`);
    if (!(x >= 1 && x <= width && y >= 1 && y <= width)) {
      throw new IllegalMove(OUT_OF_BOARD, `line ${number}: ${x},${y} is off the ${width}x${width} board`);
    }
    const name = squareName(x - 1, y - 1);
    if (board.outcome !== null) {
      throw new IllegalMove(BAD_RECORD, `line ${number}: ${name} is played after the game ended (${board.outcome.termination})`, { square: name });
    }
    if (board.stoneAt(name) !== null) throw new IllegalMove(BAD_RECORD, `line ${number}: ${name} is played twice`, { square: name });
    play(board, name, board.ply + 1);
    times.push(psqInt(match[3] ?? "0", PSQ_TIME_DIGITS, `line ${number}: the time`));
  }
  return { size: width, moves: board.moves, times, names: trailer.length >= 2 ? [trailer[0], trailer[1]] : ["", ""] };
}

// -- Reversi: plain move strings ------------------------------------------------------------------

/** The moves of a Reversi board as one lowercase string, passes implied: "f5d6c3". */
export function formatReversi(board) {
  return board.moves.join("");
}

const REVERSI_SEPARATORS = new RegExp(`[${WS},]+`, "g");
const REVERSI_MOVE = /^[A-Za-z][0-9]$/;

/**
 * Replay a move string ("f5d6c3" or "F5 D6 C3"; case, spaces and commas ignored; passes implied)
 * and return the board.
 * @param {string} text
 * @returns {ReversiBoard}
 * @throws {IllegalMove} `bad_record` for a text that is not a string, a string that is not a
 *   sequence of letter-digit moves and a move after the game ended; the move's own reason
 *   (`out_of_board`, `occupied`, `no_flip`) for an illegal move
 */
export function parseReversi(text) {
  const compact = requireText(text).replace(REVERSI_SEPARATORS, "");
  if (compact.length % 2) {
    throw new IllegalMove(BAD_RECORD, `not a move string: odd length ${compact.length} (each move is a letter and a digit): ${JSON.stringify(compact.slice(0, 40))}`);
  }
  const board = new ReversiBoard();
  for (let k = 0; k < compact.length; k += 2) {
    const move = compact.slice(k, k + 2);
    if (!REVERSI_MOVE.test(move)) throw new IllegalMove(BAD_RECORD, `move ${k / 2 + 1}: ${JSON.stringify(move)} is not a square name`);
    play(board, move, k / 2 + 1);
  }
  return board;
}
