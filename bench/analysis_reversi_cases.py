"""Write the exact endgame values the Reversi analysis (static/js/analysis/reversi.js) is checked
against: tests/js/analysis/reversi_endgames.json.

Usage (from the repository root; run again when the games below change, and commit the file)::

    .venv/bin/python bench/analysis_reversi_cases.py

The values come from the Python reference solver (bench.pybots.reversi_nb, compiled by numba: the
first run compiles it, about a minute), never from the JavaScript being tested. Games: GAMES
whole games of Reversi Easy against itself (bench.pybots.reversi_bots.ReversiEasy, fixed seeds: the
file is the same on every run). For every position of a game with at most EXACT_EMPTIES empty
squares where the side to move has a legal move: the exact final disc difference after each
legal move, from the side to move's view, empty squares to the winner (the solver's own
convention), each move solved in the full window. The first game is the one the browser tests
analyse (tests/e2e/test_analysis.py).
"""

from __future__ import annotations

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pybots import reversi_nb as nb  # noqa: E402
from bench.pybots.reversi_bots import ReversiEasy, _state  # noqa: E402
from caro.engine import reversi  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "js", "analysis", "reversi_endgames.json")
EXACT_EMPTIES = 20  # static/js/analysis/reversi.js EXACT_EMPTIES
GAMES = 3
SEEDS = (29, 7, 101)


def play_game(seed: int) -> list[str]:
    """A whole game of Easy against itself (passes implied)."""
    rng = random.Random(seed)
    board = reversi.Board()
    bot = ReversiEasy()
    moves = []
    while board.outcome is None:
        square = bot.choose(board, rng=rng)
        board.play(square)
        moves.append(square)
    return moves


def move_values(ctx: nb.Context, me: int, opp: int) -> dict[str, int]:
    """The exact value of every legal move of `me` (full window), as solve_root's loop does."""
    out = {}
    legal = int(nb.moves(nb.U(me), nb.U(opp)))
    for sq in range(64):
        if legal >> sq & 1:
            f = int(nb.flips(nb.U(me), nb.U(opp), sq))
            child_me, child_opp = opp & ~f, me | f | (1 << sq)
            ctx.reset(float("inf"), None)
            value = -int(nb.solve(nb.U(child_me), nb.U(child_opp), -65, 65, 1, ctx.st, ctx.tm, ctx.ek, ctx.ev,
                                  ctx.bb, ctx.buf))
            out[reversi.NAMES[sq]] = value
    return out


def main() -> None:
    ctx = nb.Context()
    games = []
    for seed in SEEDS[:GAMES]:
        moves = play_game(seed)
        board = reversi.Board()
        positions = []
        for ply in range(len(moves) + 1):
            if board.outcome is None and board.legal_moves():
                me, opp = _state(board)
                empties = 64 - bin(me | opp).count("1")
                if empties <= EXACT_EMPTIES:
                    positions.append({"ply": ply, "empties": empties, "values": move_values(ctx, me, opp)})
            if ply < len(moves):
                board.play(moves[ply])
        games.append({"seed": seed, "moves": moves, "positions": positions})
        print(f"game seed {seed}: {len(moves)} moves, {len(positions)} positions solved", flush=True)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"_about": __doc__.strip().splitlines()[0], "exact_empties": EXACT_EMPTIES, "games": games}, f,
                  indent=1)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
