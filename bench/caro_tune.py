"""Self-play tuning of caro Hard's evaluation (:class:`bench.pybots.caro_bots.HardSearch`): two
weight sets play each other over the match openings, both colours, at a FIXED search depth, so
the games do not depend on the machine's speed or load (the same command gives the same games).

Usage (from the repository root)::

    python bench/caro_tune.py --preset freestyle --a "MY_OPEN3=3000" --b plain --depth 4
    python bench/caro_tune.py --preset caro-vn --a "" --b "attack=15,defence=10" --openings 32

``--a`` / ``--b``: comma-separated ``NAME=VALUE`` overrides of HardSearch's class attributes
(``attack``, ``defence``, ``MY_OPEN3``, ``MY_FOUR_THREE``, ``MY_THREE_THREE``, ``OPP_DOUBLE``,
``OPP_OPEN3``); an empty string is Hard's current evaluation and ``plain`` the evaluation of the
other levels (:class:`bench.pybots.caro_bots.AlphaBeta`: potential only, no threat terms). Each move:
a five or a block (the bots' prelude), a short VCF (node-limited), else a ``--depth``-ply
HardSearch over 14 root candidates. Prints every game and the score of ``--a`` with a 95 %
interval (as bench/match.py). Our own data from our own code; not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench.pybots import caro_bots as cb  # noqa: E402
from bench.pybots.fastboard import FastBoard  # noqa: E402
from bench.pybots.threats import ThreatSearch  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402
from match import CARO_OPENINGS, CARO_OPENINGS_4, summarize  # noqa: E402

PLAIN = {"MY_OPEN3": 0, "MY_FOUR_THREE": 0, "MY_THREE_THREE": 0, "OPP_DOUBLE": 0, "OPP_OPEN3": 0,
         "attack": 10, "defence": 15}
FAR = 1e12  # perf_counter seconds: no deadline, the depth decides
VCF_NODES = 3000


def variant(spec: str) -> type:
    """A HardSearch subclass with the overrides of ``spec`` (see the module docstring)."""
    attrs: dict[str, int] = dict(PLAIN) if spec.strip() == "plain" else {}
    if spec.strip() not in ("", "plain"):
        for part in spec.split(","):
            name, _, value = part.partition("=")
            name = name.strip()
            if not hasattr(cb.HardSearch, name):
                raise SystemExit(f"unknown weight {name!r}")
            attrs[name] = int(value)
    return type("Tuned", (cb.HardSearch,), attrs)


def choose(fb: FastBoard, search: type, depth: int) -> int:
    """The fixed-depth move of ``search`` on ``fb`` (side to move)."""
    q = cb._tactical_prelude(fb, random.Random(0))
    if q is not None:
        return q
    line = ThreatSearch(fb, FAR, max_nodes=VCF_NODES).vcf(depth=10)
    if line:
        return line[0]
    ab = search(fb, FAR, width=10)
    ab.tt = {}  # a private table: the two weight sets must not read each other's values
    moves = ab.moves(fb.turn, 14)
    if not moves:
        return cb._any_legal(fb, fb.turn, random.Random(0))
    ranked = [(0, q) for q in moves]
    for d in range(1, depth + 1):
        ranked = ab.root([q for _, q in ranked], d)
        if abs(ranked[0][0]) >= cb.WIN - 100:
            break
    return ranked[0][1]


def play(rules, opening, x_search, o_search, depth, max_ply):
    """One game; returns (winner 'X'/'O'/None, plies, seconds per move of X, of O)."""
    board = Board(rules)
    for square in opening:
        board.play(square)
    times = {"X": [], "O": []}
    while board.outcome is None and board.ply < max_ply:
        fb = FastBoard.from_engine(board)
        t0 = time.perf_counter()
        q = choose(fb, x_search if board.turn == "X" else o_search, depth)
        times[board.turn].append(time.perf_counter() - t0)
        board.play(fb.name(q))
    return (board.outcome.winner if board.outcome else None), board.ply, times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="freestyle", choices=sorted(PRESETS))
    parser.add_argument("--a", default="", help="weights under test (NAME=VALUE,...; '' = current)")
    parser.add_argument("--b", default="plain", help="opponent weights ('plain' = no threat terms)")
    parser.add_argument("--depth", type=int, default=4, help="alpha-beta plies per move")
    parser.add_argument("--openings", type=int, default=32, help="openings (four-stone, then three-stone)")
    parser.add_argument("--max-ply", type=int, default=160)
    args = parser.parse_args(argv)
    a, b = variant(args.a), variant(args.b)
    rules = PRESETS[args.preset].rules
    openings = (CARO_OPENINGS_4 + CARO_OPENINGS)[:args.openings]
    print(f"caro {args.preset}: a={args.a!r} vs b={args.b!r}, depth {args.depth}, "
          f"{len(openings)} openings x 2 colours, load {os.getloadavg()[0]:.2f}", flush=True)
    results, times = [], {"a": [], "b": []}
    for opening in openings:
        for a_first in (True, False):
            x, o = (a, b) if a_first else (b, a)
            winner, plies, t = play(rules, opening, x, o, args.depth, args.max_ply)
            times["a"].extend(t["X" if a_first else "O"])
            times["b"].extend(t["O" if a_first else "X"])
            side = "X" if a_first else "O"
            score = 0.5 if winner is None else (1.0 if winner == side else 0.0)
            results.append(score)
            print(f"  {' '.join(opening):<22} a as {'first ' if a_first else 'second'}: "
                  f"winner {winner or 'draw':<4} ({plies}) -> {score:g}", flush=True)
    summarize("a", "b", results, times)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
