"""The puzzle benchmark's full-width check (`bench/fullwidth.py`): it proves the forced wins the
puzzle file lists, proves a win the judge left out of its list (gmk-s059 H6: a four, the forced
block, then the judge's own attack one move later), and proves nothing for a move the judge found
not winning. Node caps only (no time cap), so the answers do not depend on the machine's load."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from caro.engine.caro import Board, Rules

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from fullwidth import FullWidthCheck  # noqa: E402

PUZZLES = ROOT / ".." / "shared" / "cases" / "gomoku-puzzles.json"


def _puzzle(pid):
    return next(p for p in json.loads(PUZZLES.read_text(encoding="utf-8")) if p.get("id") == pid)


def _board(puzzle) -> Board:
    board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
    for square in puzzle["moves"]:
        board.play(square)
    return board


def test_every_listed_winning_move_of_a_five_ply_puzzle_is_proven():
    puzzle = _puzzle("gmk-s003")
    assert puzzle["mate_plies"] == 5
    for move in puzzle["winning"]:
        assert FullWidthCheck().proves(_board(puzzle), move, seconds=None) is True, move


def test_a_win_outside_the_judges_list_is_proven():
    puzzle = _puzzle("gmk-s059")  # exact five; the judge lists J4 only
    assert "H6" in puzzle["checked"] and "H6" not in puzzle["winning"]
    assert FullWidthCheck().proves(_board(puzzle), "H6", seconds=None) is True


@pytest.mark.parametrize("move", ["J7", "K7", "G5"])
def test_a_move_the_judge_found_not_winning_is_not_proven(move):
    puzzle = _puzzle("gmk-s059")
    assert move in puzzle["checked"] and move not in puzzle["winning"]
    assert FullWidthCheck().proves(_board(puzzle), move, seconds=None) is None


@pytest.mark.parametrize("rules", [Rules(size=15), Rules(size=15, blocked="none", renju=True)])
def test_blocked_ends_and_renju_are_refused(rules):
    with pytest.raises(ValueError):
        FullWidthCheck().proves(Board(rules), "H8")
