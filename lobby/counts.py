"""Who is here: people online, games being played, players waiting per quick-match choice and
rated category. Counters, never a COUNT per request (issue 30: cheap at 100,000 players).

- **Online** is a Redis sorted set of visitors (`u<user id>`, or `v<visitor id>` for a visitor
  without a user: `accounts.visitors`) scored by when they were last seen: every page or poll
  (`middleware.OnlineMiddleware`), every live socket's ping, and the players and named spectators
  of open game sockets (`Connection` rows, merged every `SOCKETS_MERGE_S`). The count is the set's
  size once everyone older than `ONLINE_WINDOW_S` is trimmed.
- **Playing** is the number of games in play (people's and the computer's), **waiting** the live
  seeks per choice (`ranking.pairing.waiting_counts`, which the pairing beat keeps in the cache).

`recount` runs on the beat every `COUNTS_FRESH_S` (`lobby.tasks.recount`) and writes one cache
entry; a page reads it (`current`). When the beat is late (or absent: tests, a bare `runserver`),
the first reader after `COUNTS_FRESH_S` recounts, at most one at a time (a cache lock), so the
counting never runs more than about once per period, whatever the traffic.
"""

from __future__ import annotations

import functools
import logging
import time
from datetime import timedelta

import redis
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from accounts import visitors
from caro.games.models import Connection, Game
from caro.games.services.presence import STALE_CONNECTION_S
from ranking import pairing
from ranking.tasks import COUNTS_KEY as WAITING_KEY

log = logging.getLogger(__name__)

#: The Redis sorted set of visitors seen (member -> Unix time, s).
ONLINE_KEY = "caro:online"
#: A visitor not seen for this long is no longer online, s.
ONLINE_WINDOW_S = 120
#: The counts' cache entry, and how long it counts as fresh (s); kept this long without a recount (s).
COUNTS_KEY = "lobby:counts"
COUNTS_FRESH_S = 2
COUNTS_TTL_S = 60
#: The lock that lets one reader recount when the beat is late.
RECOUNT_LOCK = "lobby:counts:lock"
#: Players and spectators of open game sockets are merged into the online set this often, s.
SOCKETS_MERGE_S = 15
SOCKETS_LOCK = "lobby:counts:sockets"


@functools.cache
def _redis():
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)


def member_of(request) -> str | None:
    """The online set's member for a request: `u<id>` for a user, `v<id>` for a visitor without
    one, None when neither is known."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"u{user.pk}"
    visitor = getattr(request, "visitor", None)
    return f"v{visitor.id}" if visitor is not None else None


def visitor_member(cookies: dict) -> str | None:
    """The online set's member `v<visitor id>` of a socket's cookies, or None without a visitor
    cookie (`accounts.visitors.id_in`)."""
    ident = visitors.id_in(cookies)
    return f"v{ident}" if ident else None


def seen(*members: str, now: float | None = None) -> None:
    """Mark `members` online now (one ZADD). Never raises: a Redis outage only makes the count stale."""
    members = [m for m in members if m]
    if not members:
        return
    stamp = now if now is not None else time.time()
    try:
        _redis().zadd(ONLINE_KEY, {member: stamp for member in members})
    except redis.RedisError:  # pragma: no cover - Redis down
        log.warning("could not mark visitors online", exc_info=True)


def forget(member: str) -> None:
    """Take `member` off the online set (a visitor who just became a guest is counted once)."""
    try:
        _redis().zrem(ONLINE_KEY, member)
    except redis.RedisError:  # pragma: no cover - Redis down
        log.warning("could not forget an online visitor", exc_info=True)


def recount(now: float | None = None) -> dict:
    """Count now and store the counts (`COUNTS_KEY`); returns them:
    `{"online": n, "playing": n, "waiting": {"quick": {key: n}, "ranked": {slug: n}}, "at": Unix s}`.
    Queries: one COUNT of the games in play (an index range), the waiting counts when the pairing
    beat has none in the cache, and every `SOCKETS_MERGE_S` the users of open game sockets."""
    stamp = now if now is not None else time.time()
    if cache.add(SOCKETS_LOCK, 1, SOCKETS_MERGE_S):
        cutoff = timezone.now() - timedelta(seconds=STALE_CONNECTION_S)
        users = (Connection.objects.filter(seen_at__gte=cutoff, user__isnull=False)
                 .values_list("user_id", flat=True).distinct())
        seen(*(f"u{uid}" for uid in users), now=stamp)
    online = 0
    try:
        pipe = _redis().pipeline()
        pipe.zremrangebyscore(ONLINE_KEY, "-inf", stamp - ONLINE_WINDOW_S)
        pipe.zcard(ONLINE_KEY)
        online = pipe.execute()[1]
    except redis.RedisError:  # pragma: no cover - Redis down
        log.warning("could not count the visitors online", exc_info=True)
    counts = {
        "online": online,
        "playing": Game.objects.active().count(),
        "waiting": cache.get(WAITING_KEY) or pairing.waiting_counts(),
        "at": stamp,
    }
    cache.set(COUNTS_KEY, counts, COUNTS_TTL_S)
    return counts


def current(now: float | None = None) -> dict:
    """The counts as last stored, recounted first when they are older than `COUNTS_FRESH_S` and no
    other reader is recounting (see the module docstring), with the waiting players as the pairing
    beat last wrote them (every second: fresher than the stored counts' copy, which is up to
    `COUNTS_FRESH_S` older). No query when fresh; one cache round trip."""
    stamp = now if now is not None else time.time()
    found = cache.get_many([COUNTS_KEY, WAITING_KEY])
    counts, waiting = found.get(COUNTS_KEY), found.get(WAITING_KEY)
    if counts is None or (stamp - counts["at"] >= COUNTS_FRESH_S and cache.add(RECOUNT_LOCK, 1, COUNTS_FRESH_S)):
        counts = recount(stamp)
    return counts if waiting is None else {**counts, "waiting": waiting}


def waiting_total(counts: dict) -> int:
    """Every player waiting, quick and ranked."""
    return sum(n for mode in counts.get("waiting", {}).values() for n in mode.values())
