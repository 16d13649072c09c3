"""No level ever plays an illegal move or a Renju foul as X, over many random positions."""

import random

import pytest

from bench.pybots import choose_move, get_bot
from caro.engine import reversi
from caro.engine.caro import PRESETS, Board, Rules
from caro.engine.errors import IllegalMove

SLUGS = sorted(PRESETS)


def _random_caro(rules, rnd):
    """A position reached by random legal play (fouls refused by the engine), game not over."""
    board = Board(rules)
    plies = rnd.randint(0, 70)
    size = rules.size
    centre = size // 2
    for _ in range(plies):
        stones = board.stones()
        for _attempt in range(50):
            if rnd.random() < 0.85:
                col = min(size - 1, max(0, centre + rnd.randint(-4, 4)))
                row = min(size - 1, max(0, centre + rnd.randint(-4, 4)))
            else:
                col, row = rnd.randrange(size), rnd.randrange(size)
            square = f"{chr(65 + col)}{row + 1}"
            if square in stones:
                continue
            try:
                board.play(square)
            except IllegalMove:
                continue
            break
        if board.outcome is not None:
            board.undo()
            break
    return board


def _check_caro(level, count, budget_ms, seed):
    rnd = random.Random(seed)
    renju_x = 0
    for k in range(count):
        slug = SLUGS[k % len(SLUGS)]
        rules = PRESETS[slug].rules
        if k % 7 == 3:  # other sizes and lengths too
            rules = Rules(size=rnd.choice([11, 13, 19]), win_length=rnd.choice([4, 5, 6]),
                          exact=rnd.random() < 0.5, blocked=rnd.choice(["none", "opponent", "opponent_or_edge"]))
        board = _random_caro(rules, rnd)
        move = choose_move(board, level, budget_ms=budget_ms, rng=k)
        assert board.stone_at(move) is None, (slug, level, board.stones(), move)
        if rules.renju and board.turn == "X":
            assert board.foul(move) is None, (board.stones(), move)
            renju_x += 1
        board.copy().play(move)  # the engine accepts it
    return renju_x


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_fast_caro_levels_always_legal(level):
    assert _check_caro(level, {"easy": 1200, "medium": 800}[level], 300, f"legal-{level}") > 50


def test_hard_caro_always_legal():
    _check_caro("hard", 48, 60, "legal-hard")


def _random_reversi(rnd):
    board = reversi.Board()
    for _ in range(rnd.randint(0, 58)):
        moves = board.legal_moves()
        if not moves:
            break
        board.play(rnd.choice(moves))
        if board.outcome is not None:
            board.undo()
            break
    return board


@pytest.mark.parametrize("level,count,budget", [("easy", 1000, 200), ("medium", 300, 200), ("hard", 40, 60)])
def test_reversi_levels_always_legal(level, count, budget):
    rnd = random.Random(f"reversi-{level}")
    bot = get_bot("reversi", level)
    for k in range(count):
        board = _random_reversi(rnd)
        move = bot.choose(board, budget_ms=budget, rng=random.Random(k))
        assert move in board.legal_moves()


def test_errors():
    with pytest.raises(ValueError):
        choose_move(Board(Rules()), "grandmaster")
    with pytest.raises(ValueError):
        choose_move(object(), "easy")
    board = Board(Rules())
    for square in ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2"]:
        board.play(square)
    board.play("E1")  # X wins (edge-blocked rule: A1-E1 touches the edge once only)
    assert board.outcome is not None
    with pytest.raises(ValueError):
        choose_move(board, "hard")
    assert choose_move(Board(Rules()), "hard", budget_ms=100) == "H8"
    assert choose_move(reversi.Board(), "easy", rng=3) in reversi.Board().legal_moves()
