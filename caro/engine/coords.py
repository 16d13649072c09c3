"""Square names for both games.

Caro / gomoku: column letter then row number, row 1 at the TOP, letters A, B, C, ... with I
included (15x15 runs A-O, 19x19 A-S; H8 is the centre of 15x15). Parsing is case-insensitive ("h8" is
H8) but otherwise strict: exactly the letter and the number, no surrounding or inner whitespace.
Reversi: a1-h8, written in lowercase (read in either case), column a at the left, row 1 at the top.

Internally a square is ``(col, row)``, both 0-based, row 0 being the top row ("1").
"""

from __future__ import annotations

import re

from .errors import BAD_SQUARE, OUT_OF_BOARD, IllegalMove

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_SQUARE_RE = re.compile(r"([A-Za-z])([1-9][0-9]?)")


def square_name(col: int, row: int) -> str:
    """Return the caro name of 0-based ``(col, row)``: ``square_name(7, 7) == "H8"``.

    Raises ValueError for negative or too large (> 25) coordinates.
    """
    if not (0 <= col < len(LETTERS) and 0 <= row < 99):
        raise ValueError(f"no square name for ({col}, {row})")
    return f"{LETTERS[col]}{row + 1}"


def parse_square(name: str, size: int) -> tuple[int, int]:
    """Parse a caro square name on a ``size`` x ``size`` board into 0-based ``(col, row)``.

    ``parse_square("h8", 15) == (7, 7)``. Raises :class:`IllegalMove` with reason ``bad_square``
    for a malformed name (not one letter followed by a number 1-99 without a leading zero) and
    ``out_of_board`` for a well-formed name that is off this board (``"P8"`` or ``"A16"`` on 15x15).
    Whitespace is not trimmed: ``"H8 "`` or ``" H8"`` is ``bad_square`` (a client that sends it is
    wrong, and what it sent must not be stored or echoed as if it were a square name).
    """
    match = _SQUARE_RE.fullmatch(name) if isinstance(name, str) else None
    if match is None:
        raise IllegalMove(BAD_SQUARE, f"not a square name: {name!r}")
    col = LETTERS.index(match.group(1).upper())
    row = int(match.group(2)) - 1
    if col >= size or row >= size:
        raise IllegalMove(OUT_OF_BOARD, f"{name} is off the {size}x{size} board", square=name)
    return col, row


def reversi_square_name(col: int, row: int) -> str:
    """Return the Reversi name of 0-based ``(col, row)`` on the 8x8 board: ``(5, 4)`` -> ``"f5"``.

    Raises ValueError off the board.
    """
    if not (0 <= col < 8 and 0 <= row < 8):
        raise ValueError(f"no Reversi square ({col}, {row})")
    return f"{'abcdefgh'[col]}{row + 1}"


def parse_reversi_square(name: str) -> tuple[int, int]:
    """Parse a Reversi square name (``"f5"``, case-insensitive) into 0-based ``(col, row)``.

    Raises :class:`IllegalMove` ``bad_square`` for malformed names and ``out_of_board`` for
    well-formed names off the 8x8 board (``"i1"``, ``"a9"``).
    """
    return parse_square(name, 8)
