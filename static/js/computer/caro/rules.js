// What the caro computer needs of the rules engine, in one place (an adapter).
//
// The browser rules engine (static/js/engine/, docs/architecture.md) is the judge in the page;
// the computer asks it nothing per node (its search board, board.js, keeps its own incremental
// state), only these pure functions, taken from the engine and re-exported here: the winning
// rule on one run (`runWins`), the Renju foul test of one point (`foulAt`), the square names,
// the presets' rules and a position's symmetries. The computer's other modules import them from
// here, never from the engine directly, so this file is its only door to the rules.

import { PRESETS as ENGINE_PRESETS, SIZES, geometry, runWins } from "../../engine/caro.js";
import { foulAt as engineFoulAt } from "../../engine/renju.js";
import { parseSquare, squareName } from "../../engine/coords.js";
import { symmetries } from "../../engine/openings.js";

export { SIZES, runWins, parseSquare, squareName, symmetries };

/** Cell codes of the computer's boards: empty, X (moves first, Black in Renju), O, off the board. */
export const EMPTY = 0;
export const XS = 1;
export const OS = 2;
export const EDGE = 3;

/** The named rule sets (the engine's PRESETS, caro/engine/caro.py): slug -> {slug, rules,
 * opening}, the rules as plain frozen objects ({size, win_length, exact, blocked, renju}). */
export const PRESETS = Object.freeze(Object.fromEntries(Object.entries(ENGINE_PRESETS).map(([slug, p]) => [
  slug, Object.freeze({ slug, rules: Object.freeze(p.rules.toDict()), opening: p.opening })])));

/**
 * The Renju foul ("double-three", "double-four", "overline") a Black (X) stone at empty cell
 * `index` would make, or null: the engine's foulAt (RIF rules §9.2-9.4) on a `size` x `size`
 * board. `cells`: the flat board, row-major (0 empty, 1 X, 2 O); it is not changed. Throws
 * RangeError when the cell is not empty.
 */
export function foulAt(cells, size, index) {
  return engineFoulAt(cells, geometry(size).rays, index);
}
