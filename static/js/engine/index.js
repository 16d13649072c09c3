/**
 * The browser rules engine: one import for the page, a module Web Worker and Node.
 *
 * Mirrors caro/engine/ (the Python engine, which judges every online game): the same rules,
 * reason codes, termination codes, rule objects, position text and opening objects. The two are
 * held together by shared/cases, tests/engine_vectors and a differential test of random games
 * (docs/architecture.md, "Two engines").
 *
 * The caro and Reversi boards are both called `Board` in their modules; here they are
 * `Board` (caro) and `ReversiBoard`, and the whole modules are exported as `caro` and `reversi`.
 * @module engine
 */

export * from "./errors.js";
export * from "./coords.js";
export {
  X, O, SIZES, WIN_LENGTHS, AXES, Blocked, Opening, Termination, Foul, Rules, PRESETS, DEFAULT_PRESET,
  Board, geometry, runWins,
} from "./caro.js";
export { foulAt, foulMap } from "./renju.js";
export { foulPoints, refusedFive } from "./explain.js";
export {
  FIRST, SECOND, Step, Action, Swap2Opening, RifOpening, OPENINGS, openingFromDict, symmetries,
} from "./openings.js";
export { BLACK, WHITE, Board as ReversiBoard, perft } from "./reversi.js";
export * as caro from "./caro.js";
export * as reversi from "./reversi.js";
export {
  formatSquares, parseSquares, formatPsq, parsePsq, formatReversi, parseReversi,
} from "./records.js";
