// Helpers of the computer's tests: the browser rules engine as the judge (never the computer's own
// pattern tables, so a claim of the computer is checked independently), a deterministic clock,
// and the rule sets. Mirrors bench/pybots/enginecheck.py.
//
// The engine (static/js/engine/, the js-engine branch) is loaded when it is there; until it is,
// `engine` is null and the test files that need it skip with that reason.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

let loaded = null;
try {
  loaded = await import("../../../static/js/engine/index.js");
} catch (e) {
  if (e.code !== "ERR_MODULE_NOT_FOUND") throw e;
}
/** The engine's modules (index.js), or null when static/js/engine/ is not on this branch. */
export const engine = loaded;
/** A node:test `skip` option value: false when the engine is there, else the reason. */
export const needsEngine = loaded ? false : "static/js/engine/ (the browser rules engine) is not on this branch yet";

/** A clock that advances 3 "milliseconds" each time it is read: the searches read it every 1,024
 * nodes (about 3 ms), so a budget in these units is a node budget, the same on any machine. */
export function countingClock() {
  let n = 0;
  return () => (n += 3);
}

/** The parsed JSON of a file under the repository root. */
export function readJson(relative) {
  return JSON.parse(fs.readFileSync(path.join(ROOT, relative), "utf8"));
}

/** An engine board with these stones. */
export function boardOf(rules, x, o, toMove) {
  return engine.Board.fromStones(rules, { x, o, toMove });
}

function other(side) {
  return side === "X" ? "O" : "X";
}

/** Squares where `side` would complete a winning run now (engine judgement, any turn). */
export function winningCells(board, side) {
  const size = board.rules.size;
  const stones = board.stones();
  const seen = new Set();
  for (const [name, owner] of Object.entries(stones)) {
    if (owner !== side) continue;
    const [col, row] = engine.parseSquare(name, size);
    for (let dc = -1; dc <= 1; dc++) {
      for (let dr = -1; dr <= 1; dr++) {
        const c = col + dc;
        const r = row + dr;
        if ((dc || dr) && c >= 0 && c < size && r >= 0 && r < size) seen.add(engine.squareName(c, r));
      }
    }
  }
  const probe = board.copy();
  probe.outcome = null;
  const out = [];
  for (const name of [...seen].sort()) {
    if (name in stones) continue;
    probe.turn = side;
    try {
      const outcome = probe.play(name);
      if (outcome && outcome.winner === side) out.push(name);
      probe.undo();
    } catch (e) {
      if (e.name !== "IllegalMove") throw e;
    }
  }
  return out;
}

/** Replies of the side to move that leave the opponent no winning cell (only cells on the lines
 * through the opponent's winning cells can, so only they are tried, with the engine). */
export function stoppingReplies(board) {
  const me = board.turn;
  const opp = other(me);
  const threats = winningCells(board, opp);
  if (!threats.length) return [];
  const size = board.rules.size;
  const cands = new Set();
  for (const name of threats) {
    const [col, row] = engine.parseSquare(name, size);
    for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      for (let k = -size; k <= size; k++) {
        const c = col + k * dc;
        const r = row + k * dr;
        if (c >= 0 && c < size && r >= 0 && r < size) cands.add(engine.squareName(c, r));
      }
    }
  }
  const stones = board.stones();
  const out = [];
  const trial = board.copy();
  for (const name of [...cands].sort()) {
    if (name in stones) continue;
    try {
      if (trial.play(name)) out.push(name); // the reply itself wins
      else if (!winningCells(trial, opp).length) out.push(name);
      trial.undo();
    } catch (e) {
      if (e.name !== "IllegalMove") throw e;
    }
  }
  return out;
}

/**
 * Whether the side to move wins by continuous fours in at most `depth` fours, playing the moves
 * `propose(board)` suggests, against EVERY defence the engine allows (stoppingReplies).
 */
export function forcedVcf(board, depth, propose) {
  const att = board.turn;
  if (winningCells(board, att).length) return true;
  if (depth <= 0) return false;
  const move = propose(board);
  const after = board.copy();
  const outcome = after.play(move);
  if (outcome) return outcome.winner === att;
  if (!winningCells(after, att).length) return false; // not a four
  if (winningCells(after, other(att)).length) return false; // the defender has a five first
  for (const reply of stoppingReplies(after)) {
    const next = after.copy();
    next.play(reply);
    if (!forcedVcf(next, depth - 1, propose)) return false;
  }
  return true;
}

/** Every preset's slug. */
export function presetSlugs() {
  return Object.keys(engine.PRESETS).sort();
}
