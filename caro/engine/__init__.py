"""Pure-Python rules engines for caro / gomoku / Renju and Reversi (no Django imports).

Modules: :mod:`.coords` (square names), :mod:`.errors` (:class:`IllegalMove`), :mod:`.caro`
(rules, presets, board, outcome), :mod:`.renju` (fouls), :mod:`.openings` (RIF, Swap2),
:mod:`.reversi` (bitboard Reversi, perft), :mod:`.records` (PSQ, GGF, move lists).
"""

from .errors import IllegalMove

__all__ = ["IllegalMove"]
