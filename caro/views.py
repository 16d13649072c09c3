"""Site-wide pages: the health check (the home page is the rooms app's: it is where rooms start)."""

import logging
import sys

import psycopg
from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.i18n import JavaScriptCatalog
from django.views.decorators.http import require_safe
from psycopg_pool import PoolTimeout

log = logging.getLogger(__name__)


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when PostgreSQL and Redis answer, 503 "unavailable" otherwise (compose healthcheck).

    The body never names the failure (no exception class, host or message): details go to the log.
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        import redis

        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping()
    except Exception:  # noqa: BLE001 - any failure means unhealthy
        log.warning("healthz: unavailable", exc_info=True)
        return HttpResponse("unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


#: Seconds a client is asked to wait (Retry-After) when the database is briefly away: dev.py run
#: and compose start a dead PostgreSQL again within a few seconds.
DATABASE_AWAY_RETRY_S = 5
#: What "the database is away" looks like from a request: no pooled connection within the pool's
#: timeout, or a connection that fails (the server restarting).
DATABASE_AWAY = (PoolTimeout, OperationalError, InterfaceError, psycopg.OperationalError)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: a request Django could not take (a body over DATA_UPLOAD_MAX_MEMORY_SIZE or
    too many fields, a malformed or cut multipart body, a Host header not in ALLOWED_HOSTS, any
    `SuspiciousOperation` or `BadRequest`): the site's translated page in the visitor's language,
    not Django's plain English "Bad Request (400)"; under /api/ the API's JSON `{"error",
    "message"}`. Rendered without a request context: the request may have failed before the
    session or the user were read (a bad Host header), and nothing of it is shown back."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "bad_request",
                             "message": _("The server could not read this request; nothing was changed.")}, status=400)
    if isinstance(exception, RequestDataTooBig):
        return _too_big_answer(request) or HttpResponse(loader.get_template("400.html").render(),
                                                        status=PAYLOAD_TOO_LARGE)
    return HttpResponseBadRequest(loader.get_template("400.html").render())


#: The status of a body over DATA_UPLOAD_MAX_MEMORY_SIZE (Payload Too Large), on a page without
#: its own answer (`_too_big_answer`): the translated 400 page, whose words say "too large".
PAYLOAD_TOO_LARGE = 413


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: Django's own (the site's 404.html), except for a request whose body Django
    refuses to read: Django's view is wrapped in `requires_csrf_token`, whose CSRF check reads a
    POST's body when the request carries a `csrftoken` cookie (every browser does), and the
    RequestDataTooBig (or too many fields) it raised there escaped the handler as a 500
    (attack-8: a 3 MB POST to a missing address). Such a request gets `bad_request`'s answer
    (413 for a body too large) instead."""
    try:
        return defaults.page_not_found(request, exception)
    except (SuspiciousOperation, BadRequest) as refused:
        return bad_request(request, refused)


def _too_big_answer(request: HttpRequest) -> HttpResponse | None:
    """The page's own answer to a body over DATA_UPLOAD_MAX_MEMORY_SIZE, when the view resolved
    for the request has one (its `too_big` attribute, called with the URL's arguments: the import
    page gives its form back with why); None otherwise. The request's middleware had run (the
    body is read in a view or in the CSRF check), so that page renders with its context."""
    match = getattr(request, "resolver_match", None)
    answer = getattr(match.func, "too_big", None) if match is not None else None
    return answer(request, *match.args, **match.kwargs) if answer is not None else None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500. A request that failed because PostgreSQL is away (restarting, or no pooled
    connection came within the pool's timeout) answers 503 with Retry-After: the visitor did
    nothing wrong and a retry in a few seconds works; anything else is the site's 500 page.
    Under /api/ the answer is JSON `{"error", "message"}` as the API's other refusals.
    Rendered without a request context (context processors would read the database)."""
    away = isinstance(sys.exc_info()[1], DATABASE_AWAY)
    status = 503 if away else 500
    if request.path.startswith("/api/"):
        if away:
            body = {"error": "unavailable", "message": _("The server is restarting. Try again in a few seconds.")}
        else:
            body = {"error": "server_error", "message": _("Our server had a problem; nothing you did caused it.")}
        response = JsonResponse(body, status=status)
    else:
        template = loader.get_template("503.html" if away else "500.html")
        response = HttpResponse(template.render(), status=status)
    if away:
        response["Retry-After"] = str(DATABASE_AWAY_RETRY_S)
    return response


class PageLanguageCatalog(JavaScriptCatalog):
    """Django's JavaScript catalogue (`/jsi18n/`), in `?language=<code>` when that is one of
    settings.LANGUAGES, else in the visitor's language (cookie, then Accept-Language) as Django's
    own view. A page whose address fixes its language (a record: /van/N/, /en/game/N/) asks for
    its own, so its scripts' words match the page's even in a browser set to the other language.
    An unknown code is ignored (the visitor's language), never an error."""

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        asked = request.GET.get("language", "")
        if asked in dict(settings.LANGUAGES):
            with translation.override(asked):
                return super().get(request, *args, **kwargs)
        return super().get(request, *args, **kwargs)
