"""A moderator's annulment, end to end: `moderation.services.annul` marks the game annulled and the
ranking app reverts exactly that game's rating changes, with later rated games in between."""

import pytest

from moderation import services
from moderation.models import AuditEntry
from ranking.models import Rating, RatingChange
from tests.integration.moderation_helpers import moderator
from tests.integration.ranking.builders import account, won_by

pytestmark = pytest.mark.django_db(transaction=True)


def _value(user) -> int:
    return Rating.objects.get(user=user, category="caro").value


def test_annulling_through_moderation_reverts_exactly_that_games_deltas():
    a, b, c = account(), account(), account()
    won_by(a, b)                # a 1220, b 1180
    annulled = won_by(a, c)     # a +19 → 1239, c −19 → 1181
    later = won_by(b, a)        # b +23 → 1203, a −23 → 1216
    assert (_value(a), _value(b), _value(c)) == (1216, 1203, 1181)

    game = services.annul(moderator(), annulled, reason="Two accounts of one person")

    assert game.annulled and game.annul_reason == "Two accounts of one person"
    assert (_value(a), _value(b), _value(c)) == (1216 - 19, 1203, 1200)
    assert RatingChange.objects.get(game=later, user=a).delta == -23  # the later game keeps its change
    assert RatingChange.objects.filter(game=annulled, reverted_at__isnull=False).count() == 2
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ANNUL, game=annulled).count() == 1
    # Annulling it again is refused and changes nothing.
    with pytest.raises(services.ModerationError):
        services.annul(moderator("mod2"), annulled, reason="again")
    assert (_value(a), _value(c)) == (1216 - 19, 1200)


def _rating(user):
    return Rating.objects.get(user=user, category="caro")


def test_an_annulment_takes_the_games_own_peak_away():
    """New-user trial: after the only game was annulled the player had 1200 with 0 games, and a
    highest rating of 1220 still."""
    a, b = account(), account()
    game = won_by(a, b)
    assert (_rating(a).value, _rating(a).peak) == (1220, 1220)
    services.annul(moderator(), game, reason="Two accounts of one person")
    ra, rb = _rating(a), _rating(b)
    assert (ra.value, ra.games, ra.peak) == (1200, 0, 1200)
    assert (rb.value, rb.games, rb.peak) == (1200, 0, 1200)


def test_after_an_annulment_with_later_games_the_peak_follows_the_same_rule_as_the_rating():
    a, b, c = account(), account(), account()
    first = won_by(a, b)        # a 1220
    won_by(a, c)                # a 1239 (the peak)
    won_by(b, a)                # a 1216
    assert _rating(a).peak == 1239
    services.annul(moderator(), first, reason="r")
    ra = _rating(a)
    # The current rating loses the first game's +20 (1196); so does every rating after it: the
    # path is 1200, 1219, 1196, and the peak 1219 (not 1239, which counted the annulled game).
    assert (ra.value, ra.peak) == (1216 - 20, 1239 - 20)
    # b lost the annulled game: the refund raises b's later ratings, and the peak with them.
    rb = _rating(b)
    assert rb.value == rb.peak == 1180 + 23 + 20


def test_an_annulment_of_the_game_that_reached_2400_gives_the_regular_k_back():
    a, b = account(), account()
    Rating.objects.create(user=a, category="caro", value=2399, games=40, wins=40, peak=2399)
    game = won_by(a, b)
    assert _rating(a).value >= 2400 and _rating(a).reached_top
    services.annul(moderator(), game, reason="r")
    ra = _rating(a)
    assert (ra.value, ra.peak, ra.reached_top) == (2399, 2399, False)


def test_after_an_annulment_the_profile_chart_ends_at_the_rating_shown():
    from ranking import pages

    a, b, c = account(), account(), account()
    first = won_by(a, b)        # a 1220
    won_by(a, c)                # a 1239
    won_by(b, a)                # a 1216
    assert pages.history(a, "caro").points == [1200, 1220, 1239, 1216]
    services.annul(moderator(), first, reason="r")
    # The annulled game is left out and the later ratings move by its refunded +20, as the rating did.
    assert pages.history(a, "caro").points == [1200, 1219, 1196] and _value(a) == 1196
    assert pages.history(b, "caro").points == [1200, 1223] and _value(b) == 1223
