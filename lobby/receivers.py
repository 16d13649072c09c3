"""The live games list follows games as they start and end (and the watch pages are told, after
commit: `live.watch_changed`); finished games link to their record.

Connected in `LobbyConfig.ready`. Both list receivers run inside the transaction that starts or
ends the game, so the list commits or rolls back with it.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from caro.games import signals as game_signals
from caro.games.models import Game
from caro.records.links import LANGUAGES, record_url
from caro.rooms import signals as room_signals
from caro.rooms.models import Room
from lobby import live


@receiver(room_signals.games_started, sender=Room, dispatch_uid="lobby.list_started_games")
def list_started_games(sender, rooms: list[Room], **kwargs) -> None:
    """Add the rooms' started games between people to the live list (`live.add_games`: one query
    for the players' ratings, one INSERT); the watch pages are told after commit."""
    live.add_games(rooms)
    transaction.on_commit(live.watch_changed)


@receiver(game_signals.game_ended, sender=Game, dispatch_uid="lobby.unlist_ended_game")
def unlist_ended_game(sender, game: Game, **kwargs) -> None:
    """Take the game off the live list (one DELETE; none for a game against the computer or on one
    device, which were never listed)."""
    if game.bot_seat or game.host_id is None or game.host_id == game.guest_id:
        return
    live.remove_game(game.pk)
    transaction.on_commit(live.watch_changed)


@receiver(game_signals.game_over_fields, sender=Game, dispatch_uid="lobby.record_link")
def record_link(sender, game: Game, **kwargs) -> dict:
    """`{"record_url": {"vi": "/van/<id>/", "en": "/en/game/<id>/"}}` in a finished game's
    `game_over` event and `state` frame, so the room links to the record (replay, export,
    report) in the page's language. No query."""
    return {"record_url": {language: record_url(game.pk, language) for language in LANGUAGES}}
