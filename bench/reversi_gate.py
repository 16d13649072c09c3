"""Strength gate of the browser computer, Reversi: the JavaScript Hard (static/js/computer/reversi/cli.js
under Node) against today's Python Hard (caro.bots ReversiHard), each on its own CPU clock at the
same budget per move. Target (issue 26): the JavaScript Hard scores at least 45 %.

Usage (from the repository root)::

    nice -n 10 python bench/reversi_gate.py                  # 24 openings x 2 colours = 48 games, 1000 ms
    nice -n 10 python bench/reversi_gate.py --openings 4 --jobs 2 --budget 300

The openings are bench/match.py's REVERSI_OPENINGS (short balanced move strings); each is played
twice, the JavaScript Hard once with each colour. The Python engine referees every move (a move it
refuses loses the game for the side that made it, and is printed). The Python Hard's clock is this
process's CPU time (``time.perf_counter`` replaced by ``time.process_time``, as ``bench/match.py
--cpu-clock`` does); the JavaScript Hard's is its Node process's CPU time (``cpu-clock on``). With
``--jobs N`` N games run at once, each in its own pair of processes. Prints every game, then the
score with a 95 % interval and Elo (bench/match.py's summary), each side's CPU time per move
(mean, p95, max, from the side's own clock) and the load average. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.match import REVERSI_OPENINGS, summarize  # noqa: E402
from caro.engine import reversi  # noqa: E402
from caro.engine.errors import IllegalMove  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "static", "js", "computer", "reversi", "cli.js")
JS, PY = "js-hard", "py-hard"


class JsPlayer:
    """The JavaScript Hard in a Node process (cli.js's line protocol)."""

    def __init__(self, budget_ms: int) -> None:
        self.proc = subprocess.Popen(["node", CLI, "--level", "hard", "--budget", str(budget_ms), "--cpu-clock"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.ask("info on") == "ok"

    def ask(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().strip()
        if not reply:
            raise RuntimeError(f"cli.js ended without answering {line!r}")
        return reply

    def choose(self, moves: list[str]) -> tuple[str, float, dict]:
        """(move, CPU seconds, facts) for the position after ``moves``."""
        reply = self.ask("moves " + "".join(moves))
        if reply.startswith("error"):
            raise RuntimeError(f"cli.js: {reply} after {''.join(moves)}")
        move, *rest = reply.split()
        facts = dict(zip(rest[::2], rest[1::2]))
        return move, int(facts["cpu_ms"]) / 1000, facts

    def close(self) -> None:
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.wait(timeout=10)


_PY_BOT = None


def _python_bot():
    global _PY_BOT
    if _PY_BOT is None:
        time.perf_counter = time.process_time  # the bot's clock is this process's CPU time
        from caro.bots import warm_up
        from caro.bots.reversi_bots import ReversiHard

        warm_up()
        _PY_BOT = ReversiHard()
    return _PY_BOT


def play_game(job):
    """One game: (opening index, opening, JS plays black?, budget ms) -> result dict."""
    k, opening, js_black, budget_ms = job
    bot = _python_bot()
    js = JsPlayer(budget_ms)
    board = reversi.Board.from_moves(opening)
    moves = list(board.moves)
    times = {JS: [], PY: []}
    solved = {JS: 0, PY: 0}
    js_colour = reversi.BLACK if js_black else reversi.WHITE
    forfeit = None
    try:
        while board.outcome is None:
            if board.turn == js_colour:
                move, cpu_s, facts = js.choose(moves)
                times[JS].append(cpu_s)
                solved[JS] += facts.get("solved", "-") != "-"
                side = JS
            else:
                t0 = time.process_time()
                move = bot.choose(board, budget_ms=budget_ms)
                times[PY].append(time.process_time() - t0)
                solved[PY] += bool(bot.last_info.get("solved"))
                side = PY
            try:
                board.play(move)
            except IllegalMove as error:
                forfeit = (side, move, str(error))
                break
            moves.append(move)
    finally:
        js.close()
    if forfeit:
        js_score = 0.0 if forfeit[0] == JS else 1.0
        detail = f"{forfeit[0]} played illegal {forfeit[1]} ({forfeit[2]}) after {''.join(moves)}"
    else:
        out = board.outcome
        winner = out.winner
        js_score = 0.5 if winner is None else (1.0 if winner == js_colour else 0.0)
        detail = f"{out.black}-{out.white}"
    return {"k": k, "opening": opening, "js_black": js_black, "score": js_score, "detail": detail,
            "times": times, "solved": solved, "moves": "".join(moves)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=24, help="openings (each played with both colours)")
    parser.add_argument("--start", type=int, default=0, help="skip this many openings first")
    parser.add_argument("--budget", type=int, default=1000, help="per-move budget in ms (CPU time)")
    parser.add_argument("--jobs", type=int, default=1, help="games at once")
    args = parser.parse_args(argv)
    openings = REVERSI_OPENINGS[args.start:args.start + args.openings]
    jobs = [(args.start + k, opening, js_black, args.budget)
            for k, opening in enumerate(openings) for js_black in (True, False)]
    print(f"reversi gate: {JS} (cli.js, CPU clock) vs {PY} (caro.bots ReversiHard, CPU clock), "
          f"{len(openings)} openings x 2 colours, budget {args.budget} ms, {args.jobs} at once, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    t0 = time.time()
    results, times = [], {JS: [], PY: []}
    with multiprocessing.Pool(args.jobs, maxtasksperchild=None) as pool:
        for r in pool.imap(play_game, jobs):
            results.append(r)
            for side in (JS, PY):
                times[side].extend(r["times"][side])
            print(f"  {r['opening']:<16} {JS} as {'black' if r['js_black'] else 'white'}: {r['detail']:<8} "
                  f"-> {r['score']:g}  (solved moves js {r['solved'][JS]}, py {r['solved'][PY]})", flush=True)
    summarize(JS, PY, [r["score"] for r in results], times)
    print("(move times above are CPU ms on each side's own clock)")
    black = [r["score"] for r in results if r["js_black"]]
    white = [r["score"] for r in results if not r["js_black"]]
    print(f"{JS} as black {sum(black):g}/{len(black)}, as white {sum(white):g}/{len(white)}; "
          f"{(time.time() - t0) / 60:.0f} min; load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
