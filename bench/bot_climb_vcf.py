"""Grow caro positions with longer shortest VCFs by local search (for bench/pybots/tests/vcf_positions.json).

Start from random stones; mutate (add, remove or move one stone); keep the mutation when the
shortest VCF found by the bots' searcher is at least as long as before. Every new depth is
checked with the engine against every defence (:func:`bench.pybots.enginecheck.forced_vcf`) and
against one four fewer, then printed as a JSON line on stdout.

    python bench/bot_climb_vcf.py --preset caro-vn --seconds 300 --target 11
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pybots.enginecheck import forced_vcf, winning_cells  # noqa: E402
from bench.pybots.fastboard import FastBoard  # noqa: E402
from bench.pybots.threats import ThreatSearch  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402


def shortest(board: Board, cap: int) -> int | None:
    fb = FastBoard.from_engine(board)
    for depth in range(1, cap + 1):
        if ThreatSearch(fb, time.perf_counter() + 1.0).vcf(depth) is not None:
            return depth
    return None


def propose(board: Board) -> str:
    fb = FastBoard.from_engine(board)
    line = ThreatSearch(fb, time.perf_counter() + 2.0).vcf(14)
    return fb.name(line[0]) if line else board.legal_moves()[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="caro-vn")
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--target", type=int, default=11)
    parser.add_argument("--patience", type=int, default=300, help="mutations without progress before a restart")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", help="a JSON line (as printed) to climb from")
    args = parser.parse_args()
    rules = PRESETS[args.preset].rules
    rnd = random.Random(args.seed)
    size = rules.size
    area = [f"{chr(65 + c)}{r + 1}" for c in range(1, size - 1) for r in range(1, size - 1)]
    start = time.time()
    recorded: set[int] = set()
    while time.time() - start < args.seconds:
        if args.start:
            seed_pos = json.loads(args.start)
            x, o = set(seed_pos["x"]), set(seed_pos["o"])
        else:
            cells = rnd.sample(area, 24)
            x, o = set(cells[:13]), set(cells[13:])
        board = Board.from_stones(rules, x=x, o=o)
        if winning_cells(board, "X") or winning_cells(board, "O"):
            continue
        depth = shortest(board, args.target)
        if depth is None:
            continue
        stall = 0
        while stall < args.patience and time.time() - start < args.seconds:
            stall += 1
            nx, no = set(x), set(o)
            kind = rnd.random()
            free = [a for a in area if a not in nx and a not in no]
            if kind < 0.3:
                nx.add(rnd.choice(free))
            elif kind < 0.6:
                no.add(rnd.choice(free))
            elif kind < 0.8:
                pool = nx if rnd.random() < 0.5 else no
                if len(pool) > 4:
                    pool.discard(rnd.choice(sorted(pool)))
            else:
                pool = nx if rnd.random() < 0.5 else no
                pool.discard(rnd.choice(sorted(pool)))
                pool.add(rnd.choice(free))
            if abs(len(nx) - len(no)) > 2:
                continue
            trial = Board.from_stones(rules, x=nx, o=no)
            if any(trial.winning_line(s) for s in trial.stones()):
                continue
            if winning_cells(trial, "X") or winning_cells(trial, "O"):
                continue
            d = shortest(trial, args.target)
            if d is None or d < depth:
                continue
            if d > depth:
                stall = 0
            x, o, depth = nx, no, d
            if depth >= 3 and depth not in recorded:
                leaves: list = []
                if forced_vcf(trial, depth, propose, leaves) and len(leaves) <= 8 \
                        and not forced_vcf(trial, depth - 1, propose):
                    recorded.add(depth)
                    print(json.dumps({"preset": args.preset, "x": sorted(x), "o": sorted(o), "to_move": "X",
                                      "depth": depth}), flush=True)
                    print(f"depth {depth} after {time.time() - start:.0f}s", file=sys.stderr, flush=True)
            if depth >= args.target:
                break
        if args.target in recorded:
            break


if __name__ == "__main__":
    main()
