"""Limits per address and per session: websockets open at once, rooms, records of games played on
the device and guests created per minute.

Every limit is a setting read from the environment (caro/settings.py, "Limits"); 0 turns one off.

- Websockets: counted in Redis, so several Daphne processes share one count. Each open socket is a
  member (its channel name) of a sorted set per address, per address and room, per user and per
  user and room, scored by the moment its lease ends (Unix seconds). The consumer renews its lease
  every `WS_LEASE_RENEW_S` while it is open and removes itself when it closes; a socket of a process
  that died stops counting when its lease ends (`WS_LEASE_S`). Checking and adding is one Lua script,
  so two processes cannot both take the last place.
- Rooms, records and guests per minute: django-ratelimit's fixed windows in the Redis cache (CACHES).

When Redis does not answer, the limits let the request through (logged): the site keeps working with
the database alone rather than refusing everyone. A command that meets a dropped connection (a Redis
restarted: every pooled connection is dead) is sent once more on a fresh connection; what still fails
is one warning line without a traceback per kind and per `FAILURE_LOG_S` in a process, with the count
since the last one (2,000 open sockets meeting a restart were 2,000 tracebacks).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

import redis
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import is_ratelimited

log = logging.getLogger(__name__)

#: Lease of one open socket in the Redis count, seconds (a crashed process's sockets stop counting
#: after at most this long).
WS_LEASE_S = 90
#: How often an open socket renews its lease, seconds (well under WS_LEASE_S).
WS_LEASE_RENEW_S = 30
#: Prefix of the Redis keys of the socket counts.
WS_KEY_PREFIX = "caro:ws"
#: Times a command is sent again, at once and on a fresh connection, after a connection error (not
#: after a timeout: a Redis that does not answer is not asked twice as long).
CONNECTION_RETRIES = 1
#: Failures of one kind (acquire, renew, release) are logged at most once this often per process, s.
FAILURE_LOG_S = WS_LEASE_RENEW_S

# KEYS: the sorted sets; ARGV: now, lease end, member, lease seconds, then one limit per key.
# Returns 0 when the socket was added to every set, else the 1-based index of the first full set.
_ACQUIRE = """
local now, expires, member, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local limit = tonumber(ARGV[4 + i])
  if redis.call('ZSCORE', key, member) == false and redis.call('ZCARD', key) >= limit then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, expires, member)
  redis.call('EXPIRE', key, lease)
end
return 0
"""

_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _client() -> aioredis.Redis:
    """One asyncio Redis client per event loop (a client cannot move between loops)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        # settings.REDIS_CONNECTION_OPTIONS: no handshake commands Redis 6.2 refuses (their
        # refusals were garbage in reference cycles, frozen for good when a freeze caught them).
        # retry: redis-py's from_url sends a command once (Retry(NoBackoff(), 0)); after a Redis
        # restart every pooled connection fails once, and the renewal of every open socket with it.
        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5,
                                         **settings.REDIS_CONNECTION_OPTIONS,
                                         retry=Retry(NoBackoff(), CONNECTION_RETRIES, (redis.ConnectionError,)))
        _clients[loop] = client
    return client


class _Failures:
    """This process's failed Redis calls of one kind: the first is logged (one line, no traceback:
    the error's type and text say enough), then one line per FAILURE_LOG_S with the count since."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.count = 0
        self.logged_at: float | None = None

    def failed(self, exc: BaseException) -> None:
        self.count += 1
        now = time.monotonic()
        if self.logged_at is None or now - self.logged_at >= FAILURE_LOG_S:
            log.warning("socket limits: %s (%d time(s) since the last warning; %s: %s)",
                        self.what, self.count, type(exc).__name__, exc)
            self.count, self.logged_at = 0, now


ACQUIRE_FAILURES = _Failures("Redis unavailable, socket let through")
RENEW_FAILURES = _Failures("could not renew a lease")
RELEASE_FAILURES = _Failures("could not release a place (its lease will end)")


def client_address(scope: dict) -> str | None:
    """The peer address of an ASGI connection (behind a proxy: run Daphne with --proxy-headers)."""
    client = scope.get("client")
    return client[0] if client else None


class SocketSlot:
    """The place of one open websocket in the Redis counts (see the module docstring)."""

    def __init__(self, member: str, address: str | None, user_id: int | None, room: str) -> None:
        self.member = member
        limits = []  # (key, limit): only the limits that apply and are switched on
        if address:
            limits += [(f"{WS_KEY_PREFIX}:addr:{address}", settings.CARO_WS_PER_ADDRESS),
                       (f"{WS_KEY_PREFIX}:addr:{address}:{room}", settings.CARO_WS_PER_ADDRESS_ROOM)]
        if user_id is not None:
            limits += [(f"{WS_KEY_PREFIX}:user:{user_id}", settings.CARO_WS_PER_SESSION),
                       (f"{WS_KEY_PREFIX}:user:{user_id}:{room}", settings.CARO_WS_PER_SESSION_ROOM)]
        self.limits = [(key, limit) for key, limit in limits if limit > 0]
        self._renewer: asyncio.Task | None = None

    async def acquire(self) -> bool:
        """Take a place in every count; False (and nothing taken) when one is full."""
        if not self.limits:
            return True
        now = time.time()
        try:
            full = await _client().eval(
                _ACQUIRE, len(self.limits), *(key for key, _ in self.limits),
                now, now + WS_LEASE_S, self.member, WS_LEASE_S, *(limit for _, limit in self.limits),
            )
        except (redis.RedisError, OSError) as exc:
            ACQUIRE_FAILURES.failed(exc)
            return True
        if full:
            return False
        self._renewer = asyncio.ensure_future(self._renew())
        return True

    async def _renew(self) -> None:
        """Every WS_LEASE_RENEW_S, extend the lease in every count, adding the socket again where it
        is missing: a Redis restarted (or its keys evicted) forgot every open socket, which must
        count again against the limits at the next renewal, not stay uncounted until it closes. A
        renewal after `release` cannot happen: release cancels this task first."""
        while True:
            await asyncio.sleep(WS_LEASE_RENEW_S)
            try:
                pipe = _client().pipeline(transaction=False)
                for key, _limit in self.limits:
                    pipe.zadd(key, {self.member: time.time() + WS_LEASE_S})
                    pipe.expire(key, WS_LEASE_S)
                await pipe.execute()
            except (redis.RedisError, OSError) as exc:
                RENEW_FAILURES.failed(exc)

    async def release(self) -> None:
        """Leave every count (the socket closed)."""
        if self._renewer is None:
            return
        self._renewer.cancel()
        self._renewer = None
        try:
            pipe = _client().pipeline(transaction=False)
            for key, _limit in self.limits:
                pipe.zrem(key, self.member)
            await pipe.execute()
        except (redis.RedisError, OSError) as exc:
            RELEASE_FAILURES.failed(exc)


#: HTTP status of a request refused by a per-minute limit (Too Many Requests).
TOO_MANY_REQUESTS = 429

#: Said to a visitor refused a guest name by CARO_GUESTS_PER_MINUTE_PER_ADDRESS (every page that
#: makes guests: new rooms, quick match).
GUESTS_LIMIT_MESSAGE = _("Many new players have come from your network in the last minute. Wait a minute, "
                         "then try again.")


def http_limited(request: HttpRequest, action: str) -> bool:
    """Count one `action` ("room", "record" or "guest") for this request; True when over a
    per-minute limit.

    "room": CARO_ROOMS_PER_MINUTE_PER_ADDRESS and, for a signed-in visitor or a guest,
    CARO_ROOMS_PER_MINUTE_PER_SESSION; "record" (a game played on the device, sent as a record):
    CARO_RECORDS_PER_MINUTE_PER_ADDRESS and CARO_RECORDS_PER_MINUTE_PER_SESSION; "guest":
    CARO_GUESTS_PER_MINUTE_PER_ADDRESS.
    """
    checks = []
    if action in ("room", "record"):
        name = "ROOMS" if action == "room" else "RECORDS"
        checks.append(("ip", getattr(settings, f"CARO_{name}_PER_MINUTE_PER_ADDRESS")))
        if request.user.is_authenticated:
            checks.append(("user", getattr(settings, f"CARO_{name}_PER_MINUTE_PER_SESSION")))
    elif action == "guest":
        checks.append(("ip", settings.CARO_GUESTS_PER_MINUTE_PER_ADDRESS))
    else:  # pragma: no cover - programming error
        raise ValueError(action)
    limited = False
    for key, per_minute in checks:
        if per_minute <= 0:
            continue
        try:
            limited |= is_ratelimited(request, group=f"caro.{action}.{key}", key=key,
                                      rate=f"{per_minute}/m", increment=True)
        except (redis.RedisError, OSError):
            log.warning("rate limits: Redis unavailable, request let through", exc_info=True)
    return limited
