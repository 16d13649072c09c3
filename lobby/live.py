"""What the lobby, the watch page and the featured game show, as queries shaped for a site with
10,000 live games and 100,000 players (bench/pages.py): each list is one index range and a
constant number of queries beside it, whatever is stored.

- **Open rooms** (`open_rooms`): rooms listed in the lobby (`Room.lobby_since`, a partial index of
  the few rooms waiting there), whose game still waits for its second player and whose host has a
  page open (a `Connection` of the host's seat seen within `STALE_CONNECTION_S`: a host who left
  takes the room off the list at once, and it comes back when they do), newest first.
- **Live games** (`live_games`): `LiveGame` rows (games between people in play) shown on the
  watch page, highest-rated first (a partial index per kind).
- **The featured game** (`featured_state`): the highest-rated of them, with its board.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

import redis

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from caro.games import snapshot
from caro.games.display import game_summary
from caro.games.kinds import kind_of
from caro.games.models import Connection, FirstMover, Game, Move, Seat, Side
from caro.games.services.presence import STALE_CONNECTION_S
from caro.rooms.models import Room
from lobby import counts
from lobby.models import LiveGame
from ranking import categories, elo
from ranking.models import Rating

log = logging.getLogger(__name__)

#: Rooms listed on the lobby page, newest first.
LOBBY_SIZE = 50
#: Live games listed on the watch page, highest-rated first.
WATCH_SIZE = 50
#: The game kinds a list can be filtered by ("" for all).
KINDS = (Game.Kind.CARO, Game.Kind.REVERSI)


def kind_filter(value) -> str:
    """`value` when it names a game kind ("caro", "reversi"), else "" (every kind)."""
    return value if value in KINDS else ""


def rating_category(game) -> str:
    """The category whose ratings stand for `game`'s players: its own rated category, else the
    main one of its kind (a 19×19 caro room shows the players' caro 15×15 ratings)."""
    return categories.category_of(game) or next(c.slug for c in categories.CATEGORIES if c.kind == game.kind)


def _standings(pairs: set[tuple[int, str]]) -> dict[tuple[int, str], tuple[int, int]]:
    """`{(user id, category): (rating, rated games)}` for `pairs` (one query); a missing rating
    is `elo.START_RATING` after no game."""
    users = {uid for uid, _c in pairs}
    cats = {c for _u, c in pairs}
    found = {(uid, cat): (value, games) for uid, cat, value, games in Rating.objects.filter(
        user_id__in=users, category__in=cats).values_list("user_id", "category", "value", "games")}
    return {pair: found.get(pair, (elo.START_RATING, 0)) for pair in pairs}


# ------------------------------------------------------------------ the live games list


def between_people(game: Game) -> bool:
    """Two different people seated, no computer."""
    return not game.bot_seat and game.host_id is not None and game.guest_id is not None \
        and game.host_id != game.guest_id


def add_games(rooms: list[Room]) -> None:
    """List the rooms' current games that are between people and in play (the receiver of
    `caro.rooms.signals.games_started`, inside the starting transaction): two queries whatever
    the count (the players' ratings, one INSERT); a game already listed is left as it is."""
    started = [(room, room.current_game) for room in rooms
               if room.current_game is not None and room.current_game.status == Game.Status.ACTIVE
               and between_people(room.current_game)]
    if not started:
        return
    cats = {game.pk: rating_category(game) for _room, game in started}
    standings = _standings({(uid, cats[game.pk]) for _room, game in started for uid in (game.host_id, game.guest_id)})
    rows = []
    for room, game in started:
        host = standings[(game.host_id, cats[game.pk])]
        guest = standings[(game.guest_id, cats[game.pk])]
        rows.append(LiveGame(
            game=game, room_code=room.code, kind=game.kind, rated=game.rated, watchable=room.watchable,
            rating=round((host[0] + guest[0]) / 2), host_rating=host[0], guest_rating=guest[0],
            host_provisional=elo.is_provisional(host[1]), guest_provisional=elo.is_provisional(guest[1]),
            started_at=game.started_at or timezone.now(),
        ))
    LiveGame.objects.bulk_create(rows, ignore_conflicts=True)


def remove_game(game_id: int) -> None:
    """Take a game off the live list (one DELETE)."""
    LiveGame.objects.filter(game_id=game_id).delete()


#: The Redis counter of changes to the live list (a game between people started or ended): the
#: web processes compare it once a second to know when to render the watch list again
#: (`lobby.consumers`), instead of a channel-layer message per watching socket per change.
WATCH_VERSION_KEY = "caro:watch:version"


def watch_changed() -> None:
    """Count one change to the live list (one INCR; call after commit). Never raises: a Redis
    outage only delays the watch pages until their next refresh."""
    try:
        counts._redis().incr(WATCH_VERSION_KEY)
    except redis.RedisError:  # pragma: no cover - Redis down
        log.warning("could not mark the live list changed", exc_info=True)


def watch_version() -> int:
    """The live list's change counter now (0 when Redis has none, or is away)."""
    try:
        return int(counts._redis().get(WATCH_VERSION_KEY) or 0)
    except redis.RedisError:  # pragma: no cover - Redis down
        return 0


@dataclass
class LiveRow:
    """One live game on the watch page: its room's `url`, the rules `line`, each side's `name`
    and `rating` ("1500", "1200?"), the moves played, rated or not."""

    game_id: int
    url: str
    kind: str
    line: str
    x_name: str
    x_rating: str
    o_name: str
    o_rating: str
    x_mark: str
    o_mark: str
    ply: int
    rated: bool
    rating: int


#: What a watch-page row reads of the game and its players.
LIVE_FIELDS = ("game__id", "game__kind", "game__rules", "game__status", "game__host_side", "game__host_mark",
               "game__opening", "game__move_time_ms", "game__bank_ms", "game__increment_ms", "game__ply",
               "game__host_id", "game__guest_id", "game__host__id", "game__host__username",
               "game__host__display_name", "game__host__is_guest", "game__guest__id", "game__guest__username",
               "game__guest__display_name", "game__guest__is_guest")


def shown_rating(user, rating: str) -> str:
    """The rating shown beside `user`'s name: `rating` ("1500", "1200?"), or "" for a guest
    (guests play no rated game, so the start rating would be a number that means nothing)."""
    return "" if user is None or user.is_guest else rating


def live_games(kind: str = "", limit: int = WATCH_SIZE) -> list[LiveRow]:
    """The live games on the watch page, highest-rated first (ties: the older game first), of
    `kind` ("" for all). One query."""
    query = LiveGame.objects.filter(watchable=True, game__status=Game.Status.ACTIVE)
    if kind:
        query = query.filter(kind=kind)
    live = list(query.select_related("game__host", "game__guest")
                .only("room_code", "kind", "rated", "rating", "host_rating", "guest_rating", "host_provisional",
                      "guest_provisional", *LIVE_FIELDS).order_by("-rating", "game_id")[:limit])
    prefix = reverse("room", kwargs={"code": "AAAAAA"})[:-7]
    rows = []
    for entry in live:
        game = entry.game
        ratings = {Seat.HOST: elo.display(entry.host_rating, 0 if entry.host_provisional else elo.PROVISIONAL_GAMES),
                   Seat.GUEST: elo.display(entry.guest_rating, 0 if entry.guest_provisional else elo.PROVISIONAL_GAMES)}
        x_seat, o_seat = game.seat_playing(Side.X), game.seat_playing(Side.O)
        marks = game.marks()
        rows.append(LiveRow(
            game_id=game.pk, url=f"{prefix}{entry.room_code}/", kind=entry.kind, line=game_summary(game),
            x_name=game.player_in(x_seat).public_name, x_rating=shown_rating(game.player_in(x_seat), ratings[x_seat]),
            o_name=game.player_in(o_seat).public_name, o_rating=shown_rating(game.player_in(o_seat), ratings[o_seat]),
            x_mark=kind_of(game).side_label(Side.X, marks), o_mark=kind_of(game).side_label(Side.O, marks),
            ply=game.ply, rated=entry.rated, rating=entry.rating,
        ))
    return rows


def featured_state(game_id: int | None = None) -> dict | None:
    """The featured game for the home page's board (`lobby.consumers`): the game `game_id` while it
    is in play, else the highest-rated live game; None when no game between people is being
    played. Shape: `{"game_id", "version", "kind", "size", "columns", "stones": {square: side},
    "marks": {side: mark}, "last", "turn", "line", "url", "rules", "players": {side: {"name",
    "rating"}}, "labels": {side: label}}`. Three queries (the row with the game and players, the
    last move, the board when its position is not stored)."""
    query = LiveGame.objects.filter(watchable=True, game__status=Game.Status.ACTIVE)
    if game_id is not None:
        entry = query.filter(game_id=game_id).select_related("game__host", "game__guest").first()
        if entry is None:
            return None
    else:
        entry = query.select_related("game__host", "game__guest").order_by("-rating", "game_id").first()
        if entry is None:
            return None
    game = entry.game
    kind = kind_of(game)
    board = snapshot.board_now(game)
    last = Move.objects.filter(game=game, ply=game.ply).values_list("square", flat=True).first()
    size = snapshot.board_size(game)
    ratings = {Seat.HOST: elo.display(entry.host_rating, 0 if entry.host_provisional else elo.PROVISIONAL_GAMES),
               Seat.GUEST: elo.display(entry.guest_rating, 0 if entry.guest_provisional else elo.PROVISIONAL_GAMES)}
    marks = game.marks()
    return {
        "game_id": game.pk,
        "version": game.event_version,
        "kind": game.kind,
        "size": size,
        "columns": kind.column_letters(size),
        "stones": kind.stones(board),
        "marks": marks,
        "last": last,
        "turn": game.turn,
        "line": [],
        "url": reverse("room", kwargs={"code": entry.room_code}),
        "rules": game_summary(game),
        "players": {side: {"name": game.player_in(game.seat_playing(side)).public_name,
                           "rating": shown_rating(game.player_in(game.seat_playing(side)), ratings[game.seat_playing(side)])}
                    for side in (Side.X, Side.O)},
        "labels": {side: kind.side_label(side, marks) for side in (Side.X, Side.O)},
    }


# ------------------------------------------------------------------ the lobby


@dataclass
class OpenRoom:
    """One open room in the lobby: its `code` and `url`, the rules `line` (with the clock), who
    moves first in words, the host's `host_id`, `host_name` and `host_rating` ("1500", "1200?"),
    when it was listed, and whether only accounts may take its seat."""

    code: str
    url: str
    kind: str
    line: str
    first: str
    host_id: int
    host_name: str
    host_rating: str
    since: object
    accounts_only: bool


def _first_words(room: Room, game: Game) -> str:
    """Who moves first in the room's game, in words for someone about to take the free seat."""
    if game.kind == Game.Kind.REVERSI or game.first_mover == FirstMover.RANDOM:
        return _("Colours drawn at random")
    if game.first_mover == FirstMover.RPS:
        return _("Rock-paper-scissors decides who moves first")
    if game.first_mover == FirstMover.GUEST:
        return _("You move first")
    return _("The host moves first")


def open_rooms(kind: str = "", limit: int = LOBBY_SIZE, now=None) -> list[OpenRoom]:
    """The lobby's open rooms of `kind` ("" for all), newest first (see the module docstring).
    Two queries: the rooms with their games and hosts, the hosts' ratings."""
    cutoff = (now or timezone.now()) - timedelta(seconds=STALE_CONNECTION_S)
    host_here = Connection.objects.filter(game_id=OuterRef("current_game_id"), seat=Seat.HOST, seen_at__gte=cutoff)
    query = (Room.objects.filter(lobby_since__isnull=False, closed_at__isnull=True,
                                 current_game__status=Game.Status.WAITING)
             .filter(Exists(host_here)).select_related("current_game__host").order_by("-lobby_since"))
    if kind == Game.Kind.REVERSI:
        query = query.filter(preset="reversi")
    elif kind:
        query = query.exclude(preset="reversi")
    rooms = list(query[:limit])
    cats = {room.pk: rating_category(room.current_game) for room in rooms}
    hosts = {room.pk: room.current_game.host_id for room in rooms}
    standings = _standings({(hosts[room.pk], cats[room.pk]) for room in rooms}) if rooms else {}
    prefix = reverse("room", kwargs={"code": "AAAAAA"})[:-7]
    rows = []
    for room in rooms:
        game = room.current_game
        host = game.host
        value, games = standings[(hosts[room.pk], cats[room.pk])]
        rows.append(OpenRoom(
            code=room.code, url=f"{prefix}{room.code}/", kind=game.kind, line=game_summary(game),
            first=_first_words(room, game), host_id=host.pk, host_name=host.public_name,
            host_rating=shown_rating(host, elo.display(value, games)), since=room.lobby_since, accounts_only=room.accounts_only,
        ))
    return rows
