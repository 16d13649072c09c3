"""Celery tasks of ranking (scheduled by beat in `caro.settings.CELERY_BEAT_SCHEDULE`): the pairing
beat (ranking.pairing: the fallback pass, the arrival checks, the computer offers, the waiting
counts), and the hourly unlisting of inactive players."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.cache import cache

from ranking import pages, pairing
from ranking.models import Rating

log = logging.getLogger(__name__)

#: Cache key of the live waiting counts, written by the beat every second; every web process reads
#: it and sends it to its own seek sockets (ranking.consumers), not through the channel layer.
COUNTS_KEY = "ranking:waiting-counts"
#: How long the counts stay in the cache without a beat, s.
COUNTS_TTL_S = 60


@shared_task(name="ranking.tasks.pairing_beat", ignore_result=True)
def pairing_beat() -> int:
    """Beat job (every second): a pairing pass over every choice (for the ranked windows widened by
    waiting, and any pair an arrival missed), the arrival checks due (`pairing.ARRIVAL_GRACE_S`
    after a pairing), the computer offers due, the seeks left behind, and the live waiting counts (into the cache,
    `COUNTS_KEY`). Returns the number of games made."""
    made = pairing.run_pass()
    for pairing_id in pairing.due_arrivals():
        pairing.check_arrival(pairing_id)
    pairing.offer_computer()
    pairing.purge_orphans()
    cache.set(COUNTS_KEY, pairing.waiting_counts(), COUNTS_TTL_S)
    if made:
        log.info("pairing beat made %d game(s)", len(made))
    return len(made)


@shared_task(name="ranking.tasks.unlist_inactive", ignore_result=True)
def unlist_inactive() -> int:
    """Take players off a leaderboard whose last rated game there is older than
    `pages.ACTIVE_DAYS` days (their rating stays; the next rated game lists them again).
    Beat job (hourly). Returns how many ratings left a leaderboard. Idempotent: a late or repeated run is harmless."""
    return Rating.objects.filter(listed=True, last_played_at__lt=pages.inactive_since()).update(listed=False)
