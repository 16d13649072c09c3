"""The live socket `/ws/live/` through Channels' communicator, the real Redis layer and PostgreSQL:
the lobby's list pushed when a room is listed, its host arrives and its seat is taken; the featured
game's board and its moves as they are played."""

from __future__ import annotations

import json
import uuid

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.guests import create_guest
from caro.asgi import application
from caro.games import services as games
from caro.games.services import presence
from caro.rooms import services as rooms
from tests.integration.lobby.builders import live_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def _next(comm, type_, timeout=10):
    while True:
        frame = await comm.receive_json_from(timeout)
        if frame.get("type") == type_:
            return frame


async def test_the_lobby_list_comes_at_once_and_again_when_a_room_is_listed_and_taken(close_db_connections):
    comm = WebsocketCommunicator(application, "/ws/live/?lobby=all&lang=vi", headers=HEADERS)
    assert (await comm.connect())[0]
    first = await _next(comm, "lobby")
    assert 'data-testid="no-open-rooms"' in first["html"]
    host = await sync_to_async(create_guest)()
    room = await sync_to_async(rooms.create_room)(host, listed=True)
    await sync_to_async(presence.connect)(room.current_game_id, "test.host", host)  # the host's page opens
    listed = await _next(comm, "lobby")
    while room.code not in listed["html"]:
        listed = await _next(comm, "lobby")
    assert "Vào chỗ trống" in listed["html"]
    await sync_to_async(rooms.join)(room, await sync_to_async(create_guest)())
    taken = await _next(comm, "lobby")
    while room.code in taken["html"]:
        taken = await _next(comm, "lobby")
    await comm.disconnect()


async def test_a_host_who_leaves_takes_the_room_off_the_list_at_once(close_db_connections):
    host = await sync_to_async(create_guest)()
    room = await sync_to_async(rooms.create_room)(host, listed=True)
    await sync_to_async(presence.connect)(room.current_game_id, "test.host2", host)
    comm = WebsocketCommunicator(application, "/ws/live/?lobby=caro&lang=en", headers=HEADERS)
    assert (await comm.connect())[0]
    assert room.code in (await _next(comm, "lobby"))["html"]
    await sync_to_async(presence.disconnect)("test.host2")
    gone = await _next(comm, "lobby")
    assert room.code not in gone["html"] and "No room is waiting" in gone["html"]
    await comm.disconnect()


async def test_the_featured_game_comes_with_its_board_then_its_moves(close_db_connections):
    room = await sync_to_async(live_room)()
    game = await sync_to_async(lambda: type(room.current_game).objects.select_related("host", "guest")
                               .get(pk=room.current_game_id))()
    comm = WebsocketCommunicator(application, "/ws/live/?featured=1&lang=vi", headers=HEADERS)
    assert (await comm.connect())[0]
    featured = (await _next(comm, "featured"))["game"]
    assert featured["game_id"] == room.current_game_id and featured["stones"] == {}
    await sync_to_async(games.play_move)(game.pk, game.host, "H8", 1, uuid.uuid4())
    move = await _next(comm, "move")
    assert (move["square"], move["side"], move["ply"]) == ("H8", "X", 1)
    await sync_to_async(games.play_move)(game.pk, game.guest, "H9", 2, uuid.uuid4())
    assert (await _next(comm, "move"))["square"] == "H9"
    await sync_to_async(games.resign)(game.pk, game.host)
    assert (await _next(comm, "over"))["winner"] == "O"
    await comm.disconnect()


@pytest.mark.parametrize("language, words", [("en", "blocked two ends"), ("vi", "chặn hai đầu")])
async def test_the_featured_game_s_rules_line_is_in_the_page_s_language(close_db_connections, language, words):
    await sync_to_async(live_room)()
    comm = WebsocketCommunicator(application, f"/ws/live/?featured=1&lang={language}", headers=HEADERS)
    assert (await comm.connect())[0]
    featured = (await _next(comm, "featured"))["game"]
    assert words in featured["rules"], featured["rules"]
    await comm.disconnect()


async def test_without_a_live_game_the_featured_frame_is_empty_then_the_first_game_appears(close_db_connections):
    comm = WebsocketCommunicator(application, "/ws/live/?featured=1", headers=HEADERS)
    assert (await comm.connect())[0]
    assert (await _next(comm, "featured"))["game"] is None
    room = await sync_to_async(live_room)()
    found = await _next(comm, "featured", timeout=15)
    assert found["game"]["game_id"] == room.current_game_id
    await comm.disconnect()


async def test_when_the_featured_game_ends_the_next_highest_rated_game_replaces_it(close_db_connections):
    from lobby.consumers import FEATURED_NEXT_S
    from ranking.models import Rating
    from tests.integration.ranking.builders import account

    def rated(value):
        user = account()
        Rating.objects.create(user=user, category="caro", value=value, games=20, listed=True, established=True)
        return user

    def rooms_now():
        best = live_room(rated(1900), rated(1900))
        next_best = live_room(rated(1500), rated(1500))
        live_room()  # two new guests: below both
        game = type(best.current_game).objects.select_related("host", "guest").get(pk=best.current_game_id)
        return best, next_best, game

    best, next_best, game = await sync_to_async(rooms_now)()
    comm = WebsocketCommunicator(application, "/ws/live/?featured=1&lang=en", headers=HEADERS)
    assert (await comm.connect())[0]
    assert (await _next(comm, "featured"))["game"]["game_id"] == best.current_game_id
    await sync_to_async(games.play_move)(game.pk, game.host, "H8", 1, uuid.uuid4())
    await sync_to_async(games.play_move)(game.pk, game.guest, "H9", 2, uuid.uuid4())
    await sync_to_async(games.resign)(game.pk, game.host)
    assert (await _next(comm, "over"))["game_id"] == best.current_game_id
    following = await _next(comm, "featured", timeout=FEATURED_NEXT_S + 20)  # sent FEATURED_NEXT_S after the end
    assert following["game"] is not None and following["game"]["game_id"] == next_best.current_game_id
    assert following["game"]["players"]["X"]["rating"] == "1500"
    await comm.disconnect()


async def test_a_ping_flood_is_answered_only_up_to_the_socket_s_rate(close_db_connections):
    """An attacker sent 3,000 pings in 4 s and got 3,000 pongs (one Redis write each)."""
    from lobby.consumers import FRAME_BURST, FRAMES_PER_S

    comm = WebsocketCommunicator(application, "/ws/live/?lang=vi", headers=HEADERS)
    assert (await comm.connect())[0]
    started = asyncio.get_running_loop().time()
    for _ in range(200):
        await comm.send_json_to({"type": "ping"})
    pongs = 0
    while not await comm.receive_nothing(timeout=0.5):
        if (await comm.receive_json_from())["type"] == "pong":
            pongs += 1
    elapsed = asyncio.get_running_loop().time() - started
    assert 1 <= pongs <= FRAME_BURST + int(elapsed * FRAMES_PER_S) + 1, (pongs, elapsed)
    await comm.disconnect()


def _closed_after_accept(app, refused):
    """`app` behind Daphne's protocol as it is once the browser closed right after the socket
    opened: every frame after the accept raises autobahn's `Disconnected` ("Attempt to send on a
    closed protocol"), which Daphne logged as an ERROR when the consumer let it out."""
    from autobahn.exception import Disconnected

    async def wrapped(scope, receive, send):
        accepted = False

        async def closed_protocol(message):
            nonlocal accepted
            if accepted and message["type"] == "websocket.send":
                refused.append(message)
                raise Disconnected("Attempt to send on a closed protocol")
            accepted = accepted or message["type"] == "websocket.accept"
            await send(message)

        await app(scope, receive, closed_protocol)

    return wrapped


async def test_a_socket_closed_right_after_it_opened_gets_no_frame_and_the_consumer_ends_cleanly(close_db_connections):
    await sync_to_async(live_room)()  # a featured game to send
    refused = []
    comm = WebsocketCommunicator(_closed_after_accept(application, refused),
                                 "/ws/live/?lobby=all&featured=1&lang=vi", headers=HEADERS)
    assert (await comm.connect())[0]
    deadline = asyncio.get_running_loop().time() + 30
    while not refused and not comm.future.done() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)  # waiting for the first frame (the lobby's list) to be tried
    await comm.send_json_to({"type": "ping"})  # handled after connect(): the featured game was looked up
    assert await comm.receive_nothing(timeout=1)
    assert not comm.future.done(), comm.future.exception()  # the consumer did not die on the closed socket
    await comm.disconnect()  # re-raises what the application raised: nothing
    # The lobby's list was tried; nothing more (the featured game, the pong) once the socket was known gone.
    assert [json.loads(m["text"])["type"] for m in refused] == ["lobby"]


def _frame_of(size: int) -> str:
    """A ping frame of exactly `size` bytes."""
    head, tail = '{"type": "ping", "pad": "', '"}'
    return head + "x" * (size - len(head) - len(tail)) + tail


async def _close_code(comm) -> int | None:
    """The code of the socket's close, the frames before it skipped."""
    while True:
        output = await comm.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return output.get("code")


async def test_a_frame_over_the_size_rule_closes_the_live_socket_even_over_its_rate(close_db_connections):
    """Attacker run: 60 KB frames (18,148 in 10 s) were read and ignored one by one, and cost a
    web process 6.5 CPU-seconds. A frame over CLOSE_FRAME_BYTES closes the socket with
    CLOSE_TOO_BIG, as on the room socket, before the rate is looked at; one at the limit is ignored."""
    from caro.rooms.consumers import CLOSE_FRAME_BYTES, CLOSE_TOO_BIG
    from lobby.consumers import FRAME_BURST

    comm = WebsocketCommunicator(application, "/ws/live/?lang=vi", headers=HEADERS)
    assert (await comm.connect())[0]
    await comm.send_to(text_data=_frame_of(CLOSE_FRAME_BYTES))  # at the limit: ignored
    await comm.send_json_to({"type": "ping"})
    assert (await _next(comm, "pong"))["type"] == "pong"  # still open
    for _ in range(FRAME_BURST + 1):
        await comm.send_json_to({"type": "ping"})  # the bucket emptied
    await comm.send_to(text_data=_frame_of(60_000))
    assert await _close_code(comm) == CLOSE_TOO_BIG
    await comm.disconnect()

    binary = WebsocketCommunicator(application, "/ws/live/?lang=vi", headers=HEADERS)
    assert (await binary.connect())[0]
    await binary.send_to(bytes_data=b"x" * (CLOSE_FRAME_BYTES + 1))
    assert await _close_code(binary) == CLOSE_TOO_BIG
    await binary.disconnect()


# ------------------------------------------------------------------ pushed counts and watch list

async def _until(comm, type_, holds, timeout=30):
    """The first `type_` frame whose html `holds` (a predicate), read within `timeout` s (each
    process looks every PUSH_EVERY_S; a loaded machine may be slower: generous)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await _next(comm, type_, timeout=max(0.1, deadline - loop.time()))
        if holds(frame["html"]):
            return frame


async def test_the_counts_are_pushed_when_a_player_starts_waiting_and_when_a_game_ends(close_db_connections):
    """Who is here comes over the home page's socket within a second or so of a change: a quick
    seek (the waiting line, as the pairing beat writes the waiting counts every second) and a
    game that ends (the playing count), not at the next 5-s poll."""
    from django.core.cache import cache
    from django.utils import timezone

    from lobby import counts
    from ranking import choices, pairing
    from ranking.seeks import Seek
    from ranking.tasks import COUNTS_KEY as WAITING_KEY

    def fresh():
        cache.delete_many([counts.COUNTS_KEY, WAITING_KEY])
        room = live_room()
        counts.recount()
        return type(room.current_game).objects.select_related("host").get(pk=room.current_game_id)

    game = await sync_to_async(fresh)()
    comm = WebsocketCommunicator(application, "/ws/live/?featured=1&counts=1&lang=vi", headers=HEADERS)
    assert (await comm.connect())[0]
    first = await _next(comm, "counts")
    assert 'data-testid="playing-count" data-n="1"' in first["html"] and "waiting-now" not in first["html"]
    assert first["html"].lstrip().startswith('<div class="live-counts" id="live-counts"')

    def seeking():
        Seek.objects.create(user=create_guest(), mode=Seek.Mode.QUICK, choice=choices.DEFAULT_QUICK, sockets=1,
                            seen_at=timezone.now(), queued_at=timezone.now(), joined_at=timezone.now())
        cache.set(WAITING_KEY, pairing.waiting_counts(), 60)  # as the pairing beat writes it every second

    await sync_to_async(seeking)()
    waiting = await _until(comm, "counts", lambda html: f'data-key="{choices.DEFAULT_QUICK}"' in html)
    assert "1 người chờ" in waiting["html"]
    await sync_to_async(games.resign)(game.pk, game.host)
    await _until(comm, "counts", lambda html: 'data-testid="playing-count" data-n="0"' in html)
    await comm.disconnect()


async def test_the_watch_list_is_pushed_when_a_game_starts_and_when_it_ends(close_db_connections):
    """The watch page's list comes over its socket within a second or so of a game between people
    starting or ending (not at the next 10-s poll), of the kind the page shows, in its language."""
    comm = WebsocketCommunicator(application, "/ws/live/?watch=all&lang=en", headers=HEADERS)
    assert (await comm.connect())[0]
    reversi = WebsocketCommunicator(application, "/ws/live/?watch=reversi&lang=vi", headers=HEADERS)
    assert (await reversi.connect())[0]
    assert 'data-testid="no-live-games"' in (await _next(comm, "watch"))["html"]
    assert 'data-testid="no-live-games"' in (await _next(reversi, "watch"))["html"]
    from lobby import live

    # A start and an end each move the change counter the processes compare every PUSH_EVERY_S
    # (without it the list would come only at its WATCH_REFRESH_S refresh).
    before = await sync_to_async(live.watch_version)()
    room = await sync_to_async(live_room)()
    started = await sync_to_async(live.watch_version)()
    assert started > before
    game = await sync_to_async(lambda: type(room.current_game).objects.select_related("host")
                               .get(pk=room.current_game_id))()
    listed = await _until(comm, "watch", lambda html: f'data-game="{game.pk}"' in html)
    assert "0 moves" in listed["html"] and room.code in listed["html"]
    await sync_to_async(games.resign)(game.pk, game.host)
    assert await sync_to_async(live.watch_version)() > started
    await _until(comm, "watch", lambda html: f'data-game="{game.pk}"' not in html)
    assert await reversi.receive_nothing(timeout=2), "a caro game is no news to a page showing Reversi"
    reversi_room = await sync_to_async(live_room)(preset="reversi")
    shown = await _until(reversi, "watch", lambda html: f'data-game="{reversi_room.current_game_id}"' in html)
    assert "0 nước" in shown["html"]
    await comm.disconnect()
    await reversi.disconnect()


async def test_a_visitor_without_a_name_is_kept_online_by_the_live_socket_s_pings(close_db_connections):
    """A visitor who has not played yet (no user: only the visitor cookie) on the lobby page, which
    does not poll: the socket marks them online when it opens and at each ping, as it does a user,
    so they do not leave the count ONLINE_WINDOW_S after the page loaded. A forged cookie marks
    nobody."""
    from django.core import signing

    from accounts import visitors
    from lobby import counts

    r = counts._redis()
    await sync_to_async(r.delete)(counts.ONLINE_KEY)
    cookie = signing.dumps(["0123456789abcdef", "SócXanh1234"], salt=visitors.SALT)
    comm = WebsocketCommunicator(application, "/ws/live/?lobby=all&lang=vi",
                                 headers=HEADERS + [(b"cookie", f"{visitors.COOKIE}={cookie}".encode())])
    assert (await comm.connect())[0]
    await _next(comm, "lobby")
    first = await sync_to_async(r.zscore)(counts.ONLINE_KEY, "v0123456789abcdef")
    assert first is not None
    await sync_to_async(r.zadd)(counts.ONLINE_KEY, {"v0123456789abcdef": first - 100})  # seen long ago
    await comm.send_json_to({"type": "ping"})
    await _next(comm, "pong")
    assert await sync_to_async(r.zscore)(counts.ONLINE_KEY, "v0123456789abcdef") >= first
    await comm.disconnect()
    forged = WebsocketCommunicator(application, "/ws/live/?lobby=all&lang=vi",
                                   headers=HEADERS + [(b"cookie", f"{visitors.COOKIE}=forged:value".encode())])
    assert (await forged.connect())[0]
    await _next(forged, "lobby")
    assert await sync_to_async(r.zcard)(counts.ONLINE_KEY) == 1  # only the real visitor
    await forged.disconnect()
