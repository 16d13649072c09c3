"""The browser computer's search speed beside the Python one, on the same positions, in one run.

Usage (from the repository root)::

    .venv/bin/python bench/computer_speed.py                  # every puzzle position
    .venv/bin/python bench/computer_speed.py --every 2 --depth 6 --budget 500

On the positions of ``../shared/cases/gomoku-puzzles.json`` (freestyle and exact five) and, with
``--games N`` (default 8), positions taken every few plies from Python Hard self-play in caro with
blocked ends (``caro-vn``), in process CPU time (load-robust), with fresh tables for each search:

1. Hard's alpha-beta, iterative deepening from depth 1 to ``--depth`` over its 14 root candidates:
   the Python compiled search (:class:`bench.pybots.caro_bots.CompiledSearch`, numba) and the JS one
   (``static/js/computer/caro/search.js`` under Node, ``bench/js/computer_speed.mjs``, measured on
   a second pass over the positions: V8 reaches its fastest code only after a warm-up, numba's is
   compiled before): nodes, CPU seconds, nodes per second, and how often both ranked the same best
   move (the two search the same tree, so their node counts agree);
2. the depth each completes within ``--budget`` ms of CPU;
3. a df-pn VCT (depth 12) of at most ``--vct-nodes`` nodes: nodes, CPU seconds, nodes per second,
   wins found. The Python count includes its restarts (its kernel is called in node chunks and
   again after a window-table miss, re-entering the root each time), so compare the times too.

Prints per-position lines, then the totals and the load average. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench.pybots import choose_move, warm_up  # noqa: E402
from bench.pybots.caro_bots import CompiledSearch, _root  # noqa: E402
from bench.pybots.threats import ThreatSearch  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402
from devstack.cli import brain_argv  # noqa: E402
from hard_search_speed import in_budget, to_depth  # noqa: E402
from puzzles import load_puzzles, puzzle_board  # noqa: E402

clock = time.process_time
JS_BENCH = ROOT / "bench" / "js" / "computer_speed.mjs"


def selfplay_positions(games: int, every: int = 6) -> list[tuple[str, Board]]:
    """Positions of caro-vn games of the Python Hard against itself (a short budget), every
    ``every`` plies from ply 8."""
    out = []
    for g in range(games):
        board = Board(PRESETS["caro-vn"].rules)
        for square in ("H8", "I9", "I8", "G8")[: 3 + g % 2]:
            board.play(square)
        while board.outcome is None and board.ply < 60:
            board.play(choose_move(board, "hard", budget_ms=60))
            if board.ply >= 8 and board.ply % every == 0 and board.outcome is None:
                out.append((f"vn{g}-{board.ply}", board.copy()))
    return out


def py_to_depth(board: Board, depth: int) -> tuple[int, float, str]:
    """(nodes, CPU seconds, best square) of the compiled search's iterative deepening 1..depth."""
    nodes, secs, best = to_depth(CompiledSearch, board, depth)
    return nodes, secs, _root(board).name(best)


def py_vct(board: Board, nodes: int) -> tuple[int, float, bool]:
    fb = _root(board)
    t0 = clock()
    ts = ThreatSearch(fb, time.perf_counter() + 10 ** 6, max_nodes=nodes, compiled=True)
    line = ts.vct(depth=12)
    return ts.nodes, clock() - t0, line is not None


def js_runs(positions: list[Board], depth: int, budget_ms: int, vct_nodes: int) -> list[dict]:
    argv = brain_argv(ROOT, [])
    if argv is None:
        raise SystemExit("node is not installed")
    job = {"depth": depth, "budgetMs": budget_ms, "vctNodes": vct_nodes, "positions": [
        {"rules": b.rules.to_dict(), "x": [s for s, v in b.stones().items() if v == "X"],
         "o": [s for s, v in b.stones().items() if v == "O"], "toMove": b.turn} for b in positions]}
    out = subprocess.run([argv[0], str(JS_BENCH)], input=json.dumps(job), capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return [json.loads(line) for line in out.stdout.splitlines()]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5, help="fixed depth of part 1")
    parser.add_argument("--budget", type=int, default=500, help="CPU ms of part 2")
    parser.add_argument("--vct-nodes", type=int, default=20000, help="node cap of part 3")
    parser.add_argument("--every", type=int, default=1, help="use every n-th puzzle")
    parser.add_argument("--games", type=int, default=8, help="caro-vn self-play games for more positions")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
    warm_up()
    named = [(p["id"], puzzle_board(p)) for p in load_puzzles()[::args.every]]
    named += selfplay_positions(args.games)
    boards = [b for _, b in named]
    t0 = time.perf_counter()
    js = js_runs(boards, args.depth, args.budget, args.vct_nodes)
    js_wall = time.perf_counter() - t0
    tot = {"py_ab": [0, 0.0], "js_ab": [0, 0.0], "py_vct": [0, 0.0, 0], "js_vct": [0, 0.0, 0]}
    depths = {"py": [], "js": []}
    same = 0
    for (name, board), j in zip(named, js):
        nodes, secs, best = py_to_depth(board, args.depth)
        tot["py_ab"][0] += nodes
        tot["py_ab"][1] += secs
        tot["js_ab"][0] += j["ab"]["nodes"]
        tot["js_ab"][1] += j["ab"]["ms"] / 1000
        same += best == j["ab"]["best"]
        depths["py"].append(in_budget(CompiledSearch, board, args.budget / 1000))
        depths["js"].append(j["depth"])
        vn, vs, found = py_vct(board, args.vct_nodes)
        for key, (n, s, f) in (("py_vct", (vn, vs, found)), ("js_vct", (j["vct"]["nodes"], j["vct"]["ms"] / 1000,
                                                                       j["vct"]["found"]))):
            tot[key][0] += n
            tot[key][1] += s
            tot[key][2] += f
        print(f"  {name:<10} depth {args.depth}: nodes py {nodes:>8} js {j['ab']['nodes']:>8}  "
              f"best {best:>4}/{j['ab']['best']:<4}  in {args.budget} ms: depth py {depths['py'][-1]:>2} "
              f"js {depths['js'][-1]:>2}  VCT ms py {1000 * vs:6.1f} js {j['vct']['ms']:6.1f}", flush=True)
    n = len(named)
    print(f"\n{n} positions, fresh tables, process CPU time (JS: {js_wall:.1f} s wall for its part)")
    print(f"Hard's alpha-beta, depth 1..{args.depth}:")
    for key, label in (("py_ab", "Python (numba)"), ("js_ab", "JavaScript")):
        nodes, secs = tot[key]
        print(f"  {label:<15} {nodes:>10} nodes  {secs:7.2f} s  {nodes / secs:>10.0f} nodes/s")
    ratio = (tot["js_ab"][0] / tot["js_ab"][1]) / (tot["py_ab"][0] / tot["py_ab"][1])
    print(f"  JS / Python: {ratio:.2f}x the nodes per second; same best move in {same}/{n}")
    for key, label in (("py", "Python (numba)"), ("js", "JavaScript")):
        d = depths[key]
        print(f"  {label:<15} depth completed in {args.budget} ms CPU: mean {statistics.mean(d):.2f}, "
              f"median {statistics.median(d)}, min {min(d)}, max {max(d)}")
    print(f"df-pn VCT (depth 12, at most {args.vct_nodes} nodes):")
    for key, label in (("py_vct", "Python (numba)"), ("js_vct", "JavaScript")):
        nodes, secs, found = tot[key]
        print(f"  {label:<15} {nodes:>10} nodes  {secs:7.2f} s  {nodes / secs:>10.0f} nodes/s  wins found {found}/{n}")
    print(f"  JS / Python: {tot['py_vct'][1] / tot['js_vct'][1]:.2f}x the speed (time for the same searches)")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
