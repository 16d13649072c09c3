"""Pure-Python rules engines for caro / gomoku / Renju and Reversi (no Django imports).

Modules: :mod:`.coords` (square names), :mod:`.errors` (:class:`IllegalMove` and its reason
codes), :mod:`.caro` (rules, presets, board, outcome), :mod:`.renju` (fouls),
:mod:`.openings` (RIF and Swap2 state machines), :mod:`.reversi` (bitboard Reversi, perft),
:mod:`.records` (square lists, Piskvork .psq, Reversi move strings, GGF).
"""

from .errors import IllegalMove

__all__ = ["IllegalMove"]
