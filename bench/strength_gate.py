"""Strength gate of the browser computer (issue 26): the JavaScript Hard against today's Python Hard.

Usage (from the repository root; hours of CPU: run it niced, in the background)::

    nice -n 10 .venv/bin/python bench/strength_gate.py                      # the three caro rule sets
    nice -n 10 .venv/bin/python bench/strength_gate.py --preset freestyle   # one rule set
    nice -n 10 .venv/bin/python bench/strength_gate.py --game reversi       # Reversi (see below)

Caro: the JS Hard runs as the Gomocup brain under Node, the command of ``python3 dev.py brain``
(``static/js/computer/brain.js --level hard --cpu-clock --preset SLUG``; one process a rule set,
kept across its games as a Gomocup manager keeps a brain), told ``INFO timeout_turn`` = the move
time. The Python Hard (``caro.bots``) runs in this process with this process's CPU time as its
clock (``time.perf_counter`` replaced by ``time.process_time``, as ``bench/match.py --cpu-clock``)
and the budget its own brain gives for that ``timeout_turn`` (80 %: each side plans to use 64 % of
the move time). So both think in CPU time and a loaded machine changes neither.

Games: ``--openings`` balanced openings (bench/match.py's four-stone X, O, X, O openings, then its
three-stone ones), each played twice with the colours swapped, in freestyle, exact five and caro
with blocked ends (``caro-vn``); a game with no five by ``--max-ply`` is a draw. Every move is
judged by the Python engine (an illegal move loses the game for its side, printed). Prints every
game, then per rule set the JS Hard's score with a 95 % interval (normal approximation on the
per-game scores, as bench/match.py), the Elo difference, and both sides' move times in CPU ms
(mean, p95, max; the JS side's as its brain measures them), the JS search's mean depth, and the
load average.

Reversi (``--game reversi``): the JS Reversi Hard through ``static/js/computer/reversi/cli.js`` (the
line protocol of the js-reversi branch, documented in its header: ``--cpu-clock``, ``--budget``,
``info on``, ``moves <squares>``) against the Python Reversi Hard, both given ``--move-ms`` a move
(each plans 70 % of it), over bench/match.py's Reversi openings with both colours; a game ends when
neither side can move. Until that file is on the branch the mode says so and stops.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from caro.bots import choose_move, warm_up  # noqa: E402
from caro.engine.caro import PRESETS, Board  # noqa: E402
from caro.engine.coords import parse_square, square_name  # noqa: E402
from caro.engine.errors import IllegalMove  # noqa: E402
from devstack.cli import brain_argv  # noqa: E402
from match import CARO_OPENINGS, CARO_OPENINGS_4, REVERSI_OPENINGS, elo  # noqa: E402
from caro.engine import reversi  # noqa: E402

CARO_PRESETS = ("freestyle", "exact-five", "caro-vn")
BRAIN_SHARE = 0.8  # caro/bots/brain.py and brain.js: the budget is 80 % of timeout_turn
REVERSI_CLI = ROOT / "static" / "js" / "computer" / "reversi" / "cli.js"
TARGET = 0.45  # the gate: the JS Hard scores at least this much in each rule set
VERBOSE = False  # --verbose: every game's moves


class JsProcess:
    """A JS computer as a subprocess under Node, spoken to one line at a time."""

    name = "the JS computer"
    quit = "quit"

    def __init__(self, args: list[str], script: Path | None = None) -> None:
        """Node running ``script`` (default the brain, as ``dev.py brain`` runs it) with ``args``."""
        argv = brain_argv(ROOT, args)
        if argv is None:
            raise SystemExit(f"node is not installed: {self.name} cannot run")
        if script is not None:
            argv[1] = str(script)
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def line(self) -> str:
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError(f"{self.name} stopped (exit {self.proc.poll()})")
        return reply.strip()

    def close(self) -> None:
        try:
            self.send(self.quit)
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class JsBrain(JsProcess):
    """The JS caro brain (``dev.py brain``), spoken to in the Gomocup protocol."""

    name = "the brain"
    quit = "END"

    def __init__(self, preset: str, timeout_turn_ms: int) -> None:
        super().__init__(["--level", "hard", "--cpu-clock", "--stats", "--preset", preset])
        self.timeout_turn = timeout_turn_ms
        self.first = True
        self.stats: dict[str, str] = {}

    def answer(self) -> str:
        """The next line that is not a MESSAGE (those are kept in :attr:`stats`)."""
        while True:
            line = self.line()
            if not line.startswith("MESSAGE "):
                return line
            self.stats = dict(kv.split("=", 1) for kv in line[8:].split() if "=" in kv)

    def new_game(self, board: Board) -> None:
        self.send(f"START {board.rules.size}")
        if self.answer() != "OK":
            raise RuntimeError("START refused")
        self.send(f"INFO timeout_turn {self.timeout_turn}")
        self.first = True

    def move(self, board: Board) -> tuple[str, dict[str, str]]:
        """The brain's move on ``board`` and its stats: the whole position (BOARD) on its first
        move of the game, the opponent's last move (TURN) after that."""
        if self.first:
            self.send("BOARD")
            me = board.turn
            for square, side in board.stones().items():
                c, r = parse_square(square, board.rules.size)
                self.send(f"{c},{r},{1 if side == me else 2}")
            self.send("DONE")
            self.first = False
        else:
            c, r = parse_square(board.moves[-1], board.rules.size)
            self.send(f"TURN {c},{r}")
        reply = self.answer()
        try:
            x, y = (int(v) for v in reply.split(","))
        except ValueError:
            raise RuntimeError(f"the brain answered {reply!r}") from None
        return square_name(x, y), self.stats


class JsReversi(JsProcess):
    """The JS Reversi computer, spoken to in the line protocol of
    ``static/js/computer/reversi/cli.js`` (one reply line per command line)."""

    name = "the Reversi CLI"

    def __init__(self, budget_ms: int) -> None:
        super().__init__(["--level", "hard", "--budget", str(budget_ms), "--cpu-clock"], REVERSI_CLI)
        self.send("info on")
        if self.line() != "ok":
            raise RuntimeError("the Reversi CLI refused `info on`")

    def new_game(self, board) -> None:
        """Nothing to do: every move sends the whole game."""

    def move(self, board) -> tuple[str, dict[str, str]]:
        """The computer's move on ``board`` and the facts of its reply (cpu_ms, depth, ...)."""
        self.send("moves " + "".join(board.moves))
        reply = self.line()
        if reply.startswith("error"):
            raise RuntimeError(f"the Reversi CLI answered {reply!r}")
        square, *facts = reply.split()
        return square, dict(zip(facts[::2], facts[1::2]))


def play(js: JsProcess, board, js_to_move, budget_ms: int, max_ply: int):
    """Play ``board`` out: the JS side moves when ``js_to_move(board)``, the Python Hard otherwise,
    every move judged by the Python engine (an illegal one loses the game for its side). Returns
    (the side that lost by an illegal move, its message, or None, None), and the JS CPU ms, the
    Python CPU ms and the JS depths of the moves."""
    js.new_game(board)
    js_ms, py_ms, depths = [], [], []
    while board.outcome is None and board.ply < max_ply:
        mine = js_to_move(board)
        if mine:
            move, stats = js.move(board)
            js_ms.append(float(stats.get("cpu_ms", "nan")))
            if str(stats.get("depth", "")).isdigit():
                depths.append(int(stats["depth"]))
        else:
            t0 = time.process_time()
            move = choose_move(board, "hard", budget_ms=budget_ms)
            py_ms.append(1000 * (time.process_time() - t0))
        try:
            board.play(move)
        except IllegalMove as exc:
            return ("JS" if mine else "Python", f"illegal move {move}: {exc}"), js_ms, py_ms, depths
    return (None, None), js_ms, py_ms, depths


def play_caro(brain: JsBrain, rules, opening, js_side: str, budget_ms: int, max_ply: int):
    """One caro game. Returns (winner 'X'/'O'/None, detail, js CPU ms, py CPU ms, js depths)."""
    board = Board(rules)
    for square in opening:
        board.play(square)
    (illegal, why), js_ms, py_ms, depths = play(brain, board, lambda b: b.turn == js_side, budget_ms, max_ply)
    if illegal:
        loser = js_side if illegal == "JS" else ("O" if js_side == "X" else "X")
        return ("O" if loser == "X" else "X"), f"{illegal}: {why}", js_ms, py_ms, depths
    winner = board.outcome.winner if board.outcome else None
    detail = f"{board.ply} plies" + (f": {' '.join(board.moves)}" if VERBOSE else "")
    return winner, detail, js_ms, py_ms, depths


def play_reversi(js: JsReversi, opening: str, js_side: str, budget_ms: int):
    """One Reversi game (X is black). Returns (winner 'X'/'O'/None, detail, js CPU ms, py CPU ms,
    js depths)."""
    board = reversi.Board.from_moves(opening)
    colour = reversi.BLACK if js_side == "X" else reversi.WHITE
    (illegal, why), js_ms, py_ms, depths = play(js, board, lambda b: b.turn == colour, budget_ms, 10 ** 6)
    if illegal:
        loser = js_side if illegal == "JS" else ("O" if js_side == "X" else "X")
        return ("O" if loser == "X" else "X"), f"{illegal}: {why}", js_ms, py_ms, depths
    out = board.outcome
    winner = {reversi.BLACK: "X", reversi.WHITE: "O", None: None}[out.winner]
    detail = f"{out.black}-{out.white}" + (f": {''.join(board.moves)}" if VERBOSE else "")
    return winner, detail, js_ms, py_ms, depths


def interval(results: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the score and its 95 % interval (normal approximation, clamped to 0..1)."""
    n = len(results)
    mean = sum(results) / n
    half = 1.96 * statistics.pstdev(results) / math.sqrt(n) if n > 1 else 0.5
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def times_line(label: str, samples: list[float]) -> str:
    s = sorted(x for x in samples if not math.isnan(x))
    if not s:
        return f"  {label:<10} no moves"
    p95 = s[min(len(s) - 1, int(math.ceil(0.95 * len(s))) - 1)]
    return (f"  {label:<10} {len(s):>5} moves  mean {statistics.fmean(s):7.1f}  p95 {p95:7.1f}  "
            f"max {s[-1]:7.1f}  CPU ms")


def run_match(label: str, js: JsProcess, openings: list, start: int, play_one, colour_names=("X", "O")):
    """Every opening twice, the JS side first as X then as O: ``play_one(opening, js_side)`` ->
    (winner, detail, js ms, py ms, js depths). Prints each game and the report; returns (mean, low,
    high)."""
    results: list[float] = []
    js_all, py_all, depth_all = [], [], []
    names = dict(zip(("X", "O"), colour_names))
    try:
        for k, opening in enumerate(openings, start=start):
            name = opening if isinstance(opening, str) else " ".join(opening)
            for js_side in ("X", "O"):
                winner, detail, js_ms, py_ms, depths = play_one(opening, js_side)
                js_all += js_ms
                py_all += py_ms
                depth_all += depths
                score = 0.5 if winner is None else (1.0 if winner == js_side else 0.0)
                results.append(score)
                print(f"  {k:>2} {name:<16} JS as {names[js_side]}: winner {names.get(winner, 'draw'):<5} "
                      f"({detail}) -> {score:g}   [{sum(results):g}/{len(results)}]", flush=True)
    finally:
        js.close()
    return report(label, results, js_all, py_all, depth_all)


def report(label: str, results: list[float], js_all: list[float], py_all: list[float], depth_all: list[int]):
    """Print one match's score with its 95 % interval, Elo, both sides' move times and the JS
    search's depth; returns (mean, low, high)."""
    mean, lo, hi = interval(results)
    wins = results.count(1.0)
    draws = results.count(0.5)
    verdict = "meets" if mean >= TARGET else "BELOW"
    print(f"-- {label}: JS Hard {sum(results):g}/{len(results)} = {100 * mean:.1f} % "
          f"(95 % interval {100 * lo:.1f} .. {100 * hi:.1f} %; +{wins} ={draws} -{len(results) - wins - draws}), "
          f"Elo {elo(mean):+.0f} ({elo(lo):+.0f} .. {elo(hi):+.0f}); {verdict} the {100 * TARGET:.0f} % target")
    print(times_line("JS Hard", js_all))
    print(times_line("Py Hard", py_all))
    searched = [d for d in depth_all if d > 0]
    if searched:
        print(f"  JS search depth: mean {statistics.fmean(searched):.1f}, median "
              f"{statistics.median(searched)}, max {max(searched)} ({len(searched)} moves searched)")
    print(f"  load average: {os.getloadavg()[0]:.2f}", flush=True)
    return mean, lo, hi


def run_preset(slug: str, args) -> tuple[float, float, float]:
    rules = PRESETS[slug].rules
    budget_ms = int(args.move_ms * BRAIN_SHARE)
    openings = (CARO_OPENINGS_4 + CARO_OPENINGS)[args.start:args.start + args.openings]
    print(f"\n== {slug}: JS Hard (node brain) vs Python Hard, {len(openings)} openings x 2 colours, "
          f"{args.move_ms} ms a move (timeout_turn; each side's budget {budget_ms} ms, CPU clock), "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    brain = JsBrain(slug, args.move_ms)
    return run_match(slug, brain, openings, args.start,
                     lambda opening, side: play_caro(brain, rules, opening, side, budget_ms, args.max_ply))


def run_reversi(args) -> int:
    if not REVERSI_CLI.exists():
        print(f"{REVERSI_CLI.relative_to(ROOT)} is not on this branch yet: the Reversi mode plays the JS Reversi "
              "Hard through it (the js-reversi branch's line protocol) and runs once it is merged.")
        return 2
    openings = REVERSI_OPENINGS[args.start:args.start + args.openings]
    print(f"\n== reversi: JS Hard (reversi/cli.js) vs Python Hard, {len(openings)} openings x 2 colours, "
          f"{args.move_ms} ms a move each (CPU clock), load {os.getloadavg()[0]:.2f}", flush=True)
    js = JsReversi(args.move_ms)
    run_match("reversi", js, openings, args.start, lambda opening, side: play_reversi(js, opening, side, args.move_ms),
              ("black", "white"))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["caro", "reversi"], default="caro")
    parser.add_argument("--preset", action="append", choices=CARO_PRESETS,
                        help="caro rule set (repeatable; default: freestyle, exact-five and caro-vn)")
    parser.add_argument("--openings", type=int, default=24, help="openings, each played with both colours")
    parser.add_argument("--start", type=int, default=0, help="skip this many openings first")
    parser.add_argument("--move-ms", type=int, default=1000, help="time a move (Gomocup timeout_turn), ms")
    parser.add_argument("--max-ply", type=int, default=225, help="a game with no five by then is a draw")
    parser.add_argument("--verbose", action="store_true", help="print every game's moves")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    time.perf_counter = time.process_time  # the Python bots read their clock through time.perf_counter
    print(f"strength gate, load average {os.getloadavg()[0]:.2f}", flush=True)
    warm_up()  # as a worker process does when it starts (compiled functions loaded, tables filled)
    if args.game == "reversi":
        return run_reversi(args)
    summary = {slug: run_preset(slug, args) for slug in (args.preset or CARO_PRESETS)}
    print("\nsummary (JS Hard's score, 95 % interval):")
    for slug, (mean, lo, hi) in summary.items():
        print(f"  {slug:<11} {100 * mean:5.1f} %  ({100 * lo:.1f} .. {100 * hi:.1f} %)"
              f"{'' if mean >= TARGET else '  below target'}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
