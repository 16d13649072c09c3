"""Friend room pages, and the on-device game pages. Thin: identity and forms here, every game change in
the services (or, on the device, in the page)."""

import functools
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.guests import ensure_player
from accounts.restrictions import mute_message, mute_of
from caro.engine.caro import DEFAULT_PRESET, PRESETS, SIZES, WIN_LENGTHS
from caro.games import snapshot, state
from caro.games.display import choice_summary, game_summary, summary
from caro.games.errors import GameError
from caro.games.kinds import RULE_CHOICES, kind_for_choice, kind_of
from caro.games.models import FirstMover, Game
from caro.games.openings import procedure_of
from caro.rooms import services as rooms
from caro.rooms.forms import DEFAULT_TIME, TIME_CONTROLS, ComputerRoomForm, FriendRoomForm, JoinByCodeForm, NewRoomForm
from caro.rooms.device import SEE_OTHER, device_page_url
from caro.rooms.limits import GUESTS_LIMIT_MESSAGE, TOO_MANY_REQUESTS, http_limited
from caro.rooms.models import Room


@require_POST
def create_room(request: HttpRequest) -> HttpResponse:
    """Create a friend room with the visitor (a guest if not signed in) seated."""
    form = FriendRoomForm(request.POST)
    if not form.is_valid():
        return _invalid_choices(request, form)
    refused = _over_limit(request, "room")
    if refused is not None:
        return refused
    user = ensure_player(request)
    data = form.cleaned_data
    extra = {key: data[key] for key in ("move_time_ms", "bank_ms", "increment_ms", "takeback", "listed",
                                        "accounts_only", "watchable")}
    try:
        room = rooms.create_room(user, data["preset"], size=data["size"], win_length=data["win_length"],
                                 first=data["first"], **extra)
    except GameError as exc:  # a ban in force
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("room", code=room.code)


def _invalid_choices(request: HttpRequest, form) -> HttpResponse:
    """Back to the home page with the form's errors, the choices kept and the rules panel open."""
    for error in form.non_field_errors() or [_("Some choices were not valid: pick them from the lists.")]:
        messages.error(request, error)
    kept = {k: v for k in ("preset", "size", "win_length") if (v := request.POST.get(k, "")[:20])}
    return redirect(f"{reverse('home')}?{urlencode({**kept, 'rules': 'open'})}")


@require_POST
def device_game(request: HttpRequest, mode: str) -> HttpResponse:
    """The forms "Play the computer" and "Two players on one device" of pages made before issue 26
    (a copy cached in a browser, the match page's offer) post here: such games are played in the
    page now, so their choices go to the on-device page (303 See Other). The server creates
    nothing."""
    form = (ComputerRoomForm if mode == "computer" else NewRoomForm)(request.POST)
    if not form.is_valid():
        return _invalid_choices(request, form)
    data = form.cleaned_data
    choices = {"level": data["level"], "side": data["side"]} if mode == "computer" else {}
    response = redirect(device_page_url(mode, data["preset"], data["size"], data["win_length"], **choices))
    response.status_code = SEE_OTHER
    return response


@require_safe
def join_by_code(request: HttpRequest) -> HttpResponse:
    """The "enter a code" form: to the room, or the home page again with what was typed kept in the
    box and the reason beside it."""
    form = JoinByCodeForm(request.GET or None)
    if not form.is_bound:
        return redirect("home")
    if form.is_valid():
        return redirect("room", code=form.cleaned_data["code"])
    return home(request, join_form=form)


@require_safe
def room(request: HttpRequest, code: str) -> HttpResponse:
    """The room page: the board, both seats, and the share link and code."""
    canonical = rooms.normalize_code(code)
    if canonical is None:
        raise Http404
    if canonical != code:
        return redirect("room", code=canonical)
    room = Room.objects.select_related("current_game__host", "current_game__guest").filter(code=code).first()
    if room is None:
        raise Http404
    game = room.current_game
    you = game.side_of_user(request.user)
    can_join = you is None and not game.is_over and state.open_seat(game) is not None
    size = snapshot.board_size(game)
    letters = kind_of(game).column_letters(size)
    share_url = request.build_absolute_uri(reverse("room", kwargs={"code": room.code}))
    return render(
        request,
        "rooms/room.html",
        {
            "room": room,
            "game": game,
            "you": you,
            "can_join": can_join,
            # A seat only accounts may take, seen by a guest or a visitor with no user: the button
            # is disabled and says why, with links to sign up or log in that come back here.
            "accounts_needed": can_join and room.accounts_only and not _has_account(request.user),
            "size": size,
            "rows": [{"number": r, "squares": [f"{c}{r}" for c in letters]} for r in range(1, size + 1)],
            "columns": letters,
            "share_url": share_url,
            "rules_line": game_summary(game),
            "state": snapshot.state_for(game, request.user),
            "device_url": next_on_device(room, game),
            # A muted user sees why from the start, and the chat box is disabled (trial-8).
            "chat_mute": _chat_mute(request.user),
        },
    )


def _chat_mute(user) -> dict | None:
    """`{"message", "until_ms"}` while `user` may not chat (a mute, or a ban), else None."""
    mute = mute_of(user, timezone.now())
    if mute is None:
        return None
    return {"message": mute_message(mute), "until_ms": int(mute.until.timestamp() * 1000) if mute.until else None}


def next_on_device(room: Room, game: Game) -> str | None:
    """Where "Play again" leads in a computer or one-device room the server made before issue 26
    (such games are played in the page now, and the server starts none: `on_device`): the on-device
    page (CONTRACTS.md section 3) with the room's rules, board and win length, and against the
    computer its level and the side the person played. None for any other room."""
    if room.kind not in (Room.Kind.COMPUTER, Room.Kind.LOCAL):
        return None
    caro = game.kind == Game.Kind.CARO
    size, win_length = (game.rules.get("size"), game.rules.get("win_length")) if caro else (None, None)
    if room.kind == Room.Kind.LOCAL:
        return device_page_url("local", room.preset, size, win_length)
    person = game.side_of("guest" if game.bot_seat == "host" else "host")
    return device_page_url("computer", room.preset, size, win_length, level=game.bot_level or "easy", side=person)


def _room_within_limit(request: HttpRequest, code: str) -> tuple[Room, HttpResponse | None]:
    """The room of a code as typed in a path, and the refusal to send instead when this visitor is
    over the guest rate limit (else None). Raises Http404 for a code that names no room."""
    code = rooms.normalize_code(code)
    room = Room.objects.filter(code=code).first() if code else None
    if room is None:
        raise Http404
    return room, _over_limit(request, None, code=room.code)


def _has_account(user) -> bool:
    """Whether `user` (the request's, maybe anonymous) is signed in with an account, not a guest."""
    return user.is_authenticated and not user.is_guest


@require_POST
def join_room(request: HttpRequest, code: str) -> HttpResponse:
    """Take the open seat in the room's game (guests get a name first). In an accounts-only room a
    visitor without an account is refused before any guest is made (the page says so, with links
    to sign up or log in)."""
    room, refused = _room_within_limit(request, code)
    if refused is not None:
        return refused
    if room.accounts_only and not _has_account(request.user) and room.current_game.seat_of(request.user) is None:
        messages.info(request, GameError("accounts_only").message)
        return redirect("room", code=room.code)
    user = ensure_player(request)
    try:
        rooms.join(room, user)
    except GameError as exc:
        messages.info(request, exc.message)
    return redirect("room", code=room.code)


@require_POST
def chat_name(request: HttpRequest, code: str) -> HttpResponse:
    """"Chat as <name>": a spectator who came by link and is not a player yet becomes a guest under
    the visitor's name the header shows (as a player does on taking a seat), then the room page again, at the chat, where the socket
    now knows them. Someone who has a name already just goes back to the chat."""
    room, refused = _room_within_limit(request, code)
    if refused is not None:
        return refused
    ensure_player(request)
    return redirect(reverse("room", kwargs={"code": room.code}) + "#chat")


def _over_limit(request: HttpRequest, action: str | None, code: str | None = None) -> HttpResponse | None:
    """None when the request may go on; else the page again, with a translated message, as 429.

    Counts one `action` ("room") and, for a visitor who would get a new guest, one guest; the
    limits are per address and per session (caro/rooms/limits.py). Nothing is created when refused.
    """
    message = None
    if action == "room" and http_limited(request, "room"):
        message = _("You have created many rooms in the last minute. Wait a minute, then try again.")
    elif not request.user.is_authenticated and http_limited(request, "guest"):
        message = GUESTS_LIMIT_MESSAGE
    if message is None:
        return None
    messages.error(request, message)
    if code is not None:
        response = room(request, code)
    else:
        response = home(request)
    response.status_code = TOO_MANY_REQUESTS
    return response


def _left_game_message(request: HttpRequest, code: str | None) -> str:
    """What leaving the table of room `code` did to the visitor's game, or "" (no such room, or the
    visitor did not leave its current game)."""
    code = rooms.normalize_code(code or "")
    if code is None or not request.user.is_authenticated:
        return ""
    room = Room.objects.filter(code=code).select_related("current_game").first()
    game = room.current_game if room is not None else None
    if game is None or not game.left_seat or game.seat_of(request.user) != game.left_seat:
        return ""
    if game.status == Game.Status.ABORTED:
        return _("You left the table. The game ended before both players had moved, so nobody loses.")
    return _("You left the table and lost the game.")


def home(request: HttpRequest, join_form: JoinByCodeForm | None = None) -> HttpResponse:
    """The home page: how to play right now (friend room first in this release).

    `?preset=<slug>` (the guides' "play now with these rules") preselects that rule set;
    `join_form`: a room code that led nowhere, shown again with its error; `?left=<room code>`
    (the room page after "Leave the table"): what leaving did, when the visitor left that room's game.
    """
    if "left" in request.GET:  # said once: the address without it is where the player lands
        left = _left_game_message(request, request.GET.get("left"))
        if left:
            messages.info(request, left)
        return redirect("home")
    slug = request.GET.get("preset")
    slug = slug if slug in RULE_CHOICES else DEFAULT_PRESET
    # The size and win length fields start from the chosen caro preset (the site's default for Reversi).
    rules = PRESETS[slug if kind_for_choice(slug).has_options else DEFAULT_PRESET].rules
    size = _int_choice(request.GET.get("size"), SIZES, rules.size)
    win_length = _int_choice(request.GET.get("win_length"), WIN_LENGTHS, rules.win_length)
    if slug in FIXED_NUMBERS:  # Renju: always 15×15, five in a row
        size, win_length = FIXED_NUMBERS[slug]
    # A pair the rules refuse (Renju is five in a row) falls back to the preset's own numbers.
    for fallback in ((size, rules.win_length), (rules.size, rules.win_length)):
        try:
            kind_for_choice(slug).rules_for(slug, size, win_length)
            break
        except ValueError:
            size, win_length = fallback
    return render(
        request,
        "home.html",
        {
            "join_form": join_form or JoinByCodeForm(),
            "room_form": NewRoomForm(initial={"preset": slug, "size": size, "win_length": win_length}),
            "computer_form": ComputerRoomForm(),
            # `?lobby=1` (the lobby's "create a room in the lobby"): the room waits there.
            "friend_form": FriendRoomForm(initial={"listed": request.GET.get("lobby") == "1"}),
            # Who moves first in game 1 is not the host's choice (Reversi: colours drawn at random).
            "first_drawn": kind_for_choice(slug).first_mover != FirstMover.HOST,
            "rules_open": request.GET.get("rules") == "open",
            "reversi_chosen": not kind_for_choice(slug).has_options,
            # `?preset=` chose the rules: quick match's entry follows them (its key format).
            "rules_chosen": ("reversi" if not kind_for_choice(slug).has_options else f"{slug}|{size}|{win_length}")
            if "preset" in request.GET else "",
            "rules_line": choice_summary(slug, size, win_length, _default_move_ms(slug)),
            "rules_lines": _rules_lines(),
            "fixed_numbers": FIXED_NUMBERS,
        },
    )


#: The presets whose board and winning length are not the player's choice: Renju is played on
#: 15×15 with five in a row (shared/reference/caro-rule-sets.txt); `slug -> (size, win length)`.
FIXED_NUMBERS = {slug: (15, 5) for slug, preset in PRESETS.items() if preset.rules.renju}


def _default_move_ms(slug: str) -> int:
    """The per-move clock (ms) of a friend room of this rule choice whose host keeps the default:
    1 minute for caro, 30 s for Reversi (`forms.DEFAULT_TIME`)."""
    return TIME_CONTROLS[DEFAULT_TIME[kind_for_choice(slug).name]][0]


def _rules_lines() -> dict[str, str]:
    """The home page's summary line of every valid rule choice, for its script to show the line of
    the choice being made: keys "<preset>|<size>|<win length>" (caro) and "reversi"."""
    lines = {}
    for slug in RULE_CHOICES:
        kind = kind_for_choice(slug)
        combos = [(s, w) for s in SIZES for w in WIN_LENGTHS] if kind.has_options else [(None, None)]
        if slug in FIXED_NUMBERS:
            combos = [FIXED_NUMBERS[slug]]
        for size, win_length in combos:
            try:
                line = choice_summary(slug, size, win_length, _default_move_ms(slug))
            except ValueError:  # a pair the rules refuse (Renju is five in a row)
                continue
            lines[f"{slug}|{size}|{win_length}" if kind.has_options else slug] = line
    return lines


def _int_choice(value: str | None, allowed, default: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number in allowed else default


#: The on-device pages' modes: URL name -> the page's mode (static/js/play/device.js).
DEVICE_MODES = {"play_computer": "computer", "play_local": "local"}


@require_safe
def play_on_device(request: HttpRequest, mode: str) -> HttpResponse:
    """"Play the computer" (`mode` "computer") or "Two players on one device" ("local"), played in
    the page with the browser rules engine and the computer in a Web Worker (issue 26): no socket,
    no server state. The page is the same for every game (it never reads the query string, which
    its script reads: CONTRACTS.md section 3), so one cached copy serves any game offline."""
    return render(request, "rooms/play.html", {
        "mode": mode,
        "computer": mode == "computer",
        "level_choices": Game.BotLevel.choices,
        "level": "easy",
        "device_choices": device_choices(get_language()),
    })


@functools.lru_cache(maxsize=8)
def device_choices(language: str | None) -> dict:
    """Every rule choice an on-device game may take, for the page's script: `{"choices":
    {"<preset>|<size>|<win length>" | "reversi": {"rules", "opening", "line", "plain"}}, "presets":
    {slug: {"size", "win_length"}}, "default": slug}`. `line` is the rules line of such a game (no
    clock, and its opening procedure), `plain` the same without the procedure (a game continued
    from a position has none). Per language (the lines are translated); the same for every visitor."""
    choices, presets = {}, {}
    for slug in RULE_CHOICES:
        kind = kind_for_choice(slug)
        opening = procedure_of(slug)
        if kind.has_options:
            presets[slug] = {"size": PRESETS[slug].rules.size, "win_length": PRESETS[slug].rules.win_length}
            combos = [FIXED_NUMBERS[slug]] if slug in FIXED_NUMBERS else [(s, w) for s in SIZES for w in WIN_LENGTHS]
        else:
            presets[slug] = {}
            combos = [(None, None)]
        for size, win_length in combos:
            try:
                rules = kind.rules_for(slug, size, win_length)
            except ValueError:  # a pair the rules refuse
                continue
            plain = summary(kind, rules) + " · " + _("no clock")
            line = plain + (" · " + (_("RIF opening") if opening == "rif" else _("Swap2 opening")) if opening else "")
            key = f"{slug}|{size}|{win_length}" if kind.has_options else slug
            choices[key] = {"rules": rules, "opening": opening, "line": line, "plain": plain}
    return {"choices": choices, "presets": presets, "default": DEFAULT_PRESET}
