"""Reversi: the shared vectors (perft 1-8, forced pass, championship game) and edge cases."""

from __future__ import annotations

import pytest

from caro.engine.errors import IllegalMove
from caro.engine.reversi import Board, Outcome, perft


def test_initial_position(reversi_vectors):
    board = Board()
    assert board.turn == "black"
    assert board.legal_moves() == reversi_vectors["initial_legal_moves_black"]
    assert board.discs() == {"d4": "white", "e5": "white", "d5": "black", "e4": "black"}
    assert board.count() == (2, 2)


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft(reversi_vectors, depth):
    assert perft(Board(), depth) == reversi_vectors["perft"][str(depth)]


def test_perft_8(reversi_vectors):
    # about 0.3 s on the development machine
    board = Board()
    assert perft(board, 8) == reversi_vectors["perft"]["8"] == 390216
    assert board.moves == [] and board.count() == (2, 2)


def test_perft_counts_a_pass_as_a_ply_and_a_finished_game_as_a_leaf():
    # Black to move with no legal move, White has one: the pass is one ply.
    board = Board.from_discs(black=["b1"], white=["a1"], turn="black")
    assert board.outcome is None and board.legal_moves() == []
    assert perft(board, 1) == 1  # the pass
    board.pass_turn()
    assert board.legal_moves() == ["c1"]
    result = board.play("c1")  # now neither side can move: a leaf after 2 plies
    assert result.outcome == Outcome("white", 0, 3) and not result.passed
    board = Board.from_discs(black=["b1"], white=["a1"], turn="black")
    assert [perft(board, d) for d in (1, 2, 3, 4)] == [1, 1, 1, 1]
    # Black passes (1 ply), then White has c1, c2, c3
    board = Board.from_discs(black=["b1", "b2"], white=["a1", "a2"], turn="black")
    assert [perft(board, d) for d in (1, 2)] == [1, 3]
    finished = Board.from_discs(black=["a1", "b1"], white=[], turn="white")
    assert finished.outcome == Outcome("black", 2, 0)
    assert perft(finished, 5) == 1
    assert perft(Board(), 0) == 1


def test_forced_pass(forced_pass_case):
    moves = forced_pass_case["moves"]
    board = Board.from_moves(moves[:-2])
    result = board.play(moves[-2:])
    assert result.passed is True
    assert board.turn == "white"  # Black passed automatically
    assert board.legal_moves() == forced_pass_case["white_legal_after_pass"]
    black, white = board.count()
    assert {"black": black, "white": white} == forced_pass_case["discs"]
    assert board.passes == 1
    # Black really had no move in that position
    before_pass = Board.from_discs(
        black=[s for s, c in board.discs().items() if c == "black"],
        white=[s for s, c in board.discs().items() if c == "white"], turn="black")
    assert before_pass.legal_moves() == forced_pass_case["black_to_move_legal"] == []
    with pytest.raises(IllegalMove) as info:
        before_pass.play("e3")
    assert info.value.reason == "must_pass"
    before_pass.pass_turn()
    assert before_pass.turn == "white"
    # undo takes back the move and the automatic pass with it
    assert board.undo() == moves[-2:]
    assert board.turn == "white" and board.passes == 0
    assert board.moves == [moves[k:k + 2] for k in range(0, len(moves) - 2, 2)]


def test_championship_game(reversi_vectors):
    game = reversi_vectors["full_game"]
    board = Board.from_moves(game["moves"])
    assert board.outcome == Outcome("black", game["result"]["black"], game["result"]["white"])
    assert board.passes == game["result"]["passes"]
    assert board.ply == 60 and board.legal_moves() == []
    with pytest.raises(IllegalMove) as info:
        board.play("a1")
    assert info.value.reason == "game_over"


def test_pass_refused_while_a_legal_move_exists():
    board = Board()
    with pytest.raises(IllegalMove) as info:
        board.pass_turn()
    assert info.value.reason == "must_play"
    assert board.turn == "black"


def test_flips_stop_at_nearest_own_disc():
    # row 1: a1 black, b1 white, c1 black, d1 white, e1 empty -> playing e1 flips d1 only
    board = Board.from_discs(black=["a1", "c1"], white=["b1", "d1"], turn="black")
    result = board.play("e1")
    assert result.flips == ("d1",)
    assert board.disc_at("b1") == "white"


def test_flips_all_directions_at_once():
    white = ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]
    black = ["b2", "d2", "f2", "b4", "f4", "b6", "d6", "f6"]
    board = Board.from_discs(black=black, white=white, turn="black")
    assert board.flips("d4") == ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]  # board order
    result = board.play("d4")
    assert sorted(result.flips) == sorted(white)
    assert all(board.disc_at(s) == "black" for s in white)


@pytest.mark.parametrize("black, white, move", [
    (["a2"], ["h1"], "g1"),  # h1 then wrapping to a2 is not a line
    (["h2"], ["a3"], "b3"),  # a3 wrapping back to h2 is not a line
    (["a3"], ["h1"], "g2"),  # diagonal wrap
    (["h3"], ["a2"], "b1"),  # anti-diagonal wrap
])
def test_flips_never_cross_a_row_edge(black, white, move):
    board = Board.from_discs(black=black + ["c6"], white=white + ["d6"], turn="black")
    assert board.legal_moves() == ["e6"]
    assert board.flips(move) == []
    with pytest.raises(IllegalMove) as info:
        board.play(move)
    assert info.value.reason == "no_flip"


def test_play_errors():
    board = Board()
    for square, reason in [("d4", "occupied"), ("a1", "no_flip"), ("i1", "out_of_board"), ("a9", "out_of_board"), ("f", "bad_square")]:
        with pytest.raises(IllegalMove) as info:
            board.play(square)
        assert info.value.reason == reason
    with pytest.raises(IllegalMove) as info:
        board.play("f5", side="white")
    assert info.value.reason == "wrong_turn"
    assert board.play("F5", side="black").flips == ("e5",)


def test_undo_restores_everything():
    board = Board.from_moves("f5d6c3d3c4")
    snapshot = (board.discs(), board.turn, board.moves)
    board.play("f4")
    board.undo()
    assert (board.discs(), board.turn, board.moves) == snapshot
    for _ in range(5):
        board.undo()
    assert board.discs() == Board().discs() and board.turn == "black"
    with pytest.raises(IndexError):
        board.undo()


def test_queries_never_change_the_board(reversi_vectors):
    board = Board.from_moves("f5d6c3d3c4f4")
    snapshot = (board.discs(), board.turn, board.moves, board.outcome, str(board))
    board.legal_moves(); board.flips("e6"); board.disc_at("e6"); board.count(); perft(board, 3)
    board.copy().play(board.legal_moves()[0]); board.discs()["a1"] = "black"; board.moves.append("a1")
    assert (board.discs(), board.turn, board.moves, board.outcome, str(board)) == snapshot


# -- the stored position (Board.position / from_position, issue 17) ---------------------------


def test_a_position_plays_on_exactly_like_the_board_it_came_from():
    board = Board.from_moves("f5d6c3d3c4f4f6")
    restored = Board.from_position(board.position())
    assert restored.position() == board.position() and restored.turn == board.turn
    assert restored.discs() == board.discs() and restored.legal_moves() == board.legal_moves()
    assert restored.moves == [] and restored.outcome is None
    for square in ("f3", "e6", "e7"):
        assert board.play(square) == restored.play(square)
    assert restored.position() == board.position()


def test_a_position_string_that_is_not_one_is_refused():
    assert Board().position() == "black:0000000810000000:0000001008000000"
    for wrong in ("", "black", "red:0:0", "black:zz:0", "black:1:1", f"white:{1 << 64:x}:0", None):
        with pytest.raises(ValueError):
            Board.from_position(wrong)
