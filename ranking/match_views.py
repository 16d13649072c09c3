"""The matchmaking page. Thin: the choice comes from the query or the session; seeking itself
happens over the seek websocket (ranking.consumers)."""

from urllib.parse import urlencode

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.guests import ensure_player
from caro.engine.caro import SIZES
from caro.rooms.limits import GUESTS_LIMIT_MESSAGE, TOO_MANY_REQUESTS, http_limited
from ranking import categories, choices, pairing
from ranking.seeks import Seek
from ranking.tasks import COUNTS_KEY

#: The session key of the player's last quick-match choice (shown on the home page).
SESSION_CHOICE = "quick_choice"
#: Said on the game's page to a player sent back there from this page while the game goes on.
IN_GAME = _("Your game is still going on, so you are back in it. Finish it before looking for another.")


def waiting_text(n: int) -> str:
    """"3 players waiting" (translated; "" for nobody): the page's count beside a choice, the same
    words as the page's script writes when the seek socket sends new counts."""
    return ngettext("%(n)s player waiting", "%(n)s players waiting", n) % {"n": n} if n else ""


def current_choice(request: HttpRequest) -> choices.QuickChoice:
    """The visitor's quick-match choice: the session's, else the site's default."""
    return choices.parse_quick(request.session.get(SESSION_CHOICE)) or choices.parse_quick(choices.DEFAULT_QUICK)


def match(request: HttpRequest) -> HttpResponse:
    """The matchmaking page: quick match (choice, "Tìm ván nhanh", waiting, cancel, computer offer)
    and ranked match per category (accounts only). `?q=<key>` sets the quick choice, `?mode=ranked&q=
    <category>` a ranked one; `go=1` starts seeking at once (the home page's button, a requeue).

    A player whose quick or ranked game is still being played is sent back to it at once, with a
    line there saying why (the page's seek socket would send them there anyway, without a word)."""
    if request.user.is_authenticated:
        seek = pairing.seek_state(request.user)
        if seek["status"] == "paired":
            messages.info(request, IN_GAME)
            return redirect(seek["url"])
    mode = request.GET.get("mode") if request.GET.get("mode") in Seek.Mode.values else Seek.Mode.QUICK
    quick = current_choice(request)
    if request.GET.get("kind"):  # the choice form
        picked = choices.quick_from_form(request.GET.get("kind"), request.GET.get("size"),
                                         request.GET.get("blocked") == "on", request.GET.get("exact") == "on")
        quick = picked or quick
    elif mode == Seek.Mode.QUICK and choices.parse_quick(request.GET.get("q")):
        quick = choices.parse_quick(request.GET.get("q"))
    if request.user.is_authenticated or SESSION_CHOICE in request.session:
        request.session[SESSION_CHOICE] = quick.key
    category = request.GET.get("q") if mode == Seek.Mode.RANKED and request.GET.get("q") in categories.BY_SLUG else ""
    user = request.user
    # The counts when the page is made, so every visitor sees them (a visitor without a name yet
    # opens no seek socket; the socket's `waiting` frames update them for the others): the beat's
    # last ones (every second), else counted now.
    counts = cache.get(COUNTS_KEY) or pairing.waiting_counts()
    return render(request, "ranking/match.html", {
        "quick": quick,
        "quick_line": quick.describe(),
        "quick_count": waiting_text(counts.get(Seek.Mode.QUICK, {}).get(quick.key, 0)),
        "sizes": SIZES,
        "categories": [(cat, waiting_text(counts.get(Seek.Mode.RANKED, {}).get(cat.slug, 0)))
                       for cat in categories.CATEGORIES],
        "mode": mode,
        "category": category,
        "go": request.GET.get("go") == "1" and user.is_authenticated,
        "change": request.GET.get("change") == "1",
        "ranked_refusal": pairing.seek_refusal(user, Seek.Mode.RANKED) if user.is_authenticated else "guests_not_ranked",
        "ranked_refusal_text": pairing.SEEK_ERRORS["guests_not_ranked"],
        "signup_url": pairing.signup_url(),
        "computer_offer_s": pairing.COMPUTER_OFFER_S,
    })


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """"Tìm ván nhanh" from the home page or a visitor without a name yet: give the visitor a guest
    name if needed, then open the matchmaking page seeking the posted choice at once. A visitor
    who would get a guest name past CARO_GUESTS_PER_MINUTE_PER_ADDRESS gets the page again with
    the reason (429) and no guest, as on the home page's forms."""
    if not request.user.is_authenticated and http_limited(request, "guest"):
        messages.error(request, GUESTS_LIMIT_MESSAGE)
        response = match(request)
        response.status_code = TOO_MANY_REQUESTS
        return response
    ensure_player(request)
    mode = request.POST.get("mode") if request.POST.get("mode") in Seek.Mode.values else Seek.Mode.QUICK
    key = request.POST.get("q", "")
    if mode == Seek.Mode.QUICK:
        key = (choices.parse_quick(key) or current_choice(request)).key
        request.session[SESSION_CHOICE] = key
    elif key not in categories.BY_SLUG:
        key = categories.CATEGORIES[0].slug
    return redirect(f"{reverse('match')}?{urlencode({'mode': mode, 'q': key, 'go': '1'})}")
