"""Caro board: the shared win-rule cases and the failure kinds other engines are known for.

The data tables (square names, refused rules, presets, refused moves, positions and their verdicts)
live in ``tests/engine_vectors`` (coords.json, caro.json), which the browser engine's tests read too."""

from __future__ import annotations

import json

import pytest

from caro.engine.caro import DEFAULT_PRESET, PRESETS, Board, Blocked, Outcome, Rules, Termination
from caro.engine.coords import parse_square, square_name
from caro.engine.errors import IllegalMove
from caro.engine.explain import refused_five

ALL_RULES = [
    Rules(size=size, win_length=k, exact=exact, blocked=blocked)
    for size in (11, 15, 19)
    for k in (4, 5, 6)
    for exact in (False, True)
    for blocked in ("none", "opponent", "opponent_or_edge")
]


def rules_id(rules: Rules) -> str:
    return f"{rules.size}-{rules.win_length}-{'exact' if rules.exact else 'long'}-{rules.blocked}"


def test_caro_rules_file_has_62_cases(shared_cases):
    assert len(shared_cases("caro-rules.json")["cases"]) == 62


def test_shared_caro_case(caro_case):
    rules = Rules.from_dict(caro_case["rules"])
    board = Board.from_stones(rules, x=caro_case["x"], o=caro_case["o"], to_move=caro_case["to_move"])
    outcome = board.play(caro_case["move"])
    if caro_case["wins"]:
        assert outcome is not None
        assert outcome.winner == caro_case["to_move"]
        assert outcome.termination is Termination.FIVE
        assert set(outcome.line) == set(caro_case["line"])
        assert len(outcome.line) == len(caro_case["line"])
    else:
        assert outcome is None
        assert board.outcome is None


# -- coordinates -------------------------------------------------------------------------------

def test_square_names(engine_vectors):
    data = engine_vectors("coords.json")
    for col, row, name in data["names"]:  # I is a column letter: (8, 0) is I1
        assert square_name(col, row) == name
    for name, size, (col, row) in data["parse"]:
        assert parse_square(name, size) == (col, row)


def test_malformed_square(malformed_name):
    with pytest.raises(IllegalMove) as info:
        parse_square(malformed_name, 15)
    assert info.value.reason == "bad_square"


def test_square_off_board(off_board_vector):
    name, size = off_board_vector
    with pytest.raises(IllegalMove) as info:
        parse_square(name, size)
    assert info.value.reason == "out_of_board"


# -- rules and presets -------------------------------------------------------------------------

def test_invalid_rules(invalid_rules_kwargs):
    with pytest.raises(ValueError):
        Rules(**invalid_rules_kwargs)


def test_rules_from_bad_data_raise_value_error(bad_rules_data):
    with pytest.raises(ValueError):
        Rules.from_dict(bad_rules_data)


def test_rules_round_trip_through_json():
    for rules in ALL_RULES + [Rules(renju=True, blocked="none")]:
        again = Rules.from_dict(json.loads(json.dumps(rules.to_dict())))
        assert again == rules
    assert Rules(blocked=Blocked.NONE).to_dict()["blocked"] == "none"


def test_presets(engine_vectors):
    data = engine_vectors("caro.json")
    assert PRESETS["caro-vn"].rules == Rules()
    assert Rules() == Rules(size=15, win_length=5, exact=False, blocked="opponent_or_edge", renju=False)
    assert DEFAULT_PRESET == data["default_preset"]
    assert list(PRESETS) == [preset["slug"] for preset in data["presets"]]
    for expected in data["presets"]:
        preset = PRESETS[expected["slug"]]
        assert preset.slug == expected["slug"] and preset.name == expected["name"]
        assert preset.rules == Rules.from_dict(expected["rules"]) and preset.opening == expected["opening"]


# -- playing -----------------------------------------------------------------------------------

def play_all(board: Board, squares: str) -> Outcome | None:
    outcome = None
    for square in squares.split():
        outcome = board.play(square)
    return outcome


def test_turns_moves_ply_and_undo():
    board = Board(Rules())
    assert board.turn == "X" and board.ply == 0 and board.moves == []
    board.play("H8")
    assert board.turn == "O"
    board.play("i9", side="O")
    assert board.moves == ["H8", "I9"] and board.ply == 2
    assert board.stone_at("H8") == "X" and board.stone_at("I9") == "O" and board.stone_at("A1") is None
    assert board.stones() == {"H8": "X", "I9": "O"}
    assert board.undo() == "I9"
    assert board.turn == "O" and board.moves == ["H8"] and board.stone_at("I9") is None
    board.undo()
    with pytest.raises(IndexError):
        board.undo()


def test_play_errors(engine_vectors):
    data = engine_vectors("caro.json")["play_errors"]
    board = Board(Rules())
    for square in data["moves"]:
        board.play(square)
    for attempt in data["tries"]:
        with pytest.raises(IllegalMove) as info:
            board.play(attempt["square"], side=attempt.get("side"))
        assert info.value.reason == attempt["reason"]
        assert str(info.value)
    assert board.moves == data["moves"] and board.turn == "O"


def test_position_vector(caro_position):
    rule_list = caro_position["rules"]
    for rules in rule_list if isinstance(rule_list, list) else [rule_list]:
        board = Board.from_stones(Rules.from_dict(rules), x=caro_position["x"], o=caro_position["o"],
                                  to_move=caro_position["to_move"])
        outcome = board.play(caro_position["move"])
        expected = caro_position["outcome"]
        if expected is None:
            assert outcome is None and board.outcome is None, rules
        else:
            assert outcome == Outcome(expected["winner"], Termination(expected["termination"]), tuple(expected["line"])), rules


def test_refused_five_vector(refused_five_vector):
    vector = refused_five_vector
    board = Board.from_stones(Rules.from_dict(vector["rules"]), x=vector["x"], o=vector["o"], to_move=vector["to_move"])
    board.play(vector["move"])
    assert refused_five(board, vector["move"]) == vector["note"]


def test_game_over_refuses_moves_and_undo_reopens():
    board = Board(Rules(blocked="none"))
    outcome = play_all(board, "A1 A2 B1 B2 C1 C2 D1 D2 E1")
    assert outcome == board.outcome
    assert outcome.winner == "X" and outcome.line == ("A1", "B1", "C1", "D1", "E1")
    assert board.legal_moves() == []
    with pytest.raises(IllegalMove) as info:
        board.play("F1")
    assert info.value.reason == "game_over"
    board.undo()
    assert board.outcome is None and board.turn == "X"
    assert board.play("H8") is None


@pytest.mark.parametrize("rules", [Rules(size=s, blocked="none") for s in (11, 13, 15, 19)], ids=lambda r: str(r.size))
def test_last_row_and_last_column(rules):
    n = rules.size
    last = square_name(n - 1, 0)[0]
    row = [square_name(c, n - 1) for c in range(n - 5, n)]
    col = [f"{last}{r}" for r in range(n - 4, n + 1)]
    for line in (row, col):
        board = Board.from_stones(rules, x=line[:-1])
        assert board.play(line[-1]).line == tuple(line)
        board = Board.from_stones(rules, x=line[1:])
        assert board.play(line[0]).line == tuple(line)


@pytest.mark.parametrize("size", [11, 13, 15, 19])
@pytest.mark.parametrize("corner", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_both_diagonals_into_every_corner(size, corner):
    flip_c, flip_r = corner
    cells = [(k, k) for k in range(5)]
    cells = [((size - 1 - c) if flip_c else c, (size - 1 - r) if flip_r else r) for c, r in cells]
    names = [square_name(c, r) for c, r in cells]
    for blocked, wins in (("none", True), ("opponent", True), ("opponent_or_edge", True)):
        # the far end (6th cell) is empty, so even edge blocking lets it win
        for move_at in (0, 4):
            board = Board.from_stones(Rules(size=size, blocked=blocked), x=[s for s in names if s != names[move_at]])
            outcome = board.play(names[move_at])
            assert (outcome is not None) == wins
            assert set(outcome.line) == set(names)


@pytest.mark.parametrize("size", [11, 15, 19])
def test_no_wrap_around_between_rows(size):
    last = square_name(size - 1, 0)[0]
    # three at the end of row 1, two at the start of row 2: contiguous in memory, not on the board
    x = [f"{chr(ord(last) - 2)}1", f"{chr(ord(last) - 1)}1", "A2"]
    board = Board.from_stones(Rules(size=size, blocked="none"), x=x)
    assert board.play(f"{last}1") is None
    board.play("H8")  # O
    assert board.play("B2") is None
    # diagonal wrap: from the last column to the first column
    board = Board.from_stones(Rules(size=size, blocked="none"), x=[f"{last}3", f"{last}4", "A5", "B6"])
    assert board.play(f"{last}2") is None


def _fill_without_five(size: int) -> list[str]:
    """Every square of the board in a pattern with no run of 4 of one side in any direction."""
    # columns in pairs XXOO..., rows shifted by 1 per pair of rows: no four in a row anywhere.
    stones = []
    for r in range(size):
        for c in range(size):
            stones.append("X" if ((c + (r // 2) * 2 + r % 2) // 2) % 2 == 0 else "O")
    return stones


@pytest.mark.parametrize("blocked, run, blockers", [
    ("none", range(3, 8), (2, 8)),  # D6-H6 between two O stones
    ("opponent", range(0, 5), (5,)),  # A6-E6: the edge does not block
])
def test_last_empty_square_completing_five_is_a_win_not_a_draw(blocked, run, blockers):
    # (Under opponent_or_edge every run on a full board is blocked at both ends.)
    size = 11
    pattern = _fill_without_five(size)
    cells = {square_name(i % size, i // size): side for i, side in enumerate(pattern)}
    for c in run:
        cells[square_name(c, 5)] = "X"
    for c in blockers:
        cells[square_name(c, 5)] = "O"
    last = square_name(run[2], 5)
    del cells[last]
    x = [s for s, v in cells.items() if v == "X"]
    o = [s for s, v in cells.items() if v == "O"]
    board = Board.from_stones(Rules(size=size, blocked=blocked), x=x, o=o, to_move="X")
    assert board.legal_moves() == [last]
    outcome = board.play(last)
    assert outcome.winner == "X" and outcome.termination is Termination.FIVE
    assert outcome.line == tuple(square_name(c, 5) for c in run)
    assert board.is_full()


def test_full_board_without_five_is_a_draw():
    size = 11
    pattern = _fill_without_five(size)
    names = [square_name(i % size, i // size) for i in range(size * size)]
    last = names[-1]
    x = [n for n, s in zip(names, pattern) if s == "X" and n != last]
    o = [n for n, s in zip(names, pattern) if s == "O" and n != last]
    board = Board.from_stones(Rules(size=size, win_length=4, blocked="none"), x=x, o=o, to_move=pattern[-1])
    outcome = board.play(last)
    assert outcome == Outcome(None, Termination.DRAW, ())
    assert board.legal_moves() == []


def test_queries_never_change_the_board():
    board = Board.from_stones(Rules(renju=True, blocked="none"), x=["H8", "I8", "H9", "G10"], o=["A1", "B1", "C1"])
    board.play("J10")
    before = (board.stones(), board.moves, board.ply, board.turn, board.outcome, str(board))
    board.legal_moves(); board.foul("I9"); board.stone_at("I9"); board.winning_line("H8"); board.copy().play("I9")
    board.legal_moves(); board.stones()["H8"] = "O"; board.moves.append("A2")
    assert (board.stones(), board.moves, board.ply, board.turn, board.outcome, str(board)) == before


# -- the stored position (Board.position / from_position, issue 17) ---------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_position_plays_on_exactly_like_the_board_it_came_from(preset):
    rules = PRESETS[preset].rules
    board = Board(rules)
    for square in ("D8", "A1", "E8", "A3", "F8", "A5"):
        board.play(square)
    restored = Board.from_position(rules, board.position())
    assert restored.position() == board.position() and restored.turn == board.turn == "X"
    assert restored.stones() == board.stones() and restored.legal_moves() == board.legal_moves()
    assert restored.moves == [] and restored.outcome is None
    for square in ("G8", "A7", "H8"):  # X's five D8-H8 ends the game on both boards alike
        assert restored.play(square) == board.play(square)
        assert restored.position() == board.position()
    assert restored.outcome is not None and restored.outcome.termination == Termination.FIVE


def test_a_position_string_that_does_not_fit_the_rules_is_refused():
    board = Board(Rules(size=15))
    text = board.position()
    assert text == "X" + "." * 225
    for wrong in ("", text[:-1], "Z" + text[1:], "X" + "?" * 225, 15):
        with pytest.raises(ValueError):
            Board.from_position(Rules(size=15), wrong)
    with pytest.raises(ValueError):
        Board.from_position(Rules(size=19), text)
