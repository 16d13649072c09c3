// Post-game analysis of a caro game (issue 29): for every ply, whether the side to move had a
// forced win by threats (VCF, then VCT, within a node budget per ply; where none is found but one
// is plausible, a second look: a longer VCT and wins with quiet moves, caro-deep.js), whether the
// move played kept it, and the computer's score; the verdicts (verdicts.js) come from those facts.
//
// Every forced line is replayed on the browser rules engine (static/js/engine/caro.js) from its
// position and carried on to the five: a line whose moves the rules refuse (a Renju foul, a five
// that blocked ends or exact five do not count) or that does not end in the attacker's five is
// dropped (and counted in stats.invalidLines); the tests replay every kept line in the Python
// engine too. Squares are the engine's names ("H8"); sides "X" / "O".
//
// Shape of the result (JSON, kept in the browser by store.js):
//   {game: "caro", version, rules, total, from, winner, decisive,
//    plies: [{ply, turn, over, win, score, graph, move}], stats: {nodes, deepNodes, invalidLines}}
//   plies[i] is the position after i moves: `turn` the side to move ("X" / "O"; null once the
//   game is over), `win` its forced win {side, kind: "vcf" | "vct" | "quiet", line: [square, ...],
//   deep?: true (found by the second look), stage?: which of its searches (caro-deep.js deepWin)}
//   or null,
//   `score` the computer's score for X (pattern units, ±WIN for a forced win), `graph` the same
//   squashed into [-1, 1], and `move` (i >= 1) the move that led there: {square, side, had
//   (its side had a forced win before it), kept (true: the move makes the five or starts a forced
//   win the search proves; "likely": a quiet move after which no likely reply stops the threats;
//   false: neither; null: no win to keep), missed, verdict: "missed" | "allowed" | "decisive" |
//   "kept" | null, line: [square, ...] | null (the line the page shows for it), lineFrom: the
//   ply the line starts after}.

import { Board, Rules, Termination } from "../engine/caro.js";
import { IllegalMove } from "../engine/errors.js";
import {
  BUDGET, SearchBoard, WIN, fiveCells, forcedWin, openFourCells, positionScore, sideCode, sideName, winStays,
} from "./caro-search.js";
import { DEEP, deepWin, keepsDeepWin } from "./caro-deep.js";
import { caroVerdicts, squash } from "./verdicts.js";
import { CARO_VERSION } from "./version.js";

export { CARO_VERSION };

/** Longest forced line kept (plies, the five included). */
export const MAX_LINE = 80;
/** Limits of the searches that carry a line on past the threat search's last move. */
const CONTINUE_BUDGET = Object.freeze({ ...BUDGET, vcfNodes: 5000, vctNodes: 5000, wideNodes: 0 });

/**
 * The analysis, one ply at a time: a generator yielding {done, total} after each position and
 * returning the result (see the module comment). `input`: {rules: {size, win_length, exact,
 * blocked, renju}, moves: [square, ...] (every stone in order, X first), winner: "X" | "O" |
 * null (the record's winner, for a game won without a five)}. Options: `from` (the first ply
 * analysed; earlier positions are left empty: tests), `budget` (caro-search.js BUDGET), `deep`
 * (caro-deep.js DEEP; null: no second look), `memo` (a Map kept by the caller across analyses with
 * the same budgets: a position met again, with as many second-look nodes left, takes its searches'
 * results from it: the same result, once; the tests analyse many games from one position).
 * Throws RangeError for bad rules and IllegalMove for a move the rules refuse.
 */
export function* caroAnalysis(input, { from = 0, budget = BUDGET, deep = DEEP, memo = null } = {}) {
  const rules = Rules.fromDict(input.rules);
  const moves = input.moves;
  const board = new Board(rules);
  const boards = [board.copy()];
  for (const square of moves) {
    board.play(square);
    boards.push(board.copy());
  }
  const total = moves.length;
  const fb = new SearchBoard(rules.toDict());
  const stats = { nodes: 0, deepNodes: 0, invalidLines: 0 };
  const plies = [];
  for (let i = 0; i <= total; i++) {
    const here = boards[i];
    const over = here.outcome !== null;
    const entry = { ply: i, turn: over ? null : here.turn, over, win: null, score: null, graph: null, move: null };
    if (i > 0) {
      const before = plies[i - 1];
      const known = before.next || { had: false, kept: null, line: null };
      delete before.next;
      entry.move = { square: moves[i - 1], side: boards[i - 1].turn, had: known.had, kept: known.kept, verdict: null,
        line: known.line, lineFrom: known.line ? i - 1 : null };
    }
    if (i >= from && !over) {
      // the position's own searches: a pure function of the position, the rules, the budgets and
      // the second looks' nodes left, so a memo (an option) may give them again
      const key = memo && `${JSON.stringify(rules.toDict())} ${moves.slice(0, i).join(",")} ${stats.deepNodes}`;
      let own = memo ? memo.get(key) : undefined;
      if (!own) {
        own = positionSearches(fb, here, budget, deep, deep ? deep.gameNodes - stats.deepNodes : 0);
        if (memo) memo.set(key, own);
      }
      stats.nodes += own.nodes;
      stats.deepNodes += own.deepNodes;
      stats.invalidLines += own.invalidLines;
      entry.win = own.win && { ...own.win, line: [...own.win.line] };
      entry.score = own.score;
    }
    plies.push(entry);
    if (i < total) {
      if (i >= from) {
        // (a pure function of the position and the move too: memoized with the same key)
        const key = memo && `${JSON.stringify(rules.toDict())} ${moves.slice(0, i + 1).join(",")} kept`;
        const hit = memo ? memo.get(key) : undefined;
        if (hit) {
          entry.next = { ...hit.next, line: hit.next.line && [...hit.next.line] };
          for (const k of Object.keys(hit.cost)) stats[k] += hit.cost[k];
        } else {
          const before = { ...stats };
          keptOrNot(fb, boards[i], entry, moves[i], stats, budget, deep);
          if (memo) {
            const cost = Object.fromEntries(Object.keys(stats).map((k) => [k, stats[k] - before[k]]));
            memo.set(key, { next: { ...entry.next, line: entry.next.line && [...entry.next.line] }, cost });
          }
        }
      }
      fb.play(fb.index(moves[i]));
    }
    yield { done: i + 1, total: total + 1 };
  }
  const end = boards[total].outcome;
  const winner = end && end.winner ? end.winner : input.winner || null;
  const last = plies[total];
  if (end) last.score = end.winner ? signed(WIN, end.winner) : 0;
  const decisive = caroVerdicts(plies, winner, from);
  for (const p of plies) p.graph = p.score === null ? null : squash(p.score, WIN);
  return { game: "caro", version: CARO_VERSION, rules: rules.toDict(), total, from, winner, decisive, plies, stats };
}

/**
 * The searches of one position (`fb` and the engine board `here`, the side to move not done):
 * {win (as the result's plies[i].win, or null), score (for X), nodes, deepNodes, invalidLines}: the
 * forced win by threats, else the second look (within `deepLeft` nodes), and the computer's score.
 */
function positionSearches(fb, here, budget, deep, deepLeft) {
  const own = { win: null, score: null, nodes: 0, deepNodes: 0, invalidLines: 0 };
  const found = forcedWin(fb, budget);
  own.nodes += found.nodes;
  if (found.line) {
    const line = confirmLine(fb, here, found.line.map((q) => (q === null ? null : fb.name(q))));
    if (line) own.win = { side: here.turn, kind: found.kind, line };
    else own.invalidLines++;
  }
  if (!own.win && deep && deepLeft > 0) {
    const more = deepWin(fb, found.capped, deep, deepLeft);
    own.nodes += more.nodes;
    own.deepNodes += more.nodes;
    if (more.line) {
      const line = confirmLine(fb, here, more.line.map((q) => (q === null ? null : fb.name(q))));
      if (line) own.win = { side: here.turn, kind: more.kind, line, deep: true, stage: more.stage };
      else own.invalidLines++;
    }
  }
  own.score = own.win ? signed(WIN, here.turn) : signed(positionScore(fb, budget), here.turn);
  return own;
}

/** The whole analysis at once (Node, tests): caroAnalysis run to its end. */
export function analyseCaro(input, options = {}) {
  const run = caroAnalysis(input, options);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
    if (options.onProgress) options.onProgress(step.value);
  }
}

/** `value` for side `side` as X's score. */
function signed(value, side) {
  return side === "X" ? value : -value;
}

/**
 * Whether the move `square` played from ply `entry` keeps the forced win the side to move had
 * there: sets entry.next = {had, kept, line} (the next ply's move takes them). kept is true when
 * the move makes the five or starts a forced win the search proves (`line`), "likely" when no
 * likely reply stops the threats it leaves (winStays, a heuristic: no line), else false. `fb` is
 * at that ply, `board` the engine board there.
 */
function keptOrNot(fb, board, entry, square, stats, budget, deep) {
  const win = entry.win;
  const next = { had: !!win, kept: null, line: null };
  entry.next = next;
  if (!win) return;
  if (win.line[0] === square) {
    next.kept = true;
    next.line = win.line;
    return;
  }
  const after = board.copy();
  if (after.play(square)?.winner === board.turn) {
    next.kept = true;
    next.line = [square];
    return;
  }
  const q = fb.index(square);
  // a search's win from the move played, replayed to the five: kept with that line
  const proven = (found) => {
    stats.nodes += found.nodes;
    if (!found.line) return false;
    const line = confirmLine(fb, board, found.line.map((c) => (c === null ? null : fb.name(c))));
    if (!line) {
      stats.invalidLines++;
      return false;
    }
    next.kept = true;
    next.line = line;
    return true;
  };
  if (proven(forcedWin(fb, budget, q))) return;
  if (win.deep && deep) {
    // a win of the second look: the same search from the move played
    const kept = keepsDeepWin(fb, q, win.stage, deep);
    stats.deepNodes += kept.nodes;
    if (proven(kept)) return;
  }
  // a quiet move may keep the win too: no likely reply stops the threats (no line to show)
  fb.play(q);
  try {
    next.kept = winStays(fb, sideCode(board.turn), budget) ? "likely" : false;
  } finally {
    fb.undo();
  }
}

/**
 * The forced line `names` (from the threat search, maybe ending with null: "no defence") of the
 * side to move of `board` replayed on a copy of the engine board and carried on to the five, or
 * null when the rules refuse a move of it or it does not end in that side's five. Past its end
 * (or its null) the defender blocks a five (else an open-four point) and the attacker plays its
 * five or the first move of a new forced win (small budget). `fb` (the search board at the same
 * position) is used for the candidates and restored.
 */
export function confirmLine(fb, board, names) {
  const b = board.copy();
  const att = b.turn;
  const a = sideCode(att);
  const d = 3 - a;
  const out = [];
  let played = 0;
  let k = 0;
  try {
    while (b.outcome === null && out.length < MAX_LINE) {
      let sq;
      if (k < names.length && names[k] !== null) sq = names[k++];
      else {
        k = names.length;
        sq = b.turn === att ? attackerNext(fb, a) : defenderNext(fb, a, d);
        if (sq === null) return null;
      }
      b.play(sq);
      fb.play(fb.index(sq));
      played++;
      out.push(sq);
    }
  } catch (e) {
    if (e instanceof IllegalMove) return null;
    throw e;
  } finally {
    while (played-- > 0) fb.undo();
  }
  const end = b.outcome;
  return end && end.winner === att && end.termination === Termination.FIVE ? out : null;
}

/** The attacker's next move past the search's line: a five, else a new forced win's first move. */
function attackerNext(fb, a) {
  const fives = fiveCells(fb, a).filter((q) => fb.legal(q, a));
  if (fives.length) return fb.name(fives[0]);
  const found = forcedWin(fb, CONTINUE_BUDGET);
  return found.line && found.line[0] !== null ? fb.name(found.line[0]) : null;
}

/** The defender's reply past the search's line: its own five refutes the line (null); else a
 * block of the attacker's five, else of an open-four point, else the first legal candidate. */
function defenderNext(fb, a, d) {
  if (fiveCells(fb, d).some((q) => fb.legal(q, d))) return null;
  for (const q of [...fiveCells(fb, a), ...openFourCells(fb, a)]) if (fb.legal(q, d)) return fb.name(q);
  const q = fb.candidates().find((c) => fb.cells[c] === 0 && fb.legal(c, d));
  return q === undefined ? null : fb.name(q);
}

export { sideName };
