"""Strength gate of the browser computer (issue 26): the JavaScript Hard against today's Python Hard.

Resumable: every finished game is appended as one JSON line to a results file outside the
repository (``--results DIR``, default ``$CARO_GATE_DIR`` or ``~/caro-gate``: ``caro-<preset>.jsonl``,
``reversi-strength-gate.jsonl``). A game's key is the rule set, the opening's index, the colour the JS side had
and the settings (move time, ply limit, clock); a restart skips every game already in the file, so
a stopped gate goes on where it was with the same command. ``--report`` prints the scores from the
files alone (no game is played).

Usage (from the repository root; hours of CPU: one game at a time, nice 19, in the background).
Run it from a frozen checkout of a commit, so later edits of the working tree do not change a
running gate::

    git worktree add --detach ~/caro-gate/src-caro <commit>
    cd ~/caro-gate/src-caro && nohup setsid nice -n 19 <repo>/.venv/bin/python \
        bench/strength_gate.py --preset freestyle,exact-five,caro-vn >> ~/caro-gate/caro.log 2>&1 < /dev/null &
    .venv/bin/python bench/strength_gate.py --report                  # the scores so far, any time
    .venv/bin/python bench/strength_gate.py --game reversi            # Reversi (see below)

The same command resumes a stopped gate (a lock file beside each results file stops a second
gate from playing into it at the same time). Defaults: 24 openings x 2 colours = 48 games a rule
set, 1000 ms a move (Gomocup ``timeout_turn``), CPU clock on both sides.

Caro: the JS Hard runs as the Gomocup brain under Node, the command of ``python3 dev.py brain``
(``static/js/computer/brain.js --level hard --cpu-clock --preset SLUG``; one process a rule set,
kept across its games as a Gomocup manager keeps a brain), told ``INFO timeout_turn`` = the move
time. The Python Hard (``bench.pybots``) runs in this process with this process's CPU time as its
clock (``time.perf_counter`` replaced by ``time.process_time``, as ``bench/match.py --cpu-clock``)
and the budget its own brain gives for that ``timeout_turn`` (80 %: it plans to use 64 % of the move
time; the JS brain gives Hard the whole move time, and Hard plans 90 % of it, never past 92 %). So
both think in CPU time and a loaded machine changes neither.

Games: ``--openings`` balanced openings (bench/match.py's four-stone X, O, X, O openings, then its
three-stone ones), each played twice with the colours swapped, in freestyle, exact five and caro
with blocked ends (``caro-vn``), the rule sets taken in turn opening by opening (so every rule set
has a score early); a game with no five by ``--max-ply`` is a draw. Every move is judged by the
Python engine (an illegal move loses the game for its side, printed). A game whose JS process
stops is not recorded (the process is started again; a restart of the gate plays that game again).
Prints every game, then per rule set the JS Hard's score with a 95 % interval (normal approximation
on the per-game scores, as bench/match.py), the Elo difference, both sides' move times in CPU ms
(mean, p50, p95, max; the JS side's as its brain measures them), the JS search's depth and nodes,
and the commits the games were played with.

Against a previous JS Hard (``--against-js DIR``, issue 28's "vs the previous browser Hard" in
caro with blocked ends and Renju): the other side is the brain of a frozen copy of the browser code
(``DIR/static/js/computer/brain.js``, made with ``git archive <commit> static/js | tar -x -C DIR``),
run the same way (Gomocup, CPU clock, the same ``timeout_turn``); its move times are reported in the
"Py Hard" line. Use a results folder of its own (``--results``); every game records the frozen
copy's folder. Rule sets: also ``caro-exact``, ``caro-edge-open`` and ``renju`` (free opening,
Renju fouls for X).

Reversi (``--game reversi``): the JS Reversi Hard through ``static/js/computer/reversi/cli.js`` (the
line protocol of the js-reversi branch, documented in its header: ``--cpu-clock``, ``--budget``,
``info on``, ``moves <squares>``) against the Python Reversi Hard, both given ``--move-ms`` a move
(each plans 70 % of it), over bench/match.py's Reversi openings with both colours; a game ends when
neither side can move. Until that file is on the branch the mode says so and stops. The js-reversi
branch's own Reversi gate, with more Reversi detail, is ``bench/reversi_gate.py``.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import fcntl
import json
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

from caro.engine.caro import PRESETS, Board  # noqa: E402
from caro.engine.coords import parse_square, square_name  # noqa: E402
from caro.engine.errors import IllegalMove  # noqa: E402
from devstack.cli import brain_argv  # noqa: E402
from match import CARO_OPENINGS, CARO_OPENINGS_4, REVERSI_OPENINGS, elo  # noqa: E402
from caro.engine import reversi  # noqa: E402

CARO_PRESETS = ("freestyle", "exact-five", "caro-vn")
JS_VS_JS_PRESETS = CARO_PRESETS + ("caro-exact", "caro-edge-open", "renju")  # --against-js: free openings
BRAIN_SHARE = 0.8  # bench/pybots/brain.py: the Python Hard's budget is 80 % of timeout_turn
REVERSI_CLI = ROOT / "static" / "js" / "computer" / "reversi" / "cli.js"
TARGET = 0.45  # the gate: the JS Hard scores at least this much in each rule set
GAMES_PER_RULE_SET = 48  # the gate: 48 games in each rule set
DEFAULT_RESULTS_DIR = Path(os.environ.get("CARO_GATE_DIR", "~/caro-gate")).expanduser()
SETTINGS = ("game", "preset", "move_ms", "max_ply", "clock")  # with opening and js_side: a game's key
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

    def __init__(self, preset: str, timeout_turn_ms: int, script: Path | None = None) -> None:
        """``script``: another copy's brain.js (default this checkout's)."""
        super().__init__(["--level", "hard", "--cpu-clock", "--stats", "--preset", preset], script)
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


def play(js: JsProcess, board, js_to_move, budget_ms: int, max_ply: int, opponent: JsProcess | None = None) -> dict:
    """Play ``board`` out: the JS side moves when ``js_to_move(board)``, the Python Hard (or
    ``opponent``, another JS process, its CPU ms in ``py_ms``) otherwise,
    every move judged by the Python engine (an illegal one loses the game for its side). Returns
    ``{"illegal": "JS" | "Python" | None, "why": text, "js_ms": [CPU ms], "py_ms": [CPU ms],
    "depths": [plies], "nodes": [int]}`` (the JS side's per move; depth and nodes as its search
    reports them). Raises RuntimeError when the JS process stops or answers nonsense."""
    from bench.pybots import choose_move

    js.new_game(board)
    if opponent is not None:
        opponent.new_game(board)
    out = {"illegal": None, "why": "", "js_ms": [], "py_ms": [], "depths": [], "nodes": []}
    while board.outcome is None and board.ply < max_ply:
        mine = js_to_move(board)
        if mine:
            move, stats = js.move(board)
            out["js_ms"].append(round(float(stats.get("cpu_ms", "nan")), 1))
            for field, name in (("depths", "depth"), ("nodes", "nodes")):
                if str(stats.get(name, "")).isdigit():
                    out[field].append(int(stats[name]))
        elif opponent is not None:
            move, stats = opponent.move(board)
            out["py_ms"].append(round(float(stats.get("cpu_ms", "nan")), 1))
        else:
            t0 = time.process_time()
            move = choose_move(board, "hard", budget_ms=budget_ms)
            out["py_ms"].append(round(1000 * (time.process_time() - t0), 1))
        try:
            board.play(move)
        except IllegalMove as exc:
            out["illegal"], out["why"] = ("JS" if mine else "Python"), f"illegal move {move}: {exc}"
            break
    return out


def other(side: str) -> str:
    return "O" if side == "X" else "X"


def play_caro(brain: JsBrain, rules, opening, js_side: str, budget_ms: int, max_ply: int,
              opponent: JsBrain | None = None) -> dict:
    """One caro game: :func:`play`'s dict with ``winner`` ('X', 'O' or None), ``plies``, ``moves``
    (every square in order, the opening's included) and ``detail``."""
    board = Board(rules)
    for square in opening:
        board.play(square)
    game = play(brain, board, lambda b: b.turn == js_side, budget_ms, max_ply, opponent)
    if game["illegal"]:
        loser = js_side if game["illegal"] == "JS" else other(js_side)
        winner, detail = other(loser), f"{game['illegal']}: {game['why']}"
    else:
        winner = board.outcome.winner if board.outcome else None
        detail = f"{board.ply} plies"
    return {**game, "winner": winner, "plies": board.ply, "moves": list(board.moves), "detail": detail}


def play_reversi(js: JsReversi, opening: str, js_side: str, budget_ms: int) -> dict:
    """One Reversi game (X is black): as :func:`play_caro`, ``detail`` the disc count."""
    board = reversi.Board.from_moves(opening)
    colour = reversi.BLACK if js_side == "X" else reversi.WHITE
    game = play(js, board, lambda b: b.turn == colour, budget_ms, 10 ** 6)
    if game["illegal"]:
        loser = js_side if game["illegal"] == "JS" else other(js_side)
        winner, detail = other(loser), f"{game['illegal']}: {game['why']}"
    else:
        out = board.outcome
        winner = {reversi.BLACK: "X", reversi.WHITE: "O", None: None}[out.winner]
        detail = f"{out.black}-{out.white}"
    return {**game, "winner": winner, "plies": board.ply, "moves": list(board.moves), "detail": detail}


# -- the results file ---------------------------------------------------------------------------

def results_path(results_dir: Path, game: str, preset: str | None) -> Path:
    """``<dir>/caro-<preset>.jsonl`` or ``<dir>/reversi-strength-gate.jsonl`` (not ``reversi.jsonl``:
    that name is bench/reversi_gate.py's usual file, whose lines have another form)."""
    return results_dir / (f"caro-{preset}.jsonl" if game == "caro" else "reversi-strength-gate.jsonl")


def game_key(record: dict) -> tuple:
    """What makes a game the same game: its settings, the opening's index and the JS side's colour."""
    return tuple(record.get(name) for name in SETTINGS) + (record["opening"], record["js_side"])


def load_results(path: Path) -> list[dict]:
    """The games recorded in ``path`` (one JSON object a line; none when the file does not exist).
    A line cut short by a stopped process (the last one) is skipped with a warning."""
    if not path.exists():
        return []
    games = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                games.append(json.loads(line))
            except json.JSONDecodeError:
                print(f"warning: {path}:{number} is not a whole JSON line; skipped", file=sys.stderr)
    return games


def append_result(path: Path, record: dict) -> None:
    """Append one game as one line and make it durable before the next game starts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, separators=(",", ":")) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def source_commit() -> str:
    """The commit of the code playing (with ``+dirty`` when the checkout has changes), or '?'."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return head + ("+dirty" if dirty else "")


# -- the report ---------------------------------------------------------------------------------

def interval(results: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the score and its 95 % interval (normal approximation, clamped to 0..1)."""
    n = len(results)
    mean = sum(results) / n
    half = 1.96 * statistics.pstdev(results) / math.sqrt(n) if n > 1 else 0.5
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0..1) of a sorted, non-empty list."""
    return ordered[min(len(ordered) - 1, max(0, int(math.ceil(q * len(ordered))) - 1))]


def times_line(label: str, samples: list[float]) -> str:
    s = sorted(x for x in samples if not math.isnan(x))
    if not s:
        return f"  {label:<10} no moves"
    return (f"  {label:<10} {len(s):>5} moves  mean {statistics.fmean(s):7.1f}  p50 {percentile(s, 0.5):7.1f}  "
            f"p95 {percentile(s, 0.95):7.1f}  max {s[-1]:7.1f}  CPU ms")


def report(label: str, games: list[dict], planned: int | None = None) -> tuple[float, float, float] | None:
    """Print one match's score with its 95 % interval, Elo, both sides' move times and the JS
    search's depth and nodes, from its recorded games; returns (mean, low, high), or None when
    there is no game yet."""
    if not games:
        print(f"-- {label}: no game recorded yet")
        return None
    results = [g["score"] for g in games]
    mean, lo, hi = interval(results)
    wins, draws = results.count(1.0), results.count(0.5)
    verdict = "meets" if mean >= TARGET else "BELOW"
    done = f"{len(results)}" + (f" of {planned} games" if planned else " games")
    print(f"-- {label}: {done}; JS Hard {sum(results):g}/{len(results)} = {100 * mean:.1f} % "
          f"(95 % interval {100 * lo:.1f} .. {100 * hi:.1f} %; +{wins} ={draws} -{len(results) - wins - draws}), "
          f"Elo {elo(mean) + 0.0:+.0f} ({elo(lo) + 0.0:+.0f} .. {elo(hi) + 0.0:+.0f}); {verdict} the {100 * TARGET:.0f} % target"
          + ("" if not planned or len(results) >= planned else " so far"))
    for side in ("X", "O"):
        mine = [g["score"] for g in games if g["js_side"] == side]
        if mine:
            print(f"  JS as {side}: {sum(mine):g}/{len(mine)}")
    print(times_line("JS Hard", [t for g in games for t in g["js_ms"]]))
    print(times_line("Py Hard", [t for g in games for t in g["py_ms"]]))
    depths = [d for g in games for d in g.get("depths", []) if d > 0]
    nodes = [n for g in games for n in g.get("nodes", []) if n > 0]
    if depths:
        print(f"  JS search depth: mean {statistics.fmean(depths):.1f}, median {statistics.median(depths)}, "
              f"max {max(depths)} ({len(depths)} moves searched); nodes a move: median "
              f"{statistics.median(nodes) if nodes else 0:.0f}")
    illegal = [g for g in games if g.get("illegal")]
    if illegal:
        print(f"  illegal moves: {len(illegal)} ({'; '.join(g['detail'] for g in illegal[:3])})")
    loads = [g["load"] for g in games if "load" in g]
    commits = sorted({g.get("commit", "?") for g in games})
    print(f"  load average while playing: mean {statistics.fmean(loads):.1f}, max {max(loads):.1f}; "
          f"code: {', '.join(commits)}" if loads else f"  code: {', '.join(commits)}", flush=True)
    return mean, lo, hi


def report_files(args, game: str, presets: list[str | None]) -> dict:
    """Print the report of every results file (one block per rule set and settings); returns
    {label: (mean, low, high) or None}."""
    summary = {}
    for preset in presets:
        path = results_path(args.results, game, preset)
        games, seen = [], set()
        for g in load_results(path):  # a game recorded twice (two gates at once) counts once
            if game_key(g) not in seen:
                seen.add(game_key(g))
                games.append(g)
        groups: dict[tuple, list[dict]] = {}
        for g in games:
            groups.setdefault(tuple(g.get(name) for name in SETTINGS), []).append(g)
        name = preset or game
        if not groups:
            print(f"-- {name}: no game recorded yet ({path})")
            summary[name] = None
        for settings, group in groups.items():
            s = dict(zip(SETTINGS, settings))
            label = f"{name} ({s['move_ms']} ms a move, {s['clock']} clock" + (
                f", draw at ply {s['max_ply']})" if s.get("max_ply") else ")")
            summary[label] = report(label, group, 2 * args.openings)
    return summary


def print_summary(summary: dict) -> None:
    print("\nsummary (JS Hard's score, 95 % interval):")
    for label, row in summary.items():
        if row is None:
            print(f"  {label:<11} no games")
            continue
        mean, lo, hi = row
        print(f"  {label:<11} {100 * mean:5.1f} %  ({100 * lo:.1f} .. {100 * hi:.1f} %)"
              f"{'' if mean >= TARGET else '  below target'}")


# -- playing ------------------------------------------------------------------------------------

class Match:
    """One rule set's match: its JS process (started when first needed, again after it stops),
    its openings, settings and results file."""

    def __init__(self, args, game: str, preset: str | None) -> None:
        self.args, self.game, self.preset = args, game, preset
        self.path = results_path(args.results, game, preset)
        self.settings = {"game": game, "preset": preset, "move_ms": args.move_ms,
                         "max_ply": args.max_ply if game == "caro" else None, "clock": "cpu"}
        self.against = getattr(args, "against_js", None)
        if self.against is not None:  # the real path: brain.js runs only when argv[1] is its own resolved URL
            self.against = self.against.resolve()
        self.opponent: JsBrain | None = None
        if game == "caro":
            self.openings = (CARO_OPENINGS_4 + CARO_OPENINGS)[args.start:args.start + args.openings]
            self.budget_ms = int(args.move_ms * BRAIN_SHARE)
        else:
            self.openings = REVERSI_OPENINGS[args.start:args.start + args.openings]
            self.budget_ms = args.move_ms
        self.done = {game_key(g) for g in load_results(self.path)}
        self.js: JsProcess | None = None

    def key(self, index: int, js_side: str) -> tuple:
        return game_key({**self.settings, "opening": index, "js_side": js_side})

    def pending(self, index: int) -> list[str]:
        """The colours of the JS side not yet played in opening ``index`` (absolute index)."""
        return [side for side in ("X", "O") if self.key(index, side) not in self.done]

    def process(self) -> JsProcess:
        if self.js is None:
            self.js = JsBrain(self.preset, self.args.move_ms) if self.game == "caro" else JsReversi(self.args.move_ms)
        if self.against is not None and self.opponent is None:
            self.opponent = JsBrain(self.preset, self.args.move_ms, self.against / "static/js/computer/brain.js")
        return self.js

    def play_one(self, index: int, js_side: str, commit: str) -> dict:
        opening = self.openings[index - self.args.start]
        js = self.process()
        if self.game == "caro":
            game = play_caro(js, PRESETS[self.preset].rules, opening, js_side, self.budget_ms, self.args.max_ply,
                             self.opponent)
        else:
            game = play_reversi(js, opening, js_side, self.budget_ms)
        winner = game["winner"]
        record = {**self.settings, "opening": index, "js_side": js_side,
                  "opening_moves": opening if isinstance(opening, str) else " ".join(opening),
                  "winner": winner, "score": 0.5 if winner is None else (1.0 if winner == js_side else 0.0),
                  **{k: game[k] for k in ("plies", "detail", "illegal", "js_ms", "py_ms", "depths", "nodes", "moves")},
                  "commit": commit, **({"against_js": str(self.against)} if self.against else {}),
                  "load": round(os.getloadavg()[0], 2), "finished_at": round(time.time())}
        append_result(self.path, record)
        self.done.add(game_key(record))
        return record

    def close(self) -> None:
        if self.js is not None:
            self.js.close()
            self.js = None
        if self.opponent is not None:
            self.opponent.close()
            self.opponent = None


def run(args, game: str, presets: list[str | None]) -> int:
    """Play every game not yet in the results files, one at a time: opening by opening, each rule
    set in turn, the JS side first as X then as O; then print the report."""
    from bench.pybots import warm_up

    matches = [Match(args, game, preset) for preset in presets]
    locks = []
    for m in matches:  # one gate at a time per results file: a second one would play the same games
        m.path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(m.path.with_name(m.path.name + ".lock"), "w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"another strength gate is playing into {m.path}: stop it first (or wait for it)", file=sys.stderr)
            return 3
        locks.append(lock)
    todo = [(m, k, side) for k in range(args.start, args.start + args.openings)
            for m in matches for side in m.pending(k)]
    total = len(matches) * 2 * args.openings
    commit = source_commit()
    print(f"strength gate ({game}; code {commit}): {total - len(todo)} of {total} games already in "
          f"{', '.join(str(m.path) for m in matches)}; {len(todo)} to play, {args.move_ms} ms a move "
          f"(CPU clock both sides), load {os.getloadavg()[0]:.2f}", flush=True)
    if todo and not getattr(args, "against_js", None):
        warm_up()  # as a worker process does when it starts (compiled functions loaded, tables filled)
    names = {"caro": ("X", "O"), "reversi": ("black", "white")}[game]
    colour = dict(zip(("X", "O"), names))
    failures = 0
    try:
        for m, k, side in todo:
            try:
                r = m.play_one(k, side, commit)
            except (RuntimeError, OSError) as exc:  # the JS process stopped: start it again, go on
                failures += 1
                print(f"  {m.preset or game} {k:>2} JS as {colour[side]}: not recorded ({exc}); "
                      "the JS process is started again", flush=True)
                m.close()
                if failures > 5:
                    print("more than 5 games lost to a stopped JS process: stopping", flush=True)
                    return 1
                continue
            games = load_results(m.path)
            mine = [g["score"] for g in games if game_key(g)[:len(SETTINGS)] == tuple(m.settings.values())]
            moves = f": {' '.join(r['moves'])}" if VERBOSE else ""
            print(f"  {m.preset or game:<10} {k:>2} {r['opening_moves']:<16} JS as {colour[side]}: winner "
                  f"{colour.get(r['winner'], 'draw'):<5} ({r['detail']}{moves}) -> {r['score']:g}   "
                  f"[{sum(mine):g}/{len(mine)}]  load {r['load']:.1f}", flush=True)
    finally:
        for m in matches:
            m.close()
    print()
    print_summary(report_files(args, game, presets))
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["caro", "reversi"], default="caro")
    parser.add_argument("--preset", action="append",
                        help="caro rule sets, comma-separated or repeated (default: "
                             + ",".join(CARO_PRESETS) + ")")
    parser.add_argument("--openings", type=int, default=GAMES_PER_RULE_SET // 2,
                        help="openings, each played with both colours")
    parser.add_argument("--start", type=int, default=0, help="skip this many openings first")
    parser.add_argument("--move-ms", type=int, default=1000, help="time a move (Gomocup timeout_turn), ms")
    parser.add_argument("--max-ply", type=int, default=225, help="a game with no five by then is a draw")
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS_DIR,
                        help="folder of the results files, outside the repository (default %(default)s)")
    parser.add_argument("--report", action="store_true", help="print the scores from the results files only")
    parser.add_argument("--verbose", action="store_true", help="print every game's moves")
    parser.add_argument("--against-js", type=Path, default=None,
                        help="caro: play against the brain of this frozen copy of the browser code (its "
                             "static/js/computer/brain.js) instead of the Python Hard")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    presets: list[str | None] = [None]
    if args.game == "caro":
        presets = [p for item in (args.preset or [",".join(CARO_PRESETS)]) for p in item.split(",") if p]
        allowed = JS_VS_JS_PRESETS if args.against_js else CARO_PRESETS
        unknown = [p for p in presets if p not in allowed]
        if unknown:
            parser.error(f"unknown rule set {', '.join(unknown)} (choose from {', '.join(allowed)})")
        if args.against_js and not (args.against_js / "static/js/computer/brain.js").exists():
            parser.error(f"no static/js/computer/brain.js under {args.against_js}")
    if args.report:
        print_summary(report_files(args, args.game, presets))
        return 0
    if args.game == "reversi" and not REVERSI_CLI.exists():
        print(f"{REVERSI_CLI.relative_to(ROOT)} is not on this branch yet: the Reversi mode plays the JS Reversi "
              "Hard through it (the js-reversi branch's line protocol) and runs once it is merged.")
        return 2
    time.perf_counter = time.process_time  # the Python bots read their clock through time.perf_counter
    return run(args, args.game, presets)


if __name__ == "__main__":
    raise SystemExit(main())
