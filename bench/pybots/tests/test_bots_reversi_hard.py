"""Reversi Hard (issue 16): move generation agrees with the engine, the evaluation is the sum of
its features, Hard takes corners, does not give them away, plays exact endgames (passes included)
and stops at its node limit. Limits here are node counts, never wall time: under a node limit and
a budget far above what the nodes need, the search is deterministic on any machine."""

import random

import pytest

from bench.pybots import BENCH_LEVELS, LEVELS, get_bot
from bench.pybots import reversi_search as rs
from bench.pybots.reversi_bots import INDEX, ReversiHard, _state
from caro.engine import reversi
from caro.engine.reversi import NAMES, flips_bits, legal_bits

BIG_BUDGET_MS = 600_000  # so far above the node limits' time that only the nodes limit a search


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


def _positions(seed, count, low, high):
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        board = _random_board(rnd, rnd.randint(low, high))
        if board.outcome is None and board.legal_moves():
            out.append(_state(board))
    return out


def test_moves_and_flips_agree_with_the_engine():
    for me, opp in _positions(1, 150, 0, 58):
        legal = rs.moves(me, opp)
        assert legal == legal_bits(me, opp)
        assert rs.moves(opp, me) == legal_bits(opp, me)
        for sq in range(64):
            if legal >> sq & 1:
                assert rs.flips(me, opp, sq) == flips_bits(me, opp, sq)


def test_evaluation_is_the_weighted_sum_of_its_features():
    for me, opp in _positions(2, 120, 0, 58):
        mine, theirs = rs.moves(me, opp), rs.moves(opp, me)
        weights = rs._W[rs.PHASE_OF[(me | opp).bit_count()]]
        feats = rs.features(me, opp, mine, theirs)
        assert rs.evaluate(me, opp, mine, theirs) == sum(w * f for w, f in zip(weights, feats))
        # antisymmetric features: the other side's view is the negation (parity aside)
        other = rs.features(opp, me, theirs, mine)
        assert [-x for x in other[:-1]] == list(feats[:-1])


def test_stable_edge_discs():
    me = sum(1 << INDEX[n] for n in ("a1", "b1", "c1", "e1", "a2", "h8"))
    opp = sum(1 << INDEX[n] for n in ("d1", "h1", "g1"))
    # a1, b1, c1 along the top edge, a1 and a2 along column a, h8 twice (its row and column)
    assert rs.stable_edges(me, opp) == 3 + 2 + 2
    assert rs.stable_edges(opp, me) == 2 + 1  # h1 and g1 on the top edge; h1 on column h


def test_hard_takes_a_corner():
    board = reversi.Board.from_discs(
        black=[n for n in NAMES if n not in ("h8", "g7", "f6", "a8", "b7")], white=["g7", "f6", "b7"],
        turn="black")
    bot = ReversiHard(max_nodes=3000)
    assert bot.choose(board, budget_ms=BIG_BUDGET_MS) in ("a8", "h8")


# (moves from the start, moves that give the opponent a corner at once); found by seeded random
# play: a few safe moves exist in each.
CORNER_GIFTS = [
    ("d3e3f2c2f6e6f3g6c3b2f5e2h7g3d2c4b4g4h3a4a5a6a1g2f1e1f4a2d1c1b1g5c6", {"g1", "h2", "g7"}),
    ("c4c5f6b3b5a6b4f5f4c3c6e3a2a5c2c7d2g4c8d3g5f2a3b6h4d1e2d6e7d7", {"a7", "b7"}),
    ("e6f6c4c3f5b4b3a3d3f4b2d2f3b1d1e2g6g4f2e1h5h7b5g2c2b6f7h3a4c6a6g7", {"a2", "h2", "b7", "g8"}),
]


@pytest.mark.parametrize("moves,gifts", CORNER_GIFTS)
def test_hard_does_not_give_a_corner(moves, gifts):
    board = reversi.Board.from_moves(moves)
    me, opp = _state(board)
    for name in gifts:  # the listed moves do hand over a corner
        sq = INDEX[name]
        f = flips_bits(me, opp, sq)
        assert rs.moves(opp & ~f, me | f | (1 << sq)) & rs.CORNERS
    bot = ReversiHard(max_nodes=20000)
    assert bot.choose(board, budget_ms=BIG_BUDGET_MS) not in gifts
    assert bot.last_info["depth"] >= 3


def _solve(me, opp):
    return rs.Endgame(float("inf")).root(me, opp)


def test_hard_finds_the_exact_endgame_win():
    rnd = random.Random(4)
    checked = 0
    while checked < 3:
        board = _random_board(rnd, 60 - 10)
        if board.outcome is not None or not board.legal_moves():
            continue
        me, opp = _state(board)
        values = {}
        for name in board.legal_moves():
            sq = INDEX[name]
            f = flips_bits(me, opp, sq)
            values[name] = -_solve(opp & ~f, me | f | (1 << sq))[0] if legal_bits(opp & ~f, me | f | (1 << sq)) \
                or legal_bits(me | f | (1 << sq), opp & ~f) else None
        if any(v is None for v in values.values()):
            continue  # a move that ends the game: skip (the solver is checked elsewhere)
        if not (max(values.values()) > 0 > min(values.values())):
            continue  # we want positions where some moves win and others lose
        bot = ReversiHard()
        move = bot.choose(board, budget_ms=BIG_BUDGET_MS)
        assert values[move] == max(values.values())
        assert bot.last_info["solved"] == "exact"
        checked += 1


def _minimax(me, opp, passed=False):
    legal = legal_bits(me, opp)
    if not legal:
        if passed or not legal_bits(opp, me):
            empties = 64 - me.bit_count() - opp.bit_count()
            diff = me.bit_count() - opp.bit_count()
            return diff + (empties if diff > 0 else -empties if diff < 0 else 0), False
        value, _ = _minimax(opp, me, True)
        return -value, True
    best, any_pass = -65, False
    for sq in range(64):
        if legal >> sq & 1:
            f = flips_bits(me, opp, sq)
            value, passed_below = _minimax(opp & ~f, me | f | (1 << sq))
            best, any_pass = max(best, -value), any_pass or passed_below
    return best, any_pass


def test_pass_rule_in_the_solver_and_the_search():
    """Positions whose game tree holds passes: the solver equals a plain minimax that passes
    when a side has no move, and the midgame search treats a pass as the other side's turn."""
    rnd = random.Random(5)
    with_pass = 0
    tries = 0
    while with_pass < 4 and tries < 400:
        tries += 1
        board = _random_board(rnd, 60 - rnd.randint(5, 7))
        if board.outcome is not None or not board.legal_moves():
            continue
        me, opp = _state(board)
        exact, has_pass = _minimax(me, opp)
        if not has_pass:
            continue
        with_pass += 1
        assert _solve(me, opp)[0] == exact
        # the midgame search to the end of the game is exact too (WIN + discs in SCALE units)
        value = rs.Search(float("inf")).root(me, opp, 20)[0]
        assert value == 0 if exact == 0 else (value - rs.WIN * (1 if exact > 0 else -1)) == exact * rs.SCALE
    assert with_pass == 4


def test_a_side_that_must_pass_gets_no_move():
    board = reversi.Board.from_discs(black=["b1"], white=["a1"], turn="black")  # only White can play (c1)
    assert not board.legal_moves() and board.outcome is None
    with pytest.raises(ValueError):
        get_bot("reversi", "hard").choose(board)


@pytest.mark.parametrize("limit", [300, 2000])
def test_the_node_limit_stops_the_search(limit):
    for me, opp in _positions(6, 6, 10, 40):
        info = {}
        sq = rs.choose(me, opp, BIG_BUDGET_MS, max_nodes=limit, info=info)
        assert rs.moves(me, opp) >> sq & 1
        # one search ran (no solve at these stages); leaf parents may finish their loop
        assert info["solved"] is None and info["nodes"] <= limit + 64
        assert info["depth"] < info["empties"]


def test_a_tiny_budget_still_gives_a_legal_move():
    for me, opp in _positions(7, 6, 10, 50):
        sq = rs.choose(me, opp, 1)
        assert rs.moves(me, opp) >> sq & 1


def test_old_hard_is_a_benchmark_level_only():
    assert "hard_v1" in BENCH_LEVELS and "hard_v1" not in LEVELS
    board = reversi.Board.from_moves("f5d6c3")
    assert get_bot("reversi", "hard_v1").choose(board, budget_ms=200) in board.legal_moves()
