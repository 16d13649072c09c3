"""Friend rooms: create, find by code, join, and play again. Game changes go through games.services."""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from caro.games import outbox
from caro.games import services as games
from caro.games.errors import GameError
from caro.games.kinds import kind_for_choice
from caro.games.openings import procedure_of
from caro.games.models import AbsenceRule, FirstMover, Game, Takeback
from caro.games.services import moderation as game_moderation
from caro.games.services.locking import refuse_banned
from caro.games.services.seating import create_games
from caro.rooms import signals
from caro.rooms.models import CODE_ALPHABET, CODE_LENGTH, LOBBY_GROUP, Room

def new_code() -> str:
    """A random room code: 6 characters of CODE_ALPHABET (23^6 ≈ 148 million codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str | None:
    """Turn what a person typed ("k7m 4qp", "K7M-4QP") into a code, or None if it cannot be one."""
    cleaned = re.sub(r"[\s\-_.]", "", text or "").upper()
    if len(cleaned) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in cleaned):
        return None
    return cleaned


def create_room(user, preset: str = "caro-vn", *, size: int | None = None, win_length: int | None = None,
                move_time_ms: int | None = None, bank_ms: int = 0, increment_ms: int = 0,
                first: str = FirstMover.HOST, takeback: bool = False, listed: bool = False,
                accounts_only: bool = False, watchable: bool = False) -> Room:
    """Create a friend room and its first game, with `user` in the host seat, and return it.

    The game waits for a second player. The host's options, kept for every game of the room: the
    clock (`move_time_ms` per move, default settings.CARO_FRIEND_MOVE_TIME_MS; or a total of
    `bank_ms` per player plus `increment_ms` per move), who moves first in game 1 (`first`:
    "host", "guest" or "rps"; Reversi colours are random in game 1), and taking back by agreement
    (`takeback`). When a player does not come back, the opponent chooses. `listed`: the room waits
    in the public lobby for anyone to take the free seat ("Chờ người vào từ sảnh"); `accounts_only`:
    only players with an account may take it; `watchable`: its games are listed on the watch page.
    Games against the computer and on one device are played in the page (issue 26): the server
    makes no room for them (rooms of those kinds stored before stay readable).
    `preset` is a rule choice of `caro.games.kinds.RULE_CHOICES` (KeyError if unknown); for caro,
    `size` / `win_length` override it (ValueError when the result is not a valid rule set).
    Raises GameError `banned` when a ban is in force on `user`.
    """
    refuse_banned(user)
    game_kind = kind_for_choice(preset)
    rules = game_kind.rules_for(preset, size, win_length)
    if move_time_ms is None:
        move_time_ms = settings.CARO_FRIEND_MOVE_TIME_MS
    first = first if game_kind.first_mover == FirstMover.HOST else game_kind.first_mover
    seats = {"host": user, "first_mover": first, "bank_ms": bank_ms, "increment_ms": increment_ms,
             "takeback": Takeback.AGREEMENT if takeback else Takeback.NONE,
             "absence_rule": AbsenceRule.OPPONENT_CHOOSES}
    kind = Room.Kind.FRIEND
    options = {"listed": listed, "accounts_only": accounts_only, "watchable": watchable,
               "lobby_since": timezone.now() if listed else None}
    for _attempt in range(20):
        code = new_code()
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=code, created_by=user, preset=preset, move_time_ms=move_time_ms, bank_ms=bank_ms,
                    increment_ms=increment_ms, first_mover=seats.get("first_mover", FirstMover.HOST),
                    takeback=takeback, kind=kind, **options,
                )
                room.current_game = games.create_game(
                    kind=game_kind.name, rules=rules, move_time_ms=move_time_ms,
                    opening=procedure_of(preset), **seats
                )
                room.save(update_fields=["current_game"])
                if room.lobby_since is not None:
                    transaction.on_commit(lobby_changed)
                return room
        except IntegrityError:  # pragma: no cover - a code collision: try another; anything else is a bug
            if not Room.objects.filter(code=code).exists():
                raise
            continue
    raise RuntimeError("could not allocate a room code")


def lobby_changed() -> None:
    """Tell the lobby's sockets that the list of open rooms changed (after commit; never raises)."""
    outbox.broadcast(LOBBY_GROUP, {"type": "lobby"})


def create_match_room(host, guest, *, kind: str, rules: dict, first_mover: str, move_time_ms: int,
                      preset: str = "caro-vn", rated: bool = False) -> Room:
    """A room whose first game seats `host` and `guest` at once and starts (a pairing's game).

    The game has the matchmaking context: the absent player forfeits and nobody takes back moves;
    `first_mover` is "host", "guest" or "random"; the clock is `move_time_ms` per move; `rated`
    marks a ranked pairing's game. Later games in the room are rematches, as in a friend room. Call
    inside the pairing's transaction; the room and game commit or roll back with it. Raises
    ValueError for a bad option (games.create_game). `create_match_rooms` makes many at once.
    Quick and ranked games are shown on the watch page (`Room.watchable`).
    """
    return create_match_rooms([{"host": host, "guest": guest, "kind": kind, "rules": rules, "rated": rated,
                                "first_mover": first_mover, "move_time_ms": move_time_ms, "preset": preset}])[0]


def create_match_rooms(specs: list[dict]) -> list[Room]:
    """`create_match_room` for many pairs at once, in the caller's transaction: each dict holds its
    keyword arguments plus `host` and `guest` (users, or their ids as `host_id` / `guest_id`).
    Returns the rooms in the same order, each with `current_game` set. Three statements whatever
    the count: one INSERT of the games, then the rooms' INSERT in a savepoint (a code collision,
    about one in 148 million per room, draws new codes for all and tries again); then
    `signals.games_started` for them all (the watch list's receiver adds two).
    Raises ValueError for a bad option (nothing is written then).
    """
    made = create_games([
        {"kind": spec["kind"], "rules": spec["rules"], "first_mover": spec["first_mover"],
         "move_time_ms": spec["move_time_ms"], "absence_rule": AbsenceRule.FORFEIT, "takeback": Takeback.NONE,
         "rated": bool(spec.get("rated")),
         **({"host": spec["host"], "guest": spec["guest"]} if "host" in spec
            else {"host_id": spec["host_id"], "guest_id": spec["guest_id"]})}
        for spec in specs])
    for _attempt in range(20):
        rooms = [Room(code=new_code(), created_by_id=game.host_id, preset=spec.get("preset", "caro-vn"),
                      move_time_ms=spec["move_time_ms"], first_mover=spec["first_mover"], kind=Room.Kind.FRIEND,
                      current_game=game, watchable=True)
                 for spec, game in zip(specs, made)]
        codes = [room.code for room in rooms]
        try:
            with transaction.atomic():
                rooms = Room.objects.bulk_create(rooms)
            signals.games_started.send(sender=Room, rooms=rooms)
            return rooms
        except IntegrityError:  # pragma: no cover - a code collision: new codes; anything else is a bug
            if len(set(codes)) == len(codes) and not Room.objects.filter(code__in=codes).exists():
                raise
            continue
    raise RuntimeError("could not allocate room codes")


def join(room: Room, user) -> str:
    """Seat `user` in the room's current game if a seat is open; return the seat or raise GameError.

    Two people taking the one free seat at once: the game's row lock lets one in, the other gets
    `seat_taken`. A room that waited in the lobby leaves it when the game starts, and the lobby's
    sockets are told after commit. Raises GameError `accounts_only` for a visitor without an
    account (a guest, or nobody) in a room whose host asked for accounts only, `room_closed`, and
    the errors of `games.take_seat` (`seat_taken`, `game_over`, `banned`)."""
    if room.closed_at is not None:
        raise GameError("room_closed")
    game = room.current_game
    if room.accounts_only and game.seat_of(user) is None and (
            not getattr(user, "is_authenticated", False) or user.is_guest):
        raise GameError("accounts_only")
    with transaction.atomic():
        seat = games.take_seat(room.current_game_id, user)
        status = Game.objects.filter(pk=room.current_game_id).values_list("status", flat=True).first()
        if status != Game.Status.WAITING and room.lobby_since is not None:
            Room.objects.filter(pk=room.pk).update(lobby_since=None)
            room.lobby_since = None
            transaction.on_commit(lobby_changed)
        if status == Game.Status.ACTIVE:
            room.current_game = Game.objects.get(pk=room.current_game_id)
            signals.games_started.send(sender=Room, rooms=[room])
    return seat


def play_again(room_code: str, user, game_id: int | None = None) -> Game | None:
    """Ask for the next game in the room; it starts when both players have asked.

    Returns the new game (the loser of the last game moves first), or None while the request is
    an offer waiting for the opponent. `game_id`, when given, is the game the request is
    about: if the room has already moved on (any other integer), a player of the current game is
    answered with the current game and changes nothing; anyone else gets `not_a_player`.
    Raises GameError `not_a_player` / `not_over`, `room_closed` (a moderator closed the room),
    `on_device` (a computer or one-device room of before issue 26: those games are played in the
    page now). Two players pressing at once get one new game.
    """
    with transaction.atomic():
        room = Room.objects.select_for_update().get(code=room_code)
        if room.closed_at is not None:
            raise GameError("room_closed")
        if game_id is not None and room.current_game_id != game_id:
            # That game already has its successor (a double click, two tabs), or never was this
            # room's: only a player of the current game is answered with it.
            if room.current_game.seat_of(user) is None:
                raise GameError("not_a_player")
            return room.current_game
        game = games.create_rematch(room.current_game_id, user)
        if game is not None and room.current_game_id != game.pk:
            room.current_game = game
            room.save(update_fields=["current_game"])
            transaction.on_commit(lambda: _announce_new_game(room.group_name, game.pk))
            if game.status == Game.Status.ACTIVE:
                signals.games_started.send(sender=Room, rooms=[room])
        return game


def close(room_code: str, reason: str = "") -> Room:
    """Close a room at a moderator's word (the caller checks the permission and writes the audit
    log): its live game is stopped through the one ending path (`termination: moderator`), then
    every socket in the room gets `room_closed` and is disconnected; nobody may use it again.
    Closing a closed room changes nothing. Raises Room.DoesNotExist."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(code=room_code)
        if room.closed_at is not None:
            return room
        if room.current_game_id is not None:
            try:
                game_moderation.stop(room.current_game_id)
            except GameError:  # already over: nothing to stop
                pass
        room.closed_at = timezone.now()
        room.closed_reason = reason[:300]
        listed = room.lobby_since is not None
        room.lobby_since = None
        room.save(update_fields=["closed_at", "closed_reason", "lobby_since"])
        group = room.group_name
        transaction.on_commit(lambda: outbox.broadcast(group, {"type": "room_closed"}))
        if listed:
            transaction.on_commit(lobby_changed)
        return room


def _announce_new_game(group: str, game_id: int) -> None:
    """Tell the room's sockets to follow the room's new game (they subscribe to its group)."""
    outbox.broadcast(group, {"type": "new_game", "game_id": game_id, "version": 0})


__all__ = ["GameError", "close", "create_match_room", "create_match_rooms", "create_room", "join", "lobby_changed",
           "normalize_code", "play_again"]
