"""How Hard chooses among replies its threat searches find safe (issue 16): a VCT with open threes
anywhere catches a win the search near the last moves misses, and the number of threat moves the
opponent keeps (`CaroHard.threat_moves`) ranks the judged-holding replies first. Checked on the shared
puzzle file's judged defences. Unshared tables and node caps only: the same answers on any machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.pybots.caro_bots import WIN, CaroHard, fewest_threats
from bench.pybots.fastboard import FastBoard
from bench.pybots.threats import ThreatSearch
from caro.engine.caro import Board, Rules

ROOT = Path(__file__).resolve().parents[3]
PUZZLES = ROOT / ".." / "shared" / "cases" / "gomoku-puzzles.json"


def _puzzle(pid: str) -> dict:
    return next(p for p in json.loads(PUZZLES.read_text(encoding="utf-8")) if p.get("id") == pid)


def _after(pid: str, defence: str) -> FastBoard:
    """The search board of puzzle ``pid`` after the defender's ``defence`` (the attacker to move)."""
    puzzle = _puzzle(pid)
    assert defence in puzzle["checked"]
    board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
    for square in puzzle["moves"] + [defence]:
        board.play(square)
    return FastBoard.from_engine(board)


def _vct(fb: FastBoard, zone: bool) -> list[int] | None:
    ts = ThreatSearch(fb, float("inf"), max_nodes=1_000_000, shared=False, zone=zone)
    return ts.vcf(depth=CaroHard.vcf_depth) or ts.vct(depth=CaroHard.opp_vct_depth)


@pytest.mark.parametrize("defence", ["F10", "H10", "H7"])
def test_a_vct_with_threes_anywhere_finds_the_win_after_a_judged_losing_defence(defence):
    # gmk-s045 (freestyle): after these judged-losing replies the attacker's win starts with a
    # three far from its last two moves, so the search near them finds nothing
    assert defence in _puzzle("gmk-s045")["losing"]
    fb = _after("gmk-s045", defence)
    assert _vct(fb, zone=True) is None
    line = _vct(fb, zone=False)
    assert line is not None
    assert fb.cells[line[0]] == 0 and fb.legal(line[0], fb.turn)


@pytest.mark.parametrize("defence", ["E12", "F11"])
def test_after_a_judged_holding_defence_no_vct_is_found_even_with_threes_anywhere(defence):
    assert defence in _puzzle("gmk-s045")["holding"]
    assert _vct(_after("gmk-s045", defence), zone=False) is None


@pytest.mark.parametrize("pid, holding, losing", [
    ("gmk-s045", ["E12", "F11"], ["I7", "J10"]),  # freestyle
    ("gmk-s026", ["E9"], ["J6", "K7", "J9"]),  # exact five
])
def test_the_judged_holding_defence_leaves_the_opponent_the_fewest_threat_moves(pid, holding, losing):
    puzzle = _puzzle(pid)
    assert set(holding) <= set(puzzle["holding"]) and set(losing) <= set(puzzle["losing"])
    hard = CaroHard()
    # fresh tables here, so each search gets more nodes than in play, where the tables the
    # move's other searches filled carry it further (5,000 nodes there)
    hard.count_nodes = 20_000
    counts = {move: hard.threat_moves(_after(pid, move), float("inf"), shared=False) for move in holding + losing}
    assert max(counts[m] for m in holding) < min(counts[m] for m in losing), counts
    for move in losing:  # no VCT after any of them, even with threes anywhere
        assert _vct(_after(pid, move), zone=False) is None


def test_the_threat_count_outweighs_a_small_lead_of_the_alpha_beta():
    # gmk-s045 as Hard saw it at 1 s (scores of its alpha-beta, counts of its threat_moves):
    # the judged-losing I7 leads by 87 units but leaves 2 more threat moves than E12
    e12, f11, i7, j10 = 1, 2, 3, 4
    ranked = [(1441, i7), (1404, j10), (1354, e12), (1134, f11)]
    assert fewest_threats(ranked, {i7: 10, j10: 16, e12: 8, f11: 9}, CaroHard.threat_move_penalty) == e12
    # equal after the penalty: the alpha-beta's order decides
    assert fewest_threats([(700, i7), (600, e12)], {i7: 8, e12: 7}, 100) == i7


def test_a_won_or_lost_score_or_a_missing_count_leaves_the_alpha_beta_choice():
    a, b = 1, 2
    assert fewest_threats([(WIN - 5, a), (100, b)], {a: 20, b: 0}, 100) == a
    assert fewest_threats([(-(WIN - 5), a), (-(WIN - 7), b)], {a: 20, b: 0}, 100) == a
    assert fewest_threats([(10, a), (0, b)], {b: 0}, 100) == a  # a's count ran out of time
    assert fewest_threats([(10, a), (0, b)], {}, 100) == a


@pytest.mark.parametrize("preset, counts", [
    ("freestyle", True), ("exact-five", True), ("caro-vn", False), ("caro-edge-open", False), ("renju", False),
])
def test_the_threat_count_is_used_where_it_was_measured_to_help(preset, counts):
    from caro.engine.caro import PRESETS
    assert CaroHard.counts_threats(PRESETS[preset].rules) is counts
