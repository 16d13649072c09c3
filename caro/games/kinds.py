"""The two games the site hosts, behind one interface: the ONLY place that tells caro from Reversi.

Everything else (services, snapshots, rooms, pages) asks `kind_of(game)` or `kind_for_choice(slug)`
and calls the same methods on either kind. The rules themselves live in the pure engine
(`caro.engine.caro`, `caro.engine.reversi`); this module translates between the engine's
vocabulary and the site's. Sides are "X" (moves first) and "O"; in Reversi X plays Black.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from caro.engine import caro as caro_engine
from caro.engine import records
from caro.engine import reversi as reversi_engine
from caro.engine.caro import PRESETS
from caro.engine.errors import IllegalMove
from caro.engine.explain import foul_points, refused_five
from caro.engine.names import REVERSI

SIDE_OF_COLOR = {"black": "X", "white": "O"}
COLOR_OF_SIDE = {"X": "black", "O": "white"}


@dataclass
class Played:
    """What one move did. `winner` ("X", "O" or "" for a draw) and `termination` are set when the
    game ended; `extra` holds kind-specific event fields (Reversi: `flips`, `passed`, `count`)."""

    square: str
    finished: bool = False
    winner: str = ""
    termination: str = ""
    line: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class RecordFormat:
    """A file format a game record is written in: `slug` (in URLs), translated `label`, file
    `extension` (without the dot) and the `content_type` of a download."""

    slug: str
    label: str
    extension: str
    content_type: str = "text/plain; charset=utf-8"


@dataclass
class ReadRecord:
    """A record read from text by `Kind.read_record`: `rules` (a `Game.rules` dict), `squares`
    (every move, legal), `times` (thinking time per move in ms; 0 when the file has none) and
    `names` ({"X": str, "O": str}, empty strings when the file has none)."""

    rules: dict
    squares: list[str]
    times: list[int]
    names: dict[str, str] = field(default_factory=lambda: {"X": "", "O": ""})


PSQ = RecordFormat("psq", gettext_lazy("PSQ (Piskvork, Gomocup)"), "psq")
GGF = RecordFormat("ggf", gettext_lazy("GGF (Othello programs)"), "ggf")
MOVE_STRING = RecordFormat("moves", gettext_lazy("Move string (f5d6c3)"), "txt")
SQUARE_LIST = RecordFormat("squares", gettext_lazy("Coordinate list"), "txt")


def caro_rules(rules: dict) -> caro_engine.Rules:
    """`caro_engine.Rules.from_dict(rules)`, built once per distinct rule set (Rules is immutable):
    every move reads its game's rules, and building them (checking every field) cost more than
    the move's own engine work. Raises ValueError as `from_dict` does."""
    try:  # the values' types are in the key: 1 and True are equal, but only True is a valid `exact`
        return _rules_of(tuple(rules.items()), tuple(map(type, rules.values())))
    except (AttributeError, TypeError):  # not a dict, or unhashable values: from_dict says why
        return caro_engine.Rules.from_dict(rules)


@functools.lru_cache(maxsize=256)
def _rules_of(items: tuple, _types: tuple) -> caro_engine.Rules:
    return caro_engine.Rules.from_dict(dict(items))


class Caro:
    """Caro / gomoku with every rule option (`Game.rules` is `caro.engine.caro.Rules.to_dict()`)."""

    name = "caro"
    #: The player chooses a board size and a win length.
    has_options = True
    #: Who moves first in the next game of a room: the loser (after a draw or abort, the other seat).
    next_first_mover = "loser"
    #: Who moves first in a room's first game, unless the host chooses.
    first_mover = "host"
    _TERMINATIONS = {"five": "five", "draw": "full_board", "no_legal_move": "no_legal_move"}

    def rules_for(self, choice: str, size: int | None = None, win_length: int | None = None) -> dict:
        """`Game.rules` for the preset `choice` with an optional other size or win length.

        Raises KeyError for an unknown preset, ValueError for an invalid combination."""
        rules = PRESETS[choice].rules
        rules = dataclasses.replace(rules, size=size or rules.size, win_length=win_length or rules.win_length)
        return rules.to_dict()

    def stored_rules(self, rules: dict | None) -> dict:
        """`Game.rules` for `rules` (a Rules dict), or the site's default rules when None."""
        return rules or caro_engine.Rules().to_dict()

    def size(self, rules: dict) -> int:
        return caro_rules(rules).size

    def column_letters(self, size: int) -> list[str]:
        """Column names, left to right: "A", "B", … (row 1 is at the top)."""
        return [chr(ord("A") + i) for i in range(size)]

    def board(self, rules: dict, squares: list[str]) -> caro_engine.Board:
        """The position after `squares` (stored moves, all legal)."""
        board = caro_engine.Board(caro_rules(rules))
        for square in squares:
            board.play(square)
        return board

    def position(self, board: caro_engine.Board) -> str:
        """The compact stored position of `board` (`caro.engine.caro.Board.position`)."""
        return board.position()

    def board_at(self, rules: dict, position: str) -> caro_engine.Board:
        """The board of a stored `position` under `rules`, to play the next move on (its `moves`
        start empty). Raises ValueError for a string that is not a position of these rules."""
        return caro_engine.Board.from_position(caro_rules(rules), position)

    def play(self, board: caro_engine.Board, square: str, side: str) -> Played:
        """Play `square` for `side`; raises IllegalMove (with `.reason`)."""
        outcome = board.play(square, side=side)
        played = Played(square=board.moves[-1])
        if outcome is not None:
            played.finished = True
            played.winner = outcome.winner or ""
            played.termination = self._TERMINATIONS[str(outcome.termination)]
            played.line = tuple(outcome.line)
        return played

    def turn(self, board: caro_engine.Board) -> str:
        return board.turn

    def stones(self, board: caro_engine.Board) -> dict[str, str]:
        return board.stones()

    def legal_hints(self, board: caro_engine.Board) -> list[str]:
        """Squares to mark as playable (none for caro: every empty square is)."""
        return []

    def legal_flips(self, board: caro_engine.Board) -> dict[str, list[str]]:
        """What each playable square would turn over (nothing in caro)."""
        return {}

    def fouls(self, board: caro_engine.Board) -> dict[str, str]:
        """Renju foul points of the side to move (`caro.engine.explain.foul_points`)."""
        return foul_points(board)

    def after_move(self, board: caro_engine.Board, square: str) -> dict:
        """Extra fields of a `move` event that did not end the game: the foul points, and the
        "why didn't this win?" `note` when a run was refused by the rules."""
        extra = {"fouls": foul_points(board)}
        note = refused_five(board, square)
        if note is not None:
            extra["note"] = note
        return extra

    def stone_colors(self, stones: dict[str, str], marks: dict[str, str] | None = None) -> dict[str, str]:
        """`stones` ({square: side}) in the words of diagrams and records: each side's mark
        (`Game.marks()`: in a room each person keeps X or O, so the first mover may draw O)."""
        return {square: (marks or {}).get(side, side) for square, side in stones.items()}

    def shown_stones(self, stones: dict[str, str], marks: dict[str, str] | None = None) -> dict[str, str]:
        """`stones` as the board draws them (`data-stone`): the marks."""
        return self.stone_colors(stones, marks)

    def side_label(self, side: str, marks: dict[str, str] | None = None) -> str:
        """How pages name a side: the mark its player draws ("X" / "O")."""
        return (marks or {}).get(side, side)

    def describe(self, rules: dict) -> list[str]:
        """The translated parts of the one-line rules summary ("15×15 · chặn hai đầu")."""
        rules = caro_engine.Rules.from_dict(rules)
        parts = [f"{rules.size}×{rules.size}"]
        if rules.renju:
            parts.append(_("Renju"))
        elif rules.blocked == "opponent_or_edge":
            parts.append(_("blocked two ends"))
        elif rules.blocked == "opponent":
            parts.append(_("blocked two ends (edge open)"))
        else:
            parts.append(_("open ends"))
        if rules.exact:
            parts.append(_("exactly %(n)d") % {"n": rules.win_length})
        elif rules.win_length != 5:
            parts.append(_("%(n)d in a row") % {"n": rules.win_length})
        return parts

    # game records (caro.engine.records)

    #: Export formats, the first being the usual one; the plain list is read by default on import.
    RECORD_FORMATS = (PSQ, SQUARE_LIST)
    PLAIN_FORMAT = SQUARE_LIST

    def write_record(self, fmt: str, rules: dict, squares: list[str], times: list[int],
                     names: dict[str, str]) -> str:
        """The text of a record in format `fmt` ("psq" or "squares"); KeyError for another format.
        A PSQ file carries the players' names after its moves (as tournament files do)."""
        if fmt == PSQ.slug:
            return records.format_psq(squares, self.size(rules), times, (names.get("X", ""), names.get("O", "")))
        if fmt == SQUARE_LIST.slug:
            return records.format_squares(squares) + "\n"
        raise KeyError(fmt)

    def read_record(self, fmt: str, text: str, rules: dict) -> ReadRecord:
        """Read `text` in format `fmt` under `rules` (a PSQ file's own board size wins over the
        size in `rules`). Raises IllegalMove (see `caro.engine.records`), KeyError for a format
        of the other game."""
        engine_rules = caro_engine.Rules.from_dict(rules)
        if fmt == PSQ.slug:
            size = _psq_size(text)
            if size in caro_engine.SIZES and size != engine_rules.size:
                engine_rules = dataclasses.replace(engine_rules, size=size)
            game = records.parse_psq(text, engine_rules if size in caro_engine.SIZES else None)
            return ReadRecord(engine_rules.to_dict(), list(game.moves), list(game.times),
                              {"X": game.names[0], "O": game.names[1]})
        if fmt == SQUARE_LIST.slug:
            board = records.parse_squares(text, engine_rules)
            return ReadRecord(engine_rules.to_dict(), list(board.moves), [0] * board.ply)
        raise KeyError(fmt)



def _psq_size(text: str) -> int | None:
    """The board width a PSQ header announces ("Piskvorky 15x15, ..."), or None."""
    match = re.match(r"\s*Piskvorky[ \t]+([0-9]{1,3})[ \t]*x", text, re.IGNORECASE)
    return int(match.group(1)) if match else None


class Reversi:
    """Reversi 8×8 (`Game.rules` is empty); passes are automatic and never stored as moves."""

    name = "reversi"
    has_options = False
    #: Colours are random in a room's first game and swap at every rematch (reversi-rules-ttakji.txt).
    next_first_mover = "alternate"
    first_mover = "random"
    SIZE = 8

    def rules_for(self, choice: str = REVERSI, size: int | None = None, win_length: int | None = None) -> dict:
        """Reversi has one rule set: nothing to choose."""
        return {}

    def stored_rules(self, rules: dict | None) -> dict:
        return {}

    def size(self, rules: dict) -> int:
        return self.SIZE

    def column_letters(self, size: int) -> list[str]:
        """Column names a–h, as Othello records write them."""
        return [chr(ord("a") + i) for i in range(size)]

    def board(self, rules: dict, squares: list[str]) -> reversi_engine.Board:
        board = reversi_engine.Board()
        for square in squares:
            board.play(square)
        return board

    def position(self, board: reversi_engine.Board) -> str:
        """The compact stored position of `board` (`caro.engine.reversi.Board.position`)."""
        return board.position()

    def board_at(self, rules: dict, position: str) -> reversi_engine.Board:
        """The board of a stored `position`, to play the next move on. Raises ValueError for a
        string that is not a Reversi position."""
        return reversi_engine.Board.from_position(position)

    def play(self, board: reversi_engine.Board, square: str, side: str) -> Played:
        if board.outcome is not None:
            raise IllegalMove("game_over", "the game is over")
        if COLOR_OF_SIDE[side] != board.turn:
            raise IllegalMove("wrong_turn", f"it is {board.turn}'s turn")
        result = board.play(square.lower())
        played = Played(square=result.square, extra={"flips": list(result.flips)})
        if result.passed:
            played.extra["passed"] = SIDE_OF_COLOR[board.turn == "black" and "white" or "black"]
        if result.outcome is not None:
            played.finished = True
            played.winner = SIDE_OF_COLOR.get(result.outcome.winner, "")
            played.termination = "discs"
            played.extra["count"] = {"X": result.outcome.black, "O": result.outcome.white}
        return played

    def turn(self, board: reversi_engine.Board) -> str:
        return SIDE_OF_COLOR[board.turn]

    def stones(self, board: reversi_engine.Board) -> dict[str, str]:
        return {square: SIDE_OF_COLOR[color] for square, color in board.discs().items()}

    def legal_hints(self, board: reversi_engine.Board) -> list[str]:
        return board.legal_moves() if board.outcome is None else []

    def legal_flips(self, board: reversi_engine.Board) -> dict[str, list[str]]:
        """`{square: [the discs a move there would flip, a1..h8 order]}` for each legal square of the
        side to move (`reversi_engine.Board.flips`); the page's two-tap preview marks them."""
        return {square: board.flips(square) for square in self.legal_hints(board)}

    def fouls(self, board: reversi_engine.Board) -> dict[str, str]:
        return {}

    def after_move(self, board: reversi_engine.Board, square: str) -> dict:
        """Extra fields of a `move` event that did not end the game: what each legal square of
        the side to move now would flip (`legal_flips`)."""
        return {"legal_flips": self.legal_flips(board)}

    def stone_colors(self, stones: dict[str, str], marks: dict[str, str] | None = None) -> dict[str, str]:
        """`stones` ({square: "X"/"O"}) in the words of diagrams and records: "black" / "white"."""
        return {square: COLOR_OF_SIDE[side] for square, side in stones.items()}

    def shown_stones(self, stones: dict[str, str], marks: dict[str, str] | None = None) -> dict[str, str]:
        """`stones` as the board draws them (`data-stone` "X" for Black, "O" for White)."""
        return dict(stones)

    def side_label(self, side: str, marks: dict[str, str] | None = None) -> str:
        """How pages name a side: Black (X, moves first) or White, translated."""
        return _("Black") if side == "X" else _("White")

    def describe(self, rules: dict) -> list[str]:
        return [_("Reversi"), f"{self.SIZE}×{self.SIZE}"]

    # game records (caro.engine.records)

    RECORD_FORMATS = (GGF, MOVE_STRING, SQUARE_LIST)
    PLAIN_FORMAT = MOVE_STRING

    def write_record(self, fmt: str, rules: dict, squares: list[str], times: list[int],
                     names: dict[str, str]) -> str:
        """The text of a record in format `fmt` ("ggf", "moves" or "squares"); KeyError for
        another format. GGF carries the players' names (PB Black = X, PW White = O)."""
        if fmt == GGF.slug:
            board = self.board(rules, squares)
            return records.format_ggf(board, black=names.get("X", ""), white=names.get("O", "")) + "\n"
        if fmt == MOVE_STRING.slug:
            return records.format_reversi(self.board(rules, squares)) + "\n"
        if fmt == SQUARE_LIST.slug:
            return records.format_squares(squares) + "\n"
        raise KeyError(fmt)

    def read_record(self, fmt: str, text: str, rules: dict) -> ReadRecord:
        """Read `text` in format `fmt` (a move string and a coordinate list read alike).
        Raises IllegalMove (see `caro.engine.records`), KeyError for a format of the other game."""
        if fmt == GGF.slug:
            game = records.parse_ggf(text)
            names = {"X": game.tags.get("PB", ""), "O": game.tags.get("PW", "")}
            return ReadRecord({}, list(game.board.moves), [0] * game.board.ply, names)
        if fmt in (MOVE_STRING.slug, SQUARE_LIST.slug):
            board = records.parse_reversi(text)
            return ReadRecord({}, list(board.moves), [0] * board.ply)
        raise KeyError(fmt)


KINDS = {"caro": Caro(), "reversi": Reversi()}

#: The rule choices a player can make wherever rules are chosen: every caro preset (those with an
#: opening procedure, RIF and Swap2, play it through caro.games.services.opening) and Reversi.
RULE_CHOICES = list(PRESETS) + [REVERSI]


def kind_of(game) -> Caro | Reversi:
    """The kind adapter of a stored game."""
    return KINDS[game.kind]


def kind_for_choice(choice: str) -> Caro | Reversi:
    """The kind a rule choice (a caro preset slug, or "reversi") belongs to."""
    return KINDS[REVERSI] if choice == REVERSI else KINDS["caro"]


def choice_of(game) -> str:
    """The first rule choice of RULE_CHOICES whose rules, board size and win length aside, are
    `game`'s ("renju" for a RIF game: a position taken from it goes on without an opening), or
    the site's default "caro-vn" when none is."""
    for choice in RULE_CHOICES:
        kind = kind_for_choice(choice)
        if kind.name != game.kind:
            continue
        if not kind.has_options:
            return choice
        ignored = {"size": 0, "win_length": 0}
        if {**kind.rules_for(choice), **ignored} == {**game.rules, **ignored}:
            return choice
    return "caro-vn"
