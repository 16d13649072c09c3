"""Hard's shape evaluation and search (caro_bots.HardSearch): threat terms on small positions,
whose move it is, candidate ordering, and the principal-variation search agreeing with plain
alpha-beta. No timing: deadlines are far away and the depths are fixed."""

import time

import pytest

from bench.pybots.caro_bots import WIN, AlphaBeta, HardSearch, double_threats
from bench.pybots.fastboard import OS, XS, FastBoard
from caro.engine.caro import PRESETS, Board

FAR = 1e9  # a deadline (perf_counter seconds) that is never reached


def _fb(x, o, to_move="X", preset="freestyle"):
    return FastBoard.from_engine(Board.from_stones(PRESETS[preset].rules, x=x, o=o, to_move=to_move))


def _eval(x, o, to_move="X", preset="freestyle"):
    return HardSearch(_fb(x, o, to_move, preset), FAR).evaluate()


@pytest.mark.parametrize("preset", ("freestyle", "exact-five", "caro-vn"))
def test_four_three_and_three_three_cells_are_found(preset):
    # X: G8 H8 I8 (three on row 8) and J5 J6 J7 (three in column J): J8 makes a four-three or
    # better for X; O stones far away
    fb = _fb(["G8", "H8", "J6", "J7"], ["A1", "A3", "O15", "O13"], preset=preset)
    four_three, three_three = double_threats(fb, XS)
    assert three_three and not four_three  # J8: two open threes (row 8 and column J)
    assert double_threats(fb, OS) == (False, False)
    fb = _fb(["F8", "G8", "H8", "J6", "J7"], ["A1", "A3", "O15", "O13", "A5"], preset=preset)
    assert double_threats(fb, XS)[0]  # J8: a four on row 8 and an open three in column J


def test_an_open_three_counts_for_the_side_to_move_and_against_the_other():
    x, o = ["G8", "H8", "I8"], ["G9", "H10", "M3"]
    mine = _eval(x, o, "X")  # X to move with an open three: it can make an open four
    theirs = _eval(x, o, "O")  # O to move must answer it
    assert mine > 0 > theirs
    assert mine == AlphaBeta(_fb(x, o, "X"), FAR).evaluate() + HardSearch.MY_OPEN3
    assert theirs == AlphaBeta(_fb(x, o, "O"), FAR).evaluate() - HardSearch.OPP_OPEN3


def test_a_double_threat_of_the_side_that_just_moved_is_a_heavy_minus():
    x, o = ["G8", "H8", "J6", "J7"], ["A1", "A3", "O15", "O13"]
    base = HardSearch(_fb(x, o, "O"), FAR)
    plain = AlphaBeta(_fb(x, o, "O"), FAR)
    assert base.evaluate() <= plain.evaluate() - HardSearch.OPP_DOUBLE


def test_quiet_candidates_are_the_plain_ones():
    # HardSearch orders quiet candidates by numpy; the set and the best cell equal AlphaBeta's
    board = Board(PRESETS["freestyle"].rules)
    for m in "H8 I9 I8 G8 G9 I7 J10 K7".split():
        board.play(m)
    fb = FastBoard.from_engine(board)
    new, old = HardSearch(fb, FAR).moves(fb.turn, 12), AlphaBeta(fb, FAR).moves(fb.turn, 12)
    sm, so = fb.score[fb.turn], fb.score[3 - fb.turn]
    key = [int(sm[q]) * 10 + int(so[q]) * 9 for q in new]
    assert key == sorted(key, reverse=True)
    assert len(new) == len(old) and key[0] == int(sm[old[0]]) * 10 + int(so[old[0]]) * 9


@pytest.mark.parametrize("depth", (1, 2, 3, 4))
def test_principal_variation_search_finds_the_plain_best_value(depth):
    board = Board(PRESETS["exact-five"].rules)
    for m in "H8 I9 I8 G8 G9 I7".split():
        board.play(m)

    class Plain(HardSearch):  # the same evaluation and ordering, plain alpha-beta children
        _children = AlphaBeta._children

    values = []
    for cls in (HardSearch, Plain):
        fb = FastBoard.from_engine(board)
        fb.pat.search_tt.clear()  # HardSearch's table is kept per rule set: earlier tests' moves filled it
        ab = cls(fb, FAR)
        values.append(ab.search(depth, -WIN * 2, WIN * 2, 0))
    assert values[0] == values[1]


def test_hard_search_sees_a_win_by_an_open_four():
    # X to move with an open three: the search returns a win score at depth 1
    fb = _fb(["G8", "H8", "I8"], ["G9", "H10", "M3"], "X")
    assert HardSearch(fb, time.perf_counter() + 60).search(1, -WIN * 2, WIN * 2, 0) >= WIN - 10


@pytest.mark.parametrize("preset", ("freestyle", "exact-five", "caro-vn"))
def test_the_second_player_stops_a_coming_double_three(preset):
    # X (G8 H8, J6 J7) would play J8: two open threes at once. O to move; at a small fixed
    # depth Hard's search answers so that X has no double-threat cell left.
    fb = _fb(["G8", "H8", "J6", "J7"], ["A1", "O15", "A15"], "O", preset)
    ab = HardSearch(fb, FAR)
    ranked = ab.root(ab.moves(fb.turn, 14), 2)
    fb.play(ranked[0][1])
    assert double_threats(fb, XS) == (False, False)


def test_a_timed_out_iteration_keeps_a_move_that_beat_the_old_best():
    board = Board(PRESETS["freestyle"].rules)
    for m in "H8 I9 I8 G8 G9 I7".split():
        board.play(m)
    fb = FastBoard.from_engine(board)
    ab = HardSearch(fb, FAR)
    a, b, c = ab.moves(fb.turn, 3)
    ranked = [(50, a), (40, b), (30, c)]
    ab.partial = [(10, a), (20, c)]  # the new depth: c beats the old best a
    assert [q for _, q in ab.salvage(ranked)] == [c, a, b]
    ab.partial = [(10, a), (5, b)]  # nothing beat a: the complete iteration stands
    assert ab.salvage(ranked) == ranked
    ab.partial = [(10, a)]
    assert ab.salvage(ranked) == ranked
