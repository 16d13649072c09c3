"""Game records: import and export of move lists.

* caro / gomoku as plain square lists (``"H8 I9 J10"``) and as Piskvork ``.psq`` files;
* Reversi as plain move strings (``"f5d6c3"``, passes implied) and as GGF (Generic Game Format,
  as written by GGS and NBoard).

Parsers raise only :class:`~caro.engine.errors.IllegalMove`, whatever they are given:

* reason ``bad_record`` for input that is not a record: not a ``str``, a missing or broken
  header, text outside the format's grammar, a token that is not a square name, a board size
  the site does not play, a move after the game has ended. When the cause is a move's own
  refusal (``bad_square``, ``game_over``) its reason is kept in the message;
* the move's own reason (``out_of_board``, ``occupied``, ``wrong_turn``, ``no_flip``,
  ``foul``...) when the record is well-formed but a move in it is not legal.

A parsed record is replayed on a board, so what comes back is always a playable game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import reversi
from .caro import SIZES, Board, Rules
from .coords import parse_square, square_name
from .errors import BAD_RECORD, BAD_SQUARE, GAME_OVER, OUT_OF_BOARD, IllegalMove

__all__ = [
    "format_squares", "parse_squares", "format_psq", "parse_psq", "PsqGame",
    "format_reversi", "parse_reversi", "format_ggf", "parse_ggf", "GgfGame",
]

# A move refused for one of these reasons means the text is not a game record at all.
_RECORD_REASONS = (BAD_SQUARE, GAME_OVER)


def _require_text(text: Any) -> str:
    if not isinstance(text, str):
        raise IllegalMove(BAD_RECORD, f"a record must be text (str), not {type(text).__name__}")
    return text


def _play(board: Any, move: str, n: int, **kwargs: Any) -> Any:
    """``board.play(move)``; a ``bad_square`` or ``game_over`` refusal becomes ``bad_record``
    (keeping the inner reason in the message), other refusals pass through."""
    try:
        return board.play(move, **kwargs)
    except IllegalMove as exc:
        if exc.reason in _RECORD_REASONS:
            raise IllegalMove(BAD_RECORD, f"move {n}: {exc} ({exc.reason})", square=exc.square) from exc
        raise


# -- caro: plain square lists ----------------------------------------------------------------

def format_squares(moves: list[str]) -> str:
    """``["H8", "I9"]`` -> ``"H8 I9"`` (names as given by :attr:`caro.Board.moves`)."""
    return " ".join(moves)


_MOVE_NUMBER = re.compile(r"[0-9]+\.")


def parse_squares(text: str, rules: Rules | None = None) -> Board:
    """Replay a square list (separated by spaces, commas, semicolons or new lines; case
    ignored; optional move numbers like ``"1. H8"`` ignored) and return the board.

    Raises IllegalMove ``bad_record`` for a ``text`` that is not a str, a token that is not a
    square name or a move number (``"1.H8"``, ``"ZZ9"``) and a move after the game ended, and
    the move's own reason (``out_of_board``, ``occupied``, ``foul``) for an illegal move.
    """
    _require_text(text)
    board = Board(rules)
    n = 0
    for token in re.split(r"[\s,;]+", text.strip()):
        if token and not _MOVE_NUMBER.fullmatch(token):
            n += 1
            _play(board, token, n)
    return board


# -- gomoku: Piskvork .psq ---------------------------------------------------------------------

@dataclass(frozen=True)
class PsqGame:
    """A parsed Piskvork record: board ``size``, ``moves`` (square names, X first), the
    thinking ``times`` in milliseconds, one per move, and the players' ``names`` (X, O) from a
    tournament file's trailer (``""`` when it has none)."""

    size: int
    moves: tuple[str, ...]
    times: tuple[int, ...] = field(default=())
    names: tuple[str, str] = ("", "")


_PSQ_HEADER = re.compile(r"Piskvorky[ \t]+([0-9]+)[ \t]*x[ \t]*([0-9]+)[ \t]*,.*", re.IGNORECASE)
_PSQ_MOVE = re.compile(r"[ \t]*([0-9]+)[ \t]*,[ \t]*([0-9]+)[ \t]*(?:,[ \t]*(-?[0-9]+)[ \t]*)?")
# Looks like a move line but is not one (signs, Unicode digits, other spaces): refused, not
# taken for the start of the trailer.
_PSQ_LIKE_MOVE = re.compile(r"\s*[+-]?\d+\s*,\s*[+-]?\d+\s*(?:,\s*[+-]?\d+\s*)?")


def _psq_int(digits: str, limit: int, what: str) -> int:
    """An int from ASCII digits, refusing absurd lengths before converting (no ValueError)."""
    if len(digits) > limit:
        raise IllegalMove(BAD_RECORD, f"{what} has too many digits ({len(digits)})")
    return int(digits)


def format_psq(moves: list[str], size: int = 15, times: list[int] | None = None,
               names: tuple[str, str] = ("", "")) -> str:
    """Write a Piskvork ``.psq`` record: the header ``"Piskvorky 15x15, 11:11, 0"`` then one
    ``x,y,ms`` line per move, 1-based, x the column and y the row from the top, then ``-1``,
    then the players' ``names`` (X, then O; one line each, as tournament files write the
    programs' names) when both are given.

    Raises IllegalMove for squares off the board, ValueError if ``times`` has the wrong length.
    """
    if times is not None and len(times) != len(moves):
        raise ValueError("one time per move")
    lines = [f"Piskvorky {size}x{size}, 11:11, 0"]
    for k, name in enumerate(moves):
        col, row = parse_square(name, size)
        lines.append(f"{col + 1},{row + 1},{times[k] if times else 0}")
    lines.append("-1")
    if all(_psq_name(name) for name in names):
        lines.extend(_psq_name(name) for name in names)
    return "\n".join(lines) + "\n"


#: A trailer line that is not a name: "-1", a number, or a rule line such as "0,Freestyle15".
_PSQ_NOT_NAME = re.compile(r"\s*-?[0-9]+\s*(,.*)?")
#: The longest player name kept from a record.
PSQ_NAME_LENGTH = 40


def _psq_name(text: str) -> str:
    """A player name as a PSQ trailer line holds it: one line, printable, at most PSQ_NAME_LENGTH."""
    return "".join(ch for ch in str(text) if ch.isprintable()).strip()[:PSQ_NAME_LENGTH]


def parse_psq(text: str, rules: Rules | None = None) -> PsqGame:
    """Read a Piskvork ``.psq`` record (Piskvork / Gomocup files).

    The header ``Piskvorky WxH, ...`` comes first; the move lines ``x,y[,ms]`` follow it
    without a break and end at the first line that is not a move (``-1``, or the player names
    and rule lines of tournament files, whose first two other lines are the players' names, X
    then O); a move line after that is refused, not dropped. Only
    the site's square boards (11, 13, 15, 19) are accepted: the Gomocup 20x20 board is not
    playable here. The moves are replayed on a :class:`~caro.engine.caro.Board` under
    ``rules`` (default: freestyle on the record's size, five or more wins, nothing blocks;
    ``rules.size`` must match the header), so the game returned is always playable.

    Raises IllegalMove ``bad_record`` for a ``text`` that is not a str, a missing header,
    another board size, a non-move line among the moves, absurdly long numbers, a repeated
    square and a move after the game ended; ``out_of_board`` for coordinates off the board; a
    move's own reason (``foul`` under Renju ``rules``). Source: Piskvork file format as written
    by Piskvork 8 / Gomocup.
    """
    _require_text(text)
    lines = text.splitlines()
    header = _PSQ_HEADER.fullmatch(lines[0].strip()) if lines else None
    if header is None:
        raise IllegalMove(BAD_RECORD, "not a Piskvork record (no 'Piskvorky WxH' header)")
    width = _psq_int(header.group(1), 3, "the board width")
    height = _psq_int(header.group(2), 3, "the board height")
    if width != height or width not in SIZES:
        raise IllegalMove(BAD_RECORD, f"unsupported board {width}x{height}: the site plays "
                                      f"{', '.join(f'{n}x{n}' for n in SIZES)} only")
    if rules is None:
        rules = Rules(size=width, blocked="none")
    elif rules.size != width:
        raise IllegalMove(BAD_RECORD, f"the record is {width}x{width} but the rules are {rules.size}x{rules.size}")
    board = Board(rules)
    times = []
    trailer = []  # the lines after the moves that may be the players' names
    end = None  # line number of the first line after the moves
    for number, line in enumerate(lines[1:], start=2):
        match = _PSQ_MOVE.fullmatch(line)
        if match is None:
            if _PSQ_LIKE_MOVE.fullmatch(line):
                raise IllegalMove(BAD_RECORD, f"line {number}: not a move in ASCII digits: {line[:40]!r}")
            if end is None:
                end = number
            if line.strip() and not _PSQ_NOT_NAME.fullmatch(line):
                trailer.append(_psq_name(line))
            continue
        if end is not None:
            raise IllegalMove(BAD_RECORD, f"line {number}: a move after the non-move line {end} "
                                          f"({lines[end - 1][:40]!r})")
        x = _psq_int(match.group(1), 6, f"line {number}: x")
        y = _psq_int(match.group(2), 6, f"line {number}: y")
        if not (1 <= x <= width and 1 <= y <= width):
            raise IllegalMove(OUT_OF_BOARD, f"line {number}: {x},{y} is off the {width}x{width} board")
        name = square_name(x - 1, y - 1)
        if board.outcome is not None:
            raise IllegalMove(BAD_RECORD, f"line {number}: {name} is played after the game ended "
                                          f"({board.outcome.termination.value})", square=name)
        if board.stone_at(name) is not None:
            raise IllegalMove(BAD_RECORD, f"line {number}: {name} is played twice", square=name)
        _play(board, name, board.ply + 1)
        times.append(_psq_int(match.group(3) or "0", 12, f"line {number}: the time"))
    names = (trailer[0], trailer[1]) if len(trailer) >= 2 else ("", "")
    return PsqGame(width, tuple(board.moves), tuple(times), names)


# -- Reversi: plain move strings ------------------------------------------------------------------

def format_reversi(board: reversi.Board) -> str:
    """The moves of ``board`` as one lowercase string, passes implied: ``"f5d6c3"``."""
    return "".join(board.moves)


_REVERSI_MOVE = re.compile(r"[A-Za-z][0-9]")


def parse_reversi(text: str) -> reversi.Board:
    """Replay a move string (``"f5d6c3"`` or ``"F5 D6 C3"``; case, spaces and commas ignored;
    passes implied) and return the board.

    Raises IllegalMove ``bad_record`` for a ``text`` that is not a str, a string that is not a
    sequence of letter-digit moves (odd length, ``"f5a10"``, ``"zz"``) and a move after the
    game ended, and the move's own reason (``out_of_board``, ``occupied``, ``no_flip``) for an
    illegal move.
    """
    compact = re.sub(r"[\s,]+", "", _require_text(text))
    if len(compact) % 2:
        raise IllegalMove(BAD_RECORD, f"not a move string: odd length {len(compact)} "
                                      f"(each move is a letter and a digit): {compact[:40]!r}")
    board = reversi.Board()
    for k in range(0, len(compact), 2):
        move = compact[k:k + 2]
        if not _REVERSI_MOVE.fullmatch(move):
            raise IllegalMove(BAD_RECORD, f"move {k // 2 + 1}: {move!r} is not a square name")
        _play(board, move, k // 2 + 1)
    return board


# -- Reversi: GGF ------------------------------------------------------------------------------

@dataclass(frozen=True)
class GgfGame:
    """A parsed GGF game: the replayed ``board`` and the header ``tags`` (``PB``, ``PW``,
    ``PC``, ``DT``, ``RE``, ``TI``, ...) as strings."""

    board: reversi.Board
    tags: dict[str, str]


_GGF_START = "-" * 27 + "O*" + "-" * 6 + "*O" + "-" * 27
# One property: a key of one or two capital letters, then a value in brackets where ``\]`` and
# ``\\`` are escapes (as in SGF); whitespace may separate properties.
_GGF_PROPERTY = re.compile(r"\s*([A-Z]{1,2})\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_GGF_REST = re.compile(r"\s*\Z")
_GGF_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


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
    # Brackets and backslashes are dropped rather than escaped: not every GGF reader knows escapes.
    place, date, black, white = (re.sub(r"[\[\]\\]", "", v) for v in (place, date, black, white))
    header = (f"(;GM[Othello]PC[{place}]DT[{date}]PB[{black}]PW[{white}]RE[{result_tag}]TI[0]TY[8]"
              f"BO[8 {_GGF_START} *]")
    return header + "".join(moves) + ";)"


def parse_ggf(text: str) -> GgfGame:
    """Read one GGF game (``(;GM[Othello]...;)``) that starts from the standard position.

    The text is exactly one game: ``(;``, properties ``KEY[value]`` (a key of one or two
    capital letters; ``\\]`` and ``\\\\`` escape inside values; whitespace allowed between
    properties), then ``;)``. Move values may carry evaluation and time (``B[F5//1.23]``). A
    pass (``PA`` or ``pass``) must be the automatic pass the board has just made for that side;
    the board passes by itself, so a pass left out of the record is tolerated.

    Raises IllegalMove ``bad_record`` for a ``text`` that is not a str, anything outside the
    grammar above (junk between properties, lower-case or three-letter keys, an unclosed value,
    two games), a property given twice, a non-Othello game, another board size or start
    position, a pass that did not happen (a legal move existed, out of turn, or after the
    end), a move value that is not a square and a move after the end; the move's own reason
    (``wrong_turn``, ``out_of_board``, ``occupied``, ``no_flip``) for an illegal move.
    Source: GGF description, skatgame.net/mburo/ggsa/ggf.
    """
    text = _require_text(text).strip()
    if not (text.startswith("(;") and text.endswith(";)")) or len(text) < 4:
        raise IllegalMove(BAD_RECORD, "not a GGF game: expected '(;' ... ';)'")
    body, pos = text[2:-2], 0
    tags: dict[str, str] = {}
    moves: list[tuple[str, str]] = []
    while not _GGF_REST.match(body, pos):
        match = _GGF_PROPERTY.match(body, pos)
        if match is None:
            raise IllegalMove(BAD_RECORD, f"not a GGF property at character {pos + 2}: {body[pos:pos + 20].strip()!r}")
        key, value = match.group(1), _GGF_ESCAPE.sub(r"\1", match.group(2))
        if key in ("B", "W"):
            moves.append((key, value))
        elif key in tags:
            raise IllegalMove(BAD_RECORD, f"property {key} is given twice")
        else:
            tags[key] = value
        pos = match.end()
    if tags.get("GM", "").strip().lower() != "othello":
        raise IllegalMove(BAD_RECORD, "GM must be Othello")
    if tags.get("TY", "8").strip() not in ("8", ""):
        raise IllegalMove(BAD_RECORD, f"unsupported game type {tags['TY']!r}")
    if "BO" in tags:
        squares = tags["BO"].split()
        if len(squares) < 3 or squares[0] != "8" or "".join(squares[1:-1]) != _GGF_START or squares[-1] != "*":
            raise IllegalMove(BAD_RECORD, "only the standard starting position is supported")
    board = reversi.Board()
    passed = None  # the colour the board has just passed for automatically, if any
    for n, (key, value) in enumerate(moves, start=1):
        colour = reversi.BLACK if key == "B" else reversi.WHITE
        move = value.split("/")[0].strip()
        if move.lower() in ("pa", "pass"):
            if passed != colour:
                why = ("the game is over" if board.outcome is not None
                       else "it has a legal move" if board.turn == colour else "it is not its turn")
                raise IllegalMove(BAD_RECORD, f"move {n}: {key} passes but {why}")
            passed = None
            continue
        result = _play(board, move.lower(), n, side=colour)
        passed = (reversi.WHITE if colour == reversi.BLACK else reversi.BLACK) if result.passed else None
    return GgfGame(board, tags)
