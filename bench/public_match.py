"""Strength against the public engines (issue 28): the browser Hard vs Rapfi (caro) and Egaroucid (Reversi).

Usage (from the repository root; hours of CPU: run it at ``nice -n 19``, detached)::

    nice -n 19 .venv/bin/python bench/public_match.py rapfi --preset freestyle --nodes 10000 --openings 6
    nice -n 19 .venv/bin/python bench/public_match.py rapfi --preset exact-five --nodes 10000 --openings 24
    nice -n 19 .venv/bin/python bench/public_match.py egaroucid --level 8 --openings 16
    .venv/bin/python bench/public_match.py --report            # every match's score so far

Ours: the JavaScript Hard, the computer the site plays. Caro: the Gomocup brain under Node
(``python3 dev.py brain --level hard --cpu-clock --stats --preset SLUG``, through
bench/strength_gate.py's client), told ``INFO timeout_turn`` = ``--move-ms`` (default 1000 ms; the
brain gives Hard all of it, Hard plans 90 % and never passes 92 %, in this process's CPU time, so a
loaded machine does not weaken it).
Reversi: ``static/js/computer/reversi/cli.js --level hard --cpu-clock --budget MOVE_MS``.

Theirs, built outside the repository from public sources (docs/strength.md gives the commits and
the build commands; nothing of theirs is committed):

- Rapfi (github.com/dhbloo/rapfi), classical evaluation (its internal config: no network weights),
  over the Gomocup protocol with ``INFO thread_num 1``, ``INFO max_node N`` and no time limit
  (``timeout_turn 0``, ``timeout_match 0``), so its strength does not depend on the machine's load.
  Rule: Gomocup ``INFO rule`` 0 freestyle, 1 exact five ("standard" in Rapfi's words: an overline
  wins for neither side). Binary: ``--rapfi`` or ``$RAPFI``.
- Egaroucid's web edition (github.com/Nyanyan/Egaroucid, src/web/: the evaluation is in its
  source), compiled natively with the book compiled out, through bench/public_engines/egaroucid_cli.cpp
  (one position a line). Binary: ``--egaroucid`` or ``$EGAROUCID``.

Games: ``--openings`` openings from ``--start``, each played with both colours. Caro's
``--opening-set``: ``bench`` (the default) bench/match.py's four-stone X, O, X, O openings then its
three-stone ones (never checked for balance); ``balanced`` the preset's verified set of
bench/data/balanced-openings-<preset>.json (Rapfi's evaluation near even; bench/balanced_openings.py),
whose games go to their own file (``rapfi-<preset>-n<nodes>-balanced``). Reversi: bench/match.py's
Reversi openings. Every move is judged by the Python engine (caro.engine): an illegal move loses
the game for its side; a caro game with no five by ``--max-ply`` is a draw.

Results: one JSON line per finished game, appended to ``<dir>/public-<match>.jsonl`` (``--dir`` or
``$PUBLIC_MATCH_DIR``; default ~/caro-gate, outside the repository). The match name holds its
settings (``rapfi-freestyle-n10000``, ``egaroucid-l8``). A run skips the games its file already
holds, so the same command resumes a stopped match. ``--report`` prints every match file: score
with its 95 % interval (Wilson, on the mean per-game score), Elo (and the interval's), score as
the first player (X / black) and as the second, our move times (CPU ms: mean, p95, max), our search
depth, the opponent's CPU ms, the plies and the load average during the games.
Not part of the test suite; its pure parts (the result file, the summary) are tested in
tests/unit/bench/test_public_match.py.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

ENGINES_DIR = Path(os.environ.get("PUBLIC_ENGINES_DIR", "~/caro-engines")).expanduser()
RAPFI_DEFAULT = ENGINES_DIR / "rapfi" / "build" / "pbrain-rapfi"
EGAROUCID_DEFAULT = ENGINES_DIR / "egaroucid" / "egaroucid_cli"
RESULTS_DEFAULT = Path(os.environ.get("PUBLIC_MATCH_DIR", "~/caro-gate")).expanduser()
FILE_PREFIX = "public-"

RAPFI_RULES = {"freestyle": 0, "exact-five": 1}  # Gomocup INFO rule numbers, as Rapfi reads them
RAPFI_MEMORY_BYTES = 256 * 1024 * 1024  # INFO max_memory: Rapfi's hash table and its reserve
Z95 = 1.959964  # two-sided 95 % normal quantile
ELO_CLAMP = 800.0  # |Elo| shown at most (a score of 0 or 1 has no finite Elo)
ROLES = ("first", "second")  # X / black moves first
# the Reversi CLI's "solved" fact as a phase: "-" a midgame search, "exact" / "wld" an endgame solve
REVERSI_PHASES = {"-": "midgame", "exact": "exact_end", "wld": "wld_end"}


# -- the result file (pure) ---------------------------------------------------------------------

def results_path(directory: Path, match: str) -> Path:
    """The JSONL file of one match: ``<directory>/public-<match>.jsonl``."""
    return Path(directory) / f"{FILE_PREFIX}{match}.jsonl"


def load_records(path: Path) -> list[dict]:
    """The game records of a match file, in order. A missing file is an empty match; a torn last
    line (a run killed while writing) is skipped, any other bad line raises ValueError."""
    path = Path(path)
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):
                continue  # the last line was cut off; the game is played again
            raise ValueError(f"{path}:{number}: not a JSON line") from None
    return records


def append_record(path: Path, record: dict) -> None:
    """Append one finished game as one JSON line (the directory is made if needed). A torn last
    line left by a killed run is first ended, so the new record stays on a line of its own."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = ""
    if path.exists() and path.stat().st_size:
        with path.open("rb") as f:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                prefix = "\n"
    with path.open("a", encoding="utf-8") as f:
        f.write(prefix + json.dumps(record, separators=(",", ":")) + "\n")
        f.flush()
        os.fsync(f.fileno())


def pending_games(records: list[dict], start: int, count: int, skip: frozenset = frozenset()) -> list[tuple[int, str]]:
    """The games still to play: (opening index, our side "X"/"O") for openings ``start`` ..
    ``start + count - 1`` but those in ``skip``, ours first as X then as O, without those a record
    already holds."""
    done = {(r["opening_index"], r["ours"]) for r in records}
    return [(i, side) for i in range(start, start + count) if i not in skip for side in ("X", "O")
            if (i, side) not in done]


def repeated_openings(positions: list[str]) -> frozenset:
    """Indexes of openings whose position (after the opening's moves) an earlier one already
    gives: bench/match.py's Reversi list has two such transpositions (f5d6c4d3c3 = f5d6c3d3c4,
    f5f6e6f4e3 = f5f4e3f6e6), and deterministic engines would play the same game twice."""
    first: dict[str, int] = {}
    return frozenset(i for i, p in enumerate(positions) if first.setdefault(p, i) != i)


def game_score(winner: str | None, ours: str) -> float:
    """Our score of one game: 1 win, 0.5 draw (winner None), 0 loss."""
    return 0.5 if winner is None else float(winner == ours)


# -- the summary (pure) -------------------------------------------------------------------------

def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % Wilson interval of a mean score ``score`` (0..1) over ``n`` games. Unlike the
    normal approximation it stays honest at small n and at 0 % or 100 % (12 losses: 0 .. 24 %)."""
    if n <= 0:
        return 0.0, 1.0
    denominator = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denominator
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_of(score: float) -> float:
    """Elo difference for an expected score (0..1), clamped to +-ELO_CLAMP."""
    if score <= 0:
        return -ELO_CLAMP
    if score >= 1:
        return ELO_CLAMP
    return max(-ELO_CLAMP, min(ELO_CLAMP, -400 * math.log10(1 / score - 1))) + 0.0  # + 0.0: never "-0"


def spread(samples: list[float]) -> dict | None:
    """{n, mean, p95, max} of a list of numbers (NaN dropped); None when empty."""
    s = sorted(x for x in samples if x is not None and not math.isnan(x))
    if not s:
        return None
    p95 = s[min(len(s) - 1, int(math.ceil(0.95 * len(s))) - 1)]
    return {"n": len(s), "mean": statistics.fmean(s), "p95": p95, "max": s[-1]}


def summarize(records: list[dict]) -> dict:
    """A match's numbers from its records: games, points, score, interval (lo, hi), elo and the
    interval's elo, wins/draws/losses, per role (first = X/black, second) {games, points, score},
    our CPU ms, our depths, the opponent's CPU ms (each a :func:`spread`), illegal moves by side,
    plies and load (spreads)."""
    n = len(records)
    points = sum(r["score"] for r in records)
    score = points / n if n else 0.0
    lo, hi = wilson_interval(score, n)
    roles = {}
    for role, side in zip(ROLES, ("X", "O")):
        mine = [r for r in records if r["ours"] == side]
        got = sum(r["score"] for r in mine)
        roles[role] = {"games": len(mine), "points": got, "score": got / len(mine) if mine else None}
    return {
        "games": n, "points": points, "score": score, "interval": (lo, hi),
        "elo": elo_of(score) if n else None, "elo_interval": (elo_of(lo), elo_of(hi)),
        "wins": sum(1 for r in records if r["score"] == 1), "draws": sum(1 for r in records if r["score"] == 0.5),
        "losses": sum(1 for r in records if r["score"] == 0),
        "roles": roles,
        "our_cpu_ms": spread([x for r in records for x in r.get("our_cpu_ms", [])]),
        "our_depth": spread([x for r in records for x in r.get("our_depth", []) if x]),
        "their_cpu_ms": spread([x for r in records for x in r.get("their_cpu_ms", [])]),
        "illegal": {side: sum(1 for r in records if r.get("illegal") == side) for side in ("ours", "theirs")},
        "plies": spread([r["plies"] for r in records if "plies" in r]),
        "load": spread([r["load"] for r in records if "load" in r]),
    }


def phase_table(records: list[dict]) -> list[dict]:
    """Our moves grouped by the phase that chose them (the brain's ``phase``: "search",
    "defence", "vcf", "prelude", ...), most frequent first: {phase, moves, cpu_ms (mean),
    depth (mean of the searched moves, None if none), nodes (mean), rate (alpha-beta nodes per
    CPU second over the group, None without CPU time)}."""
    groups: dict[str, list[tuple]] = {}
    for r in records:
        phases = r.get("our_phase") or [None] * len(r.get("our_cpu_ms", []))
        for cpu, depth, nodes, phase in zip(r.get("our_cpu_ms", []), r.get("our_depth", []), r.get("our_nodes", []),
                                            phases):
            groups.setdefault(phase or "-", []).append((cpu, depth or 0, nodes or 0))
    rows = []
    for phase, moves in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        cpu = sum(m[0] for m in moves)
        depths = [m[1] for m in moves if m[1]]
        rows.append({"phase": phase, "moves": len(moves), "cpu_ms": cpu / len(moves),
                     "depth": statistics.fmean(depths) if depths else None,
                     "nodes": statistics.fmean(m[2] for m in moves),
                     "rate": 1000 * sum(m[2] for m in moves) / cpu if cpu > 0 else None})
    return rows


def report_lines(match: str, records: list[dict]) -> list[str]:
    """The printed report of one match."""
    if not records:
        return [f"{match}: no games yet"]
    s = summarize(records)
    lo, hi = s["interval"]
    elo_lo, elo_hi = s["elo_interval"]
    lines = [f"{match}: {s['points']:g}/{s['games']} = {100 * s['score']:.1f} % (95 % interval {100 * lo:.1f} .. "
             f"{100 * hi:.1f} %), Elo {s['elo']:+.0f} ({elo_lo:+.0f} .. {elo_hi:+.0f}); "
             f"+{s['wins']} ={s['draws']} -{s['losses']}"]
    parts = []
    for role in ROLES:
        r = s["roles"][role]
        parts.append(f"as {role} {r['points']:g}/{r['games']}" + (f" ({100 * r['score']:.0f} %)" if r["games"] else ""))
    lines.append("  " + ", ".join(parts))
    for label, key, unit in (("our move", "our_cpu_ms", "CPU ms"), ("our depth", "our_depth", "plies"),
                             ("their move", "their_cpu_ms", "CPU ms"), ("game length", "plies", "plies"),
                             ("load average", "load", "")):
        d = s[key]
        if d:
            lines.append(f"  {label:<12} mean {d['mean']:8.1f}  p95 {d['p95']:8.1f}  max {d['max']:8.1f}  {unit}"
                         f"  ({d['n']})")
    for row in phase_table(records):
        depth = f"depth {row['depth']:5.1f}" if row["depth"] is not None else "           "
        rate = f"{row['rate'] / 1000:6.0f}k nodes/s" if row["rate"] else ""
        lines.append(f"  phase {row['phase']:<11} {row['moves']:>5} moves  CPU {row['cpu_ms']:6.0f} ms  {depth}  "
                     f"nodes {row['nodes']:9.0f}  {rate}".rstrip())
    if any(s["illegal"].values()):
        lines.append(f"  illegal moves: ours {s['illegal']['ours']}, theirs {s['illegal']['theirs']}")
    return lines


def report(directory: Path, only: str | None = None) -> int:
    """Print every match file in ``directory`` (or only ``only``)."""
    paths = sorted(Path(directory).glob(f"{FILE_PREFIX}*.jsonl"))
    if only:
        paths = [results_path(directory, only)]
    if not paths:
        print(f"no match files in {directory}")
        return 1
    for path in paths:
        match = path.name[len(FILE_PREFIX):-len(".jsonl")]
        print("\n".join(report_lines(match, load_records(path))))
    return 0


# -- the opponents ------------------------------------------------------------------------------

def process_cpu_ms(pid: int) -> float:
    """User + system CPU ms a live process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return 1000 * (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Engine:
    """A public engine as a subprocess, one line at a time (its own line buffer over the pipe, so
    a read can wait with a timeout)."""

    name = "engine"

    def __init__(self, argv: list[str]) -> None:
        if not Path(argv[0]).exists():
            raise SystemExit(f"{self.name} not found at {argv[0]}: build it (docs/strength.md) or pass its path")
        self.proc = subprocess.Popen(argv, cwd=Path(argv[0]).parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self._buffer = b""

    def send(self, line: str) -> None:
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def line(self, timeout: float | None = None) -> str | None:
        """The next line (stripped); None when ``timeout`` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buffer:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.proc.stdout], [], [], wait)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(f"{self.name} stopped (exit {self.proc.poll()})")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode().strip()

    def cpu_ms(self) -> float:
        return process_cpu_ms(self.proc.pid)

    def close(self) -> None:
        try:
            self.send("END")
            self.proc.stdin.close()  # the Egaroucid driver ends at the end of its input
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


MOVE_LINE = re.compile(r"^(\d+),(\d+)$")
EVAL_IN_MESSAGE = re.compile(r"\| Eval ([-+]?M?\d+) \|")
MATE_VALUE = 30000  # a Rapfi mate score "+M7" as a number: MATE_VALUE - 7 (mated: negative)


def eval_value(text: str) -> int:
    """Rapfi's ``Eval`` field as a number for the side to move: "-112" -> -112, "+M7" -> 29993,
    "-M4" -> -29996."""
    if "M" in text:
        plies = int(text.replace("+", "").replace("-", "").replace("M", ""))
        return (MATE_VALUE - plies) * (-1 if text.startswith("-") else 1)
    return int(text)


class Rapfi(Engine):
    """Rapfi over the Gomocup protocol: one thread, a node limit, no time limit."""

    name = "Rapfi"

    def __init__(self, path: Path, rule: int, nodes: int) -> None:
        super().__init__([str(path)])
        self.rule, self.nodes = rule, nodes
        self.last_eval = None

    def reply(self) -> str:
        """The next line that is not a MESSAGE/DEBUG line nor a late ABOUT answer (the last
        ``Eval`` a MESSAGE line reports is kept in :attr:`last_eval`)."""
        while True:
            line = self.line()
            m = EVAL_IN_MESSAGE.search(line)
            if m:
                self.last_eval = m.group(1)
            if not line.startswith(("MESSAGE", "DEBUG", "INFO", "name=")):
                return line

    def sync(self, attempts: int = 60) -> None:
        """Wait until Rapfi takes commands again. Rapfi drops every command but END/STOP while
        its search thread is still finishing (``if (thinking) return false`` in its gomocup.cpp),
        which happens right after it prints a move; so ABOUT is sent until it is answered."""
        for _ in range(attempts):
            self.send("ABOUT")
            while True:
                line = self.line(timeout=1.0)
                if line is None:
                    break  # dropped: ask again
                if line.startswith("name="):
                    return
        raise RuntimeError("Rapfi takes no command")

    def new_game(self, board) -> None:
        self.sync()
        self.send(f"START {board.rules.size}")
        if self.reply() != "OK":
            raise RuntimeError("Rapfi refused START")
        for key, value in (("thread_num", 1), ("pondering", 0), ("max_memory", RAPFI_MEMORY_BYTES),
                           ("rule", self.rule), ("timeout_match", 0), ("timeout_turn", 0), ("max_node", self.nodes)):
            self.send(f"INFO {key} {value}")

    def move(self, board) -> str:
        """Rapfi's move on ``board`` (the whole position, BOARD: 1 its stones, 2 ours)."""
        from caro.engine.coords import parse_square, square_name

        self.sync()
        self.send("BOARD")
        me = board.turn
        for square in board.moves:
            c, r = parse_square(square, board.rules.size)
            self.send(f"{c},{r},{1 if board.stone_at(square) == me else 2}")
        self.send("DONE")
        while True:
            reply = self.reply()
            m = MOVE_LINE.match(reply)
            if m:
                return square_name(int(m.group(1)), int(m.group(2)))
            if reply.startswith(("ERROR", "UNKNOWN")):
                raise RuntimeError(f"Rapfi answered {reply!r}")


class Egaroucid(Engine):
    """Egaroucid's web edition through bench/public_engines/egaroucid_cli.cpp."""

    name = "Egaroucid"

    def __init__(self, path: Path, level: int) -> None:
        super().__init__([str(path), str(level)])
        self.last_value = None
        ready = self.line()
        if not ready.startswith("ready"):  # the driver's first line once the tables are built
            raise RuntimeError(f"Egaroucid said {ready!r}")

    def new_game(self, board) -> None:
        """Nothing: every move sends the whole position."""

    def move(self, board) -> str:
        from caro.engine import reversi

        discs = board.discs()
        cells = "".join({reversi.BLACK: "X", reversi.WHITE: "O"}.get(discs.get(name), ".") for name in reversi.NAMES)
        self.send(f"{cells} {'X' if board.turn == reversi.BLACK else 'O'}")
        reply = self.line()
        if reply == "pass" or reply.startswith("error"):
            raise RuntimeError(f"Egaroucid answered {reply!r} on {board.position()}")
        square, *value = reply.split()
        self.last_value = int(value[0]) if value else None  # its expected disc difference, side to move
        return square


# -- playing ------------------------------------------------------------------------------------

def play_game(ours, theirs, board, our_colour, winner_of, max_ply: int) -> dict:
    """Play ``board`` out between our JS computer and a public engine, every move judged by the
    Python engine. Returns the game's facts: winner ("X"/"O"/None by ``winner_of(outcome)``; None
    too after an illegal move, which the caller gives to the other side), illegal
    ("ours"/"theirs"/None) and its message ("why"), moves (after the opening), plies, our CPU ms / depth / nodes / phase
    (which part of the computer chose: caro's "search", "vcf", "prelude", ...; Reversi: the
    solve) per move, their CPU ms per move."""
    from caro.engine.errors import IllegalMove

    ours.new_game(board)
    theirs.new_game(board)
    facts = {"our_cpu_ms": [], "our_depth": [], "our_nodes": [], "our_phase": [], "their_cpu_ms": [],
             "illegal": None}
    first = len(board.moves)
    while board.outcome is None and board.ply < max_ply:
        mine = board.turn == our_colour
        if mine:
            move, stats = ours.move(board)
            facts["our_cpu_ms"].append(float(stats.get("cpu_ms", "nan")))
            facts["our_depth"].append(int(stats["depth"]) if str(stats.get("depth", "")).isdigit() else None)
            facts["our_nodes"].append(int(stats["nodes"]) if str(stats.get("nodes", "")).isdigit() else None)
            facts["our_phase"].append(stats.get("phase") or REVERSI_PHASES.get(stats.get("solved")))
        else:
            t0 = theirs.cpu_ms()
            move = theirs.move(board)
            facts["their_cpu_ms"].append(round(theirs.cpu_ms() - t0, 1))
        try:
            board.play(move)
        except IllegalMove as exc:
            facts["illegal"] = "ours" if mine else "theirs"
            facts["why"] = f"illegal move {move}: {exc}"
            break
    facts["moves"] = board.moves[first:]
    facts["plies"] = board.ply
    facts["winner"] = winner_of(board.outcome) if facts["illegal"] is None else None
    return facts


def other(side: str) -> str:
    """The other side label: "X" <-> "O"."""
    return "O" if side == "X" else "X"


def caro_winner(outcome) -> str | None:
    """'X'/'O'/None (draw or unfinished) from a caro outcome."""
    return outcome.winner if outcome else None


def run(args, match: str, opponent, ours, openings: list, make_board, our_colour_of, winner_of, settings: dict) -> int:
    """Play the pending games of ``match`` and append each to its file."""
    from strength_gate import source_commit

    settings = {**settings, "commit": source_commit()}  # our code's commit ("+dirty" with local changes)
    path = results_path(args.dir, match)
    skip = repeated_openings([make_board(opening).position() for opening in openings])
    todo = pending_games(load_records(path), args.start, min(args.openings, len(openings) - args.start), skip)
    if getattr(args, "side", None):  # --side: only the games where ours plays that side
        todo = [(i, side) for i, side in todo if side == args.side]
    print(f"== {match}: {len(todo)} games to play -> {path} (load {os.getloadavg()[0]:.2f})", flush=True)
    try:
        for index, side in todo:
            opening = openings[index]
            board = make_board(opening)
            t0 = time.time()
            facts = play_game(ours, opponent, board, our_colour_of(side), winner_of, args.max_ply)
            if facts["illegal"]:  # an illegal move loses the game for its side
                facts["winner"] = other(side) if facts["illegal"] == "ours" else side
            record = {"match": match, "opening_index": index,
                      "opening": opening if isinstance(opening, str) else " ".join(opening), "ours": side,
                      "score": game_score(facts["winner"], side), **facts, "wall_s": round(time.time() - t0, 1),
                      "load": round(os.getloadavg()[0], 2), "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                                                          time.gmtime()),
                      "settings": settings}
            append_record(path, record)
            print(f"  {index:>2} {record['opening']:<16} ours {side}: winner {facts['winner'] or 'draw'} "
                  f"({facts['plies']} plies{', ' + facts['why'] if facts.get('why') else ''}) -> {record['score']:g}",
                  flush=True)
    finally:
        ours.close()
        opponent.close()
    print("\n".join(report_lines(match, load_records(path))), flush=True)
    return 0


def engine_commit(path: Path) -> str | None:
    """The commit recorded beside an engine build (a COMMIT file in its tree), if any."""
    for parent in Path(path).resolve().parents:
        marker = parent / "COMMIT"
        if marker.exists():
            return marker.read_text().strip()
    return None


OPENING_SETS = ("bench", "balanced")  # --opening-set: bench/match.py's old caro openings, or the verified set


def caro_openings(opening_set: str, preset: str) -> list[tuple[str, ...]]:
    """The caro openings of a set, in order: "bench" bench/match.py's 16 four-stone then 16
    three-stone openings (never checked for balance: Rapfi 10k scores 17-23 % as O against itself
    there); "balanced" the preset's verified set (bench/data/balanced-openings-<preset>.json, made by
    bench/balanced_openings.py from Rapfi's evaluation alone, most even first)."""
    if opening_set == "balanced":
        from balanced_openings import load_balanced

        return load_balanced(preset)
    from match import CARO_OPENINGS, CARO_OPENINGS_4

    return list(CARO_OPENINGS_4) + list(CARO_OPENINGS)


def rapfi_match_name(preset: str, nodes: int, move_ms: int = 1000, opening_set: str = "bench") -> str:
    """A Rapfi match's file name: its rule, Rapfi's nodes, our move time when not 1000 ms and the
    opening set when not the old bench one (a set's games never share a file with another's:
    the records are keyed by opening index)."""
    return (f"rapfi-{preset}-n{nodes}" + (f"-t{move_ms}" if move_ms != 1000 else "")
            + (f"-{opening_set}" if opening_set != "bench" else ""))


def run_rapfi(args) -> int:
    from caro.engine.caro import PRESETS, Board
    from strength_gate import JsBrain

    rules = PRESETS[args.preset].rules
    match = rapfi_match_name(args.preset, args.nodes, args.move_ms, args.opening_set)
    settings = {"ours": f"js hard brain --cpu-clock, timeout_turn {args.move_ms}", "rapfi": str(args.rapfi),
                "rapfi_commit": engine_commit(args.rapfi), "rule": RAPFI_RULES[args.preset], "max_node": args.nodes,
                "thread_num": 1, "opening_set": args.opening_set}

    def make_board(opening):
        board = Board(rules)
        for square in opening:
            board.play(square)
        return board

    return run(args, match, Rapfi(args.rapfi, RAPFI_RULES[args.preset], args.nodes), JsBrain(args.preset, args.move_ms),
               caro_openings(args.opening_set, args.preset), make_board, lambda side: side, caro_winner, settings)


def run_egaroucid(args) -> int:
    from caro.engine import reversi
    from match import REVERSI_OPENINGS
    from strength_gate import JsReversi

    match = f"egaroucid-l{args.level}" + (f"-t{args.move_ms}" if args.move_ms != 1000 else "")
    settings = {"ours": f"js reversi hard cli --cpu-clock, budget {args.move_ms}", "egaroucid": str(args.egaroucid),
                "egaroucid_commit": engine_commit(args.egaroucid), "level": args.level, "book": "off"}
    colour = {"X": reversi.BLACK, "O": reversi.WHITE}

    def winner_of(outcome):
        return {reversi.BLACK: "X", reversi.WHITE: "O", None: None}[outcome.winner] if outcome else None

    return run(args, match, Egaroucid(args.egaroucid, args.level), JsReversi(args.move_ms), REVERSI_OPENINGS,
               reversi.Board.from_moves, colour.__getitem__, winner_of, settings)


# (depth in attacker moves, node cap, zone): Hard's in-game check of a reply (levels.js: oppVctDepth
# 10, NODE_CAP 60000, threes near the attacker's last moves), then wider and deeper
THREAT_CHECK_LIMITS = ((10, 60_000, True), (16, 400_000, True), (16, 400_000, False), (20, 3_000_000, False))


class ThreatCheck:
    """Our threat search (bench/js/threat_win.mjs under Node) on the opponent's side of a position,
    under THREAT_CHECK_LIMITS; called as ``check(board)`` -> one printed line."""

    def __init__(self) -> None:
        from devstack.cli import brain_argv

        argv = brain_argv(ROOT, [])
        if argv is None:
            raise SystemExit("node is not installed")
        argv[1] = str(ROOT / "bench" / "js" / "threat_win.mjs")
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)

    def __call__(self, board) -> list[dict]:
        """[{depth, maxNodes, zone, found, plies, nodes, timedOut, cpuMs}, ...] per limit."""
        stones = board.stones()
        job = {"rules": board.rules.to_dict(), "x": [q for q, s in stones.items() if s == "X"],
               "o": [q for q, s in stones.items() if s == "O"], "toMove": board.turn,
               "limits": [{"depth": d, "maxNodes": n, "zone": z} for d, n, z in THREAT_CHECK_LIMITS]}
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    @staticmethod
    def line(results: list[dict]) -> str:
        parts = []
        for r in results:
            verdict = f"found ({r['plies']} plies)" if r["found"] else ("out of nodes" if r["timedOut"] else "none")
            parts.append(f"depth {r['depth']}/{r['maxNodes'] // 1000}k/{'zone' if r['zone'] else 'no zone'}: "
                         f"{verdict}, {r['nodes']} nodes, {r['cpuMs']} ms")
        return "        our VCT for the opponent: " + "; ".join(parts)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def threat_verdict(results: list[dict]) -> str:
    """One word for our threat search's results on a losing position (THREAT_CHECK_LIMITS order,
    the in-game limits first): "in-game" (found there), "wider" (found only with a wider or deeper
    search), "blow-up" (not found, the largest search out of nodes), "none" (not found, every
    search complete: the opponent's win is not a VCT of fours and open threes)."""
    if not results:
        return "unchecked"
    if results[0]["found"]:
        return "in-game"
    if any(r["found"] for r in results):
        return "wider"
    return "blow-up" if results[-1]["timedOut"] else "none"


def postmortem_summary(items: list[dict]) -> list[str]:
    """The post-mortem's closing lines from one item per lost game: {phase, ply, move, alt, alt_eval,
    threat} of its first losing move (None fields when unknown; no item when the judge saw no
    forced win). Counts: the judge's alternative held (a non-mate eval and another move), the
    position was already lost (the alternative is mated), by our threat search's verdict, by phase."""
    out = [f"summary: {len(items)} lost games with a first losing move"]
    held = sum(1 for i in items if i.get("alt_eval") and not i["alt_eval"].startswith("-M") and i["alt"] != i["move"])
    lost = sum(1 for i in items if i.get("alt_eval", "") and i["alt_eval"].startswith("-M"))
    out.append(f"  Rapfi's deeper search holds with another move: {held}; already lost before it: {lost}")
    verdicts: dict[str, int] = {}
    phases: dict[str, int] = {}
    for i in items:
        verdicts[i.get("threat") or "unchecked"] = verdicts.get(i.get("threat") or "unchecked", 0) + 1
        phases[i.get("phase") or "-"] = phases.get(i.get("phase") or "-", 0) + 1
    out.append("  our threat search on the opponent's win: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    out.append("  phase of the losing move: " + ", ".join(f"{k} {v}" for k, v in sorted(phases.items())))
    out.append("  its ply: " + " ".join(str(i["ply"]) for i in sorted(items, key=lambda i: i["ply"])))
    return out


def postmortem(args) -> int:
    """Replay every lost game of ``args.match`` with Rapfi as the judge (``--judge-nodes`` nodes,
    one thread): after each of our moves, Rapfi's evaluation for the opponent (positive: good for
    it; "+M7": it mates in 7 plies). Prints one line per move of ours (ply, move, our CPU ms,
    depth, nodes, nodes/s, phase, the judge's eval) and marks the first move after which the judge
    sees a forced win for the opponent (with what Rapfi at ``--alt-nodes`` plays in the position
    before it and its eval there: a non-mate eval means that move held, and whether our own threat
    search finds the opponent's win there under Hard's in-game limits and wider ones), and the
    largest rise of the eval short of a mate."""
    from caro.engine.caro import PRESETS, Board

    records = load_records(results_path(args.dir, args.match))
    if args.match.startswith("egaroucid-"):
        return postmortem_reversi(args, records)
    preset = next((p for p in RAPFI_RULES if args.match.startswith(f"rapfi-{p}-")), None)
    if preset is None:
        raise SystemExit("the post-mortem reads matches against Rapfi (caro) or Egaroucid (Reversi)")
    judge = Rapfi(args.rapfi, RAPFI_RULES[preset], args.judge_nodes)
    alt = Rapfi(args.rapfi, RAPFI_RULES[preset], args.alt_nodes) if args.alt_nodes else None
    threat_check = None if args.no_threat_check else ThreatCheck()
    lost = [r for r in records if r["score"] == 0 and not r.get("illegal")]
    print(f"post-mortem of {len(lost)} lost games of {args.match}: judge Rapfi max_node {args.judge_nodes}")
    items: list[dict] = []
    try:
        for r in lost:
            board = Board(PRESETS[preset].rules)
            for square in r["opening"].split():
                board.play(square)
            print(f"\n{r['opening']} ours {r['ours']}, {r['plies']} plies: {' '.join(r['moves'])}")
            k = 0
            previous = None
            first_mate = worst = None
            for move in r["moves"]:
                ours = board.turn == r["ours"]
                board.play(move)
                if not ours or board.outcome is not None:
                    continue
                judge.new_game(board)
                judge.move(board)
                value = eval_value(judge.last_eval) if judge.last_eval else None
                cpu, depth, nodes = r["our_cpu_ms"][k], r["our_depth"][k], r["our_nodes"][k]
                phase = (r.get("our_phase") or [None] * (k + 1))[k]
                rate = f"{nodes / cpu:6.0f}k/s" if nodes and cpu else "      -"
                flag = ""
                if value is not None and value > MATE_VALUE // 2 and first_mate is None:
                    first_mate = (board.ply, move)
                    flag = "  <- the opponent has a forced win from here"
                    item = {"ply": board.ply, "move": move, "phase": phase, "alt": None, "alt_eval": None,
                            "threat": None}
                    if alt is not None:  # what a deeper Rapfi plays in the position before our move
                        board.undo()
                        alt.new_game(board)
                        item["alt"] = alt.move(board)
                        item["alt_eval"] = alt.last_eval
                        board.play(move)
                        flag += f"; before it Rapfi {args.alt_nodes} plays {item['alt']} (its eval {alt.last_eval})"
                    if threat_check is not None:  # does our own threat search see the opponent's win?
                        results = threat_check(board)
                        item["threat"] = threat_verdict(results)
                        flag += "\n" + ThreatCheck.line(results)
                    items.append(item)
                calm = value is not None and abs(value) < MATE_VALUE // 2
                if calm and previous is not None and (worst is None or value - previous > worst[0]):
                    worst = (value - previous, board.ply, move)  # the largest rise short of a mate
                print(f"  ply {board.ply:>3} {move:<4} cpu {cpu:6.0f} ms  depth {depth if depth is not None else '-':>3}"
                      f"  nodes {nodes if nodes is not None else '-':>8} {rate}  {phase or '-':<14}"
                      f" judge {judge.last_eval:>6}{flag}")
                previous = value if calm else previous
                k += 1
            if worst:
                print(f"  largest rise of the judge's eval short of a mate: {worst[0]:+d} after ply {worst[1]} ({worst[2]})")
    finally:
        judge.close()
        if alt is not None:
            alt.close()
        if threat_check is not None:
            threat_check.close()
    print("\n" + "\n".join(postmortem_summary(items)))
    return 0


def postmortem_reversi(args, records: list[dict]) -> int:
    """Replay every lost Reversi game with Egaroucid at ``--judge-level`` as the judge: after each
    of our moves, its expected final disc difference for us. Prints one line per move of ours
    (ply, empties, move, CPU ms, depth, nodes, phase, the judge's value) and marks the move after
    which the judge first expects us to lose, and the move that lost the most discs."""
    from caro.engine import reversi

    judge = Egaroucid(args.egaroucid, args.judge_level)
    lost = [r for r in records if r["score"] == 0 and not r.get("illegal")]
    print(f"post-mortem of {len(lost)} lost games of {args.match}: judge Egaroucid level {args.judge_level}")
    try:
        for r in lost:
            board = reversi.Board.from_moves(r["opening"])
            ours = reversi.BLACK if r["ours"] == "X" else reversi.WHITE
            print(f"\n{r['opening']} ours {r['ours']} ({'black' if r['ours'] == 'X' else 'white'}): {''.join(r['moves'])}")
            k = 0
            previous = None
            first_loss = worst = None
            for move in r["moves"]:
                mine = board.turn == ours
                board.play(move)
                if not mine:
                    continue
                cpu, depth, nodes = r["our_cpu_ms"][k], r["our_depth"][k], r["our_nodes"][k]
                phase = (r.get("our_phase") or [None] * (k + 1))[k]
                k += 1
                if board.outcome is not None:
                    black, white = board.count()
                    value = (black - white) * (1 if ours == reversi.BLACK else -1)
                else:
                    judge.move(board)
                    value = judge.last_value if board.turn == ours else -judge.last_value
                flag = ""
                if value < 0 and first_loss is None and (previous is None or previous >= 0):
                    first_loss = move
                    flag = "  <- the judge expects us to lose from here"
                if previous is not None and (worst is None or previous - value > worst[0]):
                    worst = (previous - value, board.ply, move)
                print(f"  ply {board.ply:>2} empties {64 - sum(board.count()):>2} "
                      f"{move:<3} cpu {cpu:5.0f} ms  depth {depth if depth is not None else '-':>3}  "
                      f"nodes {nodes if nodes is not None else '-':>9}  {phase or '-':<10} judge {value:+3d}{flag}")
                previous = value
            if worst:
                print(f"  the costliest move: {worst[2]} at ply {worst[1]} ({worst[0]:+d} discs for the opponent)")
    finally:
        judge.close()
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent", nargs="?", choices=["rapfi", "egaroucid"])
    parser.add_argument("--report", action="store_true", help="print every match's numbers and stop")
    parser.add_argument("--match", help="with --report: only this match (e.g. rapfi-freestyle-n10000)")
    parser.add_argument("--dir", type=Path, default=RESULTS_DEFAULT, help="where the match files are ($PUBLIC_MATCH_DIR)")
    parser.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES), help="caro rule set (Rapfi)")
    parser.add_argument("--nodes", type=int, default=10000, help="Rapfi's INFO max_node")
    parser.add_argument("--level", type=int, default=8, help="Egaroucid's level")
    parser.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    parser.add_argument("--egaroucid", type=Path, default=Path(os.environ.get("EGAROUCID", EGAROUCID_DEFAULT)))
    parser.add_argument("--openings", type=int, default=24, help="openings, each played with both colours")
    parser.add_argument("--opening-set", default="bench", choices=OPENING_SETS,
                        help="caro: bench/match.py's old openings or the verified balanced set (its own match file)")
    parser.add_argument("--start", type=int, default=0, help="first opening's index")
    parser.add_argument("--side", choices=["X", "O"], help="play only the games where ours is this side")
    parser.add_argument("--move-ms", type=int, default=1000, help="our time a move (CPU clock), ms")
    parser.add_argument("--max-ply", type=int, default=225, help="a caro game with no five by then is a draw")
    parser.add_argument("--postmortem", action="store_true", help="with --match: Rapfi judges our moves in lost games")
    parser.add_argument("--judge-nodes", type=int, default=200000, help="the post-mortem judge's max_node")
    parser.add_argument("--judge-level", type=int, default=14, help="post-mortem of Reversi: Egaroucid's level")
    parser.add_argument("--no-threat-check", action="store_true",
                        help="post-mortem: skip our own threat search on the first losing position")
    parser.add_argument("--alt-nodes", type=int, default=1000000,
                        help="post-mortem: Rapfi's max_node for its own move before our first losing one (0: none)")
    args = parser.parse_args(argv)
    if args.postmortem:
        if not args.match:
            parser.error("--postmortem needs --match")
        return postmortem(args)
    if args.report or not args.opponent:
        return report(args.dir, args.match)
    return run_rapfi(args) if args.opponent == "rapfi" else run_egaroucid(args)


if __name__ == "__main__":
    raise SystemExit(main())
