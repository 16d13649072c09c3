"""Presence and disconnect grace (docs/architecture.md, "Where time and endings live").

A player is present while at least one of their sockets for the game is open and answering
heartbeats, on any web process: sockets are `Connection` rows in PostgreSQL, refreshed by the
heartbeat, removed on close or, for a process that died, by the presence sweep once they are
STALE_CONNECTION_S old. When a player's last socket goes, an absence deadline of
`state.ABSENCE_GRACE_S` starts, stored with the game and enforced by a Celery task at the deadline
plus the beat sweep, like move deadlines. Coming back at any time cancels it. When it runs out, the
game's `absence_rule` applies (`state.ending_on_absence`); in friend rooms the opponent then
chooses: wait once more, claim the win, or call it a draw. The move clock keeps running meanwhile.

Every change takes the game's row lock, so an expiry, a return and a claim racing each other give
exactly one outcome.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import connection as db_connection, transaction
from django.utils import timezone

from caro.games import outbox, signals, state
from caro.games.errors import GameError
from caro.games.finish import finish, finish_many
from caro.games.models import Connection, Game, Seat
from caro.games.services import lean
from caro.games.services.locking import lock, player_action
from caro.games.snapshot import absence, with_choices

#: A socket not seen for this long is gone (its web process died without closing it), s. The page
#: sends a heartbeat every 15 s, so this is three missed heartbeats.
STALE_CONNECTION_S = 45
#: The most stale connections and expired absences one sweep handles (the next takes the rest).
SWEEP_LIMIT = 500
#: The most games one transaction of `enforce_due_absences` handles (see `time.DUE_BATCH`).
DUE_BATCH = 25

log = logging.getLogger(__name__)


def connect(game_id: int, channel: str, user, max_spectators: int | None = None) -> str:
    """Register the socket `channel` of `user` as watching game `game_id`; return its seat
    ("host"/"guest", or "" for a spectator). A socket already registered moves to this game.

    A player who was away is back: their absence is cancelled. Raises `GameError` `crowd_full`
    when a spectator would be one more than `max_spectators`.
    """
    now = timezone.now()
    with transaction.atomic():
        game = lock(game_id)
        seat = game.seat_of(user) or ""
        if not seat and max_spectators is not None:
            watching = game.connections.filter(seat="").exclude(channel=channel).count()
            if watching >= max_spectators:
                raise GameError("crowd_full")
        Connection.objects.update_or_create(
            channel=channel,
            defaults={"game": game, "seat": seat, "seen_at": now,
                      "user": user if getattr(user, "is_authenticated", False) else None},
        )
        if seat and game.absent_seat == seat and state.is_active(game):
            _back(game, seat, now)
    if not seat:
        outbox.crowd_changed(game_id)
    elif game.status == Game.Status.WAITING:
        signals.waiting_presence.send(sender=Game, game_id=game_id)
    return seat


def seated(game_id: int, channel: str, user) -> str:
    """The socket `channel` watched game `game_id` as a spectator and its `user` has just taken a
    seat (from another tab of the same session): count it in that seat from now on, so the player
    is present while it stays open, and count one spectator less. Returns the seat, as `connect`."""
    seat = connect(game_id, channel, user)
    if seat:
        outbox.crowd_changed(game_id)
    return seat


def disconnect(channel: str) -> None:
    """The socket `channel` closed (or went stale): forget it, and start the absence of its player
    if that was their last socket in a game between two people in progress."""
    known = Connection.objects.filter(channel=channel).values_list("game_id", flat=True).first()
    if known is None:
        return
    now = timezone.now()
    with transaction.atomic():
        game = lock(known)
        connection = Connection.objects.filter(channel=channel).first()
        if connection is None:  # a racing disconnect already handled it
            return
        connection.delete()
        if _starts_absence(game, connection.seat, _present(game, connection.seat, now)):
            _away(game, connection.seat, now)
    _after_disconnect(known, connection.seat, game.status)


def _starts_absence(game: Game, seat: str, present: bool) -> bool:
    """Whether the socket of `seat` that just closed was that player's last one in a game between
    two people in progress (`present`: another socket of the seat is still seen), with nobody
    away yet: then their absence starts."""
    return bool(seat) and state.is_active(game) and state.between_people(game) and not present \
        and not game.absent_seat


def _after_disconnect(game_id: int, seat: str, status: str) -> None:
    """What a closed socket tells others once its transaction committed: a spectator fewer, or the
    host of a waiting game gone from the lobby."""
    if not seat:
        outbox.crowd_changed(game_id)
    elif status == Game.Status.WAITING:
        signals.waiting_presence.send(sender=Game, game_id=game_id)


def away_if_gone(game_id: int, seat: str) -> None:
    """The rest of `disconnect_on_loop` when its socket's player may have gone (the socket's row is
    already deleted): under the row lock, start the absence of `seat` if it is still the case
    (no other socket of the seat seen, nobody away yet, the game in progress)."""
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is not None and _starts_absence(game, seat, _present(game, seat, now)):
            _away(game, seat, now)


async def disconnect_on_loop(channel: str) -> None:
    """`disconnect` on the event loop, for the web process's sockets: the common close in one round
    trip of the loop's own connections and no thread (`lean.LoopConnection.locked_rows`): one
    transaction locks the socket's game row (the lock `disconnect` takes), deletes the socket's
    row and reads what decides the rest, with the game's other sockets of the same seat as they
    are once the lock is held. Only a close that starts the player's absence (then `away_if_gone`
    decides again under the lock), a spectator's (its count) and a waiting host's go on in a pool
    thread. Off PostgreSQL, inside a transaction, or when the loop's connection fails, the whole
    of `disconnect` runs in a pool thread instead."""
    from asgiref.sync import sync_to_async

    def in_thread(function):
        return sync_to_async(function, thread_sensitive=False)

    if not lean.usable_on_loop():
        return await in_thread(disconnect)(channel)
    cutoff = timezone.now() - timedelta(seconds=STALE_CONNECTION_S)
    try:
        async with lean.LoopConnection() as database:
            rows = await database.locked_rows(_LOCK_SQL, (channel,), _CLOSE_SQL, (channel, cutoff, channel))
    except Exception:  # noqa: BLE001 - PostgreSQL away or the pool closed: the general path decides
        log.warning("the loop's close of socket %s failed; closing it in a thread", channel, exc_info=True)
        return await in_thread(disconnect)(channel)
    if not rows:  # not registered, or a racing disconnect already handled it
        return
    game_id, seat, present, status, absent_seat, bot_seat, host_id, guest_id = rows[0]
    game = Game(pk=game_id, status=status, absent_seat=absent_seat, bot_seat=bot_seat, host_id=host_id,
                guest_id=guest_id)
    if _starts_absence(game, seat, present):
        await in_thread(away_if_gone)(game_id, seat)
    if not seat or status == Game.Status.WAITING:
        await in_thread(_after_disconnect)(game_id, seat, status)


def _close_statements() -> tuple[str, str]:
    game, conn = Game._meta.db_table, Connection._meta.db_table
    lock_sql = (f'SELECT 1 FROM "{game}" WHERE "id" = (SELECT "game_id" FROM "{conn}" WHERE "channel" = %s) '
                f'FOR UPDATE')
    close_sql = (
        f'WITH gone AS (DELETE FROM "{conn}" WHERE "channel" = %s RETURNING "game_id", "seat") '
        f'SELECT gone."game_id", gone."seat", EXISTS (SELECT 1 FROM "{conn}" other '
        f'WHERE other."game_id" = gone."game_id" AND other."seat" = gone."seat" AND other."seen_at" >= %s '
        f'AND other."channel" <> %s), '
        f'g."status", g."absent_seat", g."bot_seat", g."host_id", g."guest_id" '
        f'FROM gone JOIN "{game}" g ON g."id" = gone."game_id"')
    return lock_sql, close_sql


#: The loop's close (`disconnect_on_loop`): the row lock, then the delete and what decides the rest.
_LOCK_SQL, _CLOSE_SQL = _close_statements()


def touch(channel: str) -> None:
    """A heartbeat from the socket `channel`: it is alive (one UPDATE, no lock)."""
    Connection.objects.filter(channel=channel).update(seen_at=timezone.now())


def heartbeat(channel: str, game_id: int) -> int | None:
    """`touch` for the socket `channel`, and the current event version of game `game_id` (None
    when there is no such game), in one round trip: the room socket's `pong` carries it, so a
    page that missed an event asks for `sync` within one heartbeat (docs/protocol.md)."""
    connection_table, game_table = Connection._meta.db_table, Game._meta.db_table
    with db_connection.cursor() as cursor:
        cursor.execute(f'WITH seen AS (UPDATE "{connection_table}" SET "seen_at" = %s WHERE "channel" = %s) '
                       f'SELECT "event_version" FROM "{game_table}" WHERE "id" = %s',
                       [timezone.now(), channel, game_id])
        row = cursor.fetchone()
    return row[0] if row else None


def enforce_absence(game_id: int) -> bool:
    """Apply the absence rule if, under the row lock, the absent player's grace period has run out
    and they are still away. Returns True when this call changed the game. Idempotent."""
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        return game is not None and _apply_absence(game, now)


def enforce_due_absences(now=None, limit: int = DUE_BATCH) -> list[int]:
    """Apply, in ONE transaction, the absence rule of up to `limit` active games whose grace period
    ran out by `now` (default: the current time), oldest first; return the ids of games it changed.

    Like `time.enforce_due_deadlines`: rows held by another transaction are skipped (the next call
    finds them if still due); one query tells which absent players are back, the games that end
    end through `finish_many` together, the others (a return, the opponent's choice) one by one as
    in `enforce_absence`. If the batch fails it is rolled back and each game is handled on its own.
    Idempotent.
    """
    now = now or timezone.now()
    try:
        with transaction.atomic():
            due = [game for game in Game.objects.absence_expired(now).select_for_update(skip_locked=True)[:limit]
                   if state.absence_ended(game, now)]
            cutoff = now - timedelta(seconds=STALE_CONNECTION_S)
            present = set(Connection.objects.filter(game__in=due, seen_at__gte=cutoff)
                          .values_list("game_id", "seat"))
            endings = []
            for game in due:
                ending = None if (game.pk, game.absent_seat) in present else state.ending_on_absence(game)
                if ending is not None:
                    endings.append((game, *ending))
                else:
                    _apply_absence(game, now, present=(game.pk, game.absent_seat) in present)
            finish_many(endings)
            return [game.pk for game in due]
    except Exception:
        log.exception("a batch of absence deadlines failed; applying them one by one")
    changed = []
    for game_id in Game.objects.absence_expired(now).values_list("pk", flat=True)[:limit]:
        try:
            if enforce_absence(game_id):
                changed.append(game_id)
        except Exception:
            log.exception("could not apply the absence rule of game %s", game_id)
    return changed


def _apply_absence(game: Game, now, present: bool | None = None) -> bool:
    """The absence rule on the locked `game` at `now` (see `enforce_absence`); `present` says
    whether the absent player is back, when the caller already knows."""
    if not state.absence_ended(game, now):
        return False
    if present is None:
        present = _present(game, game.absent_seat, now)
    if present:
        _back(game, game.absent_seat, now)
        return True
    ending = state.ending_on_absence(game)
    if ending is not None:
        finish(game, winner=ending[0], termination=ending[1])
        return True
    game.absence_expired = True
    game.absence_deadline = None
    _publish_presence(game, game.absent_seat, present=False)
    return True


def decide_absence(game_id: int, user, choice: str) -> None:
    """The opponent of a player whose grace period ran out decides: "wait" (one more grace period,
    once per game), "claim_win" or "claim_draw". Raises `GameError` `not_a_player`, `not_started`,
    `game_over`, `timeout`, or `not_now` with its detail (`_why_not_now`: the opponent is at the
    table, its grace has not run out, or "wait" was already used)."""

    def decide(game: Game, seat: str) -> None:
        if choice == "wait" and state.may_wait_longer(game, seat):
            game.absence_waited = True
            game.absence_expired = False
            game.absence_deadline = timezone.now() + timedelta(seconds=state.ABSENCE_GRACE_S)
            _publish_presence(game, game.absent_seat, present=False)
        elif choice in ("claim_win", "claim_draw") and state.may_decide_absence(game, seat):
            winner = game.side_of(seat) if choice == "claim_win" else ""
            finish(game, winner=winner, termination=Game.Termination.ABSENCE)
        else:
            raise GameError("not_now", _why_not_now(game, seat, choice))

    player_action(game_id, user, decide)


def _why_not_now(game: Game, seat: str, choice: str) -> str:
    """The `detail` of a `not_now` refusal of `choice` to `seat` (errors.DETAIL_MESSAGES): "present"
    (the opponent is at the table), "grace" (away, but its ABSENCE_GRACE_S have not run out), or
    "waited" (a second `wait`: once per game)."""
    if game.absent_seat != Seat.other(seat):
        return "present"
    if not game.absence_expired:
        return "grace"
    return "waited" if choice == "wait" else "grace"


def sweep() -> int:
    """Beat job: drop stale connections (their absence starts) and apply every absence rule whose
    deadline passed while its task was lost. Returns how many games or sockets it acted on."""
    cutoff = timezone.now() - timedelta(seconds=STALE_CONNECTION_S)
    stale = list(Connection.objects.filter(seen_at__lt=cutoff).values_list("channel", flat=True)[:SWEEP_LIMIT])
    for channel in stale:
        disconnect(channel)
    expired = list(Game.objects.absence_expired().values_list("pk", flat=True)[:SWEEP_LIMIT])
    return len(stale) + sum(1 for game_id in expired if enforce_absence(game_id))


def _present(game: Game, seat: str, now) -> bool:
    cutoff = now - timedelta(seconds=STALE_CONNECTION_S)
    return game.connections.filter(seat=seat, seen_at__gte=cutoff).exists()


def _away(game: Game, seat: str, now) -> None:
    game.absent_seat = seat
    if game.lapsed_seat == seat:
        # Back only after the grace had run out, and gone again before moving: no new grace, or a
        # quick reconnect would keep the opponent from ever claiming the game.
        game.absence_deadline, game.absence_expired = None, True
    else:
        game.absence_deadline = now + timedelta(seconds=state.ABSENCE_GRACE_S)
        game.absence_expired = False
    _publish_presence(game, seat, present=False)


def _back(game: Game, seat: str, now) -> None:
    if game.absence_expired:
        game.lapsed_seat = seat
    game.absent_seat = ""
    game.absence_deadline = None
    game.absence_expired = False
    _publish_presence(game, seat, present=True)
    other = Seat.other(seat)
    if not _present(game, other, now):  # both were away: now the other one's grace starts
        _away(game, other, now)


def _publish_presence(game: Game, seat: str, *, present: bool) -> None:
    game.event_version += 1
    game.save()
    event = {"type": "presence", "version": game.event_version, "side": game.side_of(seat),
             "present": present, "absence": absence(game)}
    outbox.publish(game, [with_choices(game, event)])
