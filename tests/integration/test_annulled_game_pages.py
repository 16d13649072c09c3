"""An annulled rated game, as players see it after a moderator's annulment: its record says
annulled (not "rated") and shows each rating change struck through as refunded; "My games" and the
profile say annulled and never show the change as counted."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from moderation import services
from ranking.models import RatingChange
from tests.integration.moderation_helpers import moderator
from tests.integration.ranking.builders import account, won_by

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _get(client, url, lang="vi") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, url
    return response.content.decode()


def _annulled_game():
    winner, loser = account(display_name="Lan"), account(display_name="Minh")
    game = won_by(winner, loser)
    services.annul(moderator(), game, reason="Two accounts of one person")
    game.refresh_from_db()
    return game, winner, loser


def test_an_annulled_games_record_says_annulled_not_rated_and_strikes_the_refunded_changes():
    game, winner, loser = _annulled_game()
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    up, down = changes[winner.pk], changes[loser.pk]
    html = _get(_client(), f"/van/{game.pk}/")
    assert 'data-testid="rated"' not in html and ">Tính điểm<" not in html
    assert "Đã hủy kết quả: không tính điểm, điểm thay đổi đã được hoàn lại" in html
    # Each change struck through (<s>) and said refunded; never a plain "+20" as if it counted.
    x_line = re.search(r'data-testid="rating-X"[^>]*>\s*(\d+)\s*<s class="delta">([^<]+)</s>\s*'
                       r'<span class="refund">([^<]+)</span>', html)
    o_line = re.search(r'data-testid="rating-O"[^>]*>\s*(\d+)\s*<s class="delta">([^<]+)</s>\s*'
                       r'<span class="refund">([^<]+)</span>', html)
    assert x_line and o_line, html
    assert (x_line[1], x_line[2], x_line[3]) == (str(up.before), f"+{up.delta}", "hoàn lại")
    assert (o_line[1], o_line[2]) == (str(down.before), f"\u2212{-down.delta}")
    assert '<span class="delta">' not in html
    english = _get(_client(), f"/en/game/{game.pk}/", "en")
    assert 'data-testid="rated"' not in english and ">Rated<" not in english
    assert "Annulled: not counted, its rating changes were refunded" in english
    assert re.search(r'<s class="delta">\+\d+</s>\s*<span class="refund">refunded</span>', english)


def test_a_rated_game_not_annulled_still_says_rated_with_plain_changes():
    winner, loser = account(), account()
    game = won_by(winner, loser)
    html = _get(_client(), f"/van/{game.pk}/")
    assert 'data-testid="rated"' in html and 'data-testid="annulled"' not in html
    assert "<s " not in html.split('class="players"')[1].split('class="result"')[0]


def test_my_games_and_the_profile_say_annulled_and_never_show_the_change_as_counted():
    game, winner, _loser = _annulled_game()
    delta = RatingChange.objects.get(game=game, user=winner).signed_delta
    mine = _get(_client(winner), reverse("records:mine_vi"))
    row = mine.split(f'href="/van/{game.pk}/"')[1].split("</li>")[0]
    assert 'data-testid="annulled"' in row and "Đã hủy kết quả" in row and delta not in row
    profile = _get(_client(), reverse("ranking:profile", args=[winner.username]))
    row = profile.split(f'href="{game.get_absolute_url()}"')[1].split("</li>")[0]
    assert "đã hủy kết quả" in row and delta not in row
    assert 'data-testid="annulled"' in profile.split(f'href="{game.get_absolute_url()}"')[0].rsplit("<li", 1)[1]
