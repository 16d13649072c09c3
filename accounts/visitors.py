"""A visitor who has no user yet (nobody signed in, no guest made) still has a name from the first
page: a generated guest name kept in a signed cookie, with a random id (issue 30, "the guest's
name in the header from the first page").

No database row is made for it: a crawler or a one-page visit costs nothing. The visitor may
rename it with a click (the rename form checks the name rules and that no player shows it); when
the visitor becomes a guest (`guests.ensure_player`: taking a seat, a quick match, a room of their
own), the guest gets this name when nobody took it meanwhile.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.core import signing
from django.http import HttpRequest, HttpResponse

from accounts import names
from accounts.guests import generate_guest_name

#: The cookie holding `[id, name]`, signed and base64-encoded (`django.core.signing.dumps`: a cookie
#: carries ASCII only, and the names are Vietnamese).
COOKIE = "caro_visitor"
SALT = "accounts.visitor"
#: A visitor keeps the name a year (as a guest's session is kept, settings.SESSION_COOKIE_AGE).
MAX_AGE_S = 365 * 24 * 3600


@dataclass
class Visitor:
    """`id`: 16 hex digits, stable while the cookie lives; `name`: the shown name; `changed`: the
    cookie must be (re)written with the response."""

    id: str
    name: str
    changed: bool = False


def _load(raw: str | None) -> tuple[object, object]:
    """`(id, name)` from a visitor cookie's value, `("", "")` when missing, forged or too old."""
    try:
        ident, name = signing.loads(raw, salt=SALT, max_age=MAX_AGE_S) if raw else ("", "")
    except (signing.BadSignature, ValueError, TypeError):
        ident, name = "", ""
    return ident, name


def id_in(cookies: dict) -> str | None:
    """The visitor id of a socket's or a request's cookies (`{name: value}`), or None when they
    hold no valid visitor cookie. No new visitor is made (a socket cannot set a cookie)."""
    ident, _name = _load(cookies.get(COOKIE))
    return ident if isinstance(ident, str) and len(ident) == 16 else None


def read(request: HttpRequest) -> Visitor:
    """The request's visitor from its cookie, or a new one (a new id and a generated name) when the
    cookie is missing, forged or holds a name the rules now refuse."""
    ident, name = _load(request.COOKIES.get(COOKIE))
    if isinstance(ident, str) and isinstance(name, str):
        if len(ident) == 16 and name:
            try:
                return Visitor(ident, names.validate_name(name))
            except Exception:  # noqa: BLE001 - a name the rules refuse now: a new one below
                pass
    return Visitor(secrets.token_hex(8), generate_guest_name(), changed=True)


def rename(request: HttpRequest, name: str) -> None:
    """Keep `name` (already validated) as the visitor's shown name."""
    visitor = request.visitor
    visitor.name = name
    visitor.changed = True


class VisitorMiddleware:
    """`request.visitor` for every request (after the authentication middleware); the cookie is
    written when it is new or renamed, and only while nobody is signed in (a guest's or an
    account's name is the user's)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.visitor = read(request)
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if request.visitor.changed and not (user is not None and user.is_authenticated):
            response.set_cookie(COOKIE, signing.dumps([request.visitor.id, request.visitor.name], salt=SALT),
                                max_age=MAX_AGE_S, httponly=True, samesite="Lax", secure=request.is_secure())
        return response
