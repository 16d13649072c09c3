"""Reversi Hard speed: nodes per second, time to a fixed depth, endgame solves and move times,
new Hard (``hard``) against the frozen Hard of before issue 16 (``hard_v1``).

Usage (from the repository root)::

    python bench/reversi_speed.py --positions 24 --depth 5 --budget 1000 --procs 1
    python bench/reversi_speed.py --moves-only --procs 2     # two bots thinking at once

Positions come from seeded random games (``--seed``) at spread game stages (8-44 discs played
for the midgame; 12, 16 and 18 empties for the endgame). Prints, per level (``hard`` is the
compiled search the bot uses, ``hard-py`` the same algorithms in pure Python): move generation
speed (legal moves + every flip, per position; the compiled move generator is not timed here),
a fixed-depth midgame search (nodes, nodes per second, total time: the time shows what move
ordering saves; the compiled one also 4 plies deeper, where its nodes per second show), exact
solves (the pure-Python solvers only at 12 empties), and the move time of
``choose_move(board, level, budget_ms)`` (mean, p50, p95, max in ms) with ``--procs`` processes
choosing at the same time. Prints the load average. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pybots import choose_move  # noqa: E402
from bench.pybots import reversi_hard_v1 as v1  # noqa: E402
from bench.pybots import reversi_nb as nb  # noqa: E402
from bench.pybots import reversi_search as rs  # noqa: E402
from caro.engine import reversi  # noqa: E402


def random_board(rng: random.Random, plies: int) -> reversi.Board | None:
    """A board after ``plies`` random legal moves with the side to move able to move (or None)."""
    board = reversi.Board()
    for _ in range(plies):
        legal = board.legal_moves()
        if not legal:
            return None
        board.play(rng.choice(legal))
    return board if board.outcome is None and board.legal_moves() else None


def positions(seed: int, count: int, low: int, high: int) -> list[reversi.Board]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = random_board(rng, low + len(out) * (high - low) // max(count - 1, 1))
        if board is not None:
            out.append(board)
    return out


def me_opp(board: reversi.Board) -> tuple[int, int]:
    return v1._state(board)


def percentile(sorted_samples: list[float], q: float) -> float:
    return sorted_samples[min(len(sorted_samples) - 1, int(math.ceil(q * len(sorted_samples))) - 1)]


def movegen(boards, repeat=200):
    for label, legal, flip in (("hard_v1", reversi.legal_bits, v1.flips), ("hard", rs.moves, rs.flips)):
        states = [me_opp(b) for b in boards]
        t0 = time.perf_counter()
        for _ in range(repeat):
            for me, opp in states:
                m = legal(me, opp)
                while m:
                    bit = m & -m
                    m ^= bit
                    flip(me, opp, bit.bit_length() - 1)
        per = (time.perf_counter() - t0) / repeat / len(states)
        print(f"  movegen {label:<8} {per * 1e6:8.1f} us per position (legal moves + all flips)")


def midgame(boards, depth, labels=("hard_v1", "hard-py", "hard")):
    ctx = nb.Context()  # made once, as a worker process does (allocating it costs more than a small search)
    for label in labels:
        nodes = 0
        t0 = time.perf_counter()
        for board in boards:
            me, opp = me_opp(board)
            if label == "hard":  # the compiled search the bot uses
                ctx.reset(float("inf"), None)
                first = -1
                for d in range(1, depth + 1):
                    first = nb.root(nb.U(me), nb.U(opp), d, first, ctx.st, ctx.tm, rs._W_ARRAY, ctx.tk, ctx.tv,
                                    ctx.hist, ctx.killers, ctx.buf, ctx.bb)
                nodes += int(ctx.st[0])
                continue
            if label == "hard_v1":
                search = v1._Search(float("inf"), v1.hard_eval)
                for d in range(1, depth + 1):  # iterative deepening, as the bot does
                    first = search.root(me, opp, d)[1] if d == 1 else search.root(me, opp, d, first)[1]
            else:
                search = rs.Search(float("inf"))
                first = -1
                for d in range(1, depth + 1):
                    first = search.root(me, opp, d, first)[1]
            nodes += search.nodes
        dt = time.perf_counter() - t0
        print(f"  depth {depth} {label:<8} {nodes:>9} nodes  {nodes / dt:>8.0f} nodes/s  {dt:6.2f} s "
              f"({1000 * dt / len(boards):.0f} ms per position)")


def endgame(boards, empties):
    ctx = nb.Context()
    for label, cls in (("hard_v1", v1.Endgame), ("hard-py", rs.Endgame), ("hard", None)):
        if cls is not None and empties > 12:
            continue  # the pure-Python solvers take minutes from 14 empties
        nodes = 0
        t0 = time.perf_counter()
        for board in boards:
            if cls is None:  # the compiled solver the bot uses
                ctx.reset(float("inf"), None)
                me, opp = me_opp(board)
                nb.solve_root(nb.U(me), nb.U(opp), -1, -65, 65, ctx.st, ctx.tm, ctx.ek, ctx.ev, ctx.bb, ctx.buf)
                nodes += int(ctx.st[0])
                continue
            solver = cls(float("inf"))
            solver.root(*me_opp(board))
            nodes += solver.nodes
        dt = time.perf_counter() - t0
        print(f"  exact {label:<8} {nodes:>9} nodes  {nodes / dt:>8.0f} nodes/s  {dt:6.2f} s "
              f"({1000 * dt / len(boards):.0f} ms per {empties}-empty solve)")


def _move_times(job):
    level, seed, count, budget = job
    boards = positions(seed, count, 6, 52)
    out = []
    for board in boards:
        t0 = time.perf_counter()
        choose_move(board, level, budget_ms=budget)
        out.append(time.perf_counter() - t0)
    return out


def move_times(level, seed, count, budget, procs):
    with multiprocessing.Pool(procs) as pool:
        results = pool.map(_move_times, [(level, seed + k, count, budget) for k in range(procs)])
    samples = sorted(s for r in results for s in r)
    print(f"  moves {level:<8} {len(samples):>4} moves, {procs} at once, budget {budget} ms: "
          f"mean {1000 * statistics.fmean(samples):.0f}  p50 {1000 * percentile(samples, 0.5):.0f}  "
          f"p95 {1000 * percentile(samples, 0.95):.0f}  max {1000 * samples[-1]:.0f} ms")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--depth", type=int, default=5, help="fixed midgame depth (plies)")
    parser.add_argument("--budget", type=int, default=1000, help="per-move budget in ms")
    parser.add_argument("--procs", type=int, default=1, help="processes choosing moves at the same time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves-only", action="store_true", help="only the move-time part")
    args = parser.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    if not args.moves_only:
        mid = positions(args.seed, args.positions, 8, 44)
        movegen(mid)
        midgame(mid, args.depth)
        midgame(mid, args.depth + 4, ("hard",))  # the compiled search's usual depth at 1 s
        for empties in (12, 16, 18):
            endgame(positions(args.seed, max(args.positions // 3, 4), 60 - empties, 60 - empties), empties)
    for level in ("hard_v1", "hard"):
        move_times(level, args.seed, args.positions, args.budget, args.procs)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
