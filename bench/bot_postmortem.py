"""Post-mortem of a lost caro game: after each of the loser's moves, does the winner have a VCT?

    python bench/bot_postmortem.py --preset caro-vn --loser O H8 I9 I8 G8 ...

For every position after a move of ``--loser`` prints whether the other side (to move) has a
VCF / VCT found with a generous budget, and the nodes and seconds it took.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pybots.fastboard import FastBoard  # noqa: E402
from bench.pybots.threats import ThreatSearch  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--preset", default="caro-vn")
    p.add_argument("--loser", choices=["X", "O"], required=True)
    p.add_argument("--seconds", type=float, default=6.0)
    p.add_argument("--from-ply", type=int, default=4)
    p.add_argument("moves", nargs="+")
    a = p.parse_args(argv)
    board = Board(PRESETS[a.preset].rules)
    for k, m in enumerate(a.moves):
        board.play(m)
        if board.outcome is not None:
            break
        if k + 1 < a.from_ply or board.turn == a.loser:
            continue
        fb = FastBoard.from_engine(board)
        t0 = time.perf_counter()
        ts = ThreatSearch(fb, t0 + a.seconds, max_nodes=10**7)
        line = ts.vcf(14)
        kind = "VCF"
        if line is None:
            line = ts.vct(10, threes=4)
            kind = "VCT"
        dt = time.perf_counter() - t0
        desc = " ".join(fb.name(c) if c is not None else "*" for c in line) if line else ("timeout" if ts.timed_out else "-")
        print(f"ply {k + 1:>3} after {m:<4} {board.turn} to move: {kind if line else '   '} "
              f"{ts.nodes:>7} nodes {dt:5.2f}s  {desc}", flush=True)


if __name__ == "__main__":
    main()
