"""What the leaderboard and the profile pages show, as queries shaped for speed with 100,000
rated players (bench/pages.py measures them).

Leaderboard policy (issue 30: it welcomes new players): a player is listed in a category while
they have played a rated game there in the last `ACTIVE_DAYS` days. `Rating.listed` holds that:
every rated game sets it (`services.rate_game`), the hourly `tasks.unlist_inactive` clears it for
a player who stopped. Established players (`elo.PROVISIONAL_GAMES` rated games or more,
`Rating.established`) come first; provisional ones after them, marked "?" (their rating is still
settling). Order within each: rating, best first; equal ratings by the older account (lower user
id) first, so every listed player has one rank. The leaderboard and the rank read only the partial
index `rating_leaderboard_tiers`. The list has pages of `LEADERBOARD_SIZE` (at most `MAX_PAGES`);
a viewer further down still sees their own place.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.cache import cache
from django.db.models import OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from caro.games.models import Game, Seat
from ranking import elo
from ranking.models import Rating, RatingChange

#: Players listed on a leaderboard page.
LEADERBOARD_SIZE = 100
#: Pages of the leaderboard one can open (an OFFSET deeper than this reads too much of the index;
#: a player further down sees their own place under the page).
MAX_PAGES = 50
#: The leaderboard's order (`rating_leaderboard_tiers`).
ORDER = ("-established", "-value", "user_id")
#: A leaderboard's rendered top rows are kept this long at most (renames show after it), s.
TOP_ROWS_CACHE_S = 60
#: A player with no rated game in a category for this many days leaves its leaderboard (until
#: they play again; the rating itself is kept).
ACTIVE_DAYS = 30
#: A profile shows the player's rank only within this many places (a bounded COUNT: the exact rank
#: of a player far down costs counting most of the table, which only their own leaderboard view pays).
PROFILE_RANK_LIMIT = 1000
#: A player's rank outside the top rows is kept this long at most, s: counting the listed players
#: above a rating far down reads most of the index (~15 ms with 100,000 players), so a viewer who
#: reloads pays it once per period. Their own rating change makes a new key at once
#: (`rank_key`); other players' changes show within this time.
RANK_CACHE_S = 30
#: A profile's rendered rating chart is kept this long at most, s (a new key with every change of
#: the rating: `chart_key`).
CHART_CACHE_S = 600
#: How long a profile's rendered recent-games list is kept (s). Its key names every row's game
#: and rating change (`recent_key`), so a new game or an annulment shows at once; only an
#: opponent's new display name can wait this long.
RECENT_CACHE_S = 120
#: Games listed on a profile, newest first.
RECENT_GAMES = 20
#: Rated games drawn in a profile's chart per category (the newest ones).
CHART_GAMES = 200


def listed(category: str) -> QuerySet:
    """The ratings of `category` that appear on its leaderboard (see the module docstring)."""
    return Rating.objects.filter(category=category, listed=True)


def inactive_since(now=None):
    """The moment before which a last rated game makes a player inactive (`ACTIVE_DAYS` ago)."""
    return (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)


def page_number(value) -> int:
    """A leaderboard page number from the query (1..`MAX_PAGES`; 1 for anything else)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return 1
    return number if 1 <= number <= MAX_PAGES else 1


def top(category: str, page: int = 1) -> list[Rating]:
    """Page `page` of `category`'s listed ratings (`LEADERBOARD_SIZE` each), in the leaderboard's
    order, with their users."""
    start = (page - 1) * LEADERBOARD_SIZE
    return list(listed(category).select_related("user").order_by(*ORDER)[start:start + LEADERBOARD_SIZE])


def top_key(category: str, language: str, page: int = 1) -> str:
    """The cache key of `category`'s rendered rows of `page` in `language`, as they stand now (see
    `top_state`)."""
    return top_state(category, language, page)[0]


def top_state(category: str, language: str, page: int = 1) -> tuple[str, dict[int, int]]:
    """The cache key of `category`'s rendered rows of `page` in `language` and the places of the
    players in them (user id -> rank), as they stand now: the key names who is on the page, in
    order, with their rating, games and last change (one index scan of those rows, no users
    read), so any change to the page makes a new key and a rating change elsewhere leaves it. A
    renamed player shows under the new name within `TOP_ROWS_CACHE_S`. A viewer on the page
    finds their exact rank here, without a COUNT."""
    start = (page - 1) * LEADERBOARD_SIZE
    rows = list(listed(category).order_by(*ORDER).values_list(
        "user_id", "value", "games", "updated_at")[start:start + LEADERBOARD_SIZE])
    digest = hashlib.blake2b(repr(rows).encode(), digest_size=12).hexdigest()
    places = {row[0]: place for place, row in enumerate(rows, start=start + 1)}
    return f"ranking:top:{category}:{language}:{page}:{digest}", places


def rank_key(rating: Rating, limit: int | None = None) -> str:
    """The cache key of `rating`'s rank (`cached_rank`): it names the rating's value and last
    change, so the player's own rated game (or an annulment's revert: both save `updated_at`)
    makes a new key at once."""
    stamp = rating.updated_at.timestamp() if rating.updated_at else 0
    return f"ranking:rank:{rating.category}:{rating.user_id}:{rating.value}:{stamp}:{limit or 0}"


def chart_key(rating: Rating, language: str) -> str:
    """The cache key of `rating`'s history chart in `language`: the chart is drawn from the
    player's rating changes, and each rated game and each annulment's revert saves the rating
    (`updated_at`, `games`), so a new change makes a new key."""
    stamp = rating.updated_at.timestamp() if rating.updated_at else 0
    return f"ranking:chart:{rating.category}:{rating.user_id}:{language}:{stamp}:{rating.games}:{CHART_GAMES}"


def cached_rank(rating: Rating, limit: int | None = None) -> int | None:
    """`rank_of(rating, limit)`, kept `RANK_CACHE_S` per rating state (`rank_key`). None when the
    rating is not listed (read from `rating` itself, never from the cache) or, with `limit`, when
    the rank is worse than `limit`."""
    if not rating.listed:
        return None
    key = rank_key(rating, limit)
    stored = cache.get(key)
    if stored is not None:
        return stored or None  # 0 stands for "worse than limit"
    rank = rank_of(rating, limit)
    cache.set(key, rank or 0, RANK_CACHE_S)
    return rank


def rank_of(rating: Rating, limit: int | None = None) -> int | None:
    """`rating`'s rank (1 = best) on its leaderboard, or None when it is not listed: COUNTs on the
    index, of the established players when `rating` is provisional (they all come first), of the
    listed ratings of its own tier above it, and of those equal to it with a lower user id. With
    `limit`, None too when the rank is worse than `limit` (the COUNTs stop there)."""
    if not rating.listed:
        return None
    tier = listed(rating.category).filter(established=rating.established)
    parts = [tier.filter(value__gt=rating.value), tier.filter(value=rating.value, user_id__lt=rating.user_id)]
    if not rating.established:
        parts.insert(0, listed(rating.category).filter(established=True))
    if limit is None:
        return sum(part.count() for part in parts) + 1
    ahead = 0
    for part in parts:
        if ahead >= limit:
            break
        ahead += part[:limit - ahead].count()
    return ahead + 1 if ahead < limit else None


@dataclass
class RecentGame:
    """One row of a profile's recent games: the `game`, the player's `result` ("win", "draw",
    "loss"), the `opponent` (a user or None), the computer's level when it was the opponent, and
    the rating `change` when the game was rated."""

    game: Game
    result: str
    opponent: object = None
    bot_level: str = ""
    change: RatingChange | None = None


@dataclass
class History:
    """A category's chart data: the ratings before the first charted game and after each."""

    category: str
    points: list[int] = field(default_factory=list)


#: What a profile's recent-games row reads: the game's ~50 columns and both players' ~30 each made
#: the query's SQL and its model objects cost more than the page's other queries together.
RECENT_GAME_FIELDS = ("id", "kind", "status", "host_id", "guest_id", "host_side", "winner", "bot_seat", "bot_level",
                      "finished_at", "annulled", "host__id", "host__username", "host__display_name",
                      "guest__id", "guest__username", "guest__display_name")


def recent_games(user, limit: int = RECENT_GAMES) -> list[RecentGame]:
    """`user`'s last `limit` finished games (not local ones), newest first, each with its rating
    change for `user` when it was rated (two queries)."""
    games = list(
        Game.objects.of_player(user).filter(status=Game.Status.FINISHED).exclude(host=user, guest=user)
        .select_related("host", "guest").only(*RECENT_GAME_FIELDS).order_by("-finished_at", "-pk")[:limit]
    )
    changes = {c.game_id: c for c in RatingChange.objects.filter(
        user=user, game_id__in=[g.pk for g in games], reverted_at__isnull=True)}
    rows = []
    for game in games:
        seat = Seat.HOST if game.host_id == user.pk else Seat.GUEST
        other = Seat.GUEST if seat == Seat.HOST else Seat.HOST
        side = game.side_of(seat)
        result = "draw" if not game.winner else ("win" if game.winner == side else "loss")
        rows.append(RecentGame(
            game=game, result=result, opponent=game.player_in(other),
            bot_level=game.bot_level if game.bot_seat == other else "", change=changes.get(game.pk),
        ))
    return rows


def recent_key(rows: list[RecentGame]) -> str:
    """The part of the recent-games fragment's cache key that changes with its content: each row's
    game id and end time (µs: ids alone repeat in a database made again) and its rating change's
    id (0 for none; a reverted change is left out of the rows)."""
    return ".".join(f"{row.game.pk}-{row.game.finished_at.timestamp() if row.game.finished_at else 0}"
                    f"-{row.change.pk if row.change else 0}-{int(row.game.annulled)}" for row in rows)


def history(user, category: str, limit: int = CHART_GAMES) -> History:
    """The rating chart of `user` in `category`: their last `limit` rated games (annulled ones left
    out), oldest first, as the rating before the first and after each (one query). Each rating is
    lower by the changes refunded before it (a refunded loss raises it), the rule an annulment keeps
    for the current rating (`services.revert_game`), so the chart ends at the rating shown."""
    refunded_before = (RatingChange.objects.filter(user=user, category=category, reverted_at__isnull=False,
                                                   created_at__lt=OuterRef("created_at"))
                       .values("user").annotate(total=Sum("delta")).values("total"))
    changes = list(RatingChange.objects.filter(user=user, category=category, reverted_at__isnull=True)
                   .annotate(refunded=Coalesce(Subquery(refunded_before), 0))
                   .order_by("-created_at", "-pk").values_list("before", "after", "refunded")[:limit])
    changes.reverse()
    points = ([changes[0][0] - changes[0][2]] + [after - refunded for _before, after, refunded in changes]
              if changes else [])
    return History(category=category, points=points)


def visible_profile_user(model, username: str):
    """The registered user called `username` (exactly, else case-insensitively), or None: guests
    and unknown names have no public profile (a guest's name is generated and the guest is purged
    when idle)."""
    users = model.objects.filter(is_guest=False, is_active=True)
    return users.filter(username=username).first() or users.filter(username__iexact=username).first()
