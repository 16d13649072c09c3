"""Celery tasks that enforce move clocks (design.md, "Time, absence and the worker").

Deadlines live in PostgreSQL; these tasks only ask the service to enforce them, under the row lock,
so running one late, twice, or after the player already moved changes nothing.
"""

import logging
from datetime import datetime

from celery import shared_task
from django.conf import settings

from caro.games import services

log = logging.getLogger(__name__)


@shared_task(name="caro.games.tasks.enforce_move_deadline", ignore_result=True)
def enforce_move_deadline(game_id: int, ply: int) -> bool:
    """End game `game_id` on time if it is still at `ply` (moves played) and its deadline passed."""
    return services.enforce_deadline(game_id, ply)


@shared_task(name="caro.games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Beat job (every 5 s): enforce every expired deadline a lost task missed. Returns the count."""
    ended = 0
    for game_id in services.expired_game_ids():
        if services.enforce_deadline(game_id):
            ended += 1
    if ended:
        log.info("sweep ended %d game(s) on time", ended)
    return ended


def schedule_deadline(game_id: int, ply: int, deadline: datetime) -> None:
    """Queue `enforce_move_deadline(game_id, ply)` to run at `deadline` (an aware datetime).

    A broker failure is logged, not raised: the beat sweep enforces the deadline anyway.
    """
    try:
        enforce_move_deadline.apply_async((game_id, ply), eta=deadline)
    except Exception:  # pragma: no cover - broker down; the sweep is the safety net
        log.exception("could not schedule the deadline of game %s ply %s", game_id, ply)


@shared_task(name="caro.games.tasks.play_bot_move", ignore_result=True)
def play_bot_move(game_id: int, version: int) -> str | None:
    """The computer's move in game `game_id`, if the game is still at `version` (see
    `services.bot_turn`). Runs on the `bots` queue of the Celery worker, never in the web process.
    Returns the square played, or None when the request was stale."""
    from caro.bots import choose_move

    request = services.bot_turn(game_id, version)
    if request is None:
        return None
    board, level = request
    square = choose_move(board, level, budget_ms=settings.CARO_BOT_BUDGET_MS)
    result = services.apply_bot_move(game_id, version, square)
    return square if result is not None else None


def schedule_bot_move(game_id: int, version: int) -> None:
    """Queue the computer's move (after the transaction that made it the computer's turn)."""
    try:
        play_bot_move.apply_async((game_id, version))
    except Exception:  # pragma: no cover - broker down; the bot sweep retries
        log.exception("could not schedule the computer's move in game %s", game_id)


@shared_task(name="caro.games.tasks.sweep_bot_turns", ignore_result=True)
def sweep_bot_turns() -> int:
    """Beat job: re-queue the computer's move in games where it has been waiting too long
    (a lost task or a restarted worker). Idempotent: a stale request does nothing."""
    queued = 0
    for game_id, version in services.stalled_bot_turns():
        schedule_bot_move(game_id, version)
        queued += 1
    return queued
