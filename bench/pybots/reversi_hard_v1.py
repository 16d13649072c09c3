"""The Reversi Hard level as it was before issue 16 (``"hard_v1"``), kept frozen for
``bench/match.py`` and ``bench/reversi_speed.py`` (new Hard against old Hard). Not offered to
players: it is not in :data:`bench.pybots.LEVELS`, only :func:`bench.pybots.get_bot` knows it.

It is the old code unchanged and self-contained (its own flips, square values, evaluation,
alpha-beta and endgame solver), so later changes to :mod:`.reversi_bots` do not move it:
iterative-deepening alpha-beta with a transposition table, evaluation = square values +
mobility + potential mobility + corners + (late) disc count, an exact endgame solve from 12
empties at a 1000 ms budget (14 from 3000 ms), falling back to the midgame search.
"""

from __future__ import annotations

import random
import time

from caro.engine.reversi import BLACK, NAMES, Board, legal_bits

FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE
NOT_H = 0x7F7F7F7F7F7F7F7F
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
X_SQUARES = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)
C_SQUARES = (1 << 1) | (1 << 8) | (1 << 6) | (1 << 15) | (1 << 48) | (1 << 57) | (1 << 55) | (1 << 62)
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
# square-value masks grouped by weight, for a fast positional sum
_WEIGHT_MASKS = {}
for _i, _w in enumerate(WEIGHTS):
    _WEIGHT_MASKS[_w] = _WEIGHT_MASKS.get(_w, 0) | (1 << _i)
WEIGHT_MASKS = tuple(_WEIGHT_MASKS.items())
ORDER = sorted(range(64), key=lambda i: -WEIGHTS[i])

_DIRS = ((1, True, NOT_A), (1, False, NOT_H), (8, True, FULL), (8, False, FULL),
         (9, True, NOT_A), (9, False, NOT_H), (7, True, NOT_H), (7, False, NOT_A))


class Timeout(Exception):
    """The deadline passed inside a search."""


def flips(me: int, opp: int, sq: int) -> int:
    """Discs flipped by ``me`` playing bit index ``sq`` (0 if the move is illegal)."""
    bit = 1 << sq
    total = 0
    for shift, left, mask in _DIRS:
        if left:
            t = (bit << shift) & mask & opp
            acc = 0
            while t:
                acc |= t
                t = (t << shift) & mask
                if t & me:
                    total |= acc
                    break
                t &= opp
        else:
            t = (bit >> shift) & mask & opp
            acc = 0
            while t:
                acc |= t
                t = (t >> shift) & mask
                if t & me:
                    total |= acc
                    break
                t &= opp
    return total


def _bits(b: int) -> list[int]:
    out = []
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


def _neighbours(b: int) -> int:
    return (((b << 1) & NOT_A) | ((b >> 1) & NOT_H) | (b << 8) | (b >> 8) | ((b << 9) & NOT_A)
            | ((b >> 9) & NOT_H) | ((b << 7) & NOT_H) | ((b >> 7) & NOT_A)) & FULL


def positional(me: int, opp: int) -> int:
    """Sum of square values of ``me`` minus those of ``opp`` (corner-adjacent squares count as
    neutral once their corner is taken)."""
    total = 0
    for w, mask in WEIGHT_MASKS:
        total += w * ((me & mask).bit_count() - (opp & mask).bit_count())
    # X/C squares next to an occupied corner are no longer dangerous
    occupied = me | opp
    if occupied & CORNERS:
        for corner, near in ((0, (1 << 1) | (1 << 8) | (1 << 9)), (7, (1 << 6) | (1 << 15) | (1 << 14)),
                             (56, (1 << 48) | (1 << 57) | (1 << 49)), (63, (1 << 55) | (1 << 62) | (1 << 54))):
            if occupied >> corner & 1:
                for sq in _bits(near):
                    w = WEIGHTS[sq]
                    if me >> sq & 1:
                        total -= w
                    elif opp >> sq & 1:
                        total += w
    return total


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


def hard_eval(me: int, opp: int, my_moves: int) -> int:
    """Square values, mobility, potential mobility, corners and, late, disc count."""
    opp_moves = legal_bits(opp, me)
    empty = ~(me | opp) & FULL
    discs = 64 - empty.bit_count()
    mob = my_moves.bit_count() - opp_moves.bit_count()
    pot = (_neighbours(opp) & empty).bit_count() - (_neighbours(me) & empty).bit_count()
    corner = (me & CORNERS).bit_count() - (opp & CORNERS).bit_count()
    score = positional(me, opp) + 12 * mob + 4 * pot + 60 * corner
    if discs > 44:
        score += 3 * (me.bit_count() - opp.bit_count())
    return score


class Endgame:
    """Exact solver: final disc difference (side to move's view) with alpha-beta."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.nodes = 0
        self.tt: dict[tuple[int, int], tuple[int, int]] = {}  # (lower, upper) bounds, empties > 8

    def solve(self, me: int, opp: int, alpha: int, beta: int, passed: bool = False) -> int:
        self.nodes += 1
        if self.nodes & 2047 == 0 and time.perf_counter() > self.deadline:
            raise Timeout
        empty = ~(me | opp) & FULL
        if empty & (empty - 1) == 0:  # zero or one empty square: no move generation needed
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
        moves = legal_bits(me, opp)
        if not moves:
            if passed or not legal_bits(opp, me):
                empties = 64 - me.bit_count() - opp.bit_count()
                diff = me.bit_count() - opp.bit_count()
                # empty squares go to the winner
                return diff + (empties if diff > 0 else -empties if diff < 0 else 0)
            return -self.solve(opp, me, -beta, -alpha, True)
        empties = 64 - me.bit_count() - opp.bit_count()
        key = None
        if empties > 8:
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
                alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        if empties > 7:
            # fastest first: fewest opponent replies
            scored = []
            for sq in _bits(moves):
                f = flips(me, opp, sq)
                nme, nopp = opp & ~f, me | f | (1 << sq)
                scored.append(((legal_bits(nme, nopp)).bit_count() * 16 - WEIGHTS[sq] // 10, nme, nopp))
            scored.sort(key=lambda t: t[0])
            children = [(a, b) for _, a, b in scored]
        else:
            children = []
            for sq in ORDER:
                if moves >> sq & 1:
                    f = flips(me, opp, sq)
                    children.append((opp & ~f, me | f | (1 << sq)))
        best = -65
        for nme, nopp in children:
            value = -self.solve(nme, nopp, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
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

    def root(self, me: int, opp: int) -> tuple[int, int]:
        """Return (exact final disc difference, best move bit index)."""
        moves = _bits(legal_bits(me, opp))
        moves.sort(key=lambda sq: -WEIGHTS[sq])
        best, best_sq = -65, moves[0]
        alpha = -65
        for sq in moves:
            f = flips(me, opp, sq)
            value = -self.solve(opp & ~f, me | f | (1 << sq), -65, -alpha)
            if value > best:
                best, best_sq = value, sq
                alpha = max(alpha, value)
        return best, best_sq


class ReversiHardV1(ReversiBot):
    """Iterative-deepening alpha-beta with :func:`hard_eval`; exact endgame solve from 12
    empties (from :attr:`solve_empties` = 14 when the budget is at least 3000 ms), falling back
    to the midgame search when the solve does not finish in time."""

    level = "hard_v1"
    solve_empties = 14
    share = 0.7  # part of the budget it plans to use

    def _choose(self, me, opp, budget_ms, rng):
        t0 = time.perf_counter()
        budget = max(budget_ms, 50) / 1000 * self.share
        moves = legal_bits(me, opp)
        if moves.bit_count() == 1:
            return moves.bit_length() - 1
        empties = 64 - me.bit_count() - opp.bit_count()
        # in pure Python a 12-empty solve takes about 0.2-0.6 s and a 14-empty one 2-4 s here
        if empties <= 12 or (empties <= self.solve_empties and budget_ms >= 3000):
            share = 0.7 if empties <= 12 else 0.6
            try:
                return Endgame(t0 + budget * share).root(me, opp)[1]
            except Timeout:
                pass
        search = _Search(t0 + budget, hard_eval)
        best_sq = next(sq for sq in ORDER if moves >> sq & 1)
        depth = 1
        while depth <= empties:
            try:
                _, best_sq = search.root(me, opp, depth, best_sq)
            except Timeout:
                break
            depth += 1
            if time.perf_counter() - t0 > budget * 0.3:
                break
        return best_sq
