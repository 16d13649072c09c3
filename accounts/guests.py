"""Guests: a visitor who is not signed in gets a guest user and a friendly generated name."""

import logging
import secrets

from django.contrib.auth import login
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest

from accounts.models import User

# Vietnamese animal + adjective: friendly names that read the same in every language of the site.
_ANIMALS = ["Hổ", "Báo", "Ngựa", "Rồng", "Cọp", "Mèo", "Cá", "Chim", "Sóc", "Thỏ", "Voi", "Gấu"]
_ADJECTIVES = ["Xanh", "Đỏ", "Vàng", "Nhanh", "Giỏi", "Vui", "Hiền", "Mạnh", "Khôn", "Lanh"]


def generate_guest_name() -> str:
    """Return a display name such as "MèoXanh4821" (Vietnamese letters, 6-16 characters)."""
    return f"{secrets.choice(_ANIMALS)}{secrets.choice(_ADJECTIVES)}{secrets.randbelow(9000) + 1000}"


def create_guest(name: str | None = None) -> User:
    """Create and return a guest user with a unique username and `name` as its display name (the
    visitor's name before it was a guest), or a generated one when `name` is None or another
    player already shows it."""
    if name and User.objects.filter(display_name__iexact=name).exists():
        name = None
    for _attempt in range(10):
        name = name or generate_guest_name()
        try:
            with transaction.atomic():
                user = User(username=f"guest-{secrets.token_hex(6)}", display_name=name, is_guest=True)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:  # pragma: no cover - 48-bit random collision
            name = None
            continue
    raise RuntimeError("could not allocate a guest username")


log = logging.getLogger(__name__)

#: Seconds during which another request of the same visitor (the id of its signed cookie,
#: `accounts.visitors`) that also has no user yet joins the guest the first one made, instead of
#: making a second: two records sent at once by a new visitor's records queue (two tabs, or the
#: load and the `online` events) each made a guest, and the browser kept only the last one's
#: session, so the other guest and its game were lost to it. Longer than any such race, short
#: enough that a visitor whose session ended (cookies of the session cleared) soon gets a guest
#: of their own again.
JOIN_WINDOW_S = 120
_JOIN_KEY = "guest-of-visitor:{}"


def _guest_of_visitor(visitor) -> User:
    """The guest for a visitor with no user: the one another request of the same visitor made
    within JOIN_WINDOW_S, else a new one (remembered for that long). Requests of one visitor take
    a PostgreSQL advisory lock on its id, held to the end of the transaction, so the second waits
    until the first's guest is committed and then finds it. Without Redis, a new guest."""
    if connection.vendor != "postgresql":  # pragma: no cover - the site runs on PostgreSQL only
        return create_guest(visitor.name)
    key = _JOIN_KEY.format(visitor.id)
    with transaction.atomic():
        with connection.cursor() as cursor:  # the visitor's 16 hex digits as a signed 64-bit key
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int(visitor.id, 16) - (1 << 63)])
        try:
            made = cache.get(key)
        except Exception:  # noqa: BLE001 - Redis away: the race is rare, a guest still works
            log.warning("guests: Redis unavailable, a new guest for a visitor", exc_info=True)
            return create_guest(visitor.name)
        if made is not None:
            user = User.objects.filter(pk=made, is_guest=True, is_active=True).first()
            if user is not None:
                return user
        user = create_guest(visitor.name)
        try:
            cache.set(key, user.pk, JOIN_WINDOW_S)
        except Exception:  # noqa: BLE001
            log.warning("guests: Redis unavailable, a visitor's guest not remembered", exc_info=True)
        return user


def ensure_player(request: HttpRequest) -> User:
    """Return the request's user, creating and logging in a guest when nobody is signed in; the
    guest keeps the name the visitor was shown (`accounts.visitors`) when nobody took it.

    The visitor's CSRF token is kept (`login` would rotate it): becoming a guest gives no
    credentials an anonymous visitor lacks, and a new token would make the next form posted from
    another tab, opened before, fail as out of date. Signing in to an account still rotates it
    (allauth's login)."""
    if request.user.is_authenticated:
        return request.user
    user = new_guest_for(request)
    log_in_guest(request, user)
    return user


def new_guest_for(request: HttpRequest) -> User:
    """The guest `ensure_player` makes for a visitor with no user (or joins, `_guest_of_visitor`),
    not logged in yet: a caller that may still refuse the request makes it inside its transaction
    and logs it in (`log_in_guest`) only once that committed, so a refusal leaves no guest and no
    session behind."""
    visitor = getattr(request, "visitor", None)  # the name shown since the first page (accounts.visitors)
    return create_guest() if visitor is None else _guest_of_visitor(visitor)


def log_in_guest(request: HttpRequest, user: User) -> None:
    """Log the guest `user` in on `request`, keeping the visitor's CSRF token (see `ensure_player`)."""
    kept = request.META.get("CSRF_COOKIE")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if kept:
        request.META["CSRF_COOKIE"] = kept
