"""django-axes hooks: the name an attempt is counted under, and the page a locked-out person sees."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

#: HTTP status of the lockout page (Too Many Requests).
LOCKED_OUT_STATUS = 429


#: The longest attempted name axes can store (its AccessAttempt.username is a varchar(255)).
ATTEMPT_NAME_MAX = 255


def attempted_name(request: HttpRequest, credentials: dict | None) -> str | None:
    """The name or email address a log-in attempt tried, case-folded (AXES_USERNAME_CALLABLE).

    allauth's log-in form posts it as `login` and authenticates with `username=` or `email=`;
    folding the case keeps "Lan" and "lan" on one counter, as log-in ignores case too. At most
    ATTEMPT_NAME_MAX characters (axes' AccessAttempt.username column): a longer name is cut, so a
    256-character log-in is an ordinary wrong log-in, not a failed INSERT (a 500)."""
    value = None
    if credentials:
        value = credentials.get("username") or credentials.get("email") or credentials.get("login")
    if not value:
        data = getattr(request, "POST", None) or {}
        value = data.get("login") or data.get("username")
    return value.strip().casefold()[:ATTEMPT_NAME_MAX] if value else value


def locked_out(request: HttpRequest, credentials: dict | None = None, *args, **kwargs) -> HttpResponse:
    """The translated lockout page (AXES_LOCKOUT_CALLABLE), status LOCKED_OUT_STATUS."""
    minutes = round(settings.ACCOUNT_LOCKOUT_HOURS * 60)
    response = render(request, "account/lockout.html",
                      {"failures": settings.ACCOUNT_LOCKOUT_FAILURES, "minutes": minutes},
                      status=LOCKED_OUT_STATUS)
    response["Retry-After"] = str(round(settings.ACCOUNT_LOCKOUT_HOURS * 3600))  # the cool-off (AXES_COOLOFF_TIME)
    return response
