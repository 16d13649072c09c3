"""After-commit side effects of a game change: broadcast its events, schedule its deadline, ask the
computer for its move. Nothing leaves the process before the transaction commits, so nobody ever
sees a state that was rolled back.

Tasks are sent by name (`caro.games.tasks` registers them), so the service layer never imports the
task module: services <- tasks, never the other way round.
"""

from __future__ import annotations

import functools
import logging
from datetime import datetime

import redis
from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from caro.games import state
from caro.games.models import Game

log = logging.getLogger(__name__)

#: Celery task names (defined in `caro.games.tasks`).
DEADLINE_TASK = "caro.games.tasks.enforce_move_deadline"
ABSENCE_TASK = "caro.games.tasks.enforce_absence_deadline"
BOT_MOVE_TASK = "caro.games.tasks.play_bot_move"
CROWD_TASK = "caro.games.tasks.broadcast_crowd"
#: The spectator count of a game is broadcast at most once per this many ms (a trailing update).
CROWD_UPDATE_MS = 1000


def publish(game: Game, events: list[dict]) -> None:
    """Queue, for after the current transaction commits: `events` to the game's group, the deadline
    task of the game's current ply, and the computer's move when it is the computer's turn.

    Call inside the transaction, right after the game row was saved. `events` are dicts with
    `type` and `version`; each is sent with the game's id added.
    """
    game_id, ply, deadline, group = game.pk, game.ply, game.deadline, game.group_name
    version = game.event_version
    bots_turn = state.bot_to_move(game)
    clock_runs = deadline is not None and state.is_active(game)
    absence_deadline = game.absence_deadline if state.is_active(game) else None

    def run() -> None:
        for event in events:
            broadcast(group, {**event, "game_id": game_id})
        if clock_runs:
            schedule_deadline(game_id, ply, deadline)
        if absence_deadline is not None:
            _send(ABSENCE_TASK, (game_id,), eta=absence_deadline)
        if bots_turn:
            schedule_bot_move(game_id, version)

    transaction.on_commit(run)


def broadcast(group: str, event: dict) -> None:
    """Send one event to every consumer in the Channels group `group`.

    Consumers receive it as the Channels message `{"type": "game.event", "event": event}`. A failing
    channel layer is logged, never raised: the state is already committed and clients resync.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "game.event", "event": event})
    except Exception:  # pragma: no cover - Redis down; clients recover with `sync`
        log.exception("broadcast to %s failed", group)


def crowd_changed(game_id: int) -> None:
    """A spectator came or went: broadcast the new count within CROWD_UPDATE_MS, at most once per
    that period whatever the number of changes (a Redis key marks an update already on its way,
    across every web process)."""
    try:
        if _redis().set(f"caro:crowd:{game_id}", 1, nx=True, px=CROWD_UPDATE_MS):
            current_app.send_task(CROWD_TASK, args=(game_id,), countdown=CROWD_UPDATE_MS / 1000 * 1.05)
    except Exception:  # pragma: no cover - Redis down: the count is also in every state frame
        log.exception("could not queue the spectator count of game %s", game_id)


def _send(name: str, args: tuple, **options) -> None:
    try:
        current_app.send_task(name, args=args, **options)
    except Exception:  # pragma: no cover - broker down; the beat sweeps are the safety net
        log.exception("could not send %s%r", name, args)


@functools.cache
def _redis():
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)


def schedule_deadline(game_id: int, ply: int, deadline: datetime) -> None:
    """Queue the deadline task of (`game_id`, `ply`) to run at `deadline` (an aware datetime).

    A broker failure is logged, not raised: the beat sweep enforces the deadline anyway.
    """
    _send(DEADLINE_TASK, (game_id, ply), eta=deadline)


def schedule_bot_move(game_id: int, version: int) -> None:
    """Queue the computer's move in `game_id`, asked for at event version `version`."""
    _send(BOT_MOVE_TASK, (game_id, version))
