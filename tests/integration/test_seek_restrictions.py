"""Moderation meets matchmaking: a fair-play seek bar or a ban refuses a seek with its reason and
the time left, and a ban closes an open seek socket at once (real Redis layer and PostgreSQL)."""

import uuid
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import User
from caro.asgi import application
from moderation import services
from ranking.seeks import Seek
from tests.integration.helpers import session_cookie
from tests.integration.moderation_helpers import moderator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CHOICE = "caro-15-blocked"


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


async def _connect(user, lang="en"):
    cookie = await sync_to_async(session_cookie)(user)
    comm = WebsocketCommunicator(application, "/ws/seek/", headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost"),
        (b"cookie", cookie + b"; django_language=" + lang.encode())])
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _next(comm, type_, timeout=30):
    while True:
        frame = await comm.receive_json_from(timeout)
        if frame["type"] == type_:
            return frame


async def test_a_seek_bar_refuses_the_seek_with_the_reason_and_the_minutes_left():
    guest = await sync_to_async(create_guest)()
    await sync_to_async(User.objects.filter(pk=guest.pk).update)(
        queue_banned_until=timezone.now() + timedelta(minutes=9, seconds=30), queue_ban_reason="abort")
    comm = await _connect(guest)
    await comm.send_json_to({"type": "seek", "mode": "quick", "choice": CHOICE})
    error = await _next(comm, "error")
    assert error["code"] == "seek_barred"
    assert "10 more minutes" in error["message"] and "aborted" in error["message"]
    assert not await sync_to_async(Seek.objects.filter(user=guest).exists)()
    await comm.disconnect()


async def test_a_bar_given_after_the_socket_opened_still_refuses_the_next_seek():
    guest = await sync_to_async(create_guest)()
    comm = await _connect(guest, lang="vi")
    await _next(comm, "status")
    await sync_to_async(User.objects.filter(pk=guest.pk).update)(
        queue_banned_until=timezone.now() + timedelta(minutes=20), queue_ban_reason="leave")
    await comm.send_json_to({"type": "seek", "mode": "quick", "choice": CHOICE})
    error = await _next(comm, "error")
    assert error["code"] == "seek_barred" and "20" in error["message"]
    assert not await sync_to_async(Seek.objects.filter(user=guest).exists)()
    await comm.disconnect()


async def test_a_ban_closes_a_waiting_seek_socket_with_the_reason():
    guest = await sync_to_async(create_guest)()
    mod = await sync_to_async(moderator)(f"mod{uuid.uuid4().hex[:6]}")
    comm = await _connect(guest)
    await _next(comm, "status")
    await comm.send_json_to({"type": "seek", "mode": "quick", "choice": CHOICE})
    assert (await _next(comm, "status"))["status"] == "waiting"
    await sync_to_async(services.ban)(mod, guest, reason="Spam in chat", forever=True)
    banned = await _next(comm, "banned")
    assert "Spam in chat" in banned["message"] and banned["until_ms"] is None
    assert (await comm.receive_output(30)) == {"type": "websocket.close", "code": 4403}
    # A new socket may not seek either.
    again = await _connect(guest)
    await again.send_json_to({"type": "seek", "mode": "quick", "choice": CHOICE})
    assert (await _next(again, "error"))["code"] == "seek_barred"
    await again.disconnect()
