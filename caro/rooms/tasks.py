"""Housekeeping for rooms: abandoned rooms are deleted (Celery beat, settings.CELERY_BEAT_SCHEDULE).

A room is abandoned when it is older than settings.CARO_ROOM_ABANDONED_HOURS and nobody ever made
a move in any of its games (a flood of "create room" requests, or a friend who never came). Deleting
the room and its games leaves its creator and anyone who took a seat without playing owning
nothing, so the guest purge (accounts.tasks) can then remove those guests too.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from caro.games.models import Game, Move
from caro.rooms.models import Room

log = logging.getLogger(__name__)

#: At most this many rooms are deleted per transaction (a run repeats until none are left).
PURGE_BATCH = 500
#: A room's games are its current game and the games it was a rematch of; a longer chain than this
#: is never abandoned (nobody plays that many games without a move).
MAX_CHAIN = 50


def abandoned_rooms(now=None):
    """Rooms created more than CARO_ROOM_ABANDONED_HOURS before `now` whose current game has no move
    (the candidates; `_games_if_unplayed` checks the earlier games of each)."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.CARO_ROOM_ABANDONED_HOURS)
    played = Move.objects.filter(game=OuterRef("current_game"))
    return Room.objects.filter(created_at__lt=cutoff).exclude(Exists(played))


def _games_if_unplayed(room: Room) -> list[int] | None:
    """The ids of every game of `room` (locked), or None when any of them has a move."""
    ids, game_id = [], room.current_game_id
    while game_id is not None and len(ids) < MAX_CHAIN:
        ids.append(game_id)
        game_id = Game.objects.filter(pk=game_id).values_list("rematch_of_id", flat=True).first()
    if game_id is not None:
        return None
    # Lock the games: a move needs its game's row lock, so none can arrive from here on.
    list(Game.objects.select_for_update().filter(pk__in=ids).values_list("pk", flat=True))
    return None if Move.objects.filter(game_id__in=ids).exists() else ids


def _purge_batch(now) -> tuple[int, int]:
    """Delete one batch; returns (rooms looked at, rooms deleted)."""
    with transaction.atomic():
        candidates = list(abandoned_rooms(now).select_for_update(skip_locked=True).order_by("pk")[:PURGE_BATCH])
        doomed_rooms, doomed_games = [], []
        for room in candidates:
            games = _games_if_unplayed(room)
            if games is not None:
                doomed_rooms.append(room.pk)
                doomed_games.extend(games)
        Room.objects.filter(pk__in=doomed_rooms).delete()
        Game.objects.filter(pk__in=doomed_games).delete()
        return len(candidates), len(doomed_rooms)


@shared_task(name="caro.rooms.tasks.purge_abandoned_rooms", ignore_result=True)
def purge_abandoned_rooms() -> int:
    """Beat job (hourly): delete abandoned rooms and their games; returns how many rooms went."""
    now = timezone.now()
    deleted = 0
    while True:
        checked, gone = _purge_batch(now)
        deleted += gone
        if checked < PURGE_BATCH:
            break
    if deleted:
        log.info("purged %d abandoned rooms", deleted)
    return deleted
