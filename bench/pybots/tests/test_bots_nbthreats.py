"""The compiled threat search (:mod:`bench.pybots.nbthreats`, issue 16) against the Python one.

On random positions of every rule set but Renju (freestyle, exact five, caro with both edge
rules; sizes 15 and the others played), the compiled df-pn VCT visits the same tree as the
Python df-pn (same verdict, same node count) and the compiled VCF gives the Python depth-first
VCF's verdict; every line it returns replays legally on the engine's board and ends in the
attacker's five (the engine's judgement, :mod:`bench.pybots.enginecheck`). The shared puzzle
file's wins that the Python search finds are found too; Renju keeps the Python search.
No timing: searches are bounded by nodes only.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from bench.pybots import threats
from bench.pybots.enginecheck import stopping_replies, winning_cells
from bench.pybots.fastboard import FastBoard
from bench.pybots.threats import ThreatSearch
from caro.engine.caro import PRESETS, Board, Rules
from caro.engine.coords import square_name

PUZZLES = Path(__file__).resolve().parents[3] / ".." / "shared" / "cases" / "gomoku-puzzles.json"
FAR = time.perf_counter() + 10 ** 6  # searches here are bounded by nodes, never by the clock
CASES = [("caro-vn", 15), ("caro-exact", 15), ("caro-edge-open", 15), ("freestyle", 15), ("exact-five", 15),
         ("freestyle", 19), ("caro-vn", 13), ("exact-five", 11)]


def _random_board(rules: Rules, rng: random.Random, stones: int) -> Board | None:
    """A random position: ``stones`` stones near the centre (None if a five came up)."""
    board = Board(rules)
    c = rules.size // 2
    while len(board.moves) < stones:
        col = min(rules.size - 1, max(0, round(rng.gauss(c, 2.2))))
        row = min(rules.size - 1, max(0, round(rng.gauss(c, 2.2))))
        square = square_name(col, row)
        if board.stone_at(square) is None and board.play(square) is not None:
            return None
    return board


def _replays_to_a_win(board: Board, fb: FastBoard, line: list, deep: bool = True) -> bool:
    """Whether ``line`` (attacker first, defender replies between) is legal on the engine's
    board and ends in the attacker's five, or in a five-threat no reply stops, or (a final
    None after threes) in a position where every reply of the defender leaves the attacker a
    move to an unstoppable five-threat (checked with the engine when ``deep``)."""
    board = board.copy()
    attacker = board.turn
    for k, cell in enumerate(line):
        if cell is None:
            assert k == len(line) - 1
            if board.turn == attacker:
                return False
            if winning_cells(board, attacker):
                return not stopping_replies(board)
            return not deep or _every_reply_loses(board)
        outcome = board.play(fb.name(cell))  # raises IllegalMove on an illegal move
        if outcome is not None:
            return k == len(line) - 1 and outcome.winner == attacker
    return False


def _every_reply_loses(board: Board) -> bool:
    """Engine judgement: after every legal reply of the side to move, the other side has a
    move to a five-threat no reply stops (its candidates proposed by the bot's table: the
    cells where it makes an open four or a four; the verdict is the engine's)."""
    defender = board.turn
    attacker = "O" if defender == "X" else "X"
    a = 1 if attacker == "X" else 2
    for col in range(board.rules.size):
        for row in range(board.rules.size):
            reply = square_name(col, row)
            if board.stone_at(reply) is not None:
                continue
            after = board.copy()
            if after.play(reply) is not None or winning_cells(after, defender):
                return False  # the reply wins or makes a four of its own
            fb = FastBoard.from_engine(after)
            tries = sorted(set(fb.sets[a][6]) | set(fb.sets[a][5]))
            if not any(_unstoppable(after, fb.name(q)) for q in tries):
                return False
    return True


def _unstoppable(board: Board, move: str) -> bool:
    trial = board.copy()
    if trial.play(move) is not None:
        return True
    return bool(winning_cells(trial, board.turn)) and not stopping_replies(trial)


def _positions(slug: str, size: int, count: int, seed: int):
    rules = Rules(**{**PRESETS[slug].rules.to_dict(), "size": size})
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = _random_board(rules, rng, rng.randrange(8, 22))
        if board is not None:
            out.append(board)
    return out


@pytest.fixture
def exact_tables(monkeypatch):
    """One kernel call per search (no node chunks) and a table that never drops an entry, so
    the compiled search's node count can be compared with the Python one's."""
    monkeypatch.setattr(threats, "NB_FIRST_CHUNK", 10 ** 9)
    monkeypatch.setattr(threats, "NB_MAX_CHUNK", 10 ** 9)
    monkeypatch.setattr(threats, "NB_TT_BITS_UNSHARED", 20)


@pytest.mark.parametrize("slug,size", CASES)
def test_compiled_vct_visits_the_python_dfpn_tree_and_its_lines_win(slug, size, exact_tables):
    compared = wins = deep = 0
    for k, board in enumerate(_positions(slug, size, 10, seed=size * 100 + len(slug))):
        fb = FastBoard.from_engine(board)
        ThreatSearch(fb, FAR, max_nodes=20000, compiled=True).dfpn(6)  # fills the window table
        nb = ThreatSearch(fb, FAR, max_nodes=20000, compiled=True)
        py = ThreatSearch(fb, FAR, max_nodes=20000, compiled=False)
        assert nb.compiled and not py.compiled
        got, want = nb.dfpn(6), py.dfpn(6)
        if py.timed_out or nb.timed_out:
            continue
        compared += 1
        assert (got is None) == (want is None), (slug, size, k, board.moves)
        assert nb.nodes == py.nodes, (slug, size, k, board.moves)
        if got is not None:
            wins += 1
            # the engine's full check of a win by threes is slow: the first two lines of a case
            ends_in_threes = got[-1] is None and len(got) >= 2
            assert _replays_to_a_win(board, fb, got, deep=deep < 2), (slug, size, k, board.moves)
            deep += ends_in_threes
    assert compared >= 6 and 0 < wins < compared, (compared, wins)


@pytest.mark.parametrize("slug,size", CASES)
def test_compiled_vcf_gives_the_python_vcf_verdict_and_its_lines_win(slug, size):
    compared = wins = 0
    for k, board in enumerate(_positions(slug, size, 14, seed=size * 7 + len(slug))):
        fb = FastBoard.from_engine(board)
        for side in (1, 2):  # both sides as the attacker (a null move for the other one)
            fb.turn = side
            if fb.sets[3 - side][7]:
                continue  # the other side has a five now: no null move here
            nb = ThreatSearch(fb, FAR, max_nodes=40000, compiled=True)
            py = ThreatSearch(fb, FAR, max_nodes=40000, compiled=False)
            got, want = nb.vcf(12), py.vcf(12)
            if py.timed_out or nb.timed_out:
                continue
            compared += 1
            assert (got is None) == (want is None), (slug, size, k, side, board.moves)
            if got is not None:
                wins += 1
                probe = Board.from_stones(board.rules, x=[s for s, v in board.stones().items() if v == "X"],
                                          o=[s for s, v in board.stones().items() if v == "O"],
                                          to_move="X" if side == 1 else "O")
                assert _replays_to_a_win(probe, fb, got), (slug, size, k, side, board.moves)
        fb.turn = 1 if board.turn == "X" else 2
    assert compared >= 10 and wins > 0, (compared, wins)


@pytest.mark.parametrize("rule", ["freestyle", "exact"])
@pytest.mark.parametrize("half", [0, 1])
def test_the_puzzle_wins_the_python_search_finds_are_found_compiled(rule, half):
    """Every win puzzle (of a rule, one half of them per test) the Python VCF + VCT finds with
    10,000 nodes, the compiled one finds with 40,000 (a fraction of the time: node restarts
    after window-table misses and node chunks count too), with a line that wins by the
    engine's judgement (the slow full check of a win by threes: the first such line)."""
    if not PUZZLES.is_file():
        pytest.fail(f"shared puzzle file missing: {PUZZLES} (shared/ must sit beside the checkout)")
    puzzles = [p for p in json.loads(PUZZLES.read_text(encoding="utf-8"))
               if p.get("kind") == "win" and p["rule"] == rule][half::2]
    found_py = found_nb = deep = 0
    for puzzle in puzzles:
        board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
        for square in puzzle["moves"]:
            board.play(square)
        fb = FastBoard.from_engine(board)
        py = ThreatSearch(fb, FAR, max_nodes=10000, compiled=False)
        want = py.vcf(depth=16) or py.vct(depth=10)
        nb = ThreatSearch(fb, FAR, max_nodes=40000, compiled=True)
        got = nb.vcf(depth=16) or nb.vct(depth=10)
        found_py += want is not None
        found_nb += got is not None
        if want is not None:
            assert got is not None, puzzle["id"]
        if got is not None:
            assert _replays_to_a_win(board, fb, got, deep=deep < 1), puzzle["id"]
            deep += got[-1] is None and not winning_cells(_played(board, fb, got), board.turn)
    assert found_py >= 3 and found_nb >= found_py


def _played(board: Board, fb: FastBoard, line: list) -> Board:
    board = board.copy()
    for cell in line:
        if cell is None or board.play(fb.name(cell)) is not None:
            break
    return board


def test_the_compiled_search_resumes_after_window_table_misses():
    """A rule set and size never searched in this process: the kernel stops on every window it
    has not seen, Python classifies them and calls again, and the verdict is the Python one."""
    rules = Rules(size=13, exact=True, blocked="opponent")
    board = Board.from_stones(rules, x=["E5", "F5", "G7", "G8"], o=["A1", "A13", "M1", "M13"], to_move="X")
    fb = FastBoard.from_engine(board)
    stored = fb.pat.stored
    nb = ThreatSearch(fb, FAR, max_nodes=50000, compiled=True)
    got = nb.dfpn(6)
    assert fb.pat.stored > stored  # the kernel asked for windows
    want = ThreatSearch(fb, FAR, max_nodes=50000, compiled=False).dfpn(6)
    assert (got is None) == (want is None) and got is not None
    assert _replays_to_a_win(board, fb, got)


def test_shared_search_dispatch_renju_stays_in_python():
    renju = FastBoard.from_engine(Board(PRESETS["renju"].rules))
    free = FastBoard.from_engine(Board(PRESETS["freestyle"].rules))
    assert not ThreatSearch(renju, FAR, shared=True).compiled
    assert not ThreatSearch(renju, FAR, compiled=True).compiled
    assert ThreatSearch(free, FAR, shared=True).compiled
    assert not ThreatSearch(free, FAR).compiled  # unshared (Medium's VCF, the openings): Python


def test_renju_threat_search_never_plays_through_a_foul():
    """X's fork square H8 (two open threes) is a double-three foul under Renju: the Renju
    search (Python) never starts its line there, and its line replays on the engine (which
    refuses fouls); the same stones under freestyle (compiled) give the fork's win."""
    x, o = ["F8", "G8", "H6", "H7"], ["A1", "A15", "O1", "O15"]
    for slug in ("renju", "freestyle"):
        board = Board.from_stones(PRESETS[slug].rules, x=x, o=o, to_move="X")
        fb = FastBoard.from_engine(board)
        ts = ThreatSearch(fb, FAR, max_nodes=50000, shared=True)
        assert ts.compiled is (slug != "renju")
        line = ts.dfpn(6)
        if slug == "freestyle":
            assert line is not None
        if line is not None:
            assert _replays_to_a_win(board, fb, line), slug
            assert slug != "renju" or fb.name(line[0]) != "H8"


@pytest.mark.parametrize("slug", ["caro-vn", "freestyle"])
def test_shared_vcf_and_vct_tables_do_not_mix(slug):
    """A win by threes and no win by fours: whichever search ran first on the rule set's shared
    table, the VCF finds nothing (a VCT proof is no VCF) and the VCT finds the fork (a VCF
    disproof is no VCT disproof)."""
    board = Board.from_stones(PRESETS[slug].rules, x=["F8", "G8", "H6", "H7"], o=["A1", "A15", "O1", "O15"],
                              to_move="X")
    fb = FastBoard.from_engine(board)
    assert ThreatSearch(fb, FAR, max_nodes=50000, compiled=False).vcf(12) is None
    for _ in range(2):
        vct = ThreatSearch(fb, FAR, max_nodes=50000, shared=True).vct(8)
        vcf = ThreatSearch(fb, FAR, max_nodes=50000, shared=True).vcf(12)
        assert vct is not None and vcf is None
        assert _replays_to_a_win(board, fb, vct, deep=False)  # (the full check: the Renju test)


def test_warm_up_loads_every_compiled_threat_function():
    """bench.pybots.warm_up() (a benchmark's warm-up) runs threats.warm_up(): the
    kernel and the table lookup the proof line uses are compiled (or loaded) by then."""
    from bench.pybots import nbthreats

    threats.warm_up()
    assert nbthreats.search.signatures and nbthreats.tt_get.signatures


def test_a_wide_search_finds_the_opponent_win_the_zoned_one_misses():
    """gmk-s007 after the judged-losing reply E10: the opponent's VCT is out of the zoned
    search's reach (it completes without a win), the wide one (threes anywhere, 40 per node,
    depth 20) finds it, and its line wins by the engine's judgement."""
    if not PUZZLES.is_file():
        pytest.fail(f"shared puzzle file missing: {PUZZLES} (shared/ must sit beside the checkout)")
    puzzle = next(p for p in json.loads(PUZZLES.read_text(encoding="utf-8")) if p.get("id") == "gmk-s007")
    assert "E10" in puzzle["losing"]
    board = Board(Rules(size=puzzle["size"], blocked="none", exact=puzzle["rule"] == "exact"))
    for square in puzzle["moves"] + ["E10"]:
        board.play(square)
    fb = FastBoard.from_engine(board)
    zoned = ThreatSearch(fb, FAR, max_nodes=1_000_000, compiled=True)
    assert zoned.vcf(16) is None and zoned.vct(10) is None and not zoned.timed_out
    wide = ThreatSearch(fb, FAR, max_nodes=1_000_000, compiled=True, three_width=40, zone=False)
    line = wide.vcf(16) or wide.vct(20)
    assert line is not None and _replays_to_a_win(board, fb, line)
