"""Reversi Hard's search in JavaScript (static/js/computer/reversi/) beside the compiled Python one
(bench/pybots/reversi_nb.py) in one run: nodes per second, time to a fixed depth and exact solves by
empty squares, in CPU time, on the same positions; and the JavaScript move generation on two
bitboard representations (two 32-bit halves, which the computer uses, and one BigInt); and how often
the two Hards choose the same move under the same node limit (the same algorithm must give the same
move but for the tables' hashing).

Usage (from the repository root)::

    python bench/reversi_js_speed.py                       # 24 midgame positions to depth 9, solves at 12-20 empties
    python bench/reversi_js_speed.py --depth 10 --solves 6 --empties 14,16,18,20
    python bench/reversi_js_speed.py --choices 200 --choice-nodes 50000   # more move choices compared

Positions come from seeded random games (``--seed``): midgame ones at 8-44 discs played, endgame
ones at the given empties (the side to move has a move). Both sides search each position with fresh
tables (as a move does): an iterative-deepening negascout to ``--depth`` and an exact solve (window
-64..64). The node counts differ a little (the tables hash differently); the values must agree (the
bench says so when they do not). Times are CPU ms of the process that searched; each side makes
``--rounds`` passes over the midgame and the solve positions (after a warm-up) and prints its fastest
pass, so a burst of load on the machine counts less. Prints the load average. Not part of the test
suite.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.reversi_speed import positions  # noqa: E402
from bench.pybots import reversi_nb as nb  # noqa: E402
from bench.pybots import reversi_search as rs  # noqa: E402
from bench.pybots.reversi_bots import _state  # noqa: E402
from caro.engine.reversi import NAMES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE_SIDE = os.path.join(ROOT, "bench", "reversi_js_speed.mjs")


def python_midgame(states, depth):
    ctx = nb.Context()
    out = []
    for me, opp in states:
        t0 = time.process_time()
        ctx.reset(float("inf"), None)
        first = -1
        for d in range(1, depth + 1):
            first = nb.root(nb.U(me), nb.U(opp), d, first, ctx.st, ctx.tm, rs._W_ARRAY, ctx.tk, ctx.tv,
                            ctx.hist, ctx.killers, ctx.buf, ctx.bb)
        out.append({"nodes": int(ctx.st[0]), "ms": 1000 * (time.process_time() - t0), "move": int(first),
                    "value": int(ctx.st[4])})
    return out


def python_solves(by_empties):
    ctx = nb.Context()
    result = {}
    for empties, states in by_empties.items():
        rows = []
        for me, opp in states:
            t0 = time.process_time()
            ctx.reset(float("inf"), None)
            value, _ = nb.solve_root(nb.U(me), nb.U(opp), -1, -65, 65, ctx.st, ctx.tm, ctx.ek, ctx.ev, ctx.bb, ctx.buf)
            rows.append({"value": int(value), "nodes": int(ctx.st[0]), "ms": 1000 * (time.process_time() - t0)})
        result[empties] = rows
    return result


def fastest(runs):
    """Of several passes over the same positions (lists of rows), the one with the least CPU time."""
    return min(runs, key=lambda rows: sum(r["ms"] for r in rows))


def line(label, rows):
    nodes = sum(r["nodes"] for r in rows)
    ms = sum(r["ms"] for r in rows)
    per = [r["ms"] for r in rows]
    return (f"  {label:<10} {nodes:>11,} nodes  {nodes / ms:>8.0f} k nodes/s  mean {statistics.fmean(per):8.1f} ms"
            f"  max {max(per):8.1f} ms")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24, help="midgame positions")
    parser.add_argument("--depth", type=int, default=9, help="midgame search depth (plies)")
    parser.add_argument("--solves", type=int, default=6, help="endgame positions per number of empties")
    parser.add_argument("--empties", default="12,14,16,18,20", help="empty squares of the solved positions")
    parser.add_argument("--choices", type=int, default=60, help="positions whose Hard move both sides choose")
    parser.add_argument("--choice-nodes", type=int, default=30000, help="node limit per search of those choices")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3,
                        help="passes over the midgame and solve positions, both sides; each prints its fastest")
    args = parser.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    mid = [_state(b) for b in positions(args.seed, args.positions, 8, 44)]
    ends = {int(e): [_state(b) for b in positions(args.seed + int(e), args.solves, 60 - int(e), 60 - int(e))]
            for e in args.empties.split(",")}
    picks = [_state(b) for b in positions(args.seed + 100, args.choices, 4, 50)]
    job = {"positions": [[f"{me:x}", f"{opp:x}"] for me, opp in mid], "depth": args.depth,
           "solves": {str(e): [[f"{me:x}", f"{opp:x}"] for me, opp in s] for e, s in ends.items()},
           "choices": [[f"{me:x}", f"{opp:x}", args.choice_nodes] for me, opp in picks], "rounds": args.rounds}
    node = subprocess.run(["node", NODE_SIDE], input=json.dumps(job), capture_output=True, text=True, check=True)
    js = json.loads(node.stdout)
    nb.warm_up()
    py_mid = python_midgame(mid[:4], min(args.depth, 6))  # warm, as the Node side does
    py_mid = fastest([python_midgame(mid, args.depth) for _ in range(args.rounds)])
    py_runs = [python_solves(ends) for _ in range(args.rounds)]
    py_end = {e: fastest([run[e] for run in py_runs]) for e in ends}
    py_picks = []
    for me, opp in picks:
        info = {}
        py_picks.append((rs.choose(me, opp, 10**9, max_nodes=args.choice_nodes, info=info), info))

    gen = js["movegen"]
    print(f"\nJavaScript move generation (legal moves + every flip, per position): two 32-bit halves "
          f"{gen['halvesUs']:.2f} us, one BigInt {gen['bigUs']:.2f} us ({gen['bigUs'] / gen['halvesUs']:.0f}x slower)")
    print(f"\nMidgame: {len(mid)} positions, iterative deepening to depth {args.depth} (CPU time)")
    print(line("python-nb", py_mid))
    print(line("js", js["midgame"]))
    differ = sum(1 for a, b in zip(py_mid, js["midgame"]) if a["value"] != b["value"])
    print(f"  values differing: {differ} of {len(mid)} (hash collisions and table reuse may move a few)")
    print("\nExact solves (window -64..64, CPU time)")
    for e in ends:
        py, jv = py_end[e], js["solves"][str(e)]
        print(f" {e} empties, {len(py)} positions:")
        print(line("python-nb", py))
        print(line("js", jv))
        if any(a["value"] != b["value"] for a, b in zip(py, jv)):
            print("  VALUES DIFFER:", [a["value"] for a in py], [b["value"] for b in jv])
    same = sum(1 for (sq, _), j in zip(py_picks, js["choices"]) if sq == j["move"])
    print(f"\nHard's move under a limit of {args.choice_nodes:,} nodes per search, {len(picks)} positions of "
          f"4-50 discs played: the same move in {same} ({100 * same / max(len(picks), 1):.0f} %)")
    for (sq, info), j in zip(py_picks, js["choices"]):
        if sq != j["move"]:
            print(f"  python {NAMES[sq]} (depth {info['depth']}, score {info['score']}), "
                  f"js {NAMES[j['move']]} (depth {j['depth']}, score {j['score']})")
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
