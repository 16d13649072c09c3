"""Records: round trips through every format, and refusal of broken records.

The square-list, PSQ and Reversi-string vectors live in ``tests/engine_vectors/records.json``, which
the browser engine's tests read too (the browser engine has no GGF: those vectors are here)."""

from __future__ import annotations

import pytest

from caro.engine import reversi
from caro.engine.caro import Board, Rules
from caro.engine.errors import IllegalMove
from caro.engine.records import (
    format_ggf, format_psq, format_reversi, format_squares, parse_ggf, parse_psq, parse_reversi, parse_squares,
)


def _reason(parse, *args):
    with pytest.raises(IllegalMove) as info:
        parse(*args)
    return info.value


def _rules(vector):
    return Rules.from_dict(vector["rules"]) if vector.get("rules") is not None else None


def test_square_list_round_trip(engine_vectors):
    game = engine_vectors("records.json")["game"]
    board = Board(Rules())
    for square in game:
        board.play(square)
    text = format_squares(board.moves)
    assert text == " ".join(game)
    again = parse_squares(text)
    assert again.moves == board.moves and again.stones() == board.stones()


def check_read(vector, parse, *args):
    """A vector read to its moves (and winner, size, times), or refused with its reason."""
    if "reason" in vector:
        error = _reason(parse, *args)
        assert error.reason == vector["reason"], str(error)
        assert error.foul == vector.get("foul")
        if "square" in vector:
            assert error.square == vector["square"]
        for words in vector.get("message_has", []):
            assert words in str(error)
        return None
    return parse(*args)


def test_square_list_vector(square_list_vector, vector_text):
    board = check_read(square_list_vector, parse_squares, vector_text(square_list_vector["text"]), _rules(square_list_vector))
    if board is not None:
        assert board.moves == square_list_vector["moves"]
        assert (board.outcome and board.outcome.winner) == square_list_vector.get("winner")


def test_psq_vector(psq_vector, vector_text):
    game = check_read(psq_vector, parse_psq, vector_text(psq_vector["text"]), _rules(psq_vector))
    if game is not None:
        assert game.size == psq_vector["size"] and list(game.moves) == psq_vector["moves"]
        assert list(game.times) == psq_vector["times"] and list(game.names) == psq_vector["names"]


def test_reversi_string_vector(reversi_string_vector, vector_text):
    board = check_read(reversi_string_vector, parse_reversi, vector_text(reversi_string_vector["text"]))
    if board is not None:
        assert board.moves == reversi_string_vector["moves"]


def test_psq_round_trip(engine_vectors):
    data = engine_vectors("records.json")
    game, spec = data["game"], data["psq_round_trip"]
    for size in spec["sizes"]:
        text = format_psq(game, size=size, times=spec["times"])
        assert text.splitlines()[:3] == [line.replace("{size}", str(size)) for line in spec["first_lines"]]
        # H8: column 8, row 8, 1-based
        parsed = parse_psq(text)
        assert parsed.size == size and list(parsed.moves) == game and list(parsed.times) == spec["times"]
    for size in spec["other_sizes"]:
        assert parse_psq(format_psq(spec["other_moves"], size=size)).size == size
    text = format_psq(game, names=tuple(spec["names"]))
    assert text.endswith(spec["names_tail"]) and list(parse_psq(text).names) == spec["names"]


def test_reversi_string_round_trip(reversi_vectors):
    moves = reversi_vectors["full_game"]["moves"]
    board = parse_reversi(moves)
    assert format_reversi(board) == moves.lower()


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

@pytest.mark.parametrize("parse", [parse_squares, parse_psq, parse_reversi, parse_ggf])
def test_records_refuse_non_text_with_bad_record(parse, not_text):
    error = _reason(parse, not_text)
    assert error.reason == "bad_record" and type(not_text).__name__ in str(error)


@pytest.mark.parametrize("parse", [parse_squares, parse_psq, parse_reversi, parse_ggf])
def test_records_refuse_bytes_with_bad_record(parse):
    # bytes have no JSON form, so this one is not among the shared vectors
    error = _reason(parse, b"Piskvorky 15x15, 11:11, 0\n8,8,0\n")
    assert error.reason == "bad_record" and "bytes" in str(error)


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
