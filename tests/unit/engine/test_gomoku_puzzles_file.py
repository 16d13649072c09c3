"""The bot puzzles (`shared/cases/gomoku-puzzles.json`, issue 16) read in our engine's terms: every
position replays legally under its rule (freestyle or exact five), nobody has won yet, the side to
move is the file's, and every listed answer is an empty square on the board. The bots' scores on
these puzzles are measured by a benchmark, never asserted here."""

from __future__ import annotations

import pytest

from caro.engine.caro import Board, Rules

ANSWER_KEYS = ("winning", "holding", "losing", "checked")


def _puzzles(shared_cases) -> list[dict]:
    return [entry for entry in shared_cases("gomoku-puzzles.json") if "id" in entry]


def test_the_file_has_38_wins_and_34_defences(shared_cases):
    kinds = [puzzle["kind"] for puzzle in _puzzles(shared_cases)]
    assert (kinds.count("win"), kinds.count("defend"), len(kinds)) == (38, 34, 72)


def test_every_position_replays_and_every_answer_is_an_empty_square(shared_cases):
    for puzzle in _puzzles(shared_cases):
        assert puzzle["rule"] in ("freestyle", "exact"), puzzle["id"]
        board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
        for square in puzzle["moves"]:
            assert board.play(square) is None, puzzle["id"]  # the game is still on
        assert board.turn == puzzle["to_move"], puzzle["id"]
        answers = [square for key in ANSWER_KEYS for square in puzzle.get(key, [])]
        assert answers, puzzle["id"]
        for square in answers:
            assert board.stone_at(square) is None, (puzzle["id"], square)
        assert puzzle["winning" if puzzle["kind"] == "win" else "holding"], puzzle["id"]


@pytest.mark.parametrize("kind", ["win", "defend"])
def test_a_listed_first_move_is_legal_on_the_board(shared_cases, kind):
    for puzzle in (p for p in _puzzles(shared_cases) if p["kind"] == kind):
        board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
        for square in puzzle["moves"]:
            board.play(square)
        first = puzzle["winning" if kind == "win" else "holding"][0]
        outcome = board.play(first, puzzle["to_move"])
        if kind == "win" and puzzle.get("mate_plies") == 1:
            assert outcome is not None and outcome.winner == puzzle["to_move"], puzzle["id"]
