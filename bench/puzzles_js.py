"""Gomoku puzzles for the browser computer: the JS Hard on ``../shared/cases/gomoku-puzzles.json`` (issue 28).

Usage (from the repository root)::

    nice -n 10 .venv/bin/python bench/puzzles_js.py                  # defences and wins
    nice -n 10 .venv/bin/python bench/puzzles_js.py --kind defend     # issue 28's count: defences held

The JS Hard runs as the Gomocup brain under Node (``python3 dev.py brain --level hard --cpu-clock
--stats``, through bench/strength_gate.py's client; one brain per rule, freestyle or exact five),
given ``INFO timeout_turn`` = ``--move-ms`` (default 1000: Hard plans 90 %, in CPU time, so the
machine's load does not change its answers much). Each puzzle's position is sent whole (BOARD) and
the move is scored as bench/puzzles.py scores the Python bots: a defence holds when the move is
not in ``losing`` ("held" when it is in ``holding``, "unchecked" when in neither list); a win is
solved when the move is in ``winning``. Prints one line per puzzle (move, verdict, CPU ms, depth,
nodes), then the counts per kind and rule, and the load average. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from puzzles import load_puzzles, puzzle_board, verdict  # noqa: E402
from strength_gate import JsBrain  # noqa: E402

PRESET_OF_RULE = {"freestyle": "freestyle", "exact": "exact-five"}
GOOD = ("solved", "held", "unchecked")  # verdicts that count for the solver


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=["win", "defend"], default=None)
    parser.add_argument("--rule", choices=sorted(PRESET_OF_RULE), default=None)
    parser.add_argument("--ids", nargs="*", default=None, help="only these puzzle ids")
    parser.add_argument("--move-ms", type=int, default=1000, help="INFO timeout_turn, ms (the brain gives Hard all of it; Hard plans 90 %%)")
    args = parser.parse_args(argv)
    puzzles = [p for p in load_puzzles() if (args.kind is None or p["kind"] == args.kind)
               and (args.rule is None or p["rule"] == args.rule) and (not args.ids or p["id"] in args.ids)]
    print(f"{len(puzzles)} puzzles, JS Hard, timeout_turn {args.move_ms} ms (CPU clock), "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    rows: dict[tuple[str, str], list[str]] = {}
    cpu = []
    for rule, preset in PRESET_OF_RULE.items():
        mine = [p for p in puzzles if p["rule"] == rule]
        if not mine:
            continue
        brain = JsBrain(preset, args.move_ms)
        try:
            for puzzle in mine:
                board = puzzle_board(puzzle)
                brain.new_game(board)
                move, stats = brain.move(board)
                v = verdict(puzzle, move)
                rows.setdefault((puzzle["kind"], rule), []).append(v)
                cpu.append(float(stats.get("cpu_ms", "nan")))
                print(f"  {puzzle['id']:<9} {puzzle['kind']:<6} {rule:<9} {move:<4} {v:<9} "
                      f"cpu {stats.get('cpu_ms', '?'):>7} ms  depth {stats.get('depth', '?'):>3}  "
                      f"nodes {stats.get('nodes', '?'):>8}  {stats.get('phase', '')}", flush=True)
        finally:
            brain.close()
    print(f"\nJS Hard, timeout_turn {args.move_ms} ms:")
    for kind in ("win", "defend"):
        got_all = n_all = 0
        for rule in PRESET_OF_RULE:
            vs = rows.get((kind, rule), [])
            if not vs:
                continue
            good = sum(v in GOOD for v in vs)
            got_all += good
            n_all += len(vs)
            held = f"  (in holding: {sum(v == 'held' for v in vs)})" if kind == "defend" else ""
            print(f"  {kind:<6} {rule:<9} {good:>3}/{len(vs):<3} = {100 * good / len(vs):5.1f} %{held}")
        if n_all:
            label = "find the win" if kind == "win" else "defences hold"
            print(f"  {label:<16} {got_all:>3}/{n_all:<3} = {100 * got_all / n_all:5.1f} %")
    known = [c for c in cpu if c == c]
    if known:
        print(f"  CPU ms a move: mean {statistics.fmean(known):.0f}, max {max(known):.0f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
