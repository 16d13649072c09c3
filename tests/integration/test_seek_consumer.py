"""The seek websocket through Channels' WebsocketCommunicator, the real Redis layer and PostgreSQL."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from accounts.guests import create_guest
from caro.asgi import application
from caro.games.models import Game
from ranking import choices
from ranking.seeks import Seek
from tests.integration.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


async def _connect(cookie: bytes | None, lang: str = "en"):
    cookies = b"django_language=" + lang.encode()
    if cookie:
        cookies = cookie + b"; " + cookies
    comm = WebsocketCommunicator(application, "/ws/seek/",
                                 headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookies)])
    connected, _ = await comm.connect()
    assert connected
    if cookie:  # the hello: the player's seek status (then the waiting counts)
        comm.hello = await _next(comm, "status")
    return comm


async def _next(comm, type_, timeout=10):
    """The next frame of `type_` (the lobby's `waiting` counts and others may come between)."""
    while True:
        frame = await comm.receive_json_from(timeout)
        if frame["type"] == type_:
            return frame


@sync_to_async
def _guests(n):
    users = [create_guest() for _ in range(n)]
    return users, [session_cookie(user) for user in users]


async def test_two_guests_with_the_same_rules_both_hear_of_one_game():
    users, cookies = await _guests(2)
    a, b = await _connect(cookies[0]), await _connect(cookies[1])
    assert a.hello["status"] == b.hello["status"] == "idle"
    await a.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-15-blocked"})
    waiting = await _next(a, "status")
    assert waiting["status"] == "waiting" and waiting["choice"] == "caro-15-blocked"
    await b.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-15-blocked"})
    heard_a, heard_b = await _next(a, "paired"), await _next(b, "paired")
    assert heard_a["game_id"] == heard_b["game_id"] and heard_a["url"].startswith("/r/")
    game = await sync_to_async(Game.objects.get)(pk=heard_a["game_id"])
    assert {game.host_id, game.guest_id} == {users[0].pk, users[1].pk}
    await a.disconnect()
    await b.disconnect()


async def test_two_tabs_share_the_seek_and_both_hear_of_the_game():
    users, cookies = await _guests(2)
    tab1, tab2, other = await _connect(cookies[0]), await _connect(cookies[0]), await _connect(cookies[1])
    for comm in (tab1, tab2):
        await comm.send_json_to({"type": "seek", "mode": "quick", "choice": "reversi"})
        assert (await _next(comm, "status"))["status"] == "waiting"
    assert await sync_to_async(Game.objects.count)() == 0
    await other.send_json_to({"type": "seek", "mode": "quick", "choice": "reversi"})
    first, second = await _next(tab1, "paired"), await _next(tab2, "paired")
    assert first["game_id"] == second["game_id"] == (await _next(other, "paired"))["game_id"]
    for comm in (tab1, tab2, other):
        await comm.disconnect()


async def test_bad_frames_get_clear_errors_and_change_nothing():
    _users, cookies = await _guests(1)
    comm = await _connect(cookies[0])
    for raw, code in (("not json", "malformed"), ("[1]", "malformed"), (json.dumps({"type": "dance"}), "unknown_type"),
                      (json.dumps({"type": "seek", "mode": "quick", "choice": "caro-99"}), "bad_choice"),
                      (json.dumps({"type": "seek", "mode": 3, "choice": "x"}), "malformed"),
                      (json.dumps({"type": "seek", "mode": "quick", "choice": "x" * 3000}), "too_large")):
        await comm.send_to(text_data=raw)
        error = await _next(comm, "error")
        assert error["code"] == code and error["message"]
    await comm.send_json_to({"type": "seek", "mode": "ranked", "choice": "caro"})
    error = await _next(comm, "error")
    assert error["code"] == "guests_not_ranked" and "signup_url" in error and "account" in error["message"]
    await comm.send_json_to({"type": "cancel"})
    await comm.send_json_to({"type": "ping", "t": 5})
    assert (await _next(comm, "pong"))["t"] == 5
    assert not await sync_to_async(Seek.objects.exists)()
    await comm.disconnect()


async def test_errors_are_translated_vietnamese_first():
    _users, cookies = await _guests(1)
    comm = await _connect(cookies[0], lang="vi")
    await comm.send_json_to({"type": "seek", "mode": "ranked", "choice": "caro"})
    error = await _next(comm, "error")
    assert "tài khoản" in error["message"]
    await comm.disconnect()


async def test_cancel_tells_every_tab_and_a_closed_socket_is_not_paired():
    users, cookies = await _guests(2)
    tab1, tab2 = await _connect(cookies[0]), await _connect(cookies[0])
    await tab1.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    await _next(tab1, "status")
    await tab2.send_json_to({"type": "cancel"})
    await _next(tab1, "cancelled")
    await _next(tab2, "cancelled")
    assert not await sync_to_async(Seek.objects.exists)()
    await tab1.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    await _next(tab1, "status")
    await tab1.disconnect()
    await tab2.disconnect()
    seek = await sync_to_async(Seek.objects.get)(user=users[0])
    assert seek.sockets == 0
    other = await _connect(cookies[1])
    await other.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    assert (await _next(other, "status"))["status"] == "waiting"
    assert await sync_to_async(Game.objects.count)() == 0
    await other.disconnect()


async def test_a_visitor_without_a_session_is_closed_with_4401():
    comm = await _connect(None)
    error = await comm.receive_json_from(5)
    assert error["code"] == "not_signed_in"
    closed = await comm.receive_output(5)
    assert closed["type"] == "websocket.close" and closed["code"] == 4401


@sync_to_async
def _paired_game_and_no_show(cookies_users):
    from ranking import pairing

    a, b = cookies_users
    pairing.join(a, "quick", "caro-15-blocked")
    pairing.join(b, "quick", "caro-15-blocked")
    return pairing.run_pass("quick", "caro-15-blocked")[0]


async def test_the_player_who_came_is_sent_back_to_the_queue_when_the_other_never_does():
    from datetime import timedelta

    from ranking import pairing

    users, cookies = await _guests(2)
    made = await _paired_game_and_no_show(users)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookies[0])]
    room = WebsocketCommunicator(application, f"/ws/room/{made.room_code}/", headers=headers)
    assert (await room.connect())[0]
    state = await _next(room, "state")
    assert state["status"] == "active" and state["you"] in ("X", "O")
    seek_socket = await _connect(cookies[0])
    assert seek_socket.hello["status"] == "paired"
    aborted = await sync_to_async(pairing.check_arrival)(made.pk, made.arrive_by + timedelta(seconds=1))
    assert aborted
    over = await _next(room, "game_over")
    assert over["termination"] == "abort"
    requeued = await _next(room, "requeued")
    assert requeued["sides"] == [state["you"]] and "go=1" in requeued["url"]
    assert "go=1" in (await _next(seek_socket, "requeued"))["url"]
    # the page comes back and joins the same choice: it keeps its front place
    await seek_socket.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-15-blocked"})
    status = await _next(seek_socket, "status")
    assert status["status"] == "waiting" and status["front"] is True
    await room.disconnect()
    await seek_socket.disconnect()


async def test_the_waiting_counts_reach_every_seek_socket_from_the_cache_when_they_change():
    from django.core.cache import cache

    from ranking.consumers import COUNTS_PERIOD_S
    from ranking.tasks import COUNTS_KEY

    _users, cookies = await _guests(2)
    first, second = await _connect(cookies[0]), await _connect(cookies[1])
    counts = {"quick": {"reversi": 7}, "ranked": {"caro": 3}}
    await sync_to_async(cache.set)(COUNTS_KEY, counts, 60)  # what the beat writes every second
    for comm in (first, second):
        while (await _next(comm, "waiting", timeout=COUNTS_PERIOD_S * 6))["counts"] != counts:
            pass
    await first.disconnect()
    await second.disconnect()


async def test_a_game_made_on_arrival_is_announced_once_per_socket():
    users, cookies = await _guests(2)
    a, b = await _connect(cookies[0]), await _connect(cookies[1])
    await a.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    assert (await _next(a, "status"))["status"] == "waiting"
    await b.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    heard = [await _next(a, "paired"), await _next(b, "paired")]
    assert heard[0]["game_id"] == heard[1]["game_id"]
    for comm in (a, b):  # the direct copy and the seek group's copy: the socket sends one
        later = []
        while not await comm.receive_nothing(timeout=2):
            later.append((await comm.receive_json_from())["type"])
        assert "paired" not in later
    await a.disconnect()
    await b.disconnect()


async def test_a_cancel_with_no_seek_is_answered_and_changes_nothing():
    _users, cookies = await _guests(1)
    comm = await _connect(cookies[0], lang="vi")
    await comm.send_json_to({"type": "cancel"})
    error = await _next(comm, "error")
    assert error["code"] == "not_seeking" and "hủy" in error["message"]
    assert await sync_to_async(Seek.objects.count)() == 0
    await comm.disconnect()


async def test_a_tab_whose_seek_another_tab_replaced_is_told():
    _users, cookies = await _guests(1)
    old, new, same = await _connect(cookies[0]), await _connect(cookies[0]), await _connect(cookies[0])
    await old.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-15-blocked"})
    assert (await _next(old, "status"))["status"] == "waiting"
    await same.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-15-blocked"})  # shares it
    assert (await _next(same, "status"))["status"] == "waiting"
    await new.send_json_to({"type": "seek", "mode": "quick", "choice": "reversi"})
    assert (await _next(new, "status"))["choice"] == "reversi"
    for tab in (old, same):
        replaced = await _next(tab, "replaced")
        assert replaced["mode"] == "quick" and replaced["choice"] == "reversi"
        with translation.override("en"):  # the sockets' language here
            assert replaced["line"] == str(choices.parse_quick("reversi").describe())  # the page shows it
        assert "another tab" in replaced["message"]
    seek = await sync_to_async(Seek.objects.get)()
    assert (seek.choice, seek.status) == ("reversi", "waiting")
    await new.send_json_to({"type": "cancel"})
    for tab in (old, new, same):
        await _next(tab, "cancelled")
    for tab in (old, new, same):
        await tab.disconnect()


async def test_a_burst_of_seeks_is_paired_in_batches_and_every_game_reaches_both_sockets():
    from ranking.seeks import Pairing

    users, cookies = await _guests(16)
    comms = [await _connect(cookie) for cookie in cookies]
    for comm in comms:  # all at once: the process's frames leave in batches (ranking.arrivals)
        await comm.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    heard = {}
    for user, comm in zip(users, comms):  # each socket's answer: `paired`, or `status` waiting
        frame = {"type": "waiting"}
        while frame["type"] not in ("paired", "status"):
            frame = await comm.receive_json_from(30)
        heard[user.pk] = [frame]
    made = await sync_to_async(lambda: list(Pairing.objects.values_list("game_id", "host_id", "guest_id")))()
    by_user = {user.pk: comm for user, comm in zip(users, comms)}
    for game_id, host, guest in made:
        for user_id in (host, guest):
            if not any(f["type"] == "paired" and f["game_id"] == game_id for f in heard[user_id]):
                assert (await _next(by_user[user_id], "paired", timeout=30))["game_id"] == game_id
    seated = [uid for _g, host, guest in made for uid in (host, guest)]
    assert len(seated) == len(set(seated)) and len(made) >= 6  # a race may leave a pair to the beat's pass
    for comm in comms:
        await comm.disconnect()


async def test_the_socket_speaks_the_language_of_the_page_it_was_opened_from():
    # The page adds its own language to the socket's address; a browser may send another
    # Accept-Language with the handshake (Chromium with an emulated locale sends en-US).
    _users, cookies = await _guests(1)
    for query, accept, words in (("?lang=vi", b"en-US,en;q=0.9", "hủy"), ("?lang=en", b"vi-VN", "cancel"),
                                 ("?lang=xx", b"vi-VN", "hủy"), ("", b"vi-VN", "hủy")):
        comm = WebsocketCommunicator(application, "/ws/seek/" + query, headers=[
            (b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookies[0]),
            (b"accept-language", accept)])
        connected, _ = await comm.connect()
        assert connected
        await _next(comm, "status")
        await comm.send_json_to({"type": "cancel"})
        error = await _next(comm, "error")
        assert error["code"] == "not_seeking" and words in error["message"], (query, error["message"])
        await comm.disconnect()


async def test_an_older_seeks_cancel_heard_after_a_new_seek_leaves_the_new_one_alone():
    # The `cancelled` of a seek can reach a tab after that tab's next seek (from another web process,
    # through Redis): it must not hide the new seek, nor stop the socket counting for it.
    from channels.layers import get_channel_layer

    from ranking.pairing import seek_group

    users, cookies = await _guests(1)
    comm = await _connect(cookies[0])
    await comm.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    await _next(comm, "status")
    old = await sync_to_async(lambda: Seek.objects.get().pk)()
    await comm.send_json_to({"type": "cancel"})
    assert (await _next(comm, "cancelled"))["seek"] == old
    await comm.send_json_to({"type": "seek", "mode": "quick", "choice": "caro-13"})
    assert (await _next(comm, "status"))["status"] == "waiting"
    new = await sync_to_async(lambda: Seek.objects.get().pk)()
    assert new != old
    late = {"type": "game.event", "event": {"type": "cancelled", "seek": old}}
    await get_channel_layer().group_send(seek_group(users[0].pk), late)
    frames = []
    while not await comm.receive_nothing(timeout=1):
        frames.append((await comm.receive_json_from())["type"])
    assert "cancelled" not in frames
    assert await sync_to_async(lambda: Seek.objects.get().sockets)() == 1  # still counted: pairable while open
    await comm.disconnect()
    await _wait_until(lambda: Seek.objects.get().sockets == 0)  # closed: no longer counted


async def _wait_until(condition, timeout=15.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not await sync_to_async(condition)():
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.1)
