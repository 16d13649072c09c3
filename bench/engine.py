"""Rules-engine benchmark, both engines in one run: ``python bench/engine.py`` from the repository root.

Prints, for the Python engine (caro/engine) and the browser engine (static/js/engine, run by
``node bench/js/engine_bench.js``) side by side: µs per caro move (Board.play with its win check,
random games on 15x15 under the default rules), µs per Renju foul check on every empty point of
the 13 shared positions (p50/p99/max; target p99 <= 1 ms), µs per Renju legal-move list of those
positions, and the Reversi perft(8) time (targets: Python <= 5 s, Node <= 2 s; the browser
engine's BigInt variant is measured too, beside its 32-bit halves). Times are CPU time of the
process where it says so (they survive a loaded machine); the load average is printed first.
``--no-node`` prints the Python column only.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caro.engine import reversi  # noqa: E402
from caro.engine.caro import Board, Rules, geometry  # noqa: E402

CASES = ROOT / ".." / "shared" / "cases"
NODE_BENCH = ROOT / "bench" / "js" / "engine_bench.js"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_caro_moves(games: int = 200) -> dict:
    rng = random.Random(1)
    names = geometry(15).names
    total_moves, total_cpu = 0, 0.0
    for _ in range(games):
        board = Board(Rules())
        order = list(names)
        rng.shuffle(order)
        start = time.process_time()
        for square in order:
            if board.play(square) is not None:
                break
        total_cpu += time.process_time() - start
        total_moves += board.ply
    return {"us_per_move": total_cpu / total_moves * 1e6, "moves": total_moves, "games": games}


def bench_renju_fouls(rounds: int = 5) -> dict:
    cases = json.loads((CASES / "renju-fouls.json").read_text(encoding="utf-8"))["cases"]
    rules = Rules(renju=True, blocked="none")
    boards = [Board.from_stones(rules, x=case["black"], o=case["white"]) for case in cases]
    samples = []
    for board in boards:
        empties = [s for s in geometry(15).names if board.stone_at(s) is None]
        for _ in range(rounds):
            for square in empties:
                start = time.perf_counter_ns()
                board.foul(square)
                samples.append((time.perf_counter_ns() - start) / 1000)
    lists = []
    for _ in range(rounds):
        for board in boards:
            start = time.process_time()
            board.legal_moves()
            lists.append((time.process_time() - start) * 1e6)
    return {"checks": len(samples), "p50_us": percentile(samples, 0.5), "p99_us": percentile(samples, 0.99),
            "max_us": max(samples), "mean_us": statistics.fmean(samples), "legal_moves_us": statistics.fmean(lists)}


def bench_perft(depth: int = 8) -> dict:
    cpu, wall = time.process_time(), time.perf_counter()
    nodes = reversi.perft(reversi.Board(), depth)
    return {"depth": depth, "leaves": nodes, "cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}


def node_numbers() -> dict | None:
    node = shutil.which("node")
    if node is None:
        print("node is not installed: the browser engine's column is empty")
        return None
    result = subprocess.run([node, str(NODE_BENCH)], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(result.stdout)


def row(label: str, python: str, js: str) -> None:
    print(f"{label:<44} {python:>18} {js:>18}")


def main() -> None:
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    caro, renju, perft = bench_caro_moves(), bench_renju_fouls(), bench_perft()
    js = None if "--no-node" in sys.argv else node_numbers()
    row("", f"Python {sys.version.split()[0]}", f"Node {js['node']}" if js else "-")
    row("caro move, 15x15 caro-vn (µs CPU/move)", f"{caro['us_per_move']:.1f}",
        f"{js['caro_moves']['us_per_move']:.2f}" if js else "-")
    for key, label in (("p50_us", "p50"), ("p99_us", "p99"), ("max_us", "max"), ("mean_us", "mean")):
        row(f"renju foul check, {label} (µs; {renju['checks']} checks)", f"{renju[key]:.1f}",
            f"{js['renju_fouls'][key]:.1f}" if js else "-")
    row("renju legal-move list, 13 positions (µs CPU)", f"{renju['legal_moves_us']:.0f}",
        f"{js['renju_fouls']['legal_moves_us']:.0f}" if js else "-")
    row(f"reversi perft({perft['depth']}) = {perft['leaves']} (s CPU)", f"{perft['cpu_s']:.2f}",
        f"{js['perft']['halves']['cpu_s']:.3f}" if js else "-")
    if js:
        row("  the same on BigInt bitboards (s CPU)", "-", f"{js['perft']['bigint']['cpu_s']:.3f}")
        row("  wall time, 32-bit halves / BigInt (s)", f"{perft['wall_s']:.2f}",
            f"{js['perft']['halves']['wall_s']:.3f} / {js['perft']['bigint']['wall_s']:.3f}")
        if js["perft"]["leaves"] != perft["leaves"]:
            raise SystemExit(f"perft differs: Python {perft['leaves']}, Node {js['perft']['leaves']}")


if __name__ == "__main__":
    main()
