"""Hard's quiet winning move (`ThreatSearch.quiet_win`, issue 16): one level above VCT, a move
that is neither a four nor an open three after which the player threatens a threat sequence that
the opponent's likely replies (the line's cells, its fours, each blocked, then another reply, and
its open threes) do not stop. Checked on the shared puzzle file (a judged win that starts with a
quiet move; judged-losing defences after which the opponent has one; judged-holding defences
after which it has none), and a quiet win found is proven by the benchmark's full-width check
(every reply on the board). Unshared tables and node caps only: the same answers on any machine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench.pybots.fastboard import FastBoard
from bench.pybots.threats import ThreatSearch
from caro.engine.caro import Board, Rules

ROOT = Path(__file__).resolve().parents[3]
PUZZLES = ROOT / ".." / "shared" / "cases" / "gomoku-puzzles.json"


def _board(pid: str, then: tuple[str, ...] = ()) -> Board:
    puzzle = next(p for p in json.loads(PUZZLES.read_text(encoding="utf-8")) if p.get("id") == pid)
    board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
    for square in puzzle["moves"] + list(then):
        board.play(square)
    return board


def _quiet_win(board: Board) -> str | None:
    fb = FastBoard.from_engine(board)
    move = ThreatSearch(fb, float("inf"), shared=False, compiled=True).quiet_win()
    return None if move is None else fb.name(move)


def test_the_judged_quiet_win_is_found():
    board = _board("gmk-s027")  # freestyle, X to move; the judge's one winning move is H11, a quiet one
    fb = FastBoard.from_engine(board)
    h11 = fb.index("H11")
    assert h11 not in fb.four_moves(fb.turn) and h11 not in fb.three_moves(fb.turn)
    assert _quiet_win(board) == "H11"


@pytest.mark.parametrize("pid, defence, winner", [
    ("gmk-s020", "K10", "H7"),  # exact five: judged losing
    ("gmk-s056", "F10", "J9"),  # freestyle: judged losing
])
def test_after_a_judged_losing_defence_the_opponent_has_a_quiet_win(pid, defence, winner):
    assert _quiet_win(_board(pid, (defence,))) == winner


@pytest.mark.parametrize("pid, defence", [("gmk-s020", "I6"), ("gmk-s056", "G6"), ("gmk-s026", "E9")])
def test_after_a_judged_holding_defence_the_opponent_has_none(pid, defence):
    assert _quiet_win(_board(pid, (defence,))) is None


def test_a_quiet_win_found_is_proven_against_every_reply():
    sys.path.insert(0, str(ROOT / "bench"))
    from fullwidth import FullWidthCheck

    board = _board("gmk-s059")  # exact five; outside the judge's list (it checked no quiet move but its own)
    move = _quiet_win(board)
    assert move == "H7"
    assert FullWidthCheck().proves(board, move, seconds=None) is True
