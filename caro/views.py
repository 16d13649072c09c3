"""Site-wide pages: home and health check."""

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from django.conf import settings

from caro.engine.caro import PRESETS
from caro.games.display import rules_summary
from caro.rooms.forms import JoinByCodeForm


def home(request: HttpRequest) -> HttpResponse:
    """The home page: how to play right now (friend room first in this release)."""
    return render(
        request,
        "home.html",
        {
            "join_form": JoinByCodeForm(),
            "rules_line": rules_summary(PRESETS["caro-vn"].rules, settings.CARO_FRIEND_MOVE_TIME_MS),
        },
    )


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when PostgreSQL and Redis answer, 503 otherwise (compose healthcheck)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        import redis

        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return HttpResponse(f"unhealthy: {type(exc).__name__}", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")
