"""Site-wide middleware of the project package."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _


class NulByteMiddleware:
    """An address holding a NUL byte (``%00``) is no page of the site: 404, before a view passes
    a part of it to PostgreSQL, whose text cannot hold one (the profile page,
    ``/nguoi-choi/%00/``, raised a 500). Query parameters and form fields are the views' own:
    Django's form fields refuse NUL with a translated error, and the views that read a
    parameter without a form check it (the room code's form says so in the visitor's language)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            raise Http404(_("There is no such page."))
        return self.get_response(request)


#: Seconds a refused client is told to wait (Retry-After) when a 429 does not say: the site's
#: per-minute limits (caro.rooms.limits, accounts.views' rename) count in one-minute windows.
RATE_WINDOW_S = 60


class RetryAfterMiddleware:
    """Every 429 (Too Many Requests) says when to try again: ``Retry-After`` in seconds (RFC 9110,
    15.5.20 and 10.2.3). An answer that set its own (the log-in lockout, its cool-off) keeps it;
    the per-minute limits get RATE_WINDOW_S, when their window has surely turned."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 429 and not response.has_header("Retry-After"):
            response["Retry-After"] = str(RATE_WINDOW_S)
        return response


class NotAllowedPageMiddleware:
    """Give a bare 405 (``require_POST`` and friends answer with an empty body) the site's own
    translated page: what happened in plain words and a link to the page with the forms.

    Django has no ``handler405``, so this is the one place that does it. The status stays 405 and
    the ``Allow`` header is kept; a 405 that already carries a body (an API's JSON, say) is left as
    it is.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or getattr(response, "streaming", False) or response.content:
            return response
        page = HttpResponse(render_to_string("405.html", request=request), status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
