"""Gomoku puzzle benchmark: the bots on ``../shared/cases/gomoku-puzzles.json`` (issue 16).

Usage (from the repository root)::

    python bench/puzzles.py --level hard --budget 1000
    python bench/puzzles.py --level hard_v1 --kind win --rule exact
    python bench/puzzles.py --speed-only
    python bench/puzzles.py --level hard --cpu-clock   # load-independent: the bots think in CPU time

For every puzzle the level chooses one move with the given budget (ms) and is scored as the file
says: a "win" puzzle is solved when the move is one of ``winning``; a "defend" puzzle is solved
when the move is not in ``losing`` (and counted as "held" when it is in ``holding``; a move in
neither list was not checked by the judge). Prints one line per puzzle, then the scores per kind
and rule, the move-time percentiles (ms), and the load average.

The judge's ``winning`` lists hold the first moves it found winning in its time (0.3-2.5 s per
candidate), so a move outside them may still win. A win puzzle's move outside the list is given
to the full-width check (:mod:`fullwidth`: every defender reply on the board, fives by the
engine's run rule, up to ``--prove-s`` seconds); a move it proves is printed "proven" and counted
in a second line, never in the file's score.

Then (unless ``--no-speed``) the search speed on the same positions: nodes per second of the
alpha-beta (3 plies, width 10, pattern evaluation) and of the threat searches (the old VCT,
``hard_v1``, and the current df-pn, in Python and compiled (:mod:`bench.pybots.nbthreats`); both
search the same tree), each given a fixed node budget per position. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pybots import get_bot, warm_up  # noqa: E402
from bench.pybots.caro_bots import AlphaBeta  # noqa: E402
from bench.pybots.fastboard import FastBoard  # noqa: E402
from bench.pybots.hard_v1 import ThreatSearchV1  # noqa: E402
from bench.pybots import threats  # noqa: E402
from bench.pybots.caro_bots import CaroHard  # noqa: E402
from bench.pybots.threats import ThreatSearch, Timeout  # noqa: E402
from caro.engine.caro import Board, Rules  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from fullwidth import FullWidthCheck  # noqa: E402

PUZZLES = ROOT / ".." / "shared" / "cases" / "gomoku-puzzles.json"
_wall = time.perf_counter  # the wall clock (kept when --cpu-clock gives the bots the CPU clock)


def load_puzzles(path: Path = PUZZLES) -> list[dict]:
    """The puzzle entries of the file (the ``_about`` header left out)."""
    return [entry for entry in json.loads(path.read_text(encoding="utf-8")) if "id" in entry]


def puzzle_board(puzzle: dict) -> Board:
    """The engine board of one puzzle: its rule (freestyle / exact five, nothing blocks) and moves."""
    board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
    for square in puzzle["moves"]:
        board.play(square)
    return board


def verdict(puzzle: dict, move: str) -> str:
    """``"solved"`` / ``"failed"`` for a win puzzle; ``"held"`` (in holding), ``"unchecked"``
    (in neither list) or ``"lost"`` (in losing) for a defend puzzle."""
    if puzzle["kind"] == "win":
        return "solved" if move in puzzle["winning"] else "failed"
    if move in puzzle.get("losing", []):
        return "lost"
    return "held" if move in puzzle.get("holding", []) else "unchecked"


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(math.ceil(q * len(s))) - 1))]


def run_level(puzzles: list[dict], level: str, budget_ms: int, prove_s: float = 60.0) -> None:
    bot = get_bot("caro", level)
    warm_up()  # as a worker process does when it starts: compiled functions loaded, tables filled
    rows: dict[tuple[str, str], list[str]] = {}
    times = []
    proven: list[str] = []  # win puzzles whose move is outside the judge's list but proven
    for puzzle in puzzles:
        board = puzzle_board(puzzle)
        t0 = _wall()
        move = bot.choose(board, budget_ms=budget_ms)
        dt = _wall() - t0
        times.append(dt)
        v = verdict(puzzle, move)
        rows.setdefault((puzzle["kind"], puzzle["rule"]), []).append(v)
        if v == "failed" and prove_s > 0:
            clock = time.perf_counter
            time.perf_counter = _wall  # the check has its own (wall) time cap
            try:
                if FullWidthCheck().proves(puzzle_board(puzzle), move, seconds=prove_s):
                    v = "proven"
                    proven.append(puzzle["id"])
            finally:
                time.perf_counter = clock
        extra = f"mate {puzzle.get('mate_plies', puzzle.get('threat_mate_plies', '?'))} plies"
        print(f"  {puzzle['id']:<9} {puzzle['kind']:<6} {puzzle['rule']:<9} {extra:<14} {move:<4} "
              f"{v:<9} {1000 * dt:6.0f} ms", flush=True)
    print(f"\n{level}, budget {budget_ms} ms:")
    for kind in ("win", "defend"):
        got_all = n_all = 0
        for rule in ("freestyle", "exact"):
            vs = rows.get((kind, rule), [])
            if not vs:
                continue
            good = sum(v in ("solved", "held", "unchecked") for v in vs)
            held = sum(v == "held" for v in vs)
            got_all += good
            n_all += len(vs)
            more = f"  (in holding: {held})" if kind == "defend" else ""
            print(f"  {kind:<6} {rule:<9} {good:>3}/{len(vs):<3} = {100 * good / len(vs):5.1f}%{more}")
        if n_all:
            label = "find the win" if kind == "win" else "don't lose"
            print(f"  {label:<16} {got_all:>3}/{n_all:<3} = {100 * got_all / n_all:5.1f}%")
            if kind == "win" and proven:
                got = got_all + len(proven)
                print(f"  {'':<16} {got:>3}/{n_all:<3} = {100 * got / n_all:5.1f}% with the moves outside the "
                      f"judge's list that the full-width check proves: {', '.join(proven)}")
    print(f"  move time ms: mean {1000 * statistics.fmean(times):.0f}, p50 {1000 * percentile(times, .5):.0f}, "
          f"p95 {1000 * percentile(times, .95):.0f}, max {1000 * max(times):.0f}")


def _nps(label: str, boards: list[Board], run) -> None:
    nodes = 0
    seconds = 0.0
    for board in boards:
        fb = FastBoard.from_engine(board)
        t0 = time.perf_counter()
        nodes += run(fb)
        seconds += time.perf_counter() - t0
    print(f"  {label:<34} {nodes:>9} nodes in {seconds:6.2f} s = {nodes / seconds:>9.0f} nodes/s")


def run_speed(puzzles: list[dict]) -> None:
    boards = [puzzle_board(p) for p in puzzles]
    print("\nsearch speed on the puzzle positions:")

    def alphabeta(fb):
        ab = AlphaBeta(fb, time.perf_counter() + 60, width=10)
        try:
            ab.root(ab.moves(fb.turn, 12), 3)
        except Timeout:
            pass
        return ab.nodes

    def old_vct(fb):
        ts = ThreatSearchV1(fb, time.perf_counter() + 60, max_nodes=2000)
        ts.vct(depth=8, threes=3)
        return ts.nodes

    def new_vct(fb, compiled=False, nodes=2000):
        ts = ThreatSearch(fb, time.perf_counter() + 60, max_nodes=nodes, compiled=compiled)
        ts.vct(depth=12)
        return ts.nodes

    _nps("alpha-beta 3 plies", boards, alphabeta)
    _nps("VCT hard_v1 (2000 nodes max)", boards, old_vct)
    _nps("VCT df-pn Python (2000 nodes max)", boards, new_vct)
    _nps("VCT df-pn compiled (2000 nodes max)", boards, lambda fb: new_vct(fb, True))
    _nps("VCT df-pn Python (20000 nodes max)", boards, lambda fb: new_vct(fb, False, 20000))
    _nps("VCT df-pn compiled (20000 nodes max)", boards, lambda fb: new_vct(fb, True, 20000))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", help="easy, medium, hard or hard_v1")
    parser.add_argument("--budget", type=int, default=1000, help="per-move budget in ms")
    parser.add_argument("--kind", choices=["win", "defend"], default=None)
    parser.add_argument("--rule", choices=["freestyle", "exact"], default=None)
    parser.add_argument("--ids", nargs="*", default=None, help="only these puzzle ids")
    parser.add_argument("--no-speed", action="store_true", help="skip the nodes-per-second part")
    parser.add_argument("--prove-s", type=float, default=60.0,
                        help="seconds of the full-width check of a win move outside the judge's list (0: none)")
    parser.add_argument("--speed-only", action="store_true", help="only the nodes-per-second part")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="the bots' clock is this process's CPU time (time.process_time), so the "
                             "scores do not depend on the machine's load; the move times printed stay wall time")
    parser.add_argument("--three-width", type=int, default=None,
                        help="threat search: open threes tried per attacker node (threats.THREE_WIDTH)")
    parser.add_argument("--zone", type=int, default=None,
                        help="threat search: zone reach in steps (threats.ZONE_REACH); 0 = no zone")
    parser.add_argument("--opp-vct-depth", type=int, default=None, help="CaroHard.opp_vct_depth")
    parser.add_argument("--python-search", action="store_true",
                        help="the threat search in Python (threats.COMPILED = False), as before the compiled one")
    args = parser.parse_args(argv)
    if args.three_width is not None:
        threats.THREE_WIDTH = args.three_width
    if args.zone is not None:
        threats.ZONE_REACH = args.zone or None
    if args.opp_vct_depth is not None:
        CaroHard.opp_vct_depth = args.opp_vct_depth
    if args.python_search:
        threats.COMPILED = False
    print(f"threat search: {'Python' if not threats.COMPILED else 'compiled'}, three width {threats.THREE_WIDTH}, "
          f"zone {threats.ZONE_REACH}, opp_vct_depth {CaroHard.opp_vct_depth}")
    if args.cpu_clock:
        # the bots read time.perf_counter() for their deadlines; the wall clock is kept for the report
        global _wall
        _wall = time.perf_counter
        time.perf_counter = time.process_time
    puzzles = [p for p in load_puzzles() if (args.kind is None or p["kind"] == args.kind)
               and (args.rule is None or p["rule"] == args.rule) and (not args.ids or p["id"] in args.ids)]
    print(f"{len(puzzles)} puzzles, load average {os.getloadavg()[0]:.2f}", flush=True)
    if not args.speed_only:
        run_level(puzzles, args.level, args.budget, args.prove_s)
    if not args.no_speed:
        run_speed(puzzles)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
