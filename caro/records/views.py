"""Game record pages: the replay of any game (live or finished, played here or imported), its
downloads and position image, importing a record, a guest's recent games, and continuing a
position against the computer (in the page).

Thin views: the replay and the formats are `caro.games.records`, every write goes through
`caro.games.services` (imports); continuing a position opens the on-device page (issue 26).
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from caro.games import records
from caro.games.display import game_summary, opening_lines
from caro.games.errors import GameError
from caro.games.kinds import choice_of, kind_of
from caro.games.models import Game, Move, Seat, Side
from caro.games.services.records import store_imported
from caro.partials import render_page_or_part, wants_part
from caro.records import html, limits
from caro.records.access import game_for as _game
from caro.records.forms import ContinueForm, ImportForm
from caro.records.image import position_svg
from caro.records.links import record_url, url_language
from caro.rooms.device import SEE_OTHER, device_page_url

#: Imported games remembered in a visitor's session, for "my games".
SESSION_IMPORTS = "records_imported"
SESSION_IMPORTS_KEPT = 20
RECENT_GAMES = 30  # games a page of "My games"
MY_GAMES_MAX_PAGE = 1000  # deeper pages are refused (page 1 instead): OFFSET costs grow with the page


def _page_language(request: HttpRequest, language: str) -> str:
    """The URL's language, unless the reader picked another with the language switch (cookie)."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return chosen if chosen in dict(settings.LANGUAGES) else language


def _language_urls(request: HttpRequest) -> list[tuple[str, str]]:
    """[(language code, this page's address in that language)], the query string kept (`?ply=`,
    `?page=`): the header's language switch goes there (caro.records.context)."""
    match = request.resolver_match
    base = match.url_name.rsplit("_", 1)[0]
    kwargs = {key: value for key, value in match.kwargs.items() if key != "language"}
    query = request.META.get("QUERY_STRING", "")
    suffix = f"?{query}" if query else ""
    return [(code, reverse(f"records:{base}_{code}", kwargs=kwargs) + suffix) for code, _name in settings.LANGUAGES]


def in_page_language(view):
    """Run `view` in the page's language (`_page_language`), from the URL's `language` kwarg."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, language: str, **kwargs) -> HttpResponse:
        request.record_language_urls = functools.partial(_language_urls, request)  # for rendered pages only
        with translation.override(_page_language(request, language)):
            return view(request, *args, language=language, **kwargs)

    return wrapped


def _moves(game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game).order_by("ply").only("ply", "side", "square", "think_ms"))


def player_names(game: Game, placeholders: bool = True) -> dict[str, str]:
    """The name shown for each side: the player's, the computer's level, the record's names;
    "" for an unknown player or a free seat when `placeholders` is False (for files)."""
    names = {}
    for side in (Side.X, Side.O):
        seat = game.seat_playing(side)
        if game.is_local and placeholders:
            # One device, two people: the sides are named as the game's page names them.
            label = kind_of(game).side_label(side, game.marks())
            names[side] = _("%(side)s side") % {"side": label}
        elif game.is_imported:
            names[side] = game.imported.get("names", {}).get(side) or (_("unknown player") if placeholders else "")
        elif game.bot_seat == seat:
            names[side] = {"easy": _("Computer (Easy)"), "medium": _("Computer (Medium)"),
                           "hard": _("Computer (Hard)")}.get(game.bot_level, _("Computer"))
        else:
            user = game.player_in(seat)
            names[side] = user.public_name if user is not None else (_("free seat") if placeholders else "")
    return names


def how_played(game: Game) -> str:
    """How a game was played, for the lists and the record page, when its players' names do not
    say it: on one device (two people), or on the player's own device against the computer (sent
    as a record when it ended); "" for every other game. Such games are never rated."""
    if game.is_local:
        return _("Two players on one device · not rated")
    if game.played_on_device:
        return _("Against the computer, on the player's device · not rated")
    return ""


def rating_lines(game: Game) -> dict[str, dict]:
    """A rated game's rating change of each side, from the rating history (`ranking.models.RatingChange`,
    read through the game's `rating_changes`): `{side: {"before": int, "after": int, "shown": "1220?"
    | "1220", "delta": "+20" | "−20" | "±0", "reverted": bool}}` (`shown`: the rating after the game
    as the room shows it, "?" while provisional; `reverted`: the game was annulled and the change
    refunded; the page strikes it through and says so); {} for a game that is not rated or not yet
    scored. One query, and one per side for `shown`."""
    if not game.rated:
        return {}
    seats = {game.host_id: Seat.HOST, game.guest_id: Seat.GUEST}
    lines = {}
    for change in game.rating_changes.all().only("user_id", "category", "before", "after", "delta", "reverted_at"):
        seat = seats.get(change.user_id)
        if seat is None:
            continue
        reverted = change.reverted_at is not None
        lines[game.side_of(seat)] = {"before": change.before, "after": change.after, "delta": change.signed_delta,
                                     "shown": "" if reverted else change.shown_after(), "reverted": reverted}
    return lines


def result_text(game: Game, moves: list[Move] | None = None, names: dict[str, str] | None = None) -> str:
    """Who won and why, in words ("Lan (X) won with five in a row."), or how the game stands;
    with the stored `moves`, a Reversi result adds the disc count ("(35–29)"). `names` are the
    sides' names from `player_names(game, placeholders=False)`: the winner, a player who left or
    did not come back are named by them (a game on one device, an unknown name and a call without
    `names` name the side alone)."""
    kind = kind_of(game)
    labels = {side: kind.side_label(side, game.marks()) for side in (Side.X, Side.O)}
    names = {} if names is None or game.is_local else names

    def words(side: str) -> str:
        if game.bot_seat and game.seat_playing(side) == game.bot_seat and game.bot_level in Game.BotLevel.values:
            # "White (computer, medium)", not "Computer (Medium) (White)"
            level = str(Game.BotLevel(game.bot_level).label).lower()
            return _("%(side)s (computer, %(level)s)") % {"side": labels[side], "level": level}
        name = names.get(side)
        return _("%(name)s (%(side)s)") % {"name": name, "side": labels[side]} if name else labels[side]

    def person(seat: str) -> str:
        side = game.side_of(seat) if seat else ""
        if not side:
            return _("a player")
        return names.get(side) or _("%(side)s side") % {"side": labels[side]}

    if game.status == Game.Status.ABORTED:
        if game.termination == Game.Termination.ABANDONED:
            return _("Game abandoned: nobody played in it for a long time.")
        if game.termination == Game.Termination.MODERATOR:
            return _("A moderator stopped this game. Nobody wins or loses.")
        return _("Game aborted: it ended before both players had moved. Nobody wins or loses.")
    if game.status == Game.Status.WAITING:
        return _("Waiting for an opponent: share the link or the code.")
    if game.status == Game.Status.ACTIVE:
        return _("Game in progress.")
    if not game.termination:
        return _("The record stops here, before the end of the game.")
    wins = {
        "five": _("%(side)s won with five in a row."),
        "discs": _("%(side)s won on discs."),
        "timeout": _("%(side)s won: the opponent ran out of time."),
        "resign": _("%(side)s won: the opponent resigned."),
        "left": _("%(side)s won: %(left)s left the table."),
        "absence": _("%(side)s won: %(absent)s did not come back."),
    }
    draws = {
        "full_board": _("Draw: the board is full."),
        "no_legal_move": _("Draw: X has only foul points left."),
        "discs": _("Draw: as many discs each."),
        "agreement": _("Draw by agreement."),
        "absence": _("Draw: %(absent)s did not come back, and %(present)s called it a draw."),
    }
    values = {"left": person(game.left_seat), "absent": person(game.absent_seat),
              "present": person(Seat.other(game.absent_seat)) if game.absent_seat else ""}
    if game.termination == "discs" and moves:
        # The disc count in the sentence, the winner's first: "White won on discs, 59–1."
        stones = kind.stones(kind.board(game.rules, [m.square for m in moves]))
        counts = {s: sum(1 for v in stones.values() if v == s) for s in (Side.X, Side.O)}
        if game.winner:
            score = f"{counts[game.winner]}–{counts[Side.other(game.winner)]}"
            return _("%(side)s won on discs, %(score)s.") % {"side": words(game.winner), "score": score}
        return _("Draw: %(n)s discs each.") % {"n": counts[Side.X]}
    if game.winner:
        return wins.get(game.termination, _("%(side)s won.")) % {**values, "side": words(game.winner)}
    return draws.get(game.termination, _("Draw.")) % values


def seconds_label(ms: int, decimal: str | None = None) -> str:
    """A thinking time for people: "4,2 s" under a minute, "1:05" from there, with the active
    language's decimal separator (or `decimal`, looked up once by callers formatting many)."""
    if ms < 60_000:
        tenths = round(ms / 100)
        return f"{tenths // 10}{decimal or formats.get_format('DECIMAL_SEPARATOR')}{tenths % 10} s"
    seconds = round(ms / 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


@require_safe
@in_page_language
def record(request: HttpRequest, game_id: int, language: str) -> HttpResponse:
    """The record page of any game at `?ply=N` (default: the last move): board, players, rules,
    result, the move list with times, replay controls, share link, downloads, "continue"."""
    game = _game(game_id, request.user)
    kind = kind_of(game)
    moves = _moves(game)
    steps = records.steps(game, moves)
    total = len(steps)
    ply = records.clamp_ply(request.GET.get("ply"), total)
    position = records.position_from_steps(game, steps, ply)
    numbers = request.GET.get("numbers") == "1"
    names = player_names(game)
    used = {side: sum(s.think_ms for s in steps if s.side == side) for side in (Side.X, Side.O)}
    room = None if game.is_over else game.live_room
    ended_here = ply == total and game.is_over and bool(game.termination)
    page_lang = url_language()
    share_url = request.build_absolute_uri(record_url(game.pk, page_lang, ply))
    image_url = request.build_absolute_uri(record_url(game.pk, page_lang, ply, "image"))
    decimal = formats.get_format("DECIMAL_SEPARATOR")
    timed = any(s.think_ms for s in steps)  # an imported record without times shows none, not "0,0 s"
    times = [seconds_label(s.think_ms, decimal) if timed else "" for s in steps]
    move_words = (_("Move %(n)s of %(total)s: %(side)s %(square)s (%(time)s)") if timed
                  else _("Move %(n)s of %(total)s: %(side)s %(square)s"))
    labels = {side: kind.side_label(side, game.marks()) for side in (Side.X, Side.O)}
    mark_class = ({Side.X: "black", Side.O: "white"} if game.kind == Game.Kind.REVERSI
                  else {side: game.mark_of(side).lower() for side in (Side.X, Side.O)})
    move_rows = [(s.ply, s.square, t, labels[s.passed] if s.passed else "") for s, t in zip(steps, times)]
    current = steps[ply - 1] if ply else None
    words = {**labels, "empty": _("empty"), "last_move": _("last move"), "winning_line": _("winning line")}
    ply_label = _("Start position")
    if current is not None:
        ply_label = move_words % {
            "n": ply, "total": total, "side": labels[current.side], "square": current.square,
            "time": times[ply - 1]}
        if current.passed:
            ply_label += " · " + _("%(side)s has no legal move and passes.") % {"side": labels[current.passed]}
    ratings = rating_lines(game)
    context = {
        "game": game,
        "kind": kind,
        "names": names,
        # the icon follows the person's mark (the first mover may hold O), as the stones do
        "sides": [{"side": side, "label": labels[side], "name": names[side], "mark": mark_class[side],
                   "used": seconds_label(used[side]) if timed else "",
                   "rating": ratings.get(side),
                   "winner": game.winner == side} for side in (Side.X, Side.O)],
        "rules_line": game_summary(game) if not game.is_imported else " · ".join(kind.describe(game.rules)),
        "how_played": how_played(game),
        "result": result_text(game, moves, player_names(game, placeholders=False)),
        "room": room,
        "board": html.board(kind.column_letters(kind.size(game.rules)),
                            kind.shown_stones(position.stones, game.marks()), position.last, position.line, position.line_dir, {s.square: s.ply for s in steps[:ply]}, words),
        "opening_lines": opening_lines(game, names),
        "move_list": html.move_list(move_rows, ply, numbers, _("%(side)s passes")),
        "size": kind.size(game.rules),
        "line_dir": position.line_dir,
        "ply": ply,
        "total": total,
        "numbers": numbers,
        "ply_label": ply_label,
        "import_url": record_url(None, page_lang, None, "import"),
        "mine_url": record_url(None, page_lang, None, "mine"),
        "has_moves": bool(steps),
        "nav": {"first": 0, "prev": max(0, ply - 1), "next": min(total, ply + 1), "last": total},
        "share_url": share_url,
        "image_url": image_url,
        "page_url": record_url(game.pk, page_lang),
        "exports": [(f, record_url(game.pk, page_lang, None, "export", f.slug)) for f in records.formats(game)],
        "can_continue": not ended_here,
        "levels": Game.BotLevel.choices,
        "continue_query": continue_query(game, [s.square for s in steps[:ply]]),
        "alternates": [(code, request.build_absolute_uri(record_url(game.pk, code, ply)))
                       for code, _name in settings.LANGUAGES],
        "data": {
            "steps": [[s.square, s.side, s.flips, s.passed] for s in steps],
            "shown": kind.shown_stones({Side.X: Side.X, Side.O: Side.O}, game.marks()),
            "ply": ply,
            "line": list(game.win_line or []) if game.is_over else [],
            "line_dir": records.line_direction(list(game.win_line or [])),
            "ended": game.is_over and bool(game.termination),
            "kind": game.kind,
            "game_id": game.pk,
            # the computer's analysis (static/js/analysis/) replays the record in the browser
            "rules": game.rules if game.kind == Game.Kind.CARO else None,
            "winner": game.winner or None,
            "analysable": game.is_over and bool(steps),
            "page": record_url(game.pk, page_lang),
            "image": record_url(game.pk, page_lang, None, "image"),
            "times": times,
            "labels": labels,
            "i18n": {
                "start": _("Start position"),
                "move": move_words,
                "passed": _("%(side)s has no legal move and passes."),
                "empty": _("empty"),
                "last_move": _("last move"),
                "winning_line": _("winning line"),
            },
        },
    }
    return render(request, "records/record.html", context)


@require_safe
@in_page_language
def image(request: HttpRequest, game_id: int, language: str) -> HttpResponse:
    """The position at `?ply=N` as an SVG image (link previews, "save picture")."""
    game = _game(game_id, request.user)
    moves = _moves(game)
    ply = records.clamp_ply(request.GET.get("ply"), len(moves))
    svg = position_svg(game, records.position_at(game, moves, ply), names=player_names(game))
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400" if game.is_over else "no-cache"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@require_safe
@in_page_language
def export(request: HttpRequest, game_id: int, language: str, fmt: str) -> HttpResponse:
    """Download the record in `fmt` (PSQ / coordinate list for caro; GGF / move string /
    coordinate list for Reversi). 404 for a format the game's kind does not write."""
    game = _game(game_id, request.user)
    moves = _moves(game)
    try:
        name, text, content_type = records.export(game, moves, fmt, player_names(game, placeholders=False))
    except KeyError:
        raise Http404("no such format") from None
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@in_page_language
def import_record(request: HttpRequest, language: str) -> HttpResponse:
    """Upload or paste a record (PSQ, GGF, a move string or a coordinate list) and view it as a
    game page. Errors are shown on the form, translated, with the line; nothing is stored then."""
    posted = request.method == "POST"  # an empty POST is still a submission: the form is bound
    form = ImportForm(request.POST if posted else None, request.FILES if posted else None)
    status, refusal = 200, None
    if posted:
        if not limits.allow_import(limits.client_key(request)):
            form = ImportForm()  # empty: a refused paste is not sent back (1 MB in, 1 MB out)
            refusal = _("You have imported many records in a short time. Wait a few minutes and try again.")
            status = 429
        elif form.is_valid():
            data = form.cleaned_data
            try:
                text = records.decode(data["file"].read()) if data.get("file") else data["text"]
                parsed = records.read(text, data["rules"], data["size"])
                game = store_imported(parsed.kind, parsed.record.rules, parsed.record.squares,
                                      parsed.record.times, fmt=parsed.format, names=parsed.record.names)
            except records.RecordError as exc:
                form.add_error(None, exc.message)
            except GameError as exc:  # pragma: no cover - the record was replayed by read() already
                form.add_error(None, exc.message)
            else:
                kept = [game.pk] + [pk for pk in request.session.get(SESSION_IMPORTS, []) if pk != game.pk]
                request.session[SESSION_IMPORTS] = kept[:SESSION_IMPORTS_KEPT]
                return redirect(record_url(game.pk, url_language()))
        if status == 200 and form.errors:
            status = 400
    return _import_page(request, form, refusal, status)


def _import_page(request: HttpRequest, form: ImportForm, refusal: str | None, status: int) -> HttpResponse:
    return render(request, "records/import.html",
                  {"form": form, "refusal": refusal, "max_mb": records.MAX_RECORD_BYTES // 1_000_000}, status=status)


#: Status of an import whose request body Django refused to read (Payload Too Large).
PAYLOAD_TOO_LARGE = 413


@in_page_language
def import_too_big(request: HttpRequest, language: str) -> HttpResponse:
    """The import page's answer to a request over DATA_UPLOAD_MAX_MEMORY_SIZE (a paste over 2.5 MB:
    Django's RequestDataTooBig, before the view or the CSRF check read a field), given by the
    site's handler400 (caro.views.bad_request, through the view's `too_big` attribute): the form
    again, empty (the paste is not sent back), with why, 413. Nothing is read or stored."""
    refusal = _("The record is too large: at most %(mb)s MB. A game record is only a few kilobytes.") % {
        "mb": records.MAX_RECORD_BYTES // 1_000_000}
    return _import_page(request, ImportForm(), refusal, PAYLOAD_TOO_LARGE)


import_record.too_big = import_too_big


def _page_number(text: str | None) -> int:
    """`?page=` as a page number: 1 for anything but a whole number from 1 to MY_GAMES_MAX_PAGE."""
    try:
        page = int(text or 1)
    except ValueError:
        return 1
    return page if 1 <= page <= MY_GAMES_MAX_PAGE else 1


@require_safe
@in_page_language
def my_games(request: HttpRequest, language: str) -> HttpResponse:
    """The visitor's games (their session's user), RECENT_GAMES a page, newest first, and the
    records they imported. `?page=N` is a page of older games; asked by htmx (the pager's links,
    not a history restore) only the list and its pager are rendered (records/my_games_list.html),
    swapped into the page in place. One query for a page of games (one row more than shown says
    whether an older page exists: no COUNT)."""
    page = _page_number(request.GET.get("page"))
    games = []
    if request.user.is_authenticated:
        offset = (page - 1) * RECENT_GAMES
        games = list(Game.objects.of_player(request.user).select_related("host", "guest")
                     .order_by("-created_at", "-pk")[offset:offset + RECENT_GAMES + 1])
    older = len(games) > RECENT_GAMES
    games = games[:RECENT_GAMES]
    imported = []
    if not wants_part(request):  # the pager's part holds the played games only
        imported_ids = request.session.get(SESSION_IMPORTS, [])
        imported = sorted(Game.objects.filter(pk__in=imported_ids), key=lambda g: imported_ids.index(g.pk))
    lang = url_language()
    rows = []
    for game in games + imported:
        names = player_names(game)
        rows.append({
            "game": game, "url": record_url(game.pk, lang), "names": names,
            "rules": " · ".join(kind_of(game).describe(game.rules)),
            "result": result_text(game, names=player_names(game, placeholders=False)),
            "labels": {side: kind_of(game).side_label(side, game.marks()) for side in (Side.X, Side.O)},
            "you": game.side_of_user(request.user) if not game.is_imported else None,
            "how": how_played(game),
        })
    context = {
        "played": [r for r in rows if not r["game"].is_imported],
        "imported": [r for r in rows if r["game"].is_imported],
        "import_url": record_url(None, lang, None, "import"),
        "page": page, "newer": page - 1 if page > 1 else None,
        "older": page + 1 if older and page < MY_GAMES_MAX_PAGE else None,
        "first_url": record_url(None, lang, None, "mine"),
    }
    return render_page_or_part(request, "records/mine.html", "records/my_games_list.html", context)


def continue_query(game: Game, squares: list[str]) -> dict:
    """The address fields of "Continue from here against the computer": the on-device computer page
    (`play_computer`, CONTRACTS.md section 3) with the game's rule choice (`kinds.choice_of`: a game
    that began with an opening procedure continues under the same rules without one, its stones on
    the board), its board and win length (caro) and `moves`, the squares played so far (record.js
    keeps them in step with the replay)."""
    query = {"moves": ",".join(squares), "preset": choice_of(game)}
    if game.kind == Game.Kind.CARO:
        query |= {"size": game.rules.get("size", 15), "win_length": game.rules.get("win_length", 5)}
    return query


@require_POST
@in_page_language
def continue_game(request: HttpRequest, game_id: int, language: str) -> HttpResponse:
    """"Continue from here against the computer": the game's position at the posted ply, same
    rules, on the on-device page (played in the browser: the position's moves and the level go in
    its query string, 303 See Other); the visitor plays the side to move there."""
    game = _game(game_id, request.user)
    form = ContinueForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Some choices were not valid: pick them from the lists."))
        return redirect(record_url(game.pk, url_language()))
    ply = min(form.cleaned_data["ply"], game.ply)
    if ply == game.ply and game.is_over and game.termination:
        messages.error(request, GameError("game_over").message)
        return redirect(record_url(game.pk, url_language(), ply))
    squares = list(game.moves.order_by("ply").values_list("square", flat=True)[:ply])
    size = game.rules.get("size") if game.kind == Game.Kind.CARO else None
    win_length = game.rules.get("win_length") if game.kind == Game.Kind.CARO else None
    response = redirect(device_page_url("computer", choice_of(game), size, win_length,
                                        level=form.cleaned_data["level"], moves=",".join(squares)))
    response.status_code = SEE_OTHER
    return response


__all__ = ["continue_game", "export", "image", "import_record", "my_games", "record"]
