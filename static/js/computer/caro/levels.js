// Caro Easy, Medium and Hard (bench/pybots/caro_bots.py CaroEasy / CaroMedium / CaroHard, ported).
//
// All three read the room's rules from the search board, so blocked ends, exact five and Renju
// fouls are obeyed exactly.
// - Easy takes a five when it has one. Otherwise it blocks the opponent's five-threat except
//   with probability EASY_MISS (then it plays elsewhere), and otherwise plays a good-shape move
//   picked at random among the best three.
// - Medium always takes a five, always blocks a four that would make a winning five, plays a
//   short VCF when it has one, blocks open threes unless it can force a win, and otherwise runs
//   a 2-ply alpha-beta over the best candidates (small random tie-breaks).
// - Hard takes a five / blocks a five-threat, then looks for its own VCF and VCT (a second, wider
//   VCT tries threes anywhere), then for the opponent's VCF / VCT as if the opponent moved now.
//   Under such a threat the alpha-beta's root moves are the replies to it (defenceOrder). Then
//   iterative-deepening alpha-beta (search.js, Hard's form: the opponent's threats are searched
//   inside it) with the rest of the planned time less the guard's reserve, and the guard: the
//   first of its best moves (guardOrder) after which the opponent has no VCF or VCT the threat
//   searches find and no quiet move that wins (under a threat, in freestyle and exact five, also
//   no VCT with threes anywhere, which may take the rest of the planned time); then, with time
//   left, the alpha-beta deepens on (Hard.more). Issue 28 replaced the per-reply safety checks of
//   the old defence by this one check of the chosen move, and dropped or shrank the threat
//   searches before the alpha-beta that almost never chose a move (docs/strength.md).
// Every function takes the search board (board.js, changed and restored), a budget in ms, an
// rng ({random(), randrange(n)}) and a clock (ms); it returns a padded cell.

import { FOUR, OPEN4, FIVE, THREE } from "./patterns.js";
import { AlphaBeta, WIN } from "./search.js";
import { ThreatSearch } from "./threats.js";
import { Timeout } from "./clock.js";

/** Node cap of Hard's threat checks of one reply (the opponent's threat: 4x; a safety VCF
 * check: half). */
export const NODE_CAP = 60000;
/** Easy misses a block of a five-threat with this probability. */
export const EASY_MISS = 0.35;
/** Medium's alpha-beta depth (plies) and the most of the budget it uses (ms). */
export const MEDIUM_DEPTH = 2;
export const MEDIUM_MAX_MS = 400;

/** Hard's settings (bench/pybots/caro_bots.py CaroHard): parts of the planned time, depths in
 * attacker moves, node caps. The time manager (issue 28, docs/strength.md): Hard plans `share` of
 * the budget and never searches past `limit` of it; the threat searches before the alpha-beta take
 * their shares of `threatBase` of the budget (the milliseconds they had when the brain passed 80 %
 * of a move's time and Hard planned 80 % of that). The alpha-beta starts a new iteration while the
 * time left before the guard's reserve (`guardReserve`; `wideReserve` under an opponent's threat
 * in freestyle and exact five, where the guard's check for a VCT with threes anywhere may use the
 * rest of the planned time) holds `startIf` of the iteration's predicted time (predictNextMs: the
 * last one's times the effective branching factor), so the guard checks the choice of finished
 * iterations; after the guard, the alpha-beta deepens on until `moreGuard` of the planned time is
 * left (Hard.more: an unfinished iteration is not lost, its first move is searched deeper and a
 * move that beats it is played if the guard proves it safe). So a quiet move spends most of the
 * budget, and a forced or decided one stays fast. */
export const HARD = Object.freeze({
  share: 0.9, // part of the budget it plans to use
  limit: 0.92, // hard stop: no search (the guard's minimum included) runs past this part of the budget
  // (in the page the wall clock also carries the worker's messages and a busy device's pauses)
  threatBase: 0.64, // the threat searches' shares below are parts of this part of the budget
  startIf: 1, // before the guard, an alpha-beta iteration starts while the time left holds this part of its predicted time
  ebfFirst: 3, // predicted time of the next iteration / the last one, before two iterations are timed
  ebfMin: 1.5, // ... and the measured ratio clamped to ebfMin..ebfMax
  ebfMax: 6,
  iterFloorMs: 0.5, // an iteration's time is taken as at least this (ms): the first ones come from the table
  guardReserve: 0.12, // part of the planned time kept for the guard (the chosen move's safety check) ...
  wideReserve: 0.3, // ... and under a threat in freestyle and exact five (the guard's VCT with threes anywhere)
  guardShare: 0.1, // at most this part for one move's guard check ...
  guardMinShare: 0.03, // ... and at least this part, even past the planned time (never past limit)
  width: 20, // candidates per node of the alpha-beta (a cap: search.js HARD_SCHEDULE, reductions)
  vcfDepth: 16,
  vctDepth: 12,
  oppVctDepth: 10,
  vctNodes: 200000, // node cap of each own VCT
  vcfShare: 0.12, // its own VCF (of threatBase)
  vcfMinNodes: 2500, // nodes its own VCF searches before it looks at the clock
  vctShareQuiet: 0.08, // its own VCT when the opponent has no open three (of threatBase)
  vctShareThreat: 0.08, // its own VCT under an open three (of threatBase)
  wideShare: 0.05, // a second, wider own VCT (threes anywhere; of threatBase)
  threatShare: 0.15, // the opponent's VCF / VCT as if it moved now (of threatBase)
  defenceMoves: 12, // under an opponent threat: the replies the alpha-beta chooses among
  guardQuietShare: 0.06, // guard: the opponent's quiet win after a move safe from VCF / VCT (of threatBase)
  maxDepth: 30, // plies of the deepest alpha-beta iteration
  rootMoves: 14, // root candidates of the alpha-beta
  safetyMoves: 10, // best moves the guard checks for the opponent's VCF / VCT
  moreMin: 0.1, // after the guard, with at least this part of the planned time left: deepen on ...
  moreGuard: 0.07, // ... until this part of it is left, for the guard of a new best move
  wideCheckNodes: 150000, // node cap of the guard's VCT with threes anywhere, a move (gmk-s045's F10: 57k)
});

/** What HARD's phases were before issue 28's retiming (branch time-8, docs/strength.md), kept for
 * the rule sets where the retiming was not measured: caro with blocked ends and Renju (the
 * public engines do not play them; their measure is self-play against the previous Hard). The
 * retiming (smaller own-VCT shares, no quiet-win search before the alpha-beta, 12 replies under a
 * threat, the guard trying earlier iterations' best moves first) was measured in freestyle and
 * exact five only (countsThreats). */
export const HARD_UNRETIMED = Object.freeze({
  ...HARD,
  vctShareQuiet: 0.2,
  vctShareThreat: 0.2,
  wideShare: 0.1,
  quietShare: 0.1, // a quiet move that wins, searched before the alpha-beta when no threat (of threatBase)
  defenceMoves: 16,
  guardByIterations: false, // the guard tries the alpha-beta's ranking as it is
});

/** The predicted time (ms) of the next alpha-beta iteration after iterations that took `times`
 * (ms each, in order): the last one's times the effective branching factor (the geometric mean
 * of the last two ratios of successive times where there are two, since depths alternate between
 * cheap and dear; else the one ratio; else HARD.ebfFirst), clamped to HARD.ebfMin..ebfMax; each
 * time taken as at least HARD.iterFloorMs. null before any iteration. */
export function predictNextMs(times) {
  const n = times.length;
  if (n === 0) return null;
  const t = (k) => Math.max(times[n - 1 - k], HARD.iterFloorMs);
  const ratio = n >= 3 ? Math.sqrt(t(0) / t(2)) : n === 2 ? t(0) / t(1) : HARD.ebfFirst;
  return t(0) * Math.min(HARD.ebfMax, Math.max(HARD.ebfMin, ratio));
}

function byScore(fb, s, weightOwn, weightOther) {
  const NC = fb.NC;
  const o = 3 - s;
  return (q) => fb.score[s * NC + q] * weightOwn + fb.score[o * NC + q] * weightOther;
}

/** Cells where side `s` completes a winning run, decided exactly, ascending. */
export function exactFives(fb, s) {
  return fb.candidates().filter((q) => fb.cells[q] === 0 && fb.winsAt(q, s));
}

/** A legal cell near the stones (or anywhere) for `s`; throws Error if none. */
export function anyLegal(fb, s, rng) {
  const key = byScore(fb, 1, 1, 1);
  const cells = fb.candidates().sort((p, q) => key(q) - key(p) || p - q);
  for (const q of cells) if (fb.cells[q] === 0 && fb.legal(q, s)) return q;
  const rest = fb.legalCells(s);
  if (!rest.length) throw new Error("no legal move");
  return rest[rng.randrange(rest.length)];
}

/** Own five; else (`block`) a reply that stops every five-threat of the opponent; else null. */
export function tacticalPrelude(fb, rng, block = true) {
  const me = fb.turn;
  const opp = 3 - me;
  const mine = exactFives(fb, me);
  if (mine.length) return mine[0];
  if (block && exactFives(fb, opp).length) {
    const replies = fb.defences(opp).filter((q) => fb.legal(q, me));
    if (replies.length) {
      let best = replies[0];
      for (const q of replies) {
        const v = fb.score[me * fb.NC + q];
        const b = fb.score[me * fb.NC + best];
        if (v > b || (v === b && q < best)) best = q;
      }
      return best;
    }
    // lost anyway (two threats, or Renju: X may not block on a foul): block one
    const legal = exactFives(fb, opp).filter((q) => fb.legal(q, me));
    return legal.length ? legal[0] : anyLegal(fb, me, rng);
  }
  return null;
}

/** Easy (see the module comment). */
export function chooseEasy(fb, budgetMs, rng) {
  const me = fb.turn;
  const opp = 3 - me;
  const missing = rng.random() < EASY_MISS;
  const q = tacticalPrelude(fb, rng, !missing);
  if (q !== null) return q;
  const avoid = missing && fb.count(opp, FIVE) > 0 ? fb.defences(opp) : [];
  const cands = fb.candidates().filter((c) => fb.cells[c] === 0 && fb.legal(c, me) && !avoid.includes(c));
  if (!cands.length) return anyLegal(fb, me, rng);
  const NC = fb.NC;
  const keyed = cands.map((c) => [
    fb.score[me * NC + c] + Math.floor((fb.score[opp * NC + c] * 7) / 10) + rng.random() * 20, c]);
  keyed.sort((a, b) => b[0] - a[0]);
  const pick = rng.random();
  const k = pick < 0.6 ? 0 : pick < 0.85 ? 1 : 2;
  return keyed[Math.min(k, keyed.length - 1)][1];
}

/** Medium (see the module comment). */
export function chooseMedium(fb, budgetMs, rng, clock) {
  const me = fb.turn;
  const q = tacticalPrelude(fb, rng);
  if (q !== null) return q;
  const t0 = clock();
  const budget = Math.min(budgetMs, MEDIUM_MAX_MS);
  const line = new ThreatSearch(fb, { deadline: t0 + budget * 0.3, clock, maxNodes: 3000 }).vcf(5);
  if (line) return line[0];
  const ab = new AlphaBeta(fb, { deadline: t0 + budget, clock, width: 10, forceDefence: true });
  const moves = ab.moves(me, 12);
  if (!moves.length) return anyLegal(fb, me, rng);
  let ranked;
  try {
    ranked = ab.root(moves, MEDIUM_DEPTH);
  } catch (e) {
    if (e instanceof Timeout) return moves[0];
    throw e;
  }
  const top = ranked[0][0];
  const near = ranked.filter(([v]) => v >= top - Math.max(20, Math.floor(Math.abs(top) / 20)));
  return near[rng.randrange(near.length)][1];
}

/** Whether Hard's guard, under a threat, also runs the wide VCT check (threes anywhere): in freestyle
 * and exact five only (bench/pybots/caro_bots.py counts_threats: it was measured to help there and
 * to cost strength in caro with blocked ends; never measured in Renju). */
export function countsThreats(rules) {
  return rules.blocked === "none" && !rules.renju;
}

/** Hard's phase settings for `rules`: HARD in freestyle and exact five, where its retiming was
 * measured (countsThreats), HARD_UNRETIMED elsewhere. */
export function hardSettings(rules) {
  return countsThreats(rules) ? HARD : HARD_UNRETIMED;
}

/**
 * Hard's search with its clock and the settings HARD: one object per move (see chooseHard).
 * `stats` collects what the benches print (alpha-beta depth and nodes).
 */
class Hard {
  constructor(fb, budgetMs, rng, clock) {
    this.fb = fb;
    this.rng = rng;
    this.clock = clock;
    // the retimed phases where they were measured, the earlier ones elsewhere (HARD_UNRETIMED)
    this.settings = hardSettings(fb.rules);
    this.t0 = clock();
    const whole = Math.max(budgetMs, 50);
    this.budget = whole * HARD.share; // the planned time (ms)
    this.end = this.t0 + this.budget;
    this.limit = this.t0 + whole * HARD.limit; // no search runs past it
    this.base = whole * HARD.threatBase; // the threat searches' shares are parts of it
    this.iterMs = []; // the alpha-beta's completed iterations, ms each (the time manager's data)
    this.bests = []; // their best moves, in order
    this.stats = { depth: 0, nodes: 0, checks: 0, phase: "", phaseMs: {} };
    this.lapAt = this.t0;
  }

  /** Charges the time since the last lap to the phase `name` (stats.phaseMs, ms; for the benches). */
  lap(name) {
    const now = this.clock();
    this.stats.phaseMs[name] = (this.stats.phaseMs[name] || 0) + now - this.lapAt;
    this.lapAt = now;
  }

  threats(deadline, opts = {}) {
    return new ThreatSearch(this.fb, { deadline: Math.min(deadline, this.limit), clock: this.clock, shared: true, ...opts });
  }

  /** The opponent's VCF or VCT if it were to move now (a null move), else null. */
  oppThreat(deadline, nodes) {
    const fb = this.fb;
    fb.turn = 3 - fb.turn;
    try {
      const ts = this.threats(deadline, { maxNodes: nodes });
      return ts.vcf(HARD.vcfDepth) || ts.vct(HARD.oppVctDepth);
    } finally {
      fb.turn = 3 - fb.turn;
    }
  }

  /** After `q`: 2 if the opponent has no VCF and no VCT the searches can find (both completed),
   * 1 if unknown (a search ran out of time), 0 if it has one. */
  safe(q, deadline, nodes) {
    const fb = this.fb;
    this.stats.checks++;
    fb.play(q);
    try {
      const ts = this.threats(deadline, { maxNodes: nodes });
      if (ts.vcf(HARD.vcfDepth) !== null || ts.vct(HARD.oppVctDepth) !== null) return 0;
      return ts.timedOut ? 1 : 2;
    } finally {
      fb.undo();
      this.lap("check");
    }
  }

  /** Replies worth trying against the opponent's `threat` line, most promising first. */
  defenceOrder(threat, ab, moves) {
    const fb = this.fb;
    const me = fb.turn;
    const opp = 3 - me;
    const both = byScore(fb, opp, 1, 1);
    const line = threat.filter((c) => c !== null && fb.cells[c] === 0);
    const oppCells = [...new Set([...fb.members(opp, OPEN4), ...fb.members(opp, FOUR), ...fb.members(opp, THREE)])]
      .sort((p, q) => both(q) - both(p) || p - q);
    // own fours early: a four gains a tempo (the block is forced) and often breaks the opponent's
    // sequence; then the best candidates, the rest of the line, its shape cells
    const fours = fb.fourMoves(me).sort((p, q) => both(q) - both(p) || p - q);
    const mine = fb.threeMoves(me).sort((p, q) => both(q) - both(p) || p - q);
    const order = [];
    const seen = new Set();
    for (const c of [...line.slice(0, 1), ...fours, ...moves.slice(0, 4), ...line.slice(1), ...oppCells, ...mine,
      ...moves, ...ab.moves(me, 24)]) {
      if (!seen.has(c) && fb.cells[c] === 0 && fb.legal(c, me)) {
        seen.add(c);
        order.push(c);
      }
    }
    return order;
  }

  choose() {
    const fb = this.fb;
    const me = fb.turn;
    const { t0, base, clock } = this;
    const q0 = tacticalPrelude(fb, this.rng);
    if (q0 !== null) return this.done(q0, "prelude");
    this.lap("prelude");
    let line = this.threats(t0 + base * HARD.vcfShare, { minNodes: HARD.vcfMinNodes }).vcf(HARD.vcfDepth);
    this.lap("vcf");
    if (line) return this.done(line[0], "vcf");
    // own VCT: a larger share when the opponent has no open three (then our threes are real
    // threats and there is no defence to check)
    const H = this.settings;
    const share = fb.count(3 - me, OPEN4) === 0 ? H.vctShareQuiet : H.vctShareThreat;
    line = this.threats(t0 + base * share, { maxNodes: HARD.vctNodes }).vct(HARD.vctDepth);
    this.lap("vct");
    if (line) return this.done(line[0], "vct");
    line = this.threats(clock() + base * H.wideShare, { threeWidth: 40, zone: false, maxNodes: HARD.vctNodes })
      .vct(HARD.vctDepth);
    this.lap("wide");
    if (line) return this.done(line[0], "wide vct");
    const ab = new AlphaBeta(fb, { deadline: this.end, clock, width: HARD.width, hard: true });
    let moves = ab.moves(me, HARD.rootMoves);
    if (!moves.length) return this.done(anyLegal(fb, me, this.rng), "any");
    if (moves.length === 1) return this.done(moves[0], "only");
    this.lap("moves");
    const threat = this.oppThreat(clock() + base * HARD.threatShare, 4 * NODE_CAP);
    this.lap("opp");
    if (!threat && H.quietShare) {
      // a quiet move after which our threat sequence cannot be stopped (HARD_UNRETIMED only)
      const q = this.threats(clock() + base * H.quietShare).quietWin(HARD.vcfDepth, HARD.oppVctDepth);
      if (q !== null) return this.done(q, "quiet win");
    }
    if (threat) {
      // the alpha-beta chooses among the replies to the opponent's threat (its threat moves are
      // searched inside it); the guard below checks the choice
      moves = this.defenceOrder(threat, ab, moves).slice(0, H.defenceMoves);
      if (moves.length === 1) return this.done(moves[0], "only");
    }
    const t1 = clock();
    this.lap("pre");
    const ranked = this.deepen(ab, moves, !!threat);
    this.lap("ab");
    const t2 = clock();
    let q = this.guard(ranked, !!threat);
    this.lap("guard");
    q = this.more(ab, ranked, q, !!threat);
    this.stats.nodes = ab.nodes;
    this.stats.iterMs = this.iterMs.map((t) => Math.round(t));
    this.stats.vcfNodes = ab.vcfNodes;
    this.stats.bests = this.bests.map((c) => this.fb.name(c));
    Object.assign(this.stats, { preMs: t1 - t0, abMs: t2 - t1, guardMs: clock() - t2 });
    return this.done(q, threat ? "defence" : "search");
  }

  /** The guard's unused time (it usually proves the first move safe at once): with at least
   * HARD.moreMin of the planned time left and no decided score, the alpha-beta deepens on over
   * the root moves the guard did not drop (the guard's choice `q` first) until HARD.moreGuard of
   * it is left; a new best move replaces `q` only if the guard's checks prove it safe in the rest.
   * Returns the move to play. */
  more(ab, ranked, q, threat) {
    const { budget, end, clock } = this;
    if (end - clock() < budget * HARD.moreMin || Math.abs(ranked[0][0]) >= WIN - 100) return q;
    const dropped = this.dropped || new Set();
    const moves = [q, ...ranked.map(([, c]) => c).filter((c) => c !== q && !dropped.has(c))];
    if (moves.length < 2) return q;
    const depth0 = this.stats.depth;
    this.lap("guard");
    const best = this.iterate(ab, moves.map((c) => [0, c]), depth0 + 1, end - budget * HARD.moreGuard, null);
    this.lap("more");
    if (this.stats.depth > depth0) this.stats.moreDepth = this.stats.depth;
    const r = best[0][1];
    if (r === q || best[0][0] <= -(WIN - 100)) return q;
    const now = clock();
    const verdict = this.safe(r, Math.max(now + budget * HARD.guardMinShare, end), threat ? 2 * NODE_CAP : NODE_CAP);
    (this.stats.guard ||= []).push(`more ${this.fb.name(r)}:${verdict}`);
    if (verdict !== 2 || clock() > end || this.lostAfter(r, threat)) return q;
    this.stats.moreChanged = true;
    return r;
  }

  /** Iterative deepening of `ab` over the root `moves` until the alpha-beta's share of the move
   * (the planned time less the guard's reserve: HARD.wideReserve under a `threat` in freestyle and
   * exact five, else HARD.guardReserve): a new iteration starts only while nextFits says it can
   * finish. Returns [[score, cell], ...] best first. */
  deepen(ab, moves, threat) {
    const stop = this.end - this.budget * (this.wideGuard(threat) ? HARD.wideReserve : HARD.guardReserve);
    return this.iterate(ab, moves.map((q) => [0, q]), 1, stop, HARD.startIf);
  }

  /** Whether the guard checks the opponent's VCT with threes anywhere (under a threat, in
   * freestyle and exact five; it may take the time after the alpha-beta, HARD.wideReserve). */
  wideGuard(threat) {
    return threat && countsThreats(this.fb.rules);
  }

  /** Iterations of `ab` from `depth` on over the cells of `ranked` (in its order) with the
   * deadline `stop`, each timed into this.iterMs; each starts only while nextFits(stop, startIf)
   * (startIf null: while there is time). Stops at a decided score,
   * at HARD.maxDepth, or at the deadline (the unfinished iteration's better move salvaged).
   * Returns [[score, cell], ...] best first; this.stats.depth is the deepest finished. */
  iterate(ab, ranked, depth, stop, startIf) {
    const { clock } = this;
    ab.deadline = stop;
    for (; depth <= HARD.maxDepth; depth++) {
      if (!this.nextFits(stop, startIf)) break;
      const t = clock();
      try {
        ranked = ab.root(ranked.map(([, q]) => q), depth);
      } catch (e) {
        if (!(e instanceof Timeout)) throw e;
        ranked = ab.salvage(ranked); // a move the unfinished iteration found better
        break;
      }
      this.iterMs.push(clock() - t);
      this.bests.push(ranked[0][1]);
      this.stats.depth = depth;
      if (ranked[0][0] >= WIN - 100 || ranked[0][0] <= -(WIN - 100)) break;
    }
    return ranked;
  }

  /** The time manager's question before an alpha-beta iteration: whether the time left to
   * `stop` holds `startIf` of the iteration's predicted time (predictNextMs); with startIf null,
   * or before any iteration, whether there is time left. */
  nextFits(stop, startIf) {
    const left = stop - this.clock();
    const next = startIf === null ? null : predictNextMs(this.iterMs);
    return next === null ? left > 0 : left >= startIf * next;
  }

  /** The last guard: the first of the alpha-beta's best moves after which the opponent has no
   * VCF or VCT the threat searches find (HARD.safetyMoves at most, while the planned time lasts;
   * under a threat twice the nodes, and in freestyle and exact five also a VCT with threes
   * anywhere). With none proven safe: the first not proven lost, else the alpha-beta's choice. */
  guard(ranked, threat) {
    const { budget, end, clock } = this;
    const nodes = threat ? 2 * NODE_CAP : NODE_CAP;
    let fallback = null;
    for (const [value, q] of this.guardOrder(ranked).slice(0, HARD.safetyMoves)) {
      if (value <= -(WIN - 100)) break; // the rest lose to the alpha-beta's own sight
      const now = clock();
      if (now > end && fallback !== null) break;
      const verdict = this.safe(q, Math.max(now + budget * HARD.guardMinShare, Math.min(end, now + budget * HARD.guardShare)), nodes);
      (this.stats.guard ||= []).push(`${this.fb.name(q)}:${verdict}`);
      if (verdict === 0 || (verdict === 2 && clock() < end && this.lostAfter(q, threat))) {
        this.stats.dropped = (this.stats.dropped || 0) + 1;
        (this.dropped ||= new Set()).add(q);
        continue;
      }
      if (verdict === 2) return q;
      if (fallback === null) fallback = q; // undecided: the alpha-beta's best of those is kept
      if (clock() > end) break;
    }
    return fallback !== null ? fallback : ranked[0][1];
  }

  /** The order in which the guard tries the alpha-beta's moves `ranked` ([[score, cell], ...], best
   * first): its best, then the best moves of the earlier iterations (deepest first), then the rest.
   * Only the best move's score is exact (the others were searched with a null window: their
   * scores are bounds), so when the best is proven lost the last iteration that chose another move
   * judged that one better than the rest. */
  guardOrder(ranked) {
    if (this.settings.guardByIterations === false) return ranked;
    const byCell = new Map(ranked.map((t) => [t[1], t]));
    const order = [ranked[0]];
    const seen = new Set([ranked[0][1]]);
    for (const c of [...this.bests].reverse()) {
      if (!seen.has(c) && byCell.has(c)) {
        seen.add(c);
        order.push(byCell.get(c));
      }
    }
    for (const t of ranked) if (!seen.has(t[1])) order.push(t);
    return order;
  }

  /** The guard's second look after `q` (run while the planned time lasts): whether, under a threat
   * in freestyle and exact five, the opponent has a VCT with threes anywhere (HARD.wideCheckNodes,
   * up to the planned end), or it has a quiet move that wins (a VCF / VCT after one quiet move,
   * threats.js quietWin). */
  lostAfter(q, threat) {
    const { fb, base, end, clock } = this;
    fb.play(q);
    try {
      // under a threat in freestyle and exact five, first the opponent's VCT with threes anywhere
      // (a proof): it may spend the rest of the planned time (the alpha-beta's is over)
      if (threat && countsThreats(fb.rules)) {
        const ts = this.threats(end, { zone: false, maxNodes: HARD.wideCheckNodes });
        const wide = ts.vct(HARD.oppVctDepth);
        this.lap("guardWide");
        (this.stats.wide ||= []).push(`${fb.name(q)}:${ts.nodes}${ts.timedOut ? "t" : ""}${wide ? "L" : ""}`);
        if (wide !== null) return true;
      }
      return clock() < end && this.threats(Math.min(end, clock() + base * HARD.guardQuietShare))
        .quietWin(HARD.vcfDepth, HARD.oppVctDepth) !== null;
    } finally {
      fb.undo();
      this.lap("guardQuiet");
    }
  }

  done(q, phase) {
    this.stats.phase = phase;
    return q;
  }
}

/** Hard (see the module comment). Returns the cell; `stats` (optional object) receives the
 * alpha-beta's depth and nodes and the phase that chose. */
export function chooseHard(fb, budgetMs, rng, clock, stats = null) {
  const hard = new Hard(fb, budgetMs, rng, clock);
  const q = hard.choose();
  if (stats) Object.assign(stats, hard.stats);
  return q;
}

export const CHOOSERS = Object.freeze({ easy: chooseEasy, medium: chooseMedium, hard: chooseHard });
