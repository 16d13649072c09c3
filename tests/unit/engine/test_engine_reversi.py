"""Reversi: the shared vectors (perft 1-8, forced pass, championship game) and edge cases; the tables
of edge cases live in ``tests/engine_vectors/reversi.json``, which the browser engine's tests read too."""

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
    assert perft(Board(), 0) == 1


def test_perft_of_a_set_up_position(perft_position):
    board = Board.from_discs(black=perft_position["black"], white=perft_position["white"], turn=perft_position["turn"])
    expected = perft_position.get("outcome")
    assert board.outcome == (None if expected is None else Outcome(**expected))
    for depth, count in perft_position["perft"].items():
        assert perft(board, int(depth)) == count, depth


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


def test_flips(flips_vector):
    # e.g. row 1: a1 black, b1 white, c1 black, d1 white, e1 empty -> playing e1 flips d1 only
    board = Board.from_discs(black=flips_vector["black"], white=flips_vector["white"], turn=flips_vector["turn"])
    assert board.flips(flips_vector["square"]) == flips_vector["flips"]  # board order
    result = board.play(flips_vector["square"])
    assert result.flips == tuple(flips_vector["flips"])
    mover = flips_vector["turn"]
    other = "white" if mover == "black" else "black"
    assert all(board.disc_at(s) == mover for s in flips_vector["flips"])
    assert all(board.disc_at(s) == other for s in flips_vector[other] if s not in flips_vector["flips"])


def test_flips_never_cross_a_row_edge(edge_wrap):
    # h1 then wrapping to a2 is not a line, nor are the diagonal and anti-diagonal wraps
    black, white, move = edge_wrap
    board = Board.from_discs(black=black + ["c6"], white=white + ["d6"], turn="black")
    assert board.legal_moves() == ["e6"]
    assert board.flips(move) == []
    with pytest.raises(IllegalMove) as info:
        board.play(move)
    assert info.value.reason == "no_flip"


def test_play_errors(reversi_play_error):
    square, reason = reversi_play_error
    board = Board()
    with pytest.raises(IllegalMove) as info:
        board.play(square)
    assert info.value.reason == reason
    assert board.moves == [] and board.turn == "black"


def test_wrong_side_then_a_move_in_capitals():
    board = Board()
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


def test_start_position_text(engine_vectors):
    assert Board().position() == engine_vectors("reversi.json")["start_position"]


def test_a_position_string_that_is_not_one_is_refused(bad_reversi_position):
    with pytest.raises(ValueError):
        Board.from_position(bad_reversi_position)
