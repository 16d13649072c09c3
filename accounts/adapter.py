"""django-allauth hooks: a guest who signs up becomes the account (the same user row).

Every game seat and room points at the user row, so turning the guest's row into the account keeps
all of them (no copying, no merging). The adapter does not write passwords itself: allauth's
`save_user` sets the username, email and password on the row it gets from `new_user`.
"""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.http import HttpRequest

from accounts import names


class AccountAdapter(DefaultAccountAdapter):
    """allauth's adapter (ACCOUNT_ADAPTER) with guests turned into accounts, and our name rules."""

    def new_user(self, request: HttpRequest):
        """The signed-in guest's own row (so their games stay theirs), else a new user."""
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and getattr(user, "is_guest", False):
            return get_user_model().objects.get(pk=user.pk)
        return super().new_user(request)

    def save_user(self, request: HttpRequest, user, form, commit: bool = True):
        """allauth's save, then the row is an account: no longer a guest, shown by its username."""
        user = super().save_user(request, user, form, commit=False)
        user.is_guest = False
        user.display_name = ""
        if commit:
            user.save()
        return user

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Our name rules (accounts.names, normalised first), then allauth's case-insensitive clash check."""
        return super().clean_username(names.normalize(username), shallow=shallow)
