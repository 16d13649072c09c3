"""Positions for the pattern evaluation of Reversi Hard, scored by a strong judge.

Usage (from the repository root; Egaroucid built as docs/strength.md says)::

    nice -n 19 .venv/bin/python bench/reversi_pattern_data.py --level 10 --games 400 --seed 1 \\
        --out ~/caro-gate/reversi-tune/positions-1.txt

Plays ``--games`` games in which Egaroucid's web edition (through
bench/public_engines/egaroucid_cli.cpp, book off) at ``--level`` scores every position it sees:
the driver answers a move and the final disc difference it expects for the side to move. The
game goes on with that move, or with a random legal move (probability ``--random`` after the first
``--random-plies`` plies, which are all random), so the positions spread around good play the way
the positions inside our own search do. One line per position::

    <side to move's discs, 16 hex digits> <the other side's discs> <Egaroucid's value, discs>

(bit ``row * 8 + col``, a1 = bit 0, row 1 at the top, as caro.engine.reversi). Appends to
``--out``, so runs with other seeds add to one file. bench/reversi_pattern_fit.py fits the tables
on these files. Not part of the test suite; nothing of Egaroucid's is committed, only its answers
about positions we chose are used as labels.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from caro.engine.reversi import flips_bits, legal_bits  # noqa: E402

START_ME, START_OPP = 0x0000000810000000, 0x0000001008000000  # Black: d5 e4; White: d4 e5
ENGINES_DIR = Path(os.environ.get("PUBLIC_ENGINES_DIR", Path.home() / "caro-engines"))
EGAROUCID_DEFAULT = ENGINES_DIR / "egaroucid" / "egaroucid_cli"


def cells(me: int, opp: int) -> str:
    """The driver's 64-character position, the side to move as 'X'."""
    return "".join("X" if me >> i & 1 else "O" if opp >> i & 1 else "." for i in range(64))


class Judge:
    """Egaroucid's line driver: `ask(me, opp)` -> (square index, value in discs)."""

    def __init__(self, binary: Path, level: int) -> None:
        self.proc = subprocess.Popen([str(binary), str(level)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        while not self.proc.stdout.readline().startswith("ready"):
            pass

    def ask(self, me: int, opp: int) -> tuple[int, int]:
        self.proc.stdin.write(cells(me, opp) + " X\n")
        reply = self.proc.stdout.readline().split()
        name, value = reply[0], int(reply[1])
        return (ord(name[0]) - 97) + 8 * (int(name[1:]) - 1), value

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def game(judge: Judge, rng: random.Random, random_plies: int, p_random: float) -> list[tuple[int, int, int]]:
    me, opp = START_ME, START_OPP
    rows = []
    ply = 0
    while True:
        legal = legal_bits(me, opp)
        if not legal:
            if not legal_bits(opp, me):
                return rows
            me, opp = opp, me
            continue
        sq, value = judge.ask(me, opp)
        rows.append((me, opp, value))
        if ply < random_plies or rng.random() < p_random:
            sq = rng.choice([i for i in range(64) if legal >> i & 1])
        f = flips_bits(me, opp, sq)
        me, opp = opp & ~f, me | f | (1 << sq)
        ply += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, default=10)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--random", type=float, default=0.15, help="chance of a random move after the first plies")
    parser.add_argument("--egaroucid", type=Path, default=Path(os.environ.get("EGAROUCID", EGAROUCID_DEFAULT)))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    judge = Judge(args.egaroucid, args.level)
    t0 = time.time()
    n = 0
    with args.out.open("a") as out:
        for g in range(args.games):
            rows = game(judge, rng, rng.randint(0, args.random_plies), args.random)
            out.write("".join(f"{me:016x} {opp:016x} {v}\n" for me, opp, v in rows))
            out.flush()
            n += len(rows)
            if g % 20 == 19:
                print(f"{g + 1} games, {n} positions, {time.time() - t0:.0f} s", flush=True)
    judge.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
