"""Reversi bots on bitboards (Python ints): Easy, Medium and Hard.

Bit ``row * 8 + col`` is a square (a1 = bit 0, h1 = bit 7, a8 = bit 56), as in
:mod:`caro.engine.reversi`. Passes are part of the search (a side with no move passes; the game
ends when neither side can move). Scores inside the search are from the side to move's view.

* **Easy**: greedy (most discs flipped plus a little square value) with random noise, and a
  random legal move 25 % of the time.
* **Medium**: 3-ply alpha-beta; evaluation = mobility and corners.
* **Hard** (:mod:`.reversi_search`, compiled in :mod:`.reversi_nb`): iterative-deepening
  negascout with a transposition table, killer/history/mobility move ordering and an evaluation
  tuned on our own self-play (mobility, potential mobility, corners, X/C squares, edges, stable
  edge discs, discs, parity, per game phase), an exact endgame solve from 16 empties and a
  win/draw/loss solve from 18 at the default 1000 ms budget (18 and 20 from 3000 ms); a solve
  that does not finish in time hands the rest of the time back to the midgame search. The Hard of before issue 16 is frozen in :mod:`.reversi_hard_v1` for benchmarks.
"""

from __future__ import annotations

import random
import time

from caro.engine.reversi import BLACK, NAMES, Board, legal_bits

from .reversi_search import Endgame, flips  # noqa: F401 (Endgame: the solver, for callers and tests)
from .reversi_search import choose as search_choose

CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
INDEX = {name: i for i, name in enumerate(NAMES)}

_ROW_WEIGHTS = (
    (100, -20, 10, 5, 5, 10, -20, 100),
    (-20, -40, -2, -2, -2, -2, -40, -20),
    (10, -2, 2, 1, 1, 2, -2, 10),
    (5, -2, 1, 0, 0, 1, -2, 5),
    (5, -2, 1, 0, 0, 1, -2, 5),
    (10, -2, 2, 1, 1, 2, -2, 10),
    (-20, -40, -2, -2, -2, -2, -40, -20),
    (100, -20, 10, 5, 5, 10, -20, 100),
)
WEIGHTS = tuple(_ROW_WEIGHTS[i // 8][i % 8] for i in range(64))
ORDER = sorted(range(64), key=lambda i: -WEIGHTS[i])


class Timeout(Exception):
    """The deadline passed inside a search."""


def _bits(b: int) -> list[int]:
    out = []
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


def _state(board: Board) -> tuple[int, int]:
    if board.outcome is not None:
        raise ValueError("the game is over: no move to choose")
    black = white = 0
    for name, colour in board.discs().items():
        if colour == BLACK:
            black |= 1 << INDEX[name]
        else:
            white |= 1 << INDEX[name]
    me, opp = (black, white) if board.turn == BLACK else (white, black)
    if not legal_bits(me, opp):
        raise ValueError("the side to move has no legal move (it must pass)")
    return me, opp


class ReversiBot:
    """Base class: ``choose(board, budget_ms=1000, rng=None) -> square name``."""

    level = "?"

    def choose(self, board: Board, budget_ms: int = 1000, rng: random.Random | None = None) -> str:
        """Return a legal move (``"a1"``-``"h8"``) for the side to move on the engine ``board``.

        ``budget_ms``: thinking time in milliseconds. ``rng``: randomness for Easy. Raises
        ValueError when the game is over or the side to move must pass.
        """
        rng = rng if rng is not None else random.Random()
        me, opp = _state(board)
        return NAMES[self._choose(me, opp, budget_ms, rng)]

    def _choose(self, me: int, opp: int, budget_ms: int, rng: random.Random) -> int:  # pragma: no cover
        raise NotImplementedError


class ReversiEasy(ReversiBot):
    """Greedy with noise: most flips plus a fifth of the square value, random 25 % of the time."""

    level = "easy"

    def _choose(self, me, opp, budget_ms, rng):
        moves = _bits(legal_bits(me, opp))
        if rng.random() < 0.25:
            return moves[rng.randrange(len(moves))]
        return max(moves, key=lambda sq: flips(me, opp, sq).bit_count() + WEIGHTS[sq] / 5 + rng.random() * 3)


class _Search:
    """Negamax alpha-beta with a transposition table and a deadline."""

    def __init__(self, deadline: float, evaluate) -> None:
        self.deadline = deadline
        self.evaluate = evaluate
        self.nodes = 0
        self.tt: dict[tuple[int, int], tuple[int, int, int, int]] = {}

    def search(self, me: int, opp: int, depth: int, alpha: int, beta: int, passed: bool = False) -> int:
        self.nodes += 1
        if self.nodes & 1023 == 0 and time.perf_counter() > self.deadline:
            raise Timeout
        moves = legal_bits(me, opp)
        if not moves:
            if passed or not legal_bits(opp, me):
                diff = me.bit_count() - opp.bit_count()
                return 100000 * ((diff > 0) - (diff < 0)) + diff
            return -self.search(opp, me, depth, -beta, -alpha, True)
        if depth <= 0:
            return self.evaluate(me, opp, moves)
        key = (me, opp)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            e_depth, flag, value, first = entry
            if e_depth >= depth:
                if flag == 0 or (flag == 1 and value >= beta) or (flag == -1 and value <= alpha):
                    return value
        order = [sq for sq in ORDER if moves >> sq & 1]
        if first >= 0 and moves >> first & 1:
            order.remove(first)
            order.insert(0, first)
        a0 = alpha
        best, best_sq = -10**9, order[0]
        for sq in order:
            f = flips(me, opp, sq)
            value = -self.search(opp & ~f, me | f | (1 << sq), depth - 1, -beta, -alpha)
            if value > best:
                best, best_sq = value, sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        self.tt[key] = (depth, 1 if best >= beta else (-1 if best <= a0 else 0), best, best_sq)
        return best

    def root(self, me: int, opp: int, depth: int, first: int = -1) -> tuple[int, int]:
        moves = [sq for sq in ORDER if legal_bits(me, opp) >> sq & 1]
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        best, best_sq = -10**9, moves[0]
        alpha, beta = -10**9, 10**9
        for sq in moves:
            f = flips(me, opp, sq)
            value = -self.search(opp & ~f, me | f | (1 << sq), depth - 1, -beta, -alpha)
            if value > best:
                best, best_sq = value, sq
                alpha = max(alpha, value)
        return best, best_sq


def medium_eval(me: int, opp: int, my_moves: int) -> int:
    """Mobility and corners (side to move's view)."""
    opp_moves = legal_bits(opp, me)
    return (10 * (my_moves.bit_count() - opp_moves.bit_count())
            + 80 * ((me & CORNERS).bit_count() - (opp & CORNERS).bit_count()))


class ReversiMedium(ReversiBot):
    """3-ply alpha-beta with mobility and corners."""

    level = "medium"
    depth = 3

    def _choose(self, me, opp, budget_ms, rng):
        search = _Search(time.perf_counter() + max(budget_ms, 50) / 1000, medium_eval)
        try:
            return search.root(me, opp, self.depth)[1]
        except Timeout:
            return next(sq for sq in ORDER if legal_bits(me, opp) >> sq & 1)


class ReversiHard(ReversiBot):
    """Iterative-deepening negascout with the tuned evaluation of :mod:`.reversi_search`, an exact
    endgame solve from :data:`~.reversi_search.EXACT_EMPTIES` empties and a win/draw/loss solve
    from :data:`~.reversi_search.WLD_EMPTIES` (two more each from a 3000 ms budget); see
    :func:`bench.pybots.reversi_search.choose`.

    ``max_nodes``: a node limit per search (None: only the clock limits it); ``last_info`` is the
    report of the last move (depth, solved, empties, nodes, score).
    """

    level = "hard"

    def __init__(self, max_nodes: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.last_info: dict = {}

    def _choose(self, me, opp, budget_ms, rng):
        self.last_info = {}
        return search_choose(me, opp, budget_ms, self.max_nodes, self.last_info)
