"""Issue 12 on the websocket: spectators refused before the row lock, socket limits in Redis, the
size rule, the play_again answer and the Origin check. Channels' WebsocketCommunicator, the real
Redis channel layer and PostgreSQL (see test_room_consumer.py for the pattern)."""

import asyncio
import random
import threading
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection, transaction
from django.test import Client, override_settings

from accounts.guests import create_guest
from caro.asgi import application
from caro.games.models import Game, Move
from caro.rooms import services as rooms
from caro.rooms.consumers import CLOSE_FRAME_BYTES, CLOSE_TOO_BIG, CLOSE_TOO_MANY, MAX_FRAME_BYTES
from caro.rooms.models import Room
from tests.integration.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

#: Generous: the machine is shared with other suites.
TIMEOUT_S = 10


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


def _test_address() -> str:
    """A documentation address (RFC 5737) no other test uses, so Redis counts never collide."""
    return f"198.51.{random.randint(0, 255)}.{random.randint(1, 254)}"


@sync_to_async
def _room_with_players():
    x, o, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    return room, {"x": session_cookie(x), "o": session_cookie(o), "watcher": session_cookie(watcher)}


@sync_to_async
def _snapshot(room):
    room = Room.objects.get(pk=room.pk)
    game = Game.objects.get(pk=room.current_game_id)
    return (room.current_game_id, game.ply, game.event_version, game.status, game.rematch_offer,
            Move.objects.filter(game=game).count(), game.rematches.count())


def _communicator(room_code, cookie=None, origin=b"http://localhost", host=b"localhost", address=None):
    headers = [(b"host", host), (b"cookie", (cookie + b"; " if cookie else b"") + b"django_language=en")]
    if origin is not None:
        headers.append((b"origin", origin))
    comm = WebsocketCommunicator(application, f"/ws/room/{room_code}/", headers=headers)
    if address:
        comm.scope["client"] = (address, 50000)  # what Daphne puts in the scope
    return comm


async def _open(room, cookie=None, address=None):
    comm = _communicator(room.code, cookie, address=address)
    connected, _ = await comm.connect(timeout=TIMEOUT_S)
    assert connected
    state = await comm.receive_json_from(timeout=TIMEOUT_S)
    assert state["type"] == "state"
    return comm, state


async def _expect_error(comm, code):
    frame = await comm.receive_json_from(timeout=TIMEOUT_S)
    assert frame["type"] == "error" and frame["code"] == code, frame
    assert frame["message"]
    return frame


# ---------------------------------------------------------------- point 4: spectators


class RowLock:
    """Hold the game's row lock (SELECT ... FOR UPDATE) in another thread until released."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.locked, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=self.game_id)
                self.locked.set()
                self.release.wait(120)
        finally:
            connection.close()

    async def __aenter__(self):
        self.thread.start()
        assert await asyncio.to_thread(self.locked.wait, TIMEOUT_S)
        return self

    async def __aexit__(self, *exc):
        self.release.set()
        await asyncio.to_thread(self.thread.join, TIMEOUT_S)


async def test_a_spectators_moves_are_refused_while_the_game_row_is_locked():
    """Before the fix the service waited for the row lock: no answer until the lock was released."""
    room, cookies = await _room_with_players()
    before = await _snapshot(room)
    watcher, _ = await _open(room, cookies["watcher"])
    anon, _ = await _open(room)
    try:
        async with RowLock(room.current_game_id):
            for comm in (watcher, anon):
                for action in ({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4()), "seat": "X"},
                               {"type": "resign"}, {"type": "request_undo"}):
                    await comm.send_json_to(action)
                    await _expect_error(comm, "not_a_player")  # answered while the lock is held
        assert await _snapshot(room) == before
    finally:
        await watcher.disconnect()
        await anon.disconnect()


async def test_a_spectators_flood_is_still_rate_limited_and_the_player_still_moves():
    room, cookies = await _room_with_players()
    x, _ = await _open(room, cookies["x"])
    watcher, _ = await _open(room, cookies["watcher"])
    try:
        frames = 200  # far beyond the burst of 20, at any speed this machine answers them
        for _ in range(frames):
            await watcher.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())})
        codes = [(await watcher.receive_json_from(timeout=TIMEOUT_S))["code"] for _ in range(frames)]
        assert set(codes) == {"not_a_player", "rate_limited"} and codes.count("not_a_player") < frames
        await x.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())})
        event = await x.receive_json_from(timeout=TIMEOUT_S)
        assert event["type"] == "move" and event["square"] == "H8"
    finally:
        await x.disconnect()
        await watcher.disconnect()


async def test_a_player_who_takes_a_seat_can_move_from_the_same_socket():
    """The cached seat follows the `state` the socket gets when a seat is taken."""
    x = await sync_to_async(create_guest)()
    o = await sync_to_async(create_guest)()
    room = await sync_to_async(rooms.create_room)(x)
    x_cookie, o_cookie = await sync_to_async(session_cookie)(x), await sync_to_async(session_cookie)(o)
    xs, _ = await _open(room, x_cookie)
    os_, state = await _open(room, o_cookie)
    try:
        assert state["you"] is None
        await sync_to_async(rooms.join)(room, o)
        for comm in (xs, os_):
            assert (await comm.receive_json_from(timeout=TIMEOUT_S))["type"] == "state"
        await xs.send_json_to({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())})
        for comm in (xs, os_):
            assert (await comm.receive_json_from(timeout=TIMEOUT_S))["type"] == "move"
        await os_.send_json_to({"type": "move", "square": "H9", "ply": 2, "id": str(uuid.uuid4())})
        event = await xs.receive_json_from(timeout=TIMEOUT_S)
        assert event["type"] == "move" and event["side"] == "O"
    finally:
        await xs.disconnect()
        await os_.disconnect()


# ---------------------------------------------------------------- point 8: play_again game_id


async def test_play_again_for_another_game_is_answered_for_everyone():
    room, cookies = await _room_with_players()
    x, first = await _open(room, cookies["x"])
    watcher, _ = await _open(room, cookies["watcher"])
    anon, _ = await _open(room)
    stranger_id = first["game_id"] + 1_000_000
    try:
        before = await _snapshot(room)
        for comm in (watcher, anon):
            for game_id in (stranger_id, first["game_id"]):
                await comm.send_json_to({"type": "play_again", "game_id": game_id})
                await _expect_error(comm, "not_a_player")
        # A player asking about a game that is not the current one gets the current game's state.
        await x.send_json_to({"type": "play_again", "game_id": stranger_id})
        state = await x.receive_json_from(timeout=TIMEOUT_S)
        assert state["type"] == "state" and state["game_id"] == first["game_id"] and state["you"] == "X"
        # About the current game, still running: not_over.
        await x.send_json_to({"type": "play_again", "game_id": first["game_id"]})
        await _expect_error(x, "not_over")
        assert await _snapshot(room) == before
    finally:
        for comm in (x, watcher, anon):
            await comm.disconnect()


# ---------------------------------------------------------------- point 9: frame sizes


async def test_frames_over_the_size_rule_are_answered_then_closed_beyond_the_multiple():
    room, cookies = await _room_with_players()
    before = await _snapshot(room)
    x, _ = await _open(room, cookies["x"])
    try:
        for size in (MAX_FRAME_BYTES + 1, CLOSE_FRAME_BYTES):
            await x.send_to(text_data='{"type": "ping", "pad": "' + "x" * (size - 27) + '"}')
            await _expect_error(x, "too_large")
        await x.send_json_to({"type": "ping"})
        assert (await x.receive_json_from(timeout=TIMEOUT_S))["type"] == "pong"
        await x.send_to(text_data="x" * (CLOSE_FRAME_BYTES + 1))
        assert await x.receive_output(timeout=TIMEOUT_S) == {"type": "websocket.close", "code": CLOSE_TOO_BIG}
        assert await _snapshot(room) == before
    finally:
        await x.disconnect()


# ---------------------------------------------------------------- point 3: socket limits


async def _refused(comm):
    connected, _ = await comm.connect(timeout=TIMEOUT_S)
    assert connected  # accepted first, so the page can show why
    await _expect_error(comm, "too_many_sockets")
    assert await comm.receive_output(timeout=TIMEOUT_S) == {"type": "websocket.close", "code": CLOSE_TOO_MANY}
    await comm.disconnect()


async def test_sockets_per_session_in_a_room_and_in_all():
    room, cookies = await _room_with_players()
    other = await sync_to_async(rooms.create_room)(await sync_to_async(create_guest)())
    with override_settings(CARO_WS_PER_SESSION_ROOM=2, CARO_WS_PER_SESSION=3):
        a, _ = await _open(room, cookies["watcher"])
        b, _ = await _open(room, cookies["watcher"])
        await _refused(_communicator(room.code, cookies["watcher"]))
        c, _ = await _open(other, cookies["watcher"])  # another room: allowed up to 3 in all
        await _refused(_communicator(other.code, cookies["watcher"]))
        x, _ = await _open(room, cookies["x"])  # other visitors are not affected
        await a.disconnect()  # a closed socket frees its place at once
        d, _ = await _open(room, cookies["watcher"])
        for comm in (b, c, x, d):
            await comm.disconnect()


async def test_sockets_per_address_in_a_room_and_in_all():
    room, _cookies = await _room_with_players()
    other = await sync_to_async(rooms.create_room)(await sync_to_async(create_guest)())
    address = _test_address()
    with override_settings(CARO_WS_PER_ADDRESS_ROOM=2, CARO_WS_PER_ADDRESS=3):
        a, _ = await _open(room, address=address)
        b, _ = await _open(room, address=address)
        await _refused(_communicator(room.code, address=address))
        c, _ = await _open(other, address=address)
        await _refused(_communicator(other.code, address=address))
        elsewhere, _ = await _open(room, address=_test_address())
        for comm in (a, b, c, elsewhere):
            await comm.disconnect()


async def test_sockets_lost_with_a_redis_restart_count_again_at_the_next_renewal(monkeypatch):
    """Attacker run: after a Redis restart the open sockets were no longer counted (the renewal
    used ZADD XX, which never adds a missing member), so a session could open 8 more. The counts
    are emptied as a restart empties them; the next renewal puts every open socket back."""
    import redis as redis_sync
    from django.conf import settings

    from caro.rooms import limits

    monkeypatch.setattr(limits, "WS_LEASE_RENEW_S", 0.2)
    room, cookies = await _room_with_players()
    with override_settings(CARO_WS_PER_SESSION_ROOM=2, CARO_WS_PER_SESSION=0):
        a, _ = await _open(room, cookies["watcher"])
        b, _ = await _open(room, cookies["watcher"])
        store = redis_sync.Redis.from_url(settings.REDIS_URL)
        keys = [key for key in store.scan_iter(f"{limits.WS_KEY_PREFIX}:user:*:{room.code}")
                if store.zcard(key) == 2]
        assert len(keys) == 1  # the watcher's count in this room
        store.delete(*keys)  # what a Redis restart leaves
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT_S
        while store.zcard(keys[0]) < 2:
            assert loop.time() < deadline, "the renewal never counted the open sockets again"
            await asyncio.sleep(0.05)
        await _refused(_communicator(room.code, cookies["watcher"]))
        for comm in (a, b):
            await comm.disconnect()


# ---------------------------------------------------------------- point 6: Origin


@pytest.mark.parametrize(
    "origin, host, accepted",
    [
        (b"http://localhost:8000", b"localhost:8000", True),
        (b"http://LOCALHOST:8000", b"localhost:8000", True),
        (b"http://localhost:9999", b"localhost:8000", False),  # another port of the same host
        (b"https://localhost:8000", b"localhost:8000", False),  # another scheme
        (b"http://localhost", b"localhost:80", True),  # default port
        (b"http://localhost:8000", b"localhost", False),
        (b"http://evil.example:8000", b"localhost:8000", False),
        (b"http://evil.example", b"evil.example", False),  # a host the site does not serve
        (b"null", b"localhost", False),
        (None, b"localhost", False),
        (b"http://localhost:8000/path", b"localhost:8000", False),
    ],
)
async def test_the_websocket_origin_must_be_the_sites_own(origin, host, accepted):
    room, _cookies = await _room_with_players()
    comm = _communicator(room.code, origin=origin, host=host)
    connected, _ = await comm.connect(timeout=TIMEOUT_S)
    try:
        assert connected is accepted
    finally:
        await comm.disconnect()


@pytest.mark.parametrize(
    "origin, accepted",
    [
        (b"https://caro.example.com", True),
        (b"https://caro.example.com:443", True),
        (b"https://caro.example.com:8443", False),
        (b"http://caro.example.com", False),
        (b"https://play.caro.example.org", True),  # https://*.caro.example.org
        (b"https://caro.example.org.evil.example", False),
        (b"http://play.caro.example.org", False),
    ],
)
async def test_csrf_trusted_origins_are_the_sites_origins_behind_a_proxy(origin, accepted):
    room, _cookies = await _room_with_players()
    trusted = ["https://caro.example.com", "https://*.caro.example.org"]
    with override_settings(CSRF_TRUSTED_ORIGINS=trusted):
        comm = _communicator(room.code, origin=origin, host=b"web:8000")  # the proxy's upstream Host
        connected, _ = await comm.connect(timeout=TIMEOUT_S)
        try:
            assert connected is accepted
        finally:
            await comm.disconnect()


async def test_behind_a_tls_proxy_the_page_origin_is_https():
    room, _cookies = await _room_with_players()
    with override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")):
        for origin, accepted in ((b"https://localhost", True), (b"http://localhost", False)):
            comm = _communicator(room.code, origin=origin, host=b"localhost")
            comm.scope["headers"].append((b"x-forwarded-proto", b"https"))
            connected, _ = await comm.connect(timeout=TIMEOUT_S)
            try:
                assert connected is accepted
            finally:
                await comm.disconnect()
