// What the caro analysis asks of the browser computer (static/js/computer/caro/), in one place.
//
// The computer's threat search (threats.js) answers "does the side to move have a forced win by
// fours (VCF) or by fours and open threes (VCT), and what is its line"; its alpha-beta
// (search.js) gives the score of a position. The analysis needs one thing more: whether a GIVEN
// first move wins (the move a player chose, when the search's own line starts elsewhere). That is
// FirstMoveSearch below, a thin subclass of the computer's ThreatSearch that keeps only that move
// at the root; it reads two internals of threats.js (the children list of a node, `this.s.fm`
// and `this.nkids`, and the node kinds OPEN / DISPROVEN, 0 and 2, which the module does not
// export). A move that is no four and no three (a quiet move) is never such a first move: for it,
// winStays asks the computer's quiet-win check (ThreatSearch.quietHeld, which Hard uses to find a
// quiet winning move) whether any likely reply of the defender stops the attacker's threats; it
// sets the check's settings (`this.quiet`) itself, as quietWin does. If threats.js changes these
// internals, the tests of this module fail (tests/js/analysis/).
//
// Every search here is bounded by nodes, never by time: the same game gets the same analysis on
// a phone and on a desktop, loaded or not.

import { SearchBoard, XS, OS } from "../computer/caro/board.js";
import { QUIET_COUNTER_FOURS, QUIET_NODES, QUIET_REPLIES, ThreatSearch, ThreatTable } from "../computer/caro/threats.js";
import { Timeout } from "../computer/caro/clock.js";
import { AlphaBeta, WIN } from "../computer/caro/search.js";
import { FIVE, OPEN4 } from "../computer/caro/patterns.js";

export { SearchBoard, XS, OS, WIN };

/** Node kinds of ThreatSearch.children (threats.js keeps them private). */
const OPEN = 0;
const DISPROVEN = 2;

/** Per-search limits (nodes, attacker moves). A VCF is looked for first, then a VCT, then a VCT
 * with open threes anywhere on the board (the first VCT tries threes near the last moves only).
 * Three times the first budgets (20,000 / 30,000 / 15,000) finds 29 of the 38 wins of the shared
 * puzzles instead of 26, for about 17 % more time on a 60-ply game. */
export const BUDGET = Object.freeze({
  vcfNodes: 60000,
  vcfDepth: 16,
  vctNodes: 90000,
  vctDepth: 12,
  wideNodes: 45000,
  wideWidth: 40,
  evalDepth: 2,
  evalWidth: 10,
  evalAttack: 10,
  evalDefence: 10,
  stayNodes: 100000,
});

/** The side code (1 X, 2 O) of "X" / "O". */
export const sideCode = (side) => (side === "X" ? XS : OS);
/** "X" / "O" of a side code. */
export const sideName = (code) => (code === XS ? "X" : "O");

/** The analysis's tables, by size (2 ** bits slots): one search after the other takes the table of
 * its size, cleared, instead of a new one (a table of 2 ** 18 slots is about 6 MB: the analysis of
 * a game made hundreds of them, and the browser's time went to allocating and collecting them). */
const POOL = new Map();

/**
 * The computer's ThreatSearch on a pooled table: the same search, node for node (a cleared table
 * of the size ThreatSearch would make), for searches that run one after the other (never two
 * alive at once: each takes its size's table at its first use). Its quiet-win checks' inner
 * searches (winStays) are pooled searches too.
 */
export class PooledSearch extends ThreatSearch {
  table() {
    if (!this.ownTable) {
      let bits = this.tableBits || 12;
      while (!this.tableBits && bits < 18 && (1 << bits) < this.maxNodes * 4) bits++;
      let t = POOL.get(bits);
      if (t) t.clear();
      else POOL.set(bits, (t = new ThreatTable(bits)));
      this.ownTable = t;
    }
    return this.ownTable;
  }

  /** ThreatSearch.quietThreat on a pooled table (the same search otherwise). */
  quietThreat() {
    const { vcfDepth, vctDepth } = this.quiet;
    if (this.clock() > this.deadline) throw new Timeout();
    const ts = new PooledSearch(this.fb, {
      deadline: this.deadline, clock: this.clock, maxNodes: QUIET_NODES, shared: false,
      threeWidth: this.threeWidth, zone: this.zoneReach !== null,
    });
    const line = ts.vcf(vcfDepth) || ts.vct(vctDepth);
    this.nodes += ts.nodes;
    if (line === null && ts.timedOut && this.clock() > this.deadline) throw new Timeout();
    return line;
  }
}

/**
 * The search's ThreatSearch with the root restricted to one first move `first` (a padded cell of
 * `fb`): a VCF / VCT found by it is a forced win that starts with that move. A fresh table of its
 * own (a restricted root must not be stored as the position's disproof in a shared one).
 */
export class FirstMoveSearch extends PooledSearch {
  constructor(fb, first, options = {}) {
    super(fb, { ...options, shared: false });
    this.first = first;
    this.rootH1 = fb.h1;
    this.rootH2 = fb.h2;
    this.rootTurn = fb.turn;
  }

  children(ply, me, depth) {
    const kind = super.children(ply, me, depth);
    const fb = this.fb;
    if (ply !== 0 || me !== this.rootTurn || fb.h1 !== this.rootH1 || fb.h2 !== this.rootH2 || kind !== OPEN) {
      return kind;
    }
    const { fm, fpn, fdn } = this.s;
    for (let j = 0; j < this.nkids; j++) {
      if (fm[j] === this.first) {
        fm[0] = fm[j];
        fpn[0] = fpn[j];
        fdn[0] = fdn[j];
        this.nkids = 1;
        return OPEN;
      }
    }
    return DISPROVEN;
  }
}

/**
 * The forced win of the side to move of `fb`, or null: {kind: "vcf" | "vct", line: [cell | null],
 * nodes, capped} (`capped`: a VCT search stopped at its node cap, not for want of moves). `line` as the threat search gives it (attacker and defender alternating from the
 * attacker's move; a final null: no defence). With `first` (a cell), only wins starting with it.
 * `budget`: BUDGET's fields. `fb` is left as it was.
 */
export function forcedWin(fb, budget = BUDGET, first = null) {
  const make = (opts) => (first === null ? new PooledSearch(fb, opts) : new FirstMoveSearch(fb, first, opts));
  let nodes = 0;
  let ts = make({ maxNodes: budget.vcfNodes });
  let line = ts.vcf(budget.vcfDepth);
  nodes += ts.nodes;
  if (line) return { kind: "vcf", line, nodes, capped: false };
  ts = make({ maxNodes: budget.vctNodes });
  line = ts.vct(budget.vctDepth);
  nodes += ts.nodes;
  let capped = ts.timedOut;
  if (line) return { kind: "vct", line, nodes, capped };
  if (budget.wideNodes > 0) {
    ts = make({ maxNodes: budget.wideNodes, zone: false, threeWidth: budget.wideWidth });
    line = ts.vct(budget.vctDepth);
    nodes += ts.nodes;
    capped ||= ts.timedOut;
    if (line) return { kind: "vct", line, nodes, capped };
  }
  return { kind: null, line: null, nodes, capped };
}

/**
 * Whether the win of `attacker` (1 or 2, not to move on `fb`) probably stays: none of the
 * defender's likely replies (the cells of the attacker's threat line, the defender's fours and
 * open threes: ThreatSearch.quietHeld's) leaves the attacker without a VCF or VCT. A heuristic
 * (replies outside that set are not tried), bounded by `budget.stayNodes` nodes (past them: false).
 * `fb` is left as it was.
 */
export function winStays(fb, attacker, budget = BUDGET) {
  const ts = new PooledSearch(fb, { deadline: budget.stayNodes, clock: () => ts.nodes });
  ts.quiet = { att: attacker, vcfDepth: budget.vcfDepth, vctDepth: budget.vctDepth, replies: QUIET_REPLIES };
  try {
    return !ts.quietHeld(QUIET_COUNTER_FOURS);
  } catch (e) {
    if (e instanceof Timeout) return false;
    throw e;
  }
}

/** The computer's score of `fb` for the side to move (pattern units; ±WIN near a won game): a
 * shallow alpha-beta of Hard's evaluation (both sides' shapes weighed alike), the mean of
 * `budget.evalDepth` - 1 and `budget.evalDepth` plies. */
export function positionScore(fb, budget = BUDGET) {
  const ab = new AlphaBeta(fb, { hard: true, width: budget.evalWidth, attack: budget.evalAttack,
    defence: budget.evalDefence, shared: false });
  const moves = ab.moves(fb.turn, budget.evalWidth);
  if (!moves.length) return 0;
  // the mean of two depths, odd and even: a search of even depth leaves the last move to the
  // opponent and an odd one to the side to move, and one depth alone would make the scores of
  // consecutive plies see-saw
  const odd = ab.root(moves, budget.evalDepth - 1)[0][0];
  const even = ab.root(moves, budget.evalDepth)[0][0];
  if (Math.abs(odd) >= WIN / 2 || Math.abs(even) >= WIN / 2) return even;
  return Math.round((odd + even) / 2);
}

/** Cells where side `s` would complete a winning run now (ascending). */
export function fiveCells(fb, s) {
  return fb.members(s, FIVE).filter((q) => fb.winsAt(q, s)).sort((a, b) => a - b);
}

/** Cells where side `s` would make an open four (ascending, legal for it). */
export function openFourCells(fb, s) {
  return fb.members(s, OPEN4).filter((q) => fb.legal(q, s)).sort((a, b) => a - b);
}
