"""The room socket's heartbeat is cheap (issue 26: the page pings after 1.6 s of silence to notice a dead
connection within 3 s): a `ping` is answered at once, on the event loop, and refreshes the socket's
presence row at most every PRESENCE_TOUCH_EVERY_S, well within the 45 s after which a socket counts
as gone. bench/ws_ping.py measures what a ping costs."""

import pytest
from asgiref.sync import sync_to_async

from caro.games.models import Connection
from caro.games.services import presence
from caro.rooms import consumers
from tests.integration.test_room_consumer import _connect, _room_with_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _seen(room):
    return list(Connection.objects.filter(game_id=room.current_game_id).values_list("seen_at", flat=True))


@sync_to_async
def _age_connections(room, seconds):
    from datetime import timedelta

    from django.utils import timezone

    Connection.objects.filter(game_id=room.current_game_id).update(seen_at=timezone.now() - timedelta(seconds=seconds))


async def test_pings_are_answered_at_once_and_touch_presence_at_most_every_15_s():
    assert consumers.PRESENCE_TOUCH_EVERY_S * 3 <= presence.STALE_CONNECTION_S
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    try:
        await _age_connections(room, 30)
        old = await _seen(room)
        await x.send_json_to({"type": "ping", "t": 12.5})
        pong = await x.receive_json_from(timeout=5)
        assert pong["type"] == "pong" and pong["t"] == 12.5 and isinstance(pong["server_ms"], int)
        await x.send_json_to({"type": "ping"})  # in order: the first ping's touch is done after this pong
        assert (await x.receive_json_from(timeout=5))["type"] == "pong"
        touched = await _seen(room)
        assert touched[0] > old[0], "the first ping refreshes the socket's presence"
        await _age_connections(room, 1)  # as if refreshed a second ago
        aged = await _seen(room)
        for _ in range(5):
            await x.send_json_to({"type": "ping"})
            assert (await x.receive_json_from(timeout=5))["type"] == "pong"
        assert await _seen(room) == aged, "pings within 15 s leave the presence row alone"
    finally:
        await x.disconnect()
