// The caro analysis's second look at a position where the per-ply searches (caro-search.js
// forcedWin: VCF, VCT near the last moves, a small VCT anywhere) found no forced win, but one is
// plausible. Two searches, both bounded by nodes (never by time), so a game gets the same analysis
// on every device:
//
// - a long VCT: threes anywhere on the board, a large node budget. Only where the per-ply VCT
//   stopped at its node cap (a search that ran out of moves to try would find nothing more);
// - a quiet win: a threat-space search in which the attacker may also play QUIET moves (neither a
//   four nor an open three: a stone that builds two threats at once, the move strong players call
//   the preparing move). After a quiet move the defender may play anywhere, so the search asks
//   what the attacker threatens (its VCF / VCT if it moved again) and tries the defender's likely
//   replies: the empty cells of that threat's line and the cells around its stones, the
//   defender's fours and open threes (up to `quietReplies`); a four of the defender is blocked and
//   the defender replies again. The quiet move wins when after every one of those replies the
//   attacker still has a forced win (a VCF / VCT, or another quiet move when more are allowed).
//   Open threes and fours of the attacker before the quiet move are searched too (a three, its
//   exact defences and the defender's fours; a four, its block).
//   A heuristic, not a proof: replies outside that set are not tried. The line it returns is one
//   line of the win, against the reply that made the attacker's win longest; caro.js replays it on
//   the rules engine to the five (and the tests in the Python engine) like every other line.
//
// When is a win plausible? A quiet win needs material for two threats: the side to move can make
// at least `plausibleThrees` open threes (plausible()). Every quiet win of the shared puzzles has
// 4 or more such cells; of the 60-ply bench game's plies without a forced win, two do (most have 0
// to 2), so the second look costs little there. The shape score (positionScore) was tried first
// and does not tell them apart: quiet wins of the puzzles score from 336, positions the judge
// found no win in score up to 3,300.

import { ThreatSearch, ThreatTable, threeDefences } from "../computer/caro/threats.js";
import { Timeout } from "../computer/caro/clock.js";
import { PooledSearch } from "./caro-search.js";
import { FIVE, OPEN4 } from "../computer/caro/patterns.js";

/** Limits of the second look (nodes of the threat searches; widths in cells). */
export const DEEP = Object.freeze({
  longNodes: 300000, // the long VCT (threes anywhere)
  longWidth: 20, // its open threes per attacker node
  longDepth: 12, // its attacker moves
  quietNodes: 250000, // one quiet-win search, all its threat searches together
  innerNodes: 12000, // each VCF / VCT inside it
  vcfDepth: 16,
  vctDepth: 12,
  quietWidth: 10, // quiet moves tried at the root, best shape first
  innerQuietWidth: 10, // quiet moves tried at a later attacker node (a second quiet move)
  threeWidth: 4, // the attacker's open threes / fours tried before a quiet move, best first
  quietReplies: 18, // defender replies tried after a quiet move
  counterFours: 3, // defender counter-fours followed in a row
  quietMoves: 1, // quiet moves in one line (quietWin's default)
  setupMoves: 1, // attacker threes / fours before the (first) quiet move
  // deepWin's quiet searches, one after the other: quiet moves in a line, node budget
  // (the second: narrower below the root, smaller inner searches; on the puzzles it finds the
  // two-quiet-move wins in 49,000 to 551,000 nodes, and gives up on the bench game's ply 6 after
  // 168,000)
  stages: Object.freeze([
    Object.freeze({ quietMoves: 1, setupMoves: 3, innerNodes: 50000, nodes: 600000 }),
    Object.freeze({ quietMoves: 2, nodes: 700000, innerQuietWidth: 6, innerNodes: 6000 }),
  ]),
  gameNodes: 1500000, // the second looks of one game together (past it: no more second looks): 5 to
  // 10 s of CPU at most on a desktop (3.3 to 7 µs a node), so a game full of plausible plies stays
  // within the targets
  keepNodes: 150000, // whether the move played keeps a win found here (quietWin from that move)
  plausibleThrees: 4, // open-three cells of the side to move from which the second look is taken
});

/**
 * Whether a second look at `fb` is worth it: the other side has no five cell (its block is the
 * first searches' business), and the side to move can make at least
 * `budget.plausibleThrees` open threes (two open twos, or more). Every quiet win of the shared
 * puzzles passes; most plies of a game without a forced win have 0 to 2 such cells.
 */
export function plausible(fb, budget = DEEP) {
  if (fb.count(3 - fb.turn, FIVE) > 0) return false;
  return fb.threeMoves(fb.turn).length >= budget.plausibleThrees;
}

/**
 * The second look at `fb` (the side to move has no forced win the per-ply searches found): when
 * plausible, the long VCT (only when `capped`: forcedWin's VCT stopped at its node cap), then the
 * quiet searches of `budget.stages`, within `left` nodes in all. Returns {kind: "vct" | "quiet" |
 * null, line, stage (the index in `budget.stages` of the quiet search that found it; -1: none, or
 * the long VCT), nodes}. `fb` is left as it was.
 */
export function deepWin(fb, capped, budget = DEEP, left = Infinity) {
  let nodes = 0;
  if (!plausible(fb, budget)) return { kind: null, line: null, stage: -1, nodes };
  if (capped) {
    const r = longVct(fb, { ...budget, longNodes: Math.min(budget.longNodes, left) });
    nodes += r.nodes;
    if (r.line) return { kind: "vct", line: r.line, stage: -1, nodes };
  }
  for (const [i, stage] of budget.stages.entries()) {
    if (left - nodes <= 0) break;
    const r = quietWin(fb, { ...budget, ...stage, quietNodes: Math.min(stage.nodes, left - nodes) });
    nodes += r.nodes;
    if (r.line) return { kind: "quiet", line: r.line, stage: i, nodes };
  }
  return { kind: null, line: null, stage: -1, nodes };
}

/**
 * Whether the move `first` (a cell of `fb`, the side to move's) starts a win of the second look's
 * kind: quietWin from that move with the settings of `budget.stages[stage]` (-1: the long VCT's
 * kind, threat searches after it), `budget.keepNodes` nodes: after `first` as many quiet moves as
 * the stage allowed and one three / four fewer before them. Returns {line, nodes} (line null:
 * none found).
 */
export function keepsDeepWin(fb, first, stage, budget = DEEP) {
  const s = budget.stages[stage] || { quietMoves: 0, setupMoves: 0 };
  const setup = Math.max(0, (s.setupMoves ?? budget.setupMoves) - 1);
  return quietWin(fb, { ...budget, ...s, quietNodes: budget.keepNodes, setupMoves: setup }, first, s.quietMoves);
}

/** Table bits of the quiet search's own threat table (kept across its inner searches). */
const TABLE_BITS = 18;
let TABLE = null;

/** A ThreatSearch on a table given to it (the quiet search's inner searches share one table: every
 * entry is a pure function of the position, the attacker and the search variant). */
class TableSearch extends ThreatSearch {
  constructor(fb, table, options) {
    super(fb, { ...options, shared: false });
    this.given = table;
  }

  table() {
    if (this.given.stored > 0.6 * (this.given.mask + 1)) this.given.clear();
    return this.given;
  }
}

/**
 * The long VCT of the side to move of `fb` (threes anywhere, `budget.longNodes` nodes), or null.
 * Returns {line, nodes}. `fb` is left as it was.
 */
export function longVct(fb, budget = DEEP) {
  const ts = new PooledSearch(fb, { maxNodes: budget.longNodes, zone: false, threeWidth: budget.longWidth });
  const line = ts.vct(budget.longDepth);
  return { line, nodes: ts.nodes };
}

/**
 * A quiet win of the side to move of `fb` with at most `quiet` quiet moves: {line: [cell | null,
 * ...] | null, nodes} (the line as the threat search gives it: attacker and defender alternating,
 * a final null: no defence; null: none found within `budget.quietNodes` nodes). With `first` (a
 * cell) only wins starting with it: whether that move keeps a win, as the analysis asks of the
 * move played (then the move may be a four or a three as well, and `quiet` more quiet moves may
 * follow it). `fb` is left as it was.
 */
export function quietWin(fb, budget = DEEP, first = null, quiet = budget.quietMoves) {
  const qs = new QuietSearch(fb, budget);
  let line = null;
  try {
    line = first === null ? qs.attack(quiet, budget.setupMoves, true) : qs.attackWith(first, quiet, budget.setupMoves);
  } catch (e) {
    if (!(e instanceof Timeout)) throw e;
    qs.restore();
    line = null;
  }
  return { line, nodes: qs.nodes };
}

/** The search of quietWin (see the module comment). The attacker is the side to move at the start. */
class QuietSearch {
  constructor(fb, budget) {
    this.fb = fb;
    this.budget = budget;
    this.att = fb.turn;
    this.nodes = 0;
    this.played = 0; // stones on the board from this search (taken back on a timeout)
    TABLE ||= new ThreatTable(TABLE_BITS);
    TABLE.clear();
    this.table = TABLE;
  }

  play(q) {
    this.fb.play(q);
    this.played++;
  }

  undo() {
    this.fb.undo();
    this.played--;
  }

  restore() {
    while (this.played > 0) this.undo();
  }

  /** The attacker's VCF / VCT from here with it to move, or null. Throws Timeout past the budget. */
  threat() {
    const b = this.budget;
    const left = b.quietNodes - this.nodes;
    if (left <= 0) throw new Timeout();
    const opts = { maxNodes: Math.min(b.innerNodes, left) };
    let ts = new TableSearch(this.fb, this.table, opts);
    let line = ts.vcf(b.vcfDepth);
    this.nodes += ts.nodes;
    if (line) return line;
    ts = new TableSearch(this.fb, this.table, opts);
    line = ts.vct(b.vctDepth);
    this.nodes += ts.nodes;
    return line;
  }

  /** Attacker to move: a forced win with at most `quiet` quiet moves and `setup` threes / fours
   * before the first of them. The line, or null. */
  attack(quiet, setup, root = false) {
    const fb = this.fb;
    const a = this.att;
    const d = 3 - a;
    const line = root ? null : this.threat(); // (the root's: the caller's searches found none)
    if (line) return line;
    if (quiet <= 0 || fb.count(d, FIVE) > 0) return null; // (a block of a five: the threat search's)
    const NC = fb.NC;
    const key = (q) => fb.score[a * NC + q] * 10 + fb.score[d * NC + q] * 9;
    const fours = fb.fourMoves(a);
    const threes = fb.threeMoves(a);
    const tactical = new Set([...fours, ...threes]);
    // the defender has an open three: a quiet move must stop it (else it makes an open four)
    const stops = fb.count(d, OPEN4) > 0 ? threeDefences(fb, d) : null;
    const quiets = fb.candidates().filter((q) => fb.cells[q] === 0 && !tactical.has(q) && fb.legal(q, a)
      && (stops === null || stops.includes(q)));
    quiets.sort((p, q) => key(q) - key(p) || p - q);
    const width = root ? this.budget.quietWidth : this.budget.innerQuietWidth;
    const tries = quiets.slice(0, width).map((m) => [m, quiet - 1, 0]);
    if (setup > 0) {
      // a three or a four first, the quiet move after the defender's answer
      const moves = [...tactical].filter((q) => stops === null || stops.includes(q) || fours.includes(q));
      moves.sort((p, q) => key(q) - key(p) || p - q);
      tries.push(...moves.slice(0, this.budget.threeWidth).map((m) => [m, quiet, setup - 1]));
    }
    for (const [m, q, s] of tries) {
      const rest = this.after(m, q, s);
      if (rest) return [m, ...rest];
    }
    return null;
  }

  /** The win starting with the attacker's move `first` (any kind), or null. */
  attackWith(first, quiet, setup = 0) {
    const fb = this.fb;
    if (fb.winsAt(first, this.att)) return [first];
    return this.after(first, quiet, setup);
  }

  /** The attacker plays `m`; the defender's replies (all of those that matter for a four or a
   * three, the likely ones for a quiet move) each leave the attacker a win: the line from the
   * hardest reply on, or null. `quiet` / `setup`: what the attacker has left after `m`. */
  after(m, quiet, setup) {
    this.play(m);
    try {
      return this.defend(quiet, setup, this.budget.counterFours);
    } finally {
      this.undo();
    }
  }

  /** Defender to move after an attacker's move: the line from its hardest reply on, or null when
   * one of its replies holds. */
  defend(quiet, setup, foursLeft) {
    const fb = this.fb;
    const a = this.att;
    const d = 3 - a;
    if (fb.count(d, FIVE) > 0) return null; // the defender makes a five
    let replies;
    if (fb.count(a, FIVE) > 0) {
      replies = fb.defences(a).filter((z) => fb.legal(z, d));
      if (!replies.length) return [null];
    } else if (fb.count(a, OPEN4) > 0 && threeDefences(fb, a).length === 0 && fb.fourMoves(d).length === 0) {
      return [null]; // an open four (or a double three nothing stops) and no four to answer it
    } else {
      replies = this.replies();
      if (replies === null) return null; // no threat: the move was no threat at all
    }
    let best = null;
    for (const r of replies) {
      const rest = this.reply(r, quiet, setup, foursLeft);
      if (!rest) return null;
      if (best === null || rest.length + 1 > best.length) best = [r, ...rest];
    }
    return best;
  }

  /** The defender plays `r`: the attacker's answer (see answer()), the board restored. */
  reply(r, quiet, setup, foursLeft) {
    this.play(r);
    try {
      return this.answer(quiet, setup, foursLeft);
    } finally {
      this.undo();
    }
  }

  /** The defender's replies to the attacker's last move (not a five-threat): facing an open three,
   * its exact defences and its fours; else (a quiet move) the likely replies; null when the
   * attacker threatens nothing. */
  replies() {
    const fb = this.fb;
    const a = this.att;
    const d = 3 - a;
    const NC = fb.NC;
    fb.turn = a; // what the attacker threatens: its win if it moved again
    let threat;
    try {
      threat = this.threat();
    } finally {
      fb.turn = d;
    }
    if (threat === null) return null;
    const sd = (q) => fb.score[d * NC + q];
    const byScore = (p, q) => sd(q) - sd(p) || p - q;
    const order = [];
    if (fb.count(a, OPEN4) > 0) {
      order.push(...threeDefences(fb, a));
      order.push(...fb.fourMoves(d).sort(byScore));
      return dedupe(fb, order, d, Infinity);
    }
    const cells = threat.filter((c) => c !== null && fb.cells[c] === 0);
    order.push(...cells);
    order.push(...fb.fourMoves(d).sort(byScore));
    order.push(...fb.threeMoves(d).sort(byScore));
    // the cells next to the threat's first stones (a stone there can spoil its shapes)
    const W = fb.geo.W;
    const near = [];
    for (const c of cells.slice(0, 3)) {
      for (const s of [1, W, W + 1, W - 1]) for (const q of [c - s, c + s]) if (fb.cells[q] === 0) near.push(q);
    }
    order.push(...near.sort(byScore));
    return dedupe(fb, order, d, this.budget.quietReplies);
  }

  /** Attacker to move after a defender's reply: a block of its four (then the defender again), or a
   * win with what is left. */
  answer(quiet, setup, foursLeft) {
    const fb = this.fb;
    const a = this.att;
    const d = 3 - a;
    if (fb.count(a, FIVE) > 0) return [fb.first(a, FIVE)];
    if (fb.count(d, FIVE) > 0) {
      // a counter-four: the attacker wins through it (its threat search blocks with a threat) or
      // blocks and the defender replies again
      const line = this.threat();
      if (line) return line;
      if (foursLeft <= 0) return null;
      for (const z of fb.defences(d).filter((q) => fb.legal(q, a))) {
        this.play(z);
        let rest;
        try {
          rest = this.defend(quiet, setup, foursLeft - 1);
        } finally {
          this.undo();
        }
        if (rest) return [z, ...rest];
      }
      return null;
    }
    return this.attack(quiet, setup);
  }
}

/** The first `n` distinct empty cells of `order` legal for side `s`. */
function dedupe(fb, order, s, n) {
  const out = [];
  for (const c of order) {
    if (out.length >= n) break;
    if (fb.cells[c] === 0 && !out.includes(c) && fb.legal(c, s)) out.push(c);
  }
  return out;
}
