"""Does the JS Hard choose what the Python Hard chooses, on the same positions with the same CPU budget?

Usage (from the repository root; niced, minutes of CPU)::

    nice -n 10 .venv/bin/python bench/computer_agreement.py                      # bench/data/hard_games.json
    nice -n 10 .venv/bin/python bench/computer_agreement.py --gate ~/caro-gate    # the strength gate's games

The strength gate (bench/strength_gate.py) says how the two score against each other, but 48
games leave a wide interval; this bench looks at the decisions themselves. Positions: every
``--every`` plies (from ply 6 to ``--max-ply``) of real games, ``bench/data/hard_games.json`` or,
with ``--gate DIR``, the gate's results files (``caro-<preset>.jsonl``). On each, the Python Hard
chooses twice (its own run-to-run agreement is the baseline: its search stops by the clock) and the
JS Hard once, as ``dev.py brain --cpu-clock`` (one brain a rule set, the position sent as a Gomocup
BOARD), both with the gate's budget (``--move-ms``; each plans 64 % of it, CPU time). Where the JS
move is neither Python move, a deep threat search (the Python df-pn VCF, then VCT with threes
anywhere, ``--deep-s`` CPU seconds, at most 400,000 nodes) says whether the JS move and the Python
move leave the opponent a forced win.

Prints each differing position, then per rule set: positions, JS == Python's first choice, Python's
two choices equal, JS among Python's choices, and the differing moves that lose (JS's only,
Python's only, both). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from caro.engine.caro import PRESETS, Board  # noqa: E402
from strength_gate import BRAIN_SHARE, CARO_PRESETS, JsBrain, load_results  # noqa: E402

GAMES = ROOT / "bench" / "data" / "hard_games.json"
FIRST_PLY = 6
DEEP_NODES = 400000


def games(args) -> list[tuple[str, list[str]]]:
    """(preset, moves) of every game the positions come from."""
    if args.gate is None:
        return [(g["preset"], g["moves"].split()) for g in json.loads(GAMES.read_text())["games"]
                if g["preset"] in args.presets]
    return [(p, g["moves"]) for p in args.presets for g in load_results(args.gate / f"caro-{p}.jsonl")]


def deep_win(board: Board, seconds: float) -> bool:
    """Whether the side to move has a VCF or a VCT (threes anywhere) the deep search finds."""
    from bench.pybots.caro_bots import _root
    from bench.pybots.threats import ThreatSearch

    fb = _root(board)
    ts = ThreatSearch(fb, time.process_time() + seconds, max_nodes=DEEP_NODES, compiled=True, zone=False,
                      three_width=20)
    return (ts.vcf(depth=20) or ts.vct(depth=14)) is not None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default=",".join(CARO_PRESETS), help="rule sets, comma-separated")
    parser.add_argument("--gate", type=Path, default=None, help="the strength gate's results folder")
    parser.add_argument("--every", type=int, default=4, help="plies between two positions of a game")
    parser.add_argument("--max-ply", type=int, default=50, help="no position after this ply")
    parser.add_argument("--move-ms", type=int, default=1000, help="the move time (the gate's timeout_turn)")
    parser.add_argument("--deep-s", type=float, default=6.0, help="CPU seconds of each deep threat search")
    args = parser.parse_args(argv)
    args.presets = [p for p in args.preset.split(",") if p]
    from bench.pybots import choose_move, warm_up

    time.perf_counter = time.process_time  # the Python Hard thinks in CPU time, as in the gate
    warm_up()
    budget_ms = int(args.move_ms * BRAIN_SHARE)
    names = ("positions", "js=py1", "py1=py2", "js in py", "differ", "js loses", "py loses", "both lose")
    totals: dict[str, dict[str, int]] = {}
    brains: dict[str, JsBrain] = {}
    try:
        for preset, moves in games(args):
            row = totals.setdefault(preset, dict.fromkeys(names, 0))
            brain = brains.get(preset) or brains.setdefault(preset, JsBrain(preset, args.move_ms))
            for ply in range(FIRST_PLY, min(len(moves) - 2, args.max_ply + 1), args.every):
                board = Board(PRESETS[preset].rules)
                for m in moves[:ply]:
                    board.play(m)
                if board.outcome is not None:
                    break
                py = [choose_move(board, "hard", budget_ms=budget_ms) for _ in range(2)]
                brain.new_game(board)
                js, stats = brain.move(board)
                row["positions"] += 1
                row["js=py1"] += js == py[0]
                row["py1=py2"] += py[0] == py[1]
                row["js in py"] += js in py
                if js in py:
                    continue
                lost = []
                for move in (js, py[0]):
                    after = board.copy()
                    after.play(move)
                    lost.append(deep_win(after, args.deep_s))
                row["differ"] += 1
                row["js loses"] += lost[0] and not lost[1]
                row["py loses"] += lost[1] and not lost[0]
                row["both lose"] += lost[0] and lost[1]
                print(f"  {preset:<10} ply {ply:>2} ({' '.join(moves[:4])}...): JS {js} ({stats.get('phase', '-')}, "
                      f"depth {stats.get('depth', '-')}){' loses' if lost[0] else ''}; Python {py[0]}/{py[1]}"
                      f"{' loses' if lost[1] else ''}", flush=True)
    finally:
        for brain in brains.values():
            brain.close()
    print(f"\n{'':<11}" + "".join(f"{n:>10}" for n in names))
    for preset, row in totals.items():
        print(f"{preset:<11}" + "".join(f"{row[n]:>10}" for n in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
