"""Find caro positions with a shortest VCF of a given depth, for bench/pybots/tests/vcf_positions.json.

Random positions are searched with the bots' own VCF searcher (shortest depth by iterative
deepening); each hit is then checked on the engine against every defence
(:func:`bench.pybots.enginecheck.forced_vcf`), and not winnable with one four fewer. Prints JSON.

    python bench/bot_make_vcf.py --preset caro-vn --per-depth 2 > /tmp/vcf.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pybots.fastboard import FastBoard  # noqa: E402
from bench.pybots.threats import ThreatSearch  # noqa: E402
from bench.pybots.enginecheck import forced_vcf, winning_cells  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402


def propose(board: Board) -> str:
    """First move of the bots' own VCF from ``board`` (the side to move attacks)."""
    fb = FastBoard.from_engine(board)
    line = ThreatSearch(fb, time.perf_counter() + 2.0).vcf(12)
    if not line:
        return board.legal_moves()[0]
    return fb.name(line[0])


def selfplay_position(rules, rnd: random.Random) -> Board | None:
    """A position from a random Easy-vs-Medium game, a few plies before its end."""
    from bench.pybots import choose_move

    board = Board(rules)
    board.play("H8")
    levels = rnd.choice([("easy", "medium"), ("medium", "easy"), ("medium", "medium")])
    while board.outcome is None and board.ply < 120:
        board.play(choose_move(board, levels[board.ply % 2], budget_ms=200, rng=rnd))
    if board.outcome is None or board.ply < 14:
        return None
    back = rnd.randint(5, min(24, board.ply - 8))
    for _ in range(back):
        board.undo()
    return board


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="caro-vn")
    parser.add_argument("--per-depth", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--min-depth", type=int, default=3)
    parser.add_argument("--min-stones", type=int, default=8)
    parser.add_argument("--max-stones", type=int, default=16)
    parser.add_argument("--selfplay", action="store_true",
                        help="take positions from Easy-vs-Medium games instead of random stones")
    args = parser.parse_args()
    rules = PRESETS[args.preset].rules
    rnd = random.Random(args.seed)
    found: dict[int, list[dict]] = {d: [] for d in range(3, 12)}
    start = time.time()
    names = Board(rules).legal_moves()
    centre = [n for n in names if abs(ord(n[0]) - ord("H")) <= 5 and abs(int(n[1:]) - 8) <= 5]
    while time.time() - start < args.seconds and any(len(v) < args.per_depth for d, v in found.items() if d >= args.min_depth):
        if args.selfplay:
            board = selfplay_position(rules, rnd)
            if board is None:
                continue
            stones = board.stones()
            x = [k for k, v in stones.items() if v == "X"]
            o = [k for k, v in stones.items() if v == "O"]
            board = Board.from_stones(rules, x=x, o=o, to_move=board.turn)
        else:
            n_att = rnd.randint(args.min_stones, args.max_stones)
            n_def = n_att + rnd.randint(-2, 0)
            cells = rnd.sample(centre, n_att + n_def)
            x, o = cells[:n_att], cells[n_att:]
            board = Board.from_stones(rules, x=x, o=o, to_move="X")
        att, dfd = board.turn, "O" if board.turn == "X" else "X"
        if winning_cells(board, "X") or winning_cells(board, "O"):
            continue
        if any(board.winning_line(s) for s in x + o):
            continue
        fb = FastBoard.from_engine(board)
        if fb.four_moves(2) and False:
            continue
        shortest = None
        for depth in range(1, 12):
            line = ThreatSearch(fb, time.perf_counter() + 0.5).vcf(depth)
            if line is not None:
                shortest = (depth, [fb.name(q) if q is not None else None for q in line])
                break
        if shortest is None:
            continue
        depth, line = shortest
        if depth < args.min_depth or len(found[depth]) >= args.per_depth:
            continue
        leaves: list = []
        if not forced_vcf(board, depth, propose, leaves) or len(leaves) > 6:
            continue
        if forced_vcf(board, depth - 1, propose):
            continue
        found[depth].append({"preset": args.preset, "x": sorted(x), "o": sorted(o), "to_move": att,
                             "depth": depth, "line": line})
        print(f"depth {depth}: {len(found[depth])}", file=sys.stderr)
    print(json.dumps([p for d in sorted(found) for p in found[d]], indent=1))


if __name__ == "__main__":
    main()
