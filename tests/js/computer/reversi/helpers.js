// Shared by the Reversi computer's tests: positions from seeded random games, hex bitboards, a
// plain minimax, and the Python reference values (python_cases.json, made by bench/reversi_js_cases.py).

import { readFileSync } from "node:fs";
import { after, moves, out, play as bitboardPlay, pop32 } from "../../../../static/js/computer/reversi/bitboard.js";
import { seededRandom } from "../../../../static/js/computer/reversi/random.js";
import { fromEngineBoard } from "../../../../static/js/computer/reversi/position.js";
import { Board } from "../../../../static/js/engine/reversi.js";

export const CASES = JSON.parse(readFileSync(new URL("./python_cases.json", import.meta.url), "utf8"));

/** [lo, hi] of a hexadecimal 64-bit board. */
export function halves(hex) {
  const x = BigInt(`0x${hex}`);
  return [Number(x & 0xffffffffn) | 0, Number(x >> 32n) | 0];
}

export function legalList(me, opp) {
  const lo = moves(me[0], me[1], opp[0], opp[1]);
  const hi = out[0];
  const list = [];
  for (let sq = 0; sq < 64; sq++) if (sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1) list.push(sq);
  return list;
}

/** The position after `me` plays `sq`: [new me, new opp] (the other side to move). */
export function play(me, opp, sq) {
  bitboardPlay(me[0], me[1], opp[0], opp[1], sq);
  return [[after[0], after[1]], [after[2], after[3]]];
}

export function discs(b) {
  return pop32(b[0]) + pop32(b[1]);
}

/**
 * Positions of seeded random games after `low`-`high` plies (passes automatic) where the side to
 * move has a legal move: [{me, opp, plies}].
 */
export function randomPositions(seed, count, low, high) {
  const rng = seededRandom(seed);
  const found = [];
  while (found.length < count) {
    const plies = low + Math.floor(rng() * (high - low + 1));
    let me = [1 << 28, 1 << 3];
    let opp = [1 << 27, 1 << 4];
    let ok = true;
    for (let k = 0; k < plies && ok; k++) {
      let list = legalList(me, opp);
      if (!list.length) {
        [me, opp] = [opp, me];
        list = legalList(me, opp);
        if (!list.length) ok = false;
      }
      if (ok) [me, opp] = play(me, opp, list[Math.floor(rng() * list.length)]);
    }
    if (ok && legalList(me, opp).length) found.push({ me, opp, plies });
  }
  return found;
}

/** Exact final disc difference by plain minimax (empties to the winner; passes included). */
export function minimax(me, opp, passed = false) {
  const list = legalList(me, opp);
  if (!list.length) {
    if (passed || !legalList(opp, me).length) {
      const diff = discs(me) - discs(opp);
      const empties = 64 - discs(me) - discs(opp);
      return diff > 0 ? diff + empties : diff < 0 ? diff - empties : 0;
    }
    return -minimax(opp, me, true);
  }
  let best = -65;
  for (const sq of list) {
    const [a, b] = play(me, opp, sq);
    best = Math.max(best, -minimax(a, b));
  }
  return best;
}

/** {me, opp} of the side to move after the move string `game` (the browser engine plays it, passes included). */
export function positionOf(game) {
  return fromEngineBoard(Board.fromMoves(game));
}
