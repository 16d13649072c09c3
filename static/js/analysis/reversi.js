// Post-game analysis of a Reversi game (issue 29): the computer's score for Black (X) after each
// ply, and from EXACT_EMPTIES empty squares on the exact final result of every legal move, so
// that the moves that lost discs against perfect play are marked with how many (verdicts.js).
//
// Shape of the result (JSON, kept in the browser by store.js):
//   {game: "reversi", version, total, winner, plies: [{ply, turn, over, empties, exact, score,
//    graph, move}], stats: {nodes}}
//   plies[i] is the position after i moves (passes are automatic, as in the engine): `turn` the
//   side to move ("X" Black, "O" White; null once the game is over), `exact` {square: value} the
//   exact final disc difference after each legal move from the side to move's view (empty
//   squares to the winner), or null above EXACT_EMPTIES, `score` Black's disc difference (exact
//   when known, else Hard's estimate), `graph` the same in [-1, 1], and `move` (i >= 1) {square,
//   side, passed (the other side had to pass after it), lost, best, verdict}.

import { BLACK, Board } from "../engine/reversi.js";
import { fromEngineBoard } from "../computer/reversi/position.js";
import { ExactValues, midgameScore, MIDGAME_NODES } from "./reversi-search.js";
import { reversiVerdicts, squashDiscs } from "./verdicts.js";
import { REVERSI_VERSION } from "./version.js";

export { REVERSI_VERSION };

/** From this many empty squares on, every legal move gets its exact result. */
export const EXACT_EMPTIES = 20;

const sideOf = (colour) => (colour === BLACK ? "X" : "O");

/**
 * The analysis, one step at a time: a generator yielding {done, total} (plies, fractional inside
 * an exact ply) and returning the result (see the module comment). `input`: {moves: [square,
 * ...]} (every disc placed, in order; passes implied). Options: `exactEmpties`, `midgameNodes`.
 * Throws IllegalMove for a move the rules refuse.
 */
export function* reversiAnalysis(input, { exactEmpties = EXACT_EMPTIES, midgameNodes = MIDGAME_NODES } = {}) {
  const moves = input.moves;
  const board = new Board();
  const boards = [board.copy()];
  const passed = [];
  for (const square of moves) {
    passed.push(board.play(square).passed);
    boards.push(board.copy());
  }
  const total = moves.length;
  const exact = new ExactValues();
  const plies = [];
  let last = 0; // the last score known, Black's view
  for (let i = 0; i <= total; i++) {
    const b = boards[i];
    const [black, white] = b.count();
    const empties = 64 - black - white;
    const over = b.outcome !== null;
    const entry = { ply: i, turn: over ? null : sideOf(b.turn), over, empties, exact: null, score: null, graph: null,
      move: null };
    if (i > 0) {
      entry.move = { square: moves[i - 1], side: sideOf(boards[i - 1].turn), passed: passed[i - 1], lost: null,
        best: null, verdict: null };
    }
    if (over) {
      const diff = black - white;
      entry.score = diff > 0 ? diff + empties : diff < 0 ? diff - empties : 0;
    } else {
      const position = fromEngineBoard(b);
      const sign = b.turn === BLACK ? 1 : -1;
      if (empties <= exactEmpties) {
        const run = exact.moveValues(position.me, position.opp, sign * last);
        let k = 0;
        const n = b.legalMoves().length;
        for (;;) {
          const step = run.next();
          if (step.done) {
            entry.exact = step.value;
            break;
          }
          k++;
          yield { done: i + k / (n + 1), total: total + 1 };
        }
        const best = Math.max(...Object.values(entry.exact));
        entry.score = sign * best;
      } else if (b.legalMoves().length > 1) {
        entry.score = sign * midgameScore(position, midgameNodes);
      }
      if (entry.score !== null) last = entry.score;
    }
    plies.push(entry);
    yield { done: i + 1, total: total + 1 };
  }
  // a position with one legal move has the score of the position after it
  for (let i = total - 1; i >= 0; i--) if (plies[i].score === null) plies[i].score = plies[i + 1].score;
  for (const p of plies) p.graph = squashDiscs(p.score);
  reversiVerdicts(plies);
  const end = boards[total].outcome;
  const winner = end ? (end.winner ? sideOf(end.winner) : null) : null;
  return { game: "reversi", version: REVERSI_VERSION, total, winner, plies, stats: { nodes: exact.nodes } };
}

/** The whole analysis at once (Node, tests). */
export function analyseReversi(input, options = {}) {
  const run = reversiAnalysis(input, options);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
    if (options.onProgress) options.onProgress(step.value);
  }
}
