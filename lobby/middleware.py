"""Every page and poll marks its visitor online (`lobby.counts`)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from lobby import counts

#: Requests that do not mean a person is here: the health check, the browser's icon.
QUIET_PATHS = ("/healthz", "/favicon.ico")


class OnlineMiddleware:
    """After the response: mark the visitor (`counts.member_of`) online, one ZADD. A visitor who
    became a guest during the request (took a seat, sought a game) is counted once: their visitor
    member goes.

    A visitor without a user is counted only when the request carried their visitor cookie
    (`counts.visitor_member` of its cookies is their member): a request without it (a crawler, an
    uptime probe, a curl loop, or a browser's very first page) would otherwise be a new "person
    online" each time (attack-8: 100 cookieless GETs added 100). A browser's first page sets the
    cookie, and its live socket (which needs it) or its next request counts it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        was_anonymous = not request.user.is_authenticated
        response = self.get_response(request)
        if request.path in QUIET_PATHS:
            return response
        member = counts.member_of(request)
        if member is not None and member.startswith("v") and counts.visitor_member(request.COOKIES) != member:
            return response  # no visitor cookie came with it: nobody known is here
        if member is not None:
            counts.seen(member)
            visitor = getattr(request, "visitor", None)
            if was_anonymous and member.startswith("u") and visitor is not None:
                counts.forget(f"v{visitor.id}")
        return response
