"""Celery tasks of ranking (scheduled by beat in `caro.settings.CELERY_BEAT_SCHEDULE`)."""

from __future__ import annotations

from celery import shared_task

from ranking import pages
from ranking.models import Rating


@shared_task(name="ranking.tasks.unlist_inactive", ignore_result=True)
def unlist_inactive() -> int:
    """Take players off a leaderboard whose last rated game there is older than
    `pages.ACTIVE_DAYS` days (their rating stays; the next rated game lists them again).
    Beat job (hourly). Returns how many ratings left a leaderboard. Idempotent: a late or repeated run is harmless."""
    return Rating.objects.filter(listed=True, last_played_at__lt=pages.inactive_since()).update(listed=False)
