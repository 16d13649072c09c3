"""Search speed before and after the compiled board (issue 16): ``python bench/search_speed.py``.

The same searches (the current VCF/VCT of :mod:`bench.pybots.threats`, and the alpha-beta of
:mod:`bench.pybots.caro_bots` at 3 plies, width 10) run on the positions of
``../shared/cases/gomoku-puzzles.json`` twice per round: once on the frozen pure-Python board
(:mod:`bench.pybots.fastboard_v1`, "before") and once on the compiled one
(:mod:`bench.pybots.fastboard`, "after"), alternating, so a busy machine slows both alike. Both
boards compute the same classes, so both searches visit the same nodes; the bench checks that
and prints nodes per second for each, their ratio, and the load average. The first round only
warms the pattern tables (and loads or compiles the numba functions) and is not counted.
The threat search (it reads the compiled board's state) is timed in Python and compiled
(:mod:`bench.pybots.nbthreats`, df-pn VCF and VCT) on the same positions and budgets. Not part of
the test suite.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pybots import fastboard, fastboard_v1, nbthreats, threats  # noqa: E402
from bench.pybots.caro_bots import AlphaBeta  # noqa: E402
from bench.pybots.threats import ThreatSearch, Timeout  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from puzzles import load_puzzles, puzzle_board  # noqa: E402


def vct(fb, compiled: bool = False) -> int:
    # shared tables, as Hard searches (the Python ones and the compiled one are cleared per round)
    ts = ThreatSearch(fb, time.perf_counter() + 1000, max_nodes=3000, shared=True, compiled=compiled)
    ts.vcf(depth=16)
    ts.vct(depth=10)
    return ts.nodes


def vct_compiled(fb) -> int:
    return vct(fb, compiled=True)


def alphabeta(fb) -> int:
    ab = AlphaBeta(fb, time.perf_counter() + 1000, width=10)
    try:
        ab.root(ab.moves(fb.turn, 10), 3)
    except Timeout:
        pass
    return ab.nodes


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="counted rounds (after one warm-up round)")
    args = parser.parse_args(argv)
    boards = [puzzle_board(p) for p in load_puzzles()]
    # (board class, search) per label: the alpha-beta on the pure-Python board and on the
    # compiled one; the threat search (which needs the compiled board's state) in Python and
    # compiled (bench.pybots.nbthreats; its VCF is a df-pn, so its node count differs)
    kinds = {
        "alpha-beta": {"before (pure Python)": (fastboard_v1.FastBoard, alphabeta),
                       "after (compiled)": (fastboard.FastBoard, alphabeta)},
        "VCF+VCT": {"before (Python search)": (fastboard.FastBoard, vct),
                    "after (compiled search)": (fastboard.FastBoard, vct_compiled)},
    }
    totals = {(label, name): [0, 0.0] for name in kinds for label in kinds[name]}
    for rnd in range(args.rounds + 1):
        for name, runs in kinds.items():
            counts = {}
            for label, (cls, run) in runs.items():
                for mod in (fastboard, fastboard_v1):
                    for pat in mod._PATTERNS.values():
                        pat.fail_cache.clear()
                        pat.win_cache.clear()
                        pat.def_cache.clear()
                threats._DFPN_TABLES.clear()
                for table in threats._NB_TABLES.values():
                    nbthreats.clear_table(table)
                nodes, start = 0, time.perf_counter()
                for board in boards:
                    nodes += run(cls.from_engine(board))
                elapsed = time.perf_counter() - start
                counts[label] = nodes
                if rnd:
                    totals[(label, name)][0] += nodes
                    totals[(label, name)][1] += elapsed
            if name == "alpha-beta" and len(set(counts.values())) != 1:
                print(f"warning: {name} visited different node counts: {counts}")
    print(f"{len(boards)} puzzle positions, {args.rounds} rounds, Python {sys.version.split()[0]}")
    for name, runs in kinds.items():
        rates = {}
        for label in runs:
            nodes, secs = totals[(label, name)]
            rates[label] = nodes / secs
            print(f"  {name:11s} {label:24s} {nodes:8d} nodes in {secs:6.2f} s = {rates[label]:8.0f} nodes/s")
        before, after = rates.values()
        print(f"  {name:11s} speed-up x{after / before:.2f}")
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
