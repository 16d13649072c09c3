"""POST /api/local-games/ (URL name `local_game_upload`): the record of a game played on the
player's own device, sent by the page's records queue when the game ends or the network is back
(docs/protocol.md, "Records of games played on the device"; CONTRACTS.md section 4).

Thin: `caro.games.uploads.read` judges the record (every move replayed by the engine, the result
checked), `caro.games.services.records.store_played` stores it exactly once. Answers are JSON:
201 `{"url", "id"}` for a new game, 200 the same for a record stored before, 400 `{"error",
"message"}` for a refused record (nothing changed), 403 for a banned user, 405 for another method,
429 over the per-minute limits. CSRF is checked as on every POST of the site (`X-CSRFToken`).
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.guests import log_in_guest, new_guest_for
from caro.games import uploads
from caro.games.errors import GameError
from caro.games.services.records import answer_repeat, find_played, store_played
from caro.records.links import record_url, url_language
from caro.rooms.limits import GUESTS_LIMIT_MESSAGE, TOO_MANY_REQUESTS, http_limited

CREATED, REPEATED, BAD_REQUEST, FORBIDDEN, NOT_ALLOWED = 201, 200, 400, 403, 405

#: Said to a browser over CARO_RECORDS_PER_MINUTE_PER_ADDRESS / _PER_SESSION.
RECORDS_LIMIT_MESSAGE = gettext_lazy("Many game records were sent from here in the last minute. Wait a minute, "
                                     "then send them again.")


def _refusal(status: int, code: str, message) -> JsonResponse:
    return JsonResponse({"error": code, "message": str(message)}, status=status)


def upload(request: HttpRequest) -> JsonResponse:
    """Store the posted record as a finished, unrated game of the visitor (a guest if nobody is
    signed in), once per record id; see the module docstring for the answers."""
    if request.method != "POST":
        response = _refusal(NOT_ALLOWED, "method", _("Send game records with POST."))
        response["Allow"] = "POST"
        return response
    if http_limited(request, "record"):
        return _refusal(TOO_MANY_REQUESTS, "rate_limited", RECORDS_LIMIT_MESSAGE)
    try:
        if _content_length(request) > uploads.MAX_BODY_BYTES:
            raise uploads.UploadError("too_large")
        record = uploads.read(uploads.parse_body(request.body), timezone.now())
        user = request.user if request.user.is_authenticated else None
        if user is None:  # a visitor with no user yet: made a guest, who then owns the record
            found = find_played(record)
            if found is not None:
                answer_repeat(found, record, None)  # another game under this id: id_taken, before any guest
                if not (found.host and found.host.is_guest):
                    return _answer(found, REPEATED)  # an account's: its public page
            if http_limited(request, "guest"):
                return _refusal(TOO_MANY_REQUESTS, "rate_limited", GUESTS_LIMIT_MESSAGE)
            game, created = _store_as_new_guest(request, record)
        else:
            game, created = store_played(record, user)
    except uploads.UploadError as exc:
        return _refusal(BAD_REQUEST, exc.code, exc.message)
    except GameError as exc:  # a ban in force
        return _refusal(FORBIDDEN, exc.code, exc.message)
    return _answer(game, CREATED if created else REPEATED)


def _store_as_new_guest(request: HttpRequest, record):
    """`store_played` for a visitor with no user, as the guest `ensure_player` would make, in ONE
    transaction, logged in only once it committed: a record refused even so (another game stored
    under its id at the same moment) leaves no guest behind and the visitor logged out, with no
    session cookie (a 400 changes nothing, docs/protocol.md)."""
    with transaction.atomic():
        guest = new_guest_for(request)
        game, created = store_played(record, guest)
    log_in_guest(request, guest)
    return game, created


def _content_length(request: HttpRequest) -> int:
    """The announced body length (0 when absent); the body itself is measured again when read."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise uploads.UploadError("malformed", field="Content-Length") from None


def _answer(game, status: int) -> JsonResponse:
    return JsonResponse({"url": record_url(game.pk, url_language()), "id": game.pk}, status=status)


__all__ = ["upload"]
