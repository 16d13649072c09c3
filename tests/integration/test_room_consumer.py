"""The room websocket through Channels' WebsocketCommunicator, real Redis layer and PostgreSQL."""

import asyncio
import json
import uuid

import pytest
from django.db.models import F
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from caro.asgi import application
from caro.games.models import Game, Move
from caro.rooms import services as rooms
from accounts.guests import create_guest
from tests.integration.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Communicator(WebsocketCommunicator):
    """Skips the spectator counts (`crowd`), which a running Celery worker sends about a second
    after a spectator comes or goes: these tests read the frames that follow their own actions."""

    async def receive_json_from(self, timeout=1):
        while True:
            frame = await super().receive_json_from(timeout)
            if frame.get("type") != "crowd":
                return frame


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _room_with_players():
    x, o, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    return room, {"x": session_cookie(x), "o": session_cookie(o), "watcher": session_cookie(watcher)}


@sync_to_async
def _snapshot(room):
    game = Game.objects.get(pk=room.current_game_id)
    return game.ply, game.event_version, game.status, Move.objects.filter(game=game).count()


async def _connect(room, cookie: bytes | None, lang: str = "en", path: str | None = None):
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    cookies = b"django_language=" + lang.encode()
    if cookie:
        cookies = cookie + b"; " + cookies
    headers.append((b"cookie", cookies))
    comm = Communicator(application, path or f"/ws/room/{room.code}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    state = await comm.receive_json_from(timeout=5)
    assert state["type"] == "state"
    return comm, state


async def _expect_error(comm, code):
    frame = await comm.receive_json_from(timeout=5)
    assert frame["type"] == "error", frame
    assert frame["code"] == code
    assert frame["message"] and "Traceback" not in frame["message"]
    return frame


async def test_players_and_spectator_see_each_move_with_versions():
    room, cookies = await _room_with_players()
    x, sx = await _connect(room, cookies["x"])
    o, so = await _connect(room, cookies["o"])
    w, sw = await _connect(room, cookies["watcher"])
    try:
        assert (sx["you"], so["you"], sw["you"]) == ("X", "O", None)
        assert sx["status"] == "active" and sx["turn"] == "X"
        move_id = str(uuid.uuid4())
        await x.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": move_id})
        for comm in (x, o, w):
            event = await comm.receive_json_from(timeout=5)
            assert event["type"] == "move"
            assert (event["square"], event["side"], event["ply"], event["id"]) == ("H8", "X", 1, move_id)
            assert event["version"] == sx["version"] + 1
            assert event["turn"] == "O"
    finally:
        for comm in (x, o, w):
            await comm.disconnect()


async def test_a_repeated_move_frame_is_acknowledged_not_applied():
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    try:
        frame = {"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())}
        await x.send_json_to(frame)
        assert (await x.receive_json_from(timeout=5))["type"] == "move"
        await x.send_json_to(frame)
        ack = await x.receive_json_from(timeout=5)
        assert ack["type"] == "ack" and ack["duplicate"] is True and ack["square"] == "H8"
        assert (await _snapshot(room))[3] == 1
    finally:
        await x.disconnect()


async def test_a_move_reusing_the_opponents_move_id_is_stale_and_changes_nothing():
    """The id of the opponent's stored move is no repeat of one's own: `stale` (as the lean paths
    answer an id reused with the next ply), never `not_a_player` for a seated player, and a state."""
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    o, _ = await _connect(room, cookies["o"])
    try:
        x_id = str(uuid.uuid4())
        await x.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": x_id})
        for comm in (x, o):
            assert (await comm.receive_json_from(timeout=5))["type"] == "move"
        before = await _snapshot(room)
        for ply in (1, 2):  # the id with its own ply (the general path) and with the next (the loop's)
            await o.send_json_to({"type": "move", "square": "H9", "ply": ply, "id": x_id})
            refused = await _expect_error(o, "stale")
            assert refused["ref"] == x_id
            state = await o.receive_json_from(timeout=5)
            assert state["type"] == "state" and state["ply"] == 1 and state["you"] == "O"
            assert await _snapshot(room) == before
        await o.send_json_to({"type": "move", "square": "H9", "ply": 2, "id": str(uuid.uuid4())})
        assert (await o.receive_json_from(timeout=5))["type"] == "move"  # O's own move still plays
    finally:
        for comm in (x, o):
            await comm.disconnect()


@sync_to_async
def _end_on_time(room) -> None:
    """Let the clock of the player to move run out and end the game as the timer does."""
    from datetime import timedelta

    from django.utils import timezone

    from caro.games import tasks

    game = Game.objects.get(pk=room.current_game_id)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=10))
    assert tasks.enforce_move_deadline(game.pk, game.ply) is True


async def test_a_move_after_the_timer_ended_the_game_is_refused_timeout():
    """The timer ended the game before the move arrived: the player hears `timeout` (the answer
    had the move come first), not a bare `game_over`; the opponent too; nothing changes."""
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    o, _ = await _connect(room, cookies["o"])
    try:
        for ply, (comm, square) in enumerate([(x, "H8"), (o, "H9"), (x, "I8")], start=1):
            await comm.send_json_to({"type": "move", "square": square, "ply": ply, "id": str(uuid.uuid4())})
            for each in (x, o):
                assert (await each.receive_json_from(timeout=5))["type"] == "move"
        await _end_on_time(room)  # O was to move: O lost on time
        for comm in (x, o):
            over = await comm.receive_json_from(timeout=5)
            assert over["type"] == "game_over" and over["termination"] == "timeout" and over["winner"] == "X"
        before = await _snapshot(room)
        for comm, frame in ((o, {"type": "move", "square": "I9", "ply": 4, "id": str(uuid.uuid4())}),
                            (x, {"type": "resign"})):
            await comm.send_json_to(frame)
            refused = await _expect_error(comm, "timeout")
            assert refused["message"] == "Time ran out before this move arrived."
            state = await comm.receive_json_from(timeout=5)
            assert state["type"] == "state" and state["termination"] == "timeout"
            assert await _snapshot(room) == before
    finally:
        for comm in (x, o):
            await comm.disconnect()


async def test_a_move_that_finds_no_free_loop_connection_is_refused_busy(monkeypatch):
    """Overload: every connection of the event loop's pool is taken (a pool of one, held here)
    longer than its timeout; the move is refused `busy`, writes nothing, and plays when sent again."""
    from caro.games.services import lean

    monkeypatch.setattr(lean, "LOOP_POOL_MAX", 1)
    monkeypatch.setattr(lean, "LOOP_POOL_TIMEOUT_S", 0.5)
    await lean.close_loop_pool()  # a pool of this loop opened with the usual sizes, if any
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    pool = await lean.loop_pool()
    held = await pool.getconn(timeout=60)  # the test's own hold waits as long as it takes to connect
    try:
        before = await _snapshot(room)
        frame = {"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())}
        await x.send_json_to(frame)
        refused = await _expect_error(x, "busy")
        assert refused["ref"] == frame["id"] and "nothing was changed" in refused["message"]
        assert await _snapshot(room) == before
        await pool.putconn(held)
        held = None
        await x.send_json_to(frame)  # the same id: it was never stored
        played = await x.receive_json_from(timeout=60)
        assert played["type"] == "move" and played["id"] == frame["id"]
        assert (await _snapshot(room))[0] == 1
    finally:
        if held is not None:
            await pool.putconn(held)
        await x.disconnect()
        await lean.close_loop_pool()


@pytest.mark.parametrize(
    "raw, code",
    [
        ("{not json", "malformed"),
        ("[1, 2, 3]", "malformed"),
        ('{"no_type": 1}', "malformed"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "move", "square": "H8", "ply": "1", "id": "x"}', "malformed"),
        ('{"type": "move", "square": "H8", "ply": true, "id": "00000000-0000-4000-8000-000000000000"}', "malformed"),
        ('{"type": "move", "square": ["H8"], "ply": 1, "id": "00000000-0000-4000-8000-000000000000"}', "malformed"),
        ('{"type": "move", "square": "H8", "ply": 1, "id": "not-a-uuid"}', "malformed"),
        ('{"type": "move", "square": "H8", "ply": 1}', "malformed"),
        # Square names are parsed strictly (docs/protocol.md): no whitespace around or inside.
        ('{"type": "move", "square": "H8 ", "ply": 1, "id": "00000000-0000-4000-8000-000000000001"}', "bad_square"),
        ('{"type": "move", "square": " h8", "ply": 1, "id": "00000000-0000-4000-8000-000000000002"}', "bad_square"),
        ('{"type": "move", "square": "H\\t8", "ply": 1, "id": "00000000-0000-4000-8000-000000000003"}', "bad_square"),
        ('{"type": "move", "square": "' + "H" * 5000 + '", "ply": 1, "id": "x"}', "too_large"),
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(raw, code):
    room, cookies = await _room_with_players()
    before = await _snapshot(room)
    x, _ = await _connect(room, cookies["x"])
    try:
        await x.send_to(text_data=raw)
        await _expect_error(x, code)
        assert await _snapshot(room) == before
        # The socket stays usable after a bad frame.
        await x.send_json_to({"type": "ping"})
        assert (await x.receive_json_from(timeout=5))["type"] == "pong"
    finally:
        await x.disconnect()


async def test_binary_frames_are_refused():
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    try:
        await x.send_to(bytes_data=b"\x00\x01")
        await _expect_error(x, "malformed")
    finally:
        await x.disconnect()


async def test_a_spectator_cannot_move_even_with_a_forged_seat():
    room, cookies = await _room_with_players()
    before = await _snapshot(room)
    w, _ = await _connect(room, cookies["watcher"])
    anon, state = await _connect(room, None)
    try:
        assert state["you"] is None
        forged = {"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4()), "seat": "X",
                  "side": "X", "player": 1, "user": "x"}
        await w.send_json_to(forged)
        await _expect_error(w, "not_a_player")
        await anon.send_json_to({**forged, "id": str(uuid.uuid4())})
        await _expect_error(anon, "not_a_player")
        assert await _snapshot(room) == before
    finally:
        await w.disconnect()
        await anon.disconnect()


async def test_the_opponent_cannot_move_for_x_by_claiming_its_side():
    room, cookies = await _room_with_players()
    before = await _snapshot(room)
    o, _ = await _connect(room, cookies["o"])
    try:
        await o.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4()), "side": "X"})
        await _expect_error(o, "not_your_turn")
        assert await _snapshot(room) == before
    finally:
        await o.disconnect()


async def test_a_stale_move_is_refused_and_the_full_state_follows():
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    try:
        await x.send_json_to({"type": "move", "square": "H8", "ply": 3, "id": str(uuid.uuid4())})
        error = await _expect_error(x, "stale")
        assert "ref" in error
        state = await x.receive_json_from(timeout=5)
        assert state["type"] == "state" and state["ply"] == 0
    finally:
        await x.disconnect()


async def test_errors_are_translated_to_the_socket_language():
    room, cookies = await _room_with_players()
    vi, _ = await _connect(room, cookies["watcher"], lang="vi")
    en, _ = await _connect(room, cookies["watcher"], lang="en")
    try:
        for comm in (vi, en):
            await comm.send_json_to({"type": "teleport"})
        vi_err = await _expect_error(vi, "unknown_type")
        en_err = await _expect_error(en, "unknown_type")
        assert vi_err["message"] != en_err["message"]
    finally:
        await vi.disconnect()
        await en.disconnect()


async def test_sync_returns_the_full_state():
    room, cookies = await _room_with_players()
    x, first = await _connect(room, cookies["x"])
    try:
        await x.send_json_to({"type": "sync", "version": 0})
        state = await x.receive_json_from(timeout=5)
        assert state["type"] == "state" and state["version"] == first["version"]
    finally:
        await x.disconnect()


@pytest.mark.parametrize("path", ["/ws/room/QQQQQQ/", "/ws/room/qqqqqq/", "/ws/room/TOOLONG7/", "/ws/nope/", "/"])
async def test_unknown_rooms_and_paths_are_closed_with_4404(path):
    comm = Communicator(application, path, headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _ = await comm.connect()
    assert connected  # accepted, so a browser sees the close code (not a bare 403 or a 500)
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()


async def test_a_lowercase_room_path_reaches_the_room():
    room, cookies = await _room_with_players()
    comm, state = await _connect(room, cookies["x"], path=f"/ws/room/{room.code.lower()}/")
    assert state["you"] == "X"
    await comm.disconnect()


@pytest.mark.parametrize(
    "raw",
    [
        "[" * 1000 + "]" * 1000,  # nesting deeper than the JSON decoder's recursion limit
        '{"type": "ping", "x": ' + "[" * 990 + "]" * 990 + "}",
        '{"type": "move", "square": "H8", "ply": 1, "id": "\ud800"}',  # a lone surrogate
        '{"type": "move", "square": "H8\u0000", "ply": 1, "id": "00000000-0000-4000-8000-000000000000"}',
    ],
)
async def test_hostile_frames_get_an_error_and_the_socket_survives(raw):
    room, cookies = await _room_with_players()
    before = await _snapshot(room)
    x, _ = await _connect(room, cookies["x"])
    try:
        await x.send_to(text_data=raw)
        frame = await x.receive_json_from(timeout=5)
        assert frame["type"] == "error" and "ref" not in frame
        await x.send_json_to({"type": "ping"})
        assert (await x.receive_json_from(timeout=5))["type"] == "pong"
        assert await _snapshot(room) == before
    finally:
        await x.disconnect()


async def test_binary_floods_are_rate_limited_too():
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    try:
        codes = []
        for _ in range(40):
            await x.send_to(bytes_data=b"\x00")
        for _ in range(40):
            codes.append((await x.receive_json_from(timeout=5))["code"])
        assert "rate_limited" in codes and codes.count("malformed") <= 21
    finally:
        await x.disconnect()


async def test_an_idle_socket_survives_longer_than_the_redis_socket_timeout():
    """redis-py 8's 5 s socket timeout killed idle consumers after ~6 s (notes/stack.md)."""
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    o, _ = await _connect(room, cookies["o"])
    try:
        await asyncio.sleep(7)
        await o.send_json_to({"type": "ping"})
        assert (await o.receive_json_from(timeout=5))["type"] == "pong"
        await o.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())})
        assert (await o.receive_json_from(timeout=5))["code"] == "not_your_turn"
        await x.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())})
        assert (await o.receive_json_from(timeout=5))["type"] == "move"
    finally:
        await x.disconnect()
        await o.disconnect()


async def test_play_again_moves_everyone_to_the_new_game():
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    o, _ = await _connect(room, cookies["o"])
    try:
        await o.send_json_to({"type": "resign"})  # before both moved: aborted
        for comm in (x, o):
            over = await comm.receive_json_from(timeout=5)
            assert over["type"] == "game_over" and over["status"] == "aborted"
        await x.send_json_to({"type": "play_again"})
        for comm in (x, o):
            offer = await comm.receive_json_from(timeout=5)
            assert offer["type"] == "rematch_offer" and offer["by"] == "X"
        await o.send_json_to({"type": "play_again"})
        for comm, seat in ((x, "O"), (o, "X")):  # an abort swaps colours
            state = await comm.receive_json_from(timeout=5)
            assert state["type"] == "state" and state["status"] == "active" and state["you"] == seat
            assert state["moves"] == []
    finally:
        await x.disconnect()
        await o.disconnect()


@sync_to_async
def _rematch_snapshot(room):
    game = Game.objects.get(pk=room.current_game_id)
    return game.pk, game.rematch_offer, game.event_version, game.rematches.count()


async def test_a_rematch_offer_is_declined_and_bad_declines_change_nothing():
    room, cookies = await _room_with_players()
    x, _ = await _connect(room, cookies["x"])
    o, _ = await _connect(room, cookies["o"], lang="vi")
    w, _ = await _connect(room, cookies["watcher"])
    try:
        await o.send_json_to({"type": "decline_rematch"})  # the game is still on
        await _expect_error(o, "not_over")
        await x.send_json_to({"type": "resign"})  # before both moved: aborted
        for comm in (x, o, w):
            assert (await comm.receive_json_from(timeout=5))["type"] == "game_over"
        await o.send_json_to({"type": "decline_rematch"})  # nothing asked yet
        await _expect_error(o, "no_offer")
        await x.send_json_to({"type": "play_again"})
        for comm in (x, o, w):
            assert (await comm.receive_json_from(timeout=5))["type"] == "rematch_offer"
        before = await _rematch_snapshot(room)
        await x.send_json_to({"type": "decline_rematch"})  # one's own offer
        await _expect_error(x, "no_offer")
        await w.send_json_to({"type": "decline_rematch"})
        await _expect_error(w, "not_a_player")
        for bad in ("1", True, 1.5, [1]):
            await o.send_json_to({"type": "decline_rematch", "game_id": bad})
            await _expect_error(o, "malformed")
        await o.send_json_to({"type": "decline_rematch", "game_id": before[0] + 1000})  # not this room's game
        refusal = await _expect_error(o, "no_offer")
        assert refusal["message"] == "Không còn lời đề nghị nào để trả lời."  # in the socket's language
        assert await _rematch_snapshot(room) == before
        await o.send_json_to({"type": "decline_rematch", "game_id": before[0]})
        for comm in (x, o, w):
            declined = await comm.receive_json_from(timeout=5)
            assert declined == {"type": "rematch_declined", "version": before[2] + 1, "by": "O",
                                "game_id": before[0]}
        assert await _rematch_snapshot(room) == (before[0], "", before[2] + 1, 0)
        await x.send_json_to({"type": "sync"})
        state = await x.receive_json_from(timeout=5)
        assert state["type"] == "state" and state["rematch_offer"] is None and state["version"] == before[2] + 1
        await x.send_json_to({"type": "play_again", "game_id": before[0]})  # the asker may ask again
        assert (await o.receive_json_from(timeout=5))["type"] == "rematch_offer"
    finally:
        for comm in (x, o, w):
            await comm.disconnect()


async def test_pong_carries_the_server_clock_for_client_clocks():
    import time

    room, cookies = await _room_with_players()
    x, state = await _connect(room, cookies["x"])
    try:
        assert abs(state["deadline_ms"] - (time.time() * 1000 + 60_000)) < 5_000
        await x.send_json_to({"type": "ping", "t": 1234.5})
        pong = await x.receive_json_from(timeout=5)
        assert pong["t"] == 1234.5 and abs(pong["server_ms"] - time.time() * 1000) < 2_000
        await x.send_json_to({"type": "ping", "t": "not a number"})
        assert "t" not in await x.receive_json_from(timeout=5)
    finally:
        await x.disconnect()


async def test_pong_carries_the_game_and_its_current_version_so_a_page_behind_asks_for_sync():
    """Issue 27: a page that missed an event (a fault on the way) learns it from the next pong,
    whose `version` is the game's current one, not the last this socket was sent."""
    room, cookies = await _room_with_players()
    x, state = await _connect(room, cookies["x"])
    try:
        await x.send_json_to({"type": "ping"})
        pong = await x.receive_json_from(timeout=5)
        assert (pong["game_id"], pong["version"]) == (state["game_id"], state["version"])
        # An event committed but never delivered (as when Redis was away): the pong tells.
        await sync_to_async(lambda: Game.objects.filter(pk=state["game_id"]).update(
            event_version=F("event_version") + 1))()
        await x.send_json_to({"type": "ping"})
        assert (await x.receive_json_from(timeout=5))["version"] == state["version"] + 1
    finally:
        await x.disconnect()


async def test_after_the_layer_reconnects_a_socket_behind_gets_the_state_and_one_in_step_nothing():
    """`layer.reconnected` (caro.layers, after a Redis restart): the socket compares the game's
    version with the last it sent; behind, it sends the full `state`; in step, nothing."""
    from channels.layers import get_channel_layer

    from caro.games.models import Connection

    room, cookies = await _room_with_players()
    x, state = await _connect(room, cookies["x"])
    try:
        channel = await sync_to_async(lambda: Connection.objects.get(game_id=state["game_id"]).channel)()
        layer = get_channel_layer()
        await layer.send(channel, {"type": "layer.reconnected"})
        await x.send_json_to({"type": "ping"})
        assert (await x.receive_json_from(timeout=5))["type"] == "pong"  # in step: no state first
        await sync_to_async(lambda: Game.objects.filter(pk=state["game_id"]).update(
            event_version=F("event_version") + 1))()
        await layer.send(channel, {"type": "layer.reconnected"})
        again = await x.receive_json_from(timeout=5)
        assert again["type"] == "state" and again["version"] == state["version"] + 1
    finally:
        await x.disconnect()


@sync_to_async
def _waiting_room_and_visitor():
    host, visitor = create_guest(), create_guest()
    room = rooms.create_room(host)
    return room, host, visitor, {"host": session_cookie(host), "visitor": session_cookie(visitor)}


async def _next_state(comm):
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == "state":
            return frame


async def test_every_socket_of_the_visitor_who_takes_a_seat_becomes_that_seat():
    """Two tabs of one session watch a waiting room; the visitor takes the free seat (over HTTP, as
    the page's button does): both open sockets are told they hold that seat and count as the
    player's for presence, so closing one of them leaves the player present, not away."""
    room, host, visitor, cookies = await _waiting_room_and_visitor()
    h, _ = await _connect(room, cookies["host"])
    a, sa = await _connect(room, cookies["visitor"])
    b, sb = await _connect(room, cookies["visitor"])
    try:
        assert (sa["you"], sb["you"], sa["status"]) == (None, None, "waiting")
        await sync_to_async(rooms.join)(room, visitor)
        state_a, state_b = await _next_state(a), await _next_state(b)
        await _next_state(h)  # the host's own state after the seat was taken
        seat = state_a["you"]
        assert seat in ("X", "O") and state_b["you"] == seat and state_b["status"] == "active"
        assert state_b["players"][seat]["name"] == visitor.public_name
        # The server, too, now takes socket b for the player's: a player's frame is accepted.
        await b.send_json_to({"type": "offer_draw"})
        frame = await b.receive_json_from(timeout=5)
        assert (frame["type"], frame.get("by")) == ("draw_offer", seat), frame
        # One tab closes: the player is still here (tab b), not away.
        await a.disconnect()
        await h.send_json_to({"type": "sync"})
        state_h = await _next_state(h)
        assert state_h["presence"][seat] is True and state_h["absence"] is None, state_h
    finally:
        for comm in (h, b):
            await comm.disconnect()


async def _publish(room, *events):
    """Game events as the web processes publish them (through Redis), in the order given."""
    from channels.layers import get_channel_layer

    group = Game(pk=room.current_game_id).group_name
    for event in events:
        await get_channel_layer().group_send(group, {"type": "game.event",
                                                     "event": {**event, "game_id": room.current_game_id}})


async def test_events_that_cross_between_processes_reach_a_socket_in_version_order():
    """Two web processes publishing at once (a move, then the game's end) can cross in Redis: the
    socket holds the later event until the earlier one came, and never sends what it already sent."""
    room, cookies = await _room_with_players()
    w, state = await _connect(room, cookies["watcher"])
    try:
        v = state["version"]
        move = {"type": "move", "version": v + 1, "ply": 1, "side": "X", "square": "H8", "id": str(uuid.uuid4())}
        over = {"type": "game_over", "version": v + 2, "status": "finished", "winner": "X", "termination": "resign"}
        await _publish(room, over, move, move)  # the second copy of the move: already sent
        assert [(await w.receive_json_from(timeout=5))["type"] for _ in range(2)] == ["move", "game_over"]
        await w.send_json_to({"type": "ping"})
        assert (await w.receive_json_from(timeout=5))["type"] == "pong"  # nothing else was queued
    finally:
        await w.disconnect()


async def test_an_event_whose_predecessor_never_comes_is_replaced_by_the_state():
    room, cookies = await _room_with_players()
    w, state = await _connect(room, cookies["watcher"])
    try:
        v = state["version"]
        await _publish(room, {"type": "presence", "version": v + 2, "side": "O", "present": False,
                              "absence": None, "choices": {}})
        frame = await w.receive_json_from(timeout=10)  # after REORDER_WAIT_S
        assert frame["type"] == "state" and frame["version"] == v  # the database's, which holds all
        await w.send_json_to({"type": "ping"})
        assert (await w.receive_json_from(timeout=5))["type"] == "pong"  # the held event was dropped
    finally:
        await w.disconnect()


async def test_each_socket_gets_the_move_with_its_own_sides_choices_from_one_queue():
    """A move event carries `choices` per side: each player's socket gets its own side's list, a
    spectator's none, and a spectator's frame is the very text built for the first spectator
    (`event_text`: once per event and side). Every room socket reads the layer's messages from
    its own input queue (the layer adopted it), and gives it back when it closes."""
    from channels.layers import get_channel_layer

    room, cookies = await _room_with_players()
    layer = get_channel_layer()
    x, _sx = await _connect(room, cookies["x"])
    adopted = set(layer._get_layer().adopted)
    o, _so = await _connect(room, cookies["o"])
    w, _sw = await _connect(room, cookies["watcher"])
    v, _sv = await _connect(room, None)  # an anonymous spectator
    mine = set(layer._get_layer().adopted) - adopted
    try:
        assert len(mine) == 3  # o, w and v: each room socket's channel is adopted
        await x.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())})
        raw = {}
        for name, comm in (("x", x), ("o", o), ("w", w), ("v", v)):
            while True:
                text = await comm.receive_from(timeout=5)
                if json.loads(text)["type"] == "move":
                    raw[name] = text
                    break
        events = {name: json.loads(text) for name, text in raw.items()}
        assert "resign" in events["x"]["choices"] and "resign" in events["o"]["choices"]
        assert "offer_draw" in events["o"]["choices"] and "offer_draw" in events["x"]["choices"]
        assert events["w"]["choices"] == [] and raw["w"] == raw["v"]
        assert {k: v for k, v in events["x"].items() if k != "choices"} == \
            {k: v for k, v in events["o"].items() if k != "choices"}
    finally:
        for comm in (x, o, w, v):
            await comm.disconnect()
    for _ in range(100):
        if not mine & set(layer._get_layer().adopted):
            break
        await asyncio.sleep(0.05)
    assert not mine & set(layer._get_layer().adopted)  # released as each socket closed
