"""Live games between people for the watch page and the featured game: listed when a game starts
(friend rooms only when the host chose it; quick and ranked always), highest-rated first, off the
list when it ends; the counts of who is here; constant queries with many live games."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.guests import create_guest
from accounts import visitors
from caro.games import services as games
from caro.games.models import Game
from caro.games.snapshot import public_state
from caro.rooms import services as rooms
from caro.rooms import signals as room_signals
from caro.rooms.models import Room
from lobby import counts, live
from lobby.models import LiveGame
from ranking import choices
from ranking.models import Rating
from tests.integration.helpers import legacy_room
from tests.integration.lobby.builders import live_room, play
from tests.integration.ranking.builders import account

pytestmark = pytest.mark.django_db


def rated(value, games=20):
    user = account()
    Rating.objects.create(user=user, category="caro", value=value, games=games, listed=True, established=games >= 10)
    return user


def test_a_started_game_between_people_is_listed_with_both_ratings_and_leaves_when_it_ends():
    room = live_room(rated(1500), rated(1300, games=3))
    entry = LiveGame.objects.get(game_id=room.current_game_id)
    assert (entry.rating, entry.host_rating, entry.guest_rating) == (1400, 1500, 1300)
    assert not entry.host_provisional and entry.guest_provisional and entry.room_code == room.code
    [row] = live.live_games()
    assert (row.x_name, row.x_rating, row.o_rating) == (room.current_game.host.public_name, "1500", "1300?")
    assert row.url == reverse("room", args=[room.code])
    games.resign(room.current_game_id, room.current_game.host)  # before both moved: an abort, still an end
    assert not LiveGame.objects.filter(game_id=room.current_game_id).exists()
    assert live.live_games() == []


def test_friend_rooms_are_hidden_unless_the_host_shows_them_and_quick_games_are_shown():
    hidden = live_room(watchable=False)
    shown = live_room(watchable=True)
    a, b = create_guest(), create_guest()
    quick = rooms.create_match_room(a, b, kind="caro", rules=choices.parse_quick("caro-15-blocked").rules(),
                                    first_mover="random", move_time_ms=60_000)
    listed = {row.game_id for row in live.live_games()}
    assert listed == {shown.current_game_id, quick.current_game_id}
    assert hidden.current_game_id not in listed


def test_games_against_the_computer_and_on_one_device_are_not_live_games_between_people():
    # The server makes no such room since issue 26 (they are played in the page); the computer and
    # one-device games it stored before are never listed, even when announced as started.
    computer = legacy_room(create_guest(), "computer")
    local = legacy_room(create_guest(), "local")
    assert {computer.current_game.status, local.current_game.status} == {Game.Status.ACTIVE}
    room_signals.games_started.send(sender=Room, rooms=[computer, local])
    assert LiveGame.objects.count() == 0
    assert live.live_games() == []


def test_the_watch_page_lists_the_highest_rated_first_and_filters_by_kind():
    low = live_room(rated(1100), rated(1100))
    high = live_room(rated(1900), rated(1700))
    reversi = live_room(create_guest(), create_guest(), preset="reversi")
    assert [r.game_id for r in live.live_games()] == [high.current_game_id, reversi.current_game_id,
                                                       low.current_game_id]
    assert [r.game_id for r in live.live_games("reversi")] == [reversi.current_game_id]
    page = Client().get(reverse("watch")).content.decode()
    assert page.index(high.code) < page.index(low.code)
    fragment = Client().get(reverse("watch") + "?kind=caro", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and reversi.code not in fragment and high.code in fragment


def test_the_watch_filter_by_htmx_swaps_the_tabs_and_a_list_that_polls_the_chosen_kind():
    caro = live_room(rated(1500), rated(1500))
    reversi = live_room(create_guest(), create_guest(), preset="reversi")
    client = Client()
    client.get(reverse("watch"))
    url = reverse("watch") + "?kind=reversi"
    with CaptureQueriesContext(connection) as queries:
        tab = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="watch-body")
    assert len(queries.captured_queries) == 1, "the filter's part costs what the page costs: the live games"
    html = tab.content.decode()
    assert tab.status_code == 200 and "<html" not in html and "<h1" not in html
    assert reversi.code in html and caro.code not in html
    assert 'data-kind="reversi" data-testid="kind-reversi"' in html
    tabs = html[html.index('class="kind-tabs"'):html.index("</nav>")]
    assert tabs.count('aria-current="page"') == 1 and tabs.index('aria-current') > tabs.index('data-kind="reversi"')
    # the list polls the kind chosen, not the one the page was opened with
    assert f'id="live-games" hx-get="{reverse("watch")}?kind=reversi" hx-trigger="every 10s"' in html
    assert "<title>" in html and {"HX-Request", "HX-Target"} <= {v.strip() for v in tab["Vary"].split(",")}

    poll = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live-games").content.decode()
    assert reversi.code in poll and caro.code not in poll and "<nav" not in poll and '<div id="live-games"' not in poll

    whole = client.get(url).content.decode()  # without JavaScript: the whole page, filtered
    assert "<html" in whole and reversi.code in whole and caro.code not in whole and 'id="watch-body"' in whole
    assert whole.count("<title>") == 1
    restored = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true").content.decode()
    assert "<html" in restored


def test_a_rematch_between_the_same_people_is_listed_again():
    room = live_room()
    game = room.current_game
    play(room, ["H8", "H9"])
    games.resign(game.pk, game.host)
    rooms.play_again(room.code, game.host)
    new = rooms.play_again(room.code, game.guest)
    assert new.status == Game.Status.ACTIVE
    assert LiveGame.objects.filter(game_id=new.pk, room_code=room.code).exists()


def test_guests_show_no_rating_on_the_watch_page_nor_in_the_featured_game():
    room = live_room(rated(1500), create_guest())  # the guest sits in the second seat
    game = room.current_game
    [row] = live.live_games()
    ratings = {row.x_name: row.x_rating, row.o_name: row.o_rating}
    assert ratings == {game.host.public_name: "1500", game.guest.public_name: ""}
    state = live.featured_state()
    assert {p["name"]: p["rating"] for p in state["players"].values()} == ratings
    html = Client().get(reverse("watch")).content.decode()
    assert "1500" in html and "1200?" not in html and html.count('class="rating"') == 1


def test_the_featured_game_is_the_highest_rated_with_its_board():
    live_room(rated(1200), rated(1200))
    best = live_room(rated(2000), rated(1800))
    play(best, ["H8", "H9", "J10"])
    state = live.featured_state()
    assert state["game_id"] == best.current_game_id and state["last"] == "J10"
    assert state["stones"] == {"H8": "X", "H9": "O", "J10": "X"} and state["size"] == 15
    assert state["players"]["X"]["rating"] == "2000" and state["url"] == reverse("room", args=[best.code])
    assert live.featured_state(best.current_game_id)["game_id"] == best.current_game_id


def test_a_finished_game_links_to_its_record_in_both_languages():
    room = live_room()
    play(room, ["H8", "H9"])
    games.resign(room.current_game_id, room.current_game.host)
    state = public_state(Game.objects.get(pk=room.current_game_id))
    assert state["record_url"] == {"vi": f"/van/{room.current_game_id}/", "en": f"/en/game/{room.current_game_id}/"}


def test_who_is_here_counts_visitors_and_games_and_is_recounted_at_most_once_per_period():
    cache.delete(counts.COUNTS_KEY)
    counts._redis().delete(counts.ONLINE_KEY)
    for _ in range(2):  # two browsers, each on its second page (the first set the visitor cookie)
        browser = Client()
        browser.get(reverse("home"))
        browser.get(reverse("home"))
    live_room()
    now = counts.recount()
    assert now["online"] == 2 and now["playing"] == 1
    with CaptureQueriesContext(connection) as queries:
        again = counts.current()
    assert again == now and queries.captured_queries == []  # fresh: read from the cache
    html = Client().get(reverse("live_counts")).content.decode()
    assert 'data-testid="online-count" data-n="3"' in html or 'data-n="2"' in html
    data = Client().get(reverse("live_counts") + "?format=json").json()
    assert set(data) == {"online", "playing", "waiting"} and data["playing"] == 1


def _many_live_games(n):
    for _ in range(n):
        live_room(create_guest(), create_guest())


@pytest.mark.parametrize("stored", [2, 20])
def test_the_home_and_watch_pages_cost_the_same_queries_however_many_games_are_live(stored):
    _many_live_games(stored)
    client = Client()
    client.get(reverse("home"))
    counts.recount()
    found = {}
    for name in ("home", "watch"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(name)).status_code == 200
        found[name] = len(queries.captured_queries)
    assert found == {"home": 0, "watch": 1}


def test_requests_without_a_visitor_cookie_are_nobody_online():
    """Crawlers, probes and curl loops send no cookie: each such request used to be a new person
    online (attack-8: 100 GETs, +100). A request with a forged cookie neither; one carrying the
    visitor cookie a page set counts that visitor, once however many pages."""
    cache.delete(counts.COUNTS_KEY)
    counts._redis().delete(counts.ONLINE_KEY)
    for path in (reverse("home"), "/no-such-page/", "/static/nothing.css", "/robots.txt", reverse("live_counts")):
        for _ in range(5):
            Client().get(path)
    forged = Client()
    forged.cookies[visitors.COOKIE] = "not-a-signed-value"
    forged.get(reverse("home"))
    assert counts.recount()["online"] == 0
    browser = Client()
    browser.get(reverse("home"))
    assert browser.cookies.get(visitors.COOKIE), "the first page sets the visitor cookie"
    for _ in range(3):
        browser.get(reverse("live_counts"))
    assert counts.recount()["online"] == 1


def test_a_guest_visitor_is_counted_once_after_becoming_a_guest():
    cache.delete(counts.COUNTS_KEY)
    counts._redis().delete(counts.ONLINE_KEY)
    room = rooms.create_room(create_guest())
    client = Client()
    client.get(reverse("home"))
    client.get(reverse("home"))  # with the visitor cookie the first page set
    assert counts.recount()["online"] == 1
    client.post(reverse("room_join", args=[room.code]))
    assert counts.recount()["online"] == 1
    assert uuid  # (imported for builders' parity)
