"""The opening procedures (RIF, Swap2) through the room websocket: every step as frames, the
state each socket gets after a step, and refused steps answered with translated errors."""

import uuid

import pytest
from asgiref.sync import sync_to_async

from accounts.guests import create_guest
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.integration.helpers import session_cookie
from tests.integration.test_room_consumer import _connect, _expect_error

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _room(preset):
    host, guest, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(host, preset)
    rooms.join(room, guest)
    return room, {"host": session_cookie(host), "guest": session_cookie(guest), "watcher": session_cookie(watcher)}


@sync_to_async
def _game(room):
    return Game.objects.get(pk=room.current_game_id)


async def _state(comm):
    """The next full state (every opening step is announced as `state_changed`, which each socket
    answers with its own `state`)."""
    frame = await comm.receive_json_from(timeout=5)
    assert frame["type"] == "state", frame
    return frame


async def _all_states(comms):
    return [await _state(c) for c in comms]


async def _place(comm, square, ply):
    await comm.send_json_to({"type": "move", "square": square, "ply": ply, "id": str(uuid.uuid4())})


async def test_a_rif_game_through_every_step_over_the_socket():
    room, cookies = await _room("renju-rif")
    host, sh = await _connect(room, cookies["host"])
    guest, sg = await _connect(room, cookies["guest"], lang="vi")
    watcher, sw = await _connect(room, cookies["watcher"])
    comms = (host, guest, watcher)
    try:
        assert sh["opening"]["step"] == "place_1" and sh["opening"]["area"] == ["H8"] and sh["you"] == "X"
        assert sw["opening"] == sh["opening"] and sw["you"] is None
        await _place(host, "A1", 1)
        await _expect_error(host, "not_in_area")
        for k, square in enumerate(("H8", "I7", "J9")):
            await _place(host, square, k + 1)
            states = await _all_states(comms)
        assert states[0]["opening"]["step"] == "swap" and states[0]["turn"] == "O"
        assert states[1]["opening"]["allowed"] == ["keep", "swap"]
        await host.send_json_to({"type": "opening", "action": "swap"})
        await _expect_error(host, "not_your_turn")
        await guest.send_json_to({"type": "opening", "action": "swap"})
        sh, sg, sw = await _all_states(comms)
        assert (sh["you"], sg["you"]) == ("O", "X")  # the guest is Black now
        assert sh["players"]["O"]["name"] == sg["players"]["O"]["name"] and sh["opening"]["swapped"]
        await _place(host, "G9", 4)
        sh, sg, sw = await _all_states(comms)
        assert sg["opening"]["step"] == "offer_5" and sg["opening"]["actor"] == "X"
        await guest.send_json_to({"type": "opening", "action": "offer", "squares": ["H10", "J8", "K11"]})
        error = await _expect_error(guest, "offer_count")
        assert error["message"] != "Offer exactly two different points for the 5th move."  # Vietnamese
        await guest.send_json_to({"type": "opening", "action": "offer", "squares": "H10"})
        await _expect_error(guest, "malformed")
        await watcher.send_json_to({"type": "opening", "action": "offer", "squares": ["H10", "K11"]})
        await _expect_error(watcher, "not_a_player")
        await guest.send_json_to({"type": "opening", "action": "offer", "squares": ["H10", "K11"]})
        sh, sg, sw = await _all_states(comms)
        assert sh["opening"]["offers"] == ["H10", "K11"] and sw["opening"]["offers"] == ["H10", "K11"]
        await host.send_json_to({"type": "opening", "action": "select", "square": "J6"})
        await _expect_error(host, "not_offered")
        await host.send_json_to({"type": "opening", "action": "select", "square": "K11"})
        sh, sg, sw = await _all_states(comms)
        assert sh["opening"]["done"] and sh["turn"] == "O" and sh["ply"] == 5
        assert [e["kind"] for e in sh["opening"]["log"]] == ["place", "place", "place", "swap", "place", "offer", "select"]
        await host.send_json_to({"type": "opening", "action": "keep"})
        await _expect_error(host, "opening_over")
        await _place(host, "G8", 6)  # an ordinary move now: a `move` event
        event = await guest.receive_json_from(timeout=5)
        assert event["type"] == "move" and (event["square"], event["side"]) == ("G8", "O")
    finally:
        for comm in comms:
            await comm.disconnect()


async def test_both_swap2_branches_over_the_socket():
    room, cookies = await _room("swap2")
    host, sh = await _connect(room, cookies["host"])
    guest, _sg = await _connect(room, cookies["guest"])
    comms = (host, guest)
    try:
        assert sh["opening"]["step"] == "place_three" and sh["opening"]["area"] is None
        for k, square in enumerate(("H8", "J10", "G10")):
            await _place(host, square, k + 1)
            sh, sg = await _all_states(comms)
        assert sg["opening"]["step"] == "second_choice" and sorted(sg["opening"]["allowed"]) == ["choose", "place"]
        await guest.send_json_to({"type": "opening", "action": "choose", "color": "Z"})
        await _expect_error(guest, "bad_color")
        await _place(guest, "H10", 4)  # two more stones: the choice goes back
        await _all_states(comms)
        await _place(guest, "K11", 5)
        sh, sg = await _all_states(comms)
        assert sh["opening"]["step"] == "first_choice" and sh["opening"]["actor"] == "X"
        await host.send_json_to({"type": "opening", "action": "choose", "color": "O"})
        sh, sg = await _all_states(comms)
        assert sh["opening"]["done"] and (sh["you"], sg["you"]) == ("O", "X") and sh["turn"] == "O"
        game = await _game(room)
        assert game.host_side == "O" and game.opening["plies"] == 5
    finally:
        for comm in comms:
            await comm.disconnect()

    room, cookies = await _room("swap2")
    host, _sh = await _connect(room, cookies["host"])
    guest, _sg = await _connect(room, cookies["guest"])
    comms = (host, guest)
    try:
        for k, square in enumerate(("H8", "J10", "G10")):
            await _place(host, square, k + 1)
            await _all_states(comms)
        await guest.send_json_to({"type": "opening", "action": "choose", "color": "O"})
        sh, sg = await _all_states(comms)
        assert sh["opening"]["done"] and (sh["you"], sg["you"]) == ("X", "O") and sg["turn"] == "O"
        assert sg["opening"]["log"][-1] == {"step": "second_choice", "kind": "choose", "by": "O",
                                            "as": "O", "squares": [], "color": "O", "plies": []}
    finally:
        for comm in comms:
            await comm.disconnect()
