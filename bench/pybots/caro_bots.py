"""Caro / gomoku / Renju bots: Easy, Medium and Hard.

All three read the room's :class:`caro.engine.caro.Rules` from the engine board they are given,
so blocked ends, exact five and Renju fouls are obeyed exactly (see :mod:`.fastboard`).

* **Easy** takes a five when it has one. Otherwise it blocks the opponent's five-threat (a four
  that would make a winning five) except with probability :attr:`CaroEasy.miss` (0.35), and
  otherwise plays a good-shape move picked at random among the best few.
* **Medium** always takes a five, always blocks a four that would make a winning five, plays a
  short VCF when it has one, blocks open threes unless it can force a win, and otherwise runs a
  2-ply alpha-beta over the best candidates.
* **Hard** takes a five / blocks a five-threat, then looks for its own VCF and VCT (any number
  of open threes; a second, wider VCT tries threes anywhere), then for the opponent's VCF / VCT
  (as if the opponent moved now). With no such threat it looks for a quiet move that wins
  (:meth:`ThreatSearch.quiet_win`); under one it keeps only replies after which the opponent has
  neither (its own fours are tried early) nor a quiet winning move, and when none is proven safe
  the alpha-beta chooses among the undecided ones. Then
  iterative-deepening alpha-beta (:class:`HardSearch`: a principal-variation search over
  restricted candidates, fewer the deeper it goes, a transposition table kept across moves, and a
  shape evaluation that scores both sides' potential and threats with the side to move in mind;
  compiled, :class:`CompiledSearch`, except on Renju boards),
  and a check that the choice
  leaves the opponent no VCF (and, while time is left, no VCT). Default budget 1000 ms; it plans to use 0.8 of it.
"""

from __future__ import annotations

import heapq
import random
import time

import numpy as np

from caro.engine.caro import Board

from . import nbsearch
from .fastboard import FIVE, FOUR, OPEN4, THREE, XS, FastBoard
from .nbcore import OUT_MISS
from .threats import ThreatSearch, Timeout

WIN = 10_000_000
# Node cap of Hard's threat checks of one reply (the opponent's threat: 4x; a safety VCF
# check: half). Sized for the compiled board (about 3.5x the nodes per second of the old one);
# the time shares of the budget still stop a search first on a slow machine.
NODE_CAP = 60000


def _root(board: Board) -> FastBoard:
    if board.outcome is not None:
        raise ValueError("the game is over: no move to choose")
    fb = FastBoard.from_engine(board)
    return fb


def _legal_cells(fb: FastBoard, s: int, cells) -> list[int]:
    return [q for q in cells if fb.cells[q] == 0 and fb.legal(q, s)]


def exact_fives(fb: FastBoard, s: int) -> list[int]:
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
    mine = exact_fives(fb, me)
    if mine:
        return mine[0]
    if block and exact_fives(fb, opp):
        replies = [q for q in fb.defences(opp) if fb.legal(q, me)]
        if replies:
            return max(replies, key=lambda q: (fb.score[me][q], -q))
        # lost anyway (two threats, or Renju: X may not block on a foul): block one
        legal = [q for q in exact_fives(fb, opp) if fb.legal(q, me)]
        return legal[0] if legal else _any_legal(fb, me, rng)
    return None


class AlphaBeta:
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

    def node_width(self, ply: int) -> int:
        """Candidates searched at a node ``ply`` plies below the root (:attr:`width` at every ply)."""
        return self.width

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
        moves = self.moves(me, self.node_width(ply))
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


class HardSearch(AlphaBeta):
    """Hard's alpha-beta: :class:`AlphaBeta` with a shape evaluation that knows whose move it is
    and faster candidate ordering (numpy over the compiled board's arrays). Medium keeps the
    plain :class:`AlphaBeta` (its character is part of the level).

    Evaluation (:meth:`evaluate`, for the side to move ``me``; fives and unstoppable fours are
    decided by the search before it is asked): the weighted potential of both sides (as
    :class:`AlphaBeta`, weights :attr:`attack` / :attr:`defence` in tenths) plus threat terms
    from :func:`double_threats`: a double threat (four and open three, two open threes) or an
    open three of the side to move is worth much more than the same shape of the side that just
    moved, because the side to move plays it first; a double threat of the other side that the
    side to move cannot answer with a four of its own is a heavy minus.
    """

    attack, defence = 10, 15
    #: candidates per node by ply below the root (the last entry from there on): the search
    #: trusts the ordering more the deeper it is, and reaches further in the same time
    schedule: tuple[int, ...] | None = (10, 10, 8, 7, 6)
    TT_LIMIT = 250_000  # entries of the shared transposition table before it is cleared

    def __init__(self, fb: FastBoard, deadline: float, width: int = 10, force_defence: bool = False) -> None:
        super().__init__(fb, deadline, width, force_defence)
        # the table of the rule set, shared across searches and moves: every entry is a pure
        # function of the position (same width, same evaluation), so the next move's search
        # starts with the values and best moves of the previous ones
        self.tt = fb.pat.search_tt.setdefault((type(self), width), {})
        if len(self.tt) > self.TT_LIMIT:
            self.tt.clear()

    # threat terms (pattern units): side to move / other side
    MY_OPEN3 = 1500      # side to move can make an open four (the other side has fours to counter)
    MY_FOUR_THREE = 2500  # side to move has a four-three cell
    MY_THREE_THREE = 1200  # side to move has a three-three cell
    OPP_DOUBLE = 1500    # the other side has a double-threat cell (four-three or three-three)
    OPP_OPEN3 = 300      # the other side has an open three (the side to move must answer)

    def evaluate(self) -> int:
        """Static score for the side to move (pattern units, positive = good for it)."""
        fb = self.fb
        me = fb.turn
        opp = 3 - me
        value = (int(fb.total[me]) * self.attack - int(fb.total[opp]) * self.defence) // 10
        sets = fb.sets
        opp_fours = bool(sets[opp][FOUR] or sets[opp][OPEN4])
        if sets[me][OPEN4]:
            value += self.MY_OPEN3
        else:
            ft, tt = double_threats(fb, me)
            if ft:
                value += self.MY_FOUR_THREE if not opp_fours else self.MY_FOUR_THREE // 3
            elif tt and not opp_fours:
                value += self.MY_THREE_THREE
        my_fours = bool(sets[me][FOUR] or sets[me][OPEN4])
        if sets[opp][OPEN4] and not my_fours:
            value -= self.OPP_OPEN3
        ft, tt = double_threats(fb, opp)
        if (ft or tt) and not my_fours:
            value -= self.OPP_DOUBLE
        return value

    def node_width(self, ply: int) -> int:
        """:attr:`schedule` at ``ply`` (capped by :attr:`width`), or :attr:`width` without one."""
        sched = self.schedule
        if not sched:
            return self.width
        return min(self.width, sched[ply] if ply < len(sched) else sched[-1])

    def _children(self, moves: list[int], depth: int, alpha: int, beta: int, ply: int) -> tuple[int, int]:
        """As :meth:`AlphaBeta._children`, as a principal-variation search: the first move with
        the full window, the others with a null window first (re-searched when they beat it)."""
        fb = self.fb
        best, best_move = -WIN * 2, moves[0]
        first = True
        for q in moves:
            fb.play(q)
            try:
                if first:
                    value = -self.search(depth - 1, -beta, -alpha, ply + 1)
                    first = False
                else:
                    value = -self.search(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < value < beta:
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
        """As :meth:`AlphaBeta.root`; the (score, cell) pairs scored so far are also kept in
        :attr:`partial`, in search order, for :meth:`salvage` when the iteration times out."""
        fb = self.fb
        self.partial = out = []
        alpha = -WIN * 2
        for q in moves:
            fb.play(q)
            try:
                value = -self.search(depth - 1, -WIN * 2, -alpha + 1, 1)
            finally:
                fb.undo()
            out.append((value, q))
            alpha = max(alpha, value)
        return sorted(out, key=lambda t: -t[0])

    def salvage(self, ranked: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``ranked`` (the last complete iteration, best first, whose order the timed-out one
        followed) with the move of the timed-out iteration that beat ``ranked``'s first move at
        the new depth put first, if there is one (a score above the first move's is exact: the
        root window is open upwards)."""
        part = getattr(self, "partial", [])
        if len(part) < 2 or part[0][1] != ranked[0][1]:
            return ranked
        better = [t for t in part[1:] if t[0] > part[0][0]]
        if not better:
            return ranked
        best = max(better, key=lambda t: t[0])
        return [best] + [t for t in ranked if t[1] != best[1]]

    def moves(self, me: int, limit: int) -> list[int]:
        """Ordered candidates for ``me``, as :meth:`AlphaBeta.moves` but with every tie going to
        the lower cell (so the compiled search, :mod:`.nbsearch`, orders exactly alike). Under
        an open three of the other side: its open-four cells, its four best four cells and
        (unless ``force_defence``) our four cells, by both sides' scores; else the ``limit``
        best candidates by ``10 * own score + 9 * other's``."""
        fb = self.fb
        opp = 3 - me
        sm, so = fb.score[me], fb.score[opp]
        if fb.sets[opp][OPEN4]:
            defence = set(fb.sets[opp][OPEN4])
            defence.update(sorted(fb.sets[opp][FOUR], key=lambda q: (-so[q], q))[:4])
            if not self.force_defence:
                defence.update(fb.four_moves(me))
            moves = [q for q in defence if fb.legal(q, me)]
            moves.sort(key=lambda q: (-(sm[q] + so[q]), q))
            return moves
        nc = fb.geo.NC
        idx = np.flatnonzero((fb._st[:nc] == 0) & (fb.nearc > 0))
        if idx.size == 0:
            return []
        vals = sm[idx] * 10 + so[idx] * 9
        cands = idx[np.lexsort((idx, -vals))].tolist()
        if me == XS and fb.renju:
            cands = [q for q in cands[:limit + 6] if not fb.is_foul(q)]
        return cands[:limit]


_ZOB_ARRAYS: dict[int, np.ndarray] = {}
TABLE_ROOM = 1 << 15  # window keys the compiled search may add to the table without it growing


class CompiledSearch(HardSearch):
    """:class:`HardSearch` whose :meth:`root` runs the compiled search (:mod:`.nbsearch`, the
    same algorithm over the board's compiled state, about 20x the nodes per second), with a
    transposition table of its own kept across moves per rule set and width. Renju boards
    use :class:`HardSearch` itself (the foul test is the engine's, in Python)."""

    def __init__(self, fb: FastBoard, deadline: float, width: int = 10, force_defence: bool = False,
                 use_tt: bool = True) -> None:
        super().__init__(fb, deadline, width, force_defence)
        self.compiled = not fb.renju
        if not self.compiled:
            return
        pat = fb.pat
        if use_tt:
            key = (type(self), width)
            self.tables = pat.nb_search.get(key)
            if self.tables is None:
                self.tables = pat.nb_search[key] = nbsearch.new_tables()
        else:
            self.tables = nbsearch.new_tables(4)
        nc = fb.geo.NC
        zob = _ZOB_ARRAYS.get(nc)
        if zob is None:
            zob = _ZOB_ARRAYS[nc] = np.array([[nbsearch.signed(x) for x in row] for row in fb.zob],
                                             dtype=np.int64)
        self._zob = zob
        sched = self.schedule or (width,)
        prm = np.zeros(nbsearch.PRM_LEN, dtype=np.int64)
        prm[nbsearch.P_NC] = nc
        prm[nbsearch.P_BLOCKED] = fb.rules.blocked != "none"
        prm[nbsearch.P_WIN_LENGTH] = fb.rules.win_length
        prm[nbsearch.P_WIDTH] = width
        prm[nbsearch.P_SCHED:nbsearch.P_SCHED + len(sched)] = sched
        prm[nbsearch.P_NSCHED] = len(sched)
        prm[nbsearch.P_ATTACK] = self.attack
        prm[nbsearch.P_DEFENCE] = self.defence
        prm[nbsearch.P_MY_OPEN3] = self.MY_OPEN3
        prm[nbsearch.P_MY_FOUR_THREE] = self.MY_FOUR_THREE
        prm[nbsearch.P_MY_THREE_THREE] = self.MY_THREE_THREE
        prm[nbsearch.P_OPP_DOUBLE] = self.OPP_DOUBLE
        prm[nbsearch.P_OPP_OPEN3] = self.OPP_OPEN3
        prm[nbsearch.P_TT_MASK] = len(self.tables[0]) - 1
        prm[nbsearch.P_USE_TT] = use_tt
        prm[nbsearch.P_FORCE_DEFENCE] = force_defence
        prm[nbsearch.P_TABLE] = nbsearch.register(pat)
        self._prm = prm
        self._cnts = np.zeros(24, dtype=np.int64)
        self._ctl = nbsearch.new_ctl()
        self._tm = np.zeros(1, dtype=np.float64)
        self._mv = np.zeros((nbsearch.PLIES, nbsearch.MAXMOVES), dtype=np.int64)

    def root(self, moves: list[int], depth: int) -> list[tuple[int, int]]:
        """As :meth:`HardSearch.root` (raises :class:`Timeout` at the deadline, the moves
        scored so far in :attr:`partial`), compiled."""
        if not self.compiled:
            return super().root(moves, depth)
        fb = self.fb
        pat = fb.pat
        arr = np.array(moves, dtype=np.int64)
        scores = np.zeros(len(moves), dtype=np.int64)
        ctl, tm = self._ctl, self._tm
        tkeys, tdata = self.tables
        while True:
            pat.reserve(TABLE_ROOM)
            nbsearch.count_sets(fb._st, fb.geo.NC, self._cnts)
            ctl[:] = 0
            ctl[nbsearch.MAX_NODES] = 1 << 60
            ctl[nbsearch.NEXT_CHECK] = nbsearch.CHECK_EVERY
            tm[0] = self.deadline
            done = nbsearch.root(fb.turn, arr, len(moves), depth, nbsearch.signed(fb.hash), scores, fb._st,
                                 fb.geo.arr, pat.mkeys, pat.mvals, fb._out, self._cnts, self._zob, tkeys,
                                 tdata, self._prm, ctl, tm, self._mv)
            self.nodes += int(ctl[nbsearch.NODES])
            if ctl[nbsearch.STOP] != nbsearch.STOP_MISS:
                break
            # a window the table had not classified yet: classify it, search again (the
            # finished subtrees are in the table)
            pat.fill(fb._out[OUT_MISS:OUT_MISS + int(ctl[nbsearch.NMISS])].tolist())
        self.partial = [(int(scores[i]), moves[i]) for i in range(done)]
        if ctl[nbsearch.STOP] == nbsearch.STOP_TIME:
            raise Timeout
        return sorted(self.partial, key=lambda t: -t[0])


def double_threats(fb: FastBoard, s: int) -> tuple[bool, bool]:
    """Whether side ``s`` has a legal cell making a four and an open three on two lines
    (four-three), and whether it has one making open threes on two lines (three-three).
    Reads the board's per-line class counts; cost: the cells of ``s``'s four and three sets."""
    cnt = fb.cnt[s]
    c3, c4, c5 = cnt[THREE], cnt[FOUR], cnt[OPEN4]
    ft = tt = False
    st = fb.sets[s]
    for q in st[FOUR] | st[OPEN4]:
        if c3[q] and (s != XS or not fb.renju or not fb.is_foul(q)):
            ft = True
            break
    for q in st[THREE]:
        if c3[q] >= 2 and not c4[q] and not c5[q] and (s != XS or not fb.renju or not fb.is_foul(q)):
            tt = True
            break
    return ft, tt


def fewest_threats(ranked: list[tuple[int, int]], counts: dict[int, int], penalty: int) -> int:
    """The reply to play among ``ranked`` safe replies ((alpha-beta score, cell), best first),
    given ``counts`` (cell -> threat moves it leaves the opponent): the highest score less
    ``penalty`` evaluation units per threat move, the first of equals. The best score alone
    decides when it is a won or lost one, or when a reply has no count (time ran out)."""
    if not counts or any(q not in counts for _, q in ranked) or abs(ranked[0][0]) >= WIN - 100:
        return ranked[0][1]
    return max(ranked, key=lambda r: r[0] - penalty * counts[r[1]])[1]


class CaroBot:
    """Base class: ``choose(board, budget_ms=1000, rng=None) -> square name``."""

    level = "?"

    def choose(self, board: Board, budget_ms: int = 1000, rng: random.Random | None = None) -> str:
        """Return a legal move (square name) for the side to move on the engine ``board``.

        ``budget_ms``: thinking time in milliseconds (Easy and Medium use far less). ``rng``: a
        :class:`random.Random` for the levels that randomise. Raises ValueError when the game is
        over or no legal move exists.
        """
        rng = rng if rng is not None else random.Random()
        fb = _root(board)
        q = self._choose(fb, budget_ms, rng)
        return fb.name(q)

    def _choose(self, fb: FastBoard, budget_ms: int, rng: random.Random) -> int:  # pragma: no cover
        raise NotImplementedError


class CaroEasy(CaroBot):
    """Easy: fives always; blocks a five-threat except with probability :attr:`miss` (then it
    plays elsewhere); otherwise a good-shape move chosen at random among the best three."""

    level = "easy"
    miss = 0.35

    def _choose(self, fb, budget_ms, rng):
        me, opp = fb.turn, 3 - fb.turn
        missing = rng.random() < self.miss
        q = _tactical_prelude(fb, rng, block=not missing)
        if q is not None:
            return q
        avoid = set(fb.defences(opp)) if missing and fb.sets[opp][FIVE] else set()
        cands = [c for c in _legal_cells(fb, me, fb.candidates()) if c not in avoid]
        if not cands:
            return _any_legal(fb, me, rng)
        sm, so = fb.score[me], fb.score[opp]
        ranked = sorted(cands, key=lambda c: -(sm[c] + so[c] * 7 // 10 + rng.random() * 20))
        pick = rng.random()
        k = 0 if pick < 0.6 else 1 if pick < 0.85 else 2
        return ranked[min(k, len(ranked) - 1)]


class CaroMedium(CaroBot):
    """Medium: fives, five-threat blocks, a short VCF, open-three blocks (unless it has a VCF),
    then a 2-ply alpha-beta over the best 10 candidates (small random tie-breaks)."""

    level = "medium"
    depth = 2  # plies of alpha-beta

    def _choose(self, fb, budget_ms, rng):
        me = fb.turn
        q = _tactical_prelude(fb, rng)
        if q is not None:
            return q
        t0 = time.perf_counter()
        budget = min(budget_ms, 400) / 1000
        line = ThreatSearch(fb, t0 + budget * 0.3, max_nodes=3000).vcf(depth=5)
        if line:
            return line[0]
        ab = AlphaBeta(fb, t0 + budget, width=10, force_defence=True)
        moves = ab.moves(me, 12)
        if not moves:
            return _any_legal(fb, me, rng)
        try:
            ranked = ab.root(moves, self.depth)
        except Timeout:
            return moves[0]
        top = ranked[0][0]
        near = [q for v, q in ranked if v >= top - max(20, abs(top) // 20)]
        return near[rng.randrange(len(near))]


class CaroHard(CaroBot):
    """Hard: fives and blocks; its own VCF, then its own VCT (fours and any number of open
    threes, proof-number search with tables shared across moves); then the opponent's threats
    (the VCF / VCT the opponent would have if it moved now): when there is one, only replies
    after which the opponent has neither are searched (the threat line's first square, our
    fours, the best candidates, the rest of the line, the opponent's threat squares and our
    threes are tried; undecided ones are rechecked while time is left). With several safe
    replies, those after which the opponent has a quiet winning move or a VCT with threes
    anywhere are dropped, and each one left is given the number of threat moves the opponent
    keeps (:meth:`threat_moves`). Finally iterative-deepening alpha-beta over the restricted
    candidates: under a threat the reply with the best score less
    :attr:`threat_move_penalty` per threat move is played; otherwise the best, after a check
    that it leaves the opponent no VCF (nor, while time is left, a VCT).

    Search depths count attacker moves: :attr:`vcf_depth`, :attr:`vct_depth` for its own
    threats, :attr:`opp_vct_depth` for the opponent's."""

    level = "hard"
    search_class = CompiledSearch  # its alpha-beta (HardSearch's, compiled; Renju: in Python)
    share = 0.8  # part of the budget it plans to use
    # quiet positions (no opponent threat): the alpha-beta stops by this part of the planned
    # time, so the safety check of the chosen move always has the rest; it starts no new depth
    # after :attr:`deepen_until` (an iteration cut off by the clock still counts, see salvage)
    search_until = 0.8
    deepen_until = 0.65
    vcf_depth = 16
    vct_depth = 12
    opp_vct_depth = 10
    vct_share_quiet, vct_share_threat = 0.5, 0.25  # parts of the budget for its own VCT
    recheck_until = 0.7  # part of the budget by which rechecks of undecided replies stop
    min_checked = 3  # with no reply proven safe, at least this many are checked (time allowing)
    wide_share = 0.15  # part of the budget for a second, wider own VCT (threes anywhere)
    quiet_share = 0.15  # part of the budget for a quiet move that wins (ThreatSearch.quiet_win)
    quiet_share_each, quiet_until = 0.05, 0.75  # the same for the opponent, after each safe reply
    max_depth = 16  # plies of the deepest alpha-beta iteration (the compiled search reaches 12 often)
    wide_check_share = 0.05  # after each safe reply: the opponent's VCT with threes anywhere (no zone)
    count_cells, count_nodes = 24, 5000  # threat moves counted after each safe reply (see threat_moves)
    count_until = 0.9  # part of the budget by which the counts must be done (else not used)
    threat_move_penalty = 100  # evaluation units per threat move the opponent keeps

    @staticmethod
    def counts_threats(rules) -> bool:
        """Whether Hard, under a threat with several safe replies, runs the wide VCT check and
        ranks them by :meth:`threat_moves`: in freestyle and exact five (no blocked ends, no Renju),
        where it was measured to help (bench/puzzles.py: 29 -> 32 of 34 defences held; matches
        against hard_v1 kept). In caro with blocked ends the time it takes from the alpha-beta cost
        more than it gave (bench/match.py: 24.5 of 38 games = 64 % against hard_v1, against 77 % of
        48 without), and it was never measured under Renju, so those keep the alpha-beta's choice."""
        return rules.blocked == "none" and not rules.renju

    def threat_moves(self, fb: FastBoard, deadline: float, shared: bool = True) -> int:
        """How many threat moves the side to move has: of its :attr:`count_cells` best cells
        (its own shape counted three times the opponent's), those after which it would have a
        VCF or VCT if it moved again (:attr:`count_nodes` nodes each). Hard's measure of how
        much attack a defence leaves the opponent: the fewer, the better the defence.
        ``shared``: the rule set's kept tables (False: fresh ones, the same answer on any
        machine). Raises Timeout past ``deadline`` (``time.perf_counter``, s)."""
        att = fb.turn
        sa, sd = fb.score[att], fb.score[3 - att]
        cells = sorted((q for q in fb.cand if fb.cells[q] == 0 and fb.legal(q, att)),
                       key=lambda q: (-(sa[q] * 3 + sd[q]), q))[:self.count_cells]
        n = 0
        for a in cells:
            if time.perf_counter() > deadline:
                raise Timeout
            fb.play(a)
            fb.turn = att
            try:
                ts = ThreatSearch(fb, deadline, max_nodes=self.count_nodes, shared=shared)
                n += (ts.vcf(depth=self.vcf_depth) or ts.vct(depth=self.opp_vct_depth)) is not None
            finally:
                fb.turn = 3 - att
                fb.undo()
        return n

    @staticmethod
    def _drop_lost(fb: FastBoard, replies: list[int], until: float, lost) -> list[int]:
        """``replies`` in order without those after which ``lost()`` (a search run with the reply
        played on ``fb``) is true; the ones not reached by ``until`` (``time.perf_counter``, s)
        are kept, and all of them when every one is lost."""
        kept = []
        for k, c in enumerate(replies):
            if time.perf_counter() > until:
                kept.extend(replies[k:])
                break
            fb.play(c)
            try:
                gone = lost()
            finally:
                fb.undo()
            if not gone:
                kept.append(c)
        return kept or replies

    def _opp_threat(self, fb: FastBoard, deadline: float, nodes: int) -> list[int] | None:
        """The opponent's VCF or VCT if it were to move now (a null move), else None."""
        fb.turn = 3 - fb.turn
        try:
            ts = ThreatSearch(fb, deadline, max_nodes=nodes, shared=True)
            return ts.vcf(depth=self.vcf_depth) or ts.vct(depth=self.opp_vct_depth)
        finally:
            fb.turn = 3 - fb.turn

    def _safe(self, fb: FastBoard, q: int, deadline: float, nodes: int) -> tuple[int, int]:
        """After ``q``: (2, depth) if the opponent has no VCF and no VCT the searches can find
        (both completed; ``depth``: the VCT's depth cap in attacker moves), (1, pn) if unknown
        (a search ran out of time; ``pn``: the proof number the opponent's VCT search had
        reached, bigger = farther from a proof), (0, 0) if it has one."""
        fb.play(q)
        try:
            ts = ThreatSearch(fb, deadline, max_nodes=nodes, shared=True)
            if ts.vcf(depth=self.vcf_depth) is not None or ts.vct(depth=self.opp_vct_depth) is not None:
                return 0, 0
            return (1, ts.proof_number) if ts.timed_out else (2, ts.completed)
        finally:
            fb.undo()

    def _defence_order(self, fb: FastBoard, threat: list[int], ab: AlphaBeta, moves: list[int]) -> list[int]:
        """Replies worth trying against the opponent's ``threat`` line, most promising first."""
        me, opp = fb.turn, 3 - fb.turn
        so, sm = fb.score[opp], fb.score[me]
        line = [c for c in threat if c is not None and fb.cells[c] == 0]
        opp_cells = set(fb.sets[opp][OPEN4]) | set(fb.sets[opp][FOUR]) | set(fb.sets[opp][THREE])
        opp_cells = sorted(opp_cells, key=lambda c: -(so[c] + sm[c]))
        # own fours early: a four gains a tempo (the block is forced) and often breaks the
        # opponent's sequence; then the best candidates, the rest of the line, its shape cells
        fours = sorted(fb.four_moves(me), key=lambda c: -(sm[c] + so[c]))
        mine = sorted(fb.three_moves(me), key=lambda c: -(sm[c] + so[c]))
        order = []
        for c in line[:1] + fours + moves[:4] + line[1:] + opp_cells + mine + moves + ab.moves(me, 24):
            if c not in order and fb.cells[c] == 0 and fb.legal(c, me):
                order.append(c)
        return order

    def _choose(self, fb, budget_ms, rng):
        me = fb.turn
        q = _tactical_prelude(fb, rng)
        if q is not None:
            return q
        t0 = time.perf_counter()
        budget = max(budget_ms, 50) / 1000 * self.share
        end = t0 + budget
        line = ThreatSearch(fb, t0 + budget * 0.12, shared=True, min_nodes=2500).vcf(depth=self.vcf_depth)
        if line:
            return line[0]
        # own VCT: a larger share when the opponent has no open three (then our threes are
        # real threats and there is no defence to check)
        share = self.vct_share_quiet if not fb.sets[3 - me][OPEN4] else self.vct_share_threat
        line = ThreatSearch(fb, t0 + budget * share, shared=True).vct(depth=self.vct_depth)
        if line:
            return line[0]
        if self.wide_share:
            line = ThreatSearch(fb, time.perf_counter() + budget * self.wide_share, shared=True, three_width=40,
                                zone=False).vct(depth=self.vct_depth)
            if line:
                return line[0]
        ab = self.search_class(fb, end, width=10)
        moves = ab.moves(me, 14)
        if not moves:
            return _any_legal(fb, me, rng)
        if len(moves) == 1:
            return moves[0]
        threat = self._opp_threat(fb, time.perf_counter() + budget * 0.15, 4 * NODE_CAP)
        if not threat:
            # a quiet move after which our threat sequence cannot be stopped
            q = ThreatSearch(fb, time.perf_counter() + budget * self.quiet_share, shared=True).quiet_win(
                self.vcf_depth, self.opp_vct_depth)
            if q is not None:
                return q
        counts: dict[int, int] = {}
        if threat:
            order = self._defence_order(fb, threat, ab, moves)
            proven, unknown = [], []
            stop = t0 + budget * 0.6
            for c in order:
                if len(proven) >= 5 or (time.perf_counter() > stop and (
                        proven or len(unknown) >= self.min_checked or time.perf_counter() > end)):
                    break
                now = time.perf_counter()
                per = min(stop if now < stop else end, now + budget * 0.08)
                verdict, _ = self._safe(fb, c, per, 2 * NODE_CAP)
                if verdict == 2:
                    proven.append(c)
                elif verdict == 1:
                    unknown.append(c)
            if not proven and len(unknown) > 1:
                # undecided replies: time left before the recheck mark goes to checking the
                # first few again (the shared tables let each check resume where it stopped);
                # one proven safe is played, one proven lost is dropped, the rest go to the
                # alpha-beta
                kept = unknown[:4]
                stop = t0 + budget * self.recheck_until
                still = []
                for k, c in enumerate(kept):
                    share = (stop - time.perf_counter()) / (len(kept) - k)
                    if share < budget * 0.03:
                        still.extend(kept[k:])
                        break
                    verdict, _ = self._safe(fb, c, time.perf_counter() + share, 400000)
                    if verdict == 2:
                        return c
                    if verdict == 1:
                        still.append(c)
                unknown = still or unknown
            if len(proven) > 1:
                # replies after which the opponent has a quiet move that wins (a threat sequence
                # one move away that our likely answers do not stop) are dropped, if any is left
                until = t0 + budget * self.quiet_until
                proven = self._drop_lost(fb, proven, until, lambda: ThreatSearch(
                    fb, min(until, time.perf_counter() + budget * self.quiet_share_each), shared=True,
                ).quiet_win(self.vcf_depth, self.opp_vct_depth) is not None)
            if len(proven) > 1 and self.counts_threats(fb.rules):
                # a VCT with threes anywhere (the first checks try threes near the last moves
                # only), then how many threat moves the opponent keeps
                proven = self._drop_lost(fb, proven, t0 + budget * self.count_until, lambda: ThreatSearch(
                    fb, time.perf_counter() + budget * self.wide_check_share, shared=True, zone=False,
                ).vct(depth=self.opp_vct_depth) is not None)
                try:
                    for c in proven:
                        fb.play(c)
                        try:
                            counts[c] = self.threat_moves(fb, t0 + budget * self.count_until)
                        finally:
                            fb.undo()
                except Timeout:
                    counts = {}
            survivors = proven or unknown
            if len(survivors) == 1:
                return survivors[0]
            if survivors:
                moves = survivors
        ranked = [(0, q) for q in moves]
        ab.deadline = end if threat else t0 + budget * self.search_until
        depth = 1
        while depth <= self.max_depth:
            try:
                ranked = ab.root([q for _, q in ranked], depth)
            except Timeout:
                ranked = ab.salvage(ranked)  # a move the unfinished iteration found better
                break
            if ranked[0][0] >= WIN - 100 or ranked[0][0] <= -(WIN - 100):
                break
            depth += 1
            # quiet positions stop deepening at deepen_until of the budget; under an opponent
            # threat (few survivors, sharp play) it deepens until the deadline
            if time.perf_counter() - t0 > budget * (self.deepen_until if not threat else 1.0):
                break
        order = [q for _, q in ranked]
        if threat:
            return fewest_threats(ranked, counts, self.threat_move_penalty)
        # safety: avoid a move that gives the opponent a VCF or (while time is left) a VCT
        for q in order[:6]:
            if time.perf_counter() > end:
                break
            fb.play(q)
            try:
                ts = ThreatSearch(fb, min(end, time.perf_counter() + budget * 0.06), max_nodes=NODE_CAP // 2, shared=True)
                bad = ts.vcf(depth=self.vcf_depth) is not None
                if not bad and time.perf_counter() < end - budget * 0.05:
                    ts = ThreatSearch(fb, min(end, time.perf_counter() + budget * 0.1), max_nodes=NODE_CAP, shared=True)
                    bad = ts.vct(depth=self.opp_vct_depth) is not None
            finally:
                fb.undo()
            if not bad:
                return q
        return order[0]


CARO_BOTS = {"easy": CaroEasy, "medium": CaroMedium, "hard": CaroHard}
