"""Site-wide pages: the health check (the home page is the rooms app's: it is where rooms start)."""

import logging

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.conf import settings
from django.views.decorators.cache import never_cache

log = logging.getLogger(__name__)


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when PostgreSQL and Redis answer, 503 "unavailable" otherwise (compose healthcheck).

    The body never names the failure (no exception class, host or message): details go to the log.
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        import redis

        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping()
    except Exception:  # noqa: BLE001 - any failure means unhealthy
        log.warning("healthz: unavailable", exc_info=True)
        return HttpResponse("unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")
