"""Friend room pages. Thin: identity and forms here, every game change in the services."""

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.guests import ensure_player
from caro.games import services as games
from caro.games.display import game_summary
from caro.games.errors import GameError
from caro.rooms import services as rooms
from caro.rooms.forms import ComputerRoomForm, JoinByCodeForm, NewRoomForm
from caro.rooms.limits import http_limited
from caro.games.models import Game
from caro.rooms.models import Room


@require_POST
def create_room(request: HttpRequest, kind: str = Room.Kind.FRIEND) -> HttpResponse:
    """Create a room (friend, computer or local) with the visitor (a guest if not signed in) seated."""
    form = (ComputerRoomForm if kind == Room.Kind.COMPUTER else NewRoomForm)(request.POST)
    if not form.is_valid():
        for error in form.non_field_errors() or [_("Some choices were not valid: pick them from the lists.")]:
            messages.error(request, error)
        # Back to the home page with the choices kept and the rules panel open.
        kept = {k: v for k in ("preset", "size", "win_length") if (v := request.POST.get(k, "")[:20])}
        return redirect(f"{reverse('home')}?{urlencode({**kept, 'rules': 'open'})}")
    refused = _over_limit(request, "room")
    if refused is not None:
        return refused
    user = ensure_player(request)
    data = form.cleaned_data
    extra = {"bot_level": data["level"], "side": data["side"]} if kind == Room.Kind.COMPUTER else {}
    room = rooms.create_room(user, data["preset"], size=data["size"], win_length=data["win_length"],
                             kind=kind, **extra)
    return redirect("room", code=room.code)


def join_by_code(request: HttpRequest) -> HttpResponse:
    """The "enter a code" form: redirect to the room, or back home with a clear error."""
    form = JoinByCodeForm(request.GET or None)
    if form.is_valid():
        code = form.cleaned_data["code"]
        if code and Room.objects.filter(code=code).exists():
            return redirect("room", code=code)
        typed = form.cleaned_data["typed"]
        messages.error(request, _("No room has the code %(code)s. Check it with your friend.")
                       % {"code": f"{typed[:3]} {typed[3:]}"})
    else:
        for error in form.errors.get("code", []):
            messages.error(request, error)
    return redirect("home")


def room(request: HttpRequest, code: str) -> HttpResponse:
    """The room page: the board, both seats, and the share link and code."""
    canonical = rooms.normalize_code(code)
    if canonical is None:
        raise Http404
    if canonical != code:
        return redirect("room", code=canonical)
    room = Room.objects.select_related("current_game__x_player", "current_game__o_player").filter(code=code).first()
    if room is None:
        raise Http404
    game = room.current_game
    seat = game.seat_of(request.user)
    size = games.board_size(game)
    letters = [chr(ord("a" if game.kind == Game.Kind.REVERSI else "A") + i) for i in range(size)]
    share_url = request.build_absolute_uri(reverse("room", kwargs={"code": room.code}))
    return render(
        request,
        "rooms/room.html",
        {
            "room": room,
            "game": game,
            "seat": seat,
            "can_join": seat is None and not game.is_over and bool(games.open_seat(game)),
            "level_choices": Game.BotLevel.choices,
            "size": size,
            "rows": [{"number": r, "squares": [f"{c}{r}" for c in letters]} for r in range(1, size + 1)],
            "columns": letters,
            "share_url": share_url,
            "rules_line": game_summary(game),
            "state": games.public_state(game) | {"you": seat},
            "i18n": room_strings(),
        },
    )


def room_strings() -> dict:
    """Translated strings for static/js/room.js (placeholders use the %(name)s form)."""
    return {
        "empty": _("empty"),
        "last_move": _("last move"),
        "winning_line": _("winning line"),
        "open_seat": _("free seat"),
        "you": _("you"),
        "waiting": _("Waiting for an opponent: share the link or the code."),
        "seat_free": _("A seat is free: take it to play, or just watch."),
        "your_turn": _("Your turn."),
        "thinking": _("The computer is thinking…"),
        "bot_names": {"easy": _("Computer (Easy)"), "medium": _("Computer (Medium)"), "hard": _("Computer (Hard)")},
        "local_turn": _("%(side)s to move."),
        "colors": {"X": _("Black"), "O": _("White")},
        "passed": _("%(side)s has no legal move and passes."),
        "to_move": _("%(side)s to move (%(name)s)."),
        "you_won": {
            "five": _("You won with five in a row!"),
            "discs": _("You won: more discs!"),
            "timeout": _("You won: your opponent ran out of time."),
            "resign": _("You won: your opponent resigned."),
        },
        "you_lost": {
            "five": _("You lost: your opponent made five in a row."),
            "discs": _("You lost: fewer discs."),
            "timeout": _("You lost: your time ran out."),
            "resign": _("You resigned."),
        },
        "side_won": {
            "five": _("%(side)s won with five in a row."),
            "discs": _("%(side)s won on discs."),
            "timeout": _("%(side)s won: the opponent ran out of time."),
            "resign": _("%(side)s won: the opponent resigned."),
        },
        "draw": {
            "full_board": _("Draw: the board is full."),
            "no_legal_move": _("Draw: X has only foul points left."),
            "discs": _("Draw: as many discs each."),
        },
        "aborted": _("Game aborted: it ended before both players had moved. Nobody wins or loses."),
        "play_again": _("Play again"),
        "accept_rematch": _("Accept the rematch"),
        "rematch_waiting": _("Waiting for your opponent to accept…"),
        "rematch_offered": _("%(side)s wants to play again."),
        "reconnecting": _("Connection lost. Reconnecting…"),
        "offline": _("Not connected yet; wait a moment and try again."),
        "copied": _("Link copied."),
        "resign_confirm": _("Resign this game?"),
        "no_room": _("This room does not exist any more. Create a new one from the home page."),
        "foul": _("foul point for X (%(kind)s)"),
        "foul_kinds": {
            "double-three": _("double-three"),
            "double-four": _("double-four"),
            "overline": _("overline"),
        },
        "note": {
            "blocked": _("%(from)s–%(to)s does not win: both ends are blocked (blocked two ends rule)."),
            "overline": _("%(from)s–%(to)s does not win: it is longer than %(n)s in a row (exact rule)."),
        },
    }


@require_POST
def join_room(request: HttpRequest, code: str) -> HttpResponse:
    """Take the open seat in the room's game (guests get a name first)."""
    code = rooms.normalize_code(code)
    room = Room.objects.filter(code=code).first() if code else None
    if room is None:
        raise Http404
    refused = _over_limit(request, None, code=room.code)
    if refused is not None:
        return refused
    user = ensure_player(request)
    try:
        rooms.join(room, user)
    except GameError as exc:
        messages.info(request, exc.message)
    return redirect("room", code=room.code)


#: HTTP status of a request refused by a per-minute limit (Too Many Requests).
TOO_MANY_REQUESTS = 429


def _over_limit(request: HttpRequest, action: str | None, code: str | None = None) -> HttpResponse | None:
    """None when the request may go on; else the page again, with a translated message, as 429.

    Counts one `action` ("room") and, for a visitor who would get a new guest, one guest; the
    limits are per address and per session (caro/rooms/limits.py). Nothing is created when refused.
    """
    message = None
    if action == "room" and http_limited(request, "room"):
        message = _("You have created many rooms in the last minute. Wait a minute, then try again.")
    elif not request.user.is_authenticated and http_limited(request, "guest"):
        message = _("Many new players have come from your network in the last minute. Wait a minute, then try again.")
    if message is None:
        return None
    messages.error(request, message)
    if code is not None:
        response = room(request, code)
    else:
        from caro.views import home

        response = home(request)
    response.status_code = TOO_MANY_REQUESTS
    return response
