"""The pure parts of bench/balanced_openings.py (issue 28's verified balanced opening set): the
candidates (one a symmetry class, reproducible for a seed, the shapes asked), the selection by
Rapfi's evaluation alone, and the set as public_match.py and rapfi_second.py load it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import balanced_openings as bo  # noqa: E402
import public_match as pm  # noqa: E402
from caro.engine.coords import parse_square  # noqa: E402


def test_the_eight_images_of_a_position_are_one_class_and_move_order_does_not_matter():
    a = ("H8", "I9", "I8", "G8")
    images = [("H8", "G9", "G8", "I8"), ("H8", "I7", "I8", "G8"), ("H8", "G9", "H9", "H7"), ("H8", "I9", "H9", "H7")]  # mirrors, a turn, a transpose
    for b in images:
        assert bo.canonical(b) == bo.canonical(a)
    assert bo.canonical(("H8", "G8", "I8", "I9")) == bo.canonical(a)  # the same stones in another order
    assert bo.canonical(("H8", "I9", "G8", "I8")) != bo.canonical(a)  # colours swapped: another position


def test_candidates_are_reproducible_one_a_class_near_the_centre():
    first = bo.candidates(seed=5, count=60)
    assert first == bo.candidates(seed=5, count=60)
    assert first != bo.candidates(seed=6, count=60)
    assert len({bo.canonical(tuple(c["stones"])) for c in first}) == len(first)
    bench = [c for c in first if c["source"] == "bench"]
    assert bench and all(c["source"] == "bench" for c in first[: len(bench)])  # the old set leads
    randoms = [c for c in first if c["source"] == "random"]
    assert len(randoms) == 60
    for c in randoms:
        cells = [parse_square(s, 15) for s in c["stones"]]
        assert c["stones"][0] == "H8" and len(cells) in bo.STONE_COUNTS and len(set(cells)) == len(cells)
        assert all(max(abs(col - 7), abs(row - 7)) <= bo.BOX for col, row in cells)
        for k, (col, row) in enumerate(cells[1:], start=1):
            assert any(max(abs(col - pc), abs(row - pr)) <= bo.REACH for pc, pr in cells[:k])
    assert {len(c["stones"]) for c in randoms} == set(bo.STONE_COUNTS)
    pilot = [c for c in bo.candidates(seed=5, count=60, counts=bo.PILOT_COUNTS) if c["source"] == "random"]
    assert {len(c["stones"]) for c in pilot} == {3, 4, 5}


def test_side_to_move_alternates_from_x():
    assert bo.to_move(["H8", "I9", "I8", "G8"]) == "X"
    assert bo.to_move(["H8", "I9", "G9"]) == "O"


def _cand(stones, value, refined=True):
    judged = {"value": value, "eval": str(value)}
    return {"stones": stones, "source": "random", "to_move": bo.to_move(stones), "screen": judged,
            "refined": judged if refined else None}


def test_select_keeps_the_refined_within_the_band_most_even_first_and_never_a_mate():
    pool = [_cand(["H8", "A1", "B2"], 30), _cand(["H8", "C1", "B2"], -5), _cand(["H8", "D1", "B2"], 80),
            _cand(["H8", "E1", "B2"], 0, refined=False), _cand(["H8", "F1", "B2"], -30),
            _cand(["H8", "G1", "B2"], pm.MATE_VALUE - 9), _cand(["H8", "H1", "B2"], 12)]
    chosen = bo.select(pool, band=40, keep=10)
    assert [c["refined"]["value"] for c in chosen] == [-5, 12, 30, -30]
    assert [c["refined"]["value"] for c in bo.select(pool, band=40, keep=2)] == [-5, 12]
    assert bo.select(pool, band=4, keep=10) == []


def test_the_balanced_set_loads_in_its_order_and_refuses_another_rule(tmp_path):
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"preset": "freestyle", "openings": [
        {"stones": ["H8", "I9", "G9"], "to_move": "O", "eval": "3"},
        {"stones": ["H8", "J8", "I6", "G8"], "to_move": "X", "eval": "-8"}]}))
    assert bo.load_balanced("freestyle", path) == [("H8", "I9", "G9"), ("H8", "J8", "I6", "G8")]
    with pytest.raises(SystemExit):
        bo.load_balanced("exact-five", path)
    with pytest.raises(SystemExit):
        bo.load_balanced("freestyle", tmp_path / "missing.json")


@pytest.mark.parametrize("preset", ["freestyle", "exact-five"])
def test_the_committed_sets_are_distinct_even_and_playable(preset):
    from caro.engine.caro import PRESETS, Board

    data = json.loads(bo.set_path(preset).read_text())
    assert data["preset"] == preset and data["rapfi_commit"] and data["nodes"] >= 1_000_000
    openings = bo.load_balanced(preset)
    assert len(openings) >= 24
    assert len({bo.canonical(o) for o in openings}) == len(openings)
    values = [o["value"] for o in data["openings"]]
    assert all(abs(v) <= data["band"] for v in values) and values == sorted(values, key=abs)
    for o in data["openings"]:
        board = Board(PRESETS[preset].rules)
        for square in o["stones"]:
            board.play(square)
        assert board.outcome is None and board.turn == o["to_move"]


def test_public_match_picks_the_set_and_keeps_its_games_apart():
    assert pm.caro_openings("bench", "freestyle")[:2] == [("H8", "I9", "I8", "G8"), ("H8", "I8", "H9", "H7")]
    assert len(pm.caro_openings("bench", "exact-five")) == 32
    assert pm.caro_openings("balanced", "exact-five") == bo.load_balanced("exact-five")
    assert pm.rapfi_match_name("freestyle", 10000) == "rapfi-freestyle-n10000"  # the old files keep their names
    assert pm.rapfi_match_name("exact-five", 10000, 1000, "balanced") == "rapfi-exact-five-n10000-balanced"
    assert pm.rapfi_match_name("freestyle", 10000, 500, "balanced") == "rapfi-freestyle-n10000-t500-balanced"
