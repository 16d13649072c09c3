"""A guest who renames themselves mid-game (the header's rename form): every socket of the room —
the opponent's, a spectator's and the guest's own — gets a fresh `state` with the new name, without
a reload (trial of 2026-12-06: the old name stayed until the page was reloaded)."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from accounts.guests import create_guest
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.integration.helpers import session_cookie
from tests.integration.test_room_consumer import _connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _room():
    host, guest, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(host)
    rooms.join(room, guest)
    return room, host, guest, {"host": session_cookie(host), "guest": session_cookie(guest),
                               "watcher": session_cookie(watcher)}


@sync_to_async
def _rename(user, name):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    answer = client.post("/tai-khoan/doi-ten/", {"name": name}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200


@sync_to_async
def _side_of(room, user):
    return Game.objects.get(pk=room.current_game_id).side_of_user(user)


async def _next_state(comm):
    """The next `state` frame (presence and crowd frames may come first)."""
    for _ in range(20):
        frame = await comm.receive_json_from(timeout=10)
        if frame["type"] == "state":
            return frame
    raise AssertionError("no state frame")


async def test_a_guest_who_renames_mid_game_is_shown_under_the_new_name_at_once():
    room, host, guest, cookies = await _room()
    side = await _side_of(room, guest)
    comms = []
    try:
        for who in ("host", "guest", "watcher"):
            comm, state = await _connect(room, cookies[who])
            comms.append(comm)
            assert state["players"][side]["name"] != "Hoa_Sen"
        await _rename(guest, "Hoa_Sen")
        for comm in comms:
            state = await _next_state(comm)
            assert state["players"][side]["name"] == "Hoa_Sen"
    finally:
        for comm in comms:
            await comm.disconnect()
