"""Threat-space search on a :class:`~bench.pybots.fastboard.FastBoard`: VCF and VCT.

VCF (victory by continuous fours): the attacker plays only fours; the defender must block each
one, and the attacker wins when it gets two winning cells at once (or a five). VCT (victory by
continuous threats) also allows open threes; the defender then may answer on any cell that stops
the three (:func:`three_defences`, exact) or with fours of its own. VCF is a depth-first AND-OR
search (fours are few); VCT is a depth-first proof-number search (df-pn, :meth:`ThreatSearch.dfpn`)
with a transposition table kept per rule set across searches. Both have a node budget and a
deadline; a result of ``None`` means "no win found" (not "no win exists").

Compiled: for every rule set but Renju, the shared searches (Hard's) run the df-pn in
:mod:`.nbthreats` (numba) over the compiled board state, ~10x the nodes per second: the VCT
searches the same tree as :meth:`ThreatSearch.dfpn` here (ties ordered by cell in both), the VCF
is the same df-pn with fours only, deepened one attacker move at a time (so its line is a
shortest one). The Python driver calls the kernel in node chunks and reads the clock
(``time.perf_counter``) between them, and classifies the windows the kernel reports missing.
Renju, and unshared searches unless asked (``compiled=True``), stay in Python.

Soundness notes: fours, fives and blocks are judged by the rule-aware pattern table, so blocked
ends, exact five and Renju (X may not play a foul, not even a forced block; X's foul open-four
cells are no threat, so O may leave them) are honoured. Against a five-threat the defender's
replies are the blocks (:meth:`FastBoard.defences`); against an open three every cell that
leaves the attacker no open-four cell, plus the defender's fours (each must then be blocked, and
the attacker goes on only if its threat still stands). Pruning (incomplete, never unsound): after
the first attacker move, open threes are tried only on the lines through the attacker's last
two moves (within :data:`ZONE_REACH` cells), at most :data:`THREE_WIDTH` per node, best shape first; moves
that are neither fours nor open threes (a quiet move preparing a double four) are not tried.
"""
from __future__ import annotations

import time

import numpy as np

from . import nbthreats
from .fastboard import FIVE, FOUR, OPEN4, FastBoard


INF = 10 ** 9  # proof / disproof number meaning "infinite"
UNLIMITED = 99  # "threes left" meaning no limit but the depth
THREE_WIDTH = 12  # open threes tried per attacker node, best shape first
ZONE_REACH = 4  # steps from the attacker's last two moves within which its threes are tried (None: anywhere)
COMPILED = True  # df-pn VCF / VCT of shared (Hard's) searches in the compiled kernel (not Renju)
NB_TT_BITS = 19  # compiled transposition table slots per rule set (both attackers): 2 ** bits
NB_TT_BITS_UNSHARED = 18  # the same for an unshared search (a fresh table each search)
NB_FIRST_CHUNK, NB_MAX_CHUNK = 256, 4096  # compiled search nodes per kernel call (clock read between)
DFPN_STEPS = (4,)  # depth caps searched before the full one (iterative deepening of df-pn)
QUIET_WIDTH = 12  # quiet moves tried by ThreatSearch.quiet_win, best shape first
QUIET_REPLIES = 14  # defender replies tried against each of them
QUIET_COUNTER_FOURS = 3  # defender counter-fours followed in a row (each blocked, then it replies again)
QUIET_NODES = 20000  # node cap of each VCF / VCT search inside quiet_win
TT_LIMIT = 400000  # df-pn table entries kept per rule set and attacker (cleared when over)
KIDS_LIMIT = 100000  # df-pn children lists kept per rule set and attacker
_ZONES: dict[tuple[int, int], frozenset[int]] = {}


def zone_offsets(width: int, reach: int = ZONE_REACH) -> frozenset[int]:
    """Index offsets (padded layout of row width ``width``) of the cells on the four lines
    through a cell within ``reach`` steps: where a follow-up threat of a threat sequence lies."""
    hit = _ZONES.get((width, reach))
    if hit is None:
        steps = (1, width, width + 1, 1 - width)
        hit = _ZONES[(width, reach)] = frozenset(sgn * k * s for s in steps for k in range(1, reach + 1)
                                                 for sgn in (1, -1))
    return hit


def _line_offsets(fb: FastBoard, t: int, k: int) -> dict[int, int]:
    """Empty cells on line ``k`` (index into the board's steps) through ``t`` within the window
    reach ``H``: cell -> signed offset in steps from ``t``."""
    cells = fb.cells
    out = {}
    H = fb.pat.H
    step = fb.geo.steps[k]
    for sgn in (1, -1):
        q = t
        for off in range(1, H + 1):
            q += sgn * step
            if q < 0 or cells[q] == 3:
                break
            if cells[q] == 0:
                out[q] = sgn * off
    return out


def three_defences(fb: FastBoard, a: int) -> list[int]:
    """Every cell where the side not ``a`` stops all of ``a``'s open-four cells with one stone
    (the full defence set against an open three, or two: empty when none stops them all).

    Exact for each line: a defender stone at offset ``o`` from an open-four cell ``t`` changes
    ``t``'s window key on that line only, so the cell's new class is the rule-aware pattern
    table's verdict on the key with that stone added (far and broken-three cost squares,
    blocked ends and exact five included). A cell that is an open four on two lines is stopped
    only by a stone on it. Renju: X's foul open-four cells are no threat (X may not play them).
    Cached per position in the rule set's table."""
    cache = _defence_cache(fb)
    key = (fb.hash, a)
    hit = cache.get(key)
    if hit is not None:
        return list(hit)
    shift = 0 if a == 1 else 3
    d = 3 - a
    threats = [t for t in fb.sets[a][OPEN4] if fb.legal(t, a)]
    st, nc = fb._st, fb.geo.NC
    o_keys = fb.geo.layout["keys"]
    H = fb.pat.H
    memo = fb.pat.memo
    code_of = fb.pat.code
    codes = fb.codes
    cand: set[int] | None = None
    info = []
    for t in threats:
        dirs = [k for k in range(4) if (codes[k][t] >> shift) & 7 == OPEN4]
        if len(dirs) == 1:
            lines = _line_offsets(fb, t, dirs[0])
            mine = set(lines)
            mine.add(t)
        else:  # open four on two lines: only a stone on the cell itself stops it
            lines = {}
            mine = {t}
        info.append((t, dirs, lines))
        cand = mine if cand is None else cand & mine
        if not cand:
            break
    out = []
    for z in cand or ():
        ok = True
        for t, dirs, lines in info:
            if z == t:
                continue
            if len(dirs) != 1:
                ok = False
                break
            k = dirs[0]
            off = lines[z]
            wkey = int(st[o_keys + k * nc + t]) | (d << (2 * (H + off)))
            c = memo.get(wkey)
            if c is None:
                c = code_of(wkey)
            if (c >> shift) & 7 >= OPEN4:
                ok = False
                break
        if ok:
            out.append(z)
    if len(cache) > 400000:
        cache.clear()
    cache[key] = tuple(out)
    return out


_DEF_CACHES: dict = {}
# df-pn tables per rule set: transposition tables of attacker X and O, children lists of X and O
_DFPN_TABLES: dict = {}


def _defence_cache(fb: FastBoard) -> dict:
    table = _DEF_CACHES.get(fb.rules)
    if table is None:
        table = _DEF_CACHES[fb.rules] = {}
    return table


_NB_TABLES: dict = {}  # compiled df-pn transposition table per rule set (see nbthreats.new_table)
_NB_CONTEXTS: dict = {}


def _int64(h: int) -> int:
    """A 64-bit Zobrist hash (Python int, 0 .. 2**64 - 1) as the compiled kernel's int64."""
    return h - (1 << 64) if h >= 1 << 63 else h


def _nb_context(fb: FastBoard) -> dict:
    """The compiled search's per-rule-set inputs: real cells, Zobrist keys, side keys, rules."""
    ctx = _NB_CONTEXTS.get(fb.rules)
    if ctx is None:
        g = fb.geo
        zob = np.array(fb.zob, dtype=np.uint64).view(np.int64)
        ctx = _NB_CONTEXTS[fb.rules] = {
            "reals": np.array(g.reals, dtype=np.int64), "zob": np.ascontiguousarray(zob),
            "sidekeys": {},
            "blocked": 0 if fb.rules.blocked == "none" else 1, "L": fb.rules.win_length, "zones": {},
            "W": g.W,
        }
    return ctx


def _sidekeys(ctx: dict, vct: bool, width: int, reach: int | None, att: int) -> np.ndarray:
    """Keys folded into the compiled table's key, by side to move (index 1, 2), for one search
    variant: VCF or VCT (a VCT proof is no VCF, a VCF disproof no VCT disproof), the threes'
    width and zone (a disproof holds for the moves that were tried), and the attacker."""
    variant = (int(vct), width, -1 if reach is None else reach, att)
    hit = ctx["sidekeys"].get(variant)
    if hit is None:
        rnd = np.random.default_rng([20261202, variant[0], variant[1], variant[2] + 1, variant[3]])
        hit = ctx["sidekeys"][variant] = rnd.integers(1, 2 ** 62, size=3, dtype=np.int64)
    return hit


def _zone_array(ctx: dict, reach: int):
    """(zone, zr): ``zone[zr + offset] == 1`` for the offsets of :func:`zone_offsets`."""
    hit = ctx["zones"].get(reach)
    if hit is None:
        width = ctx["W"]
        offs = zone_offsets(width, reach)
        zr = reach * (width + 1)
        zone = np.zeros(2 * zr + 1, dtype=np.int64)
        for o in offs:
            zone[o + zr] = 1
        hit = ctx["zones"][reach] = (zone, zr)
    return hit


class Timeout(Exception):
    """The deadline passed inside a search."""


class ThreatSearch:
    """VCF / VCT searcher bound to one board and one deadline (``time.perf_counter`` seconds)."""

    def __init__(self, fb: FastBoard, deadline: float, max_nodes: int = 200000, shared: bool = False,
                 min_nodes: int = 0, compiled: bool | None = None, three_width: int | None = None,
                 zone: bool = True) -> None:
        """``deadline``: ``time.perf_counter()`` seconds; ``max_nodes``: node budget of one
        search; ``min_nodes``: nodes searched before the deadline is looked at; ``shared``: the
        rule set's tables are kept across searches and moves. ``compiled``: the df-pn searches
        (:meth:`vcf`, :meth:`dfpn`) run in the compiled kernel (:mod:`.nbthreats`); None means
        :data:`COMPILED` for shared searches (Hard's), never under Renju (its foul test is the
        engine's, in Python), so unshared searches (Medium's VCF, the openings) keep the Python
        depth-first VCF. ``three_width``: open threes tried per attacker node (None:
        :data:`THREE_WIDTH`); ``zone``: False tries them anywhere, not only near the attacker's
        last two moves (:data:`ZONE_REACH`) - a wider, slower search."""
        self.fb = fb
        if compiled is None:
            compiled = COMPILED and shared
        self.compiled = bool(compiled) and not fb.rules.renju
        self.three_width = THREE_WIDTH if three_width is None else three_width
        self.zone_reach = ZONE_REACH if zone else None
        self.vct_mode = True  # df-pn: False = fours only (a compiled VCF)
        self.proof_number = 0
        self.deadline = deadline
        self.nodes = 0
        self.max_nodes = max_nodes
        self.min_nodes = min_nodes  # the deadline is not checked before this many nodes
        # proven failures: (hash, side, threes left) -> depth searched without a win. A failure
        # is recorded only when its whole subtree was searched (a timeout unwinds past it), and
        # with ``shared`` the table of the rule set is reused across searches and moves
        # (bounded; cleared when full). The threes tried depend on the attacker's last moves
        # (the zone, see _or), so a shared failure can hide a win reached by another path: a
        # missed win, never a false one.
        # Moves that won before, per (hash, side, tag): tried first (ordering only, so sharing
        # them is always sound).
        self.shared = shared
        if shared:
            self.fail = fb.pat.fail_cache
            self.win = fb.pat.win_cache
            if len(self.fail) > 600000:
                self.fail.clear()
            if len(self.win) > 200000:
                self.win.clear()
        else:
            self.fail = {}
            self.win = {}
        self.completed = 0  # vct(): the deepest iteration searched in full without a win
        self.path: list[int] = []  # the attacker's moves on the current line (for the zone)
        self.timed_out = False  # set when a search stopped at the deadline or node limit

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 31 == 0 and (self.nodes > self.max_nodes or (
                self.nodes > self.min_nodes and time.perf_counter() > self.deadline)):
            raise Timeout

    # -- public ---------------------------------------------------------------------------------

    def vcf(self, depth: int = 12) -> list[int] | None:
        """A VCF for the side to move, or None. The result is the main line: attacker and
        defender cells alternating, starting with the attacker's move; a defender entry of
        None means "no defence: any reply loses to a five". ``depth`` counts attacker moves."""
        if self.compiled:
            return self._nb_dfpn(depth, vct=False)
        try:
            # two steps only: short VCFs first, then the full depth (fours are few, and a
            # depth-first search with winning fours first finds long VCFs fast)
            return self._or(min(depth, 5), three=0) or (self._or(depth, three=0) if depth > 5 else None)
        except Timeout:
            self.timed_out = True
            return None

    def vct(self, depth: int = 8, threes: int | None = None) -> list[int] | None:
        """A VCT for the side to move (fours and open threes), or None. ``depth`` counts
        attacker moves. Without ``threes`` it is :meth:`dfpn` (proof-number search); with
        ``threes`` (at most that many open threes on a line) the depth-first search below,
        iterative deepening with the failure and win tables."""
        if threes is None:
            return self.dfpn(depth)
        three = threes
        try:
            for d in range(2, depth + 1):  # iterative deepening: short wins are found fast
                line = self._or(d, three=three)
                if line is not None:
                    return line
                self.completed = d
            return None
        except Timeout:
            self.timed_out = True
            return None

    def quiet_win(self, vcf_depth: int = 16, vct_depth: int = 10, width: int = QUIET_WIDTH,
                  replies: int = QUIET_REPLIES) -> int | None:
        """A quiet move (neither a four nor an open three) of the side to move after which it
        threatens a VCF or VCT that none of the defender's likely replies stops, or None (none
        found, or the deadline passed). One level above VCT: the threat is a whole threat
        sequence, not an open four.

        Tried: the ``width`` best quiet cells by both sides' shape. Against each, the defender's
        replies are the empty cells of the threat's main line, its fours and its open threes
        (``replies`` of them, in that order); a four is blocked (every block is tried) and the
        defender then replies again, up to :data:`QUIET_COUNTER_FOURS` times; any other reply
        must leave the attacker a VCF or VCT (``vcf_depth`` / ``vct_depth`` attacker moves, at
        most :data:`QUIET_NODES` nodes each, this search's deadline). A heuristic, not a proof:
        replies outside that set are not tried."""
        fb = self.fb
        att = fb.turn
        d = 3 - att
        sa, sd = fb.score[att], fb.score[d]
        tactical = set(fb.four_moves(att)) | set(fb.three_moves(att))
        cells = sorted((q for q in fb.cand if fb.cells[q] == 0 and q not in tactical and fb.legal(q, att)),
                       key=lambda q: (-(sa[q] * 10 + sd[q] * 9), q))[:width]
        self._quiet = (att, vcf_depth, vct_depth, replies)
        try:
            for m in cells:
                fb.play(m)
                try:
                    held = self._quiet_held(QUIET_COUNTER_FOURS)
                finally:
                    fb.undo()
                if not held:
                    return m
        except Timeout:
            self.timed_out = True
        return None

    def _quiet_threat(self) -> list[int] | None:
        """The quiet-win attacker's VCF or VCT from here with it to move (None: none found)."""
        att, vcf_depth, vct_depth, _replies = self._quiet
        if time.perf_counter() > self.deadline:
            raise Timeout
        ts = ThreatSearch(self.fb, self.deadline, max_nodes=QUIET_NODES, shared=self.shared,
                          compiled=self.compiled, three_width=self.three_width,
                          zone=self.zone_reach is not None)
        line = ts.vcf(depth=vcf_depth) or ts.vct(depth=vct_depth)
        self.nodes += ts.nodes
        if line is None and ts.timed_out and time.perf_counter() > self.deadline:
            raise Timeout
        return line

    def _quiet_held(self, fours_left: int) -> bool:
        """The defender (to move) has a reply, among the likely ones, after which the attacker
        has no VCF / VCT (or the attacker has no threat at all)."""
        fb = self.fb
        att, _vcf, _vct, width = self._quiet
        d = fb.turn
        fb.turn = att  # the attacker's threat: its sequence if it moved again
        try:
            line = self._quiet_threat()
        finally:
            fb.turn = d
        if line is None:
            return True
        sd = fb.score[d]
        order = [c for c in line if c is not None and fb.cells[c] == 0]
        order += sorted(fb.four_moves(d), key=lambda q: (-sd[q], q))
        order += sorted(fb.three_moves(d), key=lambda q: (-sd[q], q))
        tried: list[int] = []
        for c in order:
            if c not in tried and fb.legal(c, d):
                tried.append(c)
        for r in tried[:width]:
            fb.play(r)
            try:
                if fb.sets[d][FIVE]:  # a counter-four: the attacker blocks, the defender goes on
                    if fours_left <= 0:
                        continue
                    blocks = [z for z in fb.defences(d) if fb.legal(z, att)]
                    held = True
                    for z in blocks:
                        fb.play(z)
                        try:
                            held = self._quiet_held(fours_left - 1)
                        finally:
                            fb.undo()
                        if not held:
                            break
                    if held:
                        return True
                elif self._quiet_threat() is None:
                    return True
            finally:
                fb.undo()
        return False

    def dfpn(self, depth: int = 14) -> list[int] | None:
        """A VCT for the side to move found by depth-first proof-number search (df-pn) with a
        transposition table, or None. ``depth`` caps the attacker moves of a line (a five-threat
        block by the attacker does not count). The result has the shape of :meth:`vct`'s.

        Nodes: the attacker (OR) plays its fours, and with at least two moves left open threes
        (zone-restricted as in :meth:`vct`, :data:`THREE_WIDTH` best); the defender (AND) answers
        a five-threat with the blocks, an open three with :func:`three_defences` plus its own
        fours. A proof is a proof of the position whatever the path; a disproof holds for the
        depth it was searched with (re-searched when met with more depth left). With ``shared``
        the tables of the rule set are kept across searches (bounded). Compiled
        (:mod:`.nbthreats`) unless Renju or ``compiled=False``: the same nodes."""
        if self.compiled:
            return self._nb_dfpn(depth, vct=True)
        self.vct_mode = True
        self.att = self.fb.turn
        if self.shared:
            tables = _DFPN_TABLES.setdefault(self.fb.rules, ({}, {}, {}, {}))
            self.tt = tables[self.att - 1]
            self.kids = tables[self.att + 1]
            if len(self.tt) > TT_LIMIT:
                self.tt.clear()
            if len(self.kids) > KIDS_LIMIT:
                self.kids.clear()
        else:
            self.tt, self.kids = {}, {}
        self.proof_number = 0
        self.root_key = (self.fb.hash, self.fb.turn)
        try:
            for d in DFPN_STEPS:
                if d < depth:
                    pn, dn = self._mid(INF, INF, d)  # short wins first (the table is kept)
                    if pn == 0:
                        return self._proof_line()
            pn, dn = self._mid(INF, INF, depth)
        except Timeout:
            self.timed_out = True
            return None
        if pn != 0:
            self.completed = depth
            return None
        return self._proof_line()

    def _children(self, depth: int):
        """(kind, moves, inits) of the node to move, cached: kind 0 = open node (``moves`` and
        ``inits``, the starting (pn, dn) of each child, are tuples), 1 = proven (attacker wins),
        2 = disproven."""
        fb = self.fb
        me = fb.turn
        opp = 3 - me
        dcls = depth if depth < 2 else 2
        # the attacker's threes depend on its last two moves (the zone): part of its key
        vct = self.vct_mode
        key = (fb.hash, me, dcls, tuple(self.path[-2:]) if me == self.att else (), vct)
        hit = self.kids.get(key)
        if hit is not None:
            return hit
        if me == self.att:
            if fb.sets[me][FIVE]:
                out = (1, [next(iter(fb.sets[me][FIVE]))], None)
            elif fb.sets[opp][FIVE]:
                moves = []
                for z in sorted(fb.defences(opp)):
                    if not fb.legal(z, me):
                        continue
                    fb.put(z, me)
                    # a bool now: the set itself would be emptied by the remove below
                    keep = bool(fb.sets[me][FIVE]) or (vct and any(fb.legal(t, me) for t in fb.sets[me][OPEN4]))
                    fb.remove(z)
                    if keep:
                        moves.append(z)
                out = (0, moves, [(1, 1)] * len(moves)) if moves else (2, [], None)
            elif depth <= 0:
                out = (2, [], None)
            else:
                sc = fb.score[me]
                so = fb.score[opp]
                fours = fb.four_moves(me)
                c4, c5 = fb.cnt[me][FOUR], fb.cnt[me][OPEN4]
                # ties by cell (the compiled search orders alike)
                fours.sort(key=lambda q: (-(sc[q] + 10000 * (c5[q] > 0 or c4[q] + c5[q] > 1)), q))
                inits = [(1, 1)] * len(fours)
                moves = fours
                if vct and depth > 1:
                    threes = fb.three_moves(me)
                    if any(fb.legal(t, opp) for t in fb.sets[opp][OPEN4]):
                        # the defender has an open three of its own: a three that does not
                        # stop it is answered by an open four
                        stops = set(three_defences(fb, opp))
                        threes = [q for q in threes if q in stops]
                    if self.path and self.zone_reach is not None:
                        zone = zone_offsets(fb.geo.W, self.zone_reach)
                        recent = self.path[-2:]
                        threes = [q for q in threes if any((q - r) in zone for r in recent)]
                    threes.sort(key=lambda q: (-(sc[q] * 2 + so[q]), q))
                    threes = threes[:self.three_width]
                    moves = fours + threes
                    inits = inits + [(3, 1)] * len(threes)
                out = (0, moves, inits) if moves else (2, [], None)
        else:
            a = opp
            if fb.sets[me][FIVE]:
                out = (2, [], None)
            elif fb.sets[a][FIVE]:
                replies = [z for z in sorted(fb.defences(a)) if fb.legal(z, me)]
                out = (0, replies, [(1, 1)] * len(replies)) if replies else (1, [None], None)
            elif not vct or depth <= 0 or not any(fb.legal(t, a) for t in fb.sets[a][OPEN4]):
                out = (2, [], None)
            else:
                defences = three_defences(fb, a)
                sd = fb.score[me]
                direct = fb.sets[a][OPEN4]
                replies = sorted(defences, key=lambda q: (q not in direct, -sd[q], q))
                have = set(defences)
                replies += sorted(q for q in fb.four_moves(me) if q not in have)
                replies = [q for q in replies if fb.legal(q, me)]
                out = (0, replies, [(1, 1)] * len(replies)) if replies else (1, [None], None)
        if out[0] == 0:
            # tuples of ints: the garbage collector stops tracking them, so a big table does
            # not slow its passes (lists would be traversed on every full collection)
            out = (0, tuple(out[1]), tuple(out[2]))
        self.kids[key] = out
        return out

    def _mid(self, thpn: int, thdn: int, depth: int) -> tuple[int, int]:
        """df-pn's multiple iterative deepening at the node to move: search until its proof
        number reaches ``thpn`` or its disproof number ``thdn``; returns (pn, dn), stored."""
        self._tick()
        fb = self.fb
        me = fb.turn
        key = (fb.hash, me)
        kind, moves, inits = self._children(depth)
        tt = self.tt
        if kind == 1:
            tt[key] = (0, INF, depth)
            return 0, INF
        if kind == 2:
            tt[key] = (INF, 0, depth)
            return INF, 0
        is_or = me == self.att
        zob = fb.zob[me]
        h = fb.hash
        other = 3 - me
        cdepth = depth - 1 if is_or and not fb.sets[other][FIVE] else depth
        path = self.path
        pns = []
        dns = []
        for q, init in zip(moves, inits):
            e = tt.get((h ^ zob[q], other))
            if e is None:
                pns.append(init[0])
                dns.append(init[1])
            elif e[0] == 0:
                pns.append(0)
                dns.append(INF)
            elif e[1] == 0:
                if e[2] >= cdepth:
                    pns.append(INF)
                    dns.append(0)
                else:
                    pns.append(1)
                    dns.append(1)
            else:
                pns.append(e[0])
                dns.append(e[1])
        n = len(moves)
        while True:
            if is_or:
                pn = min(pns)
                dn = sum(dns)
                if dn > INF:
                    dn = INF
                if pn >= thpn or dn >= thdn:
                    break
                best = pns.index(pn)
                second = INF
                for j in range(n):
                    if j != best and pns[j] < second:
                        second = pns[j]
                cth_pn = min(thpn, second + 1 + second // 4)
                cth_dn = min(INF, thdn - dn + dns[best])
            else:
                dn = min(dns)
                pn = sum(pns)
                if pn > INF:
                    pn = INF
                if pn >= thpn or dn >= thdn:
                    break
                best = dns.index(dn)
                second = INF
                for j in range(n):
                    if j != best and dns[j] < second:
                        second = dns[j]
                cth_dn = min(thdn, second + 1 + second // 4)
                cth_pn = min(INF, thpn - pn + pns[best])
            if key == self.root_key:
                self.proof_number = pn  # how far the root is from a proof (read on a timeout)
            q = moves[best]
            fb.play(q)
            if is_or:
                path.append(q)
            try:
                cpn, cdn = self._mid(cth_pn, cth_dn, cdepth)
            finally:
                if is_or:
                    path.pop()
                fb.undo()
            pns[best] = cpn
            dns[best] = cdn
        tt[key] = (pn, dn, depth)
        return pn, dn

    def _proof_need(self, h: int, side: int) -> int | None:
        """None unless the table holds a proof for the position of hash ``h``, ``side`` to
        move; else the depth the proof needs (compiled table; 0 for the Python one)."""
        if self.compiled:
            tk, tpn = self._nb_table[0], self._nb_table[1]
            i = nbthreats.tt_get(tk, _int64(h) ^ int(self._nb_sidekeys[side]))
            return int(self._nb_table[3][i]) if i >= 0 and tpn[i] == 0 else None
        e = self.tt.get((h, side))
        return 0 if e is not None and e[0] == 0 else None

    def _nb_dfpn(self, depth: int, vct: bool) -> list[int] | None:
        """:meth:`dfpn` (``vct``) or a fours-only df-pn VCF in the compiled kernel: called in
        node chunks, the clock read between them; window-table misses are classified here and
        the search called again (its table keeps what it learnt). Same result shape."""
        fb = self.fb
        ctx = _nb_context(fb)
        self.att = att = fb.turn
        self.vct_mode = vct
        if self.shared:
            table = _NB_TABLES.get(fb.rules)
            if table is None:
                table = _NB_TABLES[fb.rules] = nbthreats.new_table(NB_TT_BITS)
            if table[4][0] > nbthreats.TT_FILL * len(table[0]):
                nbthreats.clear_table(table)
        else:
            table = nbthreats.new_table(NB_TT_BITS_UNSHARED)
        self._nb_table = table
        self._nb_sidekeys = sidekeys = _sidekeys(ctx, vct, self.three_width, self.zone_reach, att)
        self.tt, self.kids = None, {}
        self.proof_number = 0
        if self.zone_reach is None:
            zone, zr = _zone_array(ctx, 1)[0], -1  # no zone: the array is not read
        else:
            zone, zr = _zone_array(ctx, self.zone_reach)
        h0 = _int64(fb.hash)
        res = np.zeros(8, dtype=np.int64)
        miss = np.zeros(nbthreats.MISS_CAP, dtype=np.int64)
        # a compiled VCF deepens one attacker move at a time (fours are few): its line is a
        # shortest one, so Hard playing it out wins within the depth it found
        steps = range(1, depth) if not vct else DFPN_STEPS
        chunk = NB_FIRST_CHUNK
        pat = fb.pat
        known = self._proof_need(fb.hash, att) if not vct else None
        if known is not None and known <= depth:
            steps = range(known, depth)  # a stored proof of the root needs this depth: start there
        try:
            for d in [x for x in steps if x < depth] + [depth]:
                while True:
                    budget = min(chunk, self.max_nodes + 1 - self.nodes)
                    if budget <= 0:
                        raise Timeout
                    status = nbthreats.search(fb._st, fb.geo.arr, pat.mkeys, pat.mvals, fb._out, ctx["reals"],
                                              ctx["zob"], sidekeys, *table, h0, att, d, budget, int(vct),
                                              self.three_width, zone, zr, ctx["blocked"], ctx["L"], miss, res)
                    self.nodes += int(res[1])
                    self.proof_number = int(res[2])
                    if status == nbthreats.DONE:
                        break
                    if status == nbthreats.MISS:
                        pat.fill(sorted(set(miss[:res[4]].tolist())))
                    else:
                        chunk = min(chunk * 4, NB_MAX_CHUNK)
                    if self.nodes > self.max_nodes or (
                            self.nodes > self.min_nodes and time.perf_counter() > self.deadline):
                        raise Timeout
                if res[2] == 0:
                    return self._proof_line()
        except Timeout:
            self.timed_out = True
            return None
        self.completed = depth
        return None

    def _proof_line(self) -> list[int] | None:
        """The main line of a proven root (attacker and defender cells alternating; a final
        None: any reply loses to a five). Read from the proofs in the table, whatever depth
        each was proven with."""
        fb = self.fb
        line: list[int] = []
        played = 0
        try:
            while len(line) < 80:
                kind, moves, _inits = self._children(99)
                if kind == 1:
                    line.append(moves[0])
                    break
                me = fb.turn
                zob = fb.zob[me]
                pick = None
                if me == self.att:
                    need = None
                    for q in moves:  # the proven child that needs the least depth, first of equals
                        n = self._proof_need(fb.hash ^ zob[q], 3 - me)
                        if n is not None and (need is None or n < need):
                            pick, need = q, n
                else:
                    pick = moves[0] if moves else None
                if pick is None:
                    break
                line.append(pick)
                if me == self.att:
                    self.path.append(pick)
                fb.play(pick)
                played += 1
        finally:
            for _ in range(played):
                fb.undo()
            del self.path[:]
        return line or None

    # -- AND-OR search --------------------------------------------------------------------------

    def _or(self, depth: int, three: int) -> list[int] | None:
        fb = self.fb
        me = fb.turn
        opp = 3 - me
        for q in fb.sets[me][FIVE]:
            return [q]
        self._tick()
        if fb.sets[opp][FIVE]:
            # the defender threatens a five: we must stop it, and go on only if our reply
            # keeps or makes a threat of ours
            for z in fb.defences(opp):
                if not fb.legal(z, me):
                    continue
                fb.play(z)
                self.path.append(z)
                try:
                    if not (fb.sets[me][FIVE] or (three and fb.sets[me][OPEN4])):
                        continue
                    rest = self._and(depth, three)
                finally:
                    self.path.pop()
                    fb.undo()
                if rest is not None:
                    return [z] + rest
            return None
        if depth <= 0:
            return None
        tag = min(three, depth) if three < UNLIMITED else UNLIMITED
        key = (fb.hash, me, tag, "ts2")
        if self.fail.get(key, -1) >= depth:
            return None  # already failed with at least this much depth
        moves = fb.four_moves(me)
        # winning fours (open four / double four) first, then by score
        sc = fb.score[me]
        so = fb.score[opp]
        moves.sort(key=lambda q: -(sc[q] + 10000 * (fb.cnt[me][OPEN4][q] > 0 or fb.four_count(q, me) > 1)))
        tries = [(q, three) for q in moves]
        if three and depth > 1:
            threes = fb.three_moves(me)
            if self.path and self.zone_reach is not None:
                # threat-space relevance: after the first attacker move, an open three must be
                # on a line through one of the attacker's last two moves (within five cells);
                # fours are always tried (they are few and forcing)
                zone = zone_offsets(fb.geo.W, self.zone_reach)
                recent = self.path[-2:]
                threes = [q for q in threes if any((q - r) in zone for r in recent)]
            # threes that also make more threes / block the defender first
            threes.sort(key=lambda q: -(sc[q] * 2 + so[q]))
            tries += [(q, three - 1) for q in threes[:self.three_width]]
        known = self.win.get(key)
        if known is not None:
            for k, (q, _left) in enumerate(tries):
                if q == known:
                    tries.insert(0, tries.pop(k))
                    break
        path = self.path
        for q, left in tries:
            fb.play(q)
            path.append(q)
            try:
                rest = self._and(depth - 1, left)
            finally:
                path.pop()
                fb.undo()
            if rest is not None:
                self.win[key] = q
                return [q] + rest
        self.fail[key] = depth
        return None

    def _and(self, depth: int, three: int) -> list[int] | None:
        """Defender to move, after an attacker threat. Returns the attacker's win line from here."""
        fb = self.fb
        d = fb.turn
        a = 3 - d
        self._tick()
        if fb.sets[d][FIVE]:
            return None
        if fb.sets[a][FIVE]:
            replies = [z for z in fb.defences(a) if fb.legal(z, d)]
            if not replies:
                return [None]  # whatever the defender plays, the attacker makes five
            return self._every_reply_loses(replies, depth, three)
        # an open three (or a made open-four threat): defender chooses among defences
        threats = [t for t in fb.sets[a][OPEN4] if fb.legal(t, a)]
        if not threats:
            return None  # no open-four cell (Renju: only fouls for X): not a threat
        if depth <= 0:
            return None
        defences = three_defences(fb, a)
        # the replies most likely to refute first: the open-four cells, then the other
        # blocks, then the defender's counter-fours
        sd = fb.score[d]
        direct = set(threats)
        replies = sorted(defences, key=lambda q: (q not in direct, -sd[q]))
        have = set(defences)
        replies += [q for q in fb.four_moves(d) if q not in have]
        return self._every_reply_loses([q for q in replies if fb.legal(q, d)], depth, three)

    def _every_reply_loses(self, replies, depth, three):
        """The attacker's winning line against the first of `replies` if EVERY reply still loses
        (each searched with `_or`), else None."""
        fb = self.fb
        line = None
        for z in replies:
            fb.play(z)
            try:
                rest = self._or(depth, three)
            finally:
                fb.undo()
            if rest is None:
                return None
            if line is None:
                line = [z] + rest
        return line


def warm_up() -> None:
    """Load (or compile) every function of the compiled threat search: a VCF and a VCT search,
    each ending in a proof, on a small freestyle position (a fork of two open threes)."""
    from caro.engine.caro import PRESETS, Board

    board = Board.from_stones(PRESETS["freestyle"].rules, x=["F8", "G8", "H6", "H7"],
                              o=["A1", "A15", "O1", "O15"], to_move="X")
    fb = FastBoard.from_engine(board)
    far = time.perf_counter() + 600
    ThreatSearch(fb, far, max_nodes=20000, compiled=True).vct(depth=4)
    fb.play(fb.index("H8"))
    fb.play(fb.index("A2"))
    ThreatSearch(fb, far, max_nodes=20000, compiled=True).vcf(depth=4)
