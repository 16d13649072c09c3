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

// Scratch space of `foul`, one buffer per recursion level (a three's completion is judged by a
// nested call): per axis, SIDE_FIELDS numbers (run, end and beyond forward, end and beyond back),
// then the four-axis flags. No allocation on the hot path: legal-move lists judge every empty point.
const SIDE_FIELDS = 5;
const FOUR_FLAGS = AXES * SIDE_FIELDS;
const SCRATCH_SIZE = FOUR_FLAGS + AXES;
const scratch = [];

/**
 * Walk `ray` away from a Black stone (the Python engine's `_side`), writing into `out` at `at`:
 * `n` contiguous Black stones (returned), then `end` at `at` (the index of the empty cell just
 * after them, -1 when that cell is White or off the board) and `beyond` at `at + 1` (the
 * contiguous Black stones after `end`, 0 when `end` is -1).
 */
function side(cells, ray, out, at) {
  const length = ray.length;
  let n = 0;
  while (n < length && cells[ray[n]] === BLACK) n += 1;
  if (n === length || cells[ray[n]] !== EMPTY) {
    out[at] = -1;
    out[at + 1] = 0;
    return n;
  }
  let k = n + 1;
  while (k < length && cells[ray[k]] === BLACK) k += 1;
  out[at] = ray[n];
  out[at + 1] = k - n - 1;
  return n;
}

const straightScratch = new Int32Array(4);

/**
 * Whether the Black run through `p` on `axis` is an open four `_XXXX_` whose two completions
 * are both exact fives.
 */
function isStraightFour(cells, rays, p, axis) {
  const s = straightScratch;
  const nF = side(cells, rays[p][axis], s, 0);
  const nB = side(cells, rays[p][axis + AXES], s, 2);
  return nF + nB === STRAIGHT_FOUR_OTHERS && s[0] >= 0 && s[2] >= 0 && s[1] === 0 && s[3] === 0;
}

/** Foul kind of a Black move at empty `p`, or null (restores `cells` before returning). */
function foul(cells, rays, p, depth = 0) {
  if (scratch.length <= depth) scratch.push(new Int32Array(SCRATCH_SIZE));
  const s = scratch[depth];
  const raysP = rays[p];
  cells[p] = BLACK;
  try {
    let overline = false;
    for (let axis = 0; axis < AXES; axis += 1) {
      const at = axis * SIDE_FIELDS;
      const run = 1 + side(cells, raysP[axis], s, at + 1) + side(cells, raysP[axis + AXES], s, at + 3);
      if (run === FIVE) return null; // a five is never a foul
      overline = overline || run > FIVE;
      s[at] = run;
    }
    if (overline) return Foul.OVERLINE;
    let fours = 0;
    for (let axis = 0; axis < AXES; axis += 1) {
      const at = axis * SIDE_FIELDS;
      const run = s[at];
      const toFiveF = s[at + 1] >= 0 && run + 1 + s[at + 2] === FIVE;
      const toFiveB = s[at + 3] >= 0 && run + 1 + s[at + 4] === FIVE;
      const count = (toFiveF ? 1 : 0) + (toFiveB ? 1 : 0) - (toFiveF && toFiveB && run === FOUR ? 1 : 0);
      fours += count;
      s[FOUR_FLAGS + axis] = count > 0 ? 1 : 0;
    }
    if (fours >= 2) return Foul.DOUBLE_FOUR;
    let threes = 0;
    for (let axis = 0; axis < AXES; axis += 1) {
      if (s[FOUR_FLAGS + axis]) continue; // a four on this line is not also a three
      const at = axis * SIDE_FIELDS;
      const run = s[at];
      for (let end = at + 1; end <= at + 3; end += 2) { // forward, then back
        const cell = s[end];
        if (cell < 0 || run + 1 + s[end + 1] !== FOUR) continue;
        cells[cell] = BLACK;
        const straight = isStraightFour(cells, rays, p, axis);
        cells[cell] = EMPTY;
        if (straight && foul(cells, rays, cell, depth + 1) === null) {
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
 * How far along a line the other Black stones of a three, a four or an overline through a point
 * can be from it and still be part of it (a five spans 4 cells beyond the point; a three, 3).
 */
export const FOUL_REACH = 4;
/** Other Black stones within FOUL_REACH on one line that a three or a four through a point needs. */
export const THREE_STONES = 2;
/** Other Black stones within FOUL_REACH on one line that two fours on that line or an overline need. */
export const ONE_LINE_FOUL_STONES = 4;

/**
 * Every empty cell where a Black stone would be a foul: a Map `index -> Foul value`, in index
 * order (Python: `foul_map`).
 *
 * The same judgement as {@link foulAt} on every empty cell, only faster (a legal-move list needs
 * all of them): the test runs only on cells that could be fouls. A foul needs two threes or fours
 * on two lines (each with at least THREE_STONES other Black stones within FOUL_REACH cells of the
 * point on its line), or two fours or an overline on one line (at least ONE_LINE_FOUL_STONES
 * there); other cells are no foul. `cells` is not modified.
 * @param {ArrayLike<number>} cells
 * @param {ReadonlyArray<ReadonlyArray<ArrayLike<number>>>} rays
 * @returns {Map<number, string>}
 */
export function foulMap(cells, rays) {
  const n = cells.length;
  const near = new Uint8Array(AXES * n); // other Black stones within reach, per cell and axis
  const lines = new Uint8Array(n); // lines through a cell with THREE_STONES of them
  const candidate = new Uint8Array(n);
  for (let b = 0; b < n; b += 1) {
    if (cells[b] !== BLACK) continue;
    const raysB = rays[b];
    for (let k = 0; k < 2 * AXES; k += 1) {
      const axis = k % AXES; // rays k and k + 4 lie on one line
      const ray = raysB[k];
      const reach = Math.min(FOUL_REACH, ray.length);
      for (let t = 0; t < reach; t += 1) {
        const j = ray[t];
        const count = ++near[AXES * j + axis];
        if (count === THREE_STONES) {
          lines[j] += 1;
          if (lines[j] === 2) candidate[j] = 1;
        } else if (count === ONE_LINE_FOUL_STONES) {
          candidate[j] = 1;
        }
      }
    }
  }
  const fouls = new Map();
  const work = typeof cells.slice === "function" ? cells.slice() : Array.from(cells);
  for (let i = 0; i < n; i += 1) {
    if (candidate[i] && cells[i] === EMPTY) {
      const kind = foul(work, rays, i);
      if (kind !== null) fouls.set(i, kind);
    }
  }
  return fouls;
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
