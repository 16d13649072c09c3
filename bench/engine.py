"""Rules-engine benchmark: run ``python bench/engine.py`` from the repository root.

Prints µs per caro move (Board.play with its win check, random games on 15x15 under the
default rules), µs per Renju foul check on every empty point of the 13 shared positions
(p50/p99/max; target p99 <= 1 ms), and the Reversi perft(8) time (target <= 5 s).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caro.engine import reversi  # noqa: E402
from caro.engine.caro import Board, Rules, geometry  # noqa: E402

CASES = ROOT / ".." / "shared" / "cases"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_caro_moves(games: int = 200) -> None:
    rng = random.Random(1)
    names = geometry(15).names
    total_moves, total_time = 0, 0.0
    for _ in range(games):
        board = Board(Rules())
        order = list(names)
        rng.shuffle(order)
        start = time.perf_counter()
        for square in order:
            if board.play(square) is not None:
                break
        total_time += time.perf_counter() - start
        total_moves += board.ply
    print(f"caro move (play + win check, 15x15 caro-vn): {total_time / total_moves * 1e6:.1f} µs/move "
          f"over {total_moves} moves in {games} random games")


def bench_renju_fouls(rounds: int = 5) -> None:
    cases = json.loads((CASES / "renju-fouls.json").read_text(encoding="utf-8"))["cases"]
    rules = Rules(renju=True, blocked="none")
    samples = []
    for case in cases:
        board = Board.from_stones(rules, x=case["black"], o=case["white"])
        empties = [s for s in geometry(15).names if board.stone_at(s) is None]
        for _ in range(rounds):
            for square in empties:
                start = time.perf_counter_ns()
                board.foul(square)
                samples.append((time.perf_counter_ns() - start) / 1000)
    print(f"renju foul check ({len(samples)} checks, 13 positions x every empty point x {rounds}): "
          f"p50 {percentile(samples, 0.5):.1f} µs, p99 {percentile(samples, 0.99):.1f} µs, "
          f"max {max(samples):.1f} µs, mean {statistics.fmean(samples):.1f} µs")


def bench_perft(depth: int = 8) -> None:
    start = time.perf_counter()
    nodes = reversi.perft(reversi.Board(), depth)
    elapsed = time.perf_counter() - start
    print(f"reversi perft({depth}) = {nodes} in {elapsed:.2f} s ({nodes / elapsed / 1000:.0f} k leaves/s)")


if __name__ == "__main__":
    print(f"Python {sys.version.split()[0]}")
    bench_caro_moves()
    bench_renju_fouls()
    bench_perft()
