"""What the games app does when the accounts app announces something (`accounts.signals`).

Connected in `GamesConfig.ready`; accounts never imports games.
"""

from __future__ import annotations

from django.dispatch import receiver

from accounts import signals
from caro.games.services.seating import player_renamed


@receiver(signals.renamed, dispatch_uid="games.player_renamed")
def renamed(sender, user, **kwargs) -> None:
    """A guest renamed themselves: each game they sit in that is not over shows the new name."""
    player_renamed(user)
