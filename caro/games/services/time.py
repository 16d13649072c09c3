"""Enforcing the move clock: the deadline tasks and the beat sweep call these."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from caro.games import state
from caro.games.models import Game
from caro.games.services.locking import end_on_time

#: The most expired games one sweep looks at (the next sweep takes the rest).
SWEEP_LIMIT = 500


def enforce_deadline(game_id: int, ply: int | None = None) -> bool:
    """End the game on time if, under the row lock, it is still at `ply` and its deadline passed.

    `ply=None` skips the ply check (the sweep). Returns True when this call ended the game.
    Idempotent: a late, repeated or revoked-then-run task changes nothing.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not state.deadline_passed(game, timezone.now()):
            return False
        if ply is not None and game.ply != ply:
            return False
        end_on_time(game)
        return True


def expired_game_ids(now=None, limit: int = SWEEP_LIMIT) -> list[int]:
    """Ids of active games whose deadline has passed, oldest first (for the beat sweep)."""
    return list(Game.objects.expired(now).values_list("pk", flat=True)[:limit])
