"""Site-wide pages: home and health check."""

import logging

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from django.conf import settings

from caro.engine.caro import DEFAULT_PRESET, PRESETS, SIZES, WIN_LENGTHS
from caro.games.display import choice_summary
from caro.games.kinds import RULE_CHOICES, kind_for_choice
from caro.rooms.forms import ComputerRoomForm, FriendRoomForm, JoinByCodeForm, NewRoomForm

log = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    """The home page: how to play right now (friend room first in this release).

    `?preset=<slug>` (the guides' "play now with these rules") preselects that rule set.
    """
    slug = request.GET.get("preset")
    slug = slug if slug in RULE_CHOICES else DEFAULT_PRESET
    # The size and win length fields start from the chosen caro preset (the site's default for Reversi).
    rules = PRESETS[slug if kind_for_choice(slug).has_options else DEFAULT_PRESET].rules
    size = _int_choice(request.GET.get("size"), SIZES, rules.size)
    win_length = _int_choice(request.GET.get("win_length"), WIN_LENGTHS, rules.win_length)
    return render(
        request,
        "home.html",
        {
            "join_form": JoinByCodeForm(),
            "room_form": NewRoomForm(initial={"preset": slug, "size": size, "win_length": win_length}),
            "computer_form": ComputerRoomForm(),
            "friend_form": FriendRoomForm(),
            "rules_open": request.GET.get("rules") == "open",
            "rules_line": choice_summary(slug, size, win_length, settings.CARO_FRIEND_MOVE_TIME_MS),
        },
    )


def _int_choice(value: str | None, allowed, default: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number in allowed else default


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
