"""Computer opponents for caro (every rule set, Renju included) and Reversi.

One interface for all games and levels::

    >>> from caro.engine.caro import Board, Rules
    >>> from bench.pybots import choose_move
    >>> choose_move(Board(Rules()), "hard", budget_ms=500)
    'H8'

``choose_move(board, level, budget_ms=1000, rng=None) -> str`` takes an engine board
(:class:`caro.engine.caro.Board` or :class:`caro.engine.reversi.Board`) and returns the square
name of a legal move for the side to move (``"H8"`` for caro, ``"f5"`` for Reversi). Levels are
:data:`LEVELS` (``"easy"``, ``"medium"``, ``"hard"``). The board is never changed. No Django
imports: the site calls this from its Celery worker.

``choose_opening_action(machine, level, budget_ms=1000, rng=None) -> dict`` plays the steps of
the RIF and Swap2 opening procedures (:mod:`.openings`).

``warm_up()`` loads the compiled search functions (numba, cached on disk) and fills the pattern
tables of the common rule sets, so a fresh process's first move is not slow; the Celery worker
calls it when a worker process starts, the Gomocup brain before it reads its first command.

Per-level classes: :class:`CaroEasy`, :class:`CaroMedium`, :class:`CaroHard`,
:class:`ReversiEasy`, :class:`ReversiMedium`, :class:`ReversiHard`; :func:`get_bot` picks one.
"""

from __future__ import annotations

import random

from caro.engine import caro as _caro
from caro.engine import reversi as _reversi

from .caro_bots import CaroEasy, CaroHard, CaroMedium
from .hard_v1 import CaroHardV1
from .openings import choose_opening_action
from .reversi_bots import ReversiEasy, ReversiHard, ReversiMedium
from .reversi_hard_v1 import ReversiHardV1

__all__ = ["LEVELS", "BENCH_LEVELS", "choose_move", "choose_opening_action", "get_bot", "warm_up", "CaroEasy", "CaroMedium", "CaroHard",
           "ReversiEasy", "ReversiMedium", "ReversiHard"]

LEVELS = ("easy", "medium", "hard")
# Levels for benchmarks only (bench/match.py, bench/puzzles.py, bench/reversi_speed.py), never
# offered to players: the caro and the Reversi Hard of before issue 16, frozen, so a new Hard can
# be measured against it.
BENCH_LEVELS = ("hard_v1",)

_BOTS = {
    ("caro", "easy"): CaroEasy, ("caro", "medium"): CaroMedium, ("caro", "hard"): CaroHard,
    ("caro", "hard_v1"): CaroHardV1,
    ("reversi", "easy"): ReversiEasy, ("reversi", "medium"): ReversiMedium, ("reversi", "hard"): ReversiHard,
    ("reversi", "hard_v1"): ReversiHardV1,
}


def get_bot(game: str, level: str):
    """Return a bot instance for ``game`` (``"caro"`` or ``"reversi"``) and ``level`` (one of
    :data:`LEVELS`, or a benchmark level of :data:`BENCH_LEVELS`).

    The instance has ``choose(board, budget_ms=1000, rng=None) -> str``. Raises ValueError for
    an unknown game or level.
    """
    try:
        return _BOTS[(game, level)]()
    except KeyError:
        raise ValueError(f"unknown game/level: {game!r}/{level!r}; levels are {LEVELS}") from None


def choose_move(board, level: str, budget_ms: int = 1000, rng: random.Random | int | None = None) -> str:
    """Choose a move for the side to move on ``board``.

    ``board``: a caro or Reversi engine board (not changed). ``level``: one of :data:`LEVELS`.
    ``budget_ms``: thinking time in milliseconds; Hard plans to use 0.8 (caro) or 0.7
    (Reversi) of it, Easy and Medium much less. ``rng``: a :class:`random.Random`, an int
    seed, or None (fresh randomness); only Easy and Medium use it.

    Returns the square name of a legal move. Raises ValueError for an unknown level or board
    type, or when the game is over / the side to move has no legal move (a Reversi side that must
    pass never gets here: the engine passes automatically).
    """
    if isinstance(rng, int):
        rng = random.Random(rng)
    if isinstance(board, _caro.Board):
        game = "caro"
    elif isinstance(board, _reversi.Board):
        game = "reversi"
    else:
        raise ValueError(f"not an engine board: {type(board).__name__}")
    return get_bot(game, level).choose(board, budget_ms=budget_ms, rng=rng)


def _warm_compiled_search() -> None:
    """Run Hard's compiled alpha-beta once to its end on a small position (the 60 ms searches
    above may stop before it is called)."""
    import time

    from .caro_bots import CompiledSearch, _root

    board = _caro.Board(_caro.PRESETS["caro-vn"].rules)
    for square in ("H8", "I9", "I8", "G8", "J8"):
        board.play(square)
    fb = _root(board)
    search = CompiledSearch(fb, time.perf_counter() + 3600)
    search.root(search.moves(fb.turn, 6), 2)


def warm_up() -> float:
    """Load (or, the first time on a machine, compile) the caro search's compiled functions
    (the board's kernel and Hard's alpha-beta) and fill the window tables of every preset by a
    short search on a small position of each; load (or compile) Reversi Hard's compiled search.

    Returns the seconds it took (a second or less once the compiled functions are cached on
    disk; tens of seconds when numba compiles them). Never raises for a rule set: it only plays
    on the bots' own boards. Ends with :func:`gc.freeze` (objects alive now are never scanned
    by the garbage collector again).
    """
    import gc
    import time

    start = time.perf_counter()
    for preset in _caro.PRESETS.values():
        board = _caro.Board(preset.rules)
        for square in ("H8", "I9", "I8", "G8"):
            board.play(square)
        CaroHard().choose(board, budget_ms=60)
    _warm_compiled_search()
    from . import reversi_nb, threats

    threats.warm_up()  # every function of the compiled threat search (Renju rooms use the Python one)
    reversi_nb.warm_up()  # Reversi Hard's compiled search
    # the search tables made above (window classes, threat-search tables: dicts that grow to
    # hundreds of thousands of entries) and everything loaded so far are moved out of the
    # garbage collector's view: a full collection traversing them took ~0.2 s, in the middle
    # of a move; the entries added later are tuples of ints, which it stops tracking
    gc.freeze()
    return time.perf_counter() - start
