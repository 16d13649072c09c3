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
    """The account a log-in attempt tried, as one counter name (AXES_USERNAME_CALLABLE).

    allauth's log-in form posts it as `login` and authenticates with `username=` or `email=`; the
    name, in any case, and the email address of one account must share ONE counter, or five wrong
    passwords under the name and five more under the address would double the attempts before a
    lockout. So a login naming an account (its username, case-insensitively, or one of its email
    addresses) counts under that account's username, case-folded; any other text counts under itself,
    case-folded. At most ATTEMPT_NAME_MAX characters (axes' AccessAttempt.username column): a longer
    name is cut, so a 256-character log-in is an ordinary wrong log-in, not a failed INSERT (a 500)."""
    value = None
    if credentials:
        value = credentials.get("username") or credentials.get("email") or credentials.get("login")
    if not value:
        data = getattr(request, "POST", None) or {}
        value = data.get("login") or data.get("username")
    if not value or not isinstance(value, str):
        return value
    value = value.strip()
    account = _account_username(value)
    return (account or value).casefold()[:ATTEMPT_NAME_MAX]


def _account_username(login: str) -> str | None:
    """The username of the one account `login` names (a username in any case, or an email address
    of the account, as allauth's log-in accepts both), or None."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    if not login or len(login) > ATTEMPT_NAME_MAX:
        return None
    users = get_user_model().objects
    if "@" in login:
        names = set(EmailAddress.objects.filter(email__iexact=login).values_list("user__username", flat=True)[:2])
        names |= set(users.filter(email__iexact=login).values_list("username", flat=True)[:2])
        return names.pop() if len(names) == 1 else None
    return users.filter(username__iexact=login).values_list("username", flat=True).first()


def locked_out(request: HttpRequest, credentials: dict | None = None, *args, **kwargs) -> HttpResponse:
    """The translated lockout page (AXES_LOCKOUT_CALLABLE), status LOCKED_OUT_STATUS."""
    minutes = round(settings.ACCOUNT_LOCKOUT_HOURS * 60)
    response = render(request, "account/lockout.html",
                      {"failures": settings.ACCOUNT_LOCKOUT_FAILURES, "minutes": minutes},
                      status=LOCKED_OUT_STATUS)
    response["Retry-After"] = str(round(settings.ACCOUNT_LOCKOUT_HOURS * 3600))  # the cool-off (AXES_COOLOFF_TIME)
    return response
