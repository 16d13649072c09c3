"""Enforcing the move clock: the worker's deadline timer, the deadline tasks and the beat sweep
call these."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from caro.games import state
from caro.games.finish import finish, finish_many
from caro.games.models import Game
from caro.games.services.locking import end_on_time

log = logging.getLogger(__name__)

#: The most expired games one sweep looks at (the next sweep takes the rest).
SWEEP_LIMIT = 500
#: The most games one transaction of `enforce_due_deadlines` ends. Small enough that several
#: timers (one per worker process) share a burst of deadlines and each batch's game-over events go
#: out early; large enough that a burst costs few commits.
DUE_BATCH = 50
#: The most games one statement of `advance_wakeups` moves on (the next call takes the rest).
WAKE_BATCH = 500
#: A game without a clock (against the computer, on one device, or a friend room with no clock) in
#: which nobody has played for this long is ended as abandoned (h): nobody is coming back to it.
ABANDON_AFTER_H = 6


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


def enforce_due_deadlines(now=None, limit: int = DUE_BATCH) -> list[int]:
    """End on time, in ONE transaction, up to `limit` active games whose deadline passed by `now`
    (default: the current time), oldest deadline first; return their ids.

    Rows another transaction holds are skipped (`SELECT ... FOR UPDATE SKIP LOCKED`): a player's
    move in progress or another timer's batch takes them, and a skipped game that is still due is
    found by the next call. The batch ends through `finish_many` (one UPDATE); if that fails
    (say a `game_ended` receiver raises), the batch is rolled back and each game is enforced on
    its own (`enforce_deadline`), so one failing game never holds up the others. Idempotent like
    `enforce_deadline`.
    """
    now = now or timezone.now()
    try:
        with transaction.atomic():
            due = list(Game.objects.expired(now).select_for_update(skip_locked=True)[:limit])
            finish_many([(game, *state.ending_on_time(game)) for game in due])
            return [game.pk for game in due]
    except Exception:
        log.exception("a batch of deadlines failed; enforcing its games one by one")
    ended = []
    for game_id in expired_game_ids(now, limit):
        try:
            if enforce_deadline(game_id):
                ended.append(game_id)
        except Exception:
            log.exception("could not end game %s on time", game_id)
    return ended


def advance_wakeups(now=None, limit: int = WAKE_BATCH) -> int:
    """Move `wake_at` up to the deadline for up to `limit` active games whose `wake_at` passed by
    `now` but whose deadline has not (or that have none): moves made since the timer last looked
    pushed their deadline later without touching `wake_at` (so that their UPDATE stayed HOT), and
    the timer's next look at them is now their deadline. Returns how many it moved.

    One statement, rows another transaction holds skipped (`FOR UPDATE SKIP LOCKED`: a move or a
    batch of endings in progress; the next round takes them). A deadline that came earlier
    meanwhile is safe: the row's trigger keeps `wake_at` never after the deadline, whoever writes."""
    now = now or timezone.now()
    with transaction.atomic():
        ids = Game.objects.to_wake(now).select_for_update(skip_locked=True).values("pk")[:limit]
        return Game.objects.filter(pk__in=ids).update(wake_at=F("deadline"))


def expired_game_ids(now=None, limit: int = SWEEP_LIMIT) -> list[int]:
    """Ids of active games whose deadline has passed, oldest first (for the beat sweep)."""
    return list(Game.objects.expired(now).values_list("pk", flat=True)[:limit])


def abandon_idle(now=None, limit: int = SWEEP_LIMIT) -> int:
    """End as abandoned every active game without a clock whose last move (or start) is older than
    ABANDON_AFTER_H hours, and at once every active game against the computer (one the server
    started before issue 26: nobody plays the computer's moves on the server any more); such a
    game never counts as live again. Returns how many it ended."""
    cutoff = (now or timezone.now()) - timedelta(hours=ABANDON_AFTER_H)
    idle = (
        Game.objects.active().filter(deadline__isnull=True)
        .annotate(last_move_at=Max("moves__created_at"))
        .filter(Q(last_move_at__lt=cutoff) | Q(last_move_at__isnull=True, started_at__lt=cutoff) | ~Q(bot_seat=""))
        .values_list("pk", flat=True)[:limit]
    )
    ended = 0
    for game_id in list(idle):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if state.is_active(game) and game.deadline is None:
                finish(game, winner="", termination=Game.Termination.ABANDONED)
                ended += 1
    return ended
