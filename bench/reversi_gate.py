"""Strength gate of the browser computer, Reversi: the JavaScript Hard (static/js/computer/reversi/cli.js
under Node) against today's Python Hard (bench.pybots ReversiHard), each on its own CPU clock at the
same budget per move. Target (issue 26): the JavaScript Hard scores at least 45 % over 48 games.

Usage (from the repository root)::

    nice -n 19 python bench/reversi_gate.py --results /path/reversi.jsonl   # 24 openings x 2 colours, 1000 ms
    python bench/reversi_gate.py --results /path/reversi.jsonl --report     # the score so far, from the file
    nice -n 10 python bench/reversi_gate.py --openings 4 --jobs 2 --budget 300   # a quick look, no file

The openings are bench/match.py's REVERSI_OPENINGS (short balanced move strings); each is played
twice, the JavaScript Hard once with each colour. The Python engine referees every move (a move it
refuses loses the game for the side that made it, and is printed). The Python Hard's clock is this
process's CPU time (``time.perf_counter`` replaced by ``time.process_time``, as ``bench/match.py
--cpu-clock`` does; its compiled search reads the clock through ``bench.pybots.nbclock``); the
JavaScript Hard's is its Node process's CPU time (``cpu-clock on``). With ``--jobs N`` N games run
at once, each in its own pair of processes.

**Resumable**: with ``--results FILE`` every finished game is appended to FILE as one JSON line
(and flushed to disk) under the key ``opening|js-black or js-white|settings`` (settings: budget, both
levels, the clock), with its moves, result and each move's CPU time, depth and solve from both
sides. A later run with the same FILE and settings skips the games already there, so a match
stopped at any point (a killed process, a reboot) goes on where it stopped; a game cut off in the
middle is played again from its opening. ``--report`` prints, from FILE alone: the score with a
95 % interval and Elo per settings, each side's CPU time per move (mean, p95, max), the depth each
side reached in the midgame, solved moves, as black / as white, and the games still to play.

Prints every game, then the same report, and the load average. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.match import REVERSI_OPENINGS, summarize  # noqa: E402
from bench.strength_gate import append_result as _append_result  # noqa: E402
from bench.strength_gate import load_results as _load_results  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "static", "js", "computer", "reversi", "cli.js")
JS, PY = "js-hard", "py-hard"
TARGET = 0.45  # the JavaScript Hard's score the gate asks for (issue 26)
GAMES = 48  # the gate's games: 24 openings x 2 colours (issue 26)


def settings_text(budget_ms: int) -> str:
    """The settings part of a game's key: what must match for two games to count in one score."""
    return f"budget={budget_ms}ms js=hard py=hard clock=cpu"


def game_key(opening: str, js_black: bool, budget_ms: int) -> str:
    """A game's key in the results file: opening, the JavaScript Hard's colour, the settings."""
    return f"{opening}|{'js-black' if js_black else 'js-white'}|{settings_text(budget_ms)}"


def load_results(path: str | None) -> list[dict]:
    """The games in a results file, in file order (none without a file or if it does not exist); a
    line that is not a whole JSON object (a write cut off by a kill) is skipped with a warning
    (bench/strength_gate.py's reader, which the caro gates use)."""
    return _load_results(Path(path)) if path else []


def append_result(path: str, game: dict) -> None:
    """Append one game as one JSON line and flush it to disk (bench/strength_gate.py's writer)."""
    _append_result(Path(path), game)


def pending_jobs(openings: list[str], budget_ms: int, games: list[dict]) -> list[tuple[str, bool, int]]:
    """The games still to play: (opening, JS plays black?, budget ms) for each opening and colour
    whose key is not among the recorded ``games``."""
    done = {g["key"] for g in games}
    return [(opening, js_black, budget_ms) for opening in openings for js_black in (True, False)
            if game_key(opening, js_black, budget_ms) not in done]


def _commit() -> str:
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


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

    def choose(self, moves: list[str]) -> tuple[str, dict]:
        """(move, facts) for the position after ``moves``; facts as cli.js's info (cpu_ms, depth...)."""
        reply = self.ask("moves " + "".join(moves))
        if reply.startswith("error"):
            raise RuntimeError(f"cli.js: {reply} after {''.join(moves)}")
        move, *rest = reply.split()
        return move, dict(zip(rest[::2], rest[1::2]))

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
        from bench.pybots import warm_up
        from bench.pybots.reversi_bots import ReversiHard

        warm_up()
        _PY_BOT = ReversiHard()
    return _PY_BOT


def play_game(job) -> dict:
    """One game: (opening, JS plays black?, budget ms) -> the game's record (see the module's doc).
    Each move of a side is [ply, CPU ms, midgame depth, solve ("exact", "wld" or "-"), nodes]."""
    from caro.engine import reversi
    from caro.engine.errors import IllegalMove

    opening, js_black, budget_ms = job
    started = time.time()
    bot = _python_bot()
    js = JsPlayer(budget_ms)
    board = reversi.Board.from_moves(opening)
    moves = list(board.moves)
    log = {JS: [], PY: []}
    js_colour = reversi.BLACK if js_black else reversi.WHITE
    forfeit = None
    try:
        while board.outcome is None:
            ply = len(moves)
            if board.turn == js_colour:
                move, facts = js.choose(moves)
                log[JS].append([ply, int(facts["cpu_ms"]), int(facts.get("depth", 0)), facts.get("solved", "-"),
                                int(facts.get("nodes", 0))])
                side = JS
            else:
                t0 = time.process_time()
                move = bot.choose(board, budget_ms=budget_ms)
                info = bot.last_info
                log[PY].append([ply, round(1000 * (time.process_time() - t0)), int(info.get("depth", 0)),
                                info.get("solved") or "-", int(info.get("nodes", 0))])
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
        js_score = 0.5 if out.winner is None else (1.0 if out.winner == js_colour else 0.0)
        detail = f"{out.black}-{out.white}"
    return {"key": game_key(opening, js_black, budget_ms), "settings": settings_text(budget_ms),
            "opening": opening, "js_black": js_black, "score": js_score, "detail": detail,
            "moves": "".join(moves), "js": log[JS], "py": log[PY], "commit": _commit(),
            "started": round(started), "wall_s": round(time.time() - started, 1),
            "load": round(os.getloadavg()[0], 2)}


def _play_or_none(job):
    try:
        return play_game(job)
    except Exception:  # noqa: BLE001 - one broken game must not end a long match; it is played again
        print(f"game {job} failed, not recorded:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
        return None


def print_game(r: dict) -> None:
    print(f"  {r['opening']:<16} {JS} as {'black' if r['js_black'] else 'white'}: {r['detail']:<8} "
          f"-> {r['score']:g}  (solved moves js {sum(m[3] != '-' for m in r['js'])}, "
          f"py {sum(m[3] != '-' for m in r['py'])}; {r['wall_s']:.0f} s, load {r['load']:.1f})", flush=True)


def _depths(games: list[dict], side: str) -> str:
    """Mean midgame depth of a side's unsolved moves, by phase (plies < 20, 20-39, 40+)."""
    parts = []
    for lo, hi in ((0, 20), (20, 40), (40, 64)):
        d = [m[2] for g in games for m in g[side] if lo <= m[0] < hi and m[3] == "-" and m[2]]
        parts.append(f"plies {lo}-{hi - 1}: {statistics.fmean(d):.1f}" if d else f"plies {lo}-{hi - 1}: -")
    return ", ".join(parts)


def _solved_from(games: list[dict], side: str) -> str:
    """The most empties at which a side's move was an exact / win-draw-loss solve."""
    out = []
    for kind in ("exact", "wld"):
        e = [64 - 4 - m[0] for g in games for m in g[side] if m[3] == kind]
        out.append(f"{kind} from {max(e)} empties ({len(e)} moves)" if e else f"{kind}: none")
    return ", ".join(out)


def report(games: list[dict], expected: int = GAMES) -> None:
    """Score, 95 % interval, Elo, move times, depths and solves per settings, from the records."""
    by_settings: dict[str, dict[str, dict]] = {}
    for g in games:
        by_settings.setdefault(g["settings"], {})[g["key"]] = g  # a key twice: the last one counts
    if not by_settings:
        print("no games recorded yet")
        return
    for settings, keyed in by_settings.items():
        done = list(keyed.values())
        scores = [g["score"] for g in done]
        print(f"\n== {JS} vs {PY}, {settings}: {len(done)} of {expected} games "
              f"(commits {', '.join(sorted({g.get('commit', '?')[:10] for g in done}))})")
        times = {JS: [m[1] / 1000 for g in done for m in g["js"]], PY: [m[1] / 1000 for g in done for m in g["py"]]}
        summarize(JS, PY, scores, times)
        print("(move times above are CPU ms on each side's own clock)")
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.pstdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
        verdict = "met" if mean >= TARGET else "NOT met"
        print(f"{JS} score {100 * mean:.1f} % (95 % interval {100 * max(mean - half, 0):.1f} .. "
              f"{100 * min(mean + half, 1):.1f} %); target {100 * TARGET:.0f} %: {verdict}"
              f"{'' if len(done) >= expected else ' so far'}")
        black = [g["score"] for g in done if g["js_black"]]
        white = [g["score"] for g in done if not g["js_black"]]
        print(f"{JS} as black {sum(black):g}/{len(black)}, as white {sum(white):g}/{len(white)}")
        for side, name in ((JS, "js"), (PY, "py")):
            print(f"{side} midgame depth {_depths(done, name)}; {_solved_from(done, name)}")
        nodes = {}
        for name in ("js", "py"):
            moves = [m for g in done for m in g[name] if m[1] >= 200]
            nodes[name] = sum(m[4] for m in moves) / max(1, sum(m[1] for m in moves)) / 1000
        print(f"nodes per CPU second on moves of 200 ms and more: js {nodes['js']:.2f}M, py {nodes['py']:.2f}M")
        walls = [g["wall_s"] for g in done]
        print(f"{statistics.fmean(walls) / 60:.1f} min a game; load average while playing "
              f"{statistics.fmean(g['load'] for g in done):.1f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=24, help="openings (each played with both colours)")
    parser.add_argument("--start", type=int, default=0, help="skip this many openings first")
    parser.add_argument("--budget", type=int, default=1000, help="per-move budget in ms (CPU time)")
    parser.add_argument("--jobs", type=int, default=1, help="games at once")
    parser.add_argument("--results", default=None,
                        help="JSON-lines file: each finished game is appended; games already there are skipped")
    parser.add_argument("--report", action="store_true", help="print the report from --results and stop")
    args = parser.parse_args(argv)
    openings = REVERSI_OPENINGS[args.start:args.start + args.openings]
    expected = 2 * len(openings)
    if args.report:
        if not args.results:
            parser.error("--report needs --results FILE")
        report(load_results(args.results), expected)
        return
    jobs = pending_jobs(openings, args.budget, load_results(args.results))
    print(f"reversi gate: {JS} (cli.js, CPU clock) vs {PY} (bench.pybots ReversiHard, CPU clock), "
          f"{len(openings)} openings x 2 colours, budget {args.budget} ms, {args.jobs} at once; "
          f"{expected - len(jobs)} games already in {args.results}, {len(jobs)} to play; commit {_commit()[:10]}; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    new = []
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for r in (pool.imap_unordered(_play_or_none, jobs) if pool else map(_play_or_none, jobs)):
            if r is not None:
                if args.results:
                    append_result(args.results, r)
                new.append(r)
                print_game(r)
    finally:
        if pool:
            pool.terminate()
    report(load_results(args.results) if args.results else new, expected)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
