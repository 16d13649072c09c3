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
