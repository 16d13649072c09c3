"""Rating changes written in the ending transaction (ranking.receivers / services) against the
real PostgreSQL: rated finished games rate once, aborted and unrated never, annulments revert."""

import pytest
from django.db import transaction

from caro.games import services, signals, snapshot
from caro.games.models import Game
from caro.games.services.locking import lock
from ranking.models import Rating, RatingChange
from tests.integration.ranking.builders import account, drawn, rated_game, won_by

pytestmark = pytest.mark.django_db(transaction=True)


def rating(user, category="caro") -> Rating:
    return Rating.objects.get(user=user, category=category)


def test_a_rated_finished_game_writes_both_changes_and_updates_both_ratings():
    a, b = account(), account()
    game = won_by(a, b)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {a.pk, b.pk}
    win, loss = changes[a.pk], changes[b.pk]
    assert (win.before, win.after, win.delta, win.k, win.score) == (1200, 1220, 20, 40, 1.0)
    assert (loss.before, loss.after, loss.delta, loss.k, loss.score) == (1200, 1180, -20, 40, 0.0)
    assert win.opponent_id == b.pk and win.opponent_before == 1200 and win.category == "caro"
    ra, rb = rating(a), rating(b)
    assert (ra.value, ra.games, ra.wins, ra.losses, ra.display) == (1220, 1, 1, 0, "1220?")
    assert (rb.value, rb.games, rb.wins, rb.losses) == (1180, 1, 0, 1)
    assert ra.last_played_at == game.finished_at


def test_the_next_game_is_rated_from_the_ratings_after_the_previous_one():
    a, b = account(), account()
    won_by(a, b)  # 1220 / 1180
    game = drawn(a, b)
    change = RatingChange.objects.get(game=game, user=a)
    # E(1220 vs 1180) = 0.5576; 40 × (0.5 − 0.5576) = −2.30 → −2
    assert (change.before, change.delta, change.after) == (1220, -2, 1218)
    assert rating(b).value == 1182 and rating(a).draws == 1


def test_reversi_has_its_own_rating():
    a, b = account(), account()
    won_by(b, a, kind="reversi")
    assert rating(b, "reversi").value == 1220
    assert not Rating.objects.filter(category="caro").exists()


def test_aborted_unrated_and_unranked_formats_never_rate():
    a, b = account(), account()
    aborted = rated_game(a, b, moves=1)
    services.resign(aborted.pk, b)  # before both have moved: an abort
    aborted.refresh_from_db()
    assert aborted.status == Game.Status.ABORTED
    unrated = won_by(a, b, rated=False)
    other_size = won_by(a, b, rules={"size": 19, "win_length": 5, "exact": False,
                                     "blocked": "opponent_or_edge", "renju": False})
    assert other_size.status == unrated.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_signal_sent_twice_writes_the_changes_once():
    a, b = account(), account()
    game = won_by(a, b)
    with transaction.atomic():
        locked = lock(game.pk)
        signals.game_ended.send(sender=Game, game=locked)
        signals.game_ended.send(sender=Game, game=locked)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert (rating(a).value, rating(a).games) == (1220, 1)


def test_the_game_over_event_and_the_state_carry_both_changes_by_side():
    a, b = account(), account()
    game = rated_game(a, b)
    with transaction.atomic():
        locked = lock(game.pk)
        from caro.games.finish import finish
        event = finish(locked, winner="O", termination=Game.Termination.RESIGN)
    # both new players stay provisional after their first rated game (elo.PROVISIONAL_GAMES)
    assert event["ratings"] == {"X": {"before": 1200, "after": 1180, "delta": -20, "k": 40, "games": 1, "provisional": True},
                                "O": {"before": 1200, "after": 1220, "delta": 20, "k": 40, "games": 1, "provisional": True}}
    game.refresh_from_db()
    assert snapshot.public_state(game)["ratings"] == event["ratings"]


def test_the_new_rating_loses_its_provisional_mark_at_the_tenth_rated_game():
    from ranking import elo
    a, b = account(), account()
    Rating.objects.create(user=a, category="caro", games=elo.PROVISIONAL_GAMES - 2)
    Rating.objects.create(user=b, category="caro", games=elo.PROVISIONAL_GAMES - 1)
    game = rated_game(a, b)
    with transaction.atomic():
        from caro.games.finish import finish
        event = finish(lock(game.pk), winner="X", termination=Game.Termination.RESIGN)
    by_games = {side: (r["games"], r["provisional"]) for side, r in event["ratings"].items()}
    assert sorted(by_games.values()) == [(elo.PROVISIONAL_GAMES - 1, True), (elo.PROVISIONAL_GAMES, False)]


def test_an_unrated_game_has_no_rating_fields():
    a, b = account(), account()
    game = won_by(a, b, rated=False)
    assert "ratings" not in snapshot.public_state(game)


def test_an_annulment_reverts_exactly_that_games_changes_and_keeps_later_ones():
    a, b, c = account(), account(), account()
    first = won_by(a, b)       # a 1220, b 1180
    annulled = won_by(a, c)    # a: E(1220 vs 1200) = 0.5288 → +19 = 1239; c 1181
    later = won_by(b, a)       # b 1180 beats a 1239: E = 0.4152 → +23; a −23 → 1216
    a_annulled = RatingChange.objects.get(game=annulled, user=a)
    a_later = RatingChange.objects.get(game=later, user=a)
    assert (a_annulled.delta, a_later.before, a_later.delta) == (19, 1239, -23)

    with transaction.atomic():
        signals.game_annulled.send(sender=Game, game=Game.objects.select_for_update().get(pk=annulled.pk))

    ra, rc = rating(a), rating(c)
    assert (ra.value, ra.games, ra.wins, ra.losses) == (1216 - 19, 2, 1, 1)
    assert (rc.value, rc.games, rc.losses) == (1200, 0, 0)
    assert rating(b).value == 1180 + 23  # b's games are untouched
    reverted = RatingChange.objects.filter(game=annulled)
    assert reverted.count() == 2 and all(c.reverted_at is not None for c in reverted)
    assert RatingChange.objects.filter(game__in=[first, later], reverted_at__isnull=True).count() == 4
    annulled.refresh_from_db()
    assert snapshot.public_state(annulled)["ratings"] is None

    # A second annulment of the same game changes nothing.
    with transaction.atomic():
        signals.game_annulled.send(sender=Game, game=annulled)
    assert rating(a).value == 1216 - 19
