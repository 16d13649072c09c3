""""My games" in pages (issue 30, htmx where a page changes in part): RECENT_GAMES games a page,
newest first, the pager's links; asked by htmx only the list and its pager come back (no page
around them), in a constant number of queries; bad page numbers fall back to the first page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from caro.games.models import Game
from caro.records.views import RECENT_GAMES
from tests.integration.ranking.builders import account, rated_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _player_with_games(n):
    me, other = account(display_name="Tôi"), account(display_name="Bạn")
    for _ in range(n):
        rated_game(me, other, rated=False, moves=0)
    client = Client()
    client.force_login(me, backend="django.contrib.auth.backends.ModelBackend")
    return me, client


def _ids(html):
    return [int(part.split("/", 1)[0]) for part in html.split('<li><a href="/van/')[1:]]


def test_my_games_come_in_pages_and_htmx_gets_the_list_alone(django_assert_max_num_queries):
    me, client = _player_with_games(RECENT_GAMES + 5)
    newest_first = list(Game.objects.of_player(me).order_by("-created_at", "-pk").values_list("pk", flat=True))
    url = reverse("records:mine_vi")
    first = client.get(url).content.decode()
    assert _ids(first) == newest_first[:RECENT_GAMES]
    assert 'data-testid="page-older"' in first and 'href="?page=2"' in first and 'data-testid="page-newer"' not in first
    assert "<html" in first and "Trang 1" in first
    with django_assert_max_num_queries(6):  # session, user, one page of games (with both players), restrictions
        full_page = client.get(url, {"page": 1}, **HTMX)
    assert len(_ids(full_page.content.decode())) == RECENT_GAMES  # as many queries for 30 rows as for 5
    with django_assert_max_num_queries(6):
        part = client.get(url, {"page": 2}, **HTMX)
    html = part.content.decode()
    assert "<html" not in html and "<h1" not in html, "htmx gets the list and its pager alone"
    assert _ids(html) == newest_first[RECENT_GAMES:]
    assert 'data-testid="page-newer"' in html and 'data-testid="page-older"' not in html and "Trang 2" in html
    assert "HX-Request" in part["Vary"]
    whole = client.get(url, {"page": 2}).content.decode()  # the same page without htmx: the whole page
    assert "<html" in whole and _ids(whole) == newest_first[RECENT_GAMES:]


@pytest.mark.parametrize("page", ["0", "-3", "abc", "2.5", "99999999"])
def test_a_bad_page_number_shows_the_first_page(page):
    me, client = _player_with_games(2)
    html = client.get(reverse("records:mine_en"), {"page": page}).content.decode()
    assert len(_ids(html.replace("/en/game/", "/van/"))) == 2


def test_a_page_past_the_end_says_so_and_links_to_the_newest():
    me, client = _player_with_games(2)
    html = client.get(reverse("records:mine_en"), {"page": 5}).content.decode()
    assert 'data-testid="no-games-on-page"' in html and 'href="/en/game/mine/"' in html
    assert 'data-testid="page-newer"' in html and 'href="?page=4"' in html


def test_my_games_is_linked_from_the_header_for_visitors_and_guests_and_from_the_account_menu():
    import re

    from accounts.guests import create_guest

    mine_vi, mine_en = reverse("records:mine_vi"), reverse("records:mine_en")
    visitor = Client().get("/").content.decode()
    assert re.search(rf'<a class="nav-mine" href="{mine_vi}" data-testid="my-games">Ván của tôi</a>', visitor)
    english = Client(headers={"cookie": "django_language=en"}).get("/").content.decode()
    assert f'href="{mine_en}" data-testid="my-games">My games</a>' in english
    guest = Client()
    guest.force_login(create_guest(), backend="django.contrib.auth.backends.ModelBackend")
    assert 'data-testid="my-games"' in guest.get("/").content.decode()
    _me, client = _player_with_games(1)
    page = client.get("/").content.decode()
    menu = page.split('data-testid="user-menu"', 1)[1].split("</details>", 1)[0]
    assert f'href="{mine_vi}" data-testid="my-games">Ván của tôi</a>' in menu
    assert client.get(mine_vi).status_code == 200
