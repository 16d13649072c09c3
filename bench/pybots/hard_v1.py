"""The Hard caro level as it was before issue 16 (``"hard_v1"``), kept frozen for
``bench/match.py`` (new Hard against old Hard). Not offered to players: it is not in
:data:`bench.pybots.LEVELS`, only :func:`bench.pybots.get_bot` knows it.

It is the old code unchanged: :class:`CaroHardV1` (own VCF, own VCT with at most three open
threes, the opponent's VCF/VCT by a null move, iterative-deepening alpha-beta, a VCF/VCT safety
check) over :class:`ThreatSearchV1` (depth-first AND-OR search, a failure table, no proof
numbers). It keeps the pure-Python board of that time (:mod:`.fastboard_v1`, frozen with it).

The duplication is deliberate: the alpha-beta (:class:`AlphaBetaV1`), the tactical prelude, the
timeout exception and the win score are COPIES of what :mod:`.caro_bots` and :mod:`.threats` had
at that time, so that work on the live levels cannot change the old level and spoil the
comparison. This module imports only :mod:`.fastboard_v1` (itself frozen); do not make it
import the live bot modules again, and do not "fix" it: it is a measuring stick.
"""

from __future__ import annotations

import heapq
import random
import time

from .fastboard_v1 import FIVE, FOUR, OPEN4, XS, FastBoard

WIN = 10_000_000


class Timeout(Exception):
    """A search of the old level ran past its deadline or node limit."""


def _exact_fives(fb: FastBoard, s: int) -> list[int]:
    """Cells where side ``s`` completes a winning run, decided exactly (not from the table)."""
    return sorted(q for q in fb.candidates() if fb.cells[q] == 0 and fb.wins_at(q, s))


def _any_legal(fb: FastBoard, s: int, rng: random.Random) -> int:
    """A legal cell near the stones (or anywhere) for ``s``; raises ValueError if none."""
    cells = sorted(fb.candidates(), key=lambda q: -(fb.score[1][q] + fb.score[2][q]))
    for q in cells:
        if fb.cells[q] == 0 and fb.legal(q, s):
            return q
    rest = [q for q in fb.geo.reals if fb.cells[q] == 0 and fb.legal(q, s)]
    if not rest:
        raise ValueError("no legal move")
    return rest[rng.randrange(len(rest))]


def _tactical_prelude(fb: FastBoard, rng: random.Random, block: bool = True) -> int | None:
    """Own five; else (``block``) a reply that stops every five-threat of the opponent."""
    me, opp = fb.turn, 3 - fb.turn
    mine = _exact_fives(fb, me)
    if mine:
        return mine[0]
    if block and _exact_fives(fb, opp):
        replies = [q for q in fb.defences(opp) if fb.legal(q, me)]
        if replies:
            return max(replies, key=lambda q: (fb.score[me][q], -q))
        # lost anyway (two threats, or Renju: X may not block on a foul): block one
        legal = [q for q in _exact_fives(fb, opp) if fb.legal(q, me)]
        return legal[0] if legal else _any_legal(fb, me, rng)
    return None


class AlphaBetaV1:
    """Negamax alpha-beta with a transposition table over restricted candidates.

    ``width``: candidates per node; ``deadline``: perf_counter seconds (raises :class:`Timeout`).
    ``force_defence``: when the opponent has an open three, only the defences are tried (no
    counter-fours) - Medium's rule.
    """

    def __init__(self, fb: FastBoard, deadline: float, width: int = 10, force_defence: bool = False) -> None:
        self.fb = fb
        self.deadline = deadline
        self.width = width
        self.nodes = 0
        self.tt: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.force_defence = force_defence

    attack, defence = 10, 15  # weights (tenths) of the side to move's and the other side's totals

    def evaluate(self) -> int:
        """Static score for the side to move: its weighted pattern total minus the other's."""
        fb = self.fb
        me = fb.turn
        return (fb.total[me] * self.attack - fb.total[3 - me] * self.defence) // 10

    def moves(self, me: int, limit: int) -> list[int]:
        """Ordered candidate moves for ``me`` (the side to move)."""
        fb = self.fb
        opp = 3 - me
        sets = fb.sets
        sm, so = fb.score[me], fb.score[opp]
        if sets[opp][OPEN4]:
            # opponent has an open three: defend, or counter with fours
            defence = set(sets[opp][OPEN4])
            defence.update(heapq.nlargest(4, sets[opp][FOUR], key=so.__getitem__))
            if not self.force_defence:
                defence.update(fb.four_moves(me))
            moves = [q for q in defence if fb.legal(q, me)]
            moves.sort(key=lambda q: -(sm[q] + so[q]))
            return moves
        cands = heapq.nlargest(limit + 6, fb.cand, key=lambda q: sm[q] + so[q] * 9 // 10)
        if me == XS and fb.renju:
            cands = [q for q in cands if not fb.is_foul(q)]
        return cands[:limit]

    def search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        fb = self.fb
        me = fb.turn
        opp = 3 - me
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise Timeout
        if fb.sets[me][FIVE]:
            return WIN - ply
        if fb.sets[opp][FIVE]:
            replies = [z for z in fb.defences(opp) if fb.legal(z, me)]
            if not replies:
                return -(WIN - ply - 1)
            if ply > 40:
                return self.evaluate()
            return self._children(replies, depth, alpha, beta, ply)[0]
        if not fb.sets[opp][FOUR] and not fb.sets[opp][OPEN4] and fb.winning_four_moves(me):
            return WIN - ply - 2
        if depth <= 0:
            return self.evaluate()
        key = (fb.hash, me)
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, flag, value, first = entry
            if e_depth >= depth:
                if flag == 0:
                    return value
                if flag == 1 and value >= beta:
                    return value
                if flag == -1 and value <= alpha:
                    return value
        moves = self.moves(me, self.width)
        if not moves:
            if not fb.cand and fb.stones == 0:
                return 0
            legal = [q for q in fb.geo.reals if fb.cells[q] == 0 and fb.legal(q, me)]
            if not legal:
                return 0  # board full (draw) or no legal move
            moves = legal[:1]
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        a0 = alpha
        best, best_move = self._children(moves, depth, alpha, beta, ply)
        flag = 1 if best >= beta else (-1 if best <= a0 else 0)
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def _children(self, moves: list[int], depth: int, alpha: int, beta: int, ply: int) -> tuple[int, int]:
        """Negamax over `moves` (non-empty) with alpha-beta cut-offs: (best value, its move)."""
        fb = self.fb
        best, best_move = -WIN * 2, moves[0]
        for q in moves:
            fb.play(q)
            try:
                value = -self.search(depth - 1, -beta, -alpha, ply + 1)
            finally:
                fb.undo()
            if value > best:
                best, best_move = value, q
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best, best_move

    def root(self, moves: list[int], depth: int) -> list[tuple[int, int]]:
        """Score every root move at ``depth`` (full window on the first, then null windows are
        not used: plain alpha-beta). Returns (score, cell) best first."""
        fb = self.fb
        out = []
        alpha = -WIN * 2
        for q in moves:
            fb.play(q)
            try:
                value = -self.search(depth - 1, -WIN * 2, -alpha + 1, 1)
            finally:
                fb.undo()
            out.append((value, q))
            alpha = max(alpha, value)
        out.sort(key=lambda t: -t[0])
        return out


class ThreatSearchV1:
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
        # the search is a pure function of the position, so with ``shared`` the table of the
        # rule set is reused across searches and moves (bounded; cleared when full).
        if shared:
            self.fail = fb.pat.fail_cache
            if len(self.fail) > 600000:
                self.fail.clear()
        else:
            self.fail = {}
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

    def vct(self, depth: int = 8, threes: int = 3) -> list[int] | None:
        """A VCT for the side to move (fours and at most ``threes`` open threes), or None."""
        try:
            for d in range(2, depth + 1):  # iterative deepening: short wins are found fast
                line = self._or(d, three=threes)
                if line is not None:
                    return line
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
                try:
                    if not (fb.sets[me][FIVE] or (three and fb.sets[me][OPEN4])):
                        continue
                    rest = self._and(depth, three)
                finally:
                    fb.undo()
                if rest is not None:
                    return [z] + rest
            return None
        if depth <= 0:
            return None
        key = (fb.hash, me, three)
        if self.fail.get(key, -1) >= depth:
            return None  # already failed with at least this much depth
        moves = fb.four_moves(me)
        # winning fours (open four / double four) first, then by score
        sc = fb.score[me]
        moves.sort(key=lambda q: -(sc[q] + 10000 * (fb.cnt[me][OPEN4][q] > 0 or fb.four_count(q, me) > 1)))
        tries = [(q, three) for q in moves]
        if three:
            threes = fb.three_moves(me)
            threes.sort(key=lambda q: -sc[q])
            tries += [(q, three - 1) for q in threes[:10]]
        for q, left in tries:
            fb.play(q)
            try:
                rest = self._and(depth - 1, left)
            finally:
                fb.undo()
            if rest is not None:
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
        threats = fb.sets[a][OPEN4]
        if not threats:
            return None
        if depth <= 0:
            return None
        last = fb.history[-1]
        defences = set(threats)
        g = fb.geo
        for step in g.steps:
            for sgn in (step, -step):
                q = last
                for _ in range(fb.pat.L):
                    q += sgn
                    if fb.cells[q] == 3:
                        break
                    if fb.cells[q] == 0 and q in fb.sets[a][FOUR]:
                        defences.add(q)
        defences.update(fb.four_moves(d))
        return self._every_reply_loses([q for q in defences if fb.legal(q, d)], depth, three)

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


class CaroHardV1:
    """Hard: fives and blocks; its own VCF, then its own VCT; then the opponent's threats (the
    VCF / VCT the opponent would have if it moved now): when there is one, only replies after
    which the opponent has neither are searched; finally iterative-deepening alpha-beta over the
    restricted candidates, and a check that the chosen move leaves the opponent no VCF (nor,
    while time is left, a VCT)."""

    level = "hard_v1"
    share = 0.8  # part of the budget it plans to use

    def choose(self, board, budget_ms: int = 1000, rng=None) -> str:
        """As :meth:`CaroBot.choose`, on the frozen pure-Python board of its time."""
        if board.outcome is not None:
            raise ValueError("the game is over: no move to choose")
        rng = rng if rng is not None else random.Random()
        fb = FastBoard.from_engine(board)
        return fb.name(self._choose(fb, budget_ms, rng))

    def _opp_threat(self, fb: FastBoard, deadline: float, nodes: int) -> list[int] | None:
        """The opponent's VCF or VCT if it were to move now (a null move), else None."""
        fb.turn = 3 - fb.turn
        try:
            ts = ThreatSearchV1(fb, deadline, max_nodes=nodes, shared=True)
            return ts.vcf(depth=12) or ts.vct(depth=7, threes=3)
        finally:
            fb.turn = 3 - fb.turn

    def _safe(self, fb: FastBoard, q: int, deadline: float, nodes: int) -> int:
        """After ``q``: 2 if the opponent surely has no VCF and no VCT (searches completed),
        1 if unknown (a search ran out of time), 0 if it has one."""
        fb.play(q)
        try:
            ts = ThreatSearchV1(fb, deadline, max_nodes=nodes, shared=True)
            if ts.vcf(depth=12) is not None or ts.vct(depth=6, threes=3) is not None:
                return 0
            return 1 if ts.timed_out else 2
        finally:
            fb.undo()

    def _choose(self, fb, budget_ms, rng):
        me = fb.turn
        q = _tactical_prelude(fb, rng)
        if q is not None:
            return q
        t0 = time.perf_counter()
        budget = max(budget_ms, 50) / 1000 * self.share
        end = t0 + budget
        line = ThreatSearchV1(fb, t0 + budget * 0.2, shared=True, min_nodes=2500).vcf(depth=14)
        if line:
            return line[0]
        line = ThreatSearchV1(fb, t0 + budget * 0.35, shared=True).vct(depth=8, threes=3)
        if line:
            return line[0]
        ab = AlphaBetaV1(fb, end, width=10)
        moves = ab.moves(me, 14)
        if not moves:
            return _any_legal(fb, me, rng)
        if len(moves) == 1:
            return moves[0]
        threat = self._opp_threat(fb, time.perf_counter() + budget * 0.12, 30000)
        if threat:
            # defend: the opponent's threat squares first, then our fours, then the candidates
            key_cells = [c for c in threat if c is not None and fb.cells[c] == 0]
            order = []
            for c in key_cells + fb.four_moves(me) + moves + ab.moves(me, 24):
                if c not in order and fb.cells[c] == 0 and fb.legal(c, me):
                    order.append(c)
            proven, unknown = [], []
            stop = t0 + budget * 0.7
            for c in order:
                if time.perf_counter() > stop or len(proven) >= 4:
                    break
                per = min(stop, time.perf_counter() + budget * 0.12)
                verdict = self._safe(fb, c, per, 20000)
                if verdict == 2:
                    proven.append(c)
                elif verdict == 1:
                    unknown.append(c)
            survivors = proven or unknown
            if len(survivors) == 1:
                return survivors[0]
            if survivors:
                moves = survivors
        ranked = [(0, q) for q in moves]
        depth = 1
        while depth <= 12:
            try:
                ranked = ab.root([q for _, q in ranked], depth)
            except Timeout:
                break
            if ranked[0][0] >= WIN - 100 or ranked[0][0] <= -(WIN - 100):
                break
            depth += 1
            # quiet positions stop deepening at half the budget; under an opponent threat
            # (few survivors, sharp play) it deepens until the deadline
            if time.perf_counter() - t0 > budget * (0.5 if not threat else 1.0):
                break
        order = [q for _, q in ranked]
        if threat:
            return order[0]
        # safety: avoid a move that gives the opponent a VCF, or (while time is left) a VCT
        for q in order[:6]:
            if time.perf_counter() > end:
                break
            fb.play(q)
            try:
                ts = ThreatSearchV1(fb, min(end, time.perf_counter() + budget * 0.06), max_nodes=10000, shared=True)
                bad = ts.vcf(depth=12) is not None
                if not bad and time.perf_counter() < end - budget * 0.05:
                    ts = ThreatSearchV1(fb, min(end, time.perf_counter() + budget * 0.1), max_nodes=15000, shared=True)
                    bad = ts.vct(depth=7, threes=3) is not None
            finally:
                fb.undo()
            if not bad:
                return q
        return order[0]
