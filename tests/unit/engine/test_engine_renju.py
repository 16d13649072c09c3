"""Renju fouls (RIF rules §9): the 13 shared positions, classified on every empty point, and the foul
judgements of ``tests/engine_vectors/renju.json`` (read by the browser engine's tests too; Renju win
verdicts are among the positions of caro.json)."""

from __future__ import annotations

import pytest

from caro.engine.caro import Board, Outcome, Rules, Termination, geometry
from caro.engine.errors import IllegalMove
from caro.engine.renju import foul_at, foul_map

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


def test_foul_vector(foul_vector):
    board = Board.from_stones(RENJU, x=foul_vector["x"], o=foul_vector["o"])
    assert board.foul(foul_vector["square"]) == foul_vector["foul"]


# -- review fix: X left with only foul points ends the game as a draw ----------------------------

def _stalemate_board(extra_empty=()):
    """15x15 Renju board filled without any five (rows alternate XXOO / OOXX), with E8-G8 and
    I8-J8 Black so that H8 is an overline for X; H8, A1 and ``extra_empty`` are left empty, O to
    move."""
    stones = {}
    for square in geometry(15).names:
        col, row = ord(square[0]) - ord("A"), int(square[1:]) - 1
        stones[square] = "X" if (col + 2 * row) % 4 in (0, 1) else "O"
    stones.update({"E8": "X", "F8": "X", "G8": "X", "I8": "X", "J8": "X", "D8": "O", "K8": "O"})
    for square in ("H8", "A1", *extra_empty):
        del stones[square]
    x = [s for s, v in stones.items() if v == "X"]
    o = [s for s, v in stones.items() if v == "O"]
    return Board.from_stones(RENJU, x=x, o=o, to_move="O")


def test_x_with_only_fouls_left_is_a_draw():
    board = _stalemate_board()
    outcome = board.play("A1")
    assert outcome == Outcome(None, Termination.NO_LEGAL_MOVE)
    assert board.outcome is outcome and board.turn == "X" and not board.is_full()
    assert board.legal_moves() == [] and board.foul("H8") == "overline"
    with pytest.raises(IllegalMove) as info:
        board.play("H8")
    assert info.value.reason == "game_over"
    assert board.undo() == "A1"
    assert board.outcome is None and board.legal_moves() == ["A1", "H8"]  # O may play anywhere


def test_one_non_foul_point_left_keeps_the_game_going():
    board = _stalemate_board(extra_empty=("O1",))
    assert board.play("A1") is None
    assert board.legal_moves() == ["O1"]


def test_set_up_position_with_only_fouls_stays_consistent():
    board = _stalemate_board()
    board.play("A1")
    board.undo()
    stuck = Board.from_stones(RENJU, x=[s for s, v in board.stones().items() if v == "X"],
                              o=[*(s for s, v in board.stones().items() if v == "O"), "A1"], to_move="X")
    assert stuck.outcome is None and stuck.legal_moves() == []  # not judged, as documented
    with pytest.raises(IllegalMove) as info:
        stuck.play("H8")
    assert info.value.reason == "foul"


def test_no_legal_move_check_stops_at_the_first_non_foul(monkeypatch):
    import caro.engine.caro as caro_module

    calls = []
    real = caro_module.foul_at

    def counting(cells, rays, index):
        calls.append(index)
        return real(cells, rays, index)

    monkeypatch.setattr(caro_module, "foul_at", counting)
    board = Board(RENJU)
    board.play("H8")
    calls.clear()
    board.play("I9")  # O's move hands the turn to X: one foul check (A1 is not a foul)
    assert len(calls) <= 1
    calls.clear()
    board.play("J10")  # X's own move: its foul check only, nothing after it (O to move)
    assert len(calls) == 1


def test_no_legal_move_termination_value():
    assert Termination.NO_LEGAL_MOVE.value == "no_legal_move"
    assert Termination("no_legal_move") is Termination.NO_LEGAL_MOVE


def test_foul_map_is_foul_at_on_every_empty_point(renju_case):
    """The fast listing behind legal_moves and foul_points judges exactly as foul_at, point by
    point, for Black to move and (as a pure function of the stones) with the colours swapped."""
    rays = geometry(15).rays
    for black, white in ((renju_case["black"], renju_case["white"]), (renju_case["white"], renju_case["black"])):
        board = Board.from_stones(RENJU, x=black, o=white)
        cells = list(board._cells)
        expected = {i: foul_at(cells, rays, i) for i, v in enumerate(cells) if v == 0}
        assert foul_map(cells, rays) == {i: kind for i, kind in expected.items() if kind is not None}
        assert cells == board._cells  # untouched
