"""Caro / gomoku: rule sets, presets, a board you can set up and play on, and the outcome.

Modelled on python-chess::

    >>> board = Board(Rules())
    >>> for square in ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4"]:
    ...     board.play(square)
    >>> board.play("L8")
    Outcome(winner='X', termination=<Termination.FIVE: 'five'>, line=('H8', 'I8', 'J8', 'K8', 'L8'))

Squares are names (``"H8"``; column letter then row number, row 1 at the top). Sides are
``"X"`` (moves first; Black in Renju) and ``"O"``.

Winning rule (site rules, from ``shared/reference/caro-blocked-ends-cocaro.txt`` and
``caro-rule-sets.txt``): after a move, each of the four lines through the new stone is looked
at once; the WHOLE contiguous run of the mover's stones on it wins when its length is at least
``win_length`` (exactly ``win_length`` when ``exact``) and it is not blocked at both ends. With
``blocked="opponent"`` an end is blocked by an opponent stone on the cell just beyond it; with
``"opponent_or_edge"`` the board edge blocks too; with ``"none"`` nothing blocks. If any line
wins, the move wins (the first winning line, in the order row, column, diagonal, anti-diagonal,
is reported). Only lines through the last stone are examined: constant time per move.

Renju (``renju=True``, RIF rules §9): X (Black) may not play a foul (double-three, double-four,
overline; see :mod:`caro.engine.renju`) and wins only with exactly five, whatever ``exact``
says; O (White) wins by ``exact`` as set (RIF: five or more, i.e. ``exact=False``). ``blocked``
still applies to both sides' winning runs (the Renju presets use ``"none"``); fouls are judged on
the stones alone and ignore ``blocked``. ``win_length`` must be 5 with Renju.

Renju stalemate: when X is to move and every empty point is a foul, the game ends at once as a
draw (:attr:`Termination.NO_LEGAL_MOVE`). Source: the RIF "International Rules of Renju"
(1996, corrected 1998): a move is either placing a stone or declaring a pass (§4, "The way to
play"), and the game is a draw when both players pass in succession. X can only pass there; the
site has no pass action, so it declares the game drawn at once instead of playing on. Checked
after every move that hands the turn to X (a scan of the empty points that stops at the first
non-foul, so in practice one foul check per move).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Iterable

from .coords import parse_square, square_name
from .errors import FOUL, GAME_OVER, OCCUPIED, WRONG_TURN, IllegalMove
from .renju import Foul, foul_at, foul_map

__all__ = [
    "X", "O", "SIZES", "WIN_LENGTHS", "Blocked", "Opening", "Termination", "Foul", "Rules",
    "Preset", "PRESETS", "DEFAULT_PRESET", "Outcome", "Board", "geometry", "run_wins",
]

X, O = "X", "O"
SIZES = (11, 13, 15, 19)
WIN_LENGTHS = (4, 5, 6)

_EMPTY, _X, _O, _EDGE = 0, 1, 2, 3
_CODE = {X: _X, O: _O}
_SIDE = {_X: X, _O: O}
#: The characters of :meth:`Board.position` per cell code, and back.
_POSITION_CHARS = {_EMPTY: ".", _X: X, _O: O}
_POSITION_CODES = {c: v for v, c in _POSITION_CHARS.items()}
# The same two mappings as byte tables (bytes.translate does a whole board in C); a byte that
# is no cell character maps to _NOT_A_CELL.
_NOT_A_CELL = 255
_TO_CHARS = bytes(ord(_POSITION_CHARS[v]) if v in _POSITION_CHARS else 0 for v in range(256))
_TO_CODES = bytes(_POSITION_CODES.get(chr(b), _NOT_A_CELL) for b in range(256))

# Axis directions as (dcol, drow): row, column, diagonal (down-right), anti-diagonal (up-right).
AXES = ((1, 0), (0, 1), (1, 1), (1, -1))


class Blocked(StrEnum):
    """Which cells beyond the ends of a winning run block it (both ends blocked: no win)."""

    NONE = "none"
    """Nothing blocks: any run long enough wins (freestyle, Renju)."""
    OPPONENT = "opponent"
    """An opponent stone blocks an end; the board edge does not."""
    OPPONENT_OR_EDGE = "opponent_or_edge"
    """An opponent stone or the board edge blocks an end (Vietnamese caro)."""


class Opening(StrEnum):
    """How a game starts."""

    FREE = "free"
    """No opening procedure: X plays first anywhere."""
    RIF = "rif"
    """RIF Renju opening (see :class:`caro.engine.openings.RifOpening`)."""
    SWAP2 = "swap2"
    """Swap2 (see :class:`caro.engine.openings.Swap2Opening`)."""


class Termination(StrEnum):
    """Why a caro game ended, as judged by the rules engine."""

    FIVE = "five"
    """A side completed a winning run."""
    DRAW = "draw"
    """The board filled up with no winning run."""
    NO_LEGAL_MOVE = "no_legal_move"
    """Renju: every empty point is a foul for X, the side to move; the game is drawn."""


@dataclass(frozen=True)
class Rules:
    """A caro rule set (immutable, hashable, JSON-friendly through :meth:`to_dict`).

    ``size``: board side, one of 11/13/15/19. ``win_length``: 4, 5 or 6 stones. ``exact``: a
    run longer than ``win_length`` never wins. ``blocked``: ``"none"``, ``"opponent"`` or
    ``"opponent_or_edge"`` (see the module docstring). ``renju``: RIF fouls for X, which then
    needs exactly five. Invalid values raise ValueError.
    """

    size: int = 15
    win_length: int = 5
    exact: bool = False
    blocked: str = Blocked.OPPONENT_OR_EDGE.value
    renju: bool = False

    def __post_init__(self) -> None:
        if type(self.size) is not int or self.size not in SIZES:
            raise ValueError(f"size must be one of {SIZES}, not {self.size!r}")
        if type(self.win_length) is not int or self.win_length not in WIN_LENGTHS:
            raise ValueError(f"win_length must be one of {WIN_LENGTHS}, not {self.win_length!r}")
        if not isinstance(self.exact, bool) or not isinstance(self.renju, bool):
            raise ValueError("exact and renju must be booleans")
        if not isinstance(self.blocked, str) or self.blocked not in {b.value for b in Blocked}:
            raise ValueError(f"blocked must be one of {[b.value for b in Blocked]}, not {self.blocked!r}")
        object.__setattr__(self, "blocked", str(Blocked(self.blocked).value))
        if self.renju and self.win_length != 5:
            raise ValueError("Renju is played with win_length 5")

    def to_dict(self) -> dict[str, Any]:
        """Return the rules as a plain JSON-serialisable dict (all five fields)."""
        return {"size": self.size, "win_length": self.win_length, "exact": self.exact,
                "blocked": self.blocked, "renju": self.renju}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Build rules from :meth:`to_dict` output; missing keys take defaults.

        Raises ValueError for a ``data`` that is not a dict, unknown keys or invalid values.
        """
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a dict, not {type(data).__name__}")
        unknown = set(data) - {"size", "win_length", "exact", "blocked", "renju"}
        if unknown:
            raise ValueError(f"unknown rule keys: {sorted(map(repr, unknown))}")
        return cls(**data)


def gettext_noop(message: str) -> str:
    """Mark an English display name for translation (``makemessages`` extracts it); the site
    translates it with gettext when it shows it. The engine itself never imports Django."""
    return message


@dataclass(frozen=True)
class Preset:
    """A named rule set offered to players: ``slug``, English display ``name`` (a gettext msgid),
    ``rules`` and the ``opening`` procedure."""

    slug: str
    name: str
    rules: Rules
    opening: Opening = Opening.FREE


PRESETS: dict[str, Preset] = {
    preset.slug: preset
    for preset in (
        # Site default: reference/caro-rules-cocaro.txt, caro-blocked-ends-cocaro.txt.
        Preset("caro-vn", gettext_noop("Vietnamese caro: blocked two ends"), Rules()),
        Preset("freestyle", gettext_noop("Freestyle"), Rules(blocked="none")),
        Preset("exact-five", gettext_noop("Exact five"), Rules(exact=True, blocked="none")),
        Preset("caro-exact", gettext_noop("Caro with exact five"), Rules(exact=True, blocked="opponent_or_edge")),
        # The convention of reference/caro-rule-sets.txt: the edge never blocks.
        Preset("caro-edge-open", gettext_noop("Caro, the edge does not block"), Rules(exact=True, blocked="opponent")),
        Preset("renju", gettext_noop("Renju"), Rules(blocked="none", renju=True)),
        Preset("renju-rif", gettext_noop("Renju · RIF"), Rules(blocked="none", renju=True), Opening.RIF),
        Preset("swap2", gettext_noop("Gomoku · Swap2"), Rules(exact=True, blocked="none"), Opening.SWAP2),
    )
}
DEFAULT_PRESET = "caro-vn"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is ``"X"``, ``"O"`` or None (draw); ``termination`` a
    :class:`Termination`; ``line`` the square names of the whole winning run, from one end to
    the other (empty for a draw)."""

    winner: str | None
    termination: Termination
    line: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Geometry:
    names: tuple[str, ...]
    # rays[i][k]: cell indices walking away from i (not including i) to the board edge,
    # k = 0..3 along AXES, k + 4 the opposite direction.
    rays: list[tuple[tuple[int, ...], ...]] = field(repr=False)


@functools.cache
def geometry(size: int) -> _Geometry:
    """Square names and rays of a ``size`` x ``size`` board (cached per size)."""
    names = tuple(square_name(i % size, i // size) for i in range(size * size))
    rays = []
    for i in range(size * size):
        col, row = i % size, i // size
        per_cell = []
        for sign in (1, -1):
            for dc, dr in AXES:
                ray, c, r = [], col + sign * dc, row + sign * dr
                while 0 <= c < size and 0 <= r < size:
                    ray.append(r * size + c)
                    c, r = c + sign * dc, r + sign * dr
                per_cell.append(tuple(ray))
        rays.append(tuple(per_cell))
    return _Geometry(names, rays)


def run_wins(rules: Rules, me: int, length: int, left: int, right: int) -> bool:
    """Whether a WHOLE contiguous run of ``me``'s stones wins under ``rules``: the site's
    winning rule, written once (the engine and the bots' fast board both ask it).

    ``me``: the run's owner as a cell code, 1 (X) or 2 (O). ``length``: the number of stones in
    the whole run (not a window of it). ``left``, ``right``: the codes of the two cells just
    beyond its ends: 0 empty, 1 X, 2 O, 3 off the board (the edge). Rule (module docstring;
    ``shared/reference/caro-blocked-ends-cocaro.txt``, ``caro-rule-sets.txt``; RIF §9 for
    Renju's exact five for X): the run wins when ``length >= win_length``, and ``length ==
    win_length`` when ``exact`` (always for X under Renju), unless both ends are blocked
    (``blocked="opponent"``: by an opponent stone; ``"opponent_or_edge"``: by an opponent stone
    or the edge; ``"none"``: never).
    """
    k = rules.win_length
    if length < k or (length > k and (rules.exact or (rules.renju and me == _X))):
        return False
    blocked = rules.blocked
    if blocked == Blocked.NONE:
        return True
    opp = 3 - me
    if blocked == Blocked.OPPONENT:
        return not (left == opp and right == opp)
    return not (left in (opp, _EDGE) and right in (opp, _EDGE))


class Board:
    """A caro position under a :class:`Rules`, with the moves played on it.

    ``turn`` is the side to move (``"X"`` or ``"O"``), ``moves`` the square names played via
    :meth:`play` in order, ``ply`` their number, ``outcome`` None while the game goes on.
    Queries (``stone_at``, ``stones``, ``foul``, ``legal_moves``) never change the board.
    """

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules if rules is not None else Rules()
        self._geo = geometry(self.rules.size)
        self._cells = [_EMPTY] * (self.rules.size ** 2)
        self._empty = len(self._cells)
        self._played: list[int] = []
        self.turn = X
        self.outcome: Outcome | None = None

    @classmethod
    def from_stones(cls, rules: Rules | None = None, x: Iterable[str] = (), o: Iterable[str] = (),
                    to_move: str = X) -> Board:
        """Set up a position from stone lists (not necessarily reachable by play).

        The position is not judged: ``outcome`` starts as None even if a run is already on the
        board or (Renju) X is to move with only foul points left (then :meth:`legal_moves` is
        empty and :meth:`play` refuses every square, consistently), and ``moves``/``ply`` start
        empty. Raises IllegalMove (``bad_square``,
        ``out_of_board``, ``occupied`` for a square listed twice) and ValueError for a
        ``to_move`` other than ``"X"``/``"O"``.
        """
        if to_move not in _CODE:
            raise ValueError(f"to_move must be 'X' or 'O', not {to_move!r}")
        board = cls(rules)
        for side, squares in ((_X, x), (_O, o)):
            for square in squares:
                i = board._index(square)
                if board._cells[i] != _EMPTY:
                    raise IllegalMove(OCCUPIED, f"{square} is listed twice", square=square)
                board._cells[i] = side
                board._empty -= 1
        board.turn = to_move
        return board

    def position(self) -> str:
        """The position as a compact string: the side to move, then every square in row order as
        ``.`` (empty), ``X`` or ``O`` (``"O..X...."``; 1 + size² characters). The moves played
        and the outcome are not part of it: :meth:`from_position` gives a board to play on."""
        return self.turn + bytes(self._cells).translate(_TO_CHARS).decode("ascii")

    @classmethod
    def from_position(cls, rules: Rules | None, text: str) -> Board:
        """The board of :meth:`position`'s ``text`` under ``rules``, ready to play on: the same
        stones and side to move, ``moves`` empty (``ply`` counts the moves played from here) and
        ``outcome`` None (the position of a game in play). Raises ValueError for a string that is
        not a position of this board size."""
        board = cls(rules)
        if not isinstance(text, str) or len(text) != 1 + len(board._cells) or text[0] not in _CODE:
            raise ValueError("not a caro position of this size")
        if not text.isascii():
            raise ValueError("not a caro position")
        cells = list(text[1:].encode("ascii").translate(_TO_CODES))
        if _NOT_A_CELL in cells:
            raise ValueError("not a caro position")
        board._cells, board._empty, board.turn = cells, cells.count(_EMPTY), text[0]
        return board

    def copy(self) -> Board:
        """Return an independent copy (same rules, stones, moves, turn and outcome)."""
        other = object.__new__(Board)
        other.rules, other._geo, other.turn, other.outcome = self.rules, self._geo, self.turn, self.outcome
        other._cells, other._empty, other._played = list(self._cells), self._empty, list(self._played)
        return other

    # -- queries -------------------------------------------------------------------------------

    @property
    def moves(self) -> list[str]:
        """Square names played via :meth:`play`, in order (a new list)."""
        return [self._geo.names[i] for i in self._played]

    @property
    def ply(self) -> int:
        """Number of stones placed via :meth:`play` (set-up stones do not count)."""
        return len(self._played)

    def stone_at(self, square: str) -> str | None:
        """Return ``"X"``, ``"O"`` or None for ``square``; raises IllegalMove for bad names."""
        return _SIDE.get(self._cells[self._index(square)])

    def stones(self) -> dict[str, str]:
        """Return every stone as ``{square name: "X" | "O"}``."""
        names = self._geo.names
        return {names[i]: _SIDE[v] for i, v in enumerate(self._cells) if v}

    def is_full(self) -> bool:
        """Whether no empty square is left."""
        return self._empty == 0

    def foul(self, square: str) -> str | None:
        """The Renju foul the side to move would commit at ``square``, else None.

        Returns a :class:`Foul` (a str: ``"double-three"``, ``"double-four"`` or ``"overline"``)
        only under Renju rules, for X to move, on an empty square; None otherwise. Raises
        IllegalMove for bad square names. Source: RIF rules §9.2-9.4.
        """
        i = self._index(square)
        if not self.rules.renju or self.turn != X or self._cells[i] != _EMPTY:
            return None
        return foul_at(self._cells, self._geo.rays, i)

    def legal_moves(self) -> list[str]:
        """Square names the side to move may play, in row order (A1, B1, ..., then row 2).

        Empty when the game is over; Renju fouls are left out for X. (After a move, X is never
        left to move with an empty list: that ends the game, see ``Termination.NO_LEGAL_MOVE``.)
        """
        if self.outcome is not None:
            return []
        names, cells = self._geo.names, self._cells
        empties = [i for i, v in enumerate(cells) if v == _EMPTY]
        if self.rules.renju and self.turn == X:
            fouls = self._foul_map()
            return [names[i] for i in empties if i not in fouls]
        return [names[i] for i in empties]

    def _foul_map(self) -> dict[int, Foul]:
        """:func:`renju.foul_map` of this position, kept until a stone changes: the legal-move list
        and the foul points (explain.foul_points) of one position both need it. Do not modify the
        returned dict."""
        key = bytes(self._cells)
        kept = getattr(self, "_fouls", None)  # copy() builds boards without __init__
        if kept is None or kept[0] != key:
            kept = self._fouls = (key, foul_map(self._cells, self._geo.rays))
        return kept[1]

    def winning_line(self, square: str) -> tuple[str, ...] | None:
        """The winning run through the stone on ``square`` (whole run, one end to the other),
        or None if none of its four lines wins for its owner. None for an empty square."""
        i = self._index(square)
        if self._cells[i] == _EMPTY:
            return None
        return self._winning_run(i)

    def run_through(self, square: str, length: int) -> tuple[str, ...] | None:
        """The first whole run (along the axes in order) of at least ``length`` stones of one side
        through the stone on ``square``, one end to the other, whatever blocks its ends and however
        long it is; None for an empty square or when no line through it is that long. Raises
        IllegalMove for bad square names. (What the win would be with no blocking and no exact
        rule: ``explain.refused_five`` compares the two.)"""
        i = self._index(square)
        cells, rays = self._cells, self._geo.rays[i]
        me = cells[i]
        if me == _EMPTY:
            return None
        for axis in range(4):
            runs = []
            for ray in (rays[axis + 4], rays[axis]):
                n = 0
                while n < len(ray) and cells[ray[n]] == me:
                    n += 1
                runs.append(ray[:n])
            if 1 + len(runs[0]) + len(runs[1]) >= length:
                names = self._geo.names
                return tuple(names[j] for j in reversed(runs[0])) + (names[i],) + tuple(names[j] for j in runs[1])
        return None

    # -- moves ---------------------------------------------------------------------------------

    def play(self, square: str, side: str | None = None) -> Outcome | None:
        """Place the side to move's stone on ``square``; return the :class:`Outcome` if the game
        ended, else None.

        ``side`` (optional, ``"X"``/``"O"``) asserts whose move it is. Raises IllegalMove with
        reason ``game_over``, ``wrong_turn``, ``bad_square``, ``out_of_board``, ``occupied`` or
        ``foul`` (Renju, X only; ``.foul`` gives the kind), checked in that order.
        """
        if self.outcome is not None:
            raise IllegalMove(GAME_OVER, "the game is over", square=square if isinstance(square, str) else None)
        if side is not None and side != self.turn:
            raise IllegalMove(WRONG_TURN, f"it is {self.turn}'s turn, not {side}'s")
        i = self._index(square)
        name = self._geo.names[i]
        if self._cells[i] != _EMPTY:
            raise IllegalMove(OCCUPIED, f"{name} is occupied", square=name)
        if self.rules.renju and self.turn == X:
            kind = foul_at(self._cells, self._geo.rays, i)
            if kind is not None:
                raise IllegalMove(FOUL, f"{name} is a foul for X ({kind})", square=name, foul=kind)
        code = _CODE[self.turn]
        self._cells[i] = code
        self._empty -= 1
        self._played.append(i)
        line = self._winning_run(i)
        if line is not None:
            self.outcome = Outcome(self.turn, Termination.FIVE, line)
        elif self._empty == 0:
            self.outcome = Outcome(None, Termination.DRAW)
        self.turn = O if self.turn == X else X
        if self.outcome is None and self.rules.renju and self.turn == X and not self._has_legal_move():
            self.outcome = Outcome(None, Termination.NO_LEGAL_MOVE)
        return self.outcome

    def undo(self) -> str:
        """Take back the last move made with :meth:`play` and return its square name.

        Clears the outcome and gives the turn back. Raises IndexError when no move was played.
        """
        if not self._played:
            raise IndexError("no move to undo")
        i = self._played.pop()
        self.turn = _SIDE[self._cells[i]]
        self._cells[i] = _EMPTY
        self._empty += 1
        self.outcome = None
        return self._geo.names[i]

    # -- internals -----------------------------------------------------------------------------

    def _index(self, square: str) -> int:
        col, row = parse_square(square, self.rules.size)
        return row * self.rules.size + col

    def _has_legal_move(self) -> bool:
        """Whether the side to move has a legal move (stops at the first one found)."""
        cells, rays = self._cells, self._geo.rays
        renju_x = self.rules.renju and self.turn == X
        i = -1
        for _ in range(self._empty):
            i = cells.index(_EMPTY, i + 1)
            if not renju_x or foul_at(cells, rays, i) is None:
                return True
        return False

    def _winning_run(self, i: int) -> tuple[str, ...] | None:
        cells, rays, rules = self._cells, self._geo.rays[i], self.rules
        me = cells[i]
        for axis in range(4):
            ends, runs = [], []
            for ray in (rays[axis + 4], rays[axis]):
                n = 0
                while n < len(ray) and cells[ray[n]] == me:
                    n += 1
                runs.append(ray[:n])
                ends.append(cells[ray[n]] if n < len(ray) else _EDGE)
            if not run_wins(rules, me, 1 + len(runs[0]) + len(runs[1]), ends[0], ends[1]):
                continue
            names = self._geo.names
            return tuple(names[j] for j in reversed(runs[0])) + (names[i],) + tuple(names[j] for j in runs[1])
        return None

    def __str__(self) -> str:
        size = self.rules.size
        chars = ".XO"
        header = "    " + " ".join(square_name(c, 0)[0] for c in range(size))
        rows = [f"{r + 1:>3} " + " ".join(chars[self._cells[r * size + c]] for c in range(size)) for r in range(size)]
        return "\n".join([header, *rows])

    def __repr__(self) -> str:
        return f"<caro.Board {self.rules!r} turn={self.turn} ply={self.ply} outcome={self.outcome!r}>"
