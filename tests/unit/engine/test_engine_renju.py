"""Renju fouls (RIF rules §9): the 13 shared positions, classified on every empty point."""

from __future__ import annotations

import pytest

from caro.engine.caro import Board, Rules, geometry
from caro.engine.errors import IllegalMove

RENJU = Rules(renju=True, blocked="none")


def test_renju_file_has_13_positions(shared_cases):
    assert len(shared_cases("renju-fouls.json")["cases"]) == 13


def test_shared_renju_position_every_point(renju_case):
    board = Board.from_stones(RENJU, x=renju_case["black"], o=renju_case["white"], to_move="X")
    found = {}
    for square in geometry(15).names:
        if board.stone_at(square) is None:
            kind = board.foul(square)
            if kind is not None:
                found[square] = str(kind)
    assert found == renju_case["forbidden_exhaustive"]
    # the same verdicts drive play() and legal_moves()
    legal = set(board.legal_moves())
    for square, kind in renju_case["forbidden_exhaustive"].items():
        assert square not in legal
        with pytest.raises(IllegalMove) as info:
            board.copy().play(square)
        assert info.value.reason == "foul" and info.value.foul == kind
    empties = {s for s in geometry(15).names if board.stone_at(s) is None}
    assert legal == empties - set(found)


def test_white_has_no_fouls(renju_case):
    board = Board.from_stones(RENJU, x=renju_case["black"], o=renju_case["white"], to_move="O")
    for square in renju_case["forbidden_exhaustive"]:
        assert board.foul(square) is None
        board.copy().play(square)  # no exception


def test_no_fouls_without_renju(renju_case):
    board = Board.from_stones(Rules(blocked="none"), x=renju_case["black"], o=renju_case["white"])
    assert all(board.foul(square) is None for square in renju_case["forbidden_exhaustive"])


@pytest.mark.parametrize("x, square, kind", [
    # open three on the row (F8 G8 + H8) and on the column (H6 H7 + H8)
    (["F8", "G8", "H6", "H7"], "H8", "double-three"),
    # a split three (H8 _ H10 H11) counts like a solid one
    (["F8", "G8", "H10", "H11"], "H8", "double-three"),
    (["E8", "F8", "G8", "H5", "H6", "H7"], "H8", "double-four"),
    (["D8", "E8", "F8", "G8", "I8"], "H8", "overline"),
    # an exact five is never a foul, even when it also makes a double-three
    (["D8", "E8", "F8", "G8", "H6", "H7", "I9", "J10"], "H8", None),
    # one-line double-four: X X X _ H8 _ X X X
    (["D8", "E8", "F8", "J8", "K8", "L8"], "H8", "double-four"),
    # X _ X X H8 _ X on one line: two fours
    (["D8", "F8", "G8", "J8"], "H8", "double-four"),
    # a four on the row (E8-H8) and a split four on the column (H4 H5 H6 _ H8)
    (["E8", "F8", "G8", "H4", "H5", "H6"], "H8", "double-four"),
    # a straight four (_ E8 F8 G8 H8 _) is ONE four: with a three it is a legal four-three
    (["E8", "F8", "G8", "H6", "H7"], "H8", None),
])
def test_foul_patterns(x, square, kind):
    board = Board.from_stones(RENJU, x=x, o=["A1"])
    assert board.foul(square) == kind


def test_three_needs_a_possible_straight_four():
    # White on E8: F8 G8 H8 can only reach F8-I8, closed at E8: not a three, so only one three
    board = Board.from_stones(RENJU, x=["F8", "G8", "H6", "H7"], o=["E8"])
    assert board.foul("H8") is None
    # White one further away on D8: I8 makes the straight four F8-I8, open at E8 and J8
    board = Board.from_stones(RENJU, x=["F8", "G8", "H6", "H7"], o=["D8"])
    assert board.foul("H8") == "double-three"


def test_exact_five_wins_for_black_overline_does_not_exist():
    board = Board.from_stones(RENJU, x=["D8", "E8", "F8", "G8"], o=["A1", "A2", "A3", "A4"])
    assert board.play("H8").winner == "X"
    # White wins with six under RIF rules
    board = Board.from_stones(RENJU, x=["A1", "A3", "A5", "A7", "A9", "A11"], o=["D8", "E8", "F8", "G8", "I8"], to_move="O")
    assert board.play("H8").line == ("D8", "E8", "F8", "G8", "H8", "I8")
