"""The caro Hard of before issue 16 (``hard_v1``) stays frozen: it imports no live bot module
(so work on the live levels cannot change the measuring stick of bench/match.py) and still plays."""

import ast
from pathlib import Path

from bench.pybots import BENCH_LEVELS, LEVELS, get_bot
from caro.engine.caro import Board, Rules

FROZEN = {"hard_v1.py": {"fastboard_v1"}, "fastboard_v1.py": set()}


def test_old_hard_imports_only_frozen_bot_code():
    root = Path(__file__).resolve().parents[1]  # bench/pybots
    for name, allowed in FROZEN.items():
        tree = ast.parse((root / name).read_text())
        relative = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                relative.add(node.module)
            if isinstance(node, ast.ImportFrom) and not node.level:
                assert not (node.module or "").startswith("bench.pybots"), (name, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("bench.pybots") for a in node.names), name
        assert relative <= allowed, (name, relative)


def test_old_hard_is_a_benchmark_level_that_plays_and_blocks():
    assert "hard_v1" in BENCH_LEVELS and "hard_v1" not in LEVELS
    bot = get_bot("caro", "hard_v1")
    # O (to move) must block X's four H4-H7 at H3 or H8
    board = Board.from_stones(Rules(), x=["H4", "H5", "H6", "H7"], o=["A1", "A2", "A3"], to_move="O")
    assert bot.choose(board, budget_ms=200, rng=1) in {"H3", "H8"}
