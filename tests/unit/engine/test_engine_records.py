"""Records: round trips through every format, and refusal of broken records."""

from __future__ import annotations

import pytest

from caro.engine import reversi
from caro.engine.caro import Board, Rules
from caro.engine.errors import IllegalMove
from caro.engine.records import (
    format_ggf, format_psq, format_reversi, format_squares, parse_ggf, parse_psq, parse_reversi, parse_squares,
)

GAME = ["H8", "I9", "I8", "J8", "G8", "F8", "H9", "G10", "H7", "H6", "J9", "K10"]


def test_square_list_round_trip():
    board = Board(Rules())
    for square in GAME:
        board.play(square)
    text = format_squares(board.moves)
    assert text == "H8 I9 I8 J8 G8 F8 H9 G10 H7 H6 J9 K10"
    again = parse_squares(text)
    assert again.moves == board.moves and again.stones() == board.stones()
    assert parse_squares("1. h8, i9;\n2. I8").moves == ["H8", "I9", "I8"]


def test_square_list_keeps_the_result():
    board = parse_squares("A1 B1 A2 B2 A3 B3 A4 B4 A5", Rules(blocked="none"))
    assert board.outcome.winner == "X"
    with pytest.raises(IllegalMove) as info:
        parse_squares("H8 H8")
    assert info.value.reason == "occupied"


@pytest.mark.parametrize("size", [15, 19])
def test_psq_round_trip(size):
    times = [0, 15, 230, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    text = format_psq(GAME, size=size, times=times)
    assert text.splitlines()[0] == f"Piskvorky {size}x{size}, 11:11, 0"
    assert text.splitlines()[1] == "8,8,0"  # H8: column 8, row 8, 1-based
    assert text.splitlines()[2] == "9,9,15"
    game = parse_psq(text)
    assert game.size == size and list(game.moves) == GAME and list(game.times) == times


def test_psq_from_a_tournament_file():
    text = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,9,120\n1,20,5\n-1\nengineA.zip\nengineB.zip\n0,Freestyle20\n"
    game = parse_psq(text)
    assert game.size == 20 and game.moves == ("J10", "K9", "A20") and game.times == (0, 120, 5)


@pytest.mark.parametrize("text, reason", [
    ("8,8,0\n", "bad_record"), ("Piskvorky 15x16, 11:11, 0\n", "bad_record"),
    ("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n", "bad_record"), ("Piskvorky 15x15, 11:11, 0\n16,1,0\n", "out_of_board"),
    ("", "bad_record"),
])
def test_psq_refusals(text, reason):
    with pytest.raises(IllegalMove) as info:
        parse_psq(text)
    assert info.value.reason == reason


def test_reversi_string_round_trip(reversi_vectors):
    moves = reversi_vectors["full_game"]["moves"]
    board = parse_reversi(moves)
    assert format_reversi(board) == moves.lower()
    assert parse_reversi("F5 d6, C3").moves == ["f5", "d6", "c3"]
    with pytest.raises(IllegalMove) as info:
        parse_reversi("f5f5")
    assert info.value.reason == "occupied"


def test_ggf_round_trip_championship_game(reversi_vectors):
    board = parse_reversi(reversi_vectors["full_game"]["moves"])
    text = format_ggf(board, black="Nicolet", white="Tominaga [JPN]")
    assert text.startswith("(;GM[Othello]") and text.endswith(";)")
    assert "RE[+6.000]" in text and "PW[Tominaga JPN]" in text and "B[F5]W[D6]" in text
    game = parse_ggf(text)
    assert game.board.moves == board.moves
    assert game.board.outcome == reversi.Outcome("black", 35, 29)
    assert game.tags["PB"] == "Nicolet"


def test_ggf_writes_and_reads_passes(forced_pass_case):
    board = parse_reversi(forced_pass_case["moves"])
    text = format_ggf(board)
    assert text.endswith("W[C1]B[PA];)")
    assert "RE[?]" in text
    again = parse_ggf(text)
    assert again.board.moves == board.moves and again.board.turn == "white"


def test_ggf_from_another_program():
    text = ("(;GM[Othello]PC[GGS/os]DT[2000-4-16]PB[a]PW[b]TI[15:00//02:00]TY[8]RE[?]"
            "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
            "B[F5//4.09]W[d6/40.00/0.01]B[C3];)")
    assert parse_ggf(text).board.moves == ["f5", "d6", "c3"]


@pytest.mark.parametrize("text, reason", [
    ("B[F5]", "bad_record"),
    ("(;GM[Chess]B[F5];)", "bad_record"),
    ("(;GM[Othello]TY[10]B[F5];)", "bad_record"),
    ("(;GM[Othello]BO[8 " + "-" * 64 + " *]B[F5];)", "bad_record"),
    ("(;GM[Othello]B[PA];)", "bad_record"),  # pass while Black has moves
    ("(;GM[Othello]W[F5];)", "wrong_turn"),
    ("(;GM[Othello]B[A1];)", "no_flip"),
])
def test_ggf_refusals(text, reason):
    with pytest.raises(IllegalMove) as info:
        parse_ggf(text)
    assert info.value.reason == reason
