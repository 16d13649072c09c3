"""Reversi bots: flips agree with the engine, the endgame solver is exact, levels behave."""

import random

import pytest

from bench.pybots import choose_move
from bench.pybots.reversi_bots import INDEX, Endgame, _state, flips
from caro.engine import reversi
from caro.engine.reversi import NAMES, legal_bits


def _random_board(rnd, plies):
    board = reversi.Board()
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        board.play(rnd.choice(moves))
        if board.outcome is not None:
            board.undo()
            break
    return board


def test_flips_agree_with_engine():
    rnd = random.Random(1)
    for _ in range(200):
        board = _random_board(rnd, rnd.randint(0, 55))
        if board.outcome is not None:
            continue
        me, opp = _state(board)
        for name in board.legal_moves():
            expected = {INDEX[s] for s in board.flips(name)}
            got = flips(me, opp, INDEX[name])
            assert {i for i in range(64) if got >> i & 1} == expected


def _minimax(me, opp, passed=False):
    moves = legal_bits(me, opp)
    if not moves:
        if passed or not legal_bits(opp, me):
            empties = 64 - me.bit_count() - opp.bit_count()
            diff = me.bit_count() - opp.bit_count()
            return diff + (empties if diff > 0 else -empties if diff < 0 else 0)
        return -_minimax(opp, me, True)
    best = -65
    for sq in range(64):
        if moves >> sq & 1:
            f = flips(me, opp, sq)
            best = max(best, -_minimax(opp & ~f, me | f | (1 << sq)))
    return best


def test_endgame_solver_is_exact():
    rnd = random.Random(2)
    solved = 0
    while solved < 12:
        board = _random_board(rnd, 60 - rnd.randint(5, 8))
        if board.outcome is not None or not board.legal_moves():
            continue
        me, opp = _state(board)
        value, sq = Endgame(float("inf")).root(me, opp)
        assert value == _minimax(me, opp)
        f = flips(me, opp, sq)
        assert -_minimax(opp & ~f, me | f | (1 << sq)) == value  # the move achieves it
        solved += 1


def test_hard_takes_a_corner_and_plays_perfect_endgame():
    rnd = random.Random(3)
    for _ in range(4):
        board = _random_board(rnd, 60 - 10)
        if board.outcome is not None or not board.legal_moves():
            continue
        me, opp = _state(board)
        best = Endgame(float("inf")).root(me, opp)[0]
        # a budget far above what the solve needs on a loaded machine: the solve always finishes
        move = choose_move(board, "hard", budget_ms=600_000)
        sq = INDEX[move]
        f = flips(me, opp, sq)
        assert -_minimax(opp & ~f, me | f | (1 << sq)) == best


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_takes_a_corner(level):
    # White's last discs sit on the long diagonal next to the a8 and h8 corners.
    board = reversi.Board.from_discs(
        black=[n for n in NAMES if n not in ("h8", "g7", "f6", "a8", "b7")], white=["g7", "f6", "b7"],
        turn="black")
    moves = board.legal_moves()
    assert "h8" in moves
    assert choose_move(board, level, budget_ms=300) in ("a8", "h8")


def test_names_cover_the_board():
    assert NAMES[0] == "a1" and NAMES[63] == "h8" and INDEX["f5"] == 4 * 8 + 5
