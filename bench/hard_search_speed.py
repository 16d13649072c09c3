"""Hard's alpha-beta, Python against compiled (issue 16): ``python bench/hard_search_speed.py``.

On the positions of ``../shared/cases/gomoku-puzzles.json``, alternating per position so a busy
machine slows both alike, with fresh tables for each search:

1. the Python :class:`bench.pybots.caro_bots.HardSearch` and the compiled
   :class:`bench.pybots.caro_bots.CompiledSearch` (:mod:`bench.pybots.nbsearch`), iterative deepening
   from depth 1 to ``--depth`` over Hard's 14 root candidates: nodes per second of each, in
   process CPU time (load-robust), and whether both ranked the same best move;
2. iterative deepening within ``--budget`` ms of CPU time each: the depth each completes.

Prints per-position lines, then the totals and the load average. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pybots import warm_up  # noqa: E402
from bench.pybots.caro_bots import CompiledSearch, HardSearch, _root  # noqa: E402
from bench.pybots.threats import Timeout  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from puzzles import load_puzzles, puzzle_board  # noqa: E402

clock = time.process_time


def _fresh(fb) -> None:
    fb.pat.search_tt.clear()
    fb.pat.nb_search.clear()


def to_depth(cls, board, depth: int) -> tuple[int, float, int]:
    """(nodes, CPU seconds, best cell) of iterative deepening 1..depth."""
    fb = _root(board)
    _fresh(fb)
    ab = cls(fb, time.perf_counter() + 10 ** 6)
    moves = ab.moves(fb.turn, 14)
    t0 = clock()
    ranked = [(0, q) for q in moves]
    for d in range(1, depth + 1):
        ranked = ab.root([q for _, q in ranked], d)
    return ab.nodes, clock() - t0, ranked[0][1]


def in_budget(cls, board, budget_s: float) -> int:
    """The deepest iteration completed within ``budget_s`` of CPU time."""
    fb = _root(board)
    _fresh(fb)
    real = time.perf_counter
    time.perf_counter = clock  # the searches read their deadline through time.perf_counter
    try:
        ab = cls(fb, clock() + budget_s)
        ranked = [(0, q) for q in ab.moves(fb.turn, 14)]
        done = 0
        for d in range(1, 30):
            try:
                ranked = ab.root([q for _, q in ranked], d)
            except Timeout:
                break
            done = d
        return done
    finally:
        time.perf_counter = real


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5, help="fixed depth of part 1")
    parser.add_argument("--budget", type=int, default=500, help="CPU ms per search of part 2")
    parser.add_argument("--every", type=int, default=2, help="use every n-th puzzle")
    args = parser.parse_args(argv)
    warm_up()
    puzzles = load_puzzles()[::args.every]
    totals = {HardSearch: [0, 0.0], CompiledSearch: [0, 0.0]}
    depths = {HardSearch: [], CompiledSearch: []}
    same = 0
    for p in puzzles:
        board = puzzle_board(p)
        best = {}
        for cls in (HardSearch, CompiledSearch):
            nodes, secs, best[cls] = to_depth(cls, board, args.depth)
            totals[cls][0] += nodes
            totals[cls][1] += secs
            depths[cls].append(in_budget(cls, board, args.budget / 1000))
        same += best[HardSearch] == best[CompiledSearch]
        print(f"  {p['id']}  depth {args.depth}: python {totals[HardSearch][0]:>9} nodes so far  "
              f"in {args.budget} ms: python depth {depths[HardSearch][-1]:>2}, compiled {depths[CompiledSearch][-1]:>2}",
              flush=True)
    print(f"\nHard's alpha-beta, {len(puzzles)} positions, depth 1..{args.depth}, fresh tables, CPU time:")
    for cls in (HardSearch, CompiledSearch):
        nodes, secs = totals[cls]
        print(f"  {cls.__name__:<15} {nodes:>10} nodes  {secs:7.2f} s  {nodes / secs:>10.0f} nodes/s")
    ratio = (totals[CompiledSearch][0] / totals[CompiledSearch][1]) / (totals[HardSearch][0] / totals[HardSearch][1])
    print(f"  compiled / python: {ratio:.1f}x nodes per second; same best move in {same}/{len(puzzles)}")
    for cls in (HardSearch, CompiledSearch):
        d = depths[cls]
        print(f"  {cls.__name__:<15} depth completed in {args.budget} ms CPU: mean {statistics.mean(d):.1f}, "
              f"median {statistics.median(d)}, min {min(d)}, max {max(d)}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
