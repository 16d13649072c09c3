"""Guests: a visitor who is not signed in gets a guest user and a friendly generated name."""

import secrets

from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from accounts.models import User

# Vietnamese-flavoured, language-neutral name parts: they read as names, not as sentences.
_ANIMALS = ["Ho", "Bao", "Ngua", "Rong", "Cop", "Meo", "Ca", "Chim", "Soc", "Tho", "Voi", "Gau"]
_ADJECTIVES = ["Xanh", "Do", "Vang", "Nhanh", "Gioi", "Vui", "Hien", "Manh", "Khon", "Lanh"]


def generate_guest_name() -> str:
    """Return a display name such as "MeoXanh4821" (ASCII, 6-16 characters)."""
    return f"{secrets.choice(_ANIMALS)}{secrets.choice(_ADJECTIVES)}{secrets.randbelow(9000) + 1000}"


def create_guest() -> User:
    """Create and return a guest user with a unique username and a generated display name."""
    for _attempt in range(10):
        name = generate_guest_name()
        try:
            with transaction.atomic():
                user = User(username=f"guest-{secrets.token_hex(6)}", display_name=name, is_guest=True)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:  # pragma: no cover - 48-bit random collision
            continue
    raise RuntimeError("could not allocate a guest username")


def ensure_player(request: HttpRequest) -> User:
    """Return the request's user, creating and logging in a guest when nobody is signed in."""
    if request.user.is_authenticated:
        return request.user
    user = create_guest()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user
