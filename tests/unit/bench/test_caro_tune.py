"""The pure parts of bench/caro_tune_js.py (issue 28's evaluation fit): a labelled position's line,
as bench/js/caro_tune.mjs reads it, and the cells near the stones the random moves come from."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))

import caro_tune_js as tune  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402


def test_a_position_line_is_one_json_object_the_fit_reads():
    line = tune.position_line("exact-five", ("H8", "I9"), -120, 0.0)
    assert line.endswith("\n") and line.count("\n") == 1
    assert json.loads(line) == {"preset": "exact-five", "moves": ["H8", "I9"], "eval": -120, "result": 0.0}


def test_near_cells_are_the_empty_cells_within_the_radius_of_a_stone():
    board = Board(PRESETS["freestyle"].rules)
    board.play("A1")  # a corner: only 3 cells within 1
    assert tune.near_cells(board, 1) == ["A2", "B1", "B2"]
    board.play("H8")
    near = tune.near_cells(board, 2)
    assert len(near) == 8 + 24  # 3x3 less A1 around the corner, 5x5 less H8 around the centre
    assert "H8" not in near and "A1" not in near and "J10" in near and "K8" not in near
