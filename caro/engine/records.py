"""Game records: import and export of move lists.

* caro / gomoku as plain square lists (``"H8 I9 J10"``) and as Piskvork ``.psq`` files;
* Reversi as plain move strings (``"f5d6c3"``, passes implied) and as GGF (Generic Game Format,
  as written by GGS and NBoard).

Parsers raise :class:`~caro.engine.errors.IllegalMove` with reason ``bad_record`` for text that
is not a record, or the move's own reason (``bad_square``, ``occupied``, ``no_flip``...) when the
record is well-formed but a move in it is not legal. A parsed record is replayed on a board, so
what comes back is always a playable game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import reversi
from .caro import Board, Rules
from .coords import parse_square, square_name
from .errors import BAD_RECORD, OUT_OF_BOARD, IllegalMove

__all__ = [
    "format_squares", "parse_squares", "format_psq", "parse_psq", "PsqGame",
    "format_reversi", "parse_reversi", "format_ggf", "parse_ggf", "GgfGame",
]


# -- caro: plain square lists ----------------------------------------------------------------

def format_squares(moves: list[str]) -> str:
    """``["H8", "I9"]`` -> ``"H8 I9"`` (names as given by :attr:`caro.Board.moves`)."""
    return " ".join(moves)


def parse_squares(text: str, rules: Rules | None = None) -> Board:
    """Replay a square list (separated by spaces, commas, semicolons or new lines; case
    ignored; optional move numbers like ``"1. H8"`` ignored) and return the board.

    Raises IllegalMove for a bad or illegal move (reason of the move) and stops there.
    """
    board = Board(rules)
    for token in re.split(r"[\s,;]+", text.strip()):
        if token and not re.fullmatch(r"\d+\.", token):
            board.play(token)
    return board


# -- gomoku: Piskvork .psq ---------------------------------------------------------------------

@dataclass(frozen=True)
class PsqGame:
    """A parsed Piskvork record: board ``size``, ``moves`` (square names, X first) and the
    thinking ``times`` in milliseconds, one per move."""

    size: int
    moves: tuple[str, ...]
    times: tuple[int, ...] = field(default=())


_PSQ_HEADER = re.compile(r"Piskvorky\s+(\d+)\s*x\s*(\d+)\s*,.*", re.IGNORECASE)
_PSQ_MOVE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*(-?\d+)\s*)?")


def format_psq(moves: list[str], size: int = 15, times: list[int] | None = None) -> str:
    """Write a Piskvork ``.psq`` record: the header ``"Piskvorky 15x15, 11:11, 0"`` then one
    ``x,y,ms`` line per move, 1-based, x the column and y the row from the top, then ``-1``.

    Raises IllegalMove for squares off the board, ValueError if ``times`` has the wrong length.
    """
    if times is not None and len(times) != len(moves):
        raise ValueError("one time per move")
    lines = [f"Piskvorky {size}x{size}, 11:11, 0"]
    for k, name in enumerate(moves):
        col, row = parse_square(name, size)
        lines.append(f"{col + 1},{row + 1},{times[k] if times else 0}")
    lines.append("-1")
    return "\n".join(lines) + "\n"


def parse_psq(text: str) -> PsqGame:
    """Read a Piskvork ``.psq`` record (Piskvork / Gomocup files).

    Move lines are read after the header until the first line that is not ``x,y[,ms]``
    (``-1``, player names, rule lines follow in tournament files). Only square boards are
    accepted. Raises IllegalMove ``bad_record`` for a missing header or a repeated square, and
    ``out_of_board`` for coordinates off the board. Source: Piskvork file format as written by
    Piskvork 8 / Gomocup.
    """
    lines = text.splitlines()
    header = _PSQ_HEADER.fullmatch(lines[0].strip()) if lines else None
    if header is None:
        raise IllegalMove(BAD_RECORD, "not a Piskvork record (no 'Piskvorky WxH' header)")
    width, height = int(header.group(1)), int(header.group(2))
    if width != height or not 5 <= width <= 26:
        raise IllegalMove(BAD_RECORD, f"unsupported board {width}x{height}")
    moves, times, seen = [], [], set()
    for line in lines[1:]:
        match = _PSQ_MOVE.fullmatch(line)
        if match is None:
            break
        x, y = int(match.group(1)), int(match.group(2))
        if not (1 <= x <= width and 1 <= y <= width):
            raise IllegalMove(OUT_OF_BOARD, f"{x},{y} is off the {width}x{width} board")
        name = square_name(x - 1, y - 1)
        if name in seen:
            raise IllegalMove(BAD_RECORD, f"{name} is played twice")
        seen.add(name)
        moves.append(name)
        times.append(int(match.group(3) or 0))
    return PsqGame(width, tuple(moves), tuple(times))


# -- Reversi: plain move strings ------------------------------------------------------------------

def format_reversi(board: reversi.Board) -> str:
    """The moves of ``board`` as one lowercase string, passes implied: ``"f5d6c3"``."""
    return "".join(board.moves)


def parse_reversi(text: str) -> reversi.Board:
    """Replay a move string (``"f5d6c3"`` or ``"F5 D6 C3"``; case, spaces and commas ignored;
    passes implied) and return the board. Raises IllegalMove for a bad or illegal move."""
    return reversi.Board.from_moves(re.sub(r"[\s,]+", "", text))


# -- Reversi: GGF ------------------------------------------------------------------------------

@dataclass(frozen=True)
class GgfGame:
    """A parsed GGF game: the replayed ``board`` and the header ``tags`` (``PB``, ``PW``,
    ``PC``, ``DT``, ``RE``, ``TI``, ...) as strings."""

    board: reversi.Board
    tags: dict[str, str]


_GGF_START = "-" * 27 + "O*" + "-" * 6 + "*O" + "-" * 27
_GGF_PROPERTY = re.compile(r"([A-Z]{1,2})\[([^\]]*)\]")


def format_ggf(board: reversi.Board, black: str = "", white: str = "", place: str = "", date: str = "") -> str:
    """Write ``board``'s game as a GGF record (standard 8x8 start, Black to move).

    Moves are ``B[f5]`` / ``W[d6]``; each automatic pass is written ``W[PA]`` (or ``B[PA]``)
    as GGF requires; ``RE`` is Black's disc difference (``+6.000``) when the game is over,
    else ``?``. Source: GGF description, skatgame.net/mburo/ggsa/ggf.
    """
    replay = reversi.Board()
    moves = []
    for name in board.moves:
        colour = "B" if replay.turn == reversi.BLACK else "W"
        result = replay.play(name)
        moves.append(f"{colour}[{name.upper()}]")
        if result.passed:
            moves.append(f"{'W' if colour == 'B' else 'B'}[PA]")
    if board.outcome is None:
        result_tag = "?"
    else:
        result_tag = f"{board.outcome.black - board.outcome.white:+d}.000"
    place, date, black, white = (re.sub(r"[\[\]]", "", v) for v in (place, date, black, white))
    header = (f"(;GM[Othello]PC[{place}]DT[{date}]PB[{black}]PW[{white}]RE[{result_tag}]TI[0]TY[8]"
              f"BO[8 {_GGF_START} *]")
    return header + "".join(moves) + ";)"


def parse_ggf(text: str) -> GgfGame:
    """Read one GGF game (``(;GM[Othello]...;)``) that starts from the standard position.

    Move values may carry evaluation and time (``B[F5//1.23]``); passes (``PA``, ``pass``)
    are skipped since the board passes automatically. Raises IllegalMove ``bad_record`` for
    a non-Othello game, another board size or start position, a pass where a move exists, and
    the move's own reason for an illegal move.
    """
    text = text.strip()
    if not (text.startswith("(;") and text.endswith(";)")):
        raise IllegalMove(BAD_RECORD, "not a GGF game: expected '(;' ... ';)'")
    tags: dict[str, str] = {}
    board = reversi.Board()
    for key, value in _GGF_PROPERTY.findall(text[2:-2]):
        if key in ("B", "W"):
            move = value.split("/")[0].strip()
            expected = reversi.BLACK if key == "B" else reversi.WHITE
            if move.lower() in ("pa", "pass"):
                if board.turn == expected:  # a forced pass has already been made by the board
                    raise IllegalMove(BAD_RECORD, f"{key} passes while a legal move exists")
                continue
            board.play(move.lower(), side=expected)
        else:
            tags[key] = value
    if tags.get("GM", "").lower() != "othello":
        raise IllegalMove(BAD_RECORD, "GM must be Othello")
    if tags.get("TY", "8") not in ("8", ""):
        raise IllegalMove(BAD_RECORD, f"unsupported game type {tags['TY']!r}")
    if "BO" in tags:
        squares = tags["BO"].split()
        if len(squares) < 3 or squares[0] != "8" or "".join(squares[1:-1]) != _GGF_START or squares[-1] != "*":
            raise IllegalMove(BAD_RECORD, "only the standard starting position is supported")
    return GgfGame(board, tags)
