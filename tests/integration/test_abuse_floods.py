"""A socket that keeps sending frames over its rate is closed (CLOSE_TOO_MANY) after MAX_REFUSALS
refusals, on every site socket: the room, the seek (matchmaking) and the live (lobby) socket. An
attacker's run: 3,000 frames a second on one room socket were each answered `rate_limited`, for
as long as they kept coming. Channels' WebsocketCommunicator, the real Redis channel layer and
PostgreSQL. The flood is sent until the socket closes (a bounded count); nothing waits a guessed
time: a frame's answer, or the close, is what the test waits for."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.guests import create_guest
from caro.asgi import application
from caro.rooms import services as rooms
from caro.rooms.consumers import BURST, CLOSE_TOO_MANY, MAX_REFUSALS
from tests.integration.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

#: Bound on one wait for a frame (generous: the machine is shared).
TIMEOUT_S = 10
#: Bound on a wait for the live socket's close (it answers nothing while it refuses a flood).
SILENT_BOUND_S = 60
#: Frames sent before reading what came back.
BATCH = 50
#: The most frames a test sends: many times what closes the socket, so that tokens refilled
#: while a loaded machine is slow to read the flood cannot keep it open; a socket that is
#: never closed fails the test after this many.
FLOOD_BOUND = 10 * (MAX_REFUSALS + int(BURST))


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


async def _open(path: str, cookie: bytes | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
               (b"cookie", (cookie + b"; " if cookie else b"") + b"django_language=en")]
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT_S)
    assert connected
    return comm


async def _flood_until_closed(comm, frame: dict) -> tuple[int, int, int]:
    """Send `frame` over and over, BATCH at a time, until the socket closes; returns (close code,
    pongs, `rate_limited` errors received before the close). After each batch, reads until every
    frame sent got its one answer (a pong or a refusal) or the close."""
    sent = pongs = refused = 0
    while sent < FLOOD_BOUND:
        for _ in range(BATCH):
            await comm.send_json_to(frame)
        sent += BATCH
        while pongs + refused < sent:
            output = await comm.receive_output(timeout=TIMEOUT_S)
            if output["type"] == "websocket.close":
                return output.get("code"), pongs, refused
            message = json.loads(output["text"])
            if message["type"] == "pong":
                pongs += 1
            elif message["type"] == "error" and message["code"] == "rate_limited":
                refused += 1
    raise AssertionError(f"the socket was still open after {sent} frames ({refused} refused)")


@sync_to_async
def _player_cookie_and_room():
    x = create_guest()
    room = rooms.create_room(x)
    rooms.join(room, create_guest())
    return session_cookie(x), room


async def test_a_room_socket_flooding_past_its_rate_is_closed_after_max_refusals():
    cookie, room = await _player_cookie_and_room()
    comm = await _open(f"/ws/room/{room.code}/", cookie)
    try:
        assert (await comm.receive_json_from(timeout=TIMEOUT_S))["type"] == "state"
        code, pongs, refused = await _flood_until_closed(comm, {"type": "ping", "light": True})
        assert code == CLOSE_TOO_MANY
        assert refused == MAX_REFUSALS - 1  # every refusal answered, the last one is the close
        assert pongs >= BURST  # frames within the rate were answered all along
    finally:
        await comm.disconnect()


async def test_a_seek_socket_flooding_past_its_rate_is_closed_after_max_refusals():
    cookie = await sync_to_async(lambda: session_cookie(create_guest()))()
    comm = await _open("/ws/seek/", cookie)
    try:
        assert (await comm.receive_json_from(timeout=TIMEOUT_S))["type"] == "status"
        code, pongs, refused = await _flood_until_closed(comm, {"type": "ping"})
        assert code == CLOSE_TOO_MANY
        assert refused == MAX_REFUSALS - 1 and pongs >= BURST
    finally:
        await comm.disconnect()


async def test_a_live_socket_flooding_past_its_rate_is_closed():
    """The live socket ignores a frame over its rate without an answer; a flood closes it too.
    With no answer to count, the flood is one batch: what closes the socket, and the frames that
    100 s of refill would let through (a pong a second at most meanwhile)."""
    from lobby.consumers import FRAME_BURST, FRAMES_PER_S

    comm = await _open("/ws/live/?lang=en")
    try:
        for _ in range(MAX_REFUSALS + FRAME_BURST + int(100 * FRAMES_PER_S)):
            await comm.send_json_to({"type": "ping"})
        pongs = 0
        try:
            while (output := await comm.receive_output(timeout=SILENT_BOUND_S))["type"] != "websocket.close":
                pongs += json.loads(output["text"])["type"] == "pong"
        except asyncio.TimeoutError:
            pytest.fail(f"the live socket was still open after the flood ({pongs} pongs)")
        assert output.get("code") == CLOSE_TOO_MANY
        assert pongs >= FRAME_BURST  # frames within the rate were answered
    finally:
        await comm.disconnect()
