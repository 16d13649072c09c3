"""Guests: a visitor who is not signed in gets a guest user and a friendly generated name."""

import secrets

from django.contrib.auth import login
from django.db import IntegrityError, transaction
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


def ensure_player(request: HttpRequest) -> User:
    """Return the request's user, creating and logging in a guest when nobody is signed in; the
    guest keeps the name the visitor was shown (`accounts.visitors`) when nobody took it.

    The visitor's CSRF token is kept (`login` would rotate it): becoming a guest gives no
    credentials an anonymous visitor lacks, and a new token would make the next form posted from
    another tab, opened before, fail as out of date. Signing in to an account still rotates it
    (allauth's login)."""
    if request.user.is_authenticated:
        return request.user
    visitor = getattr(request, "visitor", None)  # the name shown since the first page (accounts.visitors)
    user = create_guest(visitor.name if visitor is not None else None)
    kept = request.META.get("CSRF_COOKIE")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if kept:
        request.META["CSRF_COOKIE"] = kept
    return user
