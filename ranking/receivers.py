"""What ranking does when games announces an ending or an annulment (`caro.games.signals`).

Connected in `RankingConfig.ready`; games never imports ranking (docs/architecture.md).
"""

from __future__ import annotations

from django.dispatch import receiver

from caro.games import signals
from caro.games.models import Game
from ranking import services


@receiver(signals.game_ended, sender=Game, dispatch_uid="ranking.rate_ended_game")
def rate_ended_game(sender, game: Game, **kwargs) -> None:
    """Rate a rated game that just finished, in the ending transaction (`services.rate_game`)."""
    services.rate_game(game)


@receiver(signals.game_annulled, sender=Game, dispatch_uid="ranking.revert_annulled_game")
def revert_annulled_game(sender, game: Game, **kwargs) -> None:
    """Undo an annulled game's rating changes, in the annulment's transaction (`services.revert_game`)."""
    services.revert_game(game)


@receiver(signals.game_over_fields, sender=Game, dispatch_uid="ranking.rating_fields")
def rating_fields(sender, game: Game, **kwargs) -> dict:
    """`{"ratings": ...}` for the `game_over` event and the `state` frame (docs/protocol.md);
    nothing (no query) for an unrated game."""
    if not game.rated:
        return {}
    return {"ratings": services.game_over_ratings(game)}


@receiver(signals.game_state_fields, sender=Game, dispatch_uid="ranking.stake_fields")
def stake_fields(sender, game: Game, **kwargs) -> dict:
    """`{"stakes": ...}` for the `state` frame of a rated game in play (`services.game_stakes`,
    docs/protocol.md); nothing (no query) for an unrated game."""
    if not game.rated:
        return {}
    stakes = services.game_stakes(game)
    return {"stakes": stakes} if stakes else {}
