"""Search for Reversi Hard: fast move generation, a tuned evaluation, negascout and an exact
endgame solver on Python-int bitboards, and the move choice.

The bot's move choice (:func:`choose`) runs the compiled twins of :class:`Search` and
:class:`Endgame` in :mod:`bench.pybots.reversi_nb` (numba; the same evaluation, weights and
algorithms, about 70 times as many nodes per second). The pure-Python versions here are the
reference the tests compare the compiled ones with, and what ``bench/reversi_tune.py`` plays its
self-play games with.

Bit ``row * 8 + col`` is a square (a1 = bit 0, h1 = bit 7, a8 = bit 56), as in
:mod:`caro.engine.reversi`. Every score is from the side to move's view.

* **Move generation**: :func:`moves` fills from the own discs through runs of opponent discs
  in all eight directions with Kogge-Stone parallel-prefix shifts (three shift steps per
  direction instead of six); :func:`flips` finds, per direction, the first square that is not an
  opponent disc with one ``bit_count``/``bit_length`` trick on a precomputed ray (no loop over
  squares). Disc counts use ``int.bit_count``.
* **Evaluation** (:func:`evaluate`): per game phase (:data:`PHASE_OF` disc count), a weighted
  sum of mobility, potential mobility (frontier), corners, X squares and C squares next to an
  empty corner, edge discs, stable edge discs (anchored to a corner or on a full edge), disc
  difference and parity. The weights (:data:`WEIGHTS`) come from ``bench/reversi_tune.py``: a
  least-squares fit of final disc differences of our own self-play games.
* **Midgame** (:class:`Search`): iterative-deepening negascout (principal variation search)
  with a transposition table, move ordering by the table's move, killer moves, a history table
  and, near the root, the opponent's mobility after the move (fewest replies first).
* **Endgame** (:class:`Endgame`): exact final disc difference with alpha-beta, a table of
  bounds, fewest-replies-first ordering and, near the leaves, quadrant parity ordering.
* **Move choice** (:func:`choose`): from :data:`EXACT_EMPTIES` empties an exact solve, from
  :data:`WLD_EMPTIES` a win/draw/loss solve, each after a short midgame search that orders it;
  a solve that does not finish by :data:`SOLVE_SHARE_END` of the planned time gives way to the
  midgame search again.

Both searches stop at a deadline (``time.perf_counter`` seconds) or after ``max_nodes`` nodes by
raising :class:`Timeout`; callers keep the result of the last finished iteration.
"""

from __future__ import annotations

import threading
import time

import numpy as np

FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE  # every column but a (a left shift by 1, 9 must not wrap into a)
NOT_H = 0x7F7F7F7F7F7F7F7F  # every column but h
COL_A = 0x0101010101010101
_COL_MAGIC = 0x0102040810204080  # (x & COL_A) * magic >> 56: column a as one byte, a1 = bit 0
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
EDGES = 0xFF818181818181FF
# (corner, its X square, its two C squares)
_CORNER_NEAR = ((0, 9, (1, 8)), (7, 14, (6, 15)), (56, 49, (48, 57)), (63, 54, (55, 62)))
C_SQUARES = 0
for _c, _x, (_c1, _c2) in _CORNER_NEAR:
    C_SQUARES |= (1 << _c1) | (1 << _c2)
# plain edge squares: edges without corners and C squares
A_EDGES = EDGES & ~CORNERS & ~C_SQUARES

WIN = 1_000_000  # added to a finished game's score (x SCALE disc difference) by the winner
SCALE = 100  # evaluation units per disc of final difference
INF = 10**9


class Timeout(Exception):
    """The deadline passed or the node limit was reached inside a search."""


# -- move generation ---------------------------------------------------------------------------

def moves(me: int, opp: int) -> int:
    """Bitboard of the legal moves of ``me`` against ``opp`` (Kogge-Stone fills, 8 directions)."""
    empty = ~(me | opp) & FULL
    out = 0
    # east (+1) and west (-1): the propagator excludes the column a run would wrap into
    p = opp & NOT_A
    g = me | (p & (me << 1))
    q = p & (p << 1)
    g |= q & (g << 2)
    q &= q << 2
    g |= q & (g << 4)
    out |= ((g & opp) << 1) & NOT_A
    p = opp & NOT_H
    g = me | (p & (me >> 1))
    q = p & (p >> 1)
    g |= q & (g >> 2)
    q &= q >> 2
    g |= q & (g >> 4)
    out |= ((g & opp) >> 1) & NOT_H
    # south (+8) and north (-8)
    g = me | (opp & (me << 8))
    q = opp & (opp << 8)
    g |= q & (g << 16)
    q &= q << 16
    g |= q & (g << 32)
    out |= (g & opp) << 8
    g = me | (opp & (me >> 8))
    q = opp & (opp >> 8)
    g |= q & (g >> 16)
    q &= q >> 16
    g |= q & (g >> 32)
    out |= (g & opp) >> 8
    # diagonals +9 / -9 and +7 / -7
    p = opp & NOT_A
    g = me | (p & (me << 9))
    q = p & (p << 9)
    g |= q & (g << 18)
    q &= q << 18
    g |= q & (g << 36)
    out |= ((g & opp) << 9) & NOT_A
    p = opp & NOT_H
    g = me | (p & (me >> 9))
    q = p & (p >> 9)
    g |= q & (g >> 18)
    q &= q >> 18
    g |= q & (g >> 36)
    out |= ((g & opp) >> 9) & NOT_H
    p = opp & NOT_H
    g = me | (p & (me << 7))
    q = p & (p << 7)
    g |= q & (g << 14)
    q &= q << 14
    g |= q & (g << 28)
    out |= ((g & opp) << 7) & NOT_H
    p = opp & NOT_A
    g = me | (p & (me >> 7))
    q = p & (p >> 7)
    g |= q & (g >> 14)
    q &= q >> 14
    g |= q & (g >> 28)
    out |= ((g & opp) >> 7) & NOT_A
    return out & empty


def _rays():
    up, down = [], []
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        ups, downs = [], []
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)):
            r, c, ray, n = r0 + dr, c0 + dc, 0, 0
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (r * 8 + c)
                n += 1
                r, c = r + dr, c + dc
            if n >= 2:  # a flip needs an opponent disc and an own disc beyond it
                first = 1 << ((r0 + dr) * 8 + c0 + dc)
                (ups if dr * 8 + dc > 0 else downs).append((first, ray))
        up.append(tuple(ups))
        down.append(tuple(downs))
    return tuple(up), tuple(down)


_UP, _DOWN = _rays()  # per square: (first square, ray) towards higher / lower bit indexes


def flips(me: int, opp: int, sq: int) -> int:
    """Discs flipped by ``me`` playing bit index ``sq`` (0 if none). Per ray, the first square
    that is not an opponent disc is the lowest (rising rays) or highest (falling rays) set bit of
    ``ray & ~opp``; if it is an own disc, the ray's squares before it flip. Rays whose first
    square is not an opponent disc are skipped at once."""
    f = 0
    for first, ray in _UP[sq]:
        if opp & first:
            b = ray & ~opp
            b &= -b
            if b & me:
                f |= ray & (b - 1)
    for first, ray in _DOWN[sq]:
        if opp & first:
            b = ray & ~opp
            if b:
                b = 1 << (b.bit_length() - 1)
                if b & me:
                    f |= ray & ~((b << 1) - 1)
    return f


def neighbours(b: int) -> int:
    """Squares next to any bit of ``b`` (8 directions, no wrap)."""
    return (((b << 1) & NOT_A) | ((b >> 1) & NOT_H) | (b << 8) | (b >> 8) | ((b << 9) & NOT_A)
            | ((b >> 9) & NOT_H) | ((b << 7) & NOT_H) | ((b >> 7) & NOT_A)) & FULL


# -- evaluation ----------------------------------------------------------------------------------

def _anchored(byte: int) -> int:
    """Count of the bits of an 8-bit edge connected to either end by set bits."""
    mask = 0
    for order in (range(8), range(7, -1, -1)):
        for i in order:
            if byte >> i & 1:
                mask |= 1 << i
            else:
                break
    return mask.bit_count()


_ANCHORED = tuple(_anchored(b) for b in range(256))


def _edge_bytes(x: int) -> tuple[int, int, int, int]:
    return (x & 0xFF, x >> 56, (((x & COL_A) * _COL_MAGIC) >> 56) & 0xFF,
            ((((x >> 7) & COL_A) * _COL_MAGIC) >> 56) & 0xFF)


def stable_edges(me: int, opp: int) -> int:
    """Own edge discs that can never flip: on a full edge, or joined to a corner by own discs
    along the edge (an edge disc can only be flipped along its edge). Corners count once per
    edge."""
    total = 0
    occ = _edge_bytes(me | opp)
    for own, full in zip(_edge_bytes(me), occ):
        total += own.bit_count() if full == 0xFF else _ANCHORED[own]
    return total


FEATURES = ("mobility", "potential", "corners", "x_squares", "c_squares", "edges", "stable",
            "discs", "parity")


def features(me: int, opp: int, my_moves: int, opp_moves: int) -> tuple[int, ...]:
    """The evaluation's features (side to move's view, in :data:`FEATURES` order): mobility
    difference, potential-mobility difference (empty squares next to the opponent's discs minus
    next to own), corner difference, X-square and C-square difference next to empty corners,
    plain edge-disc difference, stable-edge-disc difference, disc difference and parity (+1 when
    the side to move would play the last square of an even game, else -1)."""
    empty = ~(me | opp) & FULL
    xs = cs = 0
    for corner, x, (c1, c2) in _CORNER_NEAR:
        if empty >> corner & 1:
            xs += (me >> x & 1) - (opp >> x & 1)
            cs += (me >> c1 & 1) + (me >> c2 & 1) - (opp >> c1 & 1) - (opp >> c2 & 1)
    return (my_moves.bit_count() - opp_moves.bit_count(),
            (neighbours(opp) & empty).bit_count() - (neighbours(me) & empty).bit_count(),
            (me & CORNERS).bit_count() - (opp & CORNERS).bit_count(),
            xs, cs,
            (me & A_EDGES).bit_count() - (opp & A_EDGES).bit_count(),
            stable_edges(me, opp) - stable_edges(opp, me),
            me.bit_count() - opp.bit_count(),
            1 if empty.bit_count() & 1 else -1)


# Phases by discs on the board: 4-24, 25-36, 37-48, 49-64.
PHASE_BOUNDS = (24, 36, 48, 64)
PHASE_OF = tuple(next(k for k, top in enumerate(PHASE_BOUNDS) if n <= top) for n in range(65))

# Weights per phase, in :data:`FEATURES` order, in discs of final difference per unit of a
# feature: fitted by ``python bench/reversi_tune.py --games 500 --depth 3 --seed 2`` (ridge least
# squares on 29,704 positions of our own self-play games; R² per phase 0.18, 0.42, 0.60, 0.84).
WEIGHTS = (
    (0.72, -0.14, 14.90, -25.32, -5.21, 0.43, 3.89, -0.82, 1.68),
    (0.59, 0.43, 13.65, -13.90, -0.01, 0.28, 2.04, -0.45, 2.35),
    (1.30, 0.29, 4.62, -7.74, -1.96, -0.12, 1.50, 0.10, 1.61),
    (3.19, -1.23, -1.46, -3.67, -1.87, -1.07, 1.36, 0.61, 2.35),
)
_W = tuple(tuple(int(round(w * SCALE)) for w in row) for row in WEIGHTS)
_W_ARRAY = np.array(_W, dtype=np.int64)  # the same, for the compiled search


def evaluate(me: int, opp: int, my_moves: int, opp_moves: int) -> int:
    """Score in :data:`SCALE` units per disc of expected final difference (side to move's view):
    the phase's :data:`WEIGHTS` times :func:`features` (the same sum, unrolled for speed)."""
    occ = me | opp
    empty = ~occ & FULL
    w_mob, w_pot, w_cor, w_x, w_c, w_edge, w_stab, w_disc, w_par = _W[PHASE_OF[occ.bit_count()]]
    score = (w_mob * (my_moves.bit_count() - opp_moves.bit_count())
             + w_pot * ((neighbours(opp) & empty).bit_count() - (neighbours(me) & empty).bit_count())
             + w_disc * (me.bit_count() - opp.bit_count())
             + w_edge * ((me & A_EDGES).bit_count() - (opp & A_EDGES).bit_count()))
    if empty.bit_count() & 1:
        score += w_par
    else:
        score -= w_par
    if occ & EDGES:
        corners = occ & CORNERS
        if corners:
            score += w_cor * ((me & CORNERS).bit_count() - (opp & CORNERS).bit_count())
        if corners != CORNERS:
            for corner, x, (c1, c2) in _CORNER_NEAR:
                if not corners >> corner & 1:
                    score += w_x * ((me >> x & 1) - (opp >> x & 1))
                    score += w_c * ((me >> c1 & 1) + (me >> c2 & 1) - (opp >> c1 & 1) - (opp >> c2 & 1))
        if corners:
            stab = 0
            for own_m, own_o, full in (
                    (me & 0xFF, opp & 0xFF, occ & 0xFF), (me >> 56, opp >> 56, occ >> 56),
                    ((((me & COL_A) * _COL_MAGIC) >> 56) & 0xFF, (((opp & COL_A) * _COL_MAGIC) >> 56) & 0xFF,
                     (((occ & COL_A) * _COL_MAGIC) >> 56) & 0xFF),
                    (((((me >> 7) & COL_A) * _COL_MAGIC) >> 56) & 0xFF, ((((opp >> 7) & COL_A) * _COL_MAGIC) >> 56) & 0xFF,
                     ((((occ >> 7) & COL_A) * _COL_MAGIC) >> 56) & 0xFF)):
                if full == 0xFF:
                    stab += own_m.bit_count() - own_o.bit_count()
                elif full & 0x81:
                    stab += _ANCHORED[own_m] - _ANCHORED[own_o]
            score += w_stab * stab
    else:
        for corner, x, (c1, c2) in _CORNER_NEAR:
            score += w_x * ((me >> x & 1) - (opp >> x & 1))
    return score


def final_score(me: int, opp: int) -> int:
    """A finished game's score: disc difference (empties to the winner) in :data:`SCALE` units,
    plus or minus :data:`WIN`."""
    a, b = me.bit_count(), opp.bit_count()
    diff = a - b
    if diff > 0:
        return WIN + (diff + 64 - a - b) * SCALE
    if diff < 0:
        return -WIN + (diff - (64 - a - b)) * SCALE
    return 0


# -- move ordering -------------------------------------------------------------------------------

_ROW_PRIORITY = (
    (9, 1, 7, 5, 5, 7, 1, 9),
    (1, 0, 3, 3, 3, 3, 0, 1),
    (7, 3, 6, 4, 4, 6, 3, 7),
    (5, 3, 4, 4, 4, 4, 3, 5),
    (5, 3, 4, 4, 4, 4, 3, 5),
    (7, 3, 6, 4, 4, 6, 3, 7),
    (1, 0, 3, 3, 3, 3, 0, 1),
    (9, 1, 7, 5, 5, 7, 1, 9),
)
PRIORITY = tuple(_ROW_PRIORITY[i // 8][i % 8] for i in range(64))  # corners first, X squares last
STATIC_ORDER = tuple(sorted(range(64), key=lambda i: -PRIORITY[i]))
QUADRANTS = (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32)


class Search:
    """Negascout with a transposition table, killers and history; a deadline and a node limit.

    ``deadline``: ``time.perf_counter()`` seconds; ``max_nodes``: node limit (None: none).
    Raises :class:`Timeout` from inside a search when either is passed.
    """

    MOBILITY_ORDER_DEPTH = 3  # from this remaining depth, children are sorted by opponent replies
    CHECK_EVERY = 64  # nodes between two looks at the clock (a few ms even on a loaded machine)

    def __init__(self, deadline: float, max_nodes: int | None = None) -> None:
        self.deadline = deadline
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.nodes = 0
        self.tt: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.history = [0] * 64
        self.killers: dict[int, int] = {}
        self.next_check = min(self.CHECK_EVERY, self.max_nodes)

    def _tick(self) -> None:
        if self.nodes >= self.max_nodes or time.perf_counter() > self.deadline:
            raise Timeout
        self.next_check = min(self.nodes + self.CHECK_EVERY, self.max_nodes)

    def _order(self, me: int, opp: int, legal: int, depth: int, first: int) -> list[tuple[int, int, int]]:
        """Children as (square, new me, new opp) of the mover, best-looking first."""
        killer = self.killers.get(depth, -1)
        history = self.history
        scored = []
        while legal:
            bit = legal & -legal
            legal ^= bit
            sq = bit.bit_length() - 1
            f = flips(me, opp, sq)
            nme, nopp = opp & ~f, me | f | bit
            if sq == first:
                key = -INF
            else:
                key = -PRIORITY[sq] * 64 - history[sq]
                if sq == killer:
                    key -= 5000
                if depth >= self.MOBILITY_ORDER_DEPTH:
                    key += moves(nme, nopp).bit_count() * 300 - PRIORITY[sq] * 40
            scored.append((key, sq, nme, nopp))
        scored.sort()
        return [(sq, a, b) for _, sq, a, b in scored]

    def search(self, me: int, opp: int, depth: int, alpha: int, beta: int, legal: int | None = None) -> int:
        """Negascout value of the position for the side to move, ``depth`` plies deep."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._tick()
        if legal is None:
            legal = moves(me, opp)
        if not legal:
            opp_legal = moves(opp, me)
            if not opp_legal:
                return final_score(me, opp)
            return -self.search(opp, me, depth, -beta, -alpha, opp_legal)
        if depth <= 0:
            return evaluate(me, opp, legal, moves(opp, me))
        key = (me, opp)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            e_depth, flag, value, first = entry
            if e_depth >= depth:
                if flag == 0 or (flag == 1 and value >= beta) or (flag == -1 and value <= alpha):
                    return value
        a0 = alpha
        best, best_sq = -INF, -1
        if depth == 1:
            # leaf parents: the table's move, then the static order, plain alpha-beta; children
            # are made one by one (a cutoff skips the rest)
            if first >= 0 and legal >> first & 1:
                order = (first,) + STATIC_ORDER
            else:
                order = STATIC_ORDER
                first = -1
            for sq in order:
                if not legal >> sq & 1:
                    continue
                legal &= ~(1 << sq)  # the table's move is not tried again
                f = flips(me, opp, sq)
                nme, nopp = opp & ~f, me | f | (1 << sq)
                self.nodes += 1
                nl = moves(nme, nopp)
                if nl:
                    value = -evaluate(nme, nopp, nl, moves(nopp, nme))
                else:
                    value = -self.search(nme, nopp, 0, -beta, -alpha, 0)
                if value > best:
                    best, best_sq = value, sq
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        else:
            pv = True
            for sq, nme, nopp in self._order(me, opp, legal, depth, first):
                if pv:
                    value = -self.search(nme, nopp, depth - 1, -beta, -alpha)
                    pv = False
                else:
                    value = -self.search(nme, nopp, depth - 1, -alpha - 1, -alpha)
                    if alpha < value < beta:
                        value = -self.search(nme, nopp, depth - 1, -beta, -value)
                if value > best:
                    best, best_sq = value, sq
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            self.killers[depth] = sq
                            self.history[sq] += depth * depth
                            break
        self.tt[key] = (depth, 1 if best >= beta else (-1 if best <= a0 else 0), best, best_sq)
        return best

    def root(self, me: int, opp: int, depth: int, first: int = -1,
             done: list | None = None) -> tuple[int, int]:
        """Return (value, best bit index) at ``depth``. ``done``, if given, gets the best
        (value, square) found so far appended after each root move, so a caller can use a
        partial iteration after :class:`Timeout`."""
        children = self._order(me, opp, moves(me, opp), depth + 8, first)
        alpha, beta = -INF, INF
        best, best_sq = -INF, children[0][0]
        for k, (sq, nme, nopp) in enumerate(children):
            if k == 0:
                value = -self.search(nme, nopp, depth - 1, -beta, -alpha)
            else:
                value = -self.search(nme, nopp, depth - 1, -alpha - 1, -alpha)
                if value > alpha:
                    value = -self.search(nme, nopp, depth - 1, -beta, -value)
            if value > best:
                best, best_sq = value, sq
                alpha = max(alpha, value)
            if done is not None:
                done.append((best, best_sq))
        return best, best_sq


class Endgame:
    """Exact solver: final disc difference (side to move's view; empty squares go to the winner)
    with alpha-beta, a table of bounds, fewest-replies-first ordering and parity ordering near
    the leaves. ``deadline`` in ``time.perf_counter()`` seconds, ``max_nodes`` a node limit; both
    raise :class:`Timeout`."""

    TT_EMPTIES = 7  # positions with more empties than this are stored
    SORT_EMPTIES = 6  # with more empties than this, children are sorted by opponent replies
    CHECK_EVERY = 256  # nodes between two looks at the clock (a few ms even on a loaded machine)

    def __init__(self, deadline: float, max_nodes: int | None = None) -> None:
        self.deadline = deadline
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.nodes = 0
        self.tt: dict[tuple[int, int], tuple[int, int]] = {}
        self.next_check = min(self.CHECK_EVERY, self.max_nodes)

    def solve(self, me: int, opp: int, alpha: int, beta: int, legal: int | None = None) -> int:
        """Exact final disc difference within (alpha, beta) (fail-soft)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            if self.nodes >= self.max_nodes or time.perf_counter() > self.deadline:
                raise Timeout
            self.next_check = min(self.nodes + self.CHECK_EVERY, self.max_nodes)
        empty = ~(me | opp) & FULL
        if empty & (empty - 1) == 0:  # zero or one empty square left
            if empty:
                sq = empty.bit_length() - 1
                f = flips(me, opp, sq)
                if f:
                    return (me | f | empty).bit_count() - (opp & ~f).bit_count()
                f = flips(opp, me, sq)
                if f:
                    return (me & ~f).bit_count() - (opp | f | empty).bit_count()
            diff = me.bit_count() - opp.bit_count()
            return diff + ((empty != 0) if diff > 0 else -(empty != 0) if diff < 0 else 0)
        if legal is None:
            legal = moves(me, opp)
        if not legal:
            opp_legal = moves(opp, me)
            if not opp_legal:
                n_empty = empty.bit_count()
                diff = me.bit_count() - opp.bit_count()
                return diff + (n_empty if diff > 0 else -n_empty if diff < 0 else 0)
            return -self.solve(opp, me, -beta, -alpha, opp_legal)
        n_empty = empty.bit_count()
        key = None
        if n_empty > self.TT_EMPTIES:
            key = (me, opp)
            hit = self.tt.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        a0, b0 = alpha, beta
        best = -65
        if n_empty > self.SORT_EMPTIES:
            scored = []
            while legal:
                bit = legal & -legal
                legal ^= bit
                sq = bit.bit_length() - 1
                f = flips(me, opp, sq)
                nme, nopp = opp & ~f, me | f | bit
                nl = moves(nme, nopp)
                scored.append((nl.bit_count() * 16 - PRIORITY[sq], nme, nopp, nl))
            scored.sort(key=lambda t: t[0])
            for _, nme, nopp, nl in scored:
                value = -self.solve(nme, nopp, -beta, -alpha, nl)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        else:
            # parity: squares in quadrants with an odd number of empties first
            odd = 0
            for quad in QUADRANTS:
                if (empty & quad).bit_count() & 1:
                    odd |= quad
            for part in (legal & odd, legal & ~odd):
                while part:
                    bit = part & -part
                    part ^= bit
                    f = flips(me, opp, bit.bit_length() - 1)
                    value = -self.solve(opp & ~f, me | f | bit, -beta, -alpha)
                    if value > best:
                        best = value
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                return best
        if key is not None:
            lo, hi = self.tt.get(key, (-65, 65))
            if best <= a0:
                hi = min(hi, best)  # fail low: an upper bound
            elif best >= b0:
                lo = max(lo, best)  # fail high: a lower bound
            else:
                lo = hi = best
            self.tt[key] = (lo, hi)
        return best

    def root(self, me: int, opp: int, first: int = -1, alpha: int = -65, beta: int = 65) -> tuple[int, int]:
        """Return (exact final disc difference, best move bit index) for the side to move, which
        must have a legal move. ``first``: a move to try first. With a narrower (``alpha``,
        ``beta``) window the value is exact only inside it (e.g. -1, 1 for win/draw/loss)."""
        legal = moves(me, opp)
        order = [sq for sq in STATIC_ORDER if legal >> sq & 1]
        if first in order:
            order.remove(first)
            order.insert(0, first)
        best, best_sq = -65, order[0]
        for sq in order:
            f = flips(me, opp, sq)
            value = -self.solve(opp & ~f, me | f | (1 << sq), -beta, -alpha)
            if value > best:
                best, best_sq = value, sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best, best_sq


# -- the Hard move choice ------------------------------------------------------------------------

EXACT_EMPTIES = 16  # exact solve (compiled) from this many empty squares at a 1000 ms budget
WLD_EMPTIES = 18  # win/draw/loss solve (window -1..1) from this many
SHARE = 0.7  # part of the budget Hard plans to use
NEXT_DEPTH_SHARE = 0.35  # no new midgame iteration after this part of the planned time
MIDGAME_SHARE_BEFORE_SOLVE = 0.2  # part of the planned time for a midgame search before a solve
MIDGAME_DEPTH_BEFORE_SOLVE = 10  # its deepest iteration (it only orders the solve and is the fallback)
SOLVE_SHARE_END = 0.85  # a solve not finished by this part of the planned time gives way to the midgame

_LOCAL = threading.local()  # per thread: the compiled search's arrays, reused by later moves


def _context():
    ctx = getattr(_LOCAL, "context", None)
    if ctx is None:
        from . import reversi_nb

        ctx = _LOCAL.context = reversi_nb.Context()
    return ctx


def choose(me: int, opp: int, budget_ms: int, max_nodes: int | None = None,
           info: dict | None = None) -> int:
    """Bit index of Hard's move for ``me`` (who must have a legal move) against ``opp``.

    The searches are the compiled ones of :mod:`bench.pybots.reversi_nb` (the same evaluation and
    algorithms as :class:`Search` / :class:`Endgame` here). ``budget_ms``: thinking time in ms
    (:data:`SHARE` of it is planned). ``max_nodes``: a node limit per search (the midgame search, the
    solve, the midgame search after a solve that did not finish; tests and benchmarks; None for
    none). ``info``, if given, receives ``depth`` (last finished midgame
    depth, 0 if none), ``solved`` ("exact", "wld" or None), ``empties``, ``nodes`` and
    ``score`` (evaluation units, or final disc difference when solved).
    """
    from . import reversi_nb as nb

    t0 = time.perf_counter()
    planned = max(budget_ms, 50) / 1000 * SHARE
    legal = moves(me, opp)
    empties = 64 - me.bit_count() - opp.bit_count()
    report = {"depth": 0, "solved": None, "empties": empties, "nodes": 0, "score": 0}
    if info is not None:
        info.update(report)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    exact_from = EXACT_EMPTIES + (2 if budget_ms >= 3000 else 0)
    wld_from = WLD_EMPTIES + (2 if budget_ms >= 3000 else 0)
    solving = empties <= wld_from
    ctx = _context()
    ctx.reset(t0 + planned * (MIDGAME_SHARE_BEFORE_SOLVE if solving else 1.0), max_nodes)
    w = _W_ARRAY
    bme, bopp = nb.U(me), nb.U(opp)
    state = {"best": next(sq for sq in STATIC_ORDER if legal >> sq & 1), "depth": 1}

    def deepen(max_depth: int, stop_share: float) -> None:
        while state["depth"] <= max_depth:
            sq = nb.root(bme, bopp, state["depth"], state["best"], ctx.st, ctx.tm, w, ctx.tk, ctx.tv,
                         ctx.hist, ctx.killers, ctx.buf, ctx.bb)
            if ctx.st[3]:
                # stopped: a partial iteration's move is used when it beat the old best
                if ctx.st[6] and int(ctx.st[5]) != state["best"] and report["depth"]:
                    state["best"] = int(ctx.st[5])
                return
            state["best"] = int(sq)
            report["score"], report["depth"] = int(ctx.st[4]), state["depth"]
            state["depth"] += 1
            if time.perf_counter() - t0 > planned * stop_share:
                return

    if not solving:
        deepen(empties, NEXT_DEPTH_SHARE)
    else:
        deepen(min(empties, MIDGAME_DEPTH_BEFORE_SOLVE), MIDGAME_SHARE_BEFORE_SOLVE)
        ctx.restart(t0 + planned * SOLVE_SHARE_END, max_nodes)
        if empties <= exact_from:
            value, sq = nb.solve_root(bme, bopp, state["best"], -65, 65, ctx.st, ctx.tm, ctx.ek, ctx.ev,
                                      ctx.bb, ctx.buf)
            if not ctx.st[3]:
                report["score"], report["solved"], state["best"] = int(value), "exact", int(sq)
        else:
            value, sq = nb.solve_root(bme, bopp, state["best"], -1, 1, ctx.st, ctx.tm, ctx.ek, ctx.ev,
                                      ctx.bb, ctx.buf)
            if not ctx.st[3]:
                if value >= 0:  # keep the midgame move unless the solve found a better result
                    state["best"] = int(sq)
                report["score"], report["solved"] = int(value), "wld"
        if ctx.st[3]:
            # not solved: the midgame search goes on (same table) for the rest of the time
            ctx.restart(t0 + planned, max_nodes)
            deepen(empties, 1.0)
    report["nodes"] = int(ctx.st[0])
    if info is not None:
        info.update(report)
    return state["best"]
