"""What the second player's target means, seen on Rapfi itself: Rapfi at ``--o-nodes`` as O against
Rapfi at ``--x-nodes`` (the matches' 10,000) as X, over the openings ``public_match.py`` plays
(``--opening-set bench``: bench/match.py's 16 four-stone and 8 three-stone caro openings;
``balanced``: the preset's verified set, bench/data/balanced-openings-<preset>.json). Issue 28 asks
our Hard for >= 35 % as the second player against Rapfi 10k; this prints what Rapfi scores there,
so the target can be read beside the engine it is measured against, and checks that a balanced set
is balanced in play (Rapfi against itself: the second player near 50 %).

    nice -n 19 .venv/bin/python bench/rapfi_second.py --preset freestyle --o-nodes 10000,40000,160000
    nice -n 19 .venv/bin/python bench/rapfi_second.py --preset exact-five --opening-set balanced \\
        --pairs 10000:10000,7000:7000,14000:14000,10000:40000

``--pairs X:O,...`` plays each pair of node counts (X's, O's) instead of ``--x-nodes`` against each
``--o-nodes``. Rapfi is deterministic at a node limit, so Rapfi N against Rapfi N plays one game an
opening whichever seat is "ours": equal pairs at other node counts (7,000, 14,000) are the way to
more games of an engine against itself. Each side is its own process for the whole list (as in the
matches). Prints one line a game (opening, winner, plies) and per pair the score as O with its
Wilson 95 % interval (public_match.py's), and the pooled score of the equal pairs. Both sides are
node-bound: the load does not change a result. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from public_match import (OPENING_SETS, RAPFI_DEFAULT, RAPFI_RULES, Rapfi, caro_openings, caro_winner,  # noqa: E402
                          play_game, wilson_interval)


class RapfiAsOurs(Rapfi):
    """Rapfi in our seat of ``play_game`` (a move and its stats)."""

    def move(self, board):  # noqa: D102
        return super().move(board), {}


def node_pairs(args) -> list[tuple[int, int]]:
    """(X's nodes, O's nodes) to play: ``--pairs`` "x:o,..." or ``--x-nodes`` against each ``--o-nodes``."""
    if args.pairs:
        return [tuple(int(n) for n in pair.split(":")) for pair in args.pairs.split(",")]
    return [(args.x_nodes, int(n)) for n in args.o_nodes.split(",")]


def main(argv=None) -> int:
    from caro.engine.caro import PRESETS, Board

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES))
    parser.add_argument("--opening-set", default="bench", choices=OPENING_SETS)
    parser.add_argument("--x-nodes", type=int, default=10000)
    parser.add_argument("--o-nodes", default="10000,40000,160000", help="comma-separated max_node values for O")
    parser.add_argument("--pairs", help="comma-separated X:O max_node pairs (instead of --x-nodes/--o-nodes)")
    parser.add_argument("--openings", type=int, default=24)
    parser.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset].rules
    rule = RAPFI_RULES[args.preset]
    openings = caro_openings(args.opening_set, args.preset)[: args.openings]
    equal = []
    for x_nodes, o_nodes in node_pairs(args):
        x, o = Rapfi(args.rapfi, rule, x_nodes), RapfiAsOurs(args.rapfi, rule, o_nodes)
        scores = []
        try:
            for i, opening in enumerate(openings):
                board = Board(rules)
                for m in opening:
                    board.play(m)
                facts = play_game(o, x, board, "O", caro_winner, 225)
                score = 0.5 if facts["winner"] is None else (1.0 if facts["winner"] == "O" else 0.0)
                scores.append(score)
                print(f"  X {x_nodes:>7} O {o_nodes:>7} {i:>2} {' '.join(opening):<20} "
                      f"winner {facts['winner'] or '-'} ({facts['plies']} plies)", flush=True)
        finally:
            x.close()
            o.close()
        if x_nodes == o_nodes:
            equal += scores
        lo, hi = wilson_interval(sum(scores) / len(scores), len(scores))
        print(f"{args.preset} ({args.opening_set}): Rapfi {o_nodes} as O vs Rapfi {x_nodes} as X: {sum(scores):g}/"
              f"{len(scores)} = {100 * sum(scores) / len(scores):.1f} % (95 %: {100 * lo:.1f} .. {100 * hi:.1f} %)",
              flush=True)
    if len(equal) > len(openings):
        lo, hi = wilson_interval(sum(equal) / len(equal), len(equal))
        print(f"{args.preset} ({args.opening_set}): Rapfi against itself (equal node pairs), O: {sum(equal):g}/"
              f"{len(equal)} = {100 * sum(equal) / len(equal):.1f} % (95 %: {100 * lo:.1f} .. {100 * hi:.1f} %)",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
