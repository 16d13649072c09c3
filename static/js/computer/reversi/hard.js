// Reversi Hard's move choice: the time plan of bench/pybots/reversi_search.py (`choose`). From
// EXACT_EMPTIES empties an exact solve, from WLD_EMPTIES a win/draw/loss solve, each after a short
// midgame search that orders it; a solve not finished by SOLVE_SHARE_END of the planned time gives
// way to the midgame search again (same table) for the rest of the time. The midgame search scores
// its leaves with the pattern evaluation (patterns.js); the linear one of the Python
// (evaluation.js) is what the Python agreement tests search with.

import { low32, moves, out, pop32 } from "./bitboard.js";
import { Control, wallClock } from "./control.js";
import { Endgame } from "./endgame.js";
import { MidgameSearch, STATIC_ORDER } from "./midgame.js";
import { evaluatePatterns } from "./patterns.js";

export const EXACT_EMPTIES = 16; // exact solve from this many empty squares at a 1000 ms budget
export const WLD_EMPTIES = 18; // win/draw/loss solve (window -1..1) from this many
export const LONG_BUDGET_MS = 3000; // from this budget, both solves start LONG_BUDGET_EXTRA empties earlier
export const LONG_BUDGET_EXTRA = 2;
export const SHARE = 0.7; // part of the budget Hard plans to use
export const NEXT_DEPTH_SHARE = 0.35; // no new midgame iteration after this part of the planned time
export const MIDGAME_SHARE_BEFORE_SOLVE = 0.2; // part of the planned time for a midgame search before a solve
export const MIDGAME_DEPTH_BEFORE_SOLVE = 10; // its deepest iteration (it only orders the solve and is the fallback)
export const SOLVE_SHARE_END = 0.85; // a solve not finished by this part of the planned time gives way to the midgame
export const MIN_BUDGET_MS = 50; // a smaller budget counts as this

/** The searches of one thread (a worker or a Node process), made on first use and reused by later moves. */
let context = null;

function searchContext(clock) {
  if (context === null) {
    const control = new Control(clock);
    context = { control, midgame: new MidgameSearch(control, evaluatePatterns), endgame: new Endgame(control) };
  }
  context.control.clock = clock;
  return context;
}

/**
 * Hard's move (bit index 0-63) for `me` = [lo, hi] (who must have a legal move) against `opp`.
 *
 * @param {number} budgetMs thinking time in ms of `clock` (SHARE of it is planned)
 * @param {object} options `clock` (() => ms; wall or CPU time), `maxNodes` (a node limit per search:
 *   the midgame search, the solve, the midgame search after a solve that did not finish; tests and
 *   benches), `info` (an object that receives `depth` (last finished midgame depth, 0 if none),
 *   `solved` ("exact", "wld" or null), `empties`, `nodes` and `score` (evaluation units, or the final
 *   disc difference when solved))
 */
export function chooseHard(me, opp, budgetMs, { clock = wallClock, maxNodes, info = {} } = {}) {
  const [mlo, mhi] = me;
  const [olo, ohi] = opp;
  const t0 = clock();
  const planned = Math.max(budgetMs, MIN_BUDGET_MS) * SHARE;
  const llo = moves(mlo, mhi, olo, ohi);
  const lhi = out[0];
  const empties = 64 - pop32(mlo | olo) - pop32(mhi | ohi);
  Object.assign(info, { depth: 0, solved: null, empties, nodes: 0, score: 0 });
  if (pop32(llo) + pop32(lhi) === 1) return llo ? low32(llo) : 32 + low32(lhi);
  const extra = budgetMs >= LONG_BUDGET_MS ? LONG_BUDGET_EXTRA : 0;
  const exactFrom = EXACT_EMPTIES + extra;
  const wldFrom = WLD_EMPTIES + extra;
  const solving = empties <= wldFrom;
  const { control, midgame, endgame } = searchContext(clock);
  midgame.clear();
  endgame.clear();
  control.reset(t0 + planned * (solving ? MIDGAME_SHARE_BEFORE_SOLVE : 1), maxNodes);
  let best = STATIC_ORDER.find((sq) => (sq < 32 ? (llo >>> sq) & 1 : (lhi >>> (sq - 32)) & 1));
  let depth = 1;

  const deepen = (maxDepth, stopShare) => {
    while (depth <= maxDepth) {
      const sq = midgame.root(mlo, mhi, olo, ohi, depth, best);
      if (control.stop) {
        // stopped: a partial iteration's move is used when it beat the old best
        if (midgame.rootDone && midgame.rootBest !== best && info.depth) best = midgame.rootBest;
        return;
      }
      best = sq;
      info.score = midgame.rootValue;
      info.depth = depth;
      depth++;
      if (clock() - t0 > planned * stopShare) return;
    }
  };

  if (!solving) deepen(empties, NEXT_DEPTH_SHARE);
  else {
    deepen(Math.min(empties, MIDGAME_DEPTH_BEFORE_SOLVE), MIDGAME_SHARE_BEFORE_SOLVE);
    control.restart(t0 + planned * SOLVE_SHARE_END, maxNodes);
    if (empties <= exactFrom) {
      const [value, sq] = endgame.root(mlo, mhi, olo, ohi, best);
      if (!control.stop) {
        info.score = value;
        info.solved = "exact";
        best = sq;
      }
    } else {
      const [value, sq] = endgame.root(mlo, mhi, olo, ohi, best, -1, 1);
      if (!control.stop) {
        if (value >= 0) best = sq; // keep the midgame move unless the solve found a better result
        info.score = value;
        info.solved = "wld";
      }
    }
    if (control.stop) {
      // not solved: the midgame search goes on (same table) for the rest of the time
      control.restart(t0 + planned, maxNodes);
      deepen(empties, 1);
    }
  }
  info.nodes = control.nodes;
  return best;
}

/**
 * The exact final disc difference after each legal move of `me` (who must have one) against `opp`:
 * a Map square -> value (me's view), or null if `deadline` (clock ms) or `maxNodes` came first.
 * For post-game analysis from EXACT_EMPTIES empties and beyond.
 */
export function exactMoveValues(me, opp, { clock, deadline = Infinity, maxNodes = Infinity } = {}) {
  const { control, endgame } = searchContext(clock ?? wallClock);
  endgame.clear();
  control.reset(deadline, maxNodes);
  return endgame.moveValues(me[0], me[1], opp[0], opp[1]);
}
