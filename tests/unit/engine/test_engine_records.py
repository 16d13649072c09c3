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
    text = "Piskvorky 15x15, 11:11, 0\n10,10,0\n11,9,120\n1,15,5\n-1\nengineA.zip\nengineB.zip\n0,Freestyle15\n"
    game = parse_psq(text)
    assert game.size == 15 and game.moves == ("J10", "K9", "A15") and game.times == (0, 120, 5)
    # player names straight after the moves (no -1) end the move list too
    assert parse_psq("Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\npbrain-a.exe\r\n").moves == ("H8",)


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


# -- review fixes: records refuse every kind of bad input with bad_record ------------------------

PSQ_HEAD = "Piskvorky 15x15, 11:11, 0\n"
FIVE_THEN_MORE = "8,8,0\n1,1,0\n9,8,0\n1,2,0\n10,8,0\n1,3,0\n11,8,0\n1,4,0\n12,8,0\n"  # X: H8-L8


def _reason(parse, *args):
    with pytest.raises(IllegalMove) as info:
        parse(*args)
    return info.value


@pytest.mark.parametrize("parse", [parse_squares, parse_psq, parse_reversi, parse_ggf])
@pytest.mark.parametrize("junk", [None, b"Piskvorky 15x15, 11:11, 0\n8,8,0\n", 42, ["H8"]])
def test_records_refuse_non_text_with_bad_record(parse, junk):
    error = _reason(parse, junk)
    assert error.reason == "bad_record" and type(junk).__name__ in str(error)


@pytest.mark.parametrize("size", [20, 5, 14, 26])
def test_psq_only_the_site_board_sizes(size):
    error = _reason(parse_psq, f"Piskvorky {size}x{size}, 11:11, 0\n1,1,0\n-1\n")
    assert error.reason == "bad_record"
    assert f"{size}x{size}" in str(error) and "11x11, 13x13, 15x15, 19x19" in str(error)


@pytest.mark.parametrize("size", [11, 13, 19])
def test_psq_accepts_the_other_site_sizes(size):
    assert parse_psq(format_psq(["A1", "K11"], size=size)).size == size


def test_psq_moves_after_the_game_ended_are_refused():
    game = parse_psq(PSQ_HEAD + FIVE_THEN_MORE + "-1\n")  # ends exactly on the five
    assert game.moves[-1] == "L8"
    error = _reason(parse_psq, PSQ_HEAD + FIVE_THEN_MORE + "1,5,0\n-1\n")
    assert error.reason == "bad_record" and "after the game ended" in str(error) and error.square == "A5"
    # under rules where that five does not end the game, the same record goes on
    game = parse_psq(PSQ_HEAD + FIVE_THEN_MORE + "1,5,0\n-1\n", Rules(win_length=6, blocked="none"))
    assert len(game.moves) == 10


def test_psq_rules_must_match_and_renju_fouls_keep_their_reason():
    assert _reason(parse_psq, PSQ_HEAD + "8,8,0\n", Rules(size=19)).reason == "bad_record"
    renju = Rules(renju=True, blocked="none")
    # X: I8, J8, H7, H6, then H8 makes two open threes (row 8, column H): a double three.
    text = PSQ_HEAD + "9,8,0\n1,1,0\n10,8,0\n1,3,0\n8,7,0\n1,5,0\n8,6,0\n1,7,0\n8,8,0\n"
    error = _reason(parse_psq, text, renju)
    assert error.reason == "foul" and error.foul == "double-three"


@pytest.mark.parametrize("middle", ["foo", "", "-1", "8;8;0"])
def test_psq_a_non_move_line_among_the_moves_is_refused(middle):
    error = _reason(parse_psq, PSQ_HEAD + f"8,8,0\n{middle}\n9,9,0\n-1\n")
    assert error.reason == "bad_record" and "line 4" in str(error)


@pytest.mark.parametrize("line", ["\u0668,\u0668,0", "8,\u0668", "+8,8,0", "8,8,\uff10", "8 ,8 ,0\u00a0"])
def test_psq_only_ascii_digits(line):
    assert _reason(parse_psq, PSQ_HEAD + line + "\n-1\n").reason == "bad_record"


def test_psq_header_only_ascii_digits():
    assert _reason(parse_psq, "Piskvorky \u0661\u0665x\u0661\u0665, 11:11, 0\n8,8,0\n").reason == "bad_record"


@pytest.mark.parametrize("text", [
    PSQ_HEAD + "9" * 5000 + ",1,0\n",
    PSQ_HEAD + "1," + "9" * 5000 + "\n",
    PSQ_HEAD + "8,8," + "9" * 5000 + "\n",
    "Piskvorky " + "1" * 5000 + "x15, 11:11, 0\n",
    "Piskvorky 15x" + "1" * 5000 + ", 11:11, 0\n",
])
def test_psq_huge_numbers_are_bad_records(text):
    assert _reason(parse_psq, text).reason == "bad_record"


def test_psq_huge_but_short_coordinates_are_off_the_board():
    assert _reason(parse_psq, PSQ_HEAD + "9999,1,0\n").reason == "out_of_board"


@pytest.mark.parametrize("text", ["1.H8", "H8 ZZ9", "H8 I9 H", "H8 \u0668"])
def test_square_list_tokens_that_are_not_squares_are_bad_records(text):
    error = _reason(parse_squares, text)
    assert error.reason == "bad_record" and "bad_square" in str(error)


def test_square_list_moves_after_the_end_are_bad_records():
    error = _reason(parse_squares, "A1 B1 A2 B2 A3 B3 A4 B4 A5 B5", Rules(blocked="none"))
    assert error.reason == "bad_record" and "game_over" in str(error) and "move 10" in str(error)
    assert parse_squares("9999999999999999999999. H8").moves == ["H8"]
    assert _reason(parse_squares, "1" * 5000 + " H8").reason == "bad_record"


@pytest.mark.parametrize("text", ["f5d", "f5a10", "f5zz", "f5 d", "f5d6c", "f5\u0668\u0668", "f5a0"])
def test_reversi_strings_that_are_not_move_lists_are_bad_records(text):
    assert _reason(parse_reversi, text).reason == "bad_record"


def test_reversi_string_keeps_move_reasons():
    assert _reason(parse_reversi, "f5i1").reason == "out_of_board"
    assert _reason(parse_reversi, "f5a1").reason == "no_flip"


GGF_HEAD = "(;GM[Othello]"


@pytest.mark.parametrize("text", [
    GGF_HEAD + "B[F5]B[PA]W[D6];)",  # a pass by the side not to move
    GGF_HEAD + "B[F5]W[PA];)",  # White has moves: no pass
    GGF_HEAD + "B[F5] junk W[D6];)",  # text outside properties
    GGF_HEAD + "B[F5]W[D6] x;)",
    GGF_HEAD + "XYZ[1]B[F5];)",  # three-letter key
    GGF_HEAD + "PBX[a]B[F5];)",
    GGF_HEAD + "b[f5];)",  # lower-case key
    GGF_HEAD + "B[F5;)",  # unclosed value
    GGF_HEAD + "B[F5];)(;GM[Othello]B[F5]W[D6];)",  # two games
    GGF_HEAD + "PB[a]PB[b]B[F5];)",  # a property twice
    "(;GM[Othello]GM[Othello];)",
    GGF_HEAD + "B[];)",
    GGF_HEAD + "B[F5X];)",
    GGF_HEAD + "B[" + "9" * 5000 + "];)",
])
def test_ggf_strict_grammar_and_passes(text):
    assert _reason(parse_ggf, text).reason == "bad_record"


def test_ggf_pass_after_the_game_ended_is_refused(reversi_vectors):
    text = format_ggf(parse_reversi(reversi_vectors["full_game"]["moves"]))
    error = _reason(parse_ggf, text[:-2] + "W[PA];)")
    assert error.reason == "bad_record" and "over" in str(error)
    error = _reason(parse_ggf, text[:-2] + "W[A1];)")
    assert error.reason == "bad_record" and "game_over" in str(error)


def test_ggf_escaped_brackets_and_whitespace():
    text = "(;GM[Othello]PB[Ann \\] [x\\]]PW[back\\\\slash]PC[a;)b]\n  B[F5]\nW[D6];)"
    game = parse_ggf(text)
    assert game.tags["PB"] == "Ann ] [x]" and game.tags["PW"] == "back\\slash" and game.tags["PC"] == "a;)b"
    assert game.board.moves == ["f5", "d6"]


def test_ggf_omitted_forced_pass_is_tolerated(forced_pass_case):
    board = parse_reversi(forced_pass_case["moves"])
    text = format_ggf(board).replace("B[PA]", "")
    assert parse_ggf(text).board.moves == board.moves


def test_ggf_names_with_brackets_and_backslashes_round_trip_readably():
    board = parse_reversi("f5d6")
    text = format_ggf(board, black="a\\", white="[b]\\]")
    game = parse_ggf(text)
    assert game.tags["PB"] == "a" and game.tags["PW"] == "b" and game.board.moves == ["f5", "d6"]
