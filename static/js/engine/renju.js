/**
 * Renju fouls for Black (X): double-three, double-four and overline (RIF rules §9.2-9.4);
 * mirror of caro/engine/renju.py, judgement for judgement.
 *
 * Pure functions over a board given as a flat array of cells (row-major; 0 empty, 1 Black,
 * 2 White) and the per-square rays of `geometry(size)` in caro.js (`rays[i][k]`: the cell
 * indices walking away from `i`, k = 0..3 along the axes row, column, diagonal, anti-diagonal,
 * k + 4 the opposite direction). They never change the caller's array: the public entry point
 * works on a copy.
 *
 * Definitions used (RIF rules, "Renju rules" §9):
 * - a *five* is exactly five Black stones in a row; six or more is an *overline*;
 * - a *four* is a line that one more Black move turns into a five; a *straight four* has two
 *   such moves (an open `_XXXX_`), and still counts as one four; two fours on one line
 *   (`XXX_?_XXX`, `X_XX?_X`) count as two;
 * - a *three* is a line that one more Black move turns into a straight four, where that move is
 *   not itself a foul; this is judged recursively on the position after the move;
 * - a move that makes a five is never a foul, whatever else it makes (RIF §9.2);
 * - otherwise overline, then double-four, then double-three, is reported.
 *
 * Only lines through the new stone count: a foul is made by the move itself.
 * @module engine/renju
 */

const EMPTY = 0;
const BLACK = 1;
/** Stones in a five (RIF §9: exactly five; more is an overline). */
const FIVE = 5;
/** Stones in a four: one more makes a five. */
const FOUR = 4;
/** Stones in a straight four's run, without the move: `_XXX_` + 1 = `_XXXX_`. */
const STRAIGHT_FOUR_OTHERS = 3;
/** Axes through a point (row, column, two diagonals); ray k + AXES is the opposite of ray k. */
const AXES = 4;

/** A Renju foul kind; the value is the site-wide name. */
export const Foul = Object.freeze({
  /** The move makes two or more threes at once. */
  DOUBLE_THREE: "double-three",
  /** The move makes two or more fours at once (possibly on one line). */
  DOUBLE_FOUR: "double-four",
  /** The move makes six or more Black stones in a row. */
  OVERLINE: "overline",
});

/**
 * Walk `ray` away from a Black stone.
 *
 * Returns `[n, end, beyond]`: `n` contiguous Black stones, `end` the index of the empty cell
 * just after them (-1 when that cell is White or off the board), `beyond` the contiguous Black
 * stones after `end` (0 when `end` is -1).
 * @param {ArrayLike<number>} cells
 * @param {ArrayLike<number>} ray
 * @returns {[number, number, number]}
 */
function side(cells, ray) {
  const length = ray.length;
  let n = 0;
  while (n < length && cells[ray[n]] === BLACK) n += 1;
  if (n === length || cells[ray[n]] !== EMPTY) return [n, -1, 0];
  let k = n + 1;
  while (k < length && cells[ray[k]] === BLACK) k += 1;
  return [n, ray[n], k - n - 1];
}

/**
 * Whether the Black run through `p` on `axis` is an open four `_XXXX_` whose two completions
 * are both exact fives.
 */
function isStraightFour(cells, rays, p, axis) {
  const [nF, endF, beyondF] = side(cells, rays[p][axis]);
  const [nB, endB, beyondB] = side(cells, rays[p][axis + AXES]);
  return nF + nB === STRAIGHT_FOUR_OTHERS && endF >= 0 && endB >= 0 && beyondF === 0 && beyondB === 0;
}

/** Foul kind of a Black move at empty `p`, or null (restores `cells` before returning). */
function foul(cells, rays, p) {
  cells[p] = BLACK;
  try {
    const sides = [];
    let overline = false;
    for (let axis = 0; axis < AXES; axis += 1) {
      const fwd = side(cells, rays[p][axis]);
      const back = side(cells, rays[p][axis + AXES]);
      const run = 1 + fwd[0] + back[0];
      if (run === FIVE) return null; // a five is never a foul
      overline = overline || run > FIVE;
      sides.push([run, fwd, back]);
    }
    if (overline) return Foul.OVERLINE;
    let fours = 0;
    const fourAxes = [];
    for (const [run, [, endF, beyondF], [, endB, beyondB]] of sides) {
      const toFiveF = endF >= 0 && run + 1 + beyondF === FIVE;
      const toFiveB = endB >= 0 && run + 1 + beyondB === FIVE;
      const count = Number(toFiveF) + Number(toFiveB) - Number(toFiveF && toFiveB && run === FOUR);
      fours += count;
      fourAxes.push(count > 0);
    }
    if (fours >= 2) return Foul.DOUBLE_FOUR;
    let threes = 0;
    for (let axis = 0; axis < AXES; axis += 1) {
      if (fourAxes[axis]) continue; // a four on this line is not also a three
      const [run, [, endF, beyondF], [, endB, beyondB]] = sides[axis];
      for (const [end, beyond] of [[endF, beyondF], [endB, beyondB]]) {
        if (end < 0 || run + 1 + beyond !== FOUR) continue;
        cells[end] = BLACK;
        const straight = isStraightFour(cells, rays, p, axis);
        cells[end] = EMPTY;
        if (straight && foul(cells, rays, end) === null) {
          threes += 1;
          break;
        }
      }
      if (threes >= 2) return Foul.DOUBLE_THREE;
    }
    return null;
  } finally {
    cells[p] = EMPTY;
  }
}

/**
 * The foul a Black stone at empty cell `index` would make, or null.
 *
 * `cells` is the flat board (row-major, 0 empty, 1 Black, 2 White) and `rays` the geometry of
 * its size; `cells` is not modified. Source: RIF rules §9.2-9.4 (see the module comment).
 * @param {ArrayLike<number>} cells
 * @param {ReadonlyArray<ReadonlyArray<ArrayLike<number>>>} rays
 * @param {number} index
 * @returns {string|null} a {@link Foul} value or null
 * @throws {RangeError} when the cell is not empty
 */
export function foulAt(cells, rays, index) {
  if (cells[index] !== EMPTY) throw new RangeError("foulAt needs an empty cell");
  return foul(typeof cells.slice === "function" ? cells.slice() : Array.from(cells), rays, index);
}
