"""Threat-space search on a :class:`~caro.bots.fastboard.FastBoard`: VCF and VCT.

VCF (victory by continuous fours): the attacker plays only fours; the defender must block each
one, and the attacker wins when it gets two winning cells at once (or a five). VCT (victory by
continuous threats) also allows open threes; the defender then may answer on the cells that stop
the three or with fours of its own. Both searches are AND-OR searches with a node budget and a
deadline; a result of ``None`` means "no win found" (not "no win exists").

Soundness notes: fours, fives and blocks are judged by the rule-aware pattern table, so blocked
ends, exact five and Renju (X may not play a foul, not even a forced block) are honoured. The
defence set against a three is an approximation (the attacker's open-four cells, its four cells
on their lines, under blocked ends every empty cell of the three's line, plus the defender's
fours), as in most threat-space searchers. Pruning (incomplete, never unsound): after the first
attacker move, open threes are tried only on the lines through the attacker's last two moves
(within four cells), at most :data:`THREE_WIDTH` per node, best shape first.
"""

from __future__ import annotations

import time

from .fastboard import FIVE, FOUR, OPEN4, FastBoard


UNLIMITED = 99  # "threes left" meaning no limit but the depth
THREE_WIDTH = 12  # open threes tried per attacker node, best shape first
_ZONES: dict[int, frozenset[int]] = {}


def zone_offsets(width: int) -> frozenset[int]:
    """Index offsets (padded layout of row width ``width``) of the cells on the four lines
    through a cell within four steps: where a follow-up threat of a threat sequence lies."""
    hit = _ZONES.get(width)
    if hit is None:
        steps = (1, width, width + 1, 1 - width)
        hit = _ZONES[width] = frozenset(sgn * k * s for s in steps for k in range(1, 5) for sgn in (1, -1))
    return hit


def _line_offsets(fb: FastBoard, t: int) -> dict[int, tuple[int, int]]:
    """Empty cells on the four lines through ``t`` within the window reach ``H``: cell ->
    (direction index, signed offset in steps from ``t``)."""
    cells = fb.cells
    out = {}
    H = fb.pat.H
    for k, step in enumerate(fb.geo.steps):
        for sgn in (1, -1):
            q = t
            for off in range(1, H + 1):
                q += sgn * step
                if q < 0 or cells[q] == 3:
                    break
                if cells[q] == 0:
                    out[q] = (k, sgn * off)
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
        lines = _line_offsets(fb, t)
        if len(dirs) > 1:
            mine = {t}
        else:
            mine = {q for q, (k, _o) in lines.items() if k == dirs[0]} | {t} if dirs else {t}
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
            k, off = lines[z]
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


def _defence_cache(fb: FastBoard) -> dict:
    table = _DEF_CACHES.get(fb.rules)
    if table is None:
        table = _DEF_CACHES[fb.rules] = {}
    return table


class Timeout(Exception):
    """The deadline passed inside a search."""


class ThreatSearch:
    """VCF / VCT searcher bound to one board and one deadline (``time.perf_counter`` seconds)."""

    def __init__(self, fb: FastBoard, deadline: float, max_nodes: int = 200000, shared: bool = False,
                 min_nodes: int = 0) -> None:
        self.fb = fb
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
        if self.nodes & 127 == 0 and (self.nodes > self.max_nodes or (
                self.nodes > self.min_nodes and time.perf_counter() > self.deadline)):
            raise Timeout

    # -- public ---------------------------------------------------------------------------------

    def vcf(self, depth: int = 12) -> list[int] | None:
        """A VCF for the side to move, or None. The result is the main line: attacker and
        defender cells alternating, starting with the attacker's move; a defender entry of
        None means "no defence: any reply loses to a five". ``depth`` counts attacker moves."""
        try:
            # two steps only: short VCFs first, then the full depth (fours are few, and a
            # depth-first search with winning fours first finds long VCFs fast)
            return self._or(min(depth, 5), three=0) or (self._or(depth, three=0) if depth > 5 else None)
        except Timeout:
            self.timed_out = True
            return None

    def vct(self, depth: int = 8, threes: int | None = None) -> list[int] | None:
        """A VCT for the side to move (fours and open threes; at most ``threes`` threes when
        given, else as many as ``depth`` allows), or None. ``depth`` counts attacker moves."""
        three = UNLIMITED if threes is None else threes
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
            if self.path:
                # threat-space relevance: after the first attacker move, an open three must be
                # on a line through one of the attacker's last two moves (within five cells);
                # fours are always tried (they are few and forcing)
                zone = zone_offsets(fb.geo.W)
                recent = self.path[-2:]
                threes = [q for q in threes if any((q - r) in zone for r in recent)]
            # threes that also make more threes / block the defender first
            threes.sort(key=lambda q: -(sc[q] * 2 + so[q]))
            tries += [(q, three - 1) for q in threes[:THREE_WIDTH]]
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
