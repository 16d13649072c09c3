"""The compiled Reversi Hard search (bench/pybots/reversi_nb.py) against the pure-Python reference
of bench/pybots/reversi_search.py and the engine: move generation, flips and evaluation agree
bit for bit, the evaluation does not change under the board's 8 symmetries, the exact solver
equals the reference solver and a plain minimax (passes included), the midgame search to the
end of the game is exact, and a node-limited move choice is deterministic. No wall-time limits:
every search here is limited by nodes or by the size of the position."""

import random

import pytest

from bench.pybots import reversi_nb as nb
from bench.pybots import reversi_search as rs
from bench.pybots.reversi_bots import _state
from caro.engine import reversi
from caro.engine.reversi import flips_bits, legal_bits

# the first test of a fresh checkout compiles the functions (minutes on a busy 2-core machine)
pytestmark = pytest.mark.timeout(1200)

U = nb.U
W = rs._W_ARRAY


def _positions(seed, count, low, high):
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        board = reversi.Board()
        for _ in range(rnd.randint(low, high)):
            moves = board.legal_moves()
            if not moves or board.outcome is not None:
                break
            board.play(rnd.choice(moves))
        if board.outcome is None and board.legal_moves():
            out.append(_state(board))
    return out


def _transform(b, t):
    """The bitboard ``b`` under symmetry ``t`` (0-7: rotations, then mirrored rotations)."""
    out = 0
    for sq in range(64):
        if b >> sq & 1:
            r, c = divmod(sq, 8)
            for _ in range(t % 4):
                r, c = c, 7 - r
            if t >= 4:
                c = 7 - c
            out |= 1 << (r * 8 + c)
    return out


def test_moves_flips_and_evaluation_agree_with_the_reference():
    for me, opp in _positions(11, 200, 0, 58):
        legal = rs.moves(me, opp)
        assert int(nb.moves(U(me), U(opp))) == legal == legal_bits(me, opp)
        for sq in range(64):
            if legal >> sq & 1:
                assert int(nb.flips(U(me), U(opp), sq)) == flips_bits(me, opp, sq)
        theirs = rs.moves(opp, me)
        assert nb.evaluate(U(me), U(opp), U(legal), U(theirs), W) == rs.evaluate(me, opp, legal, theirs)


def test_the_evaluation_is_the_same_under_the_8_symmetries():
    for me, opp in _positions(12, 60, 0, 58):
        values = set()
        for t in range(8):
            a, b = _transform(me, t), _transform(opp, t)
            values.add(nb.evaluate(U(a), U(b), U(rs.moves(a, b)), U(rs.moves(b, a)), W))
        assert len(values) == 1


def _solve(me, opp, alpha=-65, beta=65):
    ctx = nb.Context()
    ctx.reset(float("inf"), None)
    value, sq = nb.solve_root(U(me), U(opp), -1, alpha, beta, ctx.st, ctx.tm, ctx.ek, ctx.ev, ctx.bb, ctx.buf)
    return int(value), int(sq)


def _minimax(me, opp, passed=False):
    legal = legal_bits(me, opp)
    if not legal:
        if passed or not legal_bits(opp, me):
            empties = 64 - me.bit_count() - opp.bit_count()
            diff = me.bit_count() - opp.bit_count()
            return diff + (empties if diff > 0 else -empties if diff < 0 else 0)
        return -_minimax(opp, me, True)
    best = -65
    for sq in range(64):
        if legal >> sq & 1:
            f = flips_bits(me, opp, sq)
            best = max(best, -_minimax(opp & ~f, me | f | (1 << sq)))
    return best


def test_the_solver_is_exact_on_small_endgames():
    """Up to 7 empties every position is checked against a plain minimax (passes included);
    at 10-12 empties against the reference solver. The move found reaches the value."""
    for me, opp in _positions(13, 25, 53, 57):
        value, sq = _solve(me, opp)
        assert value == _minimax(me, opp)
        f = flips_bits(me, opp, sq)
        assert -_minimax(opp & ~f, me | f | (1 << sq)) == value
    for me, opp in _positions(14, 8, 48, 50):
        value, sq = _solve(me, opp)
        assert value == rs.Endgame(float("inf")).root(me, opp)[0]
        # a win/draw/loss window gives the sign
        wld, _ = _solve(me, opp, -1, 1)
        assert (wld > 0) == (value > 0) and (wld < 0) == (value < 0)


def test_known_endgame_positions():
    # black to move with one empty square (h8) that flips g7: black wins 64-0
    black = ((1 << 64) - 1) & ~(1 << 63) & ~(1 << 54)
    assert _solve(black, 1 << 54) == (64, 63)
    # white has no move, black fills the last square: every disc black
    board = reversi.Board.from_discs(black=["b1"], white=["a1"], turn="white")
    me, opp = _state(board)
    assert _solve(me, opp)[0] == _minimax(me, opp)


def test_the_midgame_search_to_the_end_is_exact():
    for me, opp in _positions(15, 6, 52, 56):
        ctx = nb.Context()
        ctx.reset(float("inf"), None)
        empties = 64 - me.bit_count() - opp.bit_count()
        nb.root(U(me), U(opp), empties + 2, -1, ctx.st, ctx.tm, W, ctx.tk, ctx.tv, ctx.hist, ctx.killers,
                ctx.buf, ctx.bb)
        value, exact = int(ctx.st[4]), _minimax(me, opp)
        assert value == 0 if exact == 0 else (value - rs.WIN * (1 if exact > 0 else -1)) == exact * rs.SCALE


def test_a_node_limited_move_is_deterministic():
    for me, opp in _positions(16, 6, 10, 44):
        first, second = {}, {}
        a = rs.choose(me, opp, 600_000, max_nodes=5000, info=first)
        b = rs.choose(me, opp, 600_000, max_nodes=5000, info=second)
        assert a == b and first == second
        assert rs.moves(me, opp) >> a & 1
