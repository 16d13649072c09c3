"""Creating a game and taking its open seat."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from caro.engine.caro import Rules
from caro.games import clock, outbox, state
from caro.games.errors import GameError
from caro.games.kinds import KINDS
from caro.games.models import Game, Seat, Side
from caro.games.services.locking import lock
from caro.games.snapshot import player_info


def create_game(
    *,
    kind: str = "caro",
    rules: Rules | dict | None = None,
    host=None,
    guest=None,
    host_side: str = Side.X,
    bot_seat: str = "",
    bot_level: str = "",
    move_time_ms: int = 60_000,
    rematch_of: Game | None = None,
) -> Game:
    """Create a game; with both seats filled it starts at once (the first mover's clock runs).

    Who plays which side is decided before the game exists: `host_side` is the side ("X" moves
    first) of the `host` seat, the guest plays the other. `bot_seat` ("host"/"guest") and
    `bot_level` ("easy"/"medium"/"hard") seat the computer; its moves are played by the Celery
    worker. The same user in both seats makes a local game (two players on one device).
    `kind` is "caro" (with `rules`, a `Rules` or its dict; default the site's rules) or "reversi".
    `move_time_ms` is the per-move clock (0 = no clock).
    Raises ValueError for an unknown kind, an inconsistent computer seat or a bad side.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown game kind {kind!r}")
    if isinstance(rules, Rules):
        rules = rules.to_dict()
    rules_dict = (rules or Rules().to_dict()) if kind == "caro" else {}
    if host_side not in Side.values:
        raise ValueError(f"bad side {host_side!r}")
    if bool(bot_seat) != bool(bot_level) or bot_seat not in ("", *Seat.values) or (
        bot_level and bot_level not in Game.BotLevel.values
    ):
        raise ValueError(f"bad computer seat: seat={bot_seat!r} level={bot_level!r}")
    if {Seat.HOST: host, Seat.GUEST: guest}.get(bot_seat) is not None:
        raise ValueError("the computer's seat already has a player")
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind, rules=rules_dict, host=host, guest=guest, host_side=host_side,
            bot_seat=bot_seat, bot_level=bot_level, move_time_ms=move_time_ms, rematch_of=rematch_of,
        )
        if state.both_seats_filled(game):
            _start(game)
            game.save()
            outbox.publish(game, [])
    return game


def take_seat(game_id: int, user) -> str:
    """Seat `user` in the open seat of a waiting game; return the seat ("host" or "guest").

    A user already seated gets their seat back (idempotent). Raises `GameError`:
    `game_over` (finished or aborted), `seat_taken` (both seats are filled by others).
    """
    with transaction.atomic():
        game = lock(game_id)
        seat = game.seat_of(user)
        if seat is not None:
            return seat
        if game.is_over:
            raise GameError("game_over")
        seat = state.open_seat(game)
        if seat is None:
            raise GameError("seat_taken")
        setattr(game, seat, user)
        if state.both_seats_filled(game):
            _start(game)
        game.event_version += 1
        game.save()
        event = {"type": "seated", "seat": game.side_of(seat), "player": player_info(user),
                 "version": game.event_version}
        outbox.publish(game, [event])
    return seat


def _start(game: Game) -> None:
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    game.deadline = clock.deadline_after(game.started_at, game.move_time_ms)
