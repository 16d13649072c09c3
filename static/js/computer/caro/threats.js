// Threat-space search on the search board: VCF and VCT by df-pn, and the quiet win one level above
// (bench/pybots/threats.py + nbthreats.py, ported once: the compiled search's nodes, with the Renju
// legality of the Python one).
//
// VCF (victory by continuous fours): the attacker plays only fours; the defender must block each,
// and the attacker wins when it has two winning cells at once (or a five). VCT (continuous
// threats) also allows open threes; the defender may then answer on any cell that stops the three
// (threeDefences, exact) or with fours of its own. Both are depth-first proof-number searches
// (df-pn) with a transposition table kept per rule set across searches and moves when `shared`.
// A result of null means "no win found", not "no win exists".
//
// Node semantics (the compiled search's, move for move):
// - attacker (OR) node: its five wins; facing a five-threat it plays the blocks after which it
//   still has a five-threat (VCT: or an open-four cell); else with depth left its fours (winning
//   shapes first, then by score) and, for a VCT with at least two moves left, its open threes
//   (only those that stop the defender's own open three when it has one; after the first attacker
//   move only within ZONE_REACH of its last two moves; the `threeWidth` best by shape);
// - defender (AND) node: its own five refutes; facing a five-threat it plays the blocks (none:
//   proven); facing an open three (VCT) every exact three defence and its own fours;
// - depth counts attacker moves; an attacker's block of a five-threat does not count.
// Renju: X may not play a foul, not even a forced block; X's foul open-four cells are no threat.
//
// The winning line of a proven root (findThreatWin, and the line the searches return): attacker
// and defender cells alternating, starting with the attacker's move; a final null means "no
// defence: any reply loses to a five".

import { XS } from "./rules.js";
import { FOUR, OPEN4, FIVE, THREE, rulesKey } from "./patterns.js";
import { Timeout, checkEvery, wallClock } from "./clock.js";
import { mulberry32 } from "../rng.js";

export const INF = 1e9; // proof / disproof number meaning "infinite"
export const THREE_WIDTH = 12; // open threes tried per attacker node, best shape first
export const ZONE_REACH = 4; // steps from the attacker's last two moves within which its threes are tried
export const TT_BITS = 19; // shared transposition table slots per rule set (both attackers): 2 ** bits
export const TT_FILL = 0.6; // a shared table is cleared when this part of it is filled
const PROBES = 8;
export const DFPN_STEPS = [4]; // VCT depth caps searched before the full one (iterative deepening)
export const MAXPLY = 160; // plies of one line (a deeper node counts as disproven, never stored)
export const MAXM = 192; // children of one node (more are dropped)
export const QUIET_WIDTH = 12; // quiet moves tried by quietWin, best shape first
export const QUIET_REPLIES = 14; // defender replies tried against each of them
export const QUIET_COUNTER_FOURS = 3; // defender counter-fours followed in a row
export const QUIET_NODES = 20000; // node cap of each VCF / VCT search inside quietWin
const WIN_SHAPE = 10000; // ordering bonus of a four that wins at once (open four or double four)
const FOUR_CLASSES = [FOUR, OPEN4];

const PROVEN = 1;
const DISPROVEN = 2;
const OPEN = 0;

/** df-pn transposition table: open addressing on two 32-bit key halves, `PROBES` slots a probe
 * run; pn / dn, and `dep` (for a disproof the depth it holds for, for a proof the depth it needs). */
export class ThreatTable {
  constructor(bits) {
    const n = 1 << bits;
    this.mask = n - 1;
    this.e = new Int32Array(4 * n); // per slot: key half 1, key half 2, pn, dn
    this.dep = new Int16Array(n);
    this.stored = 0;
    this.kids = new KidsCache(Math.max(10, bits - 2)); // the children lists of the nodes met
  }

  clear() {
    this.e.fill(0);
    this.stored = 0;
    this.kids.clear();
  }

  slot0(k1) {
    return k1 & this.mask; // (the keys are Zobrist hashes: their low bits are already uniform)
  }

  /** The slot of key (k1, k2), or -1. */
  get(k1, k2) {
    if (k1 === 0 && k2 === 0) k2 = 1;
    const e = this.e;
    let i = this.slot0(k1);
    for (let p = 0; p < PROBES; p++) {
      const a = e[4 * i];
      const b = e[4 * i + 1];
      if (a === k1 && b === k2) return i;
      if (a === 0 && b === 0) return -1;
      i = (i + 1) & this.mask;
    }
    return -1;
  }

  pn(i) {
    return this.e[4 * i + 2];
  }

  dn(i) {
    return this.e[4 * i + 3];
  }

  put(k1, k2, pn, dn, dep) {
    if (k1 === 0 && k2 === 0) k2 = 1;
    const e = this.e;
    let i = this.slot0(k1);
    let victim = -1;
    for (let p = 0; p < PROBES; p++) {
      const a = e[4 * i];
      const b = e[4 * i + 1];
      const empty = a === 0 && b === 0;
      if (empty || (a === k1 && b === k2)) {
        if (empty) this.stored++;
        victim = i;
        break;
      }
      if (victim < 0 && e[4 * i + 2] !== 0) victim = i; // a proof is never replaced
      i = (i + 1) & this.mask;
    }
    if (victim < 0) victim = this.slot0(k1);
    e[4 * victim] = k1;
    e[4 * victim + 1] = k2;
    e[4 * victim + 2] = pn;
    e[4 * victim + 3] = dn;
    this.dep[victim] = dep;
  }
}

/** The children lists of expanded df-pn nodes (see ThreatSearch.children): open addressing on two
 * 32-bit key halves; the lists themselves in one pool. Cleared when the table is over TT_FILL full
 * or the pool has no room. */
class KidsCache {
  constructor(bits) {
    const n = 1 << bits;
    this.mask = n - 1;
    this.k1 = new Int32Array(n);
    this.k2 = new Int32Array(n);
    this.kind = new Int8Array(n).fill(-1); // -1: empty slot
    this.count = new Int16Array(n);
    this.offset = new Int32Array(n);
    this.cells = new Int16Array(8 * n);
    this.init = new Int8Array(8 * n);
    this.used = 0;
    this.stored = 0;
  }

  clear() {
    this.kind.fill(-1);
    this.used = 0;
    this.stored = 0;
  }

  /** The slot of key (k1, k2), or -1. */
  find(k1, k2) {
    let i = k1 & this.mask;
    for (let p = 0; p < PROBES; p++) {
      if (this.kind[i] < 0) return -1;
      if (this.k1[i] === k1 && this.k2[i] === k2) return i;
      i = (i + 1) & this.mask;
    }
    return -1;
  }

  /** Keep a node's kind and its `n` children (cells from fm, starting pn from fpn, at `base`). */
  add(k1, k2, kind, n, fm, fpn, base) {
    if (this.stored > TT_FILL * (this.mask + 1) || this.used + n > this.cells.length) this.clear();
    let i = k1 & this.mask;
    for (let p = 0; p < PROBES && this.kind[i] >= 0; p++) i = (i + 1) & this.mask;
    if (this.kind[i] < 0) this.stored++;
    this.k1[i] = k1;
    this.k2[i] = k2;
    this.kind[i] = kind;
    this.count[i] = n;
    this.offset[i] = this.used;
    for (let j = 0; j < n; j++) {
      this.cells[this.used + j] = fm[base + j];
      this.init[this.used + j] = fpn[base + j];
    }
    this.used += n;
  }
}

const SHARED = new Map(); // rules key -> ThreatTable
const SIDE_KEYS = new Map();
const ZONES = new Map();

/** Keys folded into the table key, by side to move, for one search variant: VCF or VCT (a VCT
 * proof is no VCF), the threes' width and zone (a disproof holds for the moves that were tried),
 * and the attacker. [k1 of X, k2 of X, k1 of O, k2 of O]. */
function sideKeys(vct, width, reach, att) {
  const id = `${vct ? 1 : 0}/${width}/${reach}/${att}`;
  let keys = SIDE_KEYS.get(id);
  if (!keys) {
    let a = 20261202;
    for (const ch of id) a = Math.imul(a ^ ch.charCodeAt(0), 0x01000193);
    const next = mulberry32(a);
    keys = new Int32Array([0, 0, next(), next(), next(), next()]);
    SIDE_KEYS.set(id, keys);
  }
  return keys;
}

/** Zone of a three: zone[zr + offset] === 1 for the offsets (padded layout of row width `width`)
 * of the cells on the four lines through a cell within `reach` steps. */
function zoneArray(width, reach) {
  const id = `${width}/${reach}`;
  let z = ZONES.get(id);
  if (!z) {
    const zr = reach * (width + 1);
    const zone = new Uint8Array(2 * zr + 1);
    for (const step of [1, width, width + 1, 1 - width]) {
      for (let k = 1; k <= reach; k++) {
        zone[zr + k * step] = 1;
        zone[zr - k * step] = 1;
      }
    }
    z = { zone, zr };
    ZONES.set(id, z);
  }
  return z;
}

/** Whether side `s` has an open-four cell it may play (an open three that threatens). */
function hasLegalOpen4(fb, s) {
  const n = fb.count(s, OPEN4);
  if (n === 0) return false;
  if (!(s === XS && fb.renju)) return true;
  const cells = fb.setCells;
  for (let i = (s * 8 + OPEN4) * fb.NC, end = i + n; i < end; i++) if (!fb.isFoul(cells[i])) return true;
  return false;
}

/**
 * Every cell where the side not `a` stops all of `a`'s open-four cells with one stone (the full
 * defence set against an open three, or two; empty when none stops them all). Exact for each
 * line: a defender stone at offset o from an open-four cell t changes t's window on that line
 * only, so its new class is the rule-aware pattern table's verdict on the key with that stone
 * added. A cell that is an open four on two lines is stopped only by a stone on it. Renju: X's
 * foul open-four cells are no threat.
 */
export function threeDefences(fb, a) {
  const { NC, H, cells, codes, keys, pat } = fb;
  const shift = a === XS ? 0 : 3;
  const d = 3 - a;
  const steps = fb.geo.steps;
  const renjuX = a === XS && fb.renju;
  const n4 = fb.count(a, OPEN4);
  if (TD.threat.length < n4) {
    TD.threat = new Int32Array(2 * n4);
    TD.dir = new Int32Array(2 * n4);
  }
  const { threat, dir } = TD;
  let nt = 0;
  for (let i = (a * 8 + OPEN4) * NC, end = i + n4; i < end; i++) {
    const t = fb.setCells[i];
    if (renjuX && fb.isFoul(t)) continue;
    let k = -1;
    let nd = 0;
    for (let e = 0; e < 4; e++) {
      if (((codes[e * NC + t] >> shift) & 7) === OPEN4) {
        nd++;
        k = e;
      }
    }
    threat[nt] = t;
    dir[nt] = nd === 1 ? k : -1; // an open four on two lines: only a stone on the cell stops it
    nt++;
  }
  if (nt === 0) return [];
  // the cells that stop the first threat: the cell itself and the empty cells on its line
  let cand = [threat[0]];
  if (dir[0] >= 0) {
    const step = steps[dir[0]];
    for (let sgn = -1; sgn <= 1; sgn += 2) {
      let q = threat[0];
      for (let off = 1; off <= H; off++) {
        q += sgn * step;
        if (q < 0 || cells[q] === 3) break;
        if (cells[q] === 0) cand.push(q);
      }
    }
  }
  const out = [];
  for (const z of cand) {
    let ok = true;
    for (let i = 0; i < nt && ok; i++) {
      const t = threat[i];
      if (z === t) continue;
      if (dir[i] < 0) {
        ok = false;
        break;
      }
      const off = lineOffset(fb, t, steps[dir[i]], z, H);
      if (off === 0) {
        ok = false; // not on this threat's line: it does not stop it
        break;
      }
      const wkey = keys[dir[i] * NC + t] | (d << (2 * (H + off)));
      if (((pat.code(wkey) >> shift) & 7) >= OPEN4) ok = false;
    }
    if (ok) out.push(z);
  }
  return out;
}

const TD = { threat: new Int32Array(64), dir: new Int32Array(64) }; // threeDefences' scratch

/** The signed offset (in steps of `step`) of cell `z` from `t` on their line, within `H` cells and
 * not beyond the edge; 0 when `z` is not there. */
function lineOffset(fb, t, step, z, H) {
  const cells = fb.cells;
  for (let sgn = -1; sgn <= 1; sgn += 2) {
    let q = t;
    for (let off = 1; off <= H; off++) {
      q += sgn * step;
      if (q < 0 || cells[q] === 3) break;
      if (q === z) return sgn * off;
    }
  }
  return 0;
}

let scratchBusy = false;
let scratch = null;

function newScratch() {
  return {
    fm: new Int16Array(MAXPLY * MAXM),
    fpn: new Int32Array(MAXPLY * MAXM),
    fdn: new Int32Array(MAXPLY * MAXM),
    fpd: new Int32Array(MAXPLY * MAXM),
    kbuf: new Float64Array(MAXM),
  };
}

/** Sort fm[lo:hi) by (kbuf, cell) ascending (insertion sort: the lists are short). */
function sortByKey(fm, base, kbuf, lo, hi) {
  for (let i = lo + 1; i < hi; i++) {
    const m = fm[base + i];
    const k = kbuf[i];
    let j = i - 1;
    while (j >= lo && (kbuf[j] > k || (kbuf[j] === k && fm[base + j] > m))) {
      fm[base + j + 1] = fm[base + j];
      kbuf[j + 1] = kbuf[j];
      j--;
    }
    fm[base + j + 1] = m;
    kbuf[j + 1] = k;
  }
}

/**
 * VCF / VCT searcher bound to one board and one deadline. Options: `deadline` (ms of `clock`),
 * `clock` (ms function, default wall clock), `maxNodes` (node cap of one search, default
 * 200,000), `minNodes` (nodes searched before the deadline is looked at), `shared` (the rule
 * set's table is kept across searches and moves; else a fresh small one), `threeWidth` (open
 * threes per attacker node), `zone` (false: threes anywhere, a wider, slower search), `tableBits`
 * (an unshared table's size, 2 ** bits slots; default: from maxNodes).
 */
export class ThreatSearch {
  constructor(fb, { deadline = Infinity, clock = wallClock, maxNodes = 200000, minNodes = 0, shared = false,
    threeWidth = THREE_WIDTH, zone = true, tableBits = 0 } = {}) {
    this.fb = fb;
    this.tableBits = tableBits;
    this.deadline = deadline;
    this.clock = clock;
    this.maxNodes = maxNodes;
    this.minNodes = minNodes;
    this.shared = shared;
    this.threeWidth = threeWidth;
    this.zoneReach = zone ? ZONE_REACH : null;
    this.nodes = 0;
    this.checkEvery = checkEvery(clock); // nodes between two reads of the clock
    this.nextCheck = this.checkEvery;
    this.completed = 0; // the deepest iteration searched in full without a win
    this.timedOut = false; // set when a search stopped at the deadline or node cap
    this.proofNumber = 0; // the root's proof number when the search stopped
    this.path = []; // the attacker's moves on the current line (for the zone)
    this.stack = []; // every stone the search has on the board (taken back on a timeout)
  }

  table() {
    if (this.shared) {
      const key = rulesKey(this.fb.rules);
      let t = SHARED.get(key);
      if (!t) {
        t = new ThreatTable(TT_BITS);
        SHARED.set(key, t);
      }
      if (t.stored > TT_FILL * (t.mask + 1)) t.clear();
      return t;
    }
    if (!this.ownTable) {
      let bits = this.tableBits || 12;
      while (!this.tableBits && bits < 18 && (1 << bits) < this.maxNodes * 4) bits++;
      this.ownTable = new ThreatTable(bits);
    }
    return this.ownTable;
  }

  // -- public ---------------------------------------------------------------------------------

  /** A VCF for the side to move, or null: the main line (see the module comment). `depth` counts
   * attacker moves; deepened one attacker move at a time, so the line is a shortest one. */
  vcf(depth = 12) {
    return this.dfpn(depth, false);
  }

  /** A VCT for the side to move (fours and open threes), or null. `depth` counts attacker moves. */
  vct(depth = 8) {
    return this.dfpn(depth, true);
  }

  dfpn(depth, vct) {
    const fb = this.fb;
    this.att = fb.turn;
    this.vctMode = vct;
    this.tt = this.table();
    const reach = this.zoneReach;
    this.sk = sideKeys(vct, this.threeWidth, reach === null ? -1 : reach, this.att);
    if (reach !== null) {
      const z = zoneArray(fb.geo.W, reach);
      this.zone = z.zone;
      this.zr = z.zr;
    } else {
      this.zone = null;
      this.zr = -1;
    }
    this.proofNumber = 0;
    let steps = [];
    if (!vct) {
      for (let d = 1; d < depth; d++) steps.push(d);
      const known = this.proofNeed(fb.h1, fb.h2, this.att);
      if (known !== null && known <= depth) steps = steps.filter((d) => d >= known);
    } else {
      steps = DFPN_STEPS.filter((d) => d < depth);
    }
    steps.push(depth);
    const own = !scratchBusy;
    const s = own ? (scratch ||= newScratch()) : newScratch();
    if (own) scratchBusy = true;
    this.s = s;
    try {
      for (const d of steps) {
        this.node(0, INF, INF, d);
        if (this.rpn === 0) return this.proofLine();
      }
    } catch (e) {
      if (!(e instanceof Timeout)) throw e;
      while (this.stack.length) fb.remove(this.stack.pop());
      this.path.length = 0;
      this.timedOut = true;
      return null;
    } finally {
      if (own) scratchBusy = false;
    }
    this.completed = depth;
    return null;
  }

  tick() {
    this.nodes++;
    if (this.nodes > this.maxNodes) throw new Timeout();
    if (this.nodes >= this.nextCheck) {
      this.nextCheck = this.nodes + this.checkEvery;
      if (this.nodes > this.minNodes && this.clock() > this.deadline) throw new Timeout();
    }
  }

  /** The depth a stored proof of the position (h1, h2), `side` to move, needs; null if none. */
  proofNeed(h1, h2, side) {
    const sk = this.sk;
    const i = this.tt.get(h1 ^ sk[2 * side], h2 ^ sk[2 * side + 1]);
    return i >= 0 && this.tt.pn(i) === 0 ? this.tt.dep[i] : null;
  }

  /** The children of the node to move at `ply` (`depth` attacker moves left) into the scratch lists,
   * with their starting pn/dn: returns OPEN (and sets this.nkids), PROVEN or DISPROVEN. Read from
   * the cache of children lists when the node was expanded before (as threats.py's `kids`: the
   * list depends on the position, the side to move, the depth class, the attacker's last two moves
   * (the zone of its threes) and the search variant), else computed (expand) and kept. */
  children(ply, me, depth) {
    const fb = this.fb;
    const kids = this.tt.kids;
    const dcls = depth < 2 ? depth : 2;
    let salt = Math.imul(dcls + 1, 0x2545f491);
    if (me === this.att && this.zone !== null) {
      const path = this.path;
      const n = path.length;
      if (n > 0) salt ^= Math.imul(path[n - 1] + 1, 0x9e3779b1);
      if (n > 1) salt ^= Math.imul(path[n - 2] + 1, 0x85ebca6b);
    }
    const k1 = fb.h1 ^ this.sk[2 * me] ^ salt;
    const k2 = fb.h2 ^ this.sk[2 * me + 1] ^ Math.imul(salt, 0x27d4eb2f);
    const base = ply * MAXM;
    const { fm, fpn, fdn } = this.s;
    const hit = kids.find(k1, k2);
    if (hit >= 0) {
      const kind = kids.kind[hit];
      if (kind === OPEN) {
        const n = kids.count[hit];
        const off = kids.offset[hit];
        for (let i = 0; i < n; i++) {
          fm[base + i] = kids.cells[off + i];
          fpn[base + i] = kids.init[off + i];
          fdn[base + i] = 1;
        }
        this.nkids = n;
      }
      return kind;
    }
    const kind = this.expand(ply, me, depth);
    kids.add(k1, k2, kind, kind === OPEN ? this.nkids : 0, fm, fpn, base);
    return kind;
  }

  /** Child `q` (starting pn = dn = 1) at index `n` of the list at `base`; the new count (MAXM at most). */
  pushKid(base, n, q) {
    if (n >= MAXM) return n;
    this.s.fm[base + n] = q;
    this.s.fpn[base + n] = 1;
    this.s.fdn[base + n] = 1;
    return n + 1;
  }

  expand(ply, me, depth) {
    const fb = this.fb;
    const { fm, fpn, fdn, kbuf } = this.s;
    const base = ply * MAXM;
    const att = this.att;
    const opp = 3 - me;
    const NC = fb.NC;
    const score = fb.score;
    const vct = this.vctMode;
    let n = 0;
    if (me === att) {
      if (fb.count(me, FIVE) > 0) return PROVEN;
      if (fb.count(opp, FIVE) > 0) {
        for (const z of fb.defences(opp)) {
          if (!fb.legal(z, me)) continue;
          fb.put(z, me);
          const keep = fb.count(me, FIVE) > 0 || (vct && hasLegalOpen4(fb, me));
          fb.remove(z);
          if (keep) n = this.pushKid(base, n, z);
        }
        this.nkids = n;
        return n ? OPEN : DISPROVEN;
      }
      if (depth <= 0) return DISPROVEN;
      // fours: (FOUR | OPEN4) - FIVE, legal; winning shapes (open four, double four) first
      const cnt = fb.cnt;
      const setCells = fb.setCells;
      const o4 = (me * 8 + FOUR) * NC;
      const o5 = (me * 8 + OPEN4) * NC;
      const o6 = (me * 8 + FIVE) * NC;
      const renjuMe = me === XS && fb.renju;
      for (const k of FOUR_CLASSES) {
        const sk = me * 8 + k;
        for (let i = sk * NC, end = i + fb.setLen[sk]; i < end && n < MAXM; i++) {
          const c = setCells[i];
          if (cnt[o6 + c] > 0 || (k === OPEN4 && cnt[o4 + c] > 0)) continue;
          if (renjuMe && fb.isFoul(c)) continue;
          fm[base + n] = c;
          const win = cnt[o5 + c] > 0 || cnt[o4 + c] + cnt[o5 + c] > 1 ? 1 : 0;
          kbuf[n] = -(score[me * NC + c] + WIN_SHAPE * win);
          n++;
        }
      }
      sortByKey(fm, base, kbuf, 0, n);
      for (let i = 0; i < n; i++) {
        fpn[base + i] = 1;
        fdn[base + i] = 1;
      }
      if (vct && depth > 1) {
        // open threes: THREE - FOUR - OPEN4 - FIVE, legal
        const stops = hasLegalOpen4(fb, opp) ? threeDefences(fb, opp) : null;
        const path = this.path;
        const plen = path.length;
        const sk3 = me * 8 + THREE;
        let n3 = n;
        for (let i = sk3 * NC, end = i + fb.setLen[sk3]; i < end; i++) {
          const c = setCells[i];
          if (cnt[o4 + c] > 0 || cnt[o5 + c] > 0 || cnt[o6 + c] > 0) continue;
          if (renjuMe && fb.isFoul(c)) continue;
          // the defender has an open three of its own: a three that does not stop it is
          // answered by an open four
          if (stops !== null && !stops.includes(c)) continue;
          if (plen > 0 && this.zone !== null) {
            let near = false;
            for (let j = Math.max(0, plen - 2); j < plen; j++) {
              const off = c - path[j];
              if (off >= -this.zr && off <= this.zr && this.zone[off + this.zr]) {
                near = true;
                break;
              }
            }
            if (!near) continue;
          }
          if (n3 < MAXM) {
            fm[base + n3] = c;
            kbuf[n3] = -(score[me * NC + c] * 2 + score[opp * NC + c]);
            n3++;
          }
        }
        sortByKey(fm, base, kbuf, n, n3);
        if (n3 - n > this.threeWidth) n3 = n + this.threeWidth;
        for (let i = n; i < n3; i++) {
          fpn[base + i] = 3;
          fdn[base + i] = 1;
        }
        n = n3;
      }
      this.nkids = n;
      return n ? OPEN : DISPROVEN;
    }
    const a = opp;
    if (fb.count(me, FIVE) > 0) return DISPROVEN;
    if (fb.count(a, FIVE) > 0) {
      for (const z of fb.defences(a)) if (fb.legal(z, me)) n = this.pushKid(base, n, z);
      this.nkids = n;
      return n ? OPEN : PROVEN;
    }
    if (!vct || depth <= 0 || !hasLegalOpen4(fb, a)) return DISPROVEN;
    const defs = threeDefences(fb, a);
    for (const c of defs) {
      if (n < MAXM && fb.legal(c, me)) {
        fm[base + n] = c;
        kbuf[n] = (fb.has(a, OPEN4, c) ? 0 : 1e7) - score[me * NC + c];
        n++;
      }
    }
    sortByKey(fm, base, kbuf, 0, n);
    const fours = fb.fourMoves(me).filter((c) => !defs.includes(c)).sort((p, q) => p - q);
    for (const c of fours) {
      if (n < MAXM) fm[base + n++] = c;
    }
    for (let i = 0; i < n; i++) {
      fpn[base + i] = 1;
      fdn[base + i] = 1;
    }
    this.nkids = n;
    return n ? OPEN : PROVEN;
  }

  /** df-pn's multiple iterative deepening at the node to move (`ply` below the root, `dep`
   * attacker moves left): search until its proof number reaches `thpn` or its disproof number
   * `thdn`. Leaves (pn, dn, the depth a proof needs) in this.rpn / rdn / rpd, stored. */
  node(ply, thpn, thdn, dep) {
    this.tick();
    const fb = this.fb;
    const att = this.att;
    const me = ply % 2 === 0 ? att : 3 - att;
    const other = 3 - me;
    const isOr = me === att;
    const sk = this.sk;
    const tt = this.tt;
    const k1 = fb.h1 ^ sk[2 * me];
    const k2 = fb.h2 ^ sk[2 * me + 1];
    if (ply >= MAXPLY - 1) {
      this.rpn = INF;
      this.rdn = 0;
      return;
    }
    const kind = this.children(ply, me, dep);
    if (kind === PROVEN) {
      // the depth it needs: none for a five or an unstoppable five-threat, one more attacker
      // move against threes that nothing stops
      this.rpn = 0;
      this.rdn = INF;
      this.rpd = isOr || fb.count(att, FIVE) > 0 ? 0 : 1;
      tt.put(k1, k2, 0, INF, this.rpd);
      return;
    }
    if (kind === DISPROVEN) {
      this.rpn = INF;
      this.rdn = 0;
      tt.put(k1, k2, INF, 0, dep);
      return;
    }
    const n = this.nkids;
    const { fm, fpn, fdn, fpd } = this.s;
    const base = ply * MAXM;
    const cdep = isOr && fb.count(other, FIVE) === 0 ? dep - 1 : dep;
    const strict = !this.vctMode; // a VCF takes a proof only when it needs no more depth than is left
    const z1 = fb.z1;
    const z2 = fb.z2;
    const NC = fb.NC;
    const o1 = sk[2 * other];
    const o2 = sk[2 * other + 1];
    for (let j = 0; j < n; j++) {
      const q = fm[base + j];
      const e = tt.get(fb.h1 ^ z1[me * NC + q] ^ o1, fb.h2 ^ z2[me * NC + q] ^ o2);
      if (e < 0) continue; // the starting numbers the children list gave
      if (tt.pn(e) === 0) {
        if (strict && tt.dep[e] > cdep) {
          fpn[base + j] = 1;
          fdn[base + j] = 1;
        } else {
          fpn[base + j] = 0;
          fdn[base + j] = INF;
          fpd[base + j] = tt.dep[e];
        }
      } else if (tt.dn(e) === 0) {
        if (tt.dep[e] >= cdep) {
          fpn[base + j] = INF;
          fdn[base + j] = 0;
        } else {
          fpn[base + j] = 1;
          fdn[base + j] = 1;
        }
      } else {
        fpn[base + j] = tt.pn(e);
        fdn[base + j] = tt.dn(e);
      }
    }
    for (;;) {
      // phi / delta: the node's own numbers as the side to move sees them (an OR node's proof and
      // disproof numbers, an AND node's the other way round)
      const fphi = isOr ? fpn : fdn;
      const fdelta = isOr ? fdn : fpn;
      const thPhi = isOr ? thpn : thdn;
      const thDelta = isOr ? thdn : thpn;
      let phi = INF + 1;
      let delta = 0;
      let best = 0;
      for (let j = 0; j < n; j++) {
        if (fphi[base + j] < phi) {
          phi = fphi[base + j];
          best = j;
        }
        delta += fdelta[base + j];
      }
      if (delta > INF) delta = INF;
      const stop = phi >= thPhi || delta >= thDelta;
      let cthPhi = 0;
      let cthDelta = 0;
      if (!stop) {
        let second = INF;
        for (let j = 0; j < n; j++) if (j !== best && fphi[base + j] < second) second = fphi[base + j];
        cthPhi = Math.min(thPhi, second + 1 + Math.floor(second / 4));
        cthDelta = Math.min(INF, thDelta - delta + fdelta[base + best]);
      }
      const pn = isOr ? phi : delta;
      const dn = isOr ? delta : phi;
      const cthPn = isOr ? cthPhi : cthDelta;
      const cthDn = isOr ? cthDelta : cthPhi;
      if (ply === 0) this.proofNumber = pn;
      if (stop) {
        this.rpn = pn;
        this.rdn = dn;
        if (pn === 0) {
          // a proof stores the depth it needs (an OR node: its best proven child's, plus the
          // move when it counts; an AND node: its worst child's)
          let rpd;
          if (isOr) {
            rpd = INF;
            for (let j = 0; j < n; j++) if (fpn[base + j] === 0 && fpd[base + j] < rpd) rpd = fpd[base + j];
            rpd += dep - cdep;
          } else {
            rpd = 0;
            for (let j = 0; j < n; j++) if (fpd[base + j] > rpd) rpd = fpd[base + j];
          }
          this.rpd = rpd;
          tt.put(k1, k2, pn, dn, rpd);
        } else {
          tt.put(k1, k2, pn, dn, dep);
        }
        return;
      }
      const q = fm[base + best];
      fb.put(q, me);
      this.stack.push(q);
      if (isOr) this.path.push(q);
      this.rpd = 0;
      this.node(ply + 1, cthPn, cthDn, cdep);
      if (isOr) this.path.pop();
      this.stack.pop();
      fb.remove(q);
      fpn[base + best] = this.rpn;
      fdn[base + best] = this.rdn;
      fpd[base + best] = this.rpd;
    }
  }

  /** The main line of the proven root, read from the proofs in the table. */
  proofLine() {
    const fb = this.fb;
    const line = [];
    let played = 0;
    const savedTurn = fb.turn;
    const sk = this.sk;
    const NC = fb.NC;
    try {
      let ply = 0;
      while (line.length < 80) {
        const me = ply % 2 === 0 ? this.att : 3 - this.att;
        if (me === this.att && fb.count(me, FIVE) > 0) {
          line.push(fb.first(me, FIVE));
          break;
        }
        const kind = this.children(0, me, 99);
        if (kind === PROVEN) {
          line.push(null);
          break;
        }
        if (kind !== OPEN) break;
        const n = this.nkids;
        const fm = this.s.fm;
        let pick = -1;
        if (me === this.att) {
          let need = INF;
          for (let j = 0; j < n; j++) {
            const q = fm[j];
            const i = this.tt.get(fb.h1 ^ fb.z1[me * NC + q] ^ sk[2 * (3 - me)],
              fb.h2 ^ fb.z2[me * NC + q] ^ sk[2 * (3 - me) + 1]);
            if (i >= 0 && this.tt.pn(i) === 0 && this.tt.dep[i] < need) {
              need = this.tt.dep[i];
              pick = q;
            }
          }
        } else {
          pick = n ? fm[0] : -1;
        }
        if (pick < 0) break;
        line.push(pick);
        if (me === this.att) this.path.push(pick);
        fb.put(pick, me);
        this.stack.push(pick);
        played++;
        ply++;
      }
    } finally {
      for (let k = 0; k < played; k++) fb.remove(this.stack.pop());
      this.path.length = 0;
      fb.turn = savedTurn;
    }
    return line.length ? line : null;
  }

  // -- the quiet win ---------------------------------------------------------------------------

  /**
   * A quiet move (neither a four nor an open three) of the side to move after which it threatens a
   * VCF or VCT that none of the defender's likely replies stops, or null (none found, or the
   * deadline passed). Tried: the `width` best quiet cells by both sides' shape. Against each, the
   * defender's replies are the empty cells of the threat's main line, its fours and its open
   * threes (`replies` of them, in that order); a four is blocked (every block tried) and the
   * defender replies again, up to QUIET_COUNTER_FOURS times; any other reply must leave the
   * attacker a VCF or VCT. A heuristic, not a proof: replies outside that set are not tried.
   */
  quietWin(vcfDepth = 16, vctDepth = 10, width = QUIET_WIDTH, replies = QUIET_REPLIES) {
    const fb = this.fb;
    const att = fb.turn;
    const d = 3 - att;
    const NC = fb.NC;
    const tactical = new Set([...fb.fourMoves(att), ...fb.threeMoves(att)]);
    const cells = fb.candidates().filter((q) => fb.cells[q] === 0 && !tactical.has(q) && fb.legal(q, att));
    const key = (q) => fb.score[att * NC + q] * 10 + fb.score[d * NC + q] * 9;
    cells.sort((p, q) => key(q) - key(p) || p - q);
    this.quiet = { att, vcfDepth, vctDepth, replies };
    let playedHere = 0;
    try {
      for (const m of cells.slice(0, width)) {
        fb.play(m);
        playedHere++;
        const held = this.quietHeld(QUIET_COUNTER_FOURS);
        fb.undo();
        playedHere--;
        if (!held) return m;
      }
    } catch (e) {
      if (!(e instanceof Timeout)) throw e;
      while (playedHere-- > 0) fb.undo();
      this.timedOut = true;
    }
    return null;
  }

  /** The quiet-win attacker's VCF or VCT from here with it to move (null: none found). */
  quietThreat() {
    const { vcfDepth, vctDepth } = this.quiet;
    if (this.clock() > this.deadline) throw new Timeout();
    const ts = new ThreatSearch(this.fb, {
      deadline: this.deadline, clock: this.clock, maxNodes: QUIET_NODES, shared: this.shared,
      threeWidth: this.threeWidth, zone: this.zoneReach !== null,
    });
    const line = ts.vcf(vcfDepth) || ts.vct(vctDepth);
    this.nodes += ts.nodes;
    if (line === null && ts.timedOut && this.clock() > this.deadline) throw new Timeout();
    return line;
  }

  /** The defender (to move) has a reply, among the likely ones, after which the attacker has no
   * VCF / VCT (or the attacker has no threat at all). Leaves the board as it found it, also when
   * it throws Timeout. */
  quietHeld(foursLeft) {
    const fb = this.fb;
    const { att, replies: width } = this.quiet;
    const d = fb.turn;
    const NC = fb.NC;
    fb.turn = att; // the attacker's threat: its sequence if it moved again
    let line;
    try {
      line = this.quietThreat();
    } finally {
      fb.turn = d;
    }
    if (line === null) return true;
    const sd = (q) => fb.score[d * NC + q];
    const order = line.filter((c) => c !== null && fb.cells[c] === 0);
    order.push(...fb.fourMoves(d).sort((p, q) => sd(q) - sd(p) || p - q));
    order.push(...fb.threeMoves(d).sort((p, q) => sd(q) - sd(p) || p - q));
    const tried = [];
    for (const c of order) if (!tried.includes(c) && fb.legal(c, d)) tried.push(c);
    for (const r of tried.slice(0, width)) {
      fb.play(r);
      try {
        if (fb.count(d, FIVE) > 0) { // a counter-four: the attacker blocks, the defender goes on
          if (foursLeft <= 0) continue;
          const blocks = fb.defences(d).filter((z) => fb.legal(z, att));
          let held = true;
          for (const z of blocks) {
            fb.play(z);
            try {
              held = this.quietHeld(foursLeft - 1);
            } finally {
              fb.undo();
            }
            if (!held) break;
          }
          if (held) return true;
        } else if (this.quietThreat() === null) {
          return true;
        }
      } finally {
        fb.undo();
      }
    }
    return false;
  }
}

/**
 * Whether the side to move on `fb` has a forced win by threats, and its line: the analysis entry
 * point (issue 29) and what Hard's own searches use. Options: `vct` (false: fours only, a VCF),
 * `depth` (attacker moves, default 16 for a VCF and 12 for a VCT), `maxNodes`, `deadline` /
 * `clock` (ms), `zone` (false: threes anywhere). Returns {line, nodes, timedOut}: `line` the
 * winning line (cells, see the module comment) or null when none was found.
 */
export function findThreatWin(fb, { vct = false, depth, maxNodes = 200000, deadline = Infinity, clock = wallClock,
  zone = true } = {}) {
  const ts = new ThreatSearch(fb, { deadline, clock, maxNodes, zone });
  const line = vct ? ts.vcf(depth ?? 16) || ts.vct(depth ?? 12) : ts.vcf(depth ?? 16);
  return { line, nodes: ts.nodes, timedOut: ts.timedOut };
}
