"""A socket's close on the event loop (`presence.disconnect_on_loop`): one round trip in the common
case, the same outcomes as `presence.disconnect` (tests/integration/test_lifecycle.py), including
two sockets of one player closing at the same moment."""

from __future__ import annotations

import asyncio

import pytest

from caro.games.models import Connection, Game
from caro.games.services import lean, presence
from tests.integration.test_lifecycle import alternate, by_side, friend_game

pytestmark = pytest.mark.django_db(transaction=True)


def _close(*channels: str) -> None:
    """Close `channels` at once on one event loop, as the web process's sockets close."""

    async def run() -> None:
        try:
            await asyncio.gather(*(presence.disconnect_on_loop(channel) for channel in channels))
        finally:
            await lean.close_loop_pool()

    asyncio.run(run())


def test_the_last_socket_closing_on_the_loop_starts_the_absence_and_not_before():
    game, host, guest = friend_game()
    players = by_side(game)
    alternate(game, ["H8", "H9", "I8"])
    presence.connect(game.pk, "o-1", players["O"])
    presence.connect(game.pk, "o-2", players["O"])
    presence.connect(game.pk, "x-1", players["X"])
    _close("o-1")
    game.refresh_from_db()
    assert game.absent_seat == ""  # O's other socket is still open
    assert not Connection.objects.filter(channel="o-1").exists()
    version = game.event_version
    _close("o-2")
    game.refresh_from_db()
    assert game.absent_seat == game.seat_playing("O") and game.absence_deadline is not None
    assert game.event_version == version + 1  # the presence event went out
    _close("x-1")  # the second player leaving while the first is away changes nothing more
    game.refresh_from_db()
    assert game.absent_seat == game.seat_playing("O") and game.event_version == version + 1
    assert not Connection.objects.filter(game=game).exists()
    _close("never-registered")  # nothing to do, no error


def test_two_sockets_of_a_player_closing_at_once_start_the_absence_exactly_once():
    """Each close decides on the game's other sockets as they are once it holds the row lock; without
    the lock each would see the other socket still open and nobody would start the absence."""
    for _ in range(3):
        game, host, guest = friend_game()
        players = by_side(game)
        alternate(game, ["H8", "H9", "I8"])
        presence.connect(game.pk, f"{game.pk}-o-1", players["O"])
        presence.connect(game.pk, f"{game.pk}-o-2", players["O"])
        presence.connect(game.pk, f"{game.pk}-x", players["X"])
        version = Game.objects.get(pk=game.pk).event_version
        _close(f"{game.pk}-o-1", f"{game.pk}-o-2")
        game.refresh_from_db()
        assert game.absent_seat == game.seat_playing("O")
        assert game.event_version == version + 1 and game.absence_deadline is not None


def test_a_spectator_closing_on_the_loop_is_forgotten_without_touching_the_game():
    game, host, guest = friend_game()
    alternate(game, ["H8", "H9"])
    watcher = friend_game()[1]
    presence.connect(game.pk, "watch-1", watcher)
    version = Game.objects.get(pk=game.pk).event_version
    _close("watch-1")
    game.refresh_from_db()
    assert not Connection.objects.filter(channel="watch-1").exists()
    assert game.absent_seat == "" and game.event_version == version
