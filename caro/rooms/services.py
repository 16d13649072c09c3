"""Friend rooms: create, find by code, join, and play again. Game changes go through games.services."""

from __future__ import annotations

import dataclasses
import re
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction

from caro.engine.caro import PRESETS
from caro.games import services as games
from caro.games.errors import GameError
from caro.games.models import Game
from caro.rooms.models import CODE_ALPHABET, CODE_LENGTH, Room

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
                move_time_ms: int | None = None, kind: str = Room.Kind.FRIEND, bot_level: str = "",
                side: str = "X") -> Room:
    """Create a room and its first game, and return it.

    - friend (default): `user` sits at X and the game waits for a second player; the per-move clock
      is `move_time_ms` (default settings.CARO_FRIEND_MOVE_TIME_MS, 1 minute).
    - computer: `user` plays `side` ("X" or "O") against the computer at `bot_level`; no clock.
    - local: `user` plays both sides on one device; no clock.
    `preset` is a key of `caro.engine.caro.PRESETS` or "reversi" (KeyError if unknown); for caro,
    `size` / `win_length` override it (ValueError when the result is not a valid rule set).
    """
    if preset == "reversi":
        game_kind, rules = "reversi", None
    else:
        game_kind, rules = "caro", PRESETS[preset].rules
        rules = dataclasses.replace(rules, size=size or rules.size, win_length=win_length or rules.win_length)
    seats: dict = {"x_player": user}
    if kind == Room.Kind.FRIEND:
        move_time_ms = settings.CARO_FRIEND_MOVE_TIME_MS if move_time_ms is None else move_time_ms
    else:
        move_time_ms = 0 if move_time_ms is None else move_time_ms
    if kind == Room.Kind.COMPUTER:
        bot_side = "O" if side == "X" else "X"
        seats = {"x_player": user if side == "X" else None, "o_player": user if side == "O" else None,
                 "bot_side": bot_side, "bot_level": bot_level}
    elif kind == Room.Kind.LOCAL:
        seats = {"x_player": user, "o_player": user}
    for _attempt in range(20):
        code = new_code()
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=code, created_by=user, preset=preset, move_time_ms=move_time_ms, kind=kind
                )
                room.current_game = games.create_game(
                    kind=game_kind, rules=rules, move_time_ms=move_time_ms, channel_group=room.group_name, **seats
                )
                room.save(update_fields=["current_game"])
                return room
        except IntegrityError:  # pragma: no cover - code collision; try another
            continue
    raise RuntimeError("could not allocate a room code")


def join(room: Room, user) -> str:
    """Seat `user` in the room's current game if a seat is open; return "X", "O" or raise GameError."""
    return games.take_seat(room.current_game_id, user)


def play_again(room_code: str, user, bot_level: str | None = None, game_id: int | None = None) -> Game | None:
    """Ask for the next game in the room; between two people it starts when both have asked.

    Returns the new game (the loser of the last game moves first), or None while the request is
    an offer waiting for the opponent. Against the computer it starts at once, at `bot_level` if
    given (the level can change between games). `game_id`, when given, is the game the request is
    about: if the room has already moved on (any other integer), a player of the current game is
    answered with the current game and changes nothing; anyone else gets `not_a_player`.
    Raises GameError `not_a_player` / `not_over`.
    Two players pressing at once get one new game.
    """
    with transaction.atomic():
        room = Room.objects.select_for_update().get(code=room_code)
        if game_id is not None and room.current_game_id != game_id:
            # That game already has its successor (a double click, two tabs), or never was this
            # room's: only a player of the current game is answered with it.
            if room.current_game.seat_of(user) is None:
                raise GameError("not_a_player")
            return room.current_game
        game = games.create_rematch(room.current_game_id, user, channel_group=room.group_name,
                                    bot_level=bot_level)
        if game is not None and room.current_game_id != game.pk:
            room.current_game = game
            room.save(update_fields=["current_game"])
            transaction.on_commit(lambda: _announce_new_game(room.group_name, game.pk))
        return game


def _announce_new_game(group: str, game_id: int) -> None:
    from caro.games import events

    events.broadcast(group, {"type": "new_game", "game_id": game_id, "version": 0})


def seat_label(room: Room, user) -> str | None:
    """"X", "O" or None (spectator) for `user` in the room's current game."""
    game = room.current_game
    return game.seat_of(user) if game else None


__all__ = ["GameError", "create_room", "join", "normalize_code", "play_again", "seat_label"]
