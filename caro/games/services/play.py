"""Playing: a move (by a person or the computer) and resigning."""

from __future__ import annotations

import asyncio
import operator
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime

import psycopg
from django.db import IntegrityError
from django.db.models.base import ModelState
from psycopg_pool import PoolTimeout
from django.utils import timezone

from caro.engine.errors import IllegalMove
from caro.games import clock, outbox, state
from caro.games.errors import GameError
from caro.games.finish import finish
from caro.games.kinds import Played, kind_of
from caro.games.models import Game, Move
from caro.games.services import lean, opening
from caro.games.services.locking import player_action, refuse_banned
from caro.games.snapshot import board_now, keep_position, move_event, position_stored

#: Engine reason codes mapped to the service's error codes (see docs/protocol.md).
ENGINE_CODES = {
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


def play_move(game_id: int, user, square: str, ply: int, client_id: uuid.UUID | str) -> MoveResult:
    """Play `square` for `user` as move number `ply` (1 = the first move of the game).

    Idempotent on `client_id`: a repeat of a stored move of the sender's own returns it with
    `duplicate=True` and changes nothing. Raises `GameError` with code `not_a_player`,
    `not_started`, `game_over`, `timeout` (the clock had run out; the game is now over, or the
    timer had already ended it with the sender's loss on time), `stale` (`ply` is not the next
    move, or `client_id` is the id of a stored move the sender did not play, e.g. the
    opponent's), `not_your_turn`, `occupied`, `out_of_board`, `bad_square` or `foul`. A refused
    move changes nothing (except that an expired clock is enforced first).
    """
    client_id = uuid.UUID(str(client_id))

    def repeated(game: Game) -> MoveResult | None:
        if ply > game.ply:  # a repeat always carries the ply of a move already stored
            return None
        existing = Move.objects.filter(game=game, client_id=client_id).first()
        if existing is None:
            return None
        seat = game.seat_of(user)
        if seat is None:
            raise GameError("not_a_player")
        # On one device every move is the sender's; otherwise an id of the other seat's move is
        # not a repeat: refused as the lean paths refuse a reused id (their INSERT fails).
        if not game.is_local and mover_seat(game, existing) != seat:
            raise GameError("stale")
        announce_version(game)
        return MoveResult(game=game, move=existing, duplicate=True)

    def move(game: Game, seat: str) -> MoveResult:
        if ply != game.ply + 1:
            raise GameError("stale")
        if state.opening_running(game):  # RIF / Swap2: the stone is an opening step
            placed, events = opening.place_or_select(game, seat, square, client_id)
            return MoveResult(game=game, move=placed, events=events)
        return apply_move(game, game.side_of(seat), square, client_id)

    if lean.usable():
        result = _lean_move(game_id, user, square, ply, client_id)
        if result is not None:
            return result
    return player_action(game_id, user, move, first=repeated)


#: A repeat announces a game's version at most once in this many seconds per process: a page
#: behind needs one announcement, and a client repeating a move in a loop (each within the
#: socket's rate) would otherwise send an event to every socket of the game per repeat.
ANNOUNCE_AGAIN_S = 2.0
#: Games whose version a repeat announced lately: game id -> (version, time.monotonic()).
_announced: dict[int, tuple[int, float]] = {}
ANNOUNCED_KEPT = 1024


def announce_version(game: Game) -> None:
    """After commit, tell the game's sockets its current event version (a `state_changed` event,
    `reason: "resent"`, that bumps nothing): a socket that has it drops it, one behind sends its
    page the full `state` (caro.rooms.consumers, `game_event`).

    For a repeated move: its original may have committed while the answer was lost with the
    connection (PostgreSQL killed mid-commit; the loop's `Dropped`, or a resend after a
    `server_error`), so the process that played it never published its events, and this repeat
    is the first to learn the move is stored. Costs one event per repeat; a page in step ignores
    it; the same version is announced again only after ANNOUNCE_AGAIN_S."""
    now = time.monotonic()
    last = _announced.get(game.pk)
    if last is not None and last[0] == game.event_version and now - last[1] < ANNOUNCE_AGAIN_S:
        return
    _announced[game.pk] = (game.event_version, now)
    if len(_announced) > ANNOUNCED_KEPT:
        _announced.clear()  # (threads share it: no iteration over a dict another may change)
    outbox.publish(game, [{"type": "state_changed", "version": game.event_version, "reason": "resent"}])


def mover_seat(game: Game, move: Move) -> str:
    """The seat that played the stored `move` of `game`: for a stone of an opening procedure (RIF,
    Swap2: a seat places stones of both colours, and colours may swap afterwards) the seat its
    step's entry in `game.opening["log"]` names, else the seat playing the move's side."""
    for entry in (game.opening or {}).get("log", []):
        if move.ply in entry.get("plies", ()):
            return entry["seat"]
    return game.seat_playing(move.side)


async def play_move_on_loop(game_id: int, user, square: str, ply: int,
                            client_id: uuid.UUID | str) -> MoveResult | None:
    """`play_move` on the event loop, without a thread: the lean path's one statement through the
    loop's own connections (`lean.LoopConnection`), then the broadcast handed to the loop.

    Takes the same moves as the lean path except those of a game with the computer (its move is
    asked for through the broker) and of a game whose position must be rebuilt from its moves;
    returns None for every other case, having changed nothing, and the caller then runs
    `play_move` in a thread. Raises `GameError` as `play_move` does for a move the engine refuses
    (`ENGINE_CODES`) or a move id used before in this game (`stale`), `banned` for a user under a
    ban, and `busy` when no connection of the loop's pool came free within
    `lean.LOOP_POOL_TIMEOUT_S` (an overloaded server: nothing was sent to PostgreSQL, so nothing
    changed; the move is not handed to a thread either, which would only add to the load); each
    changes nothing.

    Shielded from the caller's cancellation (a socket closing mid-move): a move that commits is
    always broadcast, as it is when a pool thread plays it."""
    if not isinstance(client_id, uuid.UUID):
        client_id = uuid.UUID(str(client_id))
    refuse_banned(user)
    try:
        return await asyncio.shield(_move_on_loop(game_id, user, square, ply, client_id))
    except PoolTimeout:
        raise GameError("busy") from None


#: Tries of the lean path for one move: on the cached game, on a fresh read, once more after a
#: connection PostgreSQL dropped.
LEAN_TRIES = 3
#: What a driver of `_lean_steps` sends back for a write whose connection broke (`lean.Dropped`).
RETRY = object()


def _lean_seat(game: Game, user, ply: int, on_loop: bool) -> str | None:
    """The seat of `user` when the lean path may play their move `ply` in `game` now: a seated
    player's next move in an active game whose clock has not run out, outside an opening
    procedure (and, on the loop, not against the computer and with the position stored); else
    None (the general path answers)."""
    seat = game.seat_of(user)
    if (seat is None or not state.is_active(game) or ply != game.ply + 1 or state.opening_running(game)
            or state.deadline_passed(game, timezone.now())):
        return None
    if on_loop and (game.bot_seat or not position_stored(game)):
        return None
    return seat


def _lean_steps(user, square: str, ply: int, client_id: uuid.UUID, found, on_loop: bool):
    """The lean path's decisions without their I/O, shared by the thread and the loop (a
    generator): it yields `("read",)` to be sent `lean.read`'s answer, and `("write", game, move,
    fields, ply_before, version)` to be sent `lean.write`'s (or RETRY after a broken connection),
    and returns the `MoveResult`, or None for the general path. `found` is the cached game (or
    None). A check that fails, or an engine refusal, on the cached game is decided again on a fresh
    read; on a fresh one it is final (None, or the `GameError`)."""
    for _try in range(LEAN_TRIES):
        fresh = found is None
        if fresh:
            found = yield ("read",)
            if found is None:
                return None
        game, version = found
        found = None  # a failure below reads the game again
        seat = _lean_seat(game, user, ply, on_loop)
        if seat is None:
            if fresh:
                return None
            continue
        try:
            step = advance(game, game.side_of(seat), square, client_id)
        except GameError:
            if fresh:
                raise
            continue  # refused on the cached game: decide on a fresh read
        if step.played.finished:  # the ending goes through `finish`, on the general path
            return None
        event = move_event(game, step.move, step.played, step.board, step.now)
        written = yield ("write", game, step.move, step.changed(), ply - 1, version)
        if written is RETRY or (written is None and not fresh):
            continue
        if written is None:  # the row changed between the fresh read and the write: the general path locks
            return None
        return MoveResult(game=game, move=step.move, events=[event])
    return None


async def _move_on_loop(game_id: int, user, square: str, ply: int, client_id: uuid.UUID) -> MoveResult | None:
    async with lean.LoopConnection() as db:
        steps = _lean_steps(user, square, ply, client_id, lean.cached(game_id), on_loop=True)
        answer = None
        try:
            while True:
                request = steps.send(answer)
                if request[0] == "read":
                    answer = await db.read(game_id)
                    continue
                try:
                    answer = await db.write(*request[1:])
                except psycopg.IntegrityError:  # an id reused with a newer ply: not a repeat we can answer
                    raise GameError("stale") from None
                except lean.Dropped:
                    answer = RETRY
        except StopIteration as done:
            result = done.value
    if result is not None:
        outbox.publish_committed(result.game, result.events)
    return result


def _lean_move(game_id: int, user, square: str, ply: int, client_id: uuid.UUID) -> MoveResult | None:
    """`play_move` in one statement (`services.lean`) for the common case: a seated player's
    next move (`ply` = the game's ply + 1) in an active game whose clock has not run out, outside
    an opening procedure, that does not end the game. Returns None for anything else, having
    changed nothing, so that the general path answers it: repeats, stale plies, errors of seat
    and status, an expired clock to enforce, an ending through `finish`. Raises `GameError` for a
    move the engine refuses (`ENGINE_CODES`) and `stale` for a move id used before in this game;
    both change nothing, like the general path."""
    refuse_banned(user)
    steps = _lean_steps(user, square, ply, client_id, lean.cached(game_id), on_loop=False)
    answer = None
    try:
        while True:
            request = steps.send(answer)
            if request[0] == "read":
                answer = lean.read(game_id)
                continue
            try:
                answer = lean.write(*request[1:])
            except IntegrityError:  # an id reused with a newer ply: not a repeat we can answer
                raise GameError("stale") from None
    except StopIteration as done:
        result = done.value
    if result is not None:
        outbox.publish(result.game, result.events)  # committed: sent now (no transaction of Django's is open)
    return result


#: The columns of a game a move that does not end it may change; the UPDATE writes those that did.
MOVE_FIELDS = ("ply", "to_move", "event_version", "draw_offer", "undo_request", "lapsed_seat",
               "turn_started_at", "deadline", "host_bank_ms", "guest_bank_ms", "position")


def apply_move(game: Game, side: str, square: str, client_id: uuid.UUID) -> MoveResult:
    """Play `square` for `side` in the locked, active `game`: store the move, charge the mover's
    clock, update the game (a pending draw offer to the mover and a take-back request lapse), end it
    through `finish` when the move ends it, and publish the events after commit.

    Plays on the position stored with the game (`snapshot.board_now`: no read of the moves) and
    stores the new one in the same UPDATE, which writes only the columns the move changed (a
    person's move takes the leaner path of `services.lean`, the same steps in one statement).

    Raises `GameError` with the engine's refusal mapped by `ENGINE_CODES` (nothing changes), or
    `stale` when `client_id` was already used for an earlier move (the INSERT fails; the caller's
    transaction rolls back, so nothing changes either)."""
    step = advance(game, side, square, client_id)
    move, played = step.move, step.played
    try:  # no savepoint: a failed INSERT is the last statement of a transaction that rolls back
        move.save(force_insert=True)
    except IntegrityError:  # an id reused with a newer ply: not a repeat we can answer
        raise GameError("stale") from None
    event = move_event(game, move, played, step.board, step.now)
    if played.finished:
        over = finish(game, winner=played.winner, termination=played.termination, line=played.line,
                      before=[event])
        return MoveResult(game=game, move=move, events=[event, over])
    game.save(update_fields=step.changed())
    outbox.publish(game, [event])
    return MoveResult(game=game, move=move, events=[event])


@dataclass
class Step:
    """A move applied in memory by `advance`: the unsaved `move`, the engine's answer, the board
    after it, the moment it was played and the game's MOVE_FIELDS before it."""

    game: Game
    move: Move
    played: Played
    board: object
    now: datetime
    before: dict

    def changed(self) -> list[str]:
        """The MOVE_FIELDS the move changed: the columns its UPDATE writes."""
        before = self.before
        return [name for name, value in zip(MOVE_FIELDS, _move_values(self.game)) if value != before[name]]


def advance(game: Game, side: str, square: str, client_id: uuid.UUID) -> Step:
    """Apply `square` for `side` to the locked, active `game` in memory, storing nothing: the
    engine validates it on the position stored with the game (`snapshot.board_now`), the mover's
    clock is charged, the ply, side to move, event version and position advance, a pending draw
    offer to the mover and a take-back request lapse, and the next turn's clock starts unless the
    move ends the game. Returns the `Step` with the unsaved move (its `think_ms` charged).

    Raises `GameError` with the engine's refusal mapped by `ENGINE_CODES`; then `game` is as it
    was (the engine refuses before anything changes)."""
    kind = kind_of(game)
    board = board_now(game)
    try:
        played = kind.play(board, square, side)
    except IllegalMove as exc:
        raise GameError(ENGINE_CODES.get(exc.reason, "illegal"), detail=exc.foul) from None
    before = dict(zip(MOVE_FIELDS, _move_values(game)))
    now = timezone.now()
    seat = game.seat_playing(side)
    move = new_move(game, ply=game.ply + 1, side=side, square=played.square, client_id=client_id,
                    think_ms=clock.charge(game, seat, now))
    game.ply += 1
    game.to_move = kind.turn(board)
    game.event_version += 1
    keep_position(game, board)
    if game.draw_offer != seat:  # an offer lapses when its receiver moves instead
        game.draw_offer = ""
    game.undo_request = ""  # a move answers a pending take-back request: it lapses
    if game.lapsed_seat == seat:  # back for good: a later absence gets its grace again
        game.lapsed_seat = ""
    if not played.finished:
        clock.start_turn(game, now)
    return Step(game=game, move=move, played=played, board=board, now=now, before=before)


#: `game -> (its MOVE_FIELDS' values)`, in one call.
_move_values = operator.attrgetter(*MOVE_FIELDS)


#: The attributes of a new, unsaved `Move` before its values are set (`new_move`).
_NEW_MOVE = {f.attname: None for f in Move._meta.concrete_fields}


def new_move(game: Game, **values) -> Move:
    """`Move(game=game, **values)` (unsaved) without `Model.__init__`, which sets every field
    through its descriptor one by one and cost more than the rest of a move's bookkeeping: the
    same attributes (`values` by attribute name; `created_at` is set by the INSERT's `pre_save`),
    `game` cached on it, `_state` of a new object. Move has no `pre_init`/`post_init` receivers."""
    move = Move.__new__(Move)
    move._state = ModelState()
    attributes = move.__dict__
    attributes.update(_NEW_MOVE)
    attributes.update(values)
    attributes["game_id"] = game.pk
    Move.game.field.set_cached_value(move, game)
    return move


def leave(game_id: int, user) -> None:
    """Leave the table in a game between two people: a loss (an abort before both have moved),
    recorded as "left" with who left. Raises `GameError` `not_a_player`, `not_started`,
    `game_over`, `timeout`, or `leave_refused` (a game against the computer or on one device)."""

    def leave_table(game: Game, seat: str) -> None:
        if not state.between_people(game):
            raise GameError("leave_refused")
        winner, termination = state.ending_on_leave(game, seat)
        finish(game, winner=winner, termination=termination, left=seat)

    player_action(game_id, user, leave_table)


def resign(game_id: int, user) -> None:
    """Resign for `user`. Before both sides have moved the game is aborted instead (not lost).

    Raises `GameError` `not_a_player`, `not_started`, `game_over`, or `timeout` (the clock had
    already run out: the game ended on time instead).
    """

    def resign_for(game: Game, seat: str) -> None:
        winner, termination = state.ending_on_resign(game, seat)
        finish(game, winner=winner, termination=termination)

    player_action(game_id, user, resign_for)
