"""Housekeeping for guest players."""

from datetime import timedelta

from celery import shared_task
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User

#: A guest who has not been seen for this long, and never played or created a room, is removed.
GUEST_IDLE_DAYS = 30


def idle_guests(now=None):
    """Guests unseen for GUEST_IDLE_DAYS that own no game seat and no room (safe to delete)."""
    cutoff = (now or timezone.now()) - timedelta(days=GUEST_IDLE_DAYS)
    from caro.games.models import Game
    from caro.rooms.models import Room

    seated = Game.objects.filter(Q(x_player=OuterRef("pk")) | Q(o_player=OuterRef("pk")))
    return (
        User.objects.filter(is_guest=True)
        .filter(Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff))
        .exclude(Exists(seated))
        .exclude(Exists(Room.objects.filter(created_by=OuterRef("pk"))))
    )


@shared_task(name="accounts.tasks.purge_idle_guests", ignore_result=True)
def purge_idle_guests() -> int:
    """Beat job (daily): delete idle guests that never played. Returns how many were deleted."""
    deleted, _ = idle_guests().delete()
    return deleted
