"""Ratings in the admin: only a superuser edits a rating directly, and the edit is audited; a
moderator's user page shows the player's rating history."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from moderation.models import AuditEntry
from ranking.models import Rating, RatingChange
from tests.integration.moderation_helpers import moderator

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _rating() -> Rating:
    player = User.objects.create_user(username="kien", password="pw-12345678")
    return Rating.objects.create(user=player, category="caro", value=1234, games=12)


def test_a_superuser_edits_a_rating_and_the_edit_is_audited():
    rating = _rating()
    boss = User.objects.create_superuser(username="boss", email="boss@example.com", password="pw-12345678")
    url = reverse("admin:ranking_rating_change", args=[rating.pk])
    page = _client(boss).get(url)
    assert page.status_code == 200 and b'name="value"' in page.content
    response = _client(boss).post(url, {"value": "1300"})
    assert response.status_code == 302
    rating.refresh_from_db()
    assert rating.value == 1300 and rating.games == 12
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RATING)
    assert entry.actor == boss and entry.user == rating.user
    assert entry.details == {"category": "caro", "from": 1234, "to": 1300}


def test_a_moderator_cannot_edit_a_rating():
    rating = _rating()
    client = _client(moderator())
    url = reverse("admin:ranking_rating_change", args=[rating.pk])
    page = client.get(url)
    assert b'name="value"' not in page.content
    response = client.post(url, {"value": "2000"})
    assert response.status_code in (302, 403)
    rating.refresh_from_db()
    assert rating.value == 1234
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.RATING).exists()


def test_the_user_page_shows_the_rating_history():
    from caro.games.models import Game

    rating = _rating()
    opponent = User.objects.create_user(username="lan", password="pw-12345678")
    game = Game.objects.create(host=rating.user, guest=opponent, rated=True)
    RatingChange.objects.create(game=game, user=rating.user, opponent=opponent, category="caro", score=1,
                                before=1214, after=1234, delta=20, k=40, opponent_before=1200)
    page = _client(moderator()).get(reverse("admin:accounts_user_change", args=[rating.user.pk]))
    assert page.status_code == 200
    assert "1214 → 1234 (+20)" in page.content.decode()


def test_the_game_list_filters_by_rating_category():
    from caro.games.kinds import KINDS
    from caro.games.models import Game

    host = User.objects.create_user(username="an", password="pw-12345678")
    ranked = Game.objects.create(host=host, kind="caro", rules=KINDS["caro"].rules_for("caro-vn"))
    other = Game.objects.create(host=host, kind="caro", rules=KINDS["caro"].rules_for("freestyle"))
    reversi = Game.objects.create(host=host, kind="reversi", rules={})
    client = _client(moderator())
    url = reverse("admin:games_game_changelist")
    shown = {cat: client.get(url, {"category": cat}).context["cl"].result_list for cat in ("caro", "reversi")}
    assert [g.pk for g in shown["caro"]] == [ranked.pk]
    assert [g.pk for g in shown["reversi"]] == [reversi.pk]
    assert other.pk in [g.pk for g in client.get(url).context["cl"].result_list]


def test_the_game_search_finds_games_by_a_players_name_in_either_seat():
    from caro.games.kinds import KINDS
    from caro.games.models import Game

    rules = KINDS["caro"].rules_for("caro-vn")
    minh = User.objects.create_user(username="minhkhoa", password="pw-12345678", display_name="Khoa Nguyen")
    lan = User.objects.create_user(username="lanchi", password="pw-12345678", display_name="Chi")
    other = User.objects.create_user(username="tuan", password="pw-12345678")
    as_host = Game.objects.create(host=minh, guest=other, kind="caro", rules=rules)
    as_guest = Game.objects.create(host=lan, guest=minh, kind="caro", rules=rules)
    neither = Game.objects.create(host=other, guest=lan, kind="caro", rules=rules)
    client = _client(moderator())
    url = reverse("admin:games_game_changelist")

    def found(term):
        return sorted(g.pk for g in client.get(url, {"q": term}).context["cl"].result_list)

    assert found("MINH") == sorted([as_host.pk, as_guest.pk])        # part of a username, any case
    assert found("nguyen") == sorted([as_host.pk, as_guest.pk])      # part of a display name
    assert found("lan") == sorted([as_guest.pk, neither.pk])
    assert found("nobody-like-this") == []
    assert len(found("")) == 3
