"""Celery tasks of ranking (scheduled by beat in `caro.settings.CELERY_BEAT_SCHEDULE`): the pairing
beat (ranking.pairing: the fallback pass, the arrival checks, the computer offers, the waiting
counts), and the hourly unlisting of inactive players."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.cache import cache

from caro.games import outbox
from ranking import pages, pairing
from ranking.models import Rating

log = logging.getLogger(__name__)

#: Cache key of the last waiting counts broadcast (so an unchanged count is not sent again).
COUNTS_KEY = "ranking:waiting-counts"
#: The counts go to every seek socket at most once per this many seconds (each broadcast is one
#: message per open seek socket).
COUNTS_PERIOD_S = 5
COUNTS_SENT_KEY = "ranking:waiting-counts-sent"


@shared_task(name="ranking.tasks.pairing_beat", ignore_result=True)
def pairing_beat() -> int:
    """Beat job (every second): a pairing pass over every choice (for the ranked windows widened by
    waiting, and any pair an arrival missed), the arrival checks due (`pairing.ARRIVAL_GRACE_S`
    after a pairing), the computer offers due, the seeks left behind, and the live waiting counts (sent to
    every seek socket when they changed, at most every COUNTS_PERIOD_S). Returns the number of games made."""
    made = pairing.run_pass()
    for pairing_id in pairing.due_arrivals():
        pairing.check_arrival(pairing_id)
    pairing.offer_computer()
    pairing.purge_orphans()
    counts = pairing.waiting_counts()
    if cache.get(COUNTS_KEY) != counts and cache.add(COUNTS_SENT_KEY, 1, COUNTS_PERIOD_S):
        cache.set(COUNTS_KEY, counts, 60)
        outbox.broadcast(pairing.LOBBY_GROUP, {"type": "waiting", "counts": counts})
    if made:
        log.info("pairing beat made %d game(s)", len(made))
    return len(made)


@shared_task(name="ranking.tasks.unlist_inactive", ignore_result=True)
def unlist_inactive() -> int:
    """Take players off a leaderboard whose last rated game there is older than
    `pages.ACTIVE_DAYS` days (their rating stays; the next rated game lists them again).
    Beat job (hourly). Returns how many ratings left a leaderboard. Idempotent: a late or repeated run is harmless."""
    return Rating.objects.filter(listed=True, last_played_at__lt=pages.inactive_since()).update(listed=False)
