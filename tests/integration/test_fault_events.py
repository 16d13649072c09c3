"""Issue 27, "nobody is left behind after a fault": a committed change whose events were never
published (the process lost its answer from PostgreSQL with the connection) still reaches every
socket. Real PostgreSQL and Redis, the room socket through Channels' communicator."""

import uuid

import pytest
from asgiref.sync import sync_to_async

from caro.games.services import lean
from caro.games.services.play import advance
from tests.integration.test_room_consumer import _connect, _room_with_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _store_without_publishing(game_id: int, square: str, move_id: str) -> None:
    """X's move stored by the lean path's one statement and nothing after it: what PostgreSQL
    holds when it committed the statement but the web process lost the answer (PostgreSQL killed
    mid-commit: the loop's write raises `Dropped`, the process never publishes the move)."""
    game, xmin = lean.read(game_id)
    step = advance(game, "X", square, uuid.UUID(move_id))
    assert lean.write(game, step.move, step.changed(), game.ply - 1, xmin) is not None


async def _frames_until(comm, done, timeout: float = 10):
    """The frames `comm` receives up to the first for which `done(frame)` is true (each awaited
    at most `timeout` s: a frame that never comes fails the test)."""
    frames = []
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        frames.append(frame)
        if done(frame):
            return frames


async def test_a_stored_move_whose_events_were_lost_reaches_every_socket_when_it_is_repeated():
    """The mover's page (or the loop's own retry after `Dropped`) repeats the move: the repeat is
    answered as a duplicate, and every socket of the game (opponent, spectator, the mover's own)
    gets the state that holds the move, instead of staying one version behind in silence."""
    room, cookies = await _room_with_players()
    x, state = await _connect(room, cookies["x"])
    o, _ = await _connect(room, cookies["o"])
    w, _ = await _connect(room, cookies["watcher"])
    try:
        v = state["version"]
        move_id = str(uuid.uuid4())
        await _store_without_publishing(state["game_id"], "H8", move_id)
        await x.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": move_id})
        seen = {}
        for comm in (x, o, w):
            seen[comm] = frames = await _frames_until(comm, lambda f: f["type"] == "state")
            caught_up = frames[-1]
            assert caught_up["version"] == v + 1 and caught_up["ply"] == 1 and caught_up["turn"] == "O"
        acks = [f for f in seen[x] if f["type"] == "ack"]
        if not acks:  # (the ack is sent before the event is handled; waited for all the same)
            acks = [(await _frames_until(x, lambda f: f["type"] == "ack"))[-1]]
        assert acks[0]["duplicate"] is True and acks[0]["id"] == move_id
    finally:
        for comm in (x, o, w):
            await comm.disconnect()


async def test_a_repeated_move_sends_nothing_more_to_sockets_in_step():
    """A repeat of a move every socket already has (a resend after a lost `ack`): the mover gets
    the duplicate `ack`, and no socket is sent a `state` it does not need."""
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    o, _ = await _connect(room, cookies["o"])
    try:
        frame = {"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())}
        await x.send_json_to(frame)
        for comm in (x, o):
            assert (await comm.receive_json_from(timeout=10))["type"] == "move"
        await x.send_json_to(frame)
        ack = await x.receive_json_from(timeout=10)
        assert ack["type"] == "ack" and ack["duplicate"] is True
        for comm in (x, o):  # a ping's answer comes after anything the repeat would have queued
            await comm.send_json_to({"type": "ping"})
            assert (await comm.receive_json_from(timeout=10))["type"] == "pong"
    finally:
        for comm in (x, o):
            await comm.disconnect()


async def test_a_move_repeated_in_a_loop_announces_its_version_once(monkeypatch):
    """A client repeating the same move over and over (each within the socket's rate) makes one
    `resent` announcement for the game's version, not one event to every socket per repeat
    (`play.ANNOUNCE_AGAIN_S`; set long here so that a slow machine cannot space the repeats out)."""
    from channels.layers import get_channel_layer

    from caro.games.models import Game
    from caro.games.services import play

    monkeypatch.setattr(play, "ANNOUNCE_AGAIN_S", 3600.0)
    room, cookies = await _room_with_players()
    x, state = await _connect(room, cookies["x"])
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(Game(pk=state["game_id"]).group_name, listener)
    try:
        frame = {"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())}
        await x.send_json_to(frame)
        await _frames_until(x, lambda f: f["type"] == "move")
        for _ in range(3):
            await x.send_json_to(frame)
            await _frames_until(x, lambda f: f["type"] == "ack" and f.get("duplicate"))
        await x.send_json_to({"type": "resign"})  # an event after the repeats': the listener's last
        events = []
        while not events or events[-1].get("type") != "game_over":
            events.append((await layer.receive(listener))["event"])
        assert [e["reason"] for e in events if e.get("type") == "state_changed"] == ["resent"]
    finally:
        await layer.group_discard(Game(pk=state["game_id"]).group_name, listener)
        await x.disconnect()
