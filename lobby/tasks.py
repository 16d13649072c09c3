"""Celery tasks of the lobby app (scheduled by beat in `caro.settings.CELERY_BEAT_SCHEDULE`)."""

from __future__ import annotations

from celery import shared_task

from lobby import counts


@shared_task(name="lobby.tasks.recount", ignore_result=True)
def recount() -> int:
    """Beat job (every `counts.COUNTS_FRESH_S`): count who is here into the cache; returns how many
    are online."""
    return counts.recount()["online"]
