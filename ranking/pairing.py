"""Matchmaking: seeks, the pairing pass, arrivals (docs/architecture.md, "Pairing").

Entry points (the seek socket and the beat job call these; nothing else changes a seek):

- `seek_refusal(user, mode)`: may this user seek now, and if not, why (one place for every rule).
- `join(user, mode, choice)`: put the user in the queue (one seek per user; a second tab shares it).
- `cancel(user)`: leave the queue; racing a pairing, either the seek goes or the game stands.
- `arrive(user, mode, choice)`: `join`, then pair the seek at once with the best waiting partner
  (`pair_on_arrival`): the seek socket's entry point.
- `run_pass(mode, choice)`: pair the waiting players of one choice (or of every choice): the beat's
  fallback, for windows widened by waiting and for pairs an arrival missed.
- `check_arrival(pairing_id)`: after the grace, abort a game a player never opened and put the
  other back at the front of the queue.
- `offer_computer()`, `waiting_counts()`, `purge_orphans()`: the beat job's other chores.

Seeks live in PostgreSQL. An arrival commits its seek, then, in one short transaction, reads the
best live waiting partner (no lock), locks both rows in id order (`SELECT ... FOR UPDATE`), checks
both are still waiting and compatible, and makes the game: two arrivals at once cannot both miss
each other (each reads after its own seek committed), nor both pair with one seek (the row locks).
A pass reads its choice's waiting seeks whose socket is alive, pairs them
in memory, then, pair by pair, takes the two seeks with `SELECT ... FOR UPDATE SKIP LOCKED` (a
cancel holding a row makes the pass drop that pair, never wait for it) and creates the game in the
same short transaction that marks both seeks paired, so a cancel racing the pass finds either a
waiting seek (and deletes it: no game) or a paired one (and the game stands: one game). One pass
per choice runs at a time (an advisory lock; a pass finding it taken leaves, and the running one
goes round again for the seeks that joined meanwhile). Times are aware datetimes; every function that reads the clock takes `now` for tests.
"""

from __future__ import annotations

import copy
import logging
import random
import zlib
from urllib.parse import urlencode
from bisect import bisect_left
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, Q
from django.db.models.expressions import RawSQL
from django.db.models.functions import Abs, Greatest
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import restrictions
from caro.games import outbox, state
from caro.games.finish import finish
from caro.games.models import Connection, Game, Side
from caro.games.services.locking import lock
from caro.rooms import services as rooms
from ranking import categories, choices, elo
from ranking.models import Rating
from ranking.seeks import Pairing, Seek, seek_group

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------- the rules

#: A seek whose sockets wrote no heartbeat for this long is dead (its page pings every 10 s; a
#: socket writes at most every 15 s: ranking.consumers.HEARTBEAT_WRITE_S), s.
SEEK_STALE_S = 45
#: A player paired must open the game within this long, or the game is aborted, s.
ARRIVAL_GRACE_S = 20
#: After this long in the queue, the player is offered a game against the computer instead, s.
COMPUTER_OFFER_S = 30
#: Ranked: two players whose paired game was aborted are not paired again for this long, s.
RECENT_ABORT_S = 3600
#: Ranked rating window (points either side): it starts at RATING_WINDOW_START and widens by
#: RATING_WINDOW_STEP for every WAVE_S seconds waited, by at most RATING_WINDOW_WIDEN_MAX
#: (Lichess widens its pool's range by 12 per missed wave, up to +400). Both players' windows
#: must hold the other's rating. So a wait of 0-2 s accepts ±50, 10 s ±110, 1 min ±350, 67 s on ±450.
RATING_WINDOW_START = 50
RATING_WINDOW_STEP = 12
RATING_WINDOW_WIDEN_MAX = 400
WAVE_S = 2.0
#: Ranked first mover: balanced over each player's last this many games between people.
FIRST_MOVE_HISTORY = 20
#: At most this many seeks of one choice are read, and this many pairs made, by one pass
#: (the next pass, a second later or at the next join, goes on).
PASS_SEEK_LIMIT = 20_000
PASS_PAIR_LIMIT = 200
#: A pass makes its games this many pairs to a transaction (one INSERT each of games, rooms and
#: pairings, one UPDATE of the seeks); the players of a chunk hear of their games when it commits.
PASS_CHUNK = 25
#: A pass goes round again (at most PASS_ROUNDS times in all) while seeks that joined less than
#: JOIN_MARGIN_S before it started are waiting: their own pass found this one running and left.
PASS_ROUNDS = 4
JOIN_MARGIN_S = 2.0
#: A waiting seek with no socket for this long is removed (the player left the page), s.
ORPHAN_SEEK_S = 120
#: An arrival tries at most this many partners (one taken by another pairing or cancelled between
#: the read and the lock is passed over for the next; the beat's pass catches what is left).
ARRIVAL_TRIES = 3
#: The columns a pass reads of each waiting seek, as named rows (the pairing needs no more).
PASS_FIELDS = ("id", "user_id", "rating", "queued_at")
#: Namespace of the per-choice advisory lock of the pass (any constant; "ca" "ro").
PASS_LOCK_NAMESPACE = 0x6361_726F & 0x7FFF_FFFF


class SeekError(Exception):
    """A refused seek frame: `code` (machine) and `message` (translated when read)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

    @property
    def message(self) -> str:
        return str(SEEK_ERRORS.get(self.code, SEEK_ERRORS["server_error"]))


SEEK_ERRORS = {
    "malformed": _("That message could not be read. Reload the page."),
    "too_large": _("That message is too long."),
    "rate_limited": _("Too many messages at once. Wait a moment."),
    "unknown_type": _("That request is not known here."),
    "too_many_sockets": _("Too many pages are open from your network or browser. Close some, then reload."),
    "not_signed_in": _("Open the page again to get a player name, then try again."),
    "bad_choice": _("Those rules cannot be played in a quick match. Pick them from the list."),
    "bad_category": _("There is no ranked game of that kind. Pick one from the list."),
    "guests_not_ranked": _("Ranked games need an account, so that your rating is yours. Sign up: it is free."),
    # The socket replaces this with the ban or seek bar's own sentence (reason, time left): `bar_text`.
    "seek_barred": _("You cannot look for a game right now."),
    "server_error": _("Something went wrong on our side. Nothing was changed; try again."),
}


# --------------------------------------------------------------------------------- who may seek

def seek_refusal(user, mode: str) -> str | None:
    """None when `user` may join the `mode` queue ("quick"/"ranked") now; else the refusal's code
    (a `SEEK_ERRORS` key): `not_signed_in` (no session user), `guests_not_ranked`, `seek_barred`
    (a moderator's ban or a fair-play seek bar in force, `accounts.restrictions.queue_ban_of`, read
    fresh from the database: a socket's user object may predate the ban).

    The one place for every "may this player seek" rule.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return "not_signed_in"
    if mode == Seek.Mode.RANKED and getattr(user, "is_guest", False):
        return "guests_not_ranked"
    if current_bar(user.pk) is not None:
        return "seek_barred"
    return None


def current_bar(user_id: int, now: datetime | None = None) -> restrictions.Restriction | None:
    """The ban or fair-play seek bar in force on user `user_id` at `now`, read from the database."""
    user = next(iter(get_user_model().objects.filter(pk=user_id).only(*restrictions.QUEUE_FIELDS)[:1]), None)
    return restrictions.queue_ban_of(user, now or timezone.now()) if user is not None else None


def bar_text(user_id: int, now: datetime | None = None) -> str:
    """The sentence (active language) telling user `user_id` why they may not seek now and for how
    long; the generic `seek_barred` text if the bar ended meanwhile."""
    now = now or timezone.now()
    bar = current_bar(user_id, now)
    return restrictions.queue_ban_message(bar, now) if bar is not None else str(SEEK_ERRORS["seek_barred"])


def signup_url() -> str:
    """The sign-up page (allauth's `account_signup`), or the home page while accounts are not installed."""
    try:
        return reverse("account_signup")
    except NoReverseMatch:
        return reverse("home")


def match_url(mode: str = Seek.Mode.QUICK, choice: str = "", go: bool = False) -> str:
    """The matchmaking page, with the choice (and `go`: start seeking at once)."""
    query = {key: value for key, value in (("mode", mode), ("q", choice), ("go", "1" if go else "")) if value}
    return f"{reverse('match')}?{urlencode(query)}"


def describe(mode: str, choice: str) -> str:
    """The translated line of a seek's choice, e.g. "Caro 15×15 · blocked two ends: on · ..."."""
    if mode == Seek.Mode.QUICK:
        quick = choices.parse_quick(choice)
        return quick.describe() if quick else choice
    category = ranked_category(choice)
    return str(category.name) if category else choice


# ------------------------------------------------------------------------------ ranked categories

def ranked_category(slug) -> categories.Category | None:
    """The rating category `slug` of `ranking.categories`, or None."""
    return categories.BY_SLUG.get(slug) if isinstance(slug, str) else None


def rating_of(user, slug: str) -> int:
    """`user`'s rating in category `slug` (the start rating when they have none yet)."""
    value = Rating.objects.filter(user=user, category=slug).values_list("value", flat=True).first()
    return value if value is not None else elo.START_RATING


# ----------------------------------------------------------------------------------- the queue

def join(user, mode: str, choice: str, *, attach: bool = True, now: datetime | None = None) -> Seek:
    """Put `user` in the queue for `choice` (a quick-match key, or a rating category for ranked).

    One seek per user: a second tab asking for the same thing shares the seek (and its place); a
    different choice replaces it (back of the queue). A seek put back at the front after a no-show
    keeps its place. `attach` counts the calling socket as one more open seek socket. While the
    user's paired game is still being played, the seek stays paired and is returned as it is (the
    socket sends the player to that game). Raises `SeekError`: a `seek_refusal` code, `bad_choice`,
    `bad_category`. Call `run_pass(mode, choice)` after it (outside its transaction).
    """
    now = now or timezone.now()
    rating = _seek_rating(user, mode, choice)
    for attempt in range(2):
        try:
            with transaction.atomic():
                return _upsert_seek(user, mode, choice, rating, attach, now)
        except IntegrityError:  # two tabs created the user's first seek at once: take the other's
            if attempt:
                raise
    raise AssertionError("unreachable")


def _seek_rating(user, mode: str, choice: str) -> int:
    """May `user` seek (`mode`, `choice`)? The seek's rating (0 for quick), or `SeekError`."""
    refusal = seek_refusal(user, mode)
    if refusal:
        raise SeekError(refusal)
    if mode == Seek.Mode.QUICK:
        if choices.parse_quick(choice) is None:
            raise SeekError("bad_choice")
        return 0
    if mode == Seek.Mode.RANKED:
        if ranked_category(choice) is None:
            raise SeekError("bad_category")
        return rating_of(user, choice)
    raise SeekError("malformed")


def _upsert_seek(user, mode: str, choice: str, rating: int, attach: bool, now: datetime) -> Seek:
    """`join`'s row, inside the caller's transaction: the user's seek, locked, made waiting for
    (`mode`, `choice`), or returned as it is while paired into a game not over yet."""
    # One row at most (one seek per user): no ORDER BY, and the game read only when paired (the
    # ORM's compiling is most of a join's CPU time).
    seek = next(iter(Seek.objects.select_for_update().filter(user=user)[:1]), None)
    if seek is not None and seek.status == Seek.Status.PAIRED and seek.game_id and not _game_over(seek.game_id):
        return seek
    if seek is None:
        seek = Seek(user=user, queued_at=now, seen_at=now, joined_at=now)
    elif seek.status != Seek.Status.WAITING or (seek.mode, seek.choice) != (mode, choice):
        seek.queued_at, seek.front, seek.computer_offered = now, False, False
    seek.mode, seek.choice, seek.rating, seek.status, seek.game = mode, choice, rating, Seek.Status.WAITING, None
    seek.seen_at = seek.joined_at = now
    if attach:
        seek.sockets += 1
    seek.save()
    return seek


def _game_over(game_id: int) -> bool:
    """Is game `game_id` over (finished or aborted) or gone?"""
    status = Game.objects.filter(pk=game_id).values_list("status", flat=True)[:1]
    return not status or status[0] in (Game.Status.FINISHED, Game.Status.ABORTED)


def detach(user_id: int) -> None:
    """One seek socket of `user_id` closed (or was sent to a game): one open socket fewer."""
    Seek.objects.filter(user_id=user_id).update(sockets=Greatest(F("sockets") - 1, 0))


def heartbeat(user_id: int, now: datetime | None = None) -> dict | None:
    """A seek socket of `user_id` is alive: one UPDATE, which also reads the seek's state. Returns
    the `paired` event of the user's game when the seek is paired into a game not over yet (the
    socket missed it: a channel-layer message lost, e.g. while a web process re-subscribed), else
    None. So a socket that missed `paired` hears it at its next heartbeat."""
    table = connection.ops.quote_name(Seek._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET seen_at = %s WHERE user_id = %s RETURNING status, game_id",
                       [now or timezone.now(), user_id])
        row = cursor.fetchone()
    if row is None or row[0] != Seek.Status.PAIRED or row[1] is None:
        return None
    pairing = Pairing.objects.filter(game_id=row[1]).select_related("game").first()
    if pairing is None or pairing.game.is_over:
        return None
    return paired_messages(pairing)[0][1]


def cancel(user, now: datetime | None = None) -> Seek | None:
    """Leave the queue. Returns None when the seek was removed (or there was none), or the paired
    seek when a pass paired it first (its game stands; the player is sent there).

    A pass holding the seek's row makes this wait for it to commit, then see the seek paired: so a
    cancel racing a pairing leaves either no game (the seek went first) or exactly the pass's game.
    """
    doomed = list(Seek.objects.filter(user=user, status=Seek.Status.WAITING).values_list("pk", flat=True))
    deleted, _rows = Seek.objects.filter(pk__in=doomed, status=Seek.Status.WAITING).delete()
    if deleted:
        # which seek: a tab that has since made a new one must not take this for its own (the
        # event may arrive after the new seek's `status`, e.g. from another web process)
        event = {"type": "cancelled", "seek": doomed[0]}
        transaction.on_commit(lambda: outbox.broadcast(seek_group(user.pk), event))
        return None
    return Seek.objects.filter(user=user, status=Seek.Status.PAIRED).select_related("game").first()


# ------------------------------------------------------------------------------- arrivals' pairing

def arrive(user, mode: str, choice: str, *, attach: bool = True,
           now: datetime | None = None) -> tuple[Seek, Pairing | None]:
    """`join` and pair at once: the seek socket's entry point. Returns the user's seek and the
    pairing made, or None (the seek waits; a later arrival or the beat's pass pairs it).
    The caller tells both players: `paired_messages(pairing)` (nothing is broadcast here).
    Raises `SeekError` as `join` does.

    One transaction first: the seek is written (its row locked) and the best live waiting partner
    (`_partners`) is taken with `FOR UPDATE SKIP LOCKED` (a row another pairing, cancel or
    heartbeat holds is passed over, never waited for: this transaction already holds a row), and
    the game is made. With no partner there, the seek commits waiting and `pair_on_arrival` looks
    once more: of two players arriving at once, the later to commit sees the other then.
    """
    now = now or timezone.now()
    rating = _seek_rating(user, mode, choice)
    barred = _recent_partners(user.pk, now) if mode == Seek.Mode.RANKED else set()
    for attempt in range(2):
        try:
            with transaction.atomic():
                seek = _upsert_seek(user, mode, choice, rating, attach, now)
                if seek.status != Seek.Status.WAITING:
                    return seek, None
                partner = (_partners(seek, now, barred).select_for_update(skip_locked=True, of=("self",))
                           .select_related("user").first())
                if partner is not None and _can_pair(seek, partner, now):
                    first, second = sorted((seek, partner), key=_queue_key)
                    return seek, _pair(first, second, now, announce=False)
            break
        except IntegrityError:  # two tabs created the user's first seek at once: take the other's
            if attempt:
                raise
    return seek, pair_on_arrival(seek, now, barred)


def pair_on_arrival(seek: Seek, now: datetime | None = None, barred: set[int] | None = None) -> Pairing | None:
    """Pair the just-joined, committed waiting `seek` with its best live waiting partner of the
    same choice, or return None when there is none (it waits). `barred`: the users it may not
    meet (`_recent_partners`; read here when None).

    The best partner: quick, the longest waiting (`front` first, then `queued_at`, as `quick_pairs`);
    ranked, the nearest rating that both windows accept (`rating_window`; ties by queue order),
    never someone `_recent_aborts` bars. Never the same user (two tabs share one seek).

    Races: the partner is read without a lock, then both rows are locked in id order (no deadlock
    between two arrivals) and re-checked under the lock: a seek paired, cancelled (deleted) or
    changed meanwhile is passed over (at most ARRIVAL_TRIES partners), and if `seek` itself is no
    longer waiting (paired by someone else, cancelled) nothing is done. A cancel racing this finds
    the row locked, waits, and then either deletes a still-waiting seek (no game) or finds it paired
    (the game stands). The game's announcement is left to the caller (`paired_messages`).
    """
    now = now or timezone.now()
    if barred is None:
        barred = _recent_partners(seek.user_id, now) if seek.mode == Seek.Mode.RANKED else set()
    passed_over: list[int] = []
    for _try in range(ARRIVAL_TRIES):
        partner_id = _partners(seek, now, barred).exclude(pk__in=passed_over).values_list("pk", flat=True).first()
        if partner_id is None:
            return None
        with transaction.atomic():
            rows = {row.pk: row for row in Seek.objects.select_for_update(of=("self",))
                    .filter(pk__in=(seek.pk, partner_id)).select_related("user").order_by("pk")}
            mine, other = rows.get(seek.pk), rows.get(partner_id)
            if mine is None or mine.status != Seek.Status.WAITING or (mine.mode, mine.choice) != (seek.mode, seek.choice):
                return None
            if other is None or not _can_pair(mine, other, now):
                passed_over.append(partner_id)
                continue
            first, second = sorted((mine, other), key=_queue_key)
            return _pair(first, second, now, announce=False)
    return None


#: An arrival batch (`arrive_many`) takes at most this many seek frames (ranking.arrivals gathers them).
BATCH_MAX = 64


def arrive_many(requests: list[tuple], now: datetime | None = None) -> list:
    """`arrive` for many seek frames at once (what `ranking.arrivals` sends, gathered from the
    seek sockets of one web process while the previous batch was in PostgreSQL). `requests` are
    `(user, mode, choice, attach)`; the answer, in the same order, is for each either
    `(seek, pairing or None)` as `arrive` returns, or the `SeekError` it would raise.

    Quick seeks (one per user in the batch) go through one transaction for them all: the users'
    bars are read fresh in one query; their seeks are locked (`SELECT ... FOR UPDATE`, id order);
    per choice the longest-waiting live partners are taken with `FOR UPDATE SKIP LOCKED` (at most
    as many as the batch has seeks of that choice); the batch's seeks and those partners are paired
    in queue order (`quick_pairs`: front first, then the longest waiting); every game and room is
    made in one INSERT each (`rooms.create_match_rooms`), the pairings in one, and the seeks
    written in one INSERT and one UPDATE. So a burst of N arrivals costs about a dozen round
    trips instead of about 16 each. A seek left waiting then gets `pair_on_arrival`'s second look
    after commit (an arrival on another process committing at the same moment is found then), as
    in `arrive`. The guarantees are `arrive`'s: rows are only taken locked and re-checked, one
    user has one seek and is in at most one pair, a cancel waits for the batch and then finds the
    seek paired (the game stands) or deletes it first (the batch skips it: no game).
    Ranked seeks, a user's second tab in the same batch, and anyone refused go through `arrive`
    one by one. When both players of a pairing are in the batch, each answer carries `tell_only`
    (that player's user id): each socket tells its own player, so neither depends on the other's
    socket still being there (ranking.consumers).
    """
    now = now or timezone.now()
    answers: list = [None] * len(requests)
    batch: list[int] = []
    users_seen: set[int] = set()
    for i, (user, mode, choice, _attach) in enumerate(requests):
        if (mode == Seek.Mode.QUICK and getattr(user, "is_authenticated", False) and user.pk not in users_seen
                and choices.parse_quick(choice) is not None):
            batch.append(i)
            users_seen.add(user.pk)
    if batch:
        bars = _bars_of([requests[i][0].pk for i in batch], now)
        refused = [i for i in batch if bars.get(requests[i][0].pk, True)]
        batch = [i for i in batch if i not in set(refused)]
        for i in refused:
            answers[i] = SeekError("seek_barred")
    if batch:
        for attempt in range(2):
            try:
                with transaction.atomic():
                    leftovers = _arrive_batch(requests, batch, answers, now)
                break
            except IntegrityError:  # a seek inserted meanwhile by another process (a second tab): again
                if attempt:
                    raise
                for i in batch:
                    answers[i] = None
        for i in leftovers:
            seek = answers[i][0]
            answers[i] = (seek, pair_on_arrival(seek, now, set()))
    for i, (user, mode, choice, attach) in enumerate(requests):
        if answers[i] is None:
            try:
                answers[i] = arrive(user, mode, choice, attach=attach, now=now)
            except SeekError as error:
                answers[i] = error
    return answers


def _bars_of(user_ids: list[int], now: datetime) -> dict[int, bool]:
    """For each user id: is a ban or seek bar in force (`restrictions.queue_ban_of`), read now."""
    users = get_user_model().objects.filter(pk__in=user_ids).only(*restrictions.QUEUE_FIELDS)
    return {user.pk: restrictions.queue_ban_of(user, now) is not None for user in users}


def _arrive_batch(requests: list[tuple], batch: list[int], answers: list, now: datetime) -> list[int]:
    """`arrive_many`'s transaction (see there). Fills `answers` for `batch`; returns the indexes of
    the seeks left waiting (for the second look after commit)."""
    user_ids = [requests[i][0].pk for i in batch]
    existing = {seek.user_id: seek for seek in
                Seek.objects.select_for_update().filter(user_id__in=user_ids).order_by("pk")}
    in_play = [seek.game_id for seek in existing.values() if seek.status == Seek.Status.PAIRED and seek.game_id]
    live_games = set(Game.objects.filter(pk__in=in_play).exclude(
        status__in=(Game.Status.FINISHED, Game.Status.ABORTED)).values_list("pk", flat=True)) if in_play else set()
    mine: dict[str, list[tuple[int, Seek]]] = {}
    for i in batch:
        user, mode, choice, attach = requests[i]
        seek = existing.get(user.pk)
        if seek is not None and seek.status == Seek.Status.PAIRED and seek.game_id in live_games:
            answers[i] = (seek, None)  # still in the game it was paired into (as `_upsert_seek`)
            continue
        if seek is None:
            seek = Seek(user_id=user.pk, queued_at=now, seen_at=now, joined_at=now)
        elif seek.status != Seek.Status.WAITING or (seek.mode, seek.choice) != (mode, choice):
            seek.queued_at, seek.front, seek.computer_offered = now, False, False
        seek.mode, seek.choice, seek.rating, seek.status, seek.game = mode, choice, 0, Seek.Status.WAITING, None
        seek.seen_at = seek.joined_at = now
        if attach:
            seek.sockets += 1
        mine.setdefault(choice, []).append((i, seek))
    pairs, leftovers, partners = [], [], []
    for choice, arrivals in mine.items():
        waiting = list(_live(Seek.objects.filter(mode=Seek.Mode.QUICK, choice=choice), now)
                       .exclude(user_id__in=user_ids).select_for_update(skip_locked=True)
                       .order_by("-front", "queued_at", "pk")[:len(arrivals)])
        partners += waiting
        index_of = {id(seek): i for i, seek in arrivals}
        queue = sorted([*waiting, *(seek for _i, seek in arrivals)],
                       key=lambda seek: (not seek.front, seek.queued_at, seek.pk or 0, seek.user_id))
        paired = set()
        for host, guest in quick_pairs(queue):
            pairs.append((host, guest, index_of.get(id(host)), index_of.get(id(guest))))
            paired.update((id(host), id(guest)))
        leftovers += [i for i, seek in arrivals if id(seek) not in paired]
    pairings = _pair_many([(host, guest) for host, guest, _h, _g in pairs], now, announce=False, write_seeks=False)
    # Two players who were both waiting (neither in this batch: each's own look had passed the
    # other over, locked) can be paired here too; no socket of the batch tells them, so their
    # game is announced to both seek groups after commit, as the pass does.
    untold = [pairing for (_h, _g, host_i, guest_i), pairing in zip(pairs, pairings)
              if host_i is None and guest_i is None]
    if untold:
        messages = [message for pairing in untold for message in paired_messages(pairing)]
        transaction.on_commit(lambda: broadcast_many(messages))
    for (host, guest, host_i, guest_i), pairing in zip(pairs, pairings):
        both = host_i is not None and guest_i is not None
        for seek, i in ((host, host_i), (guest, guest_i)):
            if i is None:
                continue
            answer = pairing
            if both:  # both players' sockets are on this process: each tells only its own player
                answer = copy.copy(pairing)
                answer.tell_only = seek.user_id
            answers[i] = (seek, answer)
    ours = [seek for arrivals in mine.values() for _i, seek in arrivals]
    fresh = sorted((seek for seek in ours if seek.pk is None), key=lambda seek: seek.user_id)
    Seek.objects.bulk_create(fresh)
    fresh_ids = {id(seek) for seek in fresh}
    changed = [seek for seek in ours if id(seek) not in fresh_ids]
    changed += [seek for seek in partners if seek.status == Seek.Status.PAIRED]
    if changed:
        Seek.objects.bulk_update(changed, ["mode", "choice", "rating", "status", "game", "front", "queued_at",
                                           "computer_offered", "seen_at", "joined_at", "sockets"])
    for i, seek in ((i, seek) for arrivals in mine.values() for i, seek in arrivals):
        if answers[i] is None:
            answers[i] = (seek, None)
    return leftovers


def _queue_key(seek: Seek) -> tuple:
    """Queue order: `front` first, then the longest waiting, then the older row."""
    return (not seek.front, seek.queued_at, seek.pk)


def _partners(seek: Seek, now: datetime, barred: set[int]):
    """The live waiting seeks that may meet `seek`, best first (see `pair_on_arrival`): quick, in
    queue order; ranked, within both rating windows, nearest rating first, then queue order."""
    partners = (_live(Seek.objects.filter(mode=seek.mode, choice=seek.choice), now)
                .exclude(user_id=seek.user_id))
    if barred:
        partners = partners.exclude(user_id__in=barred)
    if seek.mode != Seek.Mode.RANKED:
        return partners.order_by("-front", "queued_at", "pk")
    window = rating_window(seek, now)
    # The partner's own window, as `rating_window` computes it, in SQL.
    theirs = RawSQL(
        "%s + LEAST(%s, %s * FLOOR(GREATEST(0, EXTRACT(EPOCH FROM (%s - ranking_seek.queued_at))) / %s))",
        (RATING_WINDOW_START, RATING_WINDOW_WIDEN_MAX, RATING_WINDOW_STEP, now, WAVE_S))
    return (partners.filter(rating__gte=seek.rating - window, rating__lte=seek.rating + window)
            .annotate(gap=Abs(F("rating") - seek.rating), theirs=theirs).filter(gap__lte=F("theirs"))
            .order_by("gap", "-front", "queued_at", "pk"))


def _can_pair(mine: Seek, other: Seek, now: datetime) -> bool:
    """Under the row locks: may the waiting seeks `mine` and `other` still be paired?"""
    if other.status != Seek.Status.WAITING or (other.mode, other.choice) != (mine.mode, mine.choice):
        return False
    if other.user_id == mine.user_id or other.sockets <= 0:
        return False
    if other.seen_at < now - timedelta(seconds=SEEK_STALE_S):
        return False
    if mine.mode == Seek.Mode.RANKED:
        gap = abs(other.rating - mine.rating)
        return gap <= rating_window(mine, now) and gap <= rating_window(other, now)
    return True


def _recent_partners(user_id: int, now: datetime) -> set[int]:
    """The users whose ranked pairing with `user_id` ended aborted within RECENT_ABORT_S."""
    rows = Pairing.objects.filter(
        Q(host_id=user_id) | Q(guest_id=user_id), mode=Seek.Mode.RANKED, game__status=Game.Status.ABORTED,
        created_at__gte=now - timedelta(seconds=RECENT_ABORT_S),
    ).values_list("host_id", "guest_id")
    return {other for host, guest in rows for other in (host, guest) if other != user_id}


def paired_messages(pairing: Pairing) -> list[tuple[str, dict]]:
    """The `(group, event)` telling both players' seek sockets of `pairing`'s game (`paired`)."""
    event = {"type": "paired", "game_id": pairing.game_id,
             "url": reverse("room", kwargs={"code": pairing.room_code}), "rated": pairing.game.rated}
    return [(seek_group(user_id), event) for user_id in (pairing.host_id, pairing.guest_id)]


# ---------------------------------------------------------------------------------- the pass

def rating_window(seek: Seek, now: datetime) -> int:
    """The rating window (points either side) of a ranked seek that has waited since `queued_at`."""
    waited = max(0.0, (now - seek.queued_at).total_seconds())
    return RATING_WINDOW_START + min(RATING_WINDOW_WIDEN_MAX, RATING_WINDOW_STEP * int(waited // WAVE_S))


def quick_pairs(seeks: list[Seek]) -> list[tuple[Seek, Seek]]:
    """Pairs of a quick-match queue (`seeks` in queue order, one choice): first with second, and
    so on; a user never meets themself and is in at most one pair."""
    pairs, waiting = [], None
    for seek in seeks:
        if waiting is None:
            waiting = seek
        elif waiting.user_id != seek.user_id:
            pairs.append((waiting, seek))
            waiting = None
    return pairs


def ranked_pairs(seeks: list[Seek], now: datetime, blocked: set[frozenset],
                 limit: int | None = None) -> list[tuple[Seek, Seek]]:
    """Pairs of a ranked queue (`seeks` in queue order, one category). Each player, in queue
    order, gets the unpaired player nearest in rating whom both windows accept (`rating_window`),
    other than themself and anyone in `blocked` with them (sets of two user ids). Each seek is
    in at most one pair. With `limit`, the first `limit` pairs only (the same as the first of the
    whole list: the pairing is greedy in queue order); a pass makes no more than that, and the
    search past the taken neighbours of thousands of close ratings is what costs."""
    order = sorted(range(len(seeks)), key=lambda i: seeks[i].rating)
    ratings = [seeks[i].rating for i in order]
    position = {index: pos for pos, index in enumerate(order)}
    windows = [rating_window(seek, now) for seek in seeks]
    taken = [False] * len(seeks)
    pairs = []
    for i, seek in enumerate(seeks):
        if taken[i]:
            continue
        best = None
        low = bisect_left(ratings, seek.rating - windows[i])
        pos = position[i]
        for j_pos in _outward(pos, low, len(order), ratings, seek.rating + windows[i]):
            j = order[j_pos]
            other = seeks[j]
            if taken[j] or j == i or other.user_id == seek.user_id:
                continue
            if abs(other.rating - seek.rating) > windows[j]:
                continue
            if frozenset((seek.user_id, other.user_id)) in blocked:
                continue
            best = j
            break
        if best is not None:
            taken[i] = taken[best] = True
            pairs.append((seek, seeks[best]))
            if limit is not None and len(pairs) >= limit:
                break
    return pairs


def _outward(pos: int, low: int, n: int, ratings: list[int], high_rating: int):
    """Positions around `pos` in a rating-sorted list, nearest rating first, within [low, high]."""
    left, right, centre = pos - 1, pos + 1, ratings[pos]
    yield pos
    while True:
        can_left = left >= low
        can_right = right < n and ratings[right] <= high_rating
        if not can_left and not can_right:
            return
        if can_left and (not can_right or centre - ratings[left] <= ratings[right] - centre):
            yield left
            left -= 1
        else:
            yield right
            right += 1


def run_pass(mode: str | None = None, choice: str | None = None, now: datetime | None = None) -> list[Pairing]:
    """Pair the waiting players of (`mode`, `choice`), or of every choice when both are None.
    Returns the pairings made. Each game is announced to both players' seek sockets after commit.

    Passes of one choice never wait for each other: when another pass of the choice is running
    (its advisory lock is taken: `pg_try_advisory_lock`), this one returns at once, and the running pass, once done,
    goes round again while seeks joined during it (JOIN_MARGIN_S) are waiting, at most PASS_ROUNDS
    times; the beat's pass a second later is the safety net.
    """
    if mode is None:
        groups = (Seek.objects.filter(status=Seek.Status.WAITING).values_list("mode", "choice")
                  .distinct().order_by())
        made = []
        for group_mode, group_choice in list(groups):
            made += run_pass(group_mode, group_choice, now)
        return made
    made: list[Pairing] = []
    for _round in range(PASS_ROUNDS):
        started = timezone.now()
        result = _pass_once(mode, choice, now or started)
        if result is None:  # another pass of this choice is running; it goes round again for us
            break
        made += result
        recent = started - timedelta(seconds=JOIN_MARGIN_S)
        if not _live(Seek.objects.filter(mode=mode, choice=choice, joined_at__gte=recent), now or started).exists():
            break
    return made


def _live(seeks, now: datetime):
    """The waiting seeks of `seeks` whose socket is alive."""
    return seeks.filter(status=Seek.Status.WAITING, sockets__gt=0, seen_at__gte=now - timedelta(seconds=SEEK_STALE_S))


def _pass_once(mode: str, choice: str, now: datetime) -> list[Pairing] | None:
    """One pass over one choice, or None when another pass of that choice holds its lock.

    The pass holds the choice's advisory lock (a session lock, released at the end) while it reads
    the live waiting seeks without row locks and pairs them in memory. Then each pair gets its own
    short transaction: the two seeks are taken with FOR UPDATE SKIP LOCKED, which re-reads each
    row (a seek cancelled, changed or locked by a cancel in between is left out, and so is its
    pair: the partner stays in the queue for the next pass), the game is made, and on commit both
    players hear of it at once, not after the whole pass. Reading 10,000 waiting seeks writes no
    row lock.
    """
    key = [PASS_LOCK_NAMESPACE, zlib.crc32(f"{mode}:{choice}".encode()) & 0x7FFF_FFFF]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
        if not cursor.fetchone()[0]:
            return None
    try:
        queue = _live(Seek.objects.filter(mode=mode, choice=choice), now)
        # Quick pairs first with second: the front of the queue is enough. Ranked needs everyone.
        limit = 2 * PASS_PAIR_LIMIT + 1 if mode == Seek.Mode.QUICK else PASS_SEEK_LIMIT
        seeks = list(queue.order_by("-front", "queued_at", "pk").values_list(*PASS_FIELDS, named=True)[:limit])
        if len(seeks) < 2:
            return []
        if mode == Seek.Mode.QUICK:
            pairs = quick_pairs(seeks)
        else:
            pairs = ranked_pairs(seeks, now, _recent_aborts(now), limit=PASS_PAIR_LIMIT)
        made = []
        pairs = pairs[:PASS_PAIR_LIMIT]
        for start in range(0, len(pairs), PASS_CHUNK):
            chunk = pairs[start:start + PASS_CHUNK]
            with transaction.atomic():
                # Re-read under the row locks (one query for the chunk); a pair with a seek
                # skipped or gone is dropped.
                ids = [seek.id for pair in chunk for seek in pair]
                locked = {seek.pk: seek for seek in queue.select_for_update(skip_locked=True).filter(pk__in=ids)}
                ready = [(locked[a.id], locked[b.id]) for a, b in chunk if a.id in locked and b.id in locked]
                made += _pair_many(ready, now)
        return made
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)


def _recent_aborts(now: datetime) -> set[frozenset]:
    """Pairs of users whose ranked pairing ended aborted within RECENT_ABORT_S (few rows: aborted
    ranked games of the last hour)."""
    rows = Pairing.objects.filter(
        mode=Seek.Mode.RANKED, created_at__gte=now - timedelta(seconds=RECENT_ABORT_S),
        game__status=Game.Status.ABORTED,
    ).values_list("host_id", "guest_id")
    return {frozenset(row) for row in rows}


def first_mover_for(host_id: int, guest_id: int) -> str:
    """Ranked: "host" or "guest", whoever moved first less often (as a share) in their last
    FIRST_MOVE_HISTORY games between people; chance on a tie."""
    shares = _first_move_shares([host_id, guest_id])
    return _less_often_first(shares[host_id], shares[guest_id])


def _less_often_first(host_share: float, guest_share: float) -> str:
    if host_share == guest_share:
        return random.choice(("host", "guest"))
    return "host" if host_share < guest_share else "guest"


def _first_move_shares(user_ids: list[int]) -> dict[int, float]:
    """For each user id: the share of their last FIRST_MOVE_HISTORY started games between people
    in which they moved first (0.5 with no such game). One query for all (a LATERAL scan of each
    user's latest games on the host and guest indexes)."""
    table = connection.ops.quote_name(Game._meta.db_table)
    sql = f"""
        SELECT u.id, COUNT(g.id), COALESCE(SUM(CASE WHEN (g.host_id = u.id) = (g.host_side = %s) THEN 1 ELSE 0 END), 0)
        FROM unnest(%s::bigint[]) AS u(id)
        LEFT JOIN LATERAL (
            SELECT id, host_id, host_side FROM {table}
            WHERE (host_id = u.id OR guest_id = u.id) AND status <> %s AND bot_seat = '' AND host_id <> guest_id
            ORDER BY id DESC LIMIT %s
        ) g ON TRUE
        GROUP BY u.id"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [Side.X, list(set(user_ids)), Game.Status.WAITING, FIRST_MOVE_HISTORY])
        rows = cursor.fetchall()
    return {user_id: (first / games if games else 0.5) for user_id, games, first in rows}


def _pair(a: Seek, b: Seek, now: datetime, announce: bool = True) -> Pairing:
    """Make the game of two locked waiting seeks (a waited longer: the host seat). With `announce`,
    both players are told on commit (`paired_messages`). The beat checks the arrivals once
    `arrive_by` has passed (`due_arrivals`, every second)."""
    return _pair_many([(a, b)], now, announce=announce)[0]


def _pair_many(pairs: list[tuple[Seek, Seek]], now: datetime, *, announce: bool = True,
               write_seeks: bool = True) -> list[Pairing]:
    """`_pair` for many pairs of locked waiting seeks at once, in the caller's transaction: the
    games and rooms in one INSERT each (`rooms.create_match_rooms`), the pairings in one, the
    seeks marked paired in one UPDATE (`write_seeks`; else only in memory, for a caller that
    writes them itself). Ranked first movers are read for every player in one query."""
    if not pairs:
        return []
    ranked_users = [seek.user_id for pair in pairs if pair[0].mode == Seek.Mode.RANKED for seek in pair]
    shares = _first_move_shares(ranked_users) if ranked_users else {}
    specs = []
    for a, b in pairs:
        if a.mode == Seek.Mode.QUICK:
            quick = choices.parse_quick(a.choice)
            kind, rules, move_ms, first = quick.kind, quick.rules(), quick.move_time_ms, "random"
        else:
            category = ranked_category(a.choice)
            kind, rules = category.kind, dict(category.rules or {})
            move_ms = choices.REVERSI_MOVE_MS if kind == "reversi" else choices.CARO_MOVE_MS
            first = _less_often_first(shares[a.user_id], shares[b.user_id])
        specs.append({"host_id": a.user_id, "guest_id": b.user_id, "kind": kind, "rules": rules,
                      "first_mover": first, "move_time_ms": move_ms, "rated": a.mode == Seek.Mode.RANKED,
                      "preset": "reversi" if kind == "reversi" else "caro-vn"})
    made = rooms.create_match_rooms(specs)
    pairings = []
    for (a, b), room in zip(pairs, made):
        game = room.current_game
        pairings.append(Pairing(game=game, mode=a.mode, choice=a.choice, host_id=a.user_id, guest_id=b.user_id,
                                room_code=room.code, created_at=now,
                                arrive_by=now + timedelta(seconds=ARRIVAL_GRACE_S)))
        # Every seek socket of both players lets go of the seek when it hears `paired`: their count
        # goes to 0 here, in the same UPDATE, not in one more UPDATE per socket.
        for seek in (a, b):
            seek.status, seek.game, seek.front, seek.sockets = Seek.Status.PAIRED, game, False, 0
    Pairing.objects.bulk_create(pairings)
    if write_seeks:
        seeks = [seek for pair in pairs for seek in pair]
        Seek.objects.bulk_update(seeks, ["status", "game", "front", "sockets"])
    if announce:
        messages = [message for pairing in pairings for message in paired_messages(pairing)]
        transaction.on_commit(lambda: broadcast_many(messages))
    return pairings


def broadcast_many(messages: list[tuple[str, dict]]) -> None:
    """Send each `(group, event)` as `outbox.broadcast` does, all at once (`outbox.broadcast_many`:
    one Redis pipeline, and in the worker its own event loop, which the pass and the beat run in).
    Failures are logged, never raised."""
    outbox.broadcast_many(messages)


# ------------------------------------------------------------------------------- arrivals

def check_arrival(pairing_id: int, now: datetime | None = None) -> bool:
    """Once the arrival grace has passed: if a player of the pairing's game never opened it (no
    socket on the game and no move of theirs) and the game can still be aborted, abort it (through
    `finish`) and put the other player back at the FRONT of the queue (their seek waits again; the
    game page sends them back to the matchmaking page, event `requeued`). The no-show's seek is
    removed. Returns True when the game was aborted. Idempotent; a pairing is checked once.
    """
    now = now or timezone.now()
    with transaction.atomic():
        pairing = Pairing.objects.select_for_update().filter(pk=pairing_id, checked=False).first()
        if pairing is None or now < pairing.arrive_by:
            return False
        pairing.checked = True
        pairing.save(update_fields=["checked"])
        game = lock(pairing.game_id)
        if game.is_over:
            return False
        arrived = {seat: _arrived(game, seat) for seat in ("host", "guest")}
        if all(arrived.values()) or not state.abortable(game):
            return False
        finish(game, winner="", termination=Game.Termination.ABORT)
        back = [seat for seat, came in arrived.items() if came]
        gone = [seat for seat, came in arrived.items() if not came]
        for seat in gone:
            Seek.objects.filter(user_id=game.player_id_in(seat), game=game).delete()
        for seat in back:
            Seek.objects.filter(user_id=game.player_id_in(seat), game=game).update(
                status=Seek.Status.WAITING, front=True, game=None, computer_offered=False)
        url = match_url(pairing.mode, pairing.choice, go=True)
        sides = [game.side_of(seat) for seat in back]
        group, game_id = game.group_name, game.pk
        back_users = [game.player_id_in(seat) for seat in back]

        def announce() -> None:
            outbox.broadcast(group, {"type": "requeued", "game_id": game_id, "sides": sides, "url": url})
            for user_id in back_users:
                outbox.broadcast(seek_group(user_id), {"type": "requeued", "url": url})

        transaction.on_commit(announce)
        return True


def _arrived(game: Game, seat: str) -> bool:
    """Has the player in `seat` opened the game (a socket on it now) or moved in it?"""
    if Connection.objects.filter(game=game, seat=seat).exists():
        return True
    return game.moves.filter(side=game.side_of(seat)).exists()


def due_arrivals(now: datetime | None = None) -> list[int]:
    """Pairings whose arrival grace has passed and that were not checked yet (the beat checks them
    every second)."""
    now = now or timezone.now()
    return list(Pairing.objects.filter(checked=False, arrive_by__lte=now).values_list("pk", flat=True)[:500])


# ---------------------------------------------------------------------------- the beat's chores

def offer_computer(now: datetime | None = None) -> list[int]:
    """Mark the seeks waiting COMPUTER_OFFER_S or more as offered a computer game and tell their
    sockets (event `computer_offer`). Returns those users' ids."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(Seek.objects.select_for_update(skip_locked=True).filter(
            status=Seek.Status.WAITING, computer_offered=False,
            queued_at__lte=now - timedelta(seconds=COMPUTER_OFFER_S)).values_list("pk", "user_id")[:1000])
        if not due:
            return []
        Seek.objects.filter(pk__in=[pk for pk, _user in due]).update(computer_offered=True)
        users = [user_id for _pk, user_id in due]

        def announce() -> None:
            for user_id in users:
                outbox.broadcast(seek_group(user_id), {"type": "computer_offer"})

        transaction.on_commit(announce)
    return users


def waiting_counts(now: datetime | None = None) -> dict[str, dict[str, int]]:
    """Players waiting now, per choice: `{"quick": {key: n}, "ranked": {category: n}}` (live seeks only)."""
    now = now or timezone.now()
    rows = (Seek.objects.filter(status=Seek.Status.WAITING, sockets__gt=0,
                                seen_at__gte=now - timedelta(seconds=SEEK_STALE_S))
            .values_list("mode", "choice").order_by())
    counts: dict[str, dict[str, int]] = {Seek.Mode.QUICK: {}, Seek.Mode.RANKED: {}}
    for mode, choice, n in rows.annotate(n=Count("pk")).values_list("mode", "choice", "n"):
        counts[mode][choice] = n
    return counts


def purge_orphans(now: datetime | None = None) -> int:
    """Remove waiting seeks without a live socket for ORPHAN_SEEK_S (the player left). Returns how many."""
    now = now or timezone.now()
    deleted, _rows = Seek.objects.filter(
        status=Seek.Status.WAITING, seen_at__lt=now - timedelta(seconds=ORPHAN_SEEK_S)).delete()
    return deleted


def seek_state(user) -> dict:
    """The user's seek as the socket's `status` frame: `{"status": "idle"}`, or
    `{"status": "waiting", "mode", "choice", "since_ms", "computer_offer", "front"}`, or
    `{"status": "paired", "game_id", "url"}` while their paired game is not over."""
    seek = Seek.objects.filter(user=user).select_related("game").first() if user else None
    if seek is None:
        return {"status": "idle"}
    if seek.status == Seek.Status.PAIRED:
        if seek.game is None or seek.game.is_over:
            return {"status": "idle"}
        code = Pairing.objects.filter(game=seek.game).values_list("room_code", flat=True).first()
        return {"status": "paired", "game_id": seek.game_id, "url": reverse("room", kwargs={"code": code})}
    return waiting_status(seek)


def waiting_status(seek: Seek) -> dict:
    """The `status` frame of a waiting seek (see `seek_state`)."""
    return {"status": "waiting", "mode": seek.mode, "choice": seek.choice,
            "since_ms": int(seek.queued_at.timestamp() * 1000), "computer_offer": seek.computer_offered,
            "front": seek.front}
