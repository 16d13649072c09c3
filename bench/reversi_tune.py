"""Fit the weights of Reversi Hard's evaluation on our own self-play games.

Usage (from the repository root)::

    python bench/reversi_tune.py --games 600 --seed 1

Plays ``--games`` games of the Hard evaluation against itself at a fixed search depth
(``--depth`` plies, node-limited, so the games do not depend on the machine's speed), the first
``--random-plies`` plies chosen at random so games differ. Every position of a game (side to
move's view) is labelled with the game's final disc difference (empty squares to the winner) from
that side's view. Per game phase (:data:`bench.pybots.reversi_search.PHASE_BOUNDS`), a ridge
least-squares fit of the label on :func:`bench.pybots.reversi_search.features` gives one weight per
feature; the script prints them as the ``WEIGHTS`` table to paste into
``bench/pybots/reversi_search.py``, with each phase's position count and R². Pure Python (no
numpy): the normal equations are solved by Gaussian elimination. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pybots import reversi_search as rs  # noqa: E402

START_ME, START_OPP = 0x0000000810000000, 0x0000001008000000  # Black: d5 e4; White: d4 e5
RIDGE = 1.0  # added to the diagonal of the normal equations (keeps rare features bounded)


def self_play(rng: random.Random, depth: int, random_plies: int) -> list[tuple[tuple[int, ...], int, int]]:
    """One game; returns [(features, discs on the board, side-to-move sign +1 Black / -1 White)]
    and, as the last item's label source, the final difference via :func:`label_game`."""
    me, opp, sign = START_ME, START_OPP, 1
    records = []
    ply = 0
    while True:
        legal = rs.moves(me, opp)
        if not legal:
            if not rs.moves(opp, me):
                break
            me, opp, sign = opp, me, -sign
            continue
        records.append((rs.features(me, opp, legal, rs.moves(opp, me)), (me | opp).bit_count(), sign))
        if ply < random_plies:
            squares = [sq for sq in range(64) if legal >> sq & 1]
            sq = rng.choice(squares)
        else:
            search = rs.Search(float("inf"), max_nodes=20000)
            try:
                sq = search.root(me, opp, depth)[1]
            except rs.Timeout:
                sq = next(s for s in rs.STATIC_ORDER if legal >> s & 1)
        f = rs.flips(me, opp, sq)
        me, opp, sign = opp & ~f, me | f | (1 << sq), -sign
        ply += 1
    a, b = me.bit_count(), opp.bit_count()
    diff = a - b
    empty = 64 - a - b
    diff += empty if diff > 0 else -empty if diff < 0 else 0
    black_diff = diff * sign  # ``me`` is the side with ``sign`` after the last switch
    return [(feats, discs, black_diff * s) for feats, discs, s in records]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col]:
                factor = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def fit(samples: list[tuple[tuple[int, ...], int]]) -> tuple[list[float], float]:
    """Ridge least squares (no intercept: the features are antisymmetric in the two sides) of
    label on features; returns (weights, R²)."""
    n = len(rs.FEATURES)
    xtx = [[0.0] * n for _ in range(n)]
    xty = [0.0] * n
    for feats, label in samples:
        for i in range(n):
            fi = feats[i]
            if fi:
                xty[i] += fi * label
                row = xtx[i]
                for j in range(n):
                    row[j] += fi * feats[j]
    for i in range(n):
        xtx[i][i] += RIDGE
    w = solve(xtx, xty)
    mean = sum(label for _, label in samples) / len(samples)
    ss_tot = sum((label - mean) ** 2 for _, label in samples) or 1.0
    ss_res = sum((label - sum(a * b for a, b in zip(w, feats))) ** 2 for feats, label in samples)
    return w, 1 - ss_res / ss_tot


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--depth", type=int, default=2, help="search depth of the self-play moves (plies)")
    parser.add_argument("--random-plies", type=int, default=10, help="random moves at the start of a game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    phases: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in rs.PHASE_BOUNDS]
    t0 = time.perf_counter()
    for g in range(args.games):
        for feats, discs, label in self_play(rng, args.depth, args.random_plies):
            phases[rs.PHASE_OF[discs]].append((feats, label))
        if (g + 1) % 100 == 0:
            print(f"  {g + 1} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    print(f"# {args.games} self-play games, depth {args.depth}, {args.random_plies} random plies, "
          f"seed {args.seed}; features: {', '.join(rs.FEATURES)}")
    print("WEIGHTS = (")
    for k, samples in enumerate(phases):
        w, r2 = fit(samples)
        print(f"    ({', '.join(f'{x:.2f}' for x in w)}),  # phase {k}: {len(samples)} positions, R2 {r2:.2f}")
    print(")")


if __name__ == "__main__":
    main()
