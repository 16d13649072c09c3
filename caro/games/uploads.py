"""Records of games played on the player's own device, read and judged before anything is stored.

A game against the computer in the page, or between two players on one device, is played entirely
in the browser (issue 26); when it ends, the page sends its record (docs/protocol.md, "Records of
games played on the device"; CONTRACTS.md section 4). Nothing in it is trusted: `read` checks
every field's type and bounds, replays the opening's actions through the engine's machines
(`caro.engine.openings`: RIF, Swap2) and every move through the kind adapter (the engine refuses
an illegal move, a move after the end, a Renju foul), and compares the claimed result with the
engine's verdict. A refusal is an `UploadError` with a machine code and a translated message.

Pure: no queries and no Django models are written here (`caro.games.services.records.store_played`
stores what `read` returns).
"""

from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from typing import Any

from django.utils.translation import gettext_lazy as _

from caro.engine.caro import PRESETS, Rules
from caro.engine.errors import IllegalMove
from caro.engine.names import REVERSI
from caro.engine.openings import FIRST, OPENINGS, SECOND
from caro.games.errors import MESSAGES as GAME_MESSAGES
from caro.games.kinds import KINDS, Played
from caro.games.models import Game, Seat, Side
from caro.games.openings import procedure_of

#: The largest request body accepted, in bytes. A 19×19 board full of moves with its opening is
#: about 3 KB of JSON; anything far larger is not a record of a game of this site.
MAX_BODY_BYTES = 16_384
#: The modes of play on the device: against the computer in the page, two players on one device.
MODES = ("computer", "local")
#: The computer's levels a record may name (`Game.BotLevel`).
LEVELS = tuple(Game.BotLevel.values)
#: The endings a record may claim: the rules' own (judged again here) and a person's resignation.
TERMINATIONS = ("five", "full_board", "no_legal_move", "discs", "resign")
#: Longest text accepted where a square name is expected ("S19" is 3 characters).
MAX_SQUARE_CHARS = 4
#: Opening actions accepted at most: RIF takes 7 steps and Swap2 at most 6 (caro.engine.openings).
MAX_OPENING_ACTIONS = 8
#: Squares on a Reversi board that can receive a disc (8×8 less the 4 of the start).
REVERSI_SQUARES = 60
#: How far in the future (ms) a finish time may lie: the device's clock may run a little fast.
CLOCK_SKEW_MS = 10 * 60_000
#: How old (ms) a game may be when it arrives: a game finished offline waits in the browser until
#: the network is back, which may take weeks, not years.
MAX_AGE_MS = 366 * 86_400_000
#: The same record sent again (a lost answer): the fields that must be the same as the stored one.
SAME_RECORD_FIELDS = ("kind", "rules", "winner", "termination", "bot_level")

#: Every refusal code with its translated message (`UploadError.message`); docs/protocol.md lists them.
MESSAGES = {
    "too_large": _("This game record is far too large to be a game of this site."),
    "malformed": _("This game record could not be read: the field “%(field)s” is missing or not what it "
                   "should be."),
    "bad_rules": _("The rules of this game record are not rules the site plays (“%(field)s”)."),
    "bad_opening": _("The opening of this game record does not match its rules: a RIF or Swap2 game starts "
                     "with its opening, other games have none, and the game goes on only once the opening is over."),
    "illegal_opening": _("Opening step %(n)s of this game record is not allowed: %(reason)s"),
    "illegal_move": _("Move %(n)s (%(square)s) of this game record is not allowed: %(reason)s"),
    "move_after_end": _("Move %(n)s (%(square)s) of this game record comes after the end of the game."),
    "empty": _("This game record has no move: there is nothing to keep."),
    "not_over": _("The game in this record is not over, and nobody resigned."),
    "wrong_result": _("The result in this game record is not what the moves decide: %(result)s"),
    "bad_resign": _("Only a person resigns: the computer never does."),
    "bad_time": _("The start and end times of this game record are not possible."),
    "id_taken": _("This game record's id was already used for another game."),
}
#: The engine's verdict in words, for `wrong_result` ("X won with five in a row.").
VERDICTS = {
    "five": _("%(side)s won with five in a row."),
    "discs": _("%(side)s won on discs."),
    "full_board": _("Draw: the board is full."),
    "no_legal_move": _("Draw: X has only foul points left."),
    "draw_discs": _("Draw: as many discs each."),
}
#: The engine's reason codes in the words of the game service's messages (caro.games.errors).
REASON_MESSAGES = {
    "wrong_turn": "not_your_turn", "occupied": "occupied", "out_of_board": "out_of_board",
    "bad_square": "bad_square", "game_over": "game_over", "foul": "foul", "no_flip": "no_flip",
    "must_pass": "illegal", "opening_over": "opening_over", "opening_step": "opening_step",
    "not_central": "not_in_area", "offer_count": "offer_count", "equivalent_fifth": "equivalent_fifth",
    "not_offered": "not_offered", "bad_color": "bad_color",
}


class UploadError(ValueError):
    """A refused record: `code` (a key of MESSAGES), `params` for its message (e.g. `field`, `n`,
    `square`, `reason`). `message` is translated in the active language."""

    def __init__(self, code: str, **params: Any) -> None:
        if code not in MESSAGES:
            raise ValueError(f"unknown upload error code {code!r}")
        self.code = code
        self.params = params
        super().__init__(code, params)

    @property
    def message(self) -> str:
        params = {key: str(value) for key, value in self.params.items()}
        return str(MESSAGES[self.code]) % params if params else str(MESSAGES[self.code])


@dataclass
class DeviceGame:
    """A record that passed every check, ready to store as a finished, unrated `Game`.

    `plies` are every stone or disc placed, in order, as `(side, square)` (the opening's stones
    first, square names as the engine writes them); `opening` is the `Game.opening` dict the site
    keeps for a RIF or Swap2 game played here ({} for none); `host_side` the side the person
    (computer mode) or the host seat (one device) plays at the end; `winner` "X", "O" or "" (a
    draw), `termination` a `Game.Termination` value, `line` the winning run (five only)."""

    id: uuid.UUID
    mode: str
    kind: str
    rules: dict
    level: str
    host_side: str
    opening: dict
    plies: list[tuple[str, str]]
    start_moves: int
    winner: str
    termination: str
    line: list[str]
    to_move: str
    started_at: datetime
    finished_at: datetime
    preset: str = ""

    @property
    def bot_seat(self) -> str:
        """The computer's seat: the guest's in a computer game (the person hosts), else ""."""
        return Seat.GUEST if self.mode == "computer" else ""


def parse_body(body: bytes) -> Any:
    """The JSON value of a request body. Raises UploadError `too_large` (over MAX_BODY_BYTES) or
    `malformed` (not JSON, not UTF-8, nested too deeply, a number too long)."""
    if len(body) > MAX_BODY_BYTES:
        raise UploadError("too_large")
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise UploadError("malformed", field="JSON") from None


def read(data: Any, now: datetime) -> DeviceGame:
    """Check a record (the parsed JSON body) and judge its game; `now` is the server's time.

    Raises UploadError: `malformed` (a field missing or of the wrong type or value), `bad_rules`,
    `bad_opening`, `illegal_opening`, `illegal_move`, `move_after_end`, `empty`, `not_over`,
    `wrong_result`, `bad_resign`, `bad_time`.
    """
    if not isinstance(data, dict):
        raise UploadError("malformed", field="record")
    record_id = _uuid(data.get("id"))
    mode = _choice(data, "mode", MODES)
    kind_name = _choice(data, "game", tuple(KINDS))
    preset, rules = _rules(data, kind_name)
    level, side = _seats(data, mode)
    start_moves = _start_moves(data)
    squares = _squares(data, kind_name, rules)
    if start_moves > len(squares):
        raise UploadError("malformed", field="start_moves")
    winner, termination = _claimed(data)
    if start_moves and start_moves >= len(squares) and termination != "resign":
        # Continued from a position, nobody moved: the result was not played here (only a
        # resignation can end such a game at once).
        raise UploadError("malformed", field="start_moves")
    started_at, finished_at = _times(data, now)

    kind = KINDS[kind_name]
    procedure = procedure_of(preset) if kind_name == "caro" else ""
    opening_data = data.get("opening")
    if procedure and start_moves == 0:
        board, opening, host_side, placed = _opening(opening_data, procedure, rules, mode, side)
    elif opening_data not in (None, {}):
        raise UploadError("bad_opening")
    else:
        board, opening, placed = kind.board(rules, []), {}, []
        host_side = side if mode == "computer" else Side.X
    if opening and "plies" not in opening and squares:
        raise UploadError("bad_opening")  # moves while the opening still runs
    plies = [(Side.X if ply % 2 else Side.O, square) for ply, square in enumerate(placed, start=1)]
    last = _replay(kind, board, squares, plies, offset=len(placed))
    if not plies:
        raise UploadError("empty")
    verdict = _verdict(last, kind_name, winner, termination, mode, host_side)
    return DeviceGame(
        id=record_id, mode=mode, kind=kind_name, rules=rules, level=level, host_side=host_side,
        opening=opening, plies=plies, start_moves=start_moves, winner=verdict[0], termination=verdict[1],
        line=verdict[2], to_move=kind.turn(board), started_at=started_at, finished_at=finished_at, preset=preset,
    )


# -- fields ---------------------------------------------------------------------------------------

def _uuid(value: Any) -> uuid.UUID:
    if not isinstance(value, str) or len(value) > 64:
        raise UploadError("malformed", field="id")
    try:
        return uuid.UUID(value)
    except ValueError:
        raise UploadError("malformed", field="id") from None


def _choice(data: dict, name: str, allowed: tuple[str, ...]) -> str:
    value = data.get(name)
    if not isinstance(value, str) or value not in allowed:
        raise UploadError("malformed", field=name)
    return value


def _absent(value: Any) -> bool:
    return value is None or value == ""


def _rules(data: dict, kind_name: str) -> tuple[str, dict]:
    """`(preset slug, Game.rules)`: a caro preset with the size and win length the site offers
    with it (Renju: 15×15, five), every other rule exactly the preset's; Reversi has none."""
    preset, rules = data.get("preset"), data.get("rules")
    if kind_name == "reversi":
        if not (_absent(preset) or preset == REVERSI) or rules not in (None, {}):
            raise UploadError("bad_rules", field="rules")
        return REVERSI, {}
    if not isinstance(preset, str) or preset not in PRESETS:
        raise UploadError("bad_rules", field="preset")
    if not isinstance(rules, dict):
        raise UploadError("malformed", field="rules")
    try:
        given = Rules.from_dict(rules)  # exact types: an int size, bool flags, a known blocked value
        expected = KINDS["caro"].rules_for(preset, given.size, given.win_length)
    except (ValueError, TypeError):
        raise UploadError("bad_rules", field="rules") from None
    fixed = PRESETS[preset].rules
    if fixed.renju and (given.size, given.win_length) != (fixed.size, fixed.win_length):
        raise UploadError("bad_rules", field="rules")  # Renju is played on 15×15, five in a row
    if given.to_dict() != expected:
        raise UploadError("bad_rules", field="rules")
    return preset, expected


def _seats(data: dict, mode: str) -> tuple[str, str]:
    """`(level, the person's side at the end)` of a computer game; `("", "")` on one device."""
    level, side = data.get("level"), data.get("side")
    if mode == "computer":
        if not isinstance(level, str) or level not in LEVELS:
            raise UploadError("malformed", field="level")
        if side not in (Side.X, Side.O):
            raise UploadError("malformed", field="side")
        return level, side
    if not _absent(level):
        raise UploadError("malformed", field="level")
    if not _absent(side):
        raise UploadError("malformed", field="side")
    return "", ""


def _start_moves(data: dict) -> int:
    value = data.get("start_moves", 0)
    if value is None:
        return 0
    if type(value) is not int or value < 0:
        raise UploadError("malformed", field="start_moves")
    return value


def _squares(data: dict, kind_name: str, rules: dict) -> list[str]:
    """The record's moves: a list of short strings, no more than the board has squares."""
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise UploadError("malformed", field="moves")
    room = REVERSI_SQUARES if kind_name == "reversi" else rules["size"] ** 2
    if len(moves) > room:
        raise UploadError("malformed", field="moves")
    if not all(isinstance(m, str) and 0 < len(m) <= MAX_SQUARE_CHARS for m in moves):
        raise UploadError("malformed", field="moves")
    return moves


def _claimed(data: dict) -> tuple[str, str]:
    """`(winner "X"/"O"/"", termination)` as the record claims them."""
    result = data.get("result")
    if not isinstance(result, dict):
        raise UploadError("malformed", field="result")
    winner, termination = result.get("winner"), result.get("termination")
    if winner not in (Side.X, Side.O, None):
        raise UploadError("malformed", field="result.winner")
    if not isinstance(termination, str) or termination not in TERMINATIONS:
        raise UploadError("malformed", field="result.termination")
    return winner or "", termination


def _ms(data: dict, name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise UploadError("malformed", field=name)
    return int(value)


def _times(data: dict, now: datetime) -> tuple[datetime, datetime]:
    """Start and end as datetimes: the start no later than the end, the end not in the future
    (beyond CLOCK_SKEW_MS) and the start not older than MAX_AGE_MS."""
    started, finished = _ms(data, "started_at"), _ms(data, "finished_at")
    now_ms = int(now.timestamp() * 1000)
    if not (now_ms - MAX_AGE_MS <= started <= finished <= now_ms + CLOCK_SKEW_MS):
        raise UploadError("bad_time")
    epoch = datetime(1970, 1, 1, tzinfo=dt_timezone.utc)
    return epoch + timedelta(milliseconds=started), epoch + timedelta(milliseconds=finished)


# -- the game -------------------------------------------------------------------------------------

def _reason(exc: IllegalMove) -> str:
    return str(GAME_MESSAGES[REASON_MESSAGES.get(exc.reason, "illegal")])


def _opening(data: Any, procedure: str, rules: dict, mode: str, side: str):
    """Replay a RIF or Swap2 opening (`machine.to_dict()` of the page: `{kind, rules, actions}`).

    Returns `(the board after it, Game.opening, host_side, the squares it placed)`. The person
    hosts a computer game; the seat that began as tentative Black ("first") is the person's when
    the person's side at the end is the first seat's colour. On one device the host is "first".
    Raises UploadError `bad_opening` or `illegal_opening`."""
    if not isinstance(data, dict) or data.get("kind") != procedure:
        raise UploadError("bad_opening")
    if "rules" in data and data["rules"] != rules:
        raise UploadError("bad_opening")
    actions = data.get("actions")
    if not isinstance(actions, list) or not actions or len(actions) > MAX_OPENING_ACTIONS:
        raise UploadError("bad_opening")
    machine = OPENINGS[procedure](Rules.from_dict(rules))
    steps = []
    for n, action in enumerate(actions, start=1):
        if not isinstance(action, dict) or len(json.dumps(action)) > 200:
            raise UploadError("illegal_opening", n=n, reason=GAME_MESSAGES["opening_step"])
        before, step, actor = machine.board.ply, machine.state, machine.actor
        try:
            machine.apply(action)
        except IllegalMove as exc:
            raise UploadError("illegal_opening", n=n, reason=_reason(exc)) from None
        steps.append((machine.actions[-1], actor, step, list(range(before + 1, machine.board.ply + 1))))
    if mode == "computer":
        first = Seat.HOST if machine.colors[FIRST] == side else Seat.GUEST
    else:
        first = Seat.HOST
    log = [{**action.to_dict(), "seat": first if actor == FIRST else Seat.other(first), "step": step.value,
            "plies": plies} for action, actor, step, plies in steps]
    opening = {"kind": procedure, "first": first, "log": log}
    if machine.finished:
        opening["plies"] = machine.board.ply
    host_side = machine.colors[FIRST if first == Seat.HOST else SECOND]
    return machine.board, opening, host_side, list(machine.board.moves)


def _replay(kind, board, squares: list[str], plies: list[tuple[str, str]], offset: int) -> Played | None:
    """Play `squares` on `board` (after the opening's `offset` stones), appending to `plies`;
    returns the last move's `Played` (None without a move). Raises UploadError `move_after_end`
    or `illegal_move` (the engine's refusal; the move's number counts every stone)."""
    last = None
    for n, square in enumerate(squares, start=offset + 1):
        if last is not None and last.finished:
            raise UploadError("move_after_end", n=n, square=square)
        side = kind.turn(board)
        try:
            last = kind.play(board, square, side)
        except IllegalMove as exc:
            if exc.reason == "game_over":
                raise UploadError("move_after_end", n=n, square=square) from None
            raise UploadError("illegal_move", n=n, square=square, reason=_reason(exc)) from None
        plies.append((side, last.square))
    return last


def _verdict(last: Played | None, kind_name: str, winner: str, termination: str, mode: str,
             host_side: str) -> tuple[str, str, list[str]]:
    """`(winner, termination, line)` to store: the engine's verdict when the moves ended the game
    (the claim must be the same), else the claimed resignation (in a computer game, by the
    person). Raises UploadError `wrong_result`, `not_over` or `bad_resign`."""
    if last is not None and last.finished:
        if (winner, termination) != (last.winner, last.termination):
            raise UploadError("wrong_result", result=_verdict_words(last, kind_name))
        return last.winner, last.termination, list(last.line)
    if termination != "resign":
        raise UploadError("not_over")
    if not winner:
        raise UploadError("malformed", field="result.winner")
    if mode == "computer" and winner == host_side:
        raise UploadError("bad_resign")  # the computer's side would have resigned
    return winner, Game.Termination.RESIGN, []


def _verdict_words(last: Played, kind_name: str) -> str:
    """The engine's verdict in the active language ("X won with five in a row.", "Black won on discs.")."""
    if last.termination == "discs" and not last.winner:
        return str(VERDICTS["draw_discs"])
    text = str(VERDICTS[last.termination])
    return text % {"side": KINDS[kind_name].side_label(last.winner)} if last.winner else text


def same_game(game: Game, record: DeviceGame, squares: list[str]) -> bool:
    """Whether the stored `game` (with its stored `squares`) is the game of `record`: the same
    record sent again after its answer was lost."""
    stored = {name: getattr(game, name) for name in SAME_RECORD_FIELDS}
    sent = {"kind": record.kind, "rules": record.rules, "winner": record.winner,
            "termination": record.termination, "bot_level": record.level}
    return stored == sent and squares == [square for _side, square in record.plies]


__all__ = ["MAX_BODY_BYTES", "MESSAGES", "DeviceGame", "UploadError", "parse_body", "read", "same_game"]
