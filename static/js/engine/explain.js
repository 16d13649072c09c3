/**
 * Explanations of the caro rules for players: where X may not play, and why a run did not win
 * (mirror of caro/engine/explain.py; the same answers in the same shapes).
 *
 * Pure functions of a caro `Board`; the page turns their answers into words (the "why didn't
 * this win?" note and the foul marks of shared/notes/ux.md).
 * @module engine/explain
 */

import { Board, Rules, X } from "./caro.js";

/**
 * Renju foul points of the side to move: `{square: "double-three" | "double-four" |
 * "overline"}`, in row order. Empty unless the rules are Renju, the game is on and X (Black) is
 * to move: under the RIF rules (§9) only Black has fouls.
 * @param {Board} board
 * @returns {Record<string, string>}
 */
export function foulPoints(board) {
  const result = {};
  if (!board.rules.renju || board.turn !== X || board.outcome !== null) return result;
  const legal = new Set(board.legalMoves());
  const { names } = board._geo;
  board._cells.forEach((v, i) => {
    if (v === 0 && !legal.has(names[i])) result[names[i]] = board.foul(names[i]);
  });
  return result;
}

/**
 * Why the stone just played on `square` made a long enough run that does not win, or null.
 *
 * Returns `{kind: "blocked" | "overline", line: [squares]}`: "blocked" when the run is closed at
 * both ends under the blocked-two-ends rule, "overline" when it is longer than the win length
 * under exact rules. Null under Renju (fouls explain themselves), when the game is over, or when
 * the rules refuse no run.
 * @param {Board} board
 * @param {string} square
 * @returns {{kind: string, line: string[]}|null}
 * @throws {IllegalMove} for a bad square name
 */
export function refusedFive(board, square) {
  const rules = board.rules;
  if (board.outcome !== null || (rules.blocked === "none" && !rules.exact) || rules.renju) return null;
  const relaxed = Board.fromPosition(relaxedRules(rules.size, rules.win_length), board.position());
  const line = relaxed.winningLine(square);
  if (line === null) return null;
  const kind = rules.exact && line.length > rules.win_length ? "overline" : "blocked";
  return { kind, line };
}

const RELAXED = new Map();

/** The rules under which any long enough run wins: nothing blocks, longer runs count (cached). */
function relaxedRules(size, winLength) {
  const key = size * 10 + winLength;
  if (!RELAXED.has(key)) RELAXED.set(key, new Rules({ size, win_length: winLength, blocked: "none" }));
  return RELAXED.get(key);
}
