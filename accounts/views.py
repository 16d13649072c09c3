"""The guest rename: a guest clicks their name in the header and types another (htmx inline form).

Thin: the rules live in accounts.names and accounts.forms. Every sign-up, log-in and password page
is django-allauth's own (caro/urls.py mounts it under /tai-khoan/).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import is_ratelimited

from accounts import signals, visitors
from accounts.forms import GuestNameForm

#: Renames allowed per minute, per guest and per address (django-ratelimit, Redis cache).
RENAMES_PER_MINUTE = 10
#: HTTP status of a refused rename: bad input (400) and too many tries (429). An htmx request gets
#: the form with its error as 200 instead: htmx swaps only 2xx answers into the page.
BAD_REQUEST, TOO_MANY_REQUESTS = 400, 429


def _next_url(request: HttpRequest) -> str:
    """`next` when it is a path on this site ("/..."), else "/" (a bare word such as "zzz" is not an
    address: it used to reach `redirect()`, which took it for a URL name and failed after the rename
    was saved)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return "/"


def _limited(request: HttpRequest) -> bool:
    limited = False
    # A visitor without a user is counted by address alone (django-ratelimit's "user" key would put
    # every such visitor in one window).
    for key in ("user", "ip") if request.user.is_authenticated else ("ip",):
        limited |= is_ratelimited(request, group=f"accounts.rename.{key}", key=key,
                                  rate=f"{RENAMES_PER_MINUTE}/m", increment=True)
    return limited


def _answer(request: HttpRequest, form: GuestNameForm | None, status: int = 200, error: str | None = None) -> HttpResponse:
    """The inline form (htmx) or the full page, with `form` (None: the name itself, after a rename)."""
    context = {"form": form, "error": error, "next": _next_url(request)}
    if request.htmx:
        template = "account/guest_name.html" if form is None else "account/guest_name_form.html"
        return render(request, template, context)
    if form is None:
        return HttpResponseRedirect(context["next"])
    return render(request, "account/guest_rename.html", context, status=status)


@require_http_methods(["GET", "POST"])
def rename(request: HttpRequest) -> HttpResponse:
    """GET: the rename form. POST `name`: the guest's new shown name (accounts.names rules, no
    account's username, no other player's shown name, at most RENAMES_PER_MINUTE a minute); a
    visitor who is not a guest yet renames the name they were given (`accounts.visitors`), which
    their guest takes later. Accounts get a translated refusal; bad input changes nothing."""
    user = request.user
    visitor = getattr(request, "visitor", None) if not user.is_authenticated else None
    if visitor is None and (not user.is_authenticated or not user.is_guest):
        message = _("Only guests choose their name here: an account plays under its username.")
        if request.htmx:
            return render(request, "account/guest_name.html", {"error": message})
        messages.error(request, message)
        return redirect("home")
    guest = None if visitor is not None else user  # the form's user: None for a visitor without one
    if request.method == "GET":
        shown = visitor.name if visitor is not None else user.public_name
        return _answer(request, GuestNameForm(user=guest, initial={"name": shown}))
    form = GuestNameForm(request.POST, user=guest)
    if _limited(request):
        return _answer(request, form, TOO_MANY_REQUESTS,
                       _("You have changed your name many times in the last minute. Wait a minute, then try again."))
    if not form.is_valid():
        return _answer(request, form, BAD_REQUEST)
    name = form.cleaned_data["name"]
    if visitor is not None:  # kept in the visitor's cookie: no row is made
        visitors.rename(request, name)
    else:
        user.display_name = name
        user.save(update_fields=["display_name"])
        signals.renamed.send(sender=type(user), user=user)  # the rooms where the guest sits show it
    if not request.htmx:
        messages.success(request, _("Your name is now %(name)s.") % {"name": name})
    return _answer(request, None)
