"""Presence across web processes: two real Daphne processes, one player on each (issue 9). Moves
relay both ways, and the absence countdown started by a socket closing on one process reaches the
player on the other; coming back through the other process cancels it."""

import asyncio
import json
import time
import uuid

import pytest
import websockets
from asgiref.sync import sync_to_async

from accounts.guests import create_guest
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.conftest import _child_env, _stop, start_daphnes
from tests.integration.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True)]
TIMEOUT_S = 15


@pytest.fixture(scope="module")
def two_webs(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        env = _child_env()
    started = start_daphnes(env, 2, tmp_path_factory)
    try:
        yield [url for _proc, _log, url in started]
    finally:
        for proc, _log, _url in started:
            _stop(proc)


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


def _cookie(user) -> str:
    return session_cookie(user).decode() + "; django_language=en"


@sync_to_async
def _friend_room():
    host, guest = create_guest(), create_guest()
    room = rooms.create_room(host)
    rooms.join(room, guest)
    game = Game.objects.get(pk=room.current_game_id)
    return room, _cookie(game.x_player), _cookie(game.o_player)


async def _open(base, code, cookie):
    ws = await websockets.connect(base.replace("http://", "ws://") + f"/ws/room/{code}/",
                                  additional_headers={"Cookie": cookie, "Origin": base}, open_timeout=TIMEOUT_S)
    first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))
    assert first["type"] == "state"
    return ws, first


async def _next(ws, type_, **fields):
    """The next frame of `type_` whose `fields` match (others are skipped)."""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
        if frame["type"] == type_ and all(frame.get(k) == v for k, v in fields.items()):
            return frame


@pytest.mark.asyncio
async def test_moves_presence_and_the_absence_countdown_work_across_two_daphne_processes(two_webs):
    a, b = two_webs
    room, x_cookie, o_cookie = await _friend_room()
    x, sx = await _open(a, room.code, x_cookie)
    o, so = await _open(b, room.code, o_cookie)
    try:
        assert (sx["you"], so["you"]) == ("X", "O") and so["presence"] == {"X": True, "O": True}
        for ply, (mover, watcher, square) in enumerate([(x, o, "H8"), (o, x, "H9"), (x, o, "I8")], start=1):
            await mover.send(json.dumps({"type": "move", "square": square, "ply": ply, "id": str(uuid.uuid4())}))
            seen = await _next(watcher, "move", ply=ply)
            assert (seen["square"], seen["ply"]) == (square, ply)
        await o.close()  # O's page on process B closes
        away = await _next(x, "presence")  # X hears it on process A
        assert (away["side"], away["present"]) == ("O", False)
        assert away["absence"]["deadline_ms"] / 1000 > time.time() + 30
        o, back = await _open(a, room.code, o_cookie)  # O comes back, this time through process A
        assert back["absence"] is None and back["turn"] == "O"
        returned = await _next(x, "presence")
        assert (returned["side"], returned["present"]) == ("O", True)
    finally:
        await x.close()
        await o.close()
