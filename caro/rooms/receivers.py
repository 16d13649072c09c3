"""What the rooms app does when games announces something (`caro.games.signals`).

Connected in `RoomsConfig.ready`; games never imports rooms (docs/architecture.md).
"""

from __future__ import annotations

from django.dispatch import receiver

from caro.games import signals
from caro.games.models import Game
from caro.rooms.models import Room
from caro.rooms.services import lobby_changed


@receiver(signals.waiting_presence, sender=Game, dispatch_uid="rooms.lobby_host_presence")
def lobby_host_presence(sender, game_id: int, **kwargs) -> None:
    """A seated player's socket came or went in a waiting game: when that game's room waits in the
    lobby (which lists a room only while its host is there), its sockets are told at once. One
    indexed query; nothing is sent for rooms not in the lobby."""
    if Room.objects.filter(current_game_id=game_id, lobby_since__isnull=False).exists():
        lobby_changed()
