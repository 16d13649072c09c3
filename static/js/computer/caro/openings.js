// The computer's steps in the opening procedures (RIF, Swap2), at every level
// (bench/pybots/openings.py, ported).
//
// chooseCaroOpeningAction(machine, level, opts) takes an engine opening machine
// (static/js/engine/openings.js RifOpening / Swap2Opening: `state`, `actor`, `board`, `offers`;
// not changed) whose actor is the computer's seat, and returns an action dict for its step:
// - placing opening stones: Easy takes one of a small set of known, fairly balanced openings;
//   Medium and Hard score candidate placements (positionValue) and take the one closest to
//   balance, because the other seat then picks the colour it prefers;
// - swap or keep (RIF), choose a colour or place two more (Swap2): the colour its evaluation
//   prefers; Easy's and Medium's second seat in Swap2 hands the choice back when the position is
//   close to balance (within BALANCED). Hard never hands it back and in a close Swap2 position
//   takes X: it gives up X only when O is clearly better (by more than FIRST_MOVE_EDGE);
// - offering two 5th moves (RIF, Black): the pair whose weaker move is the best Black can get (two
//   strong, non-equivalent points; never a foul);
// - selecting an offered 5th move (RIF, White): the one its evaluation says is weaker for Black.
// Values are from X's (Black's) point of view, in pattern units. Every square comes from the
// engine board's legal moves, so Renju fouls are respected.

import { SearchBoard, XS } from "./board.js";
import { AlphaBeta, WIN } from "./search.js";
import { ThreatSearch } from "./threats.js";
import { Timeout, wallClock } from "./clock.js";
import { parseSquare, squareName, symmetries } from "./rules.js";
import { makeRng } from "../rng.js";

/** Known openings for Swap2's first three stones (X, O, X) on 15x15, centred on H8. */
export const SWAP2_OPENINGS = Object.freeze([
  ["H8", "J10", "G10"], ["H8", "K8", "H10"], ["H8", "J7", "F9"], ["H8", "G11", "J9"],
  ["H8", "K10", "F8"], ["H8", "H11", "J9"], ["H8", "E9", "J10"], ["H8", "J11", "G9"],
]);
/** Known RIF openings (moves 2 and 3 after H8), direct and indirect, that are not the strong Black
 * wins of the 26 standard openings (far third stones). */
export const RIF_OPENINGS = Object.freeze([
  ["H7", "H6"], ["H7", "J6"], ["H7", "F6"], ["H7", "J10"],
  ["I7", "J9"], ["I7", "F9"], ["I7", "F6"], ["I7", "J10"],
]);
/** |value| under which a position counts as balanced (pattern units: about an open two). */
export const BALANCED = 120;
/** How much better O must look before Hard gives up X in Swap2 (pattern units). */
export const FIRST_MOVE_EDGE = 2 * BALANCED;
/** Search depth of the evaluation per level (plies) and the candidate placements scored. */
export const DEPTHS = Object.freeze({ easy: 2, medium: 3, hard: 6 });
export const CANDIDATES = Object.freeze({ easy: 6, medium: 8, hard: 12 });
const SHARE = 0.8; // part of the budget the steps plan to use
const VCF_MS = 50; // a position's VCF check: at most this long ...
const VCF_NODES = 2000; // ... and this many nodes
const VCF_DEPTH = 8;
const BALANCED_WIDTH = 8; // the evaluation's alpha-beta: candidates per node, at the root
const BALANCED_ROOT = 10;
const RIF_RADIUS = Object.freeze({ place_1: 0, place_2: 1, place_3: 2 }); // Chebyshev radius from the centre

function searchBoard(board) {
  const x = [];
  const o = [];
  for (const [square, side] of Object.entries(board.stones())) (side === "X" ? x : o).push(square);
  return SearchBoard.fromNames(board.rules, { x, o, toMove: board.turn });
}

/**
 * The value of the engine `board` for X: the mean of the alpha-beta values at the last two depths
 * reached (iterative deepening up to `depth` plies, stopping at `deadline`, ms of `clock`), with a
 * symmetric leaf evaluation (each side's pattern total counts the same: a colour choice needs the
 * value of the position itself); positive when X is better. A VCF for the side to move counts WIN.
 */
export function positionValue(board, depth, deadline, clock = wallClock) {
  if (board.outcome) {
    const w = board.outcome.winner;
    return w === null || w === undefined ? 0 : w === "X" ? WIN : -WIN;
  }
  const fb = searchBoard(board);
  const sign = fb.turn === XS ? 1 : -1;
  const vcf = new ThreatSearch(fb, { deadline: Math.min(deadline, clock() + VCF_MS), clock, maxNodes: VCF_NODES });
  if (vcf.vcf(VCF_DEPTH)) return sign * WIN;
  const ab = new AlphaBeta(fb, { deadline, clock, width: BALANCED_WIDTH, attack: 10, defence: 10 });
  const moves = ab.moves(fb.turn, BALANCED_ROOT);
  if (!moves.length) return sign * ab.evaluate();
  const values = [ab.evaluate()];
  for (let d = 1; d <= depth; d++) {
    try {
      values.push(ab.root(moves, d)[0][0]);
    } catch (e) {
      if (!(e instanceof Timeout)) throw e;
      break;
    }
  }
  // the value swings with the parity of the depth (the side that placed the last stone of the line
  // looks better): the mean of the last two depths cancels the swing
  const n = values.length;
  return n > 1 ? Math.floor((sign * (values[n - 1] + values[n - 2])) / 2) : sign * values[0];
}

/** `line` (written for 15x15, centred on H8) moved to the centre of a `size` board. */
function shift(line, size) {
  const d = (size >> 1) - 7;
  return line.map((sq) => {
    const [c, r] = parseSquare(sq, 15);
    return squareName(c + d, r + d);
  });
}

function openingKind(machine) {
  return machine.kind ?? machine.toDict().kind;
}

class Chooser {
  constructor(machine, level, rng, deadline, clock) {
    this.machine = machine;
    this.level = level;
    this.rng = rng;
    this.deadline = deadline;
    this.clock = clock;
    this.board = machine.board;
    this.depth = DEPTHS[level];
  }

  value(board, share = 1) {
    const now = this.clock();
    return positionValue(board, this.depth, now + Math.max(0, this.deadline - now) * share, this.clock);
  }

  after(...squares) {
    const board = this.board.copy();
    for (const sq of squares) board.play(sq);
    return board;
  }

  choose() {
    const state = this.machine.state;
    if (["place_1", "place_2", "place_3", "place_three"].includes(state)) {
      return { kind: "place", square: this.firstStones() };
    }
    if (state === "swap") return { kind: this.value(this.board) > 0 ? "swap" : "keep" };
    if (state === "second_choice") {
      const value = this.value(this.board);
      if (this.level === "hard") return { kind: "choose", color: value < -FIRST_MOVE_EDGE ? "O" : "X" };
      if (Math.abs(value) < BALANCED) return { kind: "place", square: this.balancingStone() };
      return { kind: "choose", color: value > 0 ? "X" : "O" };
    }
    if (state === "second_place") return { kind: "place", square: this.balancingStone() };
    if (state === "first_choice") return { kind: "choose", color: this.value(this.board) > 0 ? "X" : "O" };
    if (state === "place_4") return { kind: "place", square: this.bestForMover() };
    if (state === "offer_5") return { kind: "offer", squares: this.offer() };
    if (state === "select_5") {
      let best = null;
      for (const sq of this.machine.offers) {
        const v = this.value(this.after(sq), 0.5);
        if (best === null || v < best[0] || (v === best[0] && sq < best[1])) best = [v, sq];
      }
      return { kind: "select", square: best[1] };
    }
    throw new Error(`no action for opening step ${state}`);
  }

  // -- placing the first stones (the placer wants balance: the other seat picks the colour)

  firstStones() {
    const plies = this.board.ply;
    const size = this.board.rules.size;
    let pool;
    if (openingKind(this.machine) === "rif") {
      if (plies === 0) return squareName(size >> 1, size >> 1);
      pool = RIF_OPENINGS.map((line) => ["H8", ...line]);
    } else {
      pool = SWAP2_OPENINGS.map((line) => [...line]);
    }
    pool = pool.map((line) => shift(line, size));
    const played = this.board.moves;
    const going = pool.filter((line) => line.slice(0, plies).every((sq, i) => sq === played[i]));
    if (going.length) { // keep to the opening begun (one stone per step)
      if (this.level === "easy" || going.length === 1) return going[this.rng.randrange(going.length)][plies];
      return this.mostBalanced(going.map((line) => line.slice(plies)))[0];
    }
    if (this.level === "easy") return this.rng.choice(this.legalNear());
    return this.balancingStone();
  }

  /** The scored option with the smallest key (then the smallest square name / continuation). */
  smallest(options, key) {
    let best = null;
    options.forEach((option, k) => {
      const v = key(option, 1 / (options.length - k));
      const name = String(option);
      if (best === null || v < best[0] || (v === best[0] && name < best[2])) best = [v, option, name];
    });
    return best[1];
  }

  mostBalanced(continuations) {
    return this.smallest(continuations, (rest, share) => Math.abs(this.value(this.after(...rest), share)));
  }

  /** The legal stone (of the colour to place) after which the position is closest to balance. */
  balancingStone() {
    const options = this.legalNear().slice(0, CANDIDATES[this.level]);
    return this.smallest(options, (sq, share) => Math.abs(this.value(this.after(sq), share)));
  }

  bestForMover() {
    const options = this.legalNear().slice(0, CANDIDATES[this.level]);
    const sign = this.board.turn === "X" ? 1 : -1;
    return this.smallest(options, (sq, share) => -sign * this.value(this.after(sq), share));
  }

  /** Legal squares for the stone to place, the most promising first (near the stones, and inside
   * the RIF area when the step has one). */
  legalNear() {
    const fb = searchBoard(this.board);
    const me = fb.turn;
    const opp = 3 - me;
    const size = this.board.rules.size;
    const legal = new Set(this.board.legalMoves());
    const zone = openingKind(this.machine) === "rif" ? RIF_RADIUS[this.machine.state] : undefined;
    if (zone !== undefined) {
      const c0 = size >> 1;
      return [...legal].filter((n) => Math.max(...parseSquare(n, size).map((a) => Math.abs(a - c0))) <= zone).sort();
    }
    const key = (q) => fb.score[me * fb.NC + q] + fb.score[opp * fb.NC + q];
    const names = fb.candidates().sort((p, q) => key(q) - key(p) || p - q).map((q) => fb.name(q))
      .filter((n) => legal.has(n));
    return names.length ? names : [...legal].sort();
  }

  // -- RIF: the 5th move

  /** Two non-equivalent 5th moves, the pair whose weaker one is best for Black. */
  offer() {
    const options = this.legalNear().slice(0, CANDIDATES[this.level]);
    const scored = options.map((sq, k) => [this.value(this.after(sq), 1 / (options.length - k)), sq]);
    scored.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0));
    const size = this.board.rules.size;
    const syms = symmetries(this.board);
    const first = scored[0][1];
    const pa = parseSquare(first, size);
    const equivalent = (sq) => {
      const pb = parseSquare(sq, size);
      return syms.some((t) => {
        const [c, r] = t(pa[0], pa[1]);
        return c === pb[0] && r === pb[1];
      });
    };
    for (const [, sq] of scored.slice(1)) if (!equivalent(sq)) return [first, sq];
    for (const sq of this.board.legalMoves()) if (sq !== first && !equivalent(sq)) return [first, sq];
    throw new Error("no second 5th move to offer");
  }
}

/**
 * The action dict for the opening machine's current step (see the module comment). `level`:
 * "easy" | "medium" | "hard"; options `budgetMs` (default 1000; Hard plans to use 0.9 of it), `rng`,
 * `clock` (ms). Throws Error for an unknown level or a machine whose opening is over.
 */
export function chooseCaroOpeningAction(machine, level, { budgetMs = 1000, rng, clock = wallClock } = {}) {
  if (!Object.hasOwn(DEPTHS, level)) throw new Error(`unknown level: ${level}`);
  if (machine.state === "done") throw new Error("the opening is over");
  const deadline = clock() + Math.max(budgetMs, 50) * SHARE;
  return new Chooser(machine, level, makeRng(rng), deadline, clock).choose();
}
