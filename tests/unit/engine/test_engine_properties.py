"""Property tests (hypothesis): the engines against independent brute-force references."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from caro.engine import reversi
from caro.engine.caro import Board, Rules, geometry
from caro.engine.coords import parse_square, square_name
from caro.engine.errors import IllegalMove

PROPERTY_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WINDOW = 7  # stones are dropped into a 7x7 window so runs are frequent; it may touch any edge


@st.composite
def positions(draw):
    """(rules, x squares, o squares, mover, move) with the move on an empty square."""
    size = draw(st.sampled_from([11, 13, 15, 19]))
    renju = draw(st.booleans()) if draw(st.integers(0, 5)) == 0 else False
    rules = Rules(
        size=size, win_length=5 if renju else draw(st.sampled_from([4, 5, 6])), exact=draw(st.booleans()),
        blocked=draw(st.sampled_from(["none", "opponent", "opponent_or_edge"])), renju=renju,
    )
    c0 = draw(st.sampled_from([0, 1, size - WINDOW - 1, size - WINDOW, (size - WINDOW) // 2]))
    r0 = draw(st.sampled_from([0, 1, size - WINDOW - 1, size - WINDOW, (size - WINDOW) // 2]))
    cells = draw(st.lists(st.sampled_from([0, 0, 1, 1, 1, 2, 2]), min_size=WINDOW * WINDOW, max_size=WINDOW * WINDOW))
    x, o, empty = [], [], []
    for k, v in enumerate(cells):
        name = square_name(c0 + k % WINDOW, r0 + k // WINDOW)
        (empty, x, o)[v].append(name)
    assume(empty)
    move = draw(st.sampled_from(empty))
    mover = draw(st.sampled_from(["X", "O"]))
    return rules, x, o, mover, move


def winning_runs(grid: dict[tuple[int, int], str], rules: Rules) -> set[frozenset]:
    """Brute force: every maximal run on the whole board that wins under ``rules``."""
    size, found = rules.size, set()
    for (c, r), side in grid.items():
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if grid.get((c - dc, r - dr)) == side:
                continue  # not the start of a maximal run
            run = []
            cc, rr = c, r
            while grid.get((cc, rr)) == side:
                run.append((cc, rr))
                cc, rr = cc + dc, rr + dr
            exact = rules.exact or (rules.renju and side == "X")
            if len(run) < rules.win_length or (exact and len(run) > rules.win_length):
                continue
            ends = [(c - dc, r - dr), (cc, rr)]
            opponent = "O" if side == "X" else "X"

            def blocks(cell):
                on_board = 0 <= cell[0] < size and 0 <= cell[1] < size
                if not on_board:
                    return rules.blocked == "opponent_or_edge"
                return rules.blocked != "none" and grid.get(cell) == opponent

            if all(blocks(e) for e in ends):
                continue
            found.add(frozenset(run))
    return found


@PROPERTY_SETTINGS
@given(positions())
def test_last_move_win_check_agrees_with_full_board_scan(position):
    rules, x, o, mover, move = position
    board = Board.from_stones(rules, x=x, o=o, to_move=mover)
    grid = {parse_square(s, rules.size): "X" for s in x} | {parse_square(s, rules.size): "O" for s in o}
    before = winning_runs(grid, rules)
    try:
        outcome = board.play(move)
    except IllegalMove as error:
        assert error.reason == "foul" and rules.renju and mover == "X"
        return
    grid[parse_square(move, rules.size)] = mover
    new_wins = winning_runs(grid, rules) - before
    if new_wins:
        assert outcome is not None and outcome.winner == mover
        assert frozenset(parse_square(s, rules.size) for s in outcome.line) in new_wins
        # the line is ordered from one end to the other
        cells = [parse_square(s, rules.size) for s in outcome.line]
        steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:])}
        assert len(steps) == 1
    else:
        assert outcome is None or outcome.winner is None


def transform(k: int, size: int):
    m = size - 1
    return [
        lambda c, r: (c, r), lambda c, r: (m - r, c), lambda c, r: (m - c, m - r), lambda c, r: (r, m - c),
        lambda c, r: (m - c, r), lambda c, r: (c, m - r), lambda c, r: (r, c), lambda c, r: (m - r, m - c),
    ][k]


def moved(names, t, size):
    return [square_name(*t(*parse_square(s, size))) for s in names]


@PROPERTY_SETTINGS
@given(positions(), st.integers(1, 7))
@example(  # F2 wins on row 2 and on column F at once (found by hypothesis)
    (Rules(size=11, blocked="none", renju=True), ["B1", "C1", "D1", "E1", "F1", "G1", "B2", "C2", "D2", "E2", "F3", "F4", "F5"],
     ["A2"], "X", "F2"), 1)
def test_rotating_or_mirroring_never_changes_a_win_verdict(position, k):
    rules, x, o, mover, move = position
    t = transform(k, rules.size)

    def verdict(x, o, move):
        board = Board.from_stones(rules, x=x, o=o, to_move=mover)
        try:
            outcome = board.play(move)
        except IllegalMove as error:
            return ("illegal", error.reason, error.foul)
        return None if outcome is None else (outcome.winner, frozenset(outcome.line))

    tx, to, tmove = moved(x, t, rules.size), moved(o, t, rules.size), moved([move], t, rules.size)[0]
    original = verdict(x, o, move)
    turned = verdict(tx, to, tmove)
    if isinstance(original, tuple) and original[0] in ("X", "O"):
        # Same winner. When the move wins on two lines at once, the engine reports the first in
        # axis order, which a rotation may change: each reported line must be a winning run of
        # its own position, and the rotated original line must win in the rotated position.
        assert turned is not None and turned[0] == original[0]
        grid = {parse_square(s, rules.size): "X" for s in tx} | {parse_square(s, rules.size): "O" for s in to}
        grid[parse_square(tmove, rules.size)] = mover
        runs = {frozenset(square_name(*cell) for cell in run) for run in winning_runs(grid, rules)}
        assert turned[1] in runs
        assert frozenset(moved(original[1], t, rules.size)) in runs
    else:
        assert turned == original


@pytest.mark.parametrize("k", range(1, 8))
def test_renju_fouls_are_symmetric(renju_case, k):
    rules = Rules(renju=True, blocked="none")
    t = transform(k, 15)
    board = Board.from_stones(rules, x=moved(renju_case["black"], t, 15), o=moved(renju_case["white"], t, 15))
    found = {}
    for square in geometry(15).names:
        if board.stone_at(square) is None and board.foul(square):
            found[square] = str(board.foul(square))
    expected = dict(zip(moved(renju_case["forbidden_exhaustive"], t, 15), renju_case["forbidden_exhaustive"].values()))
    assert found == expected


# -- Reversi against a naive array implementation ---------------------------------------------------

def naive_flips(discs: dict[tuple[int, int], str], turn: str, c: int, r: int) -> set[tuple[int, int]]:
    if (c, r) in discs:
        return set()
    flips = set()
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if dc == dr == 0:
                continue
            line, cc, rr = [], c + dc, r + dr
            while 0 <= cc < 8 and 0 <= rr < 8 and discs.get((cc, rr)) not in (None, turn):
                line.append((cc, rr))
                cc, rr = cc + dc, rr + dr
            if line and 0 <= cc < 8 and 0 <= rr < 8 and discs.get((cc, rr)) == turn:
                flips.update(line)
    return flips


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10 ** 6), min_size=1, max_size=60))
def test_reversi_moves_and_flips_agree_with_naive_rules(choices):
    board = reversi.Board()
    for choice in choices:
        if board.outcome is not None:
            break
        discs = {parse_square(s, 8): colour for s, colour in board.discs().items()}
        naive = {}
        for c in range(8):
            for r in range(8):
                flips = naive_flips(discs, board.turn, c, r)
                if flips:
                    naive[square_name(c, r).lower()] = sorted(square_name(*f).lower() for f in flips)
        assert board.legal_moves() == sorted(naive)
        square = board.legal_moves()[choice % len(naive)]
        mover = board.turn
        result = board.play(square)
        assert sorted(result.flips) == naive[square]
        other = "white" if mover == "black" else "black"
        if result.outcome is None:
            assert board.turn == (mover if result.passed else other)


@PROPERTY_SETTINGS
@given(positions())
def test_run_through_is_the_win_of_a_board_without_blocking_or_exact_rule(position):
    """`Board.run_through` (what `explain.refused_five` asks on every move) against what it
    replaced: the same stones on a second board whose rules block nothing and allow longer runs,
    asked for its winning line through the square."""
    rules, x, o, mover, move = position
    board = Board.from_stones(rules, x=x + ([move] if mover == "X" else []), o=o + ([move] if mover == "O" else []))
    relaxed = Board.from_stones(Rules(size=rules.size, win_length=rules.win_length, blocked="none"),
                                x=x + ([move] if mover == "X" else []), o=o + ([move] if mover == "O" else []))
    for square in [move, *x[:3], *o[:3]]:
        assert board.run_through(square, rules.win_length) == relaxed.winning_line(square)
