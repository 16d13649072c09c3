"""The public lobby of open rooms against the real database: who is listed and in which order, the
seat taken from it (two people racing: one seat, one message), accounts-only rooms, a host who left,
a closed room, and the page's constant number of queries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import User
from caro.games.errors import GameError
from caro.games.models import Connection, Game
from caro.rooms import services as rooms
from caro.rooms.models import Room
from lobby import live
from ranking.models import Rating
from tests.integration.helpers import at_once
from tests.integration.lobby.builders import host_here, lobby_room
from tests.integration.ranking.builders import account

pytestmark = pytest.mark.django_db


def codes(kind=""):
    return [row.code for row in live.open_rooms(kind)]


def test_a_listed_room_waits_in_the_lobby_newest_first_with_its_rules_clock_first_mover_and_host():
    older = lobby_room(move_time_ms=120_000)
    Room.objects.filter(pk=older.pk).update(lobby_since=timezone.now() - timedelta(minutes=3))
    host = account(display_name="Lan")
    Rating.objects.create(user=host, category="caro", value=1310, games=4, listed=True)
    newer = lobby_room(host=host, first="rps", bank_ms=300_000, increment_ms=2_000)
    rows = live.open_rooms()
    assert [r.code for r in rows] == [newer.code, older.code]
    first = rows[0]
    assert first.host_name == "Lan" and first.host_rating == "1310?"  # provisional: marked
    from caro.games.display import bank_label, clock_label
    assert first.line.endswith(bank_label(300_000, 2_000)) and bank_label(300_000, 2_000) == "5 phút + 2 giây"
    assert rows[1].line.endswith(clock_label(120_000)) and "15×15" in first.line
    assert "Oẳn tù tì" in first.first or "ock" in first.first
    assert rows[1].host_rating == ""  # a guest plays no rated game: no rating at all


def test_a_guest_host_shows_no_rating_and_an_account_without_games_the_provisional_start():
    guest_room = lobby_room()
    new_account = lobby_room(host=account(display_name="Mai"))
    rows = {r.code: r for r in live.open_rooms()}
    assert rows[guest_room.code].host_rating == "" and rows[new_account.code].host_rating == "1200?"
    html = Client().get(reverse("lobby")).content.decode()
    assert html.count('data-testid="host-rating"') == 1 and "1200?" in html


def test_unlisted_closed_and_started_rooms_are_not_in_the_lobby_and_a_host_who_left_takes_it_off():
    unlisted = rooms.create_room(create_guest())
    host_here(unlisted)
    gone = lobby_room(present=False)
    listed = lobby_room()
    assert codes() == [listed.code]
    assert unlisted.code not in codes() and gone.code not in codes()
    host_here(gone)
    assert gone.code in codes()  # back as soon as the host's page is open again
    Connection.objects.filter(game_id=gone.current_game_id).update(seen_at=timezone.now() - timedelta(minutes=5))
    assert gone.code not in codes()  # a page that stopped answering
    rooms.close(listed.code, "test")
    assert listed.code not in codes() and Room.objects.get(pk=listed.pk).lobby_since is None


def test_taking_the_seat_starts_the_game_and_the_room_leaves_the_lobby():
    room = lobby_room()
    guest = create_guest()
    assert rooms.join(room, guest) == "guest"
    room.refresh_from_db()
    assert room.lobby_since is None and room.current_game.status == Game.Status.ACTIVE
    assert codes() == []


def test_the_lobby_is_filtered_by_game_kind():
    caro = lobby_room()
    reversi = lobby_room(preset="reversi")
    assert set(codes()) == {caro.code, reversi.code}
    assert codes("caro") == [caro.code] and codes("reversi") == [reversi.code]


@pytest.mark.django_db(transaction=True)
def test_two_people_pressing_the_same_room_one_gets_the_seat_the_other_a_clear_message():
    room = lobby_room()
    a, b = create_guest(), create_guest()
    results = at_once([lambda: rooms.join(Room.objects.get(pk=room.pk), a),
                       lambda: rooms.join(Room.objects.get(pk=room.pk), b)])
    seated = [r for r in results if r == "guest"]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(seated) == 1 and len(refused) == 1 and refused[0].code == "seat_taken"
    game = Game.objects.get(pk=room.current_game_id)
    assert game.guest_id in (a.pk, b.pk)


def _client(user=None):
    client = Client()
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_the_lobby_page_takes_the_seat_and_the_second_visitor_is_told_why_not():
    room = lobby_room()
    first, second = _client(create_guest()), _client(create_guest())
    url = reverse("lobby_take_seat", args=[room.code])
    answer = first.post(url)
    assert answer.status_code == 302 and answer["Location"] == reverse("room", args=[room.code])
    answer = second.post(url)
    assert answer.status_code == 302 and answer["Location"] == reverse("lobby")
    said = [str(m) for m in get_messages(answer.wsgi_request)]
    assert said == ["Có người khác vừa vào chỗ này trước bạn, hoặc phòng đã đóng. Hãy chọn phòng khác, hoặc tạo phòng của bạn."]


def test_an_anonymous_visitor_takes_the_seat_as_a_guest_with_the_name_they_were_shown():
    room = lobby_room()
    client = Client()
    page = client.get(reverse("lobby"))
    shown = page.wsgi_request.visitor.name
    answer = client.post(reverse("lobby_take_seat", args=[room.code]))
    assert answer.status_code == 302
    game = Game.objects.select_related("guest").get(pk=room.current_game_id)
    assert game.guest.is_guest and game.guest.public_name == shown


def test_only_accounts_take_the_seat_of_an_accounts_only_room():
    room = lobby_room(accounts_only=True)
    with pytest.raises(GameError) as refused:
        rooms.join(room, create_guest())
    assert refused.value.code == "accounts_only"
    before = User.objects.count()
    answer = Client().post(reverse("lobby_take_seat", args=[room.code]))
    assert answer.status_code == 302 and User.objects.count() == before  # no guest made for nothing
    assert "tài khoản" in [str(m) for m in get_messages(answer.wsgi_request)][0]
    assert rooms.join(room, account()) == "guest"


def test_the_room_page_of_an_accounts_only_room_offers_no_seat_to_a_guest_and_links_to_sign_up():
    room = lobby_room(accounts_only=True)
    path = reverse("room", args=[room.code])
    for client in (Client(HTTP_ACCEPT_LANGUAGE="en"), _guest_client()):
        html = client.get(path).content.decode()
        button = html[html.index('data-testid="take-seat"'):].split(">", 1)[0]
        assert "disabled" in button and 'aria-describedby="accounts-only-note"' in button
        assert 'data-accounts-needed="1"' in html and "Accounts only: sign up or log in to take this seat" in html
        note = html[html.index('id="accounts-only-note"'):].split("</p>", 1)[0]
        back = "?next=" + path
        assert f'{back}" data-testid="accounts-only-signup"' in note, note
        assert f'{back}" data-testid="accounts-only-login"' in note, note
        before = User.objects.count()
        answer = client.post(reverse("room_join", args=[room.code]))  # a forced post: refused, no guest made
        assert answer.status_code == 302 and User.objects.count() == before
        assert Game.objects.get(pk=room.current_game_id).guest_id is None
    # The links come back to the room: logging in from the note lands on the room page.
    User.objects.create_user("LanAnh", password="a-long-pass-phrase-9")
    logged = Client(REMOTE_ADDR="10.9.8.7").post(f'{reverse("account_login")}?next={path}',
                                                 {"login": "LanAnh", "password": "a-long-pass-phrase-9"})
    assert logged.status_code == 302 and logged["Location"] == path
    member = Client()
    member.force_login(account(), backend="django.contrib.auth.backends.ModelBackend")
    html = member.get(path).content.decode()
    assert "accounts-only-note" not in html and "data-accounts-needed" not in html
    assert member.post(reverse("room_join", args=[room.code])).status_code == 302
    assert Game.objects.get(pk=room.current_game_id).guest_id is not None


def _guest_client():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(create_guest(), backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_the_lobby_page_lists_the_rooms_and_a_filter_gets_the_list_alone():
    room = lobby_room(preset="reversi")
    page = Client().get(reverse("lobby"))
    html = page.content.decode()
    assert page.status_code == 200 and room.code in html and 'data-live-lobby="all"' in html
    fragment = Client().get(reverse("lobby") + "?kind=caro", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and room.code not in fragment and 'data-testid="no-open-rooms"' in fragment


@pytest.mark.parametrize("rooms_stored", [3, 30])
def test_the_lobby_page_costs_the_same_queries_however_many_rooms_wait(rooms_stored):
    for _ in range(rooms_stored):
        lobby_room()
    client = Client()
    client.get(reverse("lobby"))  # the visitor's cookie
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("lobby")).status_code == 200
    assert len(queries.captured_queries) == 2  # the rooms with games and hosts, the hosts' ratings
