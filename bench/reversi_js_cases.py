"""Write the Python reference values the JavaScript Reversi computer's tests compare with:
tests/js/computer/reversi/python_cases.json.

Usage (from the repository root; run again after a change to bench/pybots/reversi_search.py or
reversi_nb.py, and commit the file)::

    python bench/reversi_js_cases.py

Positions come from seeded random games (fixed seeds: the file is the same on every run). For each:

* ``evaluation``: the features and the evaluation (bench.pybots.reversi_search.features / evaluate);
* ``midgame``: the value and move of the compiled search (reversi_nb.root) after iterative deepening
  to ``depth`` with fresh tables, as Hard's first iterations do;
* ``solves``: the exact final disc difference (reversi_nb.solve_root, window -64..64) of positions of
  8-16 empty squares, with the exact value of every legal move, and whether a pass occurs in the game
  tree of the small ones (a plain minimax says so).

Bitboards are hexadecimal strings (bit ``row * 8 + col``, a1 = bit 0) of the side to move (``me``)
and the other side (``opp``).
"""

from __future__ import annotations

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pybots import reversi_nb as nb  # noqa: E402
from bench.pybots import reversi_search as rs  # noqa: E402
from bench.pybots.reversi_bots import _state  # noqa: E402
from caro.engine import reversi  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "js", "computer", "reversi", "python_cases.json")
MIDGAME_DEPTH = 5
SOLVE_COUNTS = {8: 6, 10: 5, 12: 4, 14: 3, 16: 2}  # positions per number of empty squares


def random_state(rng: random.Random, plies: int):
    board = reversi.Board()
    for _ in range(plies):
        legal = board.legal_moves()
        if not legal or board.outcome is not None:
            return None
        board.play(rng.choice(legal))
    if board.outcome is not None or not board.legal_moves():
        return None
    return _state(board)


def states(seed: int, count: int, low: int, high: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = random_state(rng, rng.randint(low, high))
        if s is not None:
            out.append(s)
    return out


def has_pass(me: int, opp: int) -> bool:
    """Whether a side passes somewhere in the game tree of a small position."""
    legal = rs.moves(me, opp)
    if not legal:
        return bool(rs.moves(opp, me))
    while legal:
        bit = legal & -legal
        legal ^= bit
        f = rs.flips(me, opp, bit.bit_length() - 1)
        if has_pass(opp & ~f, me | f | bit):
            return True
    return False


def hexes(me: int, opp: int) -> dict:
    return {"me": f"{me:x}", "opp": f"{opp:x}"}


def main() -> None:
    ctx = nb.Context()
    evaluation = []
    for me, opp in states(101, 80, 0, 58):
        mine, theirs = rs.moves(me, opp), rs.moves(opp, me)
        evaluation.append({**hexes(me, opp), "features": list(rs.features(me, opp, mine, theirs)),
                           "value": rs.evaluate(me, opp, mine, theirs)})
    midgame = []
    for me, opp in states(102, 10, 6, 40):
        ctx.reset(float("inf"), None)
        first = -1
        for d in range(1, MIDGAME_DEPTH + 1):
            first = nb.root(nb.U(me), nb.U(opp), d, first, ctx.st, ctx.tm, rs._W_ARRAY, ctx.tk, ctx.tv,
                            ctx.hist, ctx.killers, ctx.buf, ctx.bb)
        midgame.append({**hexes(me, opp), "depth": MIDGAME_DEPTH, "value": int(ctx.st[4]), "move": int(first)})
    solves = []
    for empties, count in SOLVE_COUNTS.items():
        for me, opp in states(100 + empties, count, 60 - empties, 60 - empties):
            ctx.reset(float("inf"), None)
            value, _ = nb.solve_root(nb.U(me), nb.U(opp), -1, -65, 65, ctx.st, ctx.tm, ctx.ek, ctx.ev, ctx.bb, ctx.buf)
            moves = {}
            legal = rs.moves(me, opp)
            for sq in range(64):
                if legal >> sq & 1:
                    ctx.reset(float("inf"), None)
                    v, _ = nb.solve_root(nb.U(me), nb.U(opp), sq, -65, 65, ctx.st, ctx.tm, ctx.ek, ctx.ev, ctx.bb,
                                         ctx.buf)
                    f = rs.flips(me, opp, sq)
                    child_me, child_opp = opp & ~f, me | f | (1 << sq)
                    if rs.moves(child_me, child_opp) or rs.moves(child_opp, child_me):
                        ctx.reset(float("inf"), None)
                        if rs.moves(child_me, child_opp):
                            cv, _ = nb.solve_root(nb.U(child_me), nb.U(child_opp), -1, -65, 65, ctx.st, ctx.tm,
                                                  ctx.ek, ctx.ev, ctx.bb, ctx.buf)
                            moves[reversi.NAMES[sq]] = -int(cv)
                        else:  # the opponent passes: the mover moves again
                            cv, _ = nb.solve_root(nb.U(child_opp), nb.U(child_me), -1, -65, 65, ctx.st, ctx.tm,
                                                  ctx.ek, ctx.ev, ctx.bb, ctx.buf)
                            moves[reversi.NAMES[sq]] = int(cv)
                    else:  # the move ends the game
                        a, b = bin(child_opp).count("1"), bin(child_me).count("1")
                        diff, left = a - b, 64 - a - b
                        moves[reversi.NAMES[sq]] = diff + (left if diff > 0 else -left if diff < 0 else 0)
            assert max(moves.values()) == int(value), (me, opp)
            solves.append({**hexes(me, opp), "empties": empties, "value": int(value), "moves": moves,
                           "pass_in_tree": has_pass(me, opp) if empties <= 10 else None})
    data = {"source": "bench/reversi_js_cases.py (bench/pybots/reversi_search.py, reversi_nb.py)",
            "evaluation": evaluation, "midgame": midgame, "solves": solves}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(evaluation)} evaluations, {len(midgame)} midgame searches, {len(solves)} solves "
          f"({sum(1 for s in solves if s['pass_in_tree'])} with a pass in the tree)")


if __name__ == "__main__":
    main()
