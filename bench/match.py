"""Bot match runner: level against level over fixed openings, each played twice with colours swapped.

Usage (from the repository root)::

    python bench/match.py --game caro --preset caro-vn --a hard --b medium --openings 12
    python bench/match.py --preset freestyle --a hard --b hard_v1 --opening-set all --openings 24
    python bench/match.py --preset exact --a hard --b hard_v1 --opening-set all --openings 24 --cpu-clock
    python bench/match.py --game reversi --a medium --b easy --openings 8 --budget 1000
    python bench/match.py --procedure swap2 --a hard --b medium --openings 20 --budget 300
    python bench/match.py --procedure rif --a hard --b medium --openings 20 --budget 300

With ``--procedure`` the games follow an opening procedure (Swap2 on the "swap2" preset, RIF on
"renju-rif"): each opening's first three stones are given (as tournaments give openings) and are
placed for the first seat; every later step (Swap2: choose a colour or place two more and hand the
choice back; RIF: swap or keep, move 4, offering two 5th moves, selecting one) is the bots' own
(``bench.pybots.choose_opening_action``). Each opening is played twice, ``--a`` in each seat; the
score counts the colour each level ended up with.

``hard_v1`` is the caro Hard of before issue 16, kept as a benchmark level (not offered to
players). Prints every game, then the score of ``--a`` against ``--b`` (wins + half draws), the Elo
difference with a 95 % interval (normal approximation on per-game scores), and per-move thinking
time per level (mean, p95, max, in ms). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from caro.engine import reversi  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402
from caro.engine.coords import parse_square, square_name  # noqa: E402
from caro.engine.openings import FIRST, OPENINGS  # noqa: E402

# Four-stone openings around the centre of 15x15 (X, O, X, O: equal material, X to move), each
# O stone answering the X pair; each is played twice with colours swapped. The default set.
CARO_OPENINGS_4 = [
    ("H8", "I9", "I8", "G8"), ("H8", "I8", "H9", "H7"), ("H8", "I9", "G9", "G7"), ("H8", "I8", "I9", "G7"),
    ("H8", "G9", "I9", "H10"), ("H8", "I7", "H9", "H10"), ("H8", "H9", "I8", "G8"), ("H8", "I9", "H7", "H6"),
    ("H8", "I8", "G9", "F10"), ("H8", "G8", "I9", "J10"), ("H8", "I9", "J8", "G8"), ("H8", "H7", "I9", "G7"),
    ("H8", "I9", "G7", "F6"), ("H8", "I8", "H10", "H9"), ("H8", "G7", "I9", "J10"), ("H8", "I9", "I7", "J6"),
]
# Three-stone openings (X, O, X: X is a stone up, O to move); --opening-set three.
CARO_OPENINGS = [
    ("H8", "I9", "G9"), ("H8", "I9", "J8"), ("H8", "I8", "G9"), ("H8", "I8", "H10"),
    ("H8", "I9", "H10"), ("H8", "I8", "J10"), ("H8", "G9", "G7"), ("H8", "I7", "I9"),
    ("H8", "I9", "I7"), ("H8", "H9", "J9"), ("H8", "I8", "I10"), ("H8", "I9", "F8"),
    ("H8", "I9", "J10"), ("H8", "I8", "G7"), ("H8", "G7", "I7"), ("H8", "I9", "G7"),
]
# Short, even Reversi openings (move strings as in caro.engine.reversi.Board.from_moves).
REVERSI_OPENINGS = [
    "f5d6c3d3c4", "f5d6c5f4e3", "f5f6e6f4", "f5d6c4d3c3", "f5f4e3f6d3", "f5d6c3d3c4f4",
    "f5f6e6d6", "f5d6c5f4e7", "f5f4e3d6", "f5d6c6", "f5d6c4g5", "f5f6e6f4g5", "f5d6c3g5",
    "f5f4e3f6e6", "f5f6d3", "f5d6c5f4d3",
    "f5d6c3d3c4f4f6", "f5f6e6f4e3", "f5d6c5f4e3c6", "f5f4e3f6d3c5", "f5d6c4d3c5", "f5f6e6f4g6",
    "f5d6c3d3e3", "f5f4d3",
]



def _canonical(stones: tuple[str, ...], size: int = 15) -> tuple:
    """The smallest image of an ordered stone list under the board's 8 symmetries."""
    m = size - 1
    maps = [lambda c, r: (c, r), lambda c, r: (m - r, c), lambda c, r: (m - c, m - r), lambda c, r: (r, m - c),
            lambda c, r: (m - c, r), lambda c, r: (c, m - r), lambda c, r: (r, c), lambda c, r: (m - r, m - c)]
    return min(tuple(t(*parse_square(s, size)) for s in stones) for t in maps)


def rif_openings() -> list[tuple[str, str, str]]:
    """The RIF openings (move 1 on H8, move 2 in the central 3×3, move 3 in the central 5×5), one
    per class of symmetric ones: the 26 direct and indirect openings of the RIF rules."""
    seen, out = set(), []
    for second in ("H7", "I7"):
        for r in range(5, 10):
            for c in range(5, 10):
                third = square_name(c, r)
                if third in ("H8", second):
                    continue
                key = _canonical(("H8", second, third))
                if key not in seen:
                    seen.add(key)
                    out.append(("H8", second, third))
    return out


# Swap2 openings (X, O, X) for the first seat: spread three-stone shapes around the centre.
SWAP2_GIVEN = [
    ("H8", "J10", "G10"), ("H8", "K8", "H10"), ("H8", "J7", "F9"), ("H8", "G11", "J9"), ("H8", "K10", "F8"),
    ("H8", "H11", "J9"), ("H8", "E9", "J10"), ("H8", "J11", "G9"), ("H8", "I10", "K8"), ("H8", "G10", "J11"),
    ("H8", "F10", "J9"), ("H8", "K9", "I11"), ("H8", "J6", "G10"), ("H8", "H10", "J11"), ("H8", "E8", "I10"),
    ("H8", "K11", "G9"), ("H8", "I11", "F9"), ("H8", "F7", "J10"), ("H8", "L8", "I10"), ("H8", "G12", "J9"),
]


def play_procedure(procedure, rules, given, first_level, second_level, budget_ms, seed, max_ply):
    """Play one game through an opening procedure: the given stones for the first seat, then the
    bots' opening steps, then the game. Returns (winner, detail, times, {seat: colour at the end})."""
    from bench.pybots import choose_move, choose_opening_action  # the bench extra (numpy, numba)

    machine = OPENINGS[procedure](rules)
    for square in given:
        machine.apply({"kind": "place", "square": square})
    rng = random.Random(seed)
    times: dict[str, list[float]] = {first_level: [], second_level: []}
    steps = []
    while not machine.finished:
        level = first_level if machine.actor == FIRST else second_level
        t0 = time.perf_counter()
        action = choose_opening_action(machine, level, budget_ms=budget_ms, rng=rng)
        times[level].append(time.perf_counter() - t0)
        machine.apply(action)
        steps.append(action["kind"] + ("" if "color" not in action else ":" + action["color"]))
    board = machine.board
    colour_level = {machine.colors[FIRST]: first_level, machine.colors["second"]: second_level}
    while board.outcome is None and board.ply < max_ply:
        level = colour_level[board.turn]
        t0 = time.perf_counter()
        move = choose_move(board, level, budget_ms=budget_ms, rng=rng)
        times[level].append(time.perf_counter() - t0)
        board.play(move)
    winner = board.outcome.winner if board.outcome else None
    detail = f"{board.ply} plies, opening {'/'.join(steps)}"
    return winner, detail, times, dict(machine.colors)


VERBOSE = False


def play_caro(rules, opening, x_level, o_level, budget_ms, seed, max_ply):
    """Play one caro game; returns (winner 'X'/'O'/None, plies, {level: [seconds per move]})."""
    from bench.pybots import choose_move  # the bench extra (numpy, numba)

    board = Board(rules)
    for square in opening:
        board.play(square)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {x_level: [], o_level: []}
    while board.outcome is None and board.ply < max_ply:
        level = x_level if board.turn == "X" else o_level
        t0 = time.perf_counter()
        move = choose_move(board, level, budget_ms=budget_ms, rng=rng)
        times[level].append(time.perf_counter() - t0)
        board.play(move)
    winner = board.outcome.winner if board.outcome else None
    return winner, f"{board.ply} plies: {' '.join(board.moves)}" if VERBOSE else board.ply, times


def play_reversi(opening, black_level, white_level, budget_ms, seed):
    """Play one Reversi game; returns (winner 'X' for black / 'O' for white / None, discs, times)."""
    from bench.pybots import choose_move  # the bench extra (numpy, numba)

    board = reversi.Board.from_moves(opening)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {black_level: [], white_level: []}
    while board.outcome is None:
        level = black_level if board.turn == reversi.BLACK else white_level
        t0 = time.perf_counter()
        move = choose_move(board, level, budget_ms=budget_ms, rng=rng)
        times[level].append(time.perf_counter() - t0)
        board.play(move)
    out = board.outcome
    winner = {reversi.BLACK: "X", reversi.WHITE: "O", None: None}[out.winner]
    return winner, f"{out.black}-{out.white}", times


def elo(score: float) -> float:
    """Elo difference for an expected score in (0, 1) (clamped to +-800)."""
    score = min(max(score, 1e-4), 1 - 1e-4)
    return max(-800.0, min(800.0, -400 * math.log10(1 / score - 1)))


def summarize(label_a, label_b, results, times):
    n = len(results)
    total = sum(results)
    mean = total / n
    sd = statistics.pstdev(results) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.5
    lo, hi = elo(mean - half), elo(mean + half)
    wins = sum(1 for r in results if r == 1)
    draws = sum(1 for r in results if r == 0.5)
    print(f"\n{label_a} vs {label_b}: {total:g}/{n} = {100 * mean:.1f}%  (+{wins} ={draws} -{n - wins - draws})")
    print(f"Elo difference: {elo(mean):+.0f}  (95% interval {lo:+.0f} .. {hi:+.0f})")
    print(f"{'level':<8} {'moves':>6} {'mean ms':>9} {'p95 ms':>8} {'max ms':>8}")
    for level, samples in times.items():
        if not samples:
            continue
        s = sorted(samples)
        p95 = s[min(len(s) - 1, int(math.ceil(0.95 * len(s))) - 1)]
        print(f"{level:<8} {len(s):>6} {1000 * statistics.fmean(s):>9.1f} {1000 * p95:>8.1f} {1000 * s[-1]:>8.1f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["caro", "reversi"], default="caro")
    parser.add_argument("--preset", default="caro-vn", choices=sorted(PRESETS))
    parser.add_argument("--a", default="hard", help="level under test")
    parser.add_argument("--b", default="medium", help="opponent level")
    parser.add_argument("--openings", type=int, default=8, help="number of openings (each played twice)")
    parser.add_argument("--start", type=int, default=0, help="caro/reversi: skip this many openings of the set first")
    parser.add_argument("--budget", type=int, default=1000, help="per-move budget in ms")
    parser.add_argument("--max-ply", type=int, default=225, help="caro: stop (draw) after this many plies")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print every caro game's moves")
    parser.add_argument("--opening-set", choices=["four", "three", "all"], default="four",
                        help="caro: four-stone (X, O, X, O), three-stone (X, O, X) openings, or all "
                             "(the 16 four-stone ones, then the 16 three-stone ones: up to 64 games)")
    parser.add_argument("--procedure", choices=["swap2", "rif"], default=None,
                        help="caro: play through this opening procedure (preset swap2 / renju-rif)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="the bots' clock is this process's CPU time (time.process_time): the "
                             "budgets and the printed move times are CPU ms, so a loaded machine "
                             "does not change the result")
    args = parser.parse_args(argv)
    if args.cpu_clock:
        time.perf_counter = time.process_time  # the bots read the clock through the time module
    if args.procedure:
        return main_procedure(args)
    global VERBOSE
    VERBOSE = args.verbose
    if args.a == args.b:
        parser.error("--a and --b must differ (times are kept per level)")

    from bench.pybots import warm_up  # the bench extra (numpy, numba)

    warm_up()  # as a worker process does when it starts (compiled functions loaded, tables filled)
    results: list[float] = []
    times: dict[str, list[float]] = {args.a: [], args.b: []}
    if args.game == "caro":
        openings = {"four": CARO_OPENINGS_4, "three": CARO_OPENINGS,
                    "all": CARO_OPENINGS_4 + CARO_OPENINGS}[args.opening_set]
    else:
        openings = REVERSI_OPENINGS
    rules = PRESETS[args.preset].rules
    print(f"{args.game} {args.preset + ' ' + args.opening_set + '-stone' if args.game == 'caro' else ''} "
          f"{args.a} vs {args.b}, "
          f"{args.openings} openings x 2 colours, budget {args.budget} ms"
          f"{' (CPU time)' if args.cpu_clock else ''}, load {os.getloadavg()[0]:.2f}")
    for k, opening in enumerate(openings[args.start:args.start + args.openings], start=args.start):
        for a_first in (True, False):
            first, second = (args.a, args.b) if a_first else (args.b, args.a)
            seed = args.seed * 1000 + 2 * k + (0 if a_first else 1)
            if args.game == "caro":
                winner, detail, t = play_caro(rules, opening, first, second, args.budget, seed, args.max_ply)
                name = " ".join(opening)
            else:
                winner, detail, t = play_reversi(opening, first, second, args.budget, seed)
                name = opening
            for level, samples in t.items():
                times[level].extend(samples)
            a_side = "X" if a_first else "O"
            score = 0.5 if winner is None else (1.0 if winner == a_side else 0.0)
            results.append(score)
            print(f"  {name:<22} {args.a} as {'first ' if a_first else 'second'}: "
                  f"winner {winner or 'draw':<4} ({detail}) -> {score:g}", flush=True)
    summarize(args.a, args.b, results, times)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


def main_procedure(args):
    """Games through an opening procedure (see the module docstring)."""
    preset = {"swap2": "swap2", "rif": "renju-rif"}[args.procedure]
    rules = PRESETS[preset].rules
    givens = SWAP2_GIVEN if args.procedure == "swap2" else rif_openings()
    results: list[float] = []
    times: dict[str, list[float]] = {args.a: [], args.b: []}
    print(f"caro {preset} through {args.procedure}: {args.a} vs {args.b}, {min(args.openings, len(givens))} "
          f"openings x 2 seats, budget {args.budget} ms, load {os.getloadavg()[0]:.2f}", flush=True)
    for k, given in enumerate(givens[:args.openings]):
        for a_first in (True, False):
            first, second = (args.a, args.b) if a_first else (args.b, args.a)
            seed = args.seed * 1000 + 2 * k + (0 if a_first else 1)
            winner, detail, t, colours = play_procedure(args.procedure, rules, given, first, second,
                                                        args.budget, seed, args.max_ply)
            for level, samples in t.items():
                times[level].extend(samples)
            a_side = colours[FIRST] if a_first else colours["second"]
            score = 0.5 if winner is None else (1.0 if winner == a_side else 0.0)
            results.append(score)
            print(f"  {' '.join(given):<12} {args.a} {'first ' if a_first else 'second'} seat, played {a_side}: "
                  f"winner {winner or 'draw':<4} ({detail}) -> {score:g}", flush=True)
    summarize(args.a, args.b, results, times)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
