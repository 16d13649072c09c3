"""The room socket's two pings (issue 26: the page checks its connection after 1.6 s of silence, to
say a dead connection within 3 s; issue 27: the heartbeat's pong carries the game's version): a
`light` ping is answered at once with the clock alone, touching neither the presence row nor the
game; a full ping refreshes the socket's presence and carries the game's current version.
bench/ws_ping.py measures what each costs."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from caro.games.models import Connection
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
    Connection.objects.filter(game_id=room.current_game_id).update(seen_at=timezone.now() - timedelta(seconds=seconds))


async def test_a_light_ping_is_answered_with_the_clock_alone_and_a_full_one_is_the_heartbeat():
    room, cookies = await _room_with_players()
    x, state = await _connect(room, cookies["x"])
    try:
        await _age_connections(room, 30)
        aged = await _seen(room)
        for _ in range(3):
            await x.send_json_to({"type": "ping", "t": 12.5, "light": True})
            pong = await x.receive_json_from(timeout=5)
            assert pong["type"] == "pong" and pong["t"] == 12.5 and isinstance(pong["server_ms"], int)
            assert "version" not in pong and "game_id" not in pong
        assert await _seen(room) == aged, "a light ping left the presence row alone"
        await x.send_json_to({"type": "ping", "t": 1})
        pong = await x.receive_json_from(timeout=5)
        assert (pong["game_id"], pong["version"], pong["t"]) == (state["game_id"], state["version"], 1)
        assert (await _seen(room))[0] > aged[0], "the full ping refreshed the socket's presence"
        await x.send_json_to({"type": "ping", "light": "yes"})  # only `true` makes it light
        assert "version" in await x.receive_json_from(timeout=5)
    finally:
        await x.disconnect()
