"""What the second player's target asks, seen on Rapfi itself: Rapfi at ``--o-nodes`` as O against
Rapfi at ``--x-nodes`` (the matches' 10,000) as X, over the same bench openings as
``public_match.py`` (bench/match.py's 16 four-stone and 8 three-stone caro openings). Issue 28
asks our Hard for >= 35 % as the second player against Rapfi 10k; this prints what a Rapfi with
more nodes scores there, so the target can be read beside the engine it is measured against.

    nice -n 19 .venv/bin/python bench/rapfi_second.py --preset freestyle --o-nodes 10000,40000,160000

Prints one line a game (opening, winner, plies) and per ``--o-nodes`` the score as O with its
Wilson 95 % interval (public_match.py's). Both sides are node-bound: the load does not change a
result. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from public_match import RAPFI_DEFAULT, RAPFI_RULES, Rapfi, caro_winner, play_game, wilson_interval  # noqa: E402


class RapfiAsOurs(Rapfi):
    """Rapfi in our seat of ``play_game`` (a move and its stats)."""

    def move(self, board):  # noqa: D102
        return super().move(board), {}


def main(argv=None) -> int:
    from caro.engine.caro import PRESETS, Board
    from match import CARO_OPENINGS, CARO_OPENINGS_4

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES))
    parser.add_argument("--x-nodes", type=int, default=10000)
    parser.add_argument("--o-nodes", default="10000,40000,160000", help="comma-separated max_node values for O")
    parser.add_argument("--openings", type=int, default=24)
    parser.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset].rules
    rule = RAPFI_RULES[args.preset]
    openings = (CARO_OPENINGS_4 + CARO_OPENINGS)[: args.openings]
    for o_nodes in [int(n) for n in args.o_nodes.split(",")]:
        x, o = Rapfi(args.rapfi, rule, args.x_nodes), RapfiAsOurs(args.rapfi, rule, o_nodes)
        scores = []
        try:
            for i, opening in enumerate(openings):
                board = Board(rules)
                for m in opening:
                    board.play(m)
                facts = play_game(o, x, board, "O", caro_winner, 225)
                score = 0.5 if facts["winner"] is None else (1.0 if facts["winner"] == "O" else 0.0)
                scores.append(score)
                print(f"  O {o_nodes:>7} {i:>2} {' '.join(opening):<14} winner {facts['winner'] or '-'} "
                      f"({facts['plies']} plies)", flush=True)
        finally:
            x.close()
            o.close()
        lo, hi = wilson_interval(sum(scores) / len(scores), len(scores))
        print(f"{args.preset}: Rapfi {o_nodes} as O vs Rapfi {args.x_nodes} as X: {sum(scores):g}/{len(scores)} = "
              f"{100 * sum(scores) / len(scores):.1f} % (95 %: {100 * lo:.1f} .. {100 * hi:.1f} %)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
