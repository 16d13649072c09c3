"""The lifecycle through the room websocket (Channels' communicator, real Redis layer and
PostgreSQL) and, for deadlines, a real Celery worker."""

import asyncio
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.guests import create_guest
from caro.asgi import application
from caro.games import outbox, state
from caro.games.models import Game
from caro.rooms import consumers
from caro.rooms import services as rooms
from tests.integration.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _room(**options):
    host, guest, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(host, **options)
    rooms.join(room, guest)
    game = Game.objects.get(pk=room.current_game_id)
    x, o = (host, guest) if game.x_player == host else (guest, host)
    return room, {"X": session_cookie(x), "O": session_cookie(o), "watcher": session_cookie(watcher)}


async def _connect(room, cookie: bytes, expect_state: bool = True):
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
               (b"cookie", cookie + b"; django_language=en")]
    comm = WebsocketCommunicator(application, f"/ws/room/{room.code}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    if expect_state:
        frame = await _receive(comm, "state")
        return comm, frame
    return comm, None


async def _receive(comm, type_: str, timeout: float = 10):
    """The next frame of `type_` (frames of other types, such as crowd counts, are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = await comm.receive_json_from(timeout=max(0.1, deadline - time.monotonic()))
        if frame["type"] == type_:
            return frame


@sync_to_async
def _game(room):
    return Game.objects.get(pk=Game.objects.get(pk=rooms.Room.objects.get(pk=room.pk).current_game_id).pk)


async def _play(comm, square, ply):
    await comm.send_json_to({"type": "move", "square": square, "ply": ply, "id": str(uuid.uuid4())})


@pytest.mark.asyncio
async def test_a_draw_offer_reaches_both_with_each_ones_own_choices_and_accepting_ends_the_game():
    room, cookies = await _room()
    x, sx = await _connect(room, cookies["X"])
    o, so = await _connect(room, cookies["O"])
    w, sw = await _connect(room, cookies["watcher"])
    try:
        assert "offer_draw" in sx["choices"] and sw["choices"] == []
        await _play(x, "H8", 1)
        await _receive(o, "move")
        await _play(o, "H9", 2)  # both have moved: a draw is no longer an abort
        await _receive(x, "move")
        await _receive(x, "move")
        await o.send_json_to({"type": "offer_draw"})
        offers = [await _receive(c, "draw_offer") for c in (x, o, w)]
        assert all(f["by"] == "O" for f in offers)
        assert "accept_draw" in offers[0]["choices"] and "accept_draw" not in offers[1]["choices"]
        assert offers[2]["choices"] == []
        await w.send_json_to({"type": "accept_draw"})  # a spectator cannot act for a seat
        error = await _receive(w, "error")
        assert error["code"] == "not_a_player"
        await x.send_json_to({"type": "accept_draw"})
        over = await _receive(o, "game_over")
        assert (over["termination"], over["winner"]) == ("agreement", None)
    finally:
        for comm in (x, o, w):
            await comm.disconnect()


@pytest.mark.asyncio
async def test_a_closed_page_starts_the_countdown_for_the_others_and_coming_back_restores_everything():
    room, cookies = await _room()
    x, _ = await _connect(room, cookies["X"])
    o, _ = await _connect(room, cookies["O"])
    w, _ = await _connect(room, cookies["watcher"])
    try:
        for ply, (comm, square) in enumerate([(x, "H8"), (o, "H9"), (x, "I8")], start=1):
            await _play(comm, square, ply)
            await _receive(w, "move")
        await o.disconnect()
        for comm in (x, w):
            away = await _receive(comm, "presence")
            assert (away["side"], away["present"]) == ("O", False)
            left = away["absence"]["deadline_ms"] / 1000 - time.time()
            assert state.ABSENCE_GRACE_S - 10 < left <= state.ABSENCE_GRACE_S + 1
        o, back_state = await _connect(room, cookies["O"])
        assert back_state["absence"] is None and back_state["presence"] == {"X": True, "O": True}
        assert back_state["ply"] == 3 and back_state["turn"] == "O" and back_state["remaining_ms"] > 0
        back = await _receive(x, "presence")
        assert (back["side"], back["present"]) == ("O", True)
    finally:
        for comm in (x, o, w):
            await comm.disconnect()


@pytest.mark.asyncio
async def test_the_spectator_over_the_limit_gets_a_message_and_no_socket(monkeypatch):
    monkeypatch.setattr(consumers, "MAX_SPECTATORS", 1)
    room, cookies = await _room()
    w1, _ = await _connect(room, cookies["watcher"])
    extra = await sync_to_async(lambda: session_cookie(create_guest()))()
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", extra + b"; django_language=vi")]
    w2 = WebsocketCommunicator(application, f"/ws/room/{room.code}/", headers=headers)
    try:
        connected, _ = await w2.connect()
        assert connected
        error = await w2.receive_json_from(timeout=10)
        assert error["type"] == "error" and error["code"] == "crowd_full" and "50" in error["message"]
        closed = await w2.receive_output(timeout=10)
        assert closed["type"] == "websocket.close" and closed["code"] == consumers.CLOSE_CROWD_FULL
        x, _ = await _connect(room, cookies["X"])  # players are never refused
        await x.disconnect()
    finally:
        await w1.disconnect()
        await w2.disconnect()


def _wait_for(predicate, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return predicate()


def test_a_real_worker_ends_a_total_time_game_when_a_bank_runs_out(celery_worker_process):
    host, guest = create_guest(), create_guest()
    from caro.games import services
    game = services.create_game(host=host, guest=guest, move_time_ms=0, bank_ms=2_000, increment_ms=0)
    services.play_move(game.pk, host, "H8", 1, uuid.uuid4())
    services.play_move(game.pk, guest, "H9", 2, uuid.uuid4())
    services.play_move(game.pk, host, "I8", 3, uuid.uuid4())  # O's bank: under 2 s left

    def ended():
        game.refresh_from_db()
        return game.status != Game.Status.ACTIVE

    assert _wait_for(ended)
    assert (game.status, game.winner, game.termination) == ("finished", "X", "timeout")


def test_a_real_worker_applies_the_absence_rule_when_the_grace_runs_out(celery_worker_process, monkeypatch):
    from caro.games import services
    from caro.games.services import presence

    monkeypatch.setattr(state, "ABSENCE_GRACE_S", 1.5)  # the deadline is stored; the worker enforces it
    host, guest = create_guest(), create_guest()
    game = services.create_game(host=host, guest=guest, absence_rule="forfeit")
    for ply, (user, square) in enumerate([(host, "H8"), (guest, "H9"), (host, "I8")], start=1):
        services.play_move(game.pk, user, square, ply, uuid.uuid4())
    presence.connect(game.pk, "live-x", host)
    presence.connect(game.pk, "live-o", guest)
    presence.disconnect("live-o")
    started = time.monotonic()

    def ended():
        game.refresh_from_db()
        return game.status != Game.Status.ACTIVE

    assert _wait_for(ended)
    assert (game.status, game.winner, game.termination) == ("finished", "X", "absence")
    assert time.monotonic() - started >= 1.4


@pytest.mark.asyncio
async def test_the_spectator_count_reaches_the_players_at_most_once_a_second(celery_worker_process):
    room, cookies = await _room()
    x, _ = await _connect(room, cookies["X"])
    watchers = []
    try:
        started = time.monotonic()
        for _ in range(3):  # three spectators, as fast as this machine connects them
            extra = await sync_to_async(lambda: session_cookie(create_guest()))()
            watchers.append((await _connect(room, extra))[0])
        span_ms = (time.monotonic() - started) * 1000
        counts = []
        while not counts or counts[-1] != 3:
            frame = await x.receive_json_from(timeout=30)
            if frame["type"] == "crowd":
                counts.append(frame["count"])
        await asyncio.sleep(2.5)  # a trailing update would have come by now
        while not await x.receive_nothing(timeout=0.2):  # (a timed-out receive would end the consumer)
            frame = await x.receive_json_from(timeout=5)
            if frame["type"] == "crowd":
                counts.append(frame["count"])
        # At most one update per CROWD_UPDATE_MS while the spectators arrived, plus the trailing one:
        # three connects within one period give one or two updates; a busy machine that spreads
        # them over several periods may give one more per period, never one per connect in a burst.
        allowed = 2 + int(span_ms // outbox.CROWD_UPDATE_MS)
        assert counts[-1] == 3 and len(counts) <= allowed, (counts, span_ms)
    finally:
        for comm in (x, *watchers):
            await comm.disconnect()
