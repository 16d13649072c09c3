"""The lobby of open rooms, the watch page and the live counts. Thin: the lists are `lobby.live`,
the counts `lobby.counts`, taking a seat `caro.rooms.services.join`."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from accounts.guests import ensure_player
from caro.games.errors import GameError
from caro.partials import render_page_or_part
from caro.rooms import services as rooms
from caro.rooms.limits import GUESTS_LIMIT_MESSAGE, http_limited
from caro.rooms.models import Room
from lobby import counts, live
from ranking import categories, choices


def _lobby_url(kind: str) -> str:
    return reverse("lobby") + (f"?{urlencode({'kind': kind})}" if kind else "")


def _kinds() -> list[tuple[str, str]]:
    """The filter's choices: ("", all), ("caro", …), ("reversi", …)."""
    return [("", _("All games")), ("caro", _("Caro")), ("reversi", _("Reversi"))]


@require_safe
@never_cache
def lobby(request: HttpRequest) -> HttpResponse:
    """The public lobby: open rooms waiting for a second player, newest first, `?kind=` caro or
    reversi. An htmx request (the filter) gets the list alone; the page's live socket keeps it
    current (lobby.consumers)."""
    kind = live.kind_filter(request.GET.get("kind"))
    context = {"rooms": live.open_rooms(kind), "kind": kind, "kinds": _kinds()}
    return render_page_or_part(request, "lobby/lobby.html", "lobby/open_rooms.html", context)


#: What the second of two people pressing the same room is told.
def _refusal(code: str, exc: GameError) -> str:
    if code in ("seat_taken", "game_over", "room_closed"):
        return _("Someone else took this seat a moment before you, or the room closed. Pick another room, "
                 "or create your own.")
    return exc.message


@require_POST
def take_seat(request: HttpRequest, code: str) -> HttpResponse:
    """Take the free seat of a lobby room: to the room as its second player, or back to the lobby
    with one clear message (the seat went to someone else, only accounts may take it, a ban, too
    many new guests from this network). A visitor without a name gets a guest name first, unless
    the room is for accounts only."""
    back = _lobby_url(live.kind_filter(request.POST.get("kind")))
    canonical = rooms.normalize_code(code)
    room = Room.objects.select_related("current_game").filter(code=canonical).first() if canonical else None
    if room is None:
        raise Http404
    user = request.user
    account = user.is_authenticated and not user.is_guest
    if room.accounts_only and not account and room.current_game.seat_of(user) is None:
        messages.error(request, GameError("accounts_only").message)
        return redirect(back)
    if not user.is_authenticated and http_limited(request, "guest"):
        messages.error(request, GUESTS_LIMIT_MESSAGE)
        return redirect(back)
    user = ensure_player(request)
    try:
        rooms.join(room, user)
    except GameError as exc:
        messages.error(request, _refusal(exc.code, exc))
        return redirect(back)
    return redirect("room", code=room.code)


@require_safe
@never_cache
def watch(request: HttpRequest) -> HttpResponse:
    """Live games between people, highest-rated first, `?kind=` caro or reversi; each opens its
    room as a spectator. An htmx request gets a part: the list's polling (target `live-games`) the
    list alone, a filter (the kind tabs) the tabs and the list (`lobby/watch_body.html`, with the
    page's title); htmx restoring the page from history, and a visit without JavaScript, the page."""
    kind = live.kind_filter(request.GET.get("kind"))
    context = {"games": live.live_games(kind), "kind": kind, "kinds": _kinds()}
    return render_page_or_part(request, "lobby/watch.html", "lobby/watch_body.html", context,
                               {"live-games": "lobby/live_games.html"})


@require_safe
@never_cache
def live_counts(request: HttpRequest) -> HttpResponse:
    """Who is here, as the home page's line (htmx polls it) or, with `?format=json`, as data for
    the match page's script: `{"online", "playing", "waiting": {"quick": {key: n}, "ranked": {slug: n}}}`.
    No query while the counts are fresh (lobby.counts)."""
    now = counts.current()
    if request.GET.get("format") == "json":
        return JsonResponse({key: now[key] for key in ("online", "playing", "waiting")})
    return render(request, "lobby/counts.html", counts_context(now))


def counts_context(now: dict) -> dict:
    """The counts template's context: the totals, and the waiting players per choice in words."""
    waiting = []
    for key, n in sorted(now.get("waiting", {}).get("quick", {}).items()):
        choice = choices.parse_quick(key)
        if choice is not None and n:
            waiting.append({"n": n, "line": choice.describe(), "mode": "quick", "key": key})
    for slug, n in sorted(now.get("waiting", {}).get("ranked", {}).items()):
        if slug in categories.BY_SLUG and n:
            waiting.append({"n": n, "line": _("Ranked: %(category)s") % {"category": categories.get(slug).name},
                            "mode": "ranked", "key": slug})
    return {"online": now["online"], "playing": now["playing"], "waiting": waiting}
