"""What a moderator may do to a game (issue 11), called by `moderation.services` only.

Both take the game's row lock like every other change. Permissions and the audit log are the
caller's job; these only keep the game's own rules.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from caro.games import signals, state
from caro.games.errors import GameError
from caro.games.finish import finish
from caro.games.models import Game
from caro.games.services.locking import lock


def annul(game_id: int, *, by, reason: str) -> Game:
    """Mark a finished rated game annulled (it stays stored) and send `signals.game_annulled` in the
    same transaction, so its own rating changes are reverted with it (the ranking app's receiver).

    `by` is the moderator (a User), `reason` their words (at most 300 characters). Raises
    Game.DoesNotExist, or GameError `not_annullable` for a game that is not finished, not rated,
    or already annulled (then nothing changes).
    """
    with transaction.atomic():
        game = lock(game_id)
        if not state.annullable(game):
            raise GameError("not_annullable")
        game.annulled = True
        game.annulled_at = timezone.now()
        game.annulled_by = by
        game.annul_reason = reason[:300]
        game.save(update_fields=["annulled", "annulled_at", "annulled_by", "annul_reason"])
        signals.game_annulled.send(sender=Game, game=game)
        return game


def stop(game_id: int) -> dict:
    """End a live game (waiting or in progress) at a moderator's word: aborted, nobody wins,
    termination `moderator`, through the one ending path (`finish`), so both players' sockets get
    `game_over`. Returns that event. Raises Game.DoesNotExist, or GameError `game_over` when the game
    is already over (nothing changes).
    """
    with transaction.atomic():
        game = lock(game_id)
        if game.is_over:
            raise GameError("game_over")
        return finish(game, winner="", termination=Game.Termination.MODERATOR)
