"""A verified balanced caro opening set (issue 28's measuring stick), chosen by Rapfi's evaluation only.

bench/match.py's openings (four close stones X, O, X, O with X to move; three stones with O to
move) were never checked for balance: Rapfi at 10,000 nodes scores 17-23 % as O against itself on
them (bench/rapfi_second.py), so the second player loses there whoever plays it. This script makes
a set of openings that a strong engine judges about even, per rule, as Gomocup does for freestyle:

1. ``candidates``: the bench's 24 old openings, then ``--count`` random openings of 4, 5 or 6
   stones, mostly 5 (``--stone-counts``; STONE_COUNTS says why) (X first on H8, then O, X, ... alternately; every later stone inside the 7x7 box around
   H8 and within two cells of a stone already placed, so close and loose shapes both occur), seeded
   (``--seed``), one per class under the board's 8 symmetries (colours and cells; the order of the
   stones does not matter to a position).
2. ``evaluate --preset P``: Rapfi (classical evaluation, one thread, ``INFO max_node``, no time
   limit; a fresh process per position, so nothing carries over and a value is reproducible) scores
   every candidate at ``--screen-nodes``, then the ``--refine`` candidates nearest to even at
   ``--nodes``. Its ``Eval`` is from the side to move's view. Written to
   ``bench/data/opening-evals-<preset>.json`` (every candidate, both node counts).
3. ``select --preset P --band B``: the refined candidates with ``|eval| <= B`` at ``--nodes``
   (no mate score), most even first, at most ``--keep`` of them, written to
   ``bench/data/balanced-openings-<preset>.json`` with Rapfi's commit and settings.
   ``bench/public_match.py --opening-set balanced`` plays that file's openings in its order.

Nothing here looks at our computer's games: the set is fixed by Rapfi's judgement alone, before
any game of ours is played on it. Node-bound, so the machine's load changes only the time taken.

    nice -n 19 .venv/bin/python bench/balanced_openings.py evaluate --preset freestyle
    nice -n 19 .venv/bin/python bench/balanced_openings.py evaluate --preset exact-five
    .venv/bin/python bench/balanced_openings.py select --preset freestyle --band 40
    .venv/bin/python bench/balanced_openings.py show --preset freestyle     # the evaluation's spread

Not part of the test suite; the pure parts (candidates, symmetry classes, selection, loading the
set) are tested in tests/unit/bench/test_balanced_openings.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

DATA = ROOT / "bench" / "data"
SIZE = 15  # the 15x15 board of issue 28's matches
CENTRE = (7, 7)  # H8
BOX = 3  # candidate stones within 3 cells (Chebyshev) of H8: the 7x7 box E5..K11
REACH = 2  # each later stone within 2 cells (Chebyshev) of a stone already placed
STONE_COUNTS = (4, 5, 5, 5, 5, 6)  # drawn uniformly; why mostly 5 stones: see PILOT_COUNTS
# The pilot run (``--stone-counts 3,4,4,5 --count 400``, stopped after ~100 candidates a rule): at 200,000
# nodes every 3-stone opening (O to move, X a stone up) was at -94 or worse for O and every 4-stone one
# (X to move, equal stones) at +95 or better for X; only 5-stone openings (O to move, X three stones to
# two) spread across even. So the candidates are mostly 5-stone ones, with some 4 and 6 to keep looking.
PILOT_COUNTS = (3, 4, 4, 5)
SCREEN_NODES = 200_000
REFINE_NODES = 1_000_000
MATE_THRESHOLD = 20_000  # |value| above this is a mate score (public_match.MATE_VALUE - plies)


# -- candidates (pure) ---------------------------------------------------------------------------

def _images(col: int, row: int) -> list[tuple[int, int]]:
    """The 8 images of a cell under the symmetries of the square board (about its centre)."""
    m = SIZE - 1
    return [(col, row), (m - row, col), (m - col, m - row), (row, m - col),
            (m - col, row), (col, m - row), (row, col), (m - row, m - col)]


def canonical(stones: tuple[str, ...]) -> tuple:
    """A position's class key under the 8 symmetries: the smallest image of (X cells, O cells),
    each sorted. ``stones`` alternate X, O, X, ... from the first; their order is not part of
    the key (two move orders reaching one position are one opening)."""
    from caro.engine.coords import parse_square

    cells = [parse_square(s, SIZE) for s in stones]
    keys = []
    for t in range(8):
        xs = tuple(sorted(_images(*c)[t] for c in cells[0::2]))
        os_ = tuple(sorted(_images(*c)[t] for c in cells[1::2]))
        keys.append((xs, os_))
    return min(keys)


def random_opening(rng: random.Random, counts=STONE_COUNTS) -> tuple[str, ...]:
    """One random opening: H8, then O, X, ... alternately, ``rng.choice(counts)`` stones in
    all, each later one in the 7x7 box around H8 and within REACH of a placed stone."""
    from caro.engine.coords import square_name

    count = rng.choice(counts)
    placed = [CENTRE]
    while len(placed) < count:
        options = [(c, r) for c in range(CENTRE[0] - BOX, CENTRE[0] + BOX + 1)
                   for r in range(CENTRE[1] - BOX, CENTRE[1] + BOX + 1)
                   if (c, r) not in placed and any(max(abs(c - pc), abs(r - pr)) <= REACH for pc, pr in placed)]
        placed.append(rng.choice(options))
    return tuple(square_name(c, r) for c, r in placed)


def candidates(seed: int, count: int, counts=STONE_COUNTS) -> list[dict]:
    """The bench's old openings (``source`` "bench") then ``count`` random classes (``source``
    "random"), one per symmetry class, in a fixed order for a seed: [{stones, source}]."""
    from match import CARO_OPENINGS, CARO_OPENINGS_4

    seen, out = set(), []
    for stones in list(CARO_OPENINGS_4) + list(CARO_OPENINGS):
        key = canonical(stones)
        if key not in seen:
            seen.add(key)
            out.append({"stones": list(stones), "source": "bench"})
    rng = random.Random(seed)
    made = 0
    while made < count:
        stones = random_opening(rng, counts)
        key = canonical(stones)
        if key in seen:
            continue
        seen.add(key)
        out.append({"stones": list(stones), "source": "random"})
        made += 1
    return out


def to_move(stones) -> str:
    """The side to move after an opening that starts with X: X after an even count."""
    return "X" if len(stones) % 2 == 0 else "O"


# -- selection (pure) ----------------------------------------------------------------------------

def select(evaluated: list[dict], band: int, keep: int) -> list[dict]:
    """The refined candidates (those with a ``refined`` eval) whose value is within ``band`` of
    even (a mate score never is), most even first (ties: the candidate list's order), at most
    ``keep``; each class once (the candidate list already holds one a class)."""
    pool = [c for c in evaluated if c.get("refined") is not None
            and abs(c["refined"]["value"]) <= band and abs(c["refined"]["value"]) < MATE_THRESHOLD]
    pool.sort(key=lambda c: (abs(c["refined"]["value"]), evaluated.index(c)))
    return pool[:keep]


def set_path(preset: str) -> Path:
    return DATA / f"balanced-openings-{preset}.json"


def load_balanced(preset: str, path: Path | None = None) -> list[tuple[str, ...]]:
    """The balanced set's openings for a preset ("freestyle", "exact-five"), in the file's order
    (most even first). Raises SystemExit when the file is missing (make it with ``select``)."""
    path = Path(path) if path else set_path(preset)
    if not path.exists():
        raise SystemExit(f"no balanced opening set for {preset} at {path}: make it with bench/balanced_openings.py")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("preset") != preset:
        raise SystemExit(f"{path} is the set of {data.get('preset')!r}, not {preset!r}")
    return [tuple(o["stones"]) for o in data["openings"]]


# -- Rapfi's evaluation --------------------------------------------------------------------------

def rapfi_eval(rapfi_path: Path, rule: int, nodes: int, stones) -> dict:
    """Rapfi's judgement of a position in a fresh process: {value (side to move's view, a mate as
    public_match.eval_value gives it), eval (Rapfi's text), best, depth, nodes_done, cpu_ms}."""
    from caro.engine.caro import PRESETS, Board
    from public_match import Rapfi, eval_value

    preset = {0: "freestyle", 1: "exact-five"}[rule]
    board = Board(PRESETS[preset].rules)
    for s in stones:
        board.play(s)
    engine = Rapfi(rapfi_path, rule, nodes)
    infos = []
    original = engine.line

    def line(timeout=None):
        text = original(timeout)
        if text and text.startswith("MESSAGE") and "| Depth " in text:
            infos.append(text)
        return text

    engine.line = line
    try:
        engine.new_game(board)
        c0 = engine.cpu_ms()
        best = engine.move(board)
        cpu = engine.cpu_ms() - c0
    finally:
        engine.close()
    last = infos[-1] if infos else ""
    fields = {k.strip(): v.strip() for k, v in (part.strip().split(" ", 1) for part in last[8:].split("|")
                                                 if " " in part.strip())}
    return {"value": eval_value(engine.last_eval), "eval": engine.last_eval, "best": best,
            "depth": fields.get("Depth"), "nodes_done": fields.get("Node"), "cpu_ms": round(cpu)}


def evaluate(args) -> int:
    from public_match import RAPFI_RULES, engine_commit

    rule = RAPFI_RULES[args.preset]
    out = DATA / f"opening-evals-{args.preset}.json"
    pool = candidates(args.seed, args.count, args.stone_counts)
    done = {}
    if out.exists():  # resume: keep what an earlier run with the same settings scored
        old = json.loads(out.read_text(encoding="utf-8"))
        if (old["seed"], old["screen_nodes"], old["nodes"], old.get("stone_counts")) == (
                args.seed, args.screen_nodes, args.nodes, list(args.stone_counts)):
            done = {tuple(c["stones"]): c for c in old["candidates"]}
    print(f"{args.preset}: {len(pool)} candidates, screen at {args.screen_nodes} nodes, the {args.refine} "
          f"nearest even again at {args.nodes} (load {os.getloadavg()[0]:.1f})", flush=True)
    t0 = time.time()

    def save():
        data = {"preset": args.preset, "rapfi_rule": rule, "rapfi_commit": engine_commit(args.rapfi),
                "rapfi_settings": {"thread_num": 1, "max_memory": "256 MB", "timeout_turn": 0, "timeout_match": 0,
                                   "evaluation": "classical (internal config, no network)", "process": "fresh per position"},
                "seed": args.seed, "count": args.count, "stone_counts": list(args.stone_counts), "screen_nodes": args.screen_nodes, "nodes": args.nodes,
                "refine": args.refine, "candidates": pool}
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    for i, c in enumerate(pool):
        prior = done.get(tuple(c["stones"]), {})
        c["to_move"] = to_move(c["stones"])
        c["screen"] = prior.get("screen") or rapfi_eval(args.rapfi, rule, args.screen_nodes, c["stones"])
        c["refined"] = prior.get("refined")
        if i % 20 == 0:
            print(f"  screened {i + 1}/{len(pool)} ({time.time() - t0:.0f} s)", flush=True)
            save()
    save()
    nearest = sorted((c for c in pool if abs(c["screen"]["value"]) < MATE_THRESHOLD),
                     key=lambda c: abs(c["screen"]["value"]))[: args.refine]
    for i, c in enumerate(nearest):
        if c["refined"] is None:
            c["refined"] = rapfi_eval(args.rapfi, rule, args.nodes, c["stones"])
        print(f"  refined {i + 1}/{len(nearest)} {' '.join(c['stones']):<20} screen {c['screen']['value']:>+6} "
              f"-> {c['refined']['value']:>+6} ({c['refined']['depth']}, {time.time() - t0:.0f} s)", flush=True)
        if i % 5 == 0:
            save()
    save()
    print(f"-> {out}")
    return 0


def do_select(args) -> int:
    src = DATA / f"opening-evals-{args.preset}.json"
    data = json.loads(src.read_text(encoding="utf-8"))
    chosen = select(data["candidates"], args.band, args.keep)
    result = {
        "preset": args.preset, "rapfi_rule": data["rapfi_rule"], "rapfi_commit": data["rapfi_commit"],
        "rapfi_settings": data["rapfi_settings"], "nodes": data["nodes"], "screen_nodes": data["screen_nodes"],
        "band": args.band, "seed": data["seed"], "candidates": len(data["candidates"]),
        "refined": sum(1 for c in data["candidates"] if c.get("refined")),
        "made_by": f"bench/balanced_openings.py select --preset {args.preset} --band {args.band} --keep {args.keep}",
        "openings": [{"stones": c["stones"], "to_move": c["to_move"], "eval": c["refined"]["eval"],
                      "value": c["refined"]["value"], "best": c["refined"]["best"], "depth": c["refined"]["depth"],
                      "screen_eval": c["screen"]["eval"], "source": c["source"]} for c in chosen],
    }
    set_path(args.preset).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"{args.preset}: {len(chosen)} openings with |eval| <= {args.band} at {data['nodes']} nodes "
          f"-> {set_path(args.preset)}")
    for o in result["openings"]:
        print(f"  {' '.join(o['stones']):<20} {o['to_move']} to move  eval {o['eval']:>5}  ({o['source']})")
    return 0


def show(args) -> int:
    data = json.loads((DATA / f"opening-evals-{args.preset}.json").read_text(encoding="utf-8"))
    cs = data["candidates"]
    for label, pick in (("bench (old set)", lambda c: c["source"] == "bench"), ("random", lambda c: c["source"] == "random")):
        vals = sorted(c["screen"]["value"] for c in cs if pick(c) and c.get("screen"))
        if not vals:
            continue
        mates = sum(1 for v in vals if abs(v) >= MATE_THRESHOLD)
        calm = [v for v in vals if abs(v) < MATE_THRESHOLD]
        print(f"{label}: {len(vals)} screened at {data['screen_nodes']}, {mates} mate scores; median "
              f"{calm[len(calm) // 2] if calm else '-'}; |eval| <= 25/50/100/200: "
              + "/".join(str(sum(1 for v in calm if abs(v) <= b)) for b in (25, 50, 100, 200)))
    refined = sorted((c for c in cs if c.get("refined")), key=lambda c: abs(c["refined"]["value"]))
    print(f"refined at {data['nodes']}: {len(refined)}")
    for c in refined:
        print(f"  {' '.join(c['stones']):<20} {c['to_move']}  screen {c['screen']['eval']:>6}  "
              f"refined {c['refined']['eval']:>6}  depth {c['refined']['depth']}  ({c['source']})")
    for c in (c for c in cs if c["source"] == "bench"):
        print(f"  bench {' '.join(c['stones']):<16} {c['to_move']} to move: screen {c['screen']['eval']}")
    return 0


def main(argv=None) -> int:
    from public_match import RAPFI_DEFAULT, RAPFI_RULES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["evaluate", "select", "show"])
    parser.add_argument("--preset", default="freestyle", choices=sorted(RAPFI_RULES))
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--count", type=int, default=360, help="random candidates (besides the bench's 24)")
    parser.add_argument("--stone-counts", type=lambda t: tuple(int(n) for n in t.split(",")), default=STONE_COUNTS,
                        help="stones of a random candidate, drawn uniformly from this list (e.g. 3,4,4,5: the pilot)")
    parser.add_argument("--screen-nodes", type=int, default=SCREEN_NODES)
    parser.add_argument("--nodes", type=int, default=REFINE_NODES, help="the refined evaluation's max_node")
    parser.add_argument("--refine", type=int, default=64, help="candidates evaluated again at --nodes")
    parser.add_argument("--band", type=int, default=40, help="select: |eval| at --nodes at most this")
    parser.add_argument("--keep", type=int, default=32, help="select: at most this many openings")
    parser.add_argument("--rapfi", type=Path, default=Path(os.environ.get("RAPFI", RAPFI_DEFAULT)))
    args = parser.parse_args(argv)
    return {"evaluate": evaluate, "select": do_select, "show": show}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
