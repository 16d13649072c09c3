"""Celery tasks that enforce move clocks, absences and the sweeps (docs/architecture.md, "Where
time and endings live"). The computer plays in the player's browser (issue 26): no task here thinks.

Deadlines live in PostgreSQL; these tasks only ask the service to enforce them, under the row lock,
so running one late, twice, or after the player already moved changes nothing. The service layer
sends them by name (`caro.games.outbox`) and never imports this module.
"""

import logging
import os
import tempfile
from pathlib import Path

from celery import shared_task, signals
from django.conf import settings

from caro.games import outbox, services, timer
from caro.games.models import Game
from caro.games.outbox import ABSENCE_TASK, CROWD_TASK, DEADLINE_TASK
from caro.games.services import presence
from caro.games.snapshot import spectators

log = logging.getLogger(__name__)

# Scheduling helpers live in the outbox; re-exported for callers that think in tasks.
schedule_deadline = outbox.schedule_deadline


@shared_task(name=DEADLINE_TASK, ignore_result=True)
def enforce_move_deadline(game_id: int, ply: int) -> bool:
    """End game `game_id` on time if it is still at `ply` (moves played) and its deadline passed."""
    return services.enforce_deadline(game_id, ply)


def _timer_lock_path(pid: int) -> Path:
    return Path(tempfile.gettempdir()) / f"caro-deadline-timer-{pid}.lock"


@signals.worker_init.connect
def share_deadline_timer(**_kwargs) -> None:
    """In a worker's main process, before its pool forks: the worker's processes run ONE deadline
    timer between them (`timer.share_per_worker`, a lock file named after this process)."""
    timer.share_per_worker(_timer_lock_path(os.getpid()))


@signals.worker_shutdown.connect
def remove_deadline_timer_lock(**_kwargs) -> None:
    """The worker's main process removes its timer lock file when it stops."""
    _timer_lock_path(os.getpid()).unlink(missing_ok=True)


@signals.worker_process_init.connect
def start_deadline_timer(**_kwargs) -> None:
    """Each worker process (a prefork child, or the solo pool's process) broadcasts through one
    event loop of its own and starts the deadline timer (`caro.games.timer`), which runs in one
    process of the worker at a time (the others stand by).

    Worker processes open plain database connections, not pooled ones: Celery's Django fixup
    closes the whole psycopg pool before and after every task in a prefork child, which would
    pull the timer's connection away under it (and made the pool useless there anyway). Tasks
    connect per task as Celery intends; the timer keeps one connection of its own.
    """
    settings.DATABASES["default"].get("OPTIONS", {}).pop("pool", None)
    outbox.use_own_loop()
    timer.start()


@signals.worker_process_shutdown.connect
def stop_deadline_timer(**_kwargs) -> None:
    timer.stop()


@shared_task(name="caro.games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Beat job (every second): enforce every expired move deadline the timers have not (a worker
    whose timer thread died, games skipped while locked), in batches. Returns the count."""
    ended = timer.drain(services.time.enforce_due_deadlines, None, services.time.DUE_BATCH)
    if ended:
        log.info("sweep ended %d game(s) on time", ended)
    return ended


@shared_task(name=ABSENCE_TASK, ignore_result=True)
def enforce_absence_deadline(game_id: int) -> bool:
    """Apply the absence rule of game `game_id` if its absent player's grace period has passed."""
    return presence.enforce_absence(game_id)


@shared_task(name="caro.games.tasks.sweep_presence", ignore_result=True)
def sweep_presence() -> int:
    """Beat job (every 5 s): drop sockets of dead processes, apply absence rules whose task was lost."""
    return presence.sweep()


@shared_task(name=CROWD_TASK, ignore_result=True)
def broadcast_crowd(game_id: int) -> int:
    """Send game `game_id`'s spectator count to its sockets (throttled by `outbox.crowd_changed`)."""
    game = Game.objects.filter(pk=game_id).only("pk").first()
    if game is None:
        return 0
    count = spectators(game)
    outbox.broadcast(game.group_name, {"type": "crowd", "count": count, "game_id": game_id})
    return count


@shared_task(name="caro.games.tasks.abandon_idle_games", ignore_result=True)
def abandon_idle_games() -> int:
    """Beat job (every 10 min): end games without a clock that nobody has touched for hours, and
    the server's games against the computer of before issue 26 still on (nobody plays its moves now)."""
    return services.time.abandon_idle()
