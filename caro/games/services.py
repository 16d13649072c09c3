"""The game service layer: the ONLY code that changes a game (design.md, "A move, end to end").

Every state change runs in one database transaction that locks the game row
(`SELECT ... FOR UPDATE`), re-checks the deadline, validates the action with the pure engine, writes
the new state and bumps `Game.event_version`. Events are broadcast and deadline tasks scheduled only
after the transaction commits (`transaction.on_commit`), so nobody ever sees a state that was rolled
back. Errors are `GameError` with a machine code and a translated message.

Times are in milliseconds unless a name says otherwise.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from caro.engine.caro import Board, Rules
from caro.engine.coords import square_name
from caro.engine.errors import IllegalMove
from caro.games import events, signals
from caro.games.kinds import KINDS
from caro.games.errors import GameError
from caro.games.models import Game, Move

log = logging.getLogger(__name__)

#: Engine reason codes mapped to the service's error codes (see docs/protocol.md).
_ENGINE_CODES = {
    "wrong_turn": "not_your_turn",
    "occupied": "occupied",
    "out_of_board": "out_of_board",
    "bad_square": "bad_square",
    "game_over": "game_over",
    "foul": "foul",
    "no_flip": "no_flip",
}


@dataclass
class MoveResult:
    """What `play_move` did: the stored move, whether it was a repeat, and the events it caused."""

    game: Game
    move: Move
    duplicate: bool = False
    events: list[dict] = field(default_factory=list)


# --------------------------------------------------------------------------- reading


def board_for(game: Game, moves: list[Move] | None = None):
    """Rebuild the engine board of `game` from its stored moves (ordered by ply).

    Shape: a `caro.engine.caro.Board` or `caro.engine.reversi.Board` (by `game.kind`). Raises
    nothing for stored games: every stored move was validated by the engine when it was played.
    """
    squares = [m.square for m in (moves if moves is not None else game.moves.order_by("ply"))]
    return KINDS[game.kind].board(game.rules, squares)


def side_to_move(game: Game) -> str:
    """The seat to move ("X" or "O"), as stored after the last move (Reversi passes included)."""
    return game.turn


def remaining_ms(game: Game, now: datetime | None = None) -> int | None:
    """Milliseconds left on the clock of the player to move, or None without a running clock."""
    if game.deadline is None or game.is_over:
        return None
    now = now or timezone.now()
    return max(0, int((game.deadline - now).total_seconds() * 1000))


def deadline_ms(game: Game) -> int | None:
    """The deadline of the player to move as Unix time in ms (clients correct for clock offset)."""
    if game.deadline is None or game.is_over:
        return None
    return int(game.deadline.timestamp() * 1000)


def public_state(game: Game) -> dict:
    """The full public state of a game, as sent in a `state` frame (docs/protocol.md).

    Contains no secret: spectators and players receive the same dict; the consumer adds `you`.
    """
    moves = list(game.moves.order_by("ply"))
    kind = KINDS[game.kind]
    board = board_for(game, moves)
    active = game.status == Game.Status.ACTIVE
    return {
        "game_id": game.pk,
        "kind": game.kind,
        "version": game.event_version,
        "status": game.status,
        "rules": game.rules,
        "size": board_size(game),
        "moves": [[m.square, m.side] for m in moves],
        "stones": kind.stones(board),
        "legal": kind.legal_hints(board) if active else [],
        "ply": game.ply,
        "turn": game.turn if active else None,
        "players": {
            "X": _seat_info(game, "X"),
            "O": _seat_info(game, "O"),
        },
        "bot": {"side": game.bot_side, "level": game.bot_level} if game.bot_side else None,
        "local": game.is_local,
        "can_undo": undo_allowed(game),
        "move_time_ms": game.move_time_ms,
        "remaining_ms": remaining_ms(game),
        "deadline_ms": deadline_ms(game),
        "rematch_offer": game.rematch_offer or None,
        "winner": game.winner or None,
        "termination": game.termination or None,
        "line": list(game.win_line or []),
        "fouls": foul_points(board) if active and game.kind == "caro" else {},
    }


def board_size(game: Game) -> int:
    """Squares per side: 8 for Reversi, the rule set's size for caro."""
    return 8 if game.kind == Game.Kind.REVERSI else Rules.from_dict(game.rules).size


def foul_points(board: Board) -> dict[str, str]:
    """Renju foul points of the side to move, `{square: "double-three" | "double-four" | "overline"}`.

    Empty unless the rules are Renju and X (Black) is to move (RIF rules: only Black has fouls).
    """
    if not board.rules.renju or board.turn != "X" or board.outcome is not None:
        return {}
    legal = set(board.legal_moves())
    return {sq: str(board.foul(sq)) for sq in _empty_squares(board) if sq not in legal}


def _empty_squares(board: Board) -> list[str]:
    taken = board.stones()
    size = board.rules.size
    names = (square_name(c, r) for r in range(size) for c in range(size))
    return [name for name in names if name not in taken]


def refused_five(board: Board, square: str) -> dict | None:
    """Why the stone just played on `square` made a long enough run that does not win, or None.

    Returns `{"kind": "blocked" | "overline", "line": [squares]}`: "blocked" when the run is closed
    at both ends under the blocked-two-ends rule, "overline" when it is longer than the win length
    under exact rules. Used for the "why didn't this win?" note (notes/ux.md).
    """
    rules = board.rules
    if board.outcome is not None or (rules.blocked == "none" and not rules.exact) or rules.renju:
        return None
    stones = board.stones()
    relaxed = Board.from_stones(
        Rules(size=rules.size, win_length=rules.win_length, blocked="none"),
        x=[sq for sq, side in stones.items() if side == "X"],
        o=[sq for sq, side in stones.items() if side == "O"],
    )
    line = relaxed.winning_line(square)
    if line is None:
        return None
    kind = "overline" if rules.exact and len(line) > rules.win_length else "blocked"
    return {"kind": kind, "line": list(line)}


def _seat_info(game: Game, seat: str) -> dict | None:
    if game.bot_side == seat:
        return {"name": None, "guest": False, "bot": game.bot_level}
    return _player_info(game.x_player if seat == "X" else game.o_player)


def _player_info(user) -> dict | None:
    if user is None:
        return None
    return {"name": user.public_name, "guest": user.is_guest}


# --------------------------------------------------------------------------- creating and seating


def create_game(
    *,
    rules: Rules | None = None,
    x_player=None,
    o_player=None,
    move_time_ms: int = 60_000,
    channel_group: str = "",
    rematch_of: Game | None = None,
    bot_side: str = "",
    bot_level: str = "",
    kind: str = "caro",
) -> Game:
    """Create a caro game. With both seats filled it starts at once (X's clock runs).

    `move_time_ms` is the per-move clock (0 = no clock). `channel_group` names the Channels group
    that receives the game's events (the room's group). `bot_side` ("X"/"O") and `bot_level`
    ("easy"/"medium"/"hard") seat the computer; its moves are played by the Celery worker.
    The same user in both seats makes a local game (two players on one device). `kind` is
    "caro" (with `rules`) or "reversi" (no rules to choose).
    Raises ValueError for an inconsistent bot seat or an unknown kind.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown game kind {kind!r}")
    rules_dict = (rules or Rules()).to_dict() if kind == Game.Kind.CARO else {}
    if bool(bot_side) != bool(bot_level) or bot_side not in ("", "X", "O") or (
        bot_level and bot_level not in Game.BotLevel.values
    ):
        raise ValueError(f"bad computer seat: side={bot_side!r} level={bot_level!r}")
    if (bot_side == "X" and x_player is not None) or (bot_side == "O" and o_player is not None):
        raise ValueError("the computer's seat already has a player")
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            rules=rules_dict,
            x_player=x_player,
            o_player=o_player,
            move_time_ms=move_time_ms,
            channel_group=channel_group,
            rematch_of=rematch_of,
            bot_side=bot_side,
            bot_level=bot_level,
        )
        if (x_player is not None or bot_side == "X") and (o_player is not None or bot_side == "O"):
            _start(game)
            game.save()
            _after_commit(game, [])
    return game


def take_seat(game_id: int, user) -> str:
    """Seat `user` in the open seat of a waiting game; return "X" or "O".

    A user already seated gets their seat back (idempotent). Raises `GameError`:
    `game_over` (finished or aborted), `seat_taken` (both seats are filled by others).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seat_of(user)
        if seat is not None:
            return seat
        if game.is_over:
            raise GameError("game_over")
        seat = open_seat(game)
        if seat is None:
            raise GameError("seat_taken")
        setattr(game, "x_player" if seat == "X" else "o_player", user)
        event = {"type": "seated", "seat": seat, "player": _player_info(user)}
        if game.x_player_id is not None and game.o_player_id is not None:
            _start(game)
        game.event_version += 1
        event["version"] = game.event_version
        game.save()
        _after_commit(game, [event])
    return seat


def open_seat(game: Game) -> str | None:
    """The seat ("X" first, then "O") that nobody (person or computer) holds yet, or None."""
    if game.x_player_id is None and game.bot_side != "X":
        return "X"
    if game.o_player_id is None and game.bot_side != "O":
        return "O"
    return None


def _start(game: Game) -> None:
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    _set_deadline(game)


def _set_deadline(game: Game) -> None:
    game.deadline = (
        timezone.now() + timedelta(milliseconds=game.move_time_ms) if game.move_time_ms else None
    )


# --------------------------------------------------------------------------- playing


def play_move(game_id: int, user, square: str, ply: int, client_id: uuid.UUID | str) -> MoveResult:
    """Play `square` for `user` as move number `ply` (1 = the first move of the game).

    Idempotent on `client_id`: a repeat of a stored move returns it with `duplicate=True` and
    changes nothing. Raises `GameError` with code `not_a_player`, `not_started`, `game_over`,
    `timeout` (the clock had run out; the game is now over), `stale` (`ply` is not the next
    move), `not_your_turn`, `occupied`, `out_of_board`, `bad_square` or `foul`. A refused move
    changes nothing (except that an expired clock is enforced first).
    """
    client_id = uuid.UUID(str(client_id))

    def repeated(game: Game) -> MoveResult | None:
        if ply > game.ply:  # a repeat always carries the ply of a move already stored
            return None
        existing = Move.objects.filter(game=game, client_id=client_id).first()
        if existing is None:
            return None
        if game.seat_of(user) != existing.side:
            raise GameError("not_a_player")
        return MoveResult(game=game, move=existing, duplicate=True)

    def move(game: Game, seat: str) -> MoveResult:
        if ply != game.ply + 1:
            raise GameError("stale")
        return _apply_move(game, seat, square, client_id)

    return _player_action(game_id, user, move, first=repeated)


def _player_action(game_id: int, user, action, first=None):
    """Run `action(game, seat)` for a seated player of an active game, under the row lock.

    `first(game)`, when given, runs before the checks and may answer instead (idempotent repeats).
    Raises `GameError` `not_a_player`, `not_started`, `game_over`, or `timeout`: an expired clock is
    enforced instead of the action, and the error is raised after that result has committed.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        answer = first(game) if first is not None else None
        if answer is not None:
            return answer
        seat = game.seat_of(user)
        if seat is None:
            raise GameError("not_a_player")
        if game.status == Game.Status.WAITING:
            raise GameError("not_started")
        if game.is_over:
            raise GameError("game_over")
        if not _deadline_passed(game):
            return action(game, seat)
        _end_on_time(game)
    raise GameError("timeout")


def _apply_move(game: Game, seat: str, square: str, client_id: uuid.UUID) -> MoveResult:
    moves = list(game.moves.order_by("ply"))
    kind = KINDS[game.kind]
    board = board_for(game, moves)
    try:
        played = kind.play(board, square, seat)
    except IllegalMove as exc:
        raise GameError(_ENGINE_CODES.get(exc.reason, "illegal"), detail=exc.foul) from None
    now = timezone.now()
    think_ms = _think_ms(game, moves, now)
    try:
        with transaction.atomic():
            move = Move.objects.create(
                game=game, ply=game.ply + 1, side=seat, square=played.square, client_id=client_id,
                think_ms=think_ms,
            )
    except IntegrityError:  # an id reused with a newer ply: not a repeat we can answer
        raise GameError("stale") from None
    game.ply += 1
    game.to_move = kind.turn(board)
    game.event_version += 1
    event = {
        "type": "move",
        "version": game.event_version,
        "ply": move.ply,
        "side": seat,
        "square": played.square,
        "id": str(client_id),
        **played.extra,
    }
    events_out = [event]
    if played.finished:
        events_out.append(
            _finish(game, winner=played.winner, termination=played.termination, line=played.line)
        )
    else:
        _set_deadline(game)
        event["turn"] = game.turn
        event["remaining_ms"] = remaining_ms(game, now)
        event["deadline_ms"] = deadline_ms(game)
        event["can_undo"] = undo_allowed(game)
        event["legal"] = kind.legal_hints(board)
        if game.kind == Game.Kind.CARO:
            event["fouls"] = foul_points(board)
            note = refused_five(board, played.square)
            if note is not None:
                event["note"] = note
    game.save()
    _after_commit(game, events_out)
    return MoveResult(game=game, move=move, events=events_out)


def _think_ms(game: Game, moves: list[Move], now: datetime) -> int:
    since = moves[-1].created_at if moves else (game.started_at or now)
    return max(0, int((now - since).total_seconds() * 1000))


def resign(game_id: int, user) -> None:
    """Resign for `user`. Before both sides have moved the game is aborted instead (not lost).

    Raises `GameError` `not_a_player`, `not_started`, `game_over`, or `timeout` (the clock had
    already run out: the game ended on time instead).
    """

    def resign_for(game: Game, seat: str) -> None:
        if game.ply < 2:
            event = _finish(game, winner="", termination=Game.Termination.ABORT, aborted=True)
        else:
            event = _finish(game, winner=_other(seat), termination=Game.Termination.RESIGN)
        game.save()
        _after_commit(game, [event])

    _player_action(game_id, user, resign_for)


# --------------------------------------------------------------------------- the computer


def bot_turn(game_id: int, version: int) -> tuple[Board, str] | None:
    """What the computer must think about: `(board, level)`, or None when the request is stale.

    `version` is the game's `event_version` when the computer's turn began; any later event
    (a move, an undo, a resignation) makes the request stale. Reads without locking: the move is
    checked again under the lock by `apply_bot_move`.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not _bot_may_move(game, version):
        return None
    return board_for(game), game.bot_level


def apply_bot_move(game_id: int, version: int, square: str) -> MoveResult | None:
    """Play the computer's `square` if the game is still where it was at `version`.

    Returns the MoveResult, or None for a stale request (nothing changes). An illegal square
    raises `GameError` (a bot bug; nothing changes).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if not _bot_may_move(game, version):
            return None
        return _apply_move(game, game.bot_side, square, uuid.uuid4())


def _bot_may_move(game: Game, version: int) -> bool:
    return (
        bool(game.bot_side)
        and game.status == Game.Status.ACTIVE
        and game.turn == game.bot_side
        and game.event_version == version
    )


def stalled_bot_turns(older_than_s: float = 8.0) -> list[tuple[int, int]]:
    """`(game_id, event_version)` of active games where the computer has been to move for more
    than `older_than_s` seconds (its task was lost): the sweep asks again."""
    cutoff = timezone.now() - timedelta(seconds=older_than_s)
    stalled = []
    games = Game.objects.filter(status=Game.Status.ACTIVE).exclude(bot_side="")
    for game in games.only("pk", "ply", "bot_side", "event_version", "started_at")[:500]:
        if game.turn != game.bot_side:
            continue
        last = game.moves.order_by("-ply").values_list("created_at", flat=True).first()
        if (last or game.started_at) <= cutoff:
            stalled.append((game.pk, game.event_version))
    return stalled


#: Caro levels against which a player may take back moves (Reversi allows it at every level).
UNDO_LEVELS = ("easy", "medium")


def undo_allowed(game: Game) -> bool:
    """Whether the human player may take back a move now: a computer game in progress, at a level
    that allows it (caro: Easy and Medium; Reversi: every level), with a move of the player's own."""
    if not game.bot_side or game.status != Game.Status.ACTIVE:
        return False
    if game.kind == Game.Kind.CARO and game.bot_level not in UNDO_LEVELS:
        return False
    human = "O" if game.bot_side == "X" else "X"
    return game.moves.filter(side=human).exists()


def undo(game_id: int, user) -> int:
    """Take back the player's last move and everything after it: the computer's reply (in Reversi,
    possibly several replies after a pass), or nothing while the computer is still thinking.
    Returns how many moves were removed.

    Raises `GameError` `not_a_player`, `not_started`, `game_over`, `timeout` or `undo_refused`
    (not a computer game, a level without undo, or no move of the player's to take back).
    """

    def take_back(game: Game, seat: str) -> int:
        if not undo_allowed(game):
            raise GameError("undo_refused")
        human = "O" if game.bot_side == "X" else "X"
        last_own = game.moves.filter(side=human).order_by("-ply").values_list("ply", flat=True).first()
        removed, _ = Move.objects.filter(game=game, ply__gte=last_own).delete()
        game.ply = last_own - 1
        game.to_move = KINDS[game.kind].turn(board_for(game))
        game.event_version += 1
        _set_deadline(game)
        game.save()
        _after_commit(game, [{"type": "state_changed", "version": game.event_version, "reason": "undo"}])
        return removed

    return _player_action(game_id, user, take_back)


# --------------------------------------------------------------------------- time


def _deadline_passed(game: Game, now: datetime | None = None) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.deadline is not None
        and game.deadline <= (now or timezone.now())
    )


def _end_on_time(game: Game) -> dict:
    """End a locked game whose clock ran out: the player to move loses, or abort before ply 2."""
    if game.ply < 2:
        event = _finish(game, winner="", termination=Game.Termination.ABORT, aborted=True)
    else:
        event = _finish(game, winner=_other(side_to_move(game)), termination=Game.Termination.TIMEOUT)
    game.save()
    _after_commit(game, [event])
    return event


def enforce_deadline(game_id: int, ply: int | None = None) -> bool:
    """End the game on time if, under the row lock, it is still at `ply` and its deadline passed.

    `ply=None` skips the ply check (the sweep). Returns True when this call ended the game.
    Idempotent: a late, repeated or revoked-then-run task changes nothing.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not _deadline_passed(game):
            return False
        if ply is not None and game.ply != ply:
            return False
        _end_on_time(game)
        return True


def expired_game_ids(now: datetime | None = None, limit: int = 500) -> list[int]:
    """Ids of active games whose deadline has passed (for the beat sweep)."""
    now = now or timezone.now()
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )


# --------------------------------------------------------------------------- ending


def _other(side: str) -> str:
    return "O" if side == "X" else "X"


def _finish(game: Game, *, winner: str, termination: str, line=(), aborted: bool = False) -> dict:
    """Mark a locked game over and return its `game_over` event (the caller saves the row)."""
    game.status = Game.Status.ABORTED if aborted else Game.Status.FINISHED
    game.winner = winner
    game.termination = termination
    game.win_line = list(line or [])
    game.deadline = None
    game.finished_at = timezone.now()
    game.event_version += 1
    return {
        "type": "game_over",
        "version": game.event_version,
        "status": game.status,
        "winner": winner or None,
        "termination": termination,
        "line": list(game.win_line),
    }


def loser_of(game: Game) -> str | None:
    """The seat that lost a finished game, or None for a draw, an abort or a game in progress."""
    if game.status != Game.Status.FINISHED or not game.winner:
        return None
    return _other(game.winner)


def create_rematch(game_id: int, user, *, channel_group: str | None = None,
                   bot_level: str | None = None) -> Game | None:
    """Ask for the next game between the same two players; both must ask (offer, then accept).

    The first request records an offer (event `rematch_offer`) and returns None; the opponent's
    request starts the new game and returns it: the loser moves first (plays X), and after a draw
    or an abort the players swap colours. Repeats are idempotent (the same offer, the same new
    game). Against the computer, or on one device, the new game starts at once; `bot_level`
    then changes the computer's level. Raises `GameError` `not_a_player` or `not_over`.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seat_of(user)
        if seat is None:
            raise GameError("not_a_player")
        if not game.is_over:
            raise GameError("not_over")
        existing = game.rematches.order_by("pk").first()
        if existing is not None:
            return existing
        if game.bot_side or game.is_local:  # nobody else to ask
            return _next_game(game, channel_group, bot_level)
        if game.rematch_offer in ("", seat):
            if game.rematch_offer == "":
                game.rematch_offer = seat
                game.event_version += 1
                game.save(update_fields=["rematch_offer", "event_version"])
                _after_commit(game, [{"type": "rematch_offer", "version": game.event_version, "by": seat}])
            return None
        return _next_game(game, channel_group)


def _next_game(game: Game, channel_group: str | None, bot_level: str | None = None) -> Game:
    """The rematch of a finished `game`: the loser plays X; after a draw or abort colours swap."""
    seats = {"X": (game.x_player, game.bot_side == "X"), "O": (game.o_player, game.bot_side == "O")}
    if loser_of(game) != "X":
        seats = {"X": seats["O"], "O": seats["X"]}
    bot_side = next((side for side, (_user, bot) in seats.items() if bot), "")
    return create_game(
        kind=game.kind,
        rules=Rules.from_dict(game.rules) if game.kind == Game.Kind.CARO else None,
        x_player=seats["X"][0],
        o_player=seats["O"][0],
        move_time_ms=game.move_time_ms,
        channel_group=game.channel_group if channel_group is None else channel_group,
        rematch_of=game,
        bot_side=bot_side,
        bot_level=(bot_level or game.bot_level) if bot_side else "",
    )


# --------------------------------------------------------------------------- after commit


def _after_commit(game: Game, events_out: list[dict]) -> None:
    """Called inside the transaction right after the game row is saved.

    Announces an ended game (`signals.game_ended`, still inside the transaction); then, once the
    transaction commits, broadcasts the events and schedules the deadline task.
    """
    if any(event["type"] == "game_over" for event in events_out):
        signals.game_ended.send(sender=Game, game=game)
    game_id, ply, deadline, group = game.pk, game.ply, game.deadline, game.channel_group

    def run() -> None:
        if group:
            for event in events_out:
                events.broadcast(group, {**event, "game_id": game_id})
        if deadline is not None:
            from caro.games.tasks import schedule_deadline

            schedule_deadline(game_id, ply, deadline)
        if bots_turn:
            from caro.games.tasks import schedule_bot_move

            schedule_bot_move(game_id, version)

    bots_turn = bool(game.bot_side) and game.status == Game.Status.ACTIVE and game.turn == game.bot_side
    version = game.event_version
    transaction.on_commit(run)
