// The analysis's verdicts on the moves, from the facts the searches found (pure functions: the
// tests feed them plies by hand).
//
// Caro (plies as caro.js gives them; the side S plays move i from ply i - 1 to ply i):
// - "allowed" (để đối thủ thắng bắt buộc): after the move the opponent has a forced win, and S
//   was not lost already (the opponent's move before did not start a forced win of its own, as
//   far as the search proved it: a win only "likely" kept does not count);
// - "missed" (bỏ lỡ nước thắng): S had a forced win and the move does not start one, not even
//   likely (a move that also allows a forced loss is "allowed", with `missed` set too);
// - "decisive" (nước quyết định): the winner's first move of the forced win it kept to the end
//   (every later move of the winner kept it, proven or likely);
// - "kept": S had a forced win and the move starts one the search proves (not shown as a mark).
//
// Reversi (plies as reversi.js gives them): a move whose exact result (known from
// EXACT_EMPTIES empty squares on) is below the best move's lost that many discs against
// perfect play: "blunder" when it turns a win into a draw or a loss, or a draw into a loss,
// else "mistake" (cờ lật: mất N quân); "best" when it was one of the best moves.

/** Scores from this close to a won score count as won (caro: a forced win). */
const WON_MARGIN = 1000;
/** The graph's squash of a caro score that is not a forced win: s / (|s| + CARO_SCALE), times
 * CARO_ROOM (a forced win alone reaches ±1). */
export const CARO_SCALE = 3000;
export const CARO_ROOM = 0.85;
/** Reversi: a disc difference d is drawn as d / (|d| + REVERSI_SCALE). */
export const REVERSI_SCALE = 16;

/** A caro score (X's view, pattern units, ±`win` for a forced win) in [-1, 1] for the graph. */
export function squash(score, win) {
  if (Math.abs(score) >= win - WON_MARGIN) return Math.sign(score);
  return (CARO_ROOM * score) / (Math.abs(score) + CARO_SCALE);
}

/** A Reversi disc difference (X's, that is Black's, view) in [-1, 1] for the graph. */
export function squashDiscs(discs) {
  return discs / (Math.abs(discs) + REVERSI_SCALE);
}

/**
 * Set the verdict, line and lineFrom of every caro move from ply `from` + 1 on (see the module
 * comment) and return the ply of the decisive move (null if none). `winner`: "X" | "O" | null.
 */
export function caroVerdicts(plies, winner, from = 0) {
  for (let i = Math.max(1, from + 1); i < plies.length; i++) {
    const here = plies[i];
    const mv = here.move;
    const before = plies[i - 1];
    const lostBefore = i >= 2 && before.move !== null && before.move.kept === true;
    const allowed = here.win !== null && here.win.side !== mv.side && !lostBefore;
    mv.missed = mv.had && mv.kept === false;
    if (allowed) {
      mv.verdict = "allowed";
      mv.line = here.win.line;
      mv.lineFrom = i;
    } else if (mv.missed) {
      mv.verdict = "missed";
      mv.line = before.win.line;
      mv.lineFrom = i - 1;
    } else if (mv.kept === true) {
      mv.verdict = "kept";
    }
  }
  if (!winner) return null;
  let decisive = null;
  for (let i = plies.length - 1; i > from; i--) {
    const mv = plies[i].move;
    if (mv.side !== winner) continue;
    if (mv.kept !== true && mv.kept !== "likely") break;
    decisive = i;
  }
  if (decisive !== null) plies[decisive].move.verdict = "decisive";
  return decisive;
}

/**
 * Set the verdict of every Reversi move whose position before it has exact values: `lost` (discs
 * below the best move's result), `best` (the best moves' squares) and the verdict (see the
 * module comment).
 */
export function reversiVerdicts(plies) {
  for (let i = 1; i < plies.length; i++) {
    const before = plies[i - 1];
    const mv = plies[i].move;
    if (!before.exact || !(mv.square in before.exact)) continue;
    const values = Object.values(before.exact);
    const top = Math.max(...values);
    const got = before.exact[mv.square];
    mv.best = Object.keys(before.exact).filter((sq) => before.exact[sq] === top).sort();
    mv.lost = top - got;
    if (mv.lost === 0) mv.verdict = "best";
    else mv.verdict = Math.sign(got) < Math.sign(top) ? "blunder" : "mistake";
  }
}

/** Whether a Reversi analysis judged any endgame move: false when the game was over before its last
 * EXACT_EMPTIES squares (a resignation, a wipe-out), which the summary says instead of "0 moves". */
export function hasEndgame(plies) {
  return plies.some((p) => p.exact);
}
