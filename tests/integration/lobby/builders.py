"""Rooms in the lobby and live games, made through the real services."""

from __future__ import annotations

import uuid

from django.utils import timezone

from accounts.guests import create_guest
from caro.games import services as games
from caro.games.models import Connection, Seat
from caro.rooms import services as rooms


def host_here(room, user=None) -> None:
    """The host has the room page open (a socket of the host's seat, seen now)."""
    Connection.objects.create(channel=f"test.{uuid.uuid4().hex}", game_id=room.current_game_id, seat=Seat.HOST,
                              user=user or room.created_by, seen_at=timezone.now())


def lobby_room(host=None, present=True, **options):
    """A friend room listed in the lobby, its host present unless `present` is False."""
    host = host or create_guest()
    room = rooms.create_room(host, listed=True, **options)
    if present:
        host_here(room, host)
    return room


def live_room(host=None, guest=None, *, watchable=True, preset="caro-vn"):
    """A friend room whose game between two people is in play (both seated through `join`)."""
    host, guest = host or create_guest(), guest or create_guest()
    room = rooms.create_room(host, preset, watchable=watchable)
    rooms.join(room, guest)
    room.refresh_from_db()
    return room


def play(room, squares):
    """Play `squares` in the room's current game, alternately by whoever is to move."""
    game = room.current_game
    for square in squares:
        game.refresh_from_db()
        user = game.player_in(game.seat_playing(game.turn))
        games.play_move(game.pk, user, square, game.ply + 1, uuid.uuid4())
    game.refresh_from_db()
    return game
