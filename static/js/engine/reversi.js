/**
 * Reversi (Othello) on bitboards (mirror of caro/engine/reversi.py: the same rules, codes,
 * position text and perft).
 *
 * Squares are a1-h8: column a at the left, row 1 at the TOP. Bit `row * 8 + col` stands for a
 * square (a1 = bit 0, h1 = bit 7, a8 = bit 56). A 64-bit board is held as two 32-bit halves,
 * `hi` (bits 32-63: rows 5-8) and `lo` (bits 0-31: rows 1-4), in ordinary int32 numbers:
 * measured faster than BigInt by a wide margin (bench/js/engine_bench.js prints both). The game
 * starts with d4 and e5 white, d5 and e4 black, Black to move.
 *
 * Rules (shared/reference/reversi-rules-ttakji.txt; World Othello Federation rules): a move must
 * flip at least one disc; every opponent line bracketed by the new disc and the nearest own disc,
 * in all eight directions, flips. A side with no legal move passes; the pass is automatic and only
 * then (`play` reports it). The game ends when neither side can move (empty squares may remain);
 * more discs wins, equal counts draw.
 * @module engine/reversi
 */

import { parseReversiSquare, reversiSquareName } from "./coords.js";
import { GAME_OVER, MUST_PASS, MUST_PLAY, NO_FLIP, OCCUPIED, WRONG_TURN, IllegalMove, repr } from "./errors.js";

export const BLACK = "black";
export const WHITE = "white";
/** Squares on the board. */
const SQUARES = 64;
/** Columns b-g in each row of a half: a bracketed run never crosses the a/h edge. */
const INNER = 0x7e7e7e7e;
/** Square names by bit index. */
export const NAMES = Object.freeze(Array.from({ length: SQUARES }, (_, i) => reversiSquareName(i % 8, Math.floor(i / 8))));
// The start: d5 (bit 35) and e4 (bit 28) black, d4 (bit 27) and e5 (bit 36) white.
const START_BLACK_HI = 1 << (35 - 32);
const START_BLACK_LO = 1 << 28;
const START_WHITE_HI = 1 << (36 - 32);
const START_WHITE_LO = 1 << 27;

const DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]];

/** Per square: the bit indices walking away from it, one array per direction (length >= 2). */
const RAYS = Array.from({ length: SQUARES }, (_, i) => {
  const perSquare = [];
  for (const [dc, dr] of DIRECTIONS) {
    const ray = [];
    let c = (i % 8) + dc;
    let r = Math.floor(i / 8) + dr;
    while (c >= 0 && c < 8 && r >= 0 && r < 8) {
      ray.push(r * 8 + c);
      c += dc;
      r += dr;
    }
    if (ray.length >= 2) perSquare.push(Int8Array.from(ray)); // a flip needs an opponent disc and an own disc beyond it
  }
  return perSquare;
});

// Results of the bit helpers below, returned through these two numbers (no allocation).
let outHi = 0;
let outLo = 0;

/** One shift direction of the legal-move fill: `s` bits, left (toward h8) when `left`. */
function fill(mh, ml, maskH, maskL, s, left) {
  let th;
  let tl;
  const r = 32 - s;
  if (left) {
    th = maskH & ((mh << s) | (ml >>> r)); tl = maskL & (ml << s);
    for (let k = 0; k < 5; k += 1) {
      th |= maskH & ((th << s) | (tl >>> r)); tl |= maskL & (tl << s);
    }
    outHi |= (th << s) | (tl >>> r); outLo |= tl << s;
  } else {
    tl = maskL & ((ml >>> s) | (mh << r)); th = maskH & (mh >>> s);
    for (let k = 0; k < 5; k += 1) {
      tl |= maskL & ((tl >>> s) | (th << r)); th |= maskH & (th >>> s);
    }
    outLo |= (tl >>> s) | (th << r); outHi |= th >>> s;
  }
}

/** Legal moves of `me` against `opp` into outHi/outLo. */
function legalInto(mh, ml, oh, ol) {
  outHi = 0;
  outLo = 0;
  const ih = oh & INNER;
  const il = ol & INNER;
  fill(mh, ml, ih, il, 1, true); fill(mh, ml, ih, il, 1, false);
  fill(mh, ml, oh, ol, 8, true); fill(mh, ml, oh, ol, 8, false);
  fill(mh, ml, ih, il, 7, true); fill(mh, ml, ih, il, 7, false);
  fill(mh, ml, ih, il, 9, true); fill(mh, ml, ih, il, 9, false);
  outHi &= ~(mh | oh);
  outLo &= ~(ml | ol);
}

/** Discs a move on bit `square` flips, into outHi/outLo (0 if none). */
function flipsInto(mh, ml, oh, ol, square) {
  let fh = 0;
  let fl = 0;
  for (const ray of RAYS[square]) {
    let rh = 0;
    let rl = 0;
    for (let k = 0; k < ray.length; k += 1) {
      const b = ray[k];
      const isHi = b >= 32;
      const bit = 1 << (b & 31);
      if ((isHi ? oh : ol) & bit) {
        if (isHi) rh |= bit; else rl |= bit;
      } else {
        if ((isHi ? mh : ml) & bit) { fh |= rh; fl |= rl; }
        break;
      }
    }
  }
  outHi = fh;
  outLo = fl;
}

/** Number of set bits of a 32-bit number. */
function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Legal moves of the side owning `me` against `opp`, both given as two 32-bit halves.
 * @returns {[number, number]} the move bitboard as [hi, lo]
 */
export function legalBits(meHi, meLo, oppHi, oppLo) {
  legalInto(meHi, meLo, oppHi, oppLo);
  return [outHi, outLo];
}

/**
 * The discs a move on bit index `square` flips (0 if none): in each direction, the opponent
 * discs up to the nearest own disc.
 * @returns {[number, number]} [hi, lo]
 */
export function flipsBits(meHi, meLo, oppHi, oppLo, square) {
  flipsInto(meHi, meLo, oppHi, oppLo, square);
  return [outHi, outLo];
}

function names(hi, lo) {
  const result = [];
  for (let i = 0; i < 32; i += 1) if ((lo >>> i) & 1) result.push(NAMES[i]);
  for (let i = 0; i < 32; i += 1) if ((hi >>> i) & 1) result.push(NAMES[i + 32]);
  return result;
}

function hex64(hi, lo) {
  return (hi >>> 0).toString(16).padStart(8, "0") + (lo >>> 0).toString(16).padStart(8, "0");
}

// Python's int(text, 16) in ASCII: surrounding whitespace, a sign, an optional 0x prefix and
// single underscores between digits.
const HEX_INT = /^([+-]?)(?:0[xX]_?)?([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)$/;
const TWO_64 = 1n << 64n;

function parseHex(text) {
  const match = HEX_INT.exec(text.trim());
  if (match === null) return null;
  const value = BigInt(`0x${match[2].replaceAll("_", "")}`);
  return match[1] === "-" ? -value : value;
}

/**
 * A finished game: `winner` is "black", "white" or null (draw); `black` and `white` are the
 * final disc counts.
 * @typedef {{winner: string|null, black: number, white: number}} Outcome
 */

/**
 * What one `play` did: the `square` played, the `flips` (square names in board order: a1, b1,
 * ..., h8), `passed` = the next side had no legal move and passed automatically (the mover
 * moves again), and the `outcome` if the game ended.
 * @typedef {{square: string, flips: string[], passed: boolean, outcome: Outcome|null}} MoveResult
 */

/**
 * A Reversi position: `turn` ("black"/"white"), `moves` (squares played, passes implied),
 * `passes` (automatic passes so far), `outcome` (null while playing). Queries never change the
 * board.
 */
export class Board {
  constructor() {
    this._bh = START_BLACK_HI;
    this._bl = START_BLACK_LO;
    this._wh = START_WHITE_HI;
    this._wl = START_WHITE_LO;
    /** @type {string} */
    this.turn = BLACK;
    /** @type {Outcome|null} */
    this.outcome = null;
    /** (black hi, black lo, white hi, white lo, turn, square) before each move */
    this._history = [];
    /** Automatic passes so far. */
    this.passes = 0;
  }

  /**
   * Play a move string such as "f5d6c3" (case-insensitive; passes are not written, they happen
   * automatically).
   * @param {string} moves
   * @returns {Board}
   * @throws {IllegalMove} for an illegal move or bad square (`bad_square` for an odd length)
   */
  static fromMoves(moves) {
    const board = new Board();
    const text = moves.trim();
    if (text.length % 2) throw new IllegalMove("bad_square", `odd-length move string: ${repr(moves)}`);
    for (let k = 0; k < text.length; k += 2) board.play(text.slice(k, k + 2));
    return board;
  }

  /**
   * Set up any position (diagrams, tests). No pass is applied: if `turn` has no move but the
   * other side does, `passTurn` must be called. If neither side can move the outcome is set.
   * @param {{black?: Iterable<string>, white?: Iterable<string>, turn?: string}} [discs]
   * @returns {Board}
   * @throws {IllegalMove} for bad or repeated squares
   * @throws {RangeError} for a `turn` other than "black"/"white"
   */
  static fromDiscs({ black = [], white = [], turn = BLACK } = {}) {
    if (turn !== BLACK && turn !== WHITE) throw new RangeError(`turn must be 'black' or 'white', not ${repr(turn)}`);
    const board = new Board();
    board._bh = board._bl = board._wh = board._wl = 0;
    for (const [colour, squares] of [[BLACK, black], [WHITE, white]]) {
      for (const square of squares) {
        const index = Board._index(square);
        if (board._has(index, board._bh | board._wh, board._bl | board._wl)) {
          throw new IllegalMove(OCCUPIED, `${square} is listed twice`, { square });
        }
        const bit = 1 << (index & 31);
        if (colour === BLACK) {
          if (index >= 32) board._bh |= bit; else board._bl |= bit;
        } else if (index >= 32) board._wh |= bit;
        else board._wl |= bit;
      }
    }
    board.turn = turn;
    if (!board._canMove(board._bh, board._bl, board._wh, board._wl) && !board._canMove(board._wh, board._wl, board._bh, board._bl)) {
      board.outcome = board._final();
    }
    return board;
  }

  /**
   * The position as a compact string: the side to move and the two bitboards in hex
   * ("black:0000000810000000:0000001008000000"), the Python engine's text. The moves, passes and
   * outcome are not part of it: `fromPosition` gives a board to play on.
   * @returns {string}
   */
  position() {
    return `${this.turn}:${hex64(this._bh, this._bl)}:${hex64(this._wh, this._wl)}`;
  }

  /**
   * The board of `position()`'s `text`, ready to play on: the same discs and side to move,
   * `moves` empty, `passes` 0 and `outcome` null.
   * @param {unknown} text
   * @returns {Board}
   * @throws {RangeError} for a string that is not a position
   */
  static fromPosition(text) {
    const parts = typeof text === "string" ? text.split(":") : [];
    const black = parts.length === 3 ? parseHex(parts[1]) : null;
    const white = parts.length === 3 ? parseHex(parts[2]) : null;
    if (black === null || white === null) throw new RangeError("not a Reversi position");
    const turn = parts[0];
    if ((turn !== BLACK && turn !== WHITE) || (black & white) !== 0n
        || black < 0n || black >= TWO_64 || white < 0n || white >= TWO_64) {
      throw new RangeError("not a Reversi position");
    }
    const board = new Board();
    board._bh = Number(black >> 32n) | 0;
    board._bl = Number(black & 0xffffffffn) | 0;
    board._wh = Number(white >> 32n) | 0;
    board._wl = Number(white & 0xffffffffn) | 0;
    board.turn = turn;
    return board;
  }

  /** An independent copy. */
  copy() {
    const other = new Board();
    other._bh = this._bh; other._bl = this._bl; other._wh = this._wh; other._wl = this._wl;
    other.turn = this.turn;
    other.outcome = this.outcome;
    other._history = this._history.slice();
    other.passes = this.passes;
    return other;
  }

  // -- queries -------------------------------------------------------------------------------

  /** Squares played so far, in order (passes implied; a new array). @returns {string[]} */
  get moves() {
    return this._history.map((entry) => entry[5]);
  }

  /** Number of discs played (passes not counted). */
  get ply() {
    return this._history.length;
  }

  /** [me hi, me lo, opp hi, opp lo] of the side to move. */
  _meOpp() {
    return this.turn === BLACK ? [this._bh, this._bl, this._wh, this._wl] : [this._wh, this._wl, this._bh, this._bl];
  }

  /** Legal squares for the side to move, sorted by name; empty when it must pass or the game is over. */
  legalMoves() {
    if (this.outcome !== null) return [];
    const [mh, ml, oh, ol] = this._meOpp();
    legalInto(mh, ml, oh, ol);
    return names(outHi, outLo).sort();
  }

  /**
   * "black", "white" or null for `square`.
   * @throws {IllegalMove} for bad names
   */
  discAt(square) {
    const index = Board._index(square);
    if (this._has(index, this._bh, this._bl)) return BLACK;
    return this._has(index, this._wh, this._wl) ? WHITE : null;
  }

  /** Every disc as `{square name: "black" | "white"}` (black discs first, each in board order). */
  discs() {
    const result = {};
    for (const name of names(this._bh, this._bl)) result[name] = BLACK;
    for (const name of names(this._wh, this._wl)) result[name] = WHITE;
    return result;
  }

  /** Disc counts `[black, white]`. @returns {[number, number]} */
  count() {
    return [popcount(this._bh) + popcount(this._bl), popcount(this._wh) + popcount(this._wl)];
  }

  /**
   * Squares a move on `square` by the side to move would flip, in board order (a1, b1, ..., h8);
   * empty if none or if the square is occupied.
   * @throws {IllegalMove} for bad names
   */
  flips(square) {
    const index = Board._index(square);
    if (this._has(index, this._bh | this._wh, this._bl | this._wl)) return [];
    const [mh, ml, oh, ol] = this._meOpp();
    flipsInto(mh, ml, oh, ol, index);
    return names(outHi, outLo);
  }

  // -- moves ---------------------------------------------------------------------------------

  /**
   * Play `square` for the side to move. If the next side then has no legal move but the mover
   * does, the next side passes automatically (`passed`); if neither can move the game ends
   * (`outcome`).
   * @param {string} square
   * @param {string|null} [side] asserts whose move it is
   * @returns {MoveResult}
   * @throws {IllegalMove} `game_over`, `wrong_turn`, `bad_square`, `out_of_board`, `must_pass`
   *   (no legal move at all: only in set-up positions), `occupied`, `no_flip`, in that order
   */
  play(square, side = null) {
    if (this.outcome !== null) throw new IllegalMove(GAME_OVER, "the game is over");
    if (side !== null && side !== undefined && side !== this.turn) {
      throw new IllegalMove(WRONG_TURN, `it is ${this.turn}'s turn, not ${side}'s`);
    }
    const index = Board._index(square);
    const name = NAMES[index];
    let [mh, ml, oh, ol] = this._meOpp();
    if (!this._canMove(mh, ml, oh, ol)) throw new IllegalMove(MUST_PASS, `${this.turn} has no legal move and must pass`);
    if (this._has(index, mh | oh, ml | ol)) throw new IllegalMove(OCCUPIED, `${name} is occupied`, { square: name });
    flipsInto(mh, ml, oh, ol, index);
    const fh = outHi;
    const fl = outLo;
    if (!fh && !fl) throw new IllegalMove(NO_FLIP, `${name} flips no disc`, { square: name });
    this._history.push([this._bh, this._bl, this._wh, this._wl, this.turn, name]);
    if (index >= 32) mh |= 1 << (index - 32); else ml |= 1 << index;
    mh |= fh; ml |= fl; oh &= ~fh; ol &= ~fl;
    const mover = this.turn;
    if (mover === BLACK) {
      this._bh = mh; this._bl = ml; this._wh = oh; this._wl = ol;
    } else {
      this._wh = mh; this._wl = ml; this._bh = oh; this._bl = ol;
    }
    let passed = false;
    if (this._canMove(oh, ol, mh, ml)) {
      this.turn = mover === BLACK ? WHITE : BLACK;
    } else if (this._canMove(mh, ml, oh, ol)) {
      passed = true; // the opponent must pass: the mover plays again
      this.passes += 1;
    } else {
      this.turn = mover === BLACK ? WHITE : BLACK;
      this.outcome = this._final();
    }
    return { square: name, flips: names(fh, fl), passed, outcome: this.outcome };
  }

  /**
   * Pass for the side to move. Passes are normally automatic (see `play`); this is only accepted
   * in a set-up position where the side to move has no legal move.
   * @throws {IllegalMove} `game_over` or `must_play` (a legal move exists: passing is refused)
   */
  passTurn() {
    if (this.outcome !== null) throw new IllegalMove(GAME_OVER, "the game is over");
    if (this._canMove(...this._meOpp())) throw new IllegalMove(MUST_PLAY, `${this.turn} has a legal move and may not pass`);
    this.turn = this.turn === BLACK ? WHITE : BLACK;
  }

  /**
   * Take back the last move (and any automatic pass after it); return its square.
   * @returns {string}
   * @throws {RangeError} when no move was played (Python: IndexError)
   */
  undo() {
    if (this._history.length === 0) throw new RangeError("no move to undo");
    const [bh, bl, wh, wl, turn, name] = this._history.pop();
    if (this.outcome === null && this.turn === turn) this.passes -= 1; // the move had forced a pass
    this._bh = bh; this._bl = bl; this._wh = wh; this._wl = wl;
    this.turn = turn;
    this.outcome = null;
    return name;
  }

  // -- internals -----------------------------------------------------------------------------

  static _index(square) {
    const [col, row] = parseReversiSquare(square);
    return row * 8 + col;
  }

  _has(index, hi, lo) {
    return index >= 32 ? ((hi >>> (index - 32)) & 1) === 1 : ((lo >>> index) & 1) === 1;
  }

  _canMove(mh, ml, oh, ol) {
    legalInto(mh, ml, oh, ol);
    return outHi !== 0 || outLo !== 0;
  }

  _final() {
    const [black, white] = this.count();
    return Object.freeze({ winner: black > white ? BLACK : white > black ? WHITE : null, black, white });
  }

  toString() {
    const rows = ["  a b c d e f g h"];
    for (let r = 0; r < 8; r += 1) {
      const cells = [];
      for (let c = 0; c < 8; c += 1) {
        const i = r * 8 + c;
        cells.push(this._has(i, this._bh, this._bl) ? "X" : this._has(i, this._wh, this._wl) ? "O" : ".");
      }
      rows.push(`${r + 1} ${cells.join(" ")}`);
    }
    return rows.join("\n");
  }
}

function perftBits(mh, ml, oh, ol, depth) {
  legalInto(mh, ml, oh, ol);
  let movesH = outHi;
  let movesL = outLo;
  if (!movesH && !movesL) {
    legalInto(oh, ol, mh, ml);
    if (!outHi && !outLo) return 1; // game over: a leaf
    return depth === 1 ? 1 : perftBits(oh, ol, mh, ml, depth - 1); // forced pass: one ply
  }
  if (depth === 1) return popcount(movesH) + popcount(movesL);
  let total = 0;
  while (movesL) {
    const bit = movesL & -movesL;
    movesL ^= bit;
    flipsInto(mh, ml, oh, ol, 31 - Math.clz32(bit));
    total += perftBits(oh & ~outHi, ol & ~outLo, mh | outHi, ml | bit | outLo, depth - 1);
  }
  while (movesH) {
    const bit = movesH & -movesH;
    movesH ^= bit;
    flipsInto(mh, ml, oh, ol, 63 - Math.clz32(bit));
    total += perftBits(oh & ~outHi, ol & ~outLo, mh | bit | outHi, ml | outLo, depth - 1);
  }
  return total;
}

/**
 * Count the leaf positions `depth` plies below `board`. A forced pass counts as one ply; a
 * finished game is a leaf as soon as it ends (as in shared/cases/reversi.json). The board is not
 * changed.
 * @param {Board} board
 * @param {number} depth plies
 * @returns {number}
 * @throws {RangeError} for depth < 0
 */
export function perft(board, depth) {
  if (depth < 0) throw new RangeError("depth must be >= 0");
  if (board.outcome !== null || depth === 0) return 1;
  return perftBits(...board._meOpp(), depth);
}
