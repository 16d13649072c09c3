"""Creating a game, taking its open seat, and deciding who moves first when it starts."""

from __future__ import annotations

import secrets

from django.db import models, transaction
from django.utils import timezone

from caro.engine.caro import Rules
from caro.games import clock, outbox, state
from caro.games.errors import GameError
from caro.games.kinds import KINDS
from caro.games.models import AbsenceRule, FirstMover, Game, Seat, Side, Takeback
from caro.games.openings import new_opening
from caro.games.services import opening as opening_service
from caro.games.services.locking import lock, refuse_banned
from caro.games.snapshot import player_info, with_choices

#: Rock-paper-scissors: what each throw beats.
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
#: Ties are thrown again; after this many tied rounds (never seen in practice) chance decides.
MAX_THROWS = 20


def build_game(
    *,
    kind: str = "caro",
    rules: Rules | dict | None = None,
    host=None,
    guest=None,
    first_mover: str = FirstMover.HOST,
    host_mark: str | None = None,
    move_time_ms: int = 60_000,
    bank_ms: int = 0,
    increment_ms: int = 0,
    absence_rule: str = AbsenceRule.OPPONENT_CHOOSES,
    takeback: str = Takeback.NONE,
    rematch_of: Game | None = None,
    opening: str = "",
    **extra,
) -> Game:
    """`create_game`'s game, unsaved: validated, and started when both seats are filled (no query).
    Same arguments and errors as `create_game`; `extra` sets other Game fields (e.g. `rated`, or the
    seats as `host_id` / `guest_id` instead of users). `create_games` inserts many at once."""
    if kind not in KINDS:
        raise ValueError(f"unknown game kind {kind!r}")
    if isinstance(rules, Rules):
        rules = rules.to_dict()
    rules_dict = KINDS[kind].stored_rules(rules)
    if first_mover not in FirstMover.values or (host_mark or Side.X) not in Side.values:
        raise ValueError(f"bad first mover {first_mover!r} or mark {host_mark!r}")
    if absence_rule not in AbsenceRule.values or takeback not in Takeback.values:
        raise ValueError(f"bad context: absence={absence_rule!r} takeback={takeback!r}")
    host_side = Side.O if first_mover == FirstMover.GUEST else Side.X
    procedure = new_opening(opening) if kind == "caro" else {}
    seats = {name: user for name, user in (("host", host), ("guest", guest)) if user is not None}
    game = Game(
        kind=kind, rules=rules_dict, **seats, first_mover=first_mover,
        host_side=host_side, host_mark=host_mark or host_side,
        move_time_ms=move_time_ms if not bank_ms else 0, bank_ms=bank_ms,
        increment_ms=increment_ms, absence_rule=absence_rule, takeback=takeback,
        rematch_of=rematch_of, opening=procedure, **extra,
    )
    if state.both_seats_filled(game):
        _start(game, decide_mark=host_mark is None)
    return game


def create_game(
    *,
    kind: str = "caro",
    rules: Rules | dict | None = None,
    host=None,
    guest=None,
    first_mover: str = FirstMover.HOST,
    host_mark: str | None = None,
    move_time_ms: int = 60_000,
    bank_ms: int = 0,
    increment_ms: int = 0,
    absence_rule: str = AbsenceRule.OPPONENT_CHOOSES,
    takeback: str = Takeback.NONE,
    rematch_of: Game | None = None,
    opening: str = "",
) -> Game:
    """Create a game; with both seats filled it starts at once (the first mover's clock runs).

    Who plays which side is decided before play: `first_mover` is the seat that moves first
    ("host"/"guest"), or "rps" (rock-paper-scissors thrown by the site when the game starts) or
    "random". The first mover plays X; in caro `host_mark` is the mark the host draws (default:
    X for the first mover; a room keeps each person's mark across games). The computer plays in
    the player's browser (issue 26), never here: games against it are stored when they end
    (`services.records.store_played`). `kind` is "caro" (with `rules`, a `Rules` or its
    dict; default the site's rules) or "reversi". Clock: `move_time_ms` per move (0 = none), or a
    total-time bank of `bank_ms` per player plus `increment_ms` per move. `absence_rule` and
    `takeback` are the game's context (what a vanished player risks; taking back by agreement).
    `opening` is caro's opening procedure: "" (free), "rif" or "swap2" (the first mover is then
    tentative Black; caro.games.services.opening).
    Raises ValueError for an unknown kind or a bad option.
    """
    game = build_game(
        kind=kind, rules=rules, host=host, guest=guest, first_mover=first_mover, host_mark=host_mark,
        move_time_ms=move_time_ms, bank_ms=bank_ms,
        increment_ms=increment_ms, absence_rule=absence_rule, takeback=takeback, rematch_of=rematch_of,
        opening=opening,
    )
    game.save(force_insert=True)  # one INSERT (no savepoint), already started when both seats are filled
    if game.status == Game.Status.ACTIVE:
        outbox.publish(game, [])
    return game


def create_games(specs: list[dict]) -> list[Game]:
    """Create many games at once (a pairing batch): each dict of `specs` holds `create_game`'s
    keyword arguments (and may add other Game fields, e.g. `rated=True`). One INSERT for all, in
    the caller's transaction; each started game is published as `create_game` does. Raises
    ValueError as `create_game` (before anything is written)."""
    games = [build_game(**spec) for spec in specs]
    if not games:
        return []
    Game.objects.bulk_create(games)
    for game in games:
        if game.status == Game.Status.ACTIVE:
            outbox.publish(game, [])
    return games


def take_seat(game_id: int, user) -> str:
    """Seat `user` in the open seat of a waiting game; return the seat ("host" or "guest").

    A user already seated gets their seat back (idempotent). When the game starts, the first mover
    is decided (rock-paper-scissors throws are stored and shown). Raises `GameError`:
    `game_over` (finished or aborted), `seat_taken` (both seats are filled by others), `banned`
    (a ban in force on `user`: they may not take a free seat).
    """
    with transaction.atomic():
        game = lock(game_id)
        seat = game.seat_of(user)
        if seat is not None:
            return seat
        refuse_banned(user)
        if game.is_over:
            raise GameError("game_over")
        seat = state.open_seat(game)
        if seat is None:
            raise GameError("seat_taken")
        setattr(game, seat, user)
        if state.both_seats_filled(game):
            _start(game, decide_mark=game.rematch_of_id is None)
        game.event_version += 1
        game.save()
        event = {"type": "seated", "seat": game.side_of(seat), "player": player_info(user),
                 "version": game.event_version}
        outbox.publish(game, [with_choices(game, event)])
    return seat


def _start(game: Game, *, decide_mark: bool) -> None:
    """Both seats are filled: decide who moves first (X), start the clocks."""
    if game.first_mover in (FirstMover.RPS, FirstMover.RANDOM):
        first = _throw(game) if game.first_mover == FirstMover.RPS else secrets.choice(Seat.values)
        game.host_side = Side.X if first == Seat.HOST else Side.O
        if decide_mark:  # a room's first game: whoever moves first holds X for the whole room
            game.host_mark = game.host_side
    opening_service.begin(game)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    clock.start(game, game.started_at)


def _throw(game: Game) -> str:
    """Throw rock-paper-scissors for both seats until one wins; store every round; return the winner."""
    game.throws = []
    for _round in range(MAX_THROWS):
        host, guest = secrets.choice(list(BEATS)), secrets.choice(list(BEATS))
        game.throws.append([host, guest])
        if host != guest:
            return Seat.HOST if BEATS[host] == guest else Seat.GUEST
    return secrets.choice(Seat.values)


def player_renamed(user) -> None:
    """`user`'s shown name changed: each game where they hold a seat and that is not over (waiting
    or active) announces `state_changed` (`reason: "players"`, the version bumped), which every
    socket of the room answers with a fresh `state`, its `players` read anew (docs/protocol.md).
    One locked transaction per game; a game that ended meanwhile is left alone."""
    seated = Game.objects.live().filter(models.Q(host=user) | models.Q(guest=user))
    for game_id in seated.values_list("pk", flat=True):
        with transaction.atomic():
            game = lock(game_id)
            if game.is_over:
                continue
            game.event_version += 1
            game.save(update_fields=["event_version"])
            outbox.publish(game, [{"type": "state_changed", "version": game.event_version, "reason": "players"}])
