"""Gomocup / Piskvork protocol front end for the caro bots.

    python -m bench.pybots.brain --level hard [--preset freestyle]

Reads one command per line on stdin and answers on stdout (flushed after every line):

* ``START n`` -> ``OK`` (n must be one of 11, 13, 15, 19; else ``ERROR ...``); ``RECTSTART w,h``
  -> OK only for a supported square; ``RESTART`` -> ``OK`` (empty board, same size).
* ``BEGIN`` -> the brain's first move ``x,y``; ``TURN x,y`` -> records the opponent's move and
  answers the brain's move; ``BOARD`` then lines ``x,y,field`` (1 = own stone, 2 = opponent's,
  3 = ignored) then ``DONE`` -> the brain's move; ``TAKEBACK x,y`` -> ``OK``.
* ``INFO key value``: ``timeout_turn`` (ms, the per-move budget; the brain uses 80 % of it),
  ``rule`` (bitmask: 1 = exactly five, 4 = Renju, 8 = caro: a five blocked at both ends by the
  opponent does not win; 2 = continuous game, ignored), others accepted and ignored. No reply.
* ``ABOUT`` -> ``name="...", version="...", author="...", country="..."``; ``END`` -> exit.
* anything else -> ``UNKNOWN ...``; bad arguments or an occupied square -> ``ERROR ...``.

Coordinates are 0-based ``x`` (column) and ``y`` (row, 0 at the top), i.e. square
``square_name(x, y)``. Which side is X (the first player, Black in Renju) follows from the game:
after ``BEGIN`` the brain is X; after ``BOARD`` it is X when both sides have as many stones.
"""

from __future__ import annotations

import argparse
import sys

from caro.engine.caro import PRESETS, SIZES, Board, Rules
from caro.engine.coords import parse_square, square_name

from . import LEVELS, get_bot, warm_up

ABOUT = 'name="caro-site bot", version="0.1", author="caro-site", country="VN"'


def rules_from_info(mask: int, size: int) -> Rules:
    """Map a Gomocup ``INFO rule`` bitmask to our :class:`Rules` on a ``size`` board.

    1 -> ``exact``; 4 -> Renju (``blocked="none"``); 8 -> caro (``blocked="opponent"``, the
    edge does not block); 0 -> freestyle (five or more, nothing blocks). Raises ValueError for a
    board size the engine does not support.
    """
    if mask & 4:
        return Rules(size=size, renju=True, blocked="none")
    return Rules(size=size, exact=bool(mask & 1), blocked="opponent" if mask & 8 else "none")


class Brain:
    """Protocol state machine; :meth:`handle` takes one input line and returns reply lines."""

    def __init__(self, level: str = "hard", rules: Rules | None = None) -> None:
        self.bot = get_bot("caro", level)
        self.rules = rules or PRESETS["freestyle"].rules
        self.rule_mask: int | None = None
        self.budget_ms = 1000
        self.moves: list[tuple[str, str]] = []  # (square, "me" | "opp") in order
        self.first: str | None = None  # who played first: "me" or "opp"
        self.board_lines: list[tuple[str, str]] | None = None
        self.done = False

    # -- helpers --------------------------------------------------------------------------------

    def _square(self, text: str) -> str:
        x, y = (int(v) for v in text.split(","))
        if not (0 <= x < self.rules.size and 0 <= y < self.rules.size):
            raise ValueError(f"coordinates off the board: {text}")
        return square_name(x, y)

    def _coords(self, square: str) -> str:
        col, row = parse_square(square, self.rules.size)
        return f"{col},{row}"

    def _think(self) -> str:
        first = self.first or "me"
        mine = [s for s, who in self.moves if who == "me"]
        theirs = [s for s, who in self.moves if who == "opp"]
        me_side = "X" if first == "me" else "O"
        x, o = (mine, theirs) if me_side == "X" else (theirs, mine)
        board = Board.from_stones(self.rules, x=x, o=o, to_move=me_side)
        square = self.bot.choose(board, budget_ms=self.budget_ms)
        self.moves.append((square, "me"))
        return self._coords(square)

    def _occupied(self, square: str) -> bool:
        return any(s == square for s, _ in self.moves)

    # -- protocol -------------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Process one input line; return the lines to print (possibly none)."""
        text = line.strip()
        if not text:
            return []
        if self.board_lines is not None:
            if text.upper() == "DONE":
                return self._board_done()
            try:
                x, y, field = (int(v) for v in text.split(","))
                square = self._square(f"{x},{y}")
            except ValueError as exc:
                return [f"ERROR bad BOARD line: {exc}"]
            if field in (1, 2):
                self.board_lines.append((square, "me" if field == 1 else "opp"))
            return []
        command, _, arg = text.partition(" ")
        command = command.upper()
        arg = arg.strip()
        try:
            return getattr(self, f"cmd_{command.lower()}")(arg) if hasattr(self, f"cmd_{command.lower()}") \
                else [f"UNKNOWN command {command}"]
        except ValueError as exc:
            return [f"ERROR {exc}"]

    def _new_game(self, size: int) -> list[str]:
        if size not in SIZES:
            return [f"ERROR unsupported size {size} (supported: {', '.join(map(str, SIZES))})"]
        mask = self.rule_mask
        self.rules = rules_from_info(mask, size) if mask is not None else Rules(
            **{**self.rules.to_dict(), "size": size})
        self.moves, self.first = [], None
        return ["OK"]

    def cmd_start(self, arg: str) -> list[str]:
        return self._new_game(int(arg))

    def cmd_rectstart(self, arg: str) -> list[str]:
        w, h = (int(v) for v in arg.split(","))
        if w != h:
            return ["ERROR only square boards are supported"]
        return self._new_game(w)

    def cmd_restart(self, arg: str) -> list[str]:
        self.moves, self.first = [], None
        return ["OK"]

    def cmd_begin(self, arg: str) -> list[str]:
        if self.moves:
            return ["ERROR BEGIN on a non-empty board"]
        self.first = "me"
        return [self._think()]

    def cmd_turn(self, arg: str) -> list[str]:
        square = self._square(arg)
        if self._occupied(square):
            return [f"ERROR {arg} is occupied"]
        if self.first is None:
            self.first = "opp"
        self.moves.append((square, "opp"))
        return [self._think()]

    def cmd_board(self, arg: str) -> list[str]:
        self.board_lines = []
        return []

    def _board_done(self) -> list[str]:
        lines, self.board_lines = self.board_lines or [], None
        mine = sum(1 for _, who in lines if who == "me")
        theirs = len(lines) - mine
        self.moves = list(lines)
        self.first = "me" if mine >= theirs else "opp"
        return [self._think()]

    def cmd_takeback(self, arg: str) -> list[str]:
        square = self._square(arg)
        for k in range(len(self.moves) - 1, -1, -1):
            if self.moves[k][0] == square:
                del self.moves[k]
                return ["OK"]
        return [f"ERROR no stone on {arg}"]

    def cmd_info(self, arg: str) -> list[str]:
        key, _, value = arg.partition(" ")
        key = key.lower()
        if key == "timeout_turn":
            ms = int(value)
            self.budget_ms = max(20, int(ms * 0.8)) if ms > 0 else 1000
        elif key == "rule":
            self.rule_mask = int(value)
            self.rules = rules_from_info(self.rule_mask, self.rules.size)
        return []

    def cmd_about(self, arg: str) -> list[str]:
        return [ABOUT]

    def cmd_end(self, arg: str) -> list[str]:
        self.done = True
        return []


def main(argv: list[str] | None = None) -> int:
    """Run the brain on stdin/stdout until ``END`` or end of input. Returns the exit status."""
    parser = argparse.ArgumentParser(description="Gomocup-protocol brain for the caro bots")
    parser.add_argument("--level", choices=LEVELS, default="hard")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="freestyle",
                        help="rules before any INFO rule (default: freestyle, Gomocup rule 0)")
    args = parser.parse_args(argv)
    brain = Brain(args.level, PRESETS[args.preset].rules)
    warm_up()  # compiled search functions loaded before the first timed command
    for line in sys.stdin:
        for reply in brain.handle(line):
            sys.stdout.write(reply + "\n")
        sys.stdout.flush()
        if brain.done:
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
