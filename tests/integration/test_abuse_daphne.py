"""Issue 12 through real Daphne processes: the socket limits hold across two Daphnes (the counts are
in Redis, not in a process), and the size rule through Daphne with compose.yaml's message-size
flag: `too_large` up to 4 x 2,048 bytes, close 4413 beyond, a dropped connection past Daphne's limit."""

import asyncio
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.test import Client

from accounts.guests import create_guest
from caro.rooms import services as rooms
from caro.rooms.consumers import CLOSE_FRAME_BYTES, CLOSE_TOO_BIG, CLOSE_TOO_MANY, MAX_FRAME_BYTES
from tests.conftest import ROOT, _child_env, _stop, start_daphnes

#: Per session and room, for this test's Daphnes only.
SESSION_ROOM_LIMIT = 2
#: Daphne's message limit in compose.yaml (tests/integration/test_compose.py checks it is there).
DAPHNE_MAX_MESSAGE_BYTES = 65536
DAPHNE_FLAGS = ["--websocket-max-message-size", str(DAPHNE_MAX_MESSAGE_BYTES)]
TIMEOUT_S = 10


@pytest.fixture(scope="module")
def two_daphnes(django_db_setup, django_db_blocker, tmp_path_factory):
    """Two Daphne processes on the test database and Redis; yields their base URLs."""
    with django_db_blocker.unblock():
        env = _child_env()
    env["CARO_WS_PER_SESSION_ROOM"] = str(SESSION_ROOM_LIMIT)
    started = start_daphnes(env, 2, tmp_path_factory, flags=DAPHNE_FLAGS)
    try:
        yield [url for _proc, _log, url in started]
    finally:
        for proc, _log, _url in started:
            _stop(proc)


pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _room_and_cookie():
    user = create_guest()
    room = rooms.create_room(create_guest())
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return room, f"sessionid={client.cookies['sessionid'].value}; django_language=en"


async def _open(base: str, code: str, cookie: str):
    ws = await websockets.connect(base.replace("http://", "ws://") + f"/ws/room/{code}/",
                                  additional_headers={"Cookie": cookie, "Origin": base},
                                  open_timeout=TIMEOUT_S, max_size=None)
    first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))
    return ws, first


async def _closed_with(ws) -> int:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), TIMEOUT_S)
    except websockets.exceptions.ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else None


@pytest.mark.asyncio
async def test_the_socket_limit_holds_across_two_daphne_processes(two_daphnes):
    a, b = two_daphnes
    room, cookie = await _room_and_cookie()
    opened = []
    try:
        for base in (a, b)[:SESSION_ROOM_LIMIT]:  # one socket on each process
            ws, first = await _open(base, room.code, cookie)
            assert first["type"] == "state"
            opened.append(ws)
        for base in (a, b):  # the next one is refused on either process
            ws, first = await _open(base, room.code, cookie)
            assert first["type"] == "error" and first["code"] == "too_many_sockets"
            assert await _closed_with(ws) == CLOSE_TOO_MANY
        await opened.pop().close()
        deadline = time.monotonic() + TIMEOUT_S  # the place is given back when the close is handled
        while True:
            ws, first = await _open(b, room.code, cookie)
            if first["type"] == "state":
                opened.append(ws)
                break
            await ws.close()
            assert time.monotonic() < deadline, "the closed socket's place never came back"
            await asyncio.sleep(0.2)
    finally:
        for ws in opened:
            await ws.close()


@pytest.mark.asyncio
async def test_over_the_multiple_the_socket_is_closed_with_4413_and_beyond_daphnes_limit_dropped(two_daphnes):
    base = two_daphnes[0]
    room, cookie = await _room_and_cookie()
    ws, first = await _open(base, room.code, cookie)
    try:
        assert first["type"] == "state"
        await ws.send('{"type": "ping", "pad": "' + "x" * (MAX_FRAME_BYTES * 2) + '"}')
        answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))
        assert answer["type"] == "error" and answer["code"] == "too_large"
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))["type"] == "pong"
        await ws.send("x" * (CLOSE_FRAME_BYTES * 3))
        assert await _closed_with(ws) == CLOSE_TOO_BIG
    finally:
        await ws.close()
    ws, first = await _open(base, room.code, cookie)
    try:
        await ws.send("x" * (DAPHNE_MAX_MESSAGE_BYTES + 1))
        assert await _closed_with(ws) is None  # Daphne's limit: the connection is dropped
    finally:
        await ws.close()


@pytest.mark.asyncio
async def test_the_live_socket_closes_the_attackers_60_kb_frame_with_4413_and_daphne_drops_a_bigger_one(two_daphnes):
    """Attacker run: 60 KB frames on /ws/live/ (under Daphne's 64 KiB limit) were read and ignored,
    18,148 in 10 s. The first one now closes the socket with 4413; one over Daphne's limit never
    reaches the consumer (the connection is dropped)."""
    base = two_daphnes[0]
    _room, cookie = await _room_and_cookie()
    for size, code in ((60_000, CLOSE_TOO_BIG), (DAPHNE_MAX_MESSAGE_BYTES + 5_000, None)):
        ws = await websockets.connect(base.replace("http://", "ws://") + "/ws/live/?lang=en",
                                      additional_headers={"Cookie": cookie, "Origin": base},
                                      open_timeout=TIMEOUT_S, max_size=None)
        try:
            await ws.send(json.dumps({"type": "ping", "pad": "x" * size}))
            assert await _closed_with(ws) == code, size
        finally:
            await ws.close()


def test_with_production_settings_the_compose_healthcheck_passes_and_pages_redirect_to_https(
        django_db_setup, django_db_blocker, tmp_path_factory):
    """HTTPS on (DEBUG off, a real host): the container healthcheck still gets "ok" over plain HTTP
    with compose.yaml's own command line, and everything else redirects to https."""
    import secrets

    import yaml

    with django_db_blocker.unblock():
        env = _child_env()
    env.update(DEBUG="0", ALLOWED_HOSTS="caro.example.com", SECRET_KEY=secrets.token_urlsafe(50))
    env.pop("HTTPS", None)
    [(proc, _log, url)] = start_daphnes(env, 1, tmp_path_factory, host="caro.example.com", flags=DAPHNE_FLAGS)
    try:
        web = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["web"]
        check = web["healthcheck"]["test"][3].replace("http://localhost:8000", url)
        result = subprocess.run([sys.executable, "-c", check], env=env, timeout=60)
        assert result.returncode == 0

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        opener = urllib.request.build_opener(NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as redirect:
            opener.open(urllib.request.Request(url + "/guides/", headers={"Host": "caro.example.com"}), timeout=10)
        assert redirect.value.code == 301
        assert redirect.value.headers["Location"] == "https://caro.example.com/guides/"
        secure = urllib.request.Request(url + "/healthz", headers={"Host": "caro.example.com",
                                                                   "X-Forwarded-Proto": "https"})
        with opener.open(secure, timeout=10) as response:  # through the TLS proxy: HSTS
            assert response.read() == b"ok"
            assert "max-age=" in response.headers["Strict-Transport-Security"]
    finally:
        _stop(proc)
