"""The compiled alpha-beta of caro Hard (bench/pybots/nbsearch.py, driven by
caro_bots.CompiledSearch) against the pure-Python reference, caro_bots.HardSearch.

Both are run with no transposition table (the compiled table replaces entries, the Python one
never does, so with tables the two may take different but equally valid paths): then the
scores of every root move must be equal at depths 1-3, on random positions of
every rule set but Renju, boards 11-19 and win lengths 4-6 included. Also: the compiled search
leaves the board exactly as it found it, classifies windows it meets first (the table-miss
path), sees a forced win, and Renju keeps the Python search. No wall-time limits: every search
here has a far deadline and is limited by its depth."""

import random
import time

import numpy as np
import pytest

from bench.pybots.caro_bots import WIN, CaroHard, CompiledSearch, HardSearch, _root
from caro.engine.caro import PRESETS, Board, Rules

# the first test of a fresh checkout compiles the functions (minutes on a busy 2-core machine)
pytestmark = pytest.mark.timeout(1200)

FAR = 10 ** 6  # seconds: a deadline no search here reaches
COLUMNS = "ABCDEFGHIJKLMNOPQRS"
RULE_SETS = [p.rules for p in PRESETS.values() if not p.rules.renju] + [
    Rules(size=11, win_length=4, blocked="none"),
    Rules(size=13, win_length=6, exact=True, blocked="opponent"),
    Rules(size=19, win_length=5, blocked="opponent_or_edge"),
]


class _NoStore(dict):
    """A transposition table that keeps nothing (the Python search without its table)."""

    def __setitem__(self, key, value):
        pass


def _positions(rules, seed, count):
    """Boards of ``rules`` with 4-22 stones around the centre, game not over."""
    rnd = random.Random(seed)
    c = rules.size // 2
    out = []
    while len(out) < count:
        board = Board(rules)
        for _ in range(rnd.randint(4, 22)):
            sq = COLUMNS[c + rnd.randint(-4, 4)] + str(c + 1 + rnd.randint(-4, 4))
            if sq in board.stones():
                continue
            board.play(sq)
            if board.outcome is not None:
                break
        if board.outcome is None:
            out.append(board)
    return out


def _pair(board):
    fb = _root(board)
    python = HardSearch(fb, time.perf_counter() + FAR)
    python.tt = _NoStore()
    compiled = CompiledSearch(fb, time.perf_counter() + FAR, use_tt=False)
    assert compiled.compiled
    return fb, python, compiled


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.size}-{r.win_length}-{r.blocked}-{r.exact}")
def test_root_scores_equal_the_python_search(rules):
    for k, board in enumerate(_positions(rules, 7 + rules.size, 6)):
        fb, python, compiled = _pair(board)
        moves = python.moves(fb.turn, 14)
        assert compiled.moves(fb.turn, 14) == moves
        for depth in (1, 2, 3):
            before = fb._st.copy()
            assert compiled.root(moves, depth) == python.root(moves, depth), (k, depth, board.stones())
            assert np.array_equal(fb._st, before)  # every stone taken back, every class restored


def test_windows_met_first_are_classified_and_the_search_goes_on():
    rules = Rules(size=13, win_length=4, exact=True, blocked="opponent_or_edge")  # no other test uses it
    board = _positions(rules, 3, 1)[0]
    fb = _root(board)
    stored = fb.pat.stored
    compiled = CompiledSearch(fb, time.perf_counter() + FAR, use_tt=False)
    python = HardSearch(fb, time.perf_counter() + FAR)
    python.tt = _NoStore()
    moves = python.moves(fb.turn, 14)
    got = compiled.root(moves, 4)
    assert fb.pat.stored > stored  # the compiled search met windows the table did not hold
    assert got == python.root(moves, 4)


def test_a_forced_win_scores_as_a_win():
    # X to move with an open three on row 8 (F8 G8 H8): I8 or E8 makes an open four
    board = Board(Rules(blocked="none"))
    for sq in ("F8", "F3", "G8", "L3", "H8", "C12"):
        board.play(sq)
    fb = _root(board)
    search = CompiledSearch(fb, time.perf_counter() + FAR)
    ranked = search.root(search.moves(fb.turn, 14), 3)
    assert ranked[0][0] >= WIN - 100
    assert fb.name(ranked[0][1]) in ("E8", "I8")


def test_renju_keeps_the_python_search():
    board = Board(PRESETS["renju"].rules)
    for sq in ("H8", "I9", "I8"):
        board.play(sq)
    fb = _root(board)
    search = CaroHard.search_class(fb, time.perf_counter() + FAR)
    assert not search.compiled
    assert search.root(search.moves(fb.turn, 10), 2)
