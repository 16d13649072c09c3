"""Rating writes: a rated game's changes, and undoing them for an annulled game.

Both run inside the caller's transaction (the one that ends or annuls the game, which holds the
game's row lock) and lock the two players' `Rating` rows with SELECT ... FOR UPDATE in user-id
order, so two games sharing a player wait for each other instead of deadlocking, and each game
is rated from the ratings as they stood just before it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from caro.games.models import Game, Seat
from ranking import categories, elo
from ranking.models import Rating, RatingChange


def rateable_category(game: Game) -> str | None:
    """The category `game` is rated in, or None when it changes no rating: not `rated`, not
    FINISHED (an aborted game never rates), no category for its format, or not two different
    people seated (a computer, an open seat or a local game)."""
    if not game.rated or game.status != Game.Status.FINISHED:
        return None
    if game.bot_seat or game.host_id is None or game.guest_id is None or game.host_id == game.guest_id:
        return None
    return categories.category_of(game)


def _score(game: Game, seat: str) -> float:
    if not game.winner:
        return elo.DRAW
    return elo.WIN if game.side_of(seat) == game.winner else elo.LOSS


def _locked_ratings(user_ids: list[int], category: str) -> dict[int, Rating]:
    """The `Rating` rows of `user_ids` in `category`, locked in user-id order; missing rows are
    created at `elo.START_RATING` first (INSERT ... ON CONFLICT DO NOTHING, in the same order)."""
    user_ids = sorted(user_ids)
    query = Rating.objects.select_for_update().filter(category=category, user_id__in=user_ids).order_by("user_id")
    ratings = {rating.user_id: rating for rating in query}
    missing = [uid for uid in user_ids if uid not in ratings]
    if missing:
        Rating.objects.bulk_create([Rating(user_id=uid, category=category) for uid in missing],
                                   ignore_conflicts=True)
        ratings = {rating.user_id: rating for rating in query.all()}
    return ratings


def rate_game(game: Game) -> list[RatingChange]:
    """Write both players' rating changes for `game`, just ended (FINISHED) and locked by the
    caller, inside the caller's transaction; returns the two new `RatingChange` rows (host's first).

    Nothing happens (returns []) when `rateable_category(game)` is None, or when the game already
    has its changes (a repeated call or signal writes nothing: the (game, user) pair is unique).
    """
    category = rateable_category(game)
    if category is None:
        return []
    with transaction.atomic():
        if RatingChange.objects.filter(game=game).exists():
            return []
        ratings = _locked_ratings([game.host_id, game.guest_id], category)
        host, guest = ratings[game.host_id], ratings[game.guest_id]
        host_score = _score(game, Seat.HOST)
        host_update, guest_update = elo.rate_game(host.standing(), guest.standing(), host_score)
        changes = []
        for rating, update, score, opponent in (
            (host, host_update, host_score, guest), (guest, guest_update, 1.0 - host_score, host),
        ):
            changes.append(RatingChange(
                game=game, user_id=rating.user_id, opponent_id=opponent.user_id, category=category,
                score=score, before=update.before, after=update.after, delta=update.delta, k=update.k,
                opponent_before=opponent.value,
            ))
        for rating, update, score in ((host, host_update, host_score), (guest, guest_update, 1.0 - host_score)):
            rating.value = update.after
            rating.games += 1
            rating.wins += score == elo.WIN
            rating.draws += score == elo.DRAW
            rating.losses += score == elo.LOSS
            rating.peak = max(rating.peak, update.after)
            rating.last_played_at = game.finished_at or timezone.now()
            rating.listed = True
            rating.established = not elo.is_provisional(rating.games)
            rating.save(update_fields=["value", "games", "wins", "draws", "losses", "peak",
                                       "last_played_at", "listed", "established", "updated_at"])
        return RatingChange.objects.bulk_create(changes)


def revert_game(game: Game) -> list[RatingChange]:
    """Undo `game`'s rating changes (an admin annulment), inside the caller's transaction: each
    player's current rating loses exactly that game's `delta` and one game of that result; the
    changes stay stored, marked `reverted_at`. Games played after it keep their own changes (their
    deltas were computed from the ratings of the time, and are not recomputed). The peak is
    recomputed from the history that remains (`elo.peak_of`, the same rule: every rating after a
    refunded change moves by its delta), so a peak only the annulled game reached goes, and with it
    K = 10 when that game was what reached 2400. Returns the changes reverted; [] when there is
    nothing (left) to revert, so a repeated annulment changes nothing.
    """
    with transaction.atomic():
        changes = list(RatingChange.objects.select_for_update()
                       .filter(game=game, reverted_at__isnull=True).order_by("user_id"))
        if not changes:
            return []
        now = timezone.now()
        for change in changes:
            rating = _locked_ratings([change.user_id], change.category)[change.user_id]
            change.reverted_at = now
            change.save(update_fields=["reverted_at"])
            rating.value -= change.delta
            rating.games = max(0, rating.games - 1)
            if change.score == elo.WIN:
                rating.wins = max(0, rating.wins - 1)
            elif change.score == elo.DRAW:
                rating.draws = max(0, rating.draws - 1)
            else:
                rating.losses = max(0, rating.losses - 1)
            history = (RatingChange.objects.filter(user_id=change.user_id, category=change.category)
                       .order_by("created_at", "pk").values_list("after", "delta", "reverted_at"))
            rating.peak = elo.peak_of(((after, delta, reverted is not None) for after, delta, reverted in history),
                                  rating.value)
            rating.listed = rating.listed and rating.games > 0
            rating.established = not elo.is_provisional(rating.games)
            rating.save(update_fields=["value", "games", "wins", "draws", "losses", "peak", "listed", "established",
                                       "updated_at"])
        return changes


def game_over_ratings(game: Game) -> dict | None:
    """The rating changes of a game that is over, per side, for the `game_over` event and the
    `state` frame: `{"X": {"before", "after", "delta", "k", "games", "provisional"}, "O": {...}}`
    (points; `games` the player's rated games in that category now, `provisional` True while fewer
    than `elo.PROVISIONAL_GAMES`, so the room keeps the "?" on a new player's new rating), or None
    for a game that changed no rating (unrated, aborted, or annulled). Two queries."""
    if not game.rated or game.status != Game.Status.FINISHED:
        return None
    changes = list(RatingChange.objects.filter(game=game, reverted_at__isnull=True))
    if not changes:
        return None
    games = dict(Rating.objects.filter(user_id__in=[c.user_id for c in changes], category=changes[0].category)
                 .values_list("user_id", "games"))
    host_side = game.side_of(Seat.HOST)
    guest_side = game.side_of(Seat.GUEST)
    result = {}
    for change in changes:
        side = host_side if change.user_id == game.host_id else guest_side
        played = games.get(change.user_id, 0)
        result[side] = {"before": change.before, "after": change.after, "delta": change.delta, "k": change.k,
                        "games": played, "provisional": elo.is_provisional(played)}
    return result


def game_stakes(game: Game) -> dict | None:
    """What each result of a rated game in play would change, per side, for its `state` frame (the
    room shows both ratings and the three changes before the first move, as Lichess does):
    `{"X": {"rating", "games", "provisional", "win", "draw", "loss"}, "O": {...}}` (points; the
    changes signed ints, e.g. +12 / -3 / -18), from the ratings as they stand now (a player without
    a rating yet counts at `elo.START_RATING`). None for a game that rates nothing
    (`rateable_category` of the game as if it finished). One query."""
    if not game.rated or game.is_over or game.host_id is None or game.guest_id is None:
        return None
    if game.bot_seat or game.host_id == game.guest_id:
        return None
    category = categories.category_of(game)
    if category is None:
        return None
    ratings = {r.user_id: r for r in Rating.objects.filter(category=category, user_id__in=[game.host_id, game.guest_id])}
    standings = {uid: ratings[uid].standing() if uid in ratings else elo.Standing()
                 for uid in (game.host_id, game.guest_id)}
    stakes = {}
    for seat in (Seat.HOST, Seat.GUEST):
        me = game.player_id_in(seat)
        other = game.player_id_in(Seat.GUEST if seat == Seat.HOST else Seat.HOST)
        mine, theirs = standings[me], standings[other]
        stakes[game.side_of(seat)] = {
            "rating": mine.rating, "games": mine.games, "provisional": elo.is_provisional(mine.games),
            **{name: elo.rate(mine, theirs, score).delta
               for name, score in (("win", elo.WIN), ("draw", elo.DRAW), ("loss", elo.LOSS))},
        }
    return stakes
