"""Housekeeping for guest players.

This app is the base layer: it reaches games and rooms only through the reverse relations those
apps declare on the user (`games_as_host`, `games_as_guest`, `rooms_created`), never by importing them.
"""

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from accounts.models import User

#: A guest who has not been seen for this long, and never played or created a room, is removed.
GUEST_IDLE_DAYS = 30


def idle_guests(now=None):
    """Guests unseen for GUEST_IDLE_DAYS that hold no game seat and own no room (safe to delete)."""
    cutoff = (now or timezone.now()) - timedelta(days=GUEST_IDLE_DAYS)
    return (
        User.objects.filter(is_guest=True)
        .filter(Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff))
        .filter(games_as_host__isnull=True, games_as_guest__isnull=True, rooms_created__isnull=True)
    )


@shared_task(name="accounts.tasks.purge_idle_guests", ignore_result=True)
def purge_idle_guests() -> int:
    """Beat job (daily): delete idle guests that never played. Returns how many were deleted."""
    deleted, _ = idle_guests().delete()
    return deleted
