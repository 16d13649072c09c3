"""A fixed-window rate limit on imports, kept in Redis so every web process shares it.

Each import parses up to 1 MB and stores a game: IMPORTS_PER_WINDOW per client per
WINDOW_S is plenty for a person and cheap for the site. If Redis does not answer, imports are
allowed (the limit protects the site; it must not break it).
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.http import HttpRequest

log = logging.getLogger(__name__)

#: Imports one client (a signed-in user, else an IP address) may make per window.
IMPORTS_PER_WINDOW = 20
#: The window, in seconds.
WINDOW_S = 600
KEY_PREFIX = "records:imports:"

_client: redis.Redis | None = None


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    return _client


def client_key(request: HttpRequest) -> str:
    """Who is importing: "u<id>" for a signed-in user (guests included), else "ip<address>"."""
    if request.user.is_authenticated:
        return f"u{request.user.pk}"
    return f"ip{request.META.get('REMOTE_ADDR', '')}"


def allow_import(key: str) -> bool:
    """Count one import for `key`; False once it made more than the limit in this window
    (settings.CARO_IMPORTS_PER_WINDOW overrides IMPORTS_PER_WINDOW)."""
    limit = getattr(settings, "CARO_IMPORTS_PER_WINDOW", IMPORTS_PER_WINDOW)
    name = KEY_PREFIX + key
    try:
        pipe = _redis().pipeline()
        pipe.set(name, 0, ex=WINDOW_S, nx=True)  # the window starts with the first import
        pipe.incr(name)
        _, count = pipe.execute()
    except redis.RedisError:  # pragma: no cover - Redis down: do not refuse imports for it
        log.warning("import rate limit unavailable", exc_info=True)
        return True
    return count <= limit


def reset(key: str | None = None) -> None:
    """Forget the counts (of `key`, or all of them): for tests and for an admin's shell."""
    client = _redis()
    names = [KEY_PREFIX + key] if key else list(client.scan_iter(KEY_PREFIX + "*"))
    if names:
        client.delete(*names)
