"""Tuning data and fit of the browser Hard's caro evaluation (static/js/computer/caro/evaluation.js).

Two steps, each resumable, data outside the repository (``--dir``, default ``~/caro-gate/tune``):

``label``  every position of the caro games on file (``~/caro-gate/public-rapfi-*.jsonl``: our
           Hard against Rapfi; ``~/caro-gate/caro-{freestyle,exact-five}.jsonl``: our Hard against
           the Python Hard), from ply 4 on, scored by Rapfi's own search (``--nodes``, one thread,
           its classical evaluation; the ``Eval`` of its ``MESSAGE`` line, for the side to move) and
           by the game's result for the side to move. One JSON line a position in
           ``positions-<preset>.jsonl``: ``{"preset", "moves", "eval", "result"}``; a rerun skips the
           positions the file holds.
``fit``    ``node bench/js/caro_tune.mjs``: the evaluation's features of every labelled position
           (read from the same search board the computer uses), then a logistic regression of the
           side to move's winning chance: ``sigmoid(eval / K)`` Rapfi's (``--k``), with the game's
           result mixed in (``--result-weight``); prints the fitted weights as the JavaScript table
           ``evaluation.js`` holds (pasted there by hand, so a fit is reviewed before it plays).

Usage (from the repository root)::

    nice -n 19 .venv/bin/python bench/caro_tune_js.py label --preset freestyle --nodes 50000
    nice -n 19 .venv/bin/python bench/caro_tune_js.py label --preset exact-five --nodes 50000
    nice -n 19 .venv/bin/python bench/caro_tune_js.py fit
    nice -n 19 .venv/bin/python bench/caro_tune_js.py openings --preset exact-five --plies 6

``openings`` judges the second player's first moves (see its docstring): a quick measure, with less
noise than whole games, of what an evaluation change does to the opening as O.

Rapfi is built as docs/strength.md says (``$RAPFI`` or ``--rapfi``). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from public_match import RAPFI_DEFAULT, RAPFI_RULES, Rapfi, eval_value  # noqa: E402

GATE = Path(os.environ.get("PUBLIC_MATCH_DIR", Path.home() / "caro-gate"))
TUNE_DEFAULT = GATE / "tune"
FIRST_PLY = 4  # positions from this many stones on (the bench's openings have 3-4)


def games(preset: str, gate: Path = GATE) -> list[list[str]]:
    """Every finished game of ``preset`` on file: its whole move list (opening included)."""
    out = []
    for path in sorted(gate.glob(f"public-rapfi-{preset}-n*.jsonl")) + [gate / f"caro-{preset}.jsonl"]:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "opening_moves" in r:  # bench/strength_gate.py's records: the whole game
                out.append((list(r["moves"]), r.get("winner")))
            else:  # bench/public_match.py's: the opening, then the moves played
                out.append((r["opening"].split() + list(r["moves"]), r.get("winner")))
    return out


def positions(preset: str, gate: Path = GATE) -> list[tuple[tuple[str, ...], str | None]]:
    """Distinct positions (move prefixes with no five on the board) and the game's winner."""
    seen = set()
    out = []
    for moves, winner in games(preset, gate):
        for n in range(FIRST_PLY, len(moves)):  # the last prefix with every move is a won position
            key = tuple(moves[:n])
            if key not in seen:
                seen.add(key)
                out.append((key, winner))
    return out


class QuickRapfi(Rapfi):
    """Rapfi whose readiness poll after a move waits 20 ms between ABOUTs (public_match's waits
    up to 1 s for a dropped one: fine for a game, most of the time when labelling thousands)."""

    def sync(self, attempts: int = 3000) -> None:
        for _ in range(attempts):
            self.send("ABOUT")
            while True:
                line = self.line(timeout=0.02)
                if line is None:
                    break
                if line.startswith("name="):
                    return
        raise RuntimeError("Rapfi takes no command")


def position_line(preset: str, moves, ev: int, result: float) -> str:
    """One labelled position as the JSON line the ``positions-*.jsonl`` files hold."""
    return json.dumps({"preset": preset, "moves": list(moves), "eval": ev, "result": result}, separators=(",", ":")) + "\n"


def near_cells(board, radius: int) -> list[str]:
    """The empty cells within ``radius`` (columns and rows) of a stone on ``board``, sorted."""
    from caro.engine.coords import parse_square, square_name

    size = board.rules.size
    cells = set()
    for sq in board.moves:
        c, r = parse_square(sq, size)
        for dc in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                if 0 <= c + dc < size and 0 <= r + dr < size:
                    cells.add(square_name(c + dc, r + dr))
    return sorted(n for n in cells if board.stone_at(n) is None)


def label(args) -> int:
    from caro.engine.caro import PRESETS, Board

    args.dir.mkdir(parents=True, exist_ok=True)
    path = args.dir / f"positions-{args.preset}.jsonl"
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            done.add(tuple(json.loads(line)["moves"]))
    todo = [(m, w) for m, w in positions(args.preset) if m not in done]
    if args.limit:
        todo = todo[: args.limit]
    print(f"{len(todo)} positions to label ({len(done)} on file) -> {path}", flush=True)
    rules = PRESETS[args.preset].rules
    rapfi = QuickRapfi(args.rapfi, RAPFI_RULES[args.preset], args.nodes)
    try:
        with path.open("a", encoding="utf-8") as f:
            board0 = Board(rules)
            rapfi.new_game(board0)
            for i, (moves, winner) in enumerate(todo):
                board = Board(rules)
                for m in moves:
                    board.play(m)
                if board.outcome is not None:
                    continue
                rapfi.last_eval = None
                rapfi.move(board)
                if rapfi.last_eval is None:
                    continue
                side = board.turn
                result = 0.5 if winner is None else (1.0 if winner == side else 0.0)
                f.write(position_line(args.preset, moves, eval_value(rapfi.last_eval), result))
                f.flush()
                if i % 200 == 0:
                    print(f"  {i}/{len(todo)}", flush=True)
    finally:
        rapfi.close()
    return 0


def opening_positions(args) -> int:
    """More opening positions for the fit: from each of bench/match.py's openings, ``--walks``
    random continuations of up to ``--depth`` stones (each stone Rapfi's move at 1,000 nodes, or with
    probability 0.35 a random empty cell within two of the stones), every position on the way
    scored by Rapfi at ``--nodes``; kept in ``positions-<preset>-openings.jsonl`` (result: 0.5, the
    game was not played out: ``fit`` weighs it by Rapfi's eval alone)."""
    import random

    from caro.engine.caro import PRESETS, Board
    from match import CARO_OPENINGS, CARO_OPENINGS_4

    rng = random.Random(args.seed)
    rules = PRESETS[args.preset].rules
    rule = RAPFI_RULES[args.preset]
    mover, judge = QuickRapfi(args.rapfi, rule, 1000), QuickRapfi(args.rapfi, rule, args.nodes)
    path = args.dir / f"positions-{args.preset}-openings.jsonl"
    args.dir.mkdir(parents=True, exist_ok=True)
    seen = set()
    try:
        mover.new_game(Board(rules))
        judge.new_game(Board(rules))
        with path.open("a") as f:
            for walk in range(args.walks):
                opening = (CARO_OPENINGS_4 + CARO_OPENINGS)[walk % 24]
                board = Board(rules)
                for m in opening:
                    board.play(m)
                for _ in range(rng.randint(1, args.depth)):
                    if rng.random() < 0.35:
                        move = rng.choice(near_cells(board, 2))
                    else:
                        move = mover.move(board)
                    board.play(move)
                    if board.outcome is not None:
                        break
                    key = tuple(board.moves)
                    if key in seen:
                        continue
                    seen.add(key)
                    judge.last_eval = None
                    judge.move(board)
                    if judge.last_eval is None:
                        continue
                    f.write(json.dumps({"preset": args.preset.replace("-openings", ""), "moves": list(board.moves),
                                        "eval": eval_value(judge.last_eval), "result": 0.5}) + "\n")
                    f.flush()
                if walk % 20 == 0:
                    print(f"  walk {walk}: {len(seen)} positions", flush=True)
    finally:
        mover.close()
        judge.close()
    return 0


def openings(args) -> int:
    """The second player's first moves, judged: each of bench/match.py's openings (the 16
    four-stone, then the three-stone ones) is played from there by Rapfi (``--nodes``, as in the
    matches) for X and our Hard (the brain at ``--move-ms``, as in the matches) for O up to
    ``--plies`` stones, then Rapfi at ``--judge-nodes`` scores the position for X. Prints each and
    the mean (mate scores counted as +-1000): lower is better for us. Appends a JSON line a run to
    ``openings.jsonl`` in ``--dir``."""
    import time

    from caro.engine.caro import PRESETS, Board
    from match import CARO_OPENINGS, CARO_OPENINGS_4
    from public_match import caro_winner, play_game
    from strength_gate import JsBrain, source_commit

    rules = PRESETS[args.preset].rules
    rule = RAPFI_RULES[args.preset]
    chosen = (CARO_OPENINGS_4 + CARO_OPENINGS)[args.start:args.start + args.count]
    rapfi, judge, ours = QuickRapfi(args.rapfi, rule, args.nodes), QuickRapfi(args.rapfi, rule, args.judge_nodes), \
        JsBrain(args.preset, args.move_ms)
    rows = []
    try:
        for k, opening in enumerate(chosen):
            board = Board(rules)
            for m in opening:
                board.play(m)
            facts = play_game(ours, rapfi, board, "O", caro_winner, len(opening) + args.plies)
            if board.outcome is not None:
                value = 30000 if caro_winner(board.outcome) == "X" else -30000
            else:
                judge.new_game(board)
                judge.last_eval = None
                judge.move(board)
                value = eval_value(judge.last_eval)
                if board.turn != "X":
                    value = -value
            rows.append({"opening": " ".join(opening), "moves": facts["moves"], "judge_x": value})
            print(f"  {args.start + k:>2} {' '.join(opening):<14} {' '.join(facts['moves']):<24} X {value:+d}", flush=True)
    finally:
        for e in (rapfi, judge, ours):
            e.close()
    capped = [max(-1000, min(1000, r["judge_x"])) for r in rows]
    mean = sum(capped) / len(capped)
    lost = sum(1 for r in rows if r["judge_x"] >= 20000)
    print(f"{args.preset}: mean judge eval for X after {args.plies} plies: {mean:+.0f} (mates for X: {lost}/{len(rows)})")
    args.dir.mkdir(parents=True, exist_ok=True)
    with (args.dir / "openings.jsonl").open("a") as f:
        f.write(json.dumps({"preset": args.preset, "commit": source_commit(), "plies": args.plies, "nodes": args.nodes,
                            "judge_nodes": args.judge_nodes, "mean": round(mean), "mates": lost, "rows": rows,
                            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}) + "\n")
    return 0


def rapfi_games(args) -> int:
    """Positions of Rapfi-against-Rapfi games, for a fit on many more positions than our own games
    give: each game starts from one of bench/match.py's openings with 0-3 random stones added, or
    from 2-5 random stones near the centre; then every position is searched by Rapfi (``--nodes``,
    one thread), whose ``Eval`` (for the side to move) labels it, and the move played is Rapfi's
    or, with probability ``--random``, a random empty cell within two of the stones (so the
    positions are not only good play: the alpha-beta evaluates bad moves' positions too). The game
    ends at a five, a full board or ``--max-ply`` stones; its result labels every position. One
    JSON line a position in ``positions-<preset>-rr-s<seed>.jsonl`` (``fit`` reads every
    ``positions-*.jsonl``), written a game at a time; a rerun appends more games (use another
    ``--seed``)."""
    import random

    from caro.engine.caro import PRESETS, Board
    from caro.engine.coords import square_name
    from match import CARO_OPENINGS, CARO_OPENINGS_4

    rng = random.Random(args.seed)
    rules = PRESETS[args.preset].rules
    size = rules.size
    judge = QuickRapfi(args.rapfi, RAPFI_RULES[args.preset], args.nodes)
    path = args.dir / f"positions-{args.preset}-rr-s{args.seed}.jsonl"
    args.dir.mkdir(parents=True, exist_ok=True)

    total = 0
    try:
        judge.new_game(Board(rules))
        with path.open("a") as f:
            for game in range(args.games):
                board = Board(rules)
                if rng.random() < 0.5:
                    for m in rng.choice(CARO_OPENINGS_4 + CARO_OPENINGS):
                        board.play(m)
                    extra = rng.randint(0, 3)
                else:
                    centre = size // 2
                    board.play(square_name(centre + rng.randint(-1, 1), centre + rng.randint(-1, 1)))
                    extra = rng.randint(1, 4)
                for _ in range(extra):
                    board.play(rng.choice(near_cells(board, 2)))
                rows = []
                while board.outcome is None and len(board.moves) < args.max_ply and not board.is_full():
                    judge.last_eval = None
                    move = judge.move(board)
                    if judge.last_eval is not None:
                        rows.append((list(board.moves), eval_value(judge.last_eval), board.turn))
                    if rng.random() < args.random:
                        move = rng.choice(near_cells(board, 2))
                    board.play(move)
                winner = None
                if board.outcome is not None and board.outcome.winner is not None:
                    winner = board.outcome.winner
                for moves, ev, side in rows:
                    result = 0.5 if winner is None else (1.0 if winner == side else 0.0)
                    f.write(position_line(args.preset, moves, ev, result))
                f.flush()
                total += len(rows)
                if game % 10 == 0:
                    print(f"  game {game}: {total} positions", flush=True)
    finally:
        judge.close()
    return 0


def fit(args) -> int:
    cmd = ["node", str(ROOT / "bench" / "js" / "caro_tune.mjs"), "--dir", str(args.dir), "--k", str(args.k),
           "--result-weight", str(args.result_weight), "--l2", str(args.l2), "--iters", str(args.iters),
           "--opening-weight", str(args.opening_weight), "--model", args.model, "--holdout", str(args.holdout)]
    return subprocess.call(cmd)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("label", help="score the positions of the games on file with Rapfi")
    p.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES))
    p.add_argument("--nodes", type=int, default=50000, help="Rapfi's INFO max_node a position")
    p.add_argument("--limit", type=int, default=0, help="label at most this many positions (0: all)")
    p.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    p.add_argument("--dir", type=Path, default=TUNE_DEFAULT)
    q = sub.add_parser("fit", help="fit the evaluation's weights (node bench/js/caro_tune.mjs)")
    q.add_argument("--dir", type=Path, default=TUNE_DEFAULT)
    q.add_argument("--k", type=float, default=250.0, help="Rapfi's eval scale: winning chance sigmoid(eval / k)")
    q.add_argument("--result-weight", type=float, default=0.25, help="share of the game result in the target")
    q.add_argument("--l2", type=float, default=3e-2, help="pull towards the weights in the code")
    q.add_argument("--iters", type=int, default=1500)
    q.add_argument("--opening-weight", type=float, default=1.0, help="weight of positions of at most 14 stones")
    q.add_argument("--model", default="pairs", choices=["pairs", "table"],
                   help="pairs: line and pair weights; table: a value per combination of four line classes")
    q.add_argument("--holdout", type=int, default=5, help="one game in this many held out (by its first 8 moves)")
    o = sub.add_parser("openings", help="our first moves as O against Rapfi, judged by Rapfi")
    o.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES))
    o.add_argument("--nodes", type=int, default=10000, help="Rapfi's max_node as X")
    o.add_argument("--judge-nodes", type=int, default=200000)
    o.add_argument("--plies", type=int, default=6, help="stones played after the opening before the judge")
    o.add_argument("--move-ms", type=int, default=1000)
    o.add_argument("--start", type=int, default=0)
    o.add_argument("--count", type=int, default=24)
    o.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    o.add_argument("--dir", type=Path, default=TUNE_DEFAULT)
    g = sub.add_parser("opening-positions", help="random opening positions scored by Rapfi")
    g.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES))
    g.add_argument("--nodes", type=int, default=100000)
    g.add_argument("--walks", type=int, default=240)
    g.add_argument("--depth", type=int, default=8)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    g.add_argument("--dir", type=Path, default=TUNE_DEFAULT)
    r = sub.add_parser("rapfi-games", help="positions of Rapfi-against-Rapfi games, scored by Rapfi")
    r.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES))
    r.add_argument("--nodes", type=int, default=20000, help="Rapfi's max_node a position (its move and label)")
    r.add_argument("--games", type=int, default=400)
    r.add_argument("--random", type=float, default=0.1, help="chance of a random move instead of Rapfi's")
    r.add_argument("--max-ply", type=int, default=120)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    r.add_argument("--dir", type=Path, default=TUNE_DEFAULT)
    args = parser.parse_args(argv)
    return {"label": label, "fit": fit, "openings": openings, "opening-positions": opening_positions,
            "rapfi-games": rapfi_games}[args.step](args)


if __name__ == "__main__":
    sys.exit(main())
