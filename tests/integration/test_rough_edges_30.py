"""Issue 30's rough edges that live on the server, against the real database: what a rated game in
play puts at stake in its state frame, annulled games marked wherever they are listed, an imported
PSQ record's player names, My games' words for an account, and the admin's game page in words."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from caro.engine.records import parse_psq
from caro.games import services as games
from caro.games.models import Game
from caro.games.snapshot import public_state
from moderation import services as moderation
from ranking import elo
from ranking.models import Rating
from tests.integration.moderation_helpers import moderator
from tests.integration.ranking.builders import account, rated_game, won_by

pytestmark = pytest.mark.django_db


def _client(user):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_a_rated_game_in_play_shows_both_ratings_and_what_each_result_would_change():
    strong, new = account(), account()
    Rating.objects.create(user=strong, category="caro", value=1600, games=40, listed=True, established=True)
    game = rated_game(strong, new, moves=0)
    stakes = public_state(game)["stakes"]
    host, guest = stakes[game.side_of("host")], stakes[game.side_of("guest")]
    assert (host["rating"], host["provisional"]) == (1600, False)
    assert (guest["rating"], guest["games"], guest["provisional"]) == (elo.START_RATING, 0, True)
    assert host["win"] == elo.rate(elo.Standing(1600, 40), elo.Standing(), elo.WIN).delta > 0
    assert host["loss"] < 0 and guest["win"] > abs(host["loss"]) - 1 and guest["loss"] < 0
    assert set(host) == {"rating", "games", "provisional", "win", "draw", "loss"}
    games.resign(game.pk, new)  # over: the changes made, no stakes any more
    state = public_state(Game.objects.get(pk=game.pk))
    assert "stakes" not in state


def test_an_unrated_game_has_no_stakes_and_costs_no_rating_query():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    game = rated_game(account(), account(), rated=False, moves=0)
    with CaptureQueriesContext(connection) as queries:
        state = public_state(game)
    assert "stakes" not in state
    assert not [q["sql"] for q in queries.captured_queries if Rating._meta.db_table in q["sql"]]


def test_an_annulled_game_is_marked_on_its_record_in_my_games_and_on_the_profile():
    winner, loser = account(display_name="Được"), account(display_name="Mất")
    game = won_by(winner, loser)
    moderation.annul(moderator(), game, reason="two accounts of one person")
    client = _client(winner)
    record = client.get(reverse("records:game_vi", args=[game.pk])).content.decode()
    assert 'data-testid="annulled"' in record and "Đã hủy kết quả" in record
    mine = client.get(reverse("records:mine_vi")).content.decode()
    assert 'data-testid="annulled"' in mine
    profile = client.get(reverse("ranking:profile", args=[winner.username])).content.decode()
    assert 'data-testid="annulled"' in profile and "đã hủy kết quả" in profile


def test_a_psq_record_keeps_the_players_names_and_the_export_writes_them():
    text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\nYixin2018.zip\nEmbryo21.zip\n0,Freestyle15\n"
    assert parse_psq(text).names == ("Yixin2018.zip", "Embryo21.zip")
    client = Client()
    answer = client.post(reverse("records:import_en"), {"text": text, "rules": "freestyle", "size": "15"})
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Yixin2018.zip" in page and "Embryo21.zip" in page and "unknown player" not in page
    assert "0.0 s" not in page  # a record without times shows none
    game = Game.objects.get()
    psq = client.get(reverse("records:export_en", args=[game.pk, "psq"])).content.decode()
    assert psq.endswith("-1\nYixin2018.zip\nEmbryo21.zip\n")


def test_my_games_does_not_promise_an_account_to_a_signed_in_player():
    from accounts.guests import create_guest
    promise = "Đăng ký để giữ chúng mãi mãi"  # "Sign up to keep them for good", told to guests only
    html = _client(account()).get(reverse("records:mine_vi")).content.decode()
    assert "Các ván của bạn, ván mới nhất ở trên cùng." in html and promise not in html
    guest = _client(create_guest()).get(reverse("records:mine_vi")).content.decode()
    assert promise in guest and "Các ván của bạn, ván mới nhất ở trên cùng." not in guest


def test_the_admin_game_page_shows_the_position_as_a_board_and_the_rules_in_words():
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-123456")
    game = rated_game(account(), account(), moves=2)
    html = _client(admin).get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert 'data-testid="admin-board"' in html and "<svg" in html
    assert "15×15" in html
    assert "Rules.to_dict()" not in html and game.position not in html


def test_the_report_form_is_answered_in_place_with_htmx():
    winner, loser = account(), account()
    game = won_by(winner, loser)
    client = _client(winner)
    url = reverse("moderation:report", args=[game.pk])
    sent = client.post(url, {"reason": "insults", "note": "rude"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in sent and 'data-testid="report-answer"' in sent and "report-sent" in sent
    assert "<form" not in sent  # sent: no second form to press
    again = client.post(url, {"reason": "insults"}, HTTP_HX_REQUEST="true").content.decode()
    assert "form-error" in again and "<form" in again and 'role="alert"' in again
    plain = client.post(url, {"reason": "insults"})
    assert plain.status_code == 302 and plain["Location"] == game.get_absolute_url()


@pytest.mark.parametrize("lang, words", [("vi", "Hãy chọn một lý do trong danh sách."),
                                         ("en", "Choose a reason from the list.")])
def test_a_refused_report_comes_back_in_place_with_its_reason_in_the_viewer_s_language(lang, words):
    from django.conf import settings
    from moderation.models import Report
    winner, loser = account(), account()
    game = won_by(winner, loser)
    client = _client(winner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    url = reverse("moderation:report", args=[game.pk])
    refused = client.post(url, {"reason": "no-such-reason"}, HTTP_HX_REQUEST="true")
    html = refused.content.decode()
    assert refused.status_code == 200, "htmx swaps only 2xx answers"
    assert "<html" not in html and html.lstrip().startswith("<details"), "the report box alone"
    answer = html[html.index('data-testid="report-answer"'):].split("</p>")[0]
    assert words in answer and 'role="alert"' in html and "form-error" in html
    assert " open" in html[html.index("<details"):].split(">")[0], "the box stays open"
    assert '<select name="reason"' in html and 'hx-post="' + url + '"' in html, "the form again, to try once more"
    assert not Report.objects.exists(), "a refused report changes nothing"
