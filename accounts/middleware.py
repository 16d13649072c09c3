"""Guests are logged in (a real user row, accounts.guests) but have no account: allauth's pages for
managing an account must treat them as the anonymous visitors they are to allauth."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

#: allauth's pages behind ``login_required`` that only an account can use (a password, emails,
#: re-authentication, a phone, connected social accounts), by URL name.
ACCOUNT_ONLY_URL_NAMES = frozenset({
    "account_set_password", "account_change_password", "account_email", "account_reauthenticate",
    "account_request_reauthentication_code", "account_confirm_reauthentication_code",
    "account_change_phone", "socialaccount_connections",
})


class GuestsAreAnonymousOnAccountPagesMiddleware:
    """A guest who opens one of ACCOUNT_ONLY_URL_NAMES goes to the sign-up page (with ``next``, as
    ``login_required`` sends an anonymous visitor to the log-in page), told why in a translated
    message; signing up turns the guest into the account, which then may open the page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        match = request.resolver_match
        user = getattr(request, "user", None)
        if match is None or match.url_name not in ACCOUNT_ONLY_URL_NAMES:
            return None
        if user is None or not user.is_authenticated or not getattr(user, "is_guest", False):
            return None
        messages.info(request, _("Guests have no password or email here: sign up (you keep your name and "
                                 "games) or log in to your account first."))
        return redirect(f"{reverse('account_signup')}?{urlencode({'next': request.get_full_path()})}")
