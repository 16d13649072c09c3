"""The pages that show the site's life cost a fixed number of SQL statements, however many rooms
wait in the lobby, games are live and players are rated (issue 30: 10,000 live games and 100,000
players must not make a page slower; bench/live_pages.py times them), for a visitor and for a
signed-in player with a rating (their own rooms and rating are part of what the pages show)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.guests import create_guest
from lobby import counts
from ranking.models import Rating
from tests.integration.lobby.builders import live_room, lobby_room
from tests.integration.ranking.builders import account

pytestmark = pytest.mark.django_db

PAGES = ("home", "lobby", "watch", "live_counts")


def _world(n):
    """`n` rooms waiting in the lobby (half of them hosted by rated accounts), `n` live games."""
    for i in range(n):
        host = account() if i % 2 else create_guest()
        if i % 2:
            Rating.objects.create(user=host, category="caro", value=1300 + i, games=i, listed=True, established=i >= 10)
        lobby_room(host=host)
        live_room(create_guest(), create_guest())
    counts.recount()


def _queries(client):
    found = {}
    for name in PAGES:
        client.get(reverse(name))  # the visitor's cookie, warm caches
        # The beat recounts who is here every COUNTS_FRESH_S; on a slow machine the counts may have
        # gone stale since (a page then pays the recount: a fixed 2 statements, but not the page's).
        counts.recount()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse(name)).status_code == 200
        found[name] = len(captured.captured_queries)
    return found


def test_the_live_pages_cost_the_same_statements_with_2_or_20_rooms_and_games_for_a_visitor_and_a_member():
    member = account(display_name="Thành_Viên")
    Rating.objects.create(user=member, category="caro", value=1450, games=3, listed=True)
    signed_in = Client()
    signed_in.force_login(member, backend="django.contrib.auth.backends.ModelBackend")
    lobby_room(host=member)  # the member's own room is in the lobby too
    _world(2)
    few = {"visitor": _queries(Client()), "member": _queries(signed_in)}
    _world(18)
    many = {"visitor": _queries(Client()), "member": _queries(signed_in)}
    assert few == many, (few, many)
    assert few["visitor"]["home"] == 0 and few["visitor"]["live_counts"] == 0  # counters, not COUNT(*)
    assert max(few["member"].values()) <= 4
