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
from django.db.models import Exists, OuterRef, Value
from django.db.models.functions import Concat
from django.utils import timezone

from caro.games.models import Game, Move
from caro.rooms.models import Room

log = logging.getLogger(__name__)

#: At most this many rooms are deleted per transaction (a run repeats until none are left).
PURGE_BATCH = 500
#: Prefix of Room.group_name, which every game of a room carries as Game.channel_group.
ROOM_GROUP_PREFIX = "room."


def abandoned_rooms(now=None):
    """Rooms created more than CARO_ROOM_ABANDONED_HOURS before `now` where no game has a move."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.CARO_ROOM_ABANDONED_HOURS)
    played = Move.objects.filter(game__channel_group=Concat(Value(ROOM_GROUP_PREFIX), OuterRef("code")))
    return Room.objects.filter(created_at__lt=cutoff).exclude(Exists(played))


def _purge_batch(now) -> tuple[int, int]:
    """Delete one batch; returns (rooms looked at, rooms deleted)."""
    with transaction.atomic():
        candidates = list(abandoned_rooms(now).select_for_update(skip_locked=True).order_by("pk")[:PURGE_BATCH])
        if not candidates:
            return 0, 0
        # Lock their games: a move needs its game's row lock, so none can arrive from here on;
        # then keep only the rooms that are still without a move.
        groups = [room.group_name for room in candidates]
        list(Game.objects.select_for_update().filter(channel_group__in=groups).values_list("pk", flat=True))
        rooms = list(abandoned_rooms(now).filter(pk__in=[room.pk for room in candidates]))
        groups = [room.group_name for room in rooms]
        Room.objects.filter(pk__in=[room.pk for room in rooms]).delete()
        Game.objects.filter(channel_group__in=groups).delete()
        return len(candidates), len(rooms)


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
