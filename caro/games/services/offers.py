"""Offers between the two players: a draw, a take-back by agreement, and the rematch (asked for,
then accepted or declined).

Each offer is one pending request per game, answered by the other seat; the rules of when one may
be made are predicates in `caro.games.state` (DRAW_OFFER_EVERY_PLIES, UNDO_AFTER_REFUSAL_PLIES).
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from caro.games import clock, outbox, state
from caro.games.errors import GameError
from caro.games.finish import finish
from caro.games.kinds import kind_of
from caro.games.models import Game, Move, Seat
from caro.games.services.locking import lock, player_action
from caro.games.services.seating import create_game
from caro.games.snapshot import board_for, keep_position, with_choices


log = logging.getLogger(__name__)

#: After this many of a player's rematch offers in one game were declined, that player may offer
#: no more rematches of that game (the opponent still may, and accepting theirs still starts the
#: next game): an offer and its decline are broadcast to every spectator, and an offer sent again
#: after each decline flooded the room (attacker run: 40 offers and 39 declines in 5 s).
REMATCH_DECLINES_MAX = 3
#: How long the count of declined rematch offers of a finished game is kept (s, Redis): far longer
#: than anyone stays at the table of a game that ended.
REMATCH_DECLINES_KEPT_S = 24 * 3600
_DECLINES_KEY = "rematch-declines:{}:{}"


def _agreed_draw(game: Game) -> None:
    """End `game` drawn by agreement; before both sides have moved it is an abort (never rated)."""
    termination = Game.Termination.ABORT if state.abortable(game) else Game.Termination.AGREEMENT
    finish(game, winner="", termination=termination)


def _event(game: Game, type_: str, **fields) -> dict:
    game.event_version += 1
    game.save()
    event = with_choices(game, {"type": type_, "version": game.event_version, **fields})
    outbox.publish(game, [event])
    return event


def offer_draw(game_id: int, user) -> None:
    """Offer a draw to the opponent (who may accept or decline; a move of theirs lets it lapse).

    An offer while the opponent's own offer is pending accepts it. Raises `GameError`
    `not_a_player`, `not_started`, `game_over`, `timeout`, or `offer_refused` (a game against the
    computer, or fewer than DRAW_OFFER_EVERY_PLIES plies since the last), `offer_pending` (one's own
    offer is still waiting). A draw agreed before both sides have moved is an abort.
    """

    def offer(game: Game, seat: str) -> None:
        if state.may_answer_draw(game, seat):
            _agreed_draw(game)
            return
        if game.draw_offer == seat:
            raise GameError("offer_pending")
        if not state.may_offer_draw(game, seat):
            raise GameError("offer_refused")
        game.draw_offer = seat
        game.set_seat_field("draw_ply", seat, game.ply)
        _event(game, "draw_offer", by=game.side_of(seat), again_ply=game.ply + state.DRAW_OFFER_EVERY_PLIES)

    player_action(game_id, user, offer)


def answer_draw(game_id: int, user, accept: bool) -> None:
    """Accept (the game ends drawn by agreement) or decline the opponent's pending draw offer.

    Raises `GameError` `not_a_player`, `not_started`, `game_over`, `timeout`, or `no_offer`.
    """

    def answer(game: Game, seat: str) -> None:
        if not state.may_answer_draw(game, seat):
            raise GameError("no_offer")
        if accept:
            _agreed_draw(game)
            return
        game.draw_offer = ""
        _event(game, "draw_declined", by=game.side_of(seat))

    player_action(game_id, user, answer)


def request_undo(game_id: int, user) -> None:
    """Ask the opponent to take back one's last move (and their reply, if any), in a game whose
    room allows taking back by agreement. Raises `GameError` `not_a_player`, `not_started`,
    `game_over`, `timeout`, or `takeback_refused` (not allowed now: see `state.may_request_undo`)."""

    def request(game: Game, seat: str) -> None:
        if not state.may_request_undo(game, seat):
            raise GameError("takeback_refused")
        game.undo_request = seat
        _event(game, "undo_request", by=game.side_of(seat))

    player_action(game_id, user, request)


def answer_undo(game_id: int, user, accept: bool) -> None:
    """Accept the opponent's take-back request (their last move and everything after it leave the
    board, and they move again) or decline it (no new request from them for
    UNDO_AFTER_REFUSAL_PLIES plies). Raises `GameError` `not_a_player`, `not_started`, `game_over`,
    `timeout`, or `no_offer`."""

    def answer(game: Game, seat: str) -> None:
        if not state.may_answer_undo(game, seat):
            raise GameError("no_offer")
        requester = game.undo_request
        game.undo_request = ""
        if not accept:
            game.set_seat_field("undo_refused_ply", requester, game.ply)
            _event(game, "undo_declined", by=game.side_of(seat))
            return
        take_back_from(game, game.side_of(requester))

    player_action(game_id, user, answer)


def take_back_from(game: Game, side: str) -> int:
    """Remove `side`'s last move and every move after it from the locked `game`; the turn restarts
    with a fresh clock. Returns how many moves were removed; publishes `state_changed`."""
    last_own = game.moves.filter(side=side).aggregate(last=Max("ply"))["last"]
    removed, _ = Move.objects.filter(game=game, ply__gte=last_own).delete()
    game.ply = last_own - 1
    board = board_for(game)  # rebuilt from the moves left (rare: a take-back)
    game.to_move = kind_of(game).turn(board)
    keep_position(game, board)
    game.draw_offer = game.undo_request = ""
    clock.start_turn(game, timezone.now())
    game.event_version += 1
    game.save()
    outbox.publish(game, [{"type": "state_changed", "version": game.event_version, "reason": "undo"}])
    return removed


def create_rematch(game_id: int, user) -> Game | None:
    """Ask for the next game between the same two players; both must ask (offer, then accept).

    The first request records an offer (event `rematch_offer`) and returns None; the opponent's
    request starts the new game and returns it, with the first mover of `state.first_seat_of_next`;
    the opponent may decline instead (`decline_rematch`).
    Each person keeps their seat and, in caro, their mark. Repeats are idempotent (the same offer,
    the same new game). Raises `GameError` `not_a_player`, `not_over`, `opponent_left` (a player
    left the table: that ended the game, and the room's next game needs a new opponent),
    `rematch_refused` (REMATCH_DECLINES_MAX of this player's offers were declined; nothing
    changes), or `on_device` for a game against the computer or on one device stored from before
    issue 26 (such games are played in the page now, and the server starts none).
    """
    with transaction.atomic():
        game = lock(game_id)
        seat = _seat_after(game, user)
        existing = game.rematches.order_by("pk").first()
        if existing is not None:
            return existing
        if game.bot_seat or game.is_local:
            raise GameError("on_device")
        if game.left_seat:
            raise GameError("opponent_left")
        if game.rematch_offer in ("", seat):
            if game.rematch_offer == "":
                if _rematch_declines(game, seat) >= REMATCH_DECLINES_MAX:
                    raise GameError("rematch_refused")
                _set_rematch_offer(game, seat, "rematch_offer", by=seat)
            return None
        return _next_game(game)


def decline_rematch(game_id: int, user) -> None:
    """Decline the opponent's pending rematch offer: the offer is cleared (event `rematch_declined`,
    `by` the side that declined), and either player may ask again. Raises `GameError`
    `not_a_player`, `not_over`, or `no_offer` (no offer is pending, the offer is one's own, or the
    next game has already started)."""
    with transaction.atomic():
        game = lock(game_id)
        seat = _seat_after(game, user)
        if game.rematch_offer in ("", seat) or game.rematches.exists():
            raise GameError("no_offer")
        _count_decline(game, game.rematch_offer)
        _set_rematch_offer(game, "", "rematch_declined", by=seat)


def _declines_key(game: Game, seat: str) -> str:
    """The Redis key of the count (the game's id and end time: never one of another database's game)."""
    return _DECLINES_KEY.format(f"{game.pk}-{game.finished_at.timestamp() if game.finished_at else 0}", seat)


def _rematch_declines(game: Game, seat: str) -> int:
    """How many rematch offers of `seat` in the finished `game` were declined (0 with Redis away)."""
    try:
        return cache.get(_declines_key(game, seat), 0)
    except Exception:  # noqa: BLE001 - Redis away: no limit rather than no rematch
        log.warning("offers: Redis unavailable, rematch declines not read", exc_info=True)
        return 0


def _count_decline(game: Game, seat: str) -> None:
    """Count one more declined rematch offer of `seat` in `game` (kept REMATCH_DECLINES_KEPT_S)."""
    key = _declines_key(game, seat)
    try:
        if not cache.add(key, 1, REMATCH_DECLINES_KEPT_S):
            cache.incr(key)
    except Exception:  # noqa: BLE001
        log.warning("offers: Redis unavailable, a rematch decline not counted", exc_info=True)


def _seat_after(game: Game, user) -> str:
    """The seat of `user` in `game` (locked), which is over. Raises `GameError` `not_a_player` or
    `not_over`."""
    seat = game.seat_of(user)
    if seat is None:
        raise GameError("not_a_player")
    if not game.is_over:
        raise GameError("not_over")
    return seat


def _set_rematch_offer(game: Game, offer: str, type_: str, *, by: str) -> None:
    """Store `offer` (the asking seat, or "") on the finished `game` and publish event `type_`
    with `by`, the side of seat `by`."""
    game.rematch_offer = offer
    game.event_version += 1
    game.save(update_fields=["rematch_offer", "event_version"])
    outbox.publish(game, [{"type": type_, "version": game.event_version, "by": game.side_of(by)}])


def _next_game(game: Game) -> Game:
    """The rematch of a finished `game`: the same seats, marks, clocks and policies (a rated game
    between two people gives a rated rematch, as on Lichess); the first mover from the lifecycle rule."""
    rematch = create_game(
        kind=game.kind,
        rules=game.rules,
        host=game.host,
        guest=game.guest,
        first_mover=state.first_seat_of_next(game),
        host_mark=game.host_mark,
        move_time_ms=game.move_time_ms,
        bank_ms=game.bank_ms,
        increment_ms=game.increment_ms,
        absence_rule=game.absence_rule,
        takeback=game.takeback,
        rematch_of=game,
        opening=game.opening.get("kind", "") if game.opening else "",
    )
    if game.rated:
        rematch.rated = True
        rematch.save(update_fields=["rated"])
    return rematch
