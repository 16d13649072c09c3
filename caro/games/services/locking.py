"""The row lock every change of a game takes, and the checks every player action shares."""

from __future__ import annotations

from typing import Callable, TypeVar

from django.db import transaction
from django.utils import timezone

from accounts.restrictions import ban_of
from caro.games import state
from caro.games.errors import GameError
from caro.games.finish import finish
from caro.games.models import Game

T = TypeVar("T")


def lock(game_id: int) -> Game:
    """The game row, locked until the end of the caller's transaction. Raises Game.DoesNotExist."""
    return Game.objects.select_for_update().get(pk=game_id)


def refuse_banned(user) -> None:
    """Raise GameError `banned` when a ban is in force on `user` (accounts.restrictions)."""
    if ban_of(user, timezone.now()) is not None:
        raise GameError("banned")


def end_on_time(game: Game) -> dict:
    """End a locked game whose clock ran out (`state.ending_on_time`); returns the game_over event."""
    winner, termination = state.ending_on_time(game)
    return finish(game, winner=winner, termination=termination)


def player_action(game_id: int, user, action: Callable[[Game, str], T],
                  first: Callable[[Game], T | None] | None = None) -> T:
    """Run `action(game, seat)` for a seated player of an active game, under the row lock.

    `first(game)`, when given, runs before the checks and may answer instead (idempotent repeats).
    Raises `GameError` `banned` (a ban in force on `user`), `not_a_player`, `not_started`,
    `game_over`, or `timeout`: an expired clock is enforced instead of the action, and the error is
    raised after that result has committed; a game the timer had already ended on time answers
    `timeout` too (not `game_over`), so the players hear the same whichever came first.
    """
    refuse_banned(user)
    with transaction.atomic():
        game = lock(game_id)
        answer = first(game) if first is not None else None
        if answer is not None:
            return answer
        seat = game.seat_of(user)
        if seat is None:
            raise GameError("not_a_player")
        if game.status == Game.Status.WAITING:
            raise GameError("not_started")
        if game.is_over:
            raise GameError("timeout" if game.termination == Game.Termination.TIMEOUT else "game_over")
        if not state.deadline_passed(game, timezone.now()):
            return action(game, seat)
        end_on_time(game)
    raise GameError("timeout")
