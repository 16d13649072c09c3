"""Offers between the two players: the rematch (both ask, then the next game starts)."""

from __future__ import annotations

from django.db import transaction

from caro.games import outbox, state
from caro.games.errors import GameError
from caro.games.models import Game, Seat, Side
from caro.games.services.locking import lock
from caro.games.services.seating import create_game


def create_rematch(game_id: int, user, *, bot_level: str | None = None) -> Game | None:
    """Ask for the next game between the same two players; both must ask (offer, then accept).

    The first request records an offer (event `rematch_offer`) and returns None; the opponent's
    request starts the new game and returns it, with the first mover of `state.first_seat_of_next`
    (the loser; after a draw or an abort, the other seat than last time). Each person keeps their
    seat. Repeats are idempotent (the same offer, the same new game). Against the computer, or on
    one device, the new game starts at once; `bot_level` then changes the computer's level.
    Raises `GameError` `not_a_player` or `not_over`.
    """
    with transaction.atomic():
        game = lock(game_id)
        seat = game.seat_of(user)
        if seat is None:
            raise GameError("not_a_player")
        if not game.is_over:
            raise GameError("not_over")
        existing = game.rematches.order_by("pk").first()
        if existing is not None:
            return existing
        if game.bot_seat or game.is_local:  # nobody else to ask
            return _next_game(game, bot_level)
        if game.rematch_offer in ("", seat):
            if game.rematch_offer == "":
                game.rematch_offer = seat
                game.event_version += 1
                game.save(update_fields=["rematch_offer", "event_version"])
                outbox.publish(game, [{"type": "rematch_offer", "version": game.event_version,
                                       "by": game.side_of(seat)}])
            return None
        return _next_game(game)


def _next_game(game: Game, bot_level: str | None = None) -> Game:
    """The rematch of a finished `game`: the same seats, the first mover from the lifecycle rule."""
    first = state.first_seat_of_next(game)
    return create_game(
        kind=game.kind,
        rules=game.rules,
        host=game.host,
        guest=game.guest,
        host_side=Side.X if first == Seat.HOST else Side.O,
        bot_seat=game.bot_seat,
        bot_level=(bot_level or game.bot_level) if game.bot_seat else "",
        move_time_ms=game.move_time_ms,
        rematch_of=game,
    )
