"""Game records on the site: the replay of a stored game, its export, and reading an uploaded or
pasted record (with translated errors that name the line).

Pure functions of stored rows and texts: nothing here writes (importing stores the game through
`caro.games.services.records`). Formats and parsers come from the kind adapters
(`caro.games.kinds`), which call `caro.engine.records`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from caro.engine.caro import SIZES
from caro.engine.errors import IllegalMove
from caro.games.kinds import GGF, PSQ, KINDS, RecordFormat, ReadRecord, kind_for_choice, kind_of
from caro.games.models import Game, Move
from caro.games.state import opening_plies

#: The largest record accepted, in bytes (a 19×19 PSQ file with every square is ~5 KB).
MAX_RECORD_BYTES = 1_000_000


# -- replay -------------------------------------------------------------------------------------

@dataclass
class Step:
    """One stored move as the replay shows it: `ply` (1 = first move), `side` ("X"/"O"),
    `square` ("H8", "d3"), `think_ms` (time the mover used), `flips` (Reversi discs turned over)
    and `passed` (the side that had to pass right after this move, or "")."""

    ply: int
    side: str
    square: str
    think_ms: int
    flips: list[str] = field(default_factory=list)
    passed: str = ""


@dataclass
class Position:
    """The board after `ply` moves: `stones` ({square: "X"/"O"}), the `last` square (or None),
    the winning `line` (only at the final ply of a game won by a line) and its CSS direction
    `line_dir` ("h", "v", "d" down-right, "a" up-right, or "")."""

    ply: int
    stones: dict[str, str]
    last: str | None
    line: list[str]
    line_dir: str


def steps(game: Game, moves: list[Move]) -> list[Step]:
    """Replay the stored `moves` (ordered by ply) of `game` through its kind and describe each.

    Raises nothing for stored games (every stored move was legal when it was played)."""
    kind = kind_of(game)
    board = kind.board(game.rules, [])
    out = []
    for move in moves:
        played = kind.play(board, move.square, move.side)
        out.append(Step(move.ply, move.side, played.square, move.think_ms,
                        list(played.extra.get("flips", [])), played.extra.get("passed", "")))
    return out


def position_at(game: Game, moves: list[Move], ply: int) -> Position:
    """The position after the first `ply` stored moves (0 ≤ ply ≤ len(moves))."""
    kind = kind_of(game)
    board = kind.board(game.rules, [m.square for m in moves[:ply]])
    final = ply == len(moves) and game.is_over
    line = list(game.win_line or []) if final else []
    return Position(ply, kind.stones(board), moves[ply - 1].square if ply else None, line, line_direction(line))


def position_from_steps(game: Game, steps: list[Step], ply: int) -> Position:
    """The position after `ply` of the already replayed `steps` (no second replay): each move
    places its stone and turns its flips over. Same result as `position_at`."""
    kind = kind_of(game)
    stones = kind.stones(kind.board(game.rules, []))  # the start position (Reversi's four discs)
    for step in steps[:ply]:
        stones[step.square] = step.side
        for square in step.flips:
            stones[square] = step.side
    final = ply == len(steps) and game.is_over
    line = list(game.win_line or []) if final else []
    return Position(ply, stones, steps[ply - 1].square if ply else None, line, line_direction(line))


def line_direction(line: list[str]) -> str:
    """"h", "v", "d" (down-right) or "a" (up-right) for a line of square names; "" if shorter than 2."""
    if len(line) < 2:
        return ""
    (c1, r1), (c2, r2) = ((ord(sq[0].upper()) - 65, int(sq[1:])) for sq in line[:2])
    if r1 == r2:
        return "h"
    if c1 == c2:
        return "v"
    return "d" if (c2 - c1) * (r2 - r1) > 0 else "a"


def clamp_ply(value, total: int) -> int:
    """The ply asked for in `?ply=` as an int in 0..total; the last ply when absent or unreadable."""
    try:
        ply = int(value)
    except (TypeError, ValueError):
        return total
    return max(0, min(total, ply))


# -- export -------------------------------------------------------------------------------------

def formats(game: Game) -> tuple[RecordFormat, ...]:
    """The export formats of `game`'s kind, the usual one first."""
    return kind_of(game).RECORD_FORMATS


def export(game: Game, moves: list[Move], fmt: str, names: dict[str, str]) -> tuple[str, str, str]:
    """`(file name, text, content type)` of `game`'s record in format `fmt` ("psq", "squares",
    "ggf", "moves"). `names` are the players' names by side. Raises KeyError for a format the
    game's kind does not write."""
    kind = kind_of(game)
    record_format = next((f for f in kind.RECORD_FORMATS if f.slug == fmt), None)
    if record_format is None:
        raise KeyError(fmt)
    # Opening stones (RIF, Swap2) are written as the first moves, colours alternating from Black,
    # as Piskvork and Gomocup list a tournament's given opening: with no thinking time of their own.
    placed = opening_plies(game)
    times = [0 if m.ply <= placed else m.think_ms for m in moves]
    text = kind.write_record(fmt, game.rules, [m.square for m in moves], times, names)
    suffix = "" if fmt in (PSQ.slug, GGF.slug) else f"-{fmt}"
    return f"{game.kind}-{game.pk}{suffix}.{record_format.extension}", text, record_format.content_type


# -- import -------------------------------------------------------------------------------------

class RecordError(ValueError):
    """A record that cannot be imported. `message` is translated and says what to do; `line` is
    the 1-based line of the text at fault, when there is one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(message)


@dataclass
class Imported:
    """A record ready to store: `kind` ("caro"/"reversi"), `format` (slug it was read as) and the
    `record` (rules, squares, times, names)."""

    kind: str
    format: str
    record: ReadRecord


def decode(data: bytes) -> str:
    """The text of an uploaded file (UTF-8, with or without a BOM). Raises RecordError for an
    empty, too large (> MAX_RECORD_BYTES) or binary file."""
    if not data.strip():
        raise RecordError(_("The record is empty: choose a file or paste the moves."))
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(_("The file is too large (over 1 MB). A game record is only a few kilobytes."))
    if b"\x00" in data:
        raise RecordError(_("This is not a text file. Upload a .psq, .ggf or .txt game record."))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(_("This is not a text file. Upload a .psq, .ggf or .txt game record.")) from None


def detect_format(text: str, choice: str) -> tuple[str, str]:
    """`(kind, format)` of a record: a PSQ header means caro, GGF's "(;" means Reversi; anything
    else is the plain list of the game of the rule `choice` ("caro-vn", ..., "reversi")."""
    start = text.lstrip()[:12].lower()
    if start.startswith("piskvorky"):
        return "caro", PSQ.slug
    if start.startswith("(;"):
        return "reversi", GGF.slug
    kind = kind_for_choice(choice)
    return kind.name, kind.PLAIN_FORMAT.slug


def read(text: str, choice: str = "caro-vn", size: int | None = None) -> Imported:
    """Read a pasted or uploaded record under the rule `choice` (and board `size` for a plain
    caro list; a PSQ file brings its own size). Returns the moves, replayed and legal.

    Raises RecordError (translated, with the line) for an empty or too long text, a format the
    engine refuses, a board size the site does not play, an illegal move or a move after the end.
    """
    if not text.strip():
        raise RecordError(_("The record is empty: choose a file or paste the moves."))
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise RecordError(_("The file is too large (over 1 MB). A game record is only a few kilobytes."))
    if "\x00" in text:
        raise RecordError(_("This is not a text file. Upload a .psq, .ggf or .txt game record."))
    kind_name, fmt = detect_format(text, choice)
    kind = KINDS[kind_name]
    rules = kind.rules_for(choice if kind_for_choice(choice) is kind else "caro-vn", size)
    try:
        record = kind.read_record(fmt, text, rules)
    except IllegalMove as exc:
        raise _record_error(exc, text, fmt, lambda part: kind.read_record(fmt, part, rules)) from None
    if not record.squares:
        raise RecordError(_("The record has no moves."))
    return Imported(kind_name, fmt, record)


_LINE = re.compile(r"\bline (\d+)")
_MOVE = re.compile(r"\bmove (\d+)")


def _record_error(exc: IllegalMove, text: str, fmt: str, reread) -> RecordError:
    """A translated RecordError for the engine's refusal `exc` of `text` read as `fmt`;
    `reread(part)` reads a part of the text the same way (to find the line at fault)."""
    message = str(exc)
    line = 1 if "unsupported board" in message else _line_of(message, text, fmt, reread)
    where = (_("Line %(line)d: ") % {"line": line}) if line else ""
    square = exc.square or ""
    if "unsupported board" in message:
        sizes = ", ".join(f"{n}×{n}" for n in SIZES)
        return RecordError(where + _("this board size is not played here (the site plays %(sizes)s).")
                           % {"sizes": sizes}, line)
    if "game_over" in message or "after the game ended" in message or "game is over" in message:
        return RecordError(where + _("a move comes after the end of the game. Remove the moves after the winning move."), line)
    if "played twice" in message or exc.reason == "occupied":
        return RecordError(where + _("%(square)s is played on a square that is already taken.") % {"square": square}, line)
    if exc.reason == "out_of_board":
        return RecordError(where + _("the move %(square)s is off the board. Check the board size.") % {"square": square or "?"}, line)
    if exc.reason == "foul":
        return RecordError(where + _("%(square)s is a foul for X under Renju rules.") % {"square": square}, line)
    if exc.reason == "no_flip":
        return RecordError(where + _("%(square)s flips no disc: it is not a legal Reversi move.") % {"square": square}, line)
    if exc.reason == "wrong_turn":
        return RecordError(where + _("a move is played out of turn."), line)
    if "header" in message:
        return RecordError(_("Line 1: a PSQ file starts with a line like \"Piskvorky 15x15, 11:11, 0\"."), 1)
    return RecordError(where + _("this is not a move of %(record)s. Check the file and the game chosen.")
                       % {"record": _record_words(fmt)}, line)


def _record_words(fmt: str) -> str:
    """A record format named in the middle of a sentence ("a coordinate list"), not as the
    download list's label ("Coordinate list")."""
    words = {"psq": _("a PSQ file"), "ggf": _("a GGF file"), "moves": _("a move string"),
             "squares": _("a coordinate list")}
    return str(words.get(fmt) or _format_name(fmt))


def _format_name(fmt: str) -> str:
    for kind in KINDS.values():
        for record_format in kind.RECORD_FORMATS:
            if record_format.slug == fmt:
                return str(record_format.label)
    return fmt


def _line_of(message: str, text: str, fmt: str, reread) -> int | None:
    """The 1-based line of `text` that the engine's `message` is about: PSQ messages name the
    line; for a GGF game, the move number counts its B[]/W[] properties; for a plain list, the
    first line at which the text read up to that line is refused (a binary search: the text is
    refused from the bad move on, as the moves are read in order)."""
    match = _LINE.search(message)
    if match:
        return int(match.group(1))
    if fmt != GGF.slug:
        lines = text.splitlines()
        lo, hi = 1, len(lines)
        while lo < hi:
            mid = (lo + hi) // 2
            try:
                reread("\n".join(lines[:mid]))
            except IllegalMove:
                hi = mid
            else:
                lo = mid + 1
        return lo if lines else None
    match = _MOVE.search(message)
    if match is None:
        return None
    wanted = int(match.group(1))
    moves = (m.start() for m in re.finditer(r"(?<![A-Z])[BW]\[", text))
    offset = next((pos for n, pos in enumerate(moves, start=1) if n == wanted), None)
    return None if offset is None else text.count("\n", 0, offset) + 1
