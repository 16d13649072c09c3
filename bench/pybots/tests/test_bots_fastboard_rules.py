"""Property test: the bots' fast board says "this move wins" exactly when the engine does.

For every rule set the bots can meet (size 11/15/19 x win length 4/5/6 x ``exact`` x ``blocked``
none/opponent/opponent_or_edge, and Renju on every size, ``exact`` and ``blocked``), random
positions are built (seeded, so a failure reproduces) and, for every empty square and both sides,
:meth:`FastBoard.wins_at` is compared with the outcome of the engine's :meth:`Board.play` there.
The pattern table's ``FIVE`` set (what the searches use) is compared too, on positions where no
stone is part of a winning run yet (every position a game can reach): its windows see ``H =
win_length + 1`` cells each side, which decides every run except one extending an existing
winning run of ``win_length + 1`` or more stones.

Positions are made of short runs (2 to ``win_length + 2`` stones, a few gaps) of one side in a
random direction, which gives many fours, fives, overlines and blocked or edge-touching ends,
plus scattered single stones; every other one is then made live
(see :func:`_position`).
"""

import random

import pytest

from bench.pybots.fastboard import FIVE, OS, XS, FastBoard
from caro.engine.caro import Board, Rules
from caro.engine.coords import square_name
from caro.engine.errors import FOUL, IllegalMove

SIZES = (11, 15, 19)
BLOCKED = ("none", "opponent", "opponent_or_edge")
RULE_SETS = [Rules(size=size, win_length=k, exact=exact, blocked=blocked)
             for size in SIZES for k in (4, 5, 6) for exact in (False, True) for blocked in BLOCKED]
RULE_SETS += [Rules(size=size, exact=exact, blocked=blocked, renju=True)
              for size in SIZES for exact in (False, True) for blocked in BLOCKED]
POSITIONS = 4  # per rule set


def _rule_id(rules: Rules) -> str:
    kind = "renju" if rules.renju else f"k{rules.win_length}"
    return f"{rules.size}-{kind}-{'exact' if rules.exact else 'long'}-{rules.blocked}"


def _position(rules: Rules, rnd: random.Random, live: bool) -> Board:
    """A random set-up position (not judged), X to move. ``live``: stones of any winning run are
    taken off one at a time until no stone is part of one (as in a game still going on)."""
    size, k = rules.size, rules.win_length
    grid: dict[str, str] = {}
    for _ in range(rnd.randint(2, 12)):
        col, row = rnd.randrange(size), rnd.randrange(size)
        dc, dr = rnd.choice(((1, 0), (0, 1), (1, 1), (1, -1)))
        side = rnd.choice("XO")
        for j in range(rnd.randint(2, k + 2)):
            c, r = col + j * dc, row + j * dr
            if 0 <= c < size and 0 <= r < size and rnd.random() < 0.9:
                grid[square_name(c, r)] = side
    for _ in range(rnd.randint(0, size * size // 4)):
        grid[square_name(rnd.randrange(size), rnd.randrange(size))] = rnd.choice("XO")
    while True:
        board = Board.from_stones(rules, x=[n for n, v in grid.items() if v == "X"],
                                  o=[n for n, v in grid.items() if v == "O"])
        line = live and next(filter(None, map(board.winning_line, sorted(grid))), None)
        if not line:
            return board
        del grid[rnd.choice(line)]


def _engine_wins(board: Board, name: str, side: str) -> bool:
    """Whether ``side`` playing ``name`` wins, by the engine's :meth:`Board.play` (board unchanged)."""
    board.turn = side
    try:
        outcome = board.play(name)
    except IllegalMove as error:
        assert error.reason == FOUL, error  # Renju: X may not play there, so it does not win
        return False
    board.undo()
    return outcome is not None and outcome.winner == side


@pytest.mark.parametrize("rules", RULE_SETS, ids=_rule_id)
def test_fastboard_win_verdicts_match_engine_play(rules):
    rnd = random.Random(_rule_id(rules))
    wins = table_checked = 0
    for i in range(POSITIONS):
        board = _position(rules, rnd, live=i % 2 == 0)
        fb = FastBoard.from_engine(board)
        live = not any(board.winning_line(name) for name in board.stones())
        for q in fb.geo.reals:
            if fb.cells[q]:
                continue
            name = fb.name(q)
            for s, side in ((XS, "X"), (OS, "O")):
                engine = _engine_wins(board, name, side)
                assert fb.wins_at(q, s) == engine, (name, side, str(board))
                if live:
                    assert (q in fb.sets[s][FIVE]) == engine, (name, side, str(board))
                    table_checked += 1
                wins += engine
    assert wins > 0  # the positions do exercise winning moves
    assert table_checked > 0
