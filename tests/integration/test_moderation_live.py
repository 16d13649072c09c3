"""Moderation actions and their effect on live sockets (WebsocketCommunicator, real Redis layer and
PostgreSQL): a ban closes the player's sockets with the reason; stopping a game ends it for both;
closing a room disconnects spectators; a hidden chat line disappears; chat's bad input is refused."""

import json
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import User
from caro.asgi import application
from caro.games import uploads
from caro.games.models import Game
from caro.games.services.records import store_played
from caro.rooms import services as rooms
from caro.rooms.chat import CHAT_BURST
from caro.rooms.models import ChatMessage, Room
from moderation import services
from moderation.models import AuditEntry
from tests.integration.records.device import CARO_FIVE, record
from tests.integration.helpers import session_cookie
from tests.integration.moderation_helpers import moderator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 10


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


class Socket(WebsocketCommunicator):
    """Reads the frames that follow the test's own actions (skips `crowd` counts and chat history)."""

    async def frame(self, timeout=TIMEOUT):
        while True:
            output = await self.receive_output(timeout)
            if output["type"] == "websocket.close":
                return {"type": "_closed", "code": output.get("code")}
            frame = json.loads(output["text"])
            if frame.get("type") not in ("crowd", "chat_history"):
                return frame

    async def until(self, kind, timeout=TIMEOUT):
        while True:
            frame = await self.frame(timeout)
            if frame["type"] == kind:
                return frame
            assert frame["type"] != "_closed", frame


@sync_to_async
def _room():
    x, o, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    mod = moderator(f"mod{uuid.uuid4().hex[:6]}")
    return room, {"x": x, "o": o, "watcher": watcher, "mod": mod}


async def _connect(room, user, lang="en"):
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
               (b"cookie", cookie + b"; django_language=" + lang.encode())]
    sock = Socket(application, f"/ws/room/{room.code}/", headers=headers)
    connected, _ = await sock.connect()
    assert connected
    return sock


async def _connected(room, user, lang="en"):
    sock = await _connect(room, user, lang)
    state = await sock.until("state")
    return sock, state


async def test_a_banned_player_s_socket_is_closed_with_the_reason_and_the_end():
    room, people = await _room()
    x, _ = await _connected(room, people["x"], lang="en")
    o, _ = await _connected(room, people["o"])
    until = timezone.now() + timedelta(days=3)
    await sync_to_async(services.ban)(people["mod"], people["x"], reason="Insults in chat", until=until)
    banned = await x.until("banned")
    assert "Insults in chat" in banned["message"] and "banned until" in banned["message"]
    assert banned["until_ms"] == int(until.timestamp() * 1000)
    assert (await x.frame())["type"] == "_closed"
    # The opponent's socket stays open.
    await o.send_json_to({"type": "ping"})
    assert (await o.until("pong"))["type"] == "pong"
    # Coming back is refused the same way (and in Vietnamese for a Vietnamese page).
    again = await _connect(room, people["x"], lang="vi")
    frame = await again.until("banned")
    assert "Insults in chat" in frame["message"] and frame["message"] != banned["message"]
    assert (await again.frame()) == {"type": "_closed", "code": 4403}
    await o.disconnect()


async def test_a_banned_player_cannot_move_take_a_seat_create_a_room_or_chat():
    room, people = await _room()

    @sync_to_async
    def act():
        from caro.games import services as games
        from caro.games.errors import GameError
        from caro.rooms.chat import ChatError, say

        services.ban(people["mod"], people["x"], reason="cheating", forever=True)
        x = User.objects.get(pk=people["x"].pk)
        refused = []
        for call in (lambda: games.play_move(room.current_game_id, x, "H8", 1, uuid.uuid4()),
                     lambda: rooms.create_room(x),
                     lambda: store_played(uploads.read(record(CARO_FIVE), timezone.now()), x),
                     lambda: games.take_seat(games.create_game(host=create_guest()).pk, x)):
            with pytest.raises(GameError) as exc:
                call()
            refused.append(exc.value.code)
        with pytest.raises(ChatError) as exc:
            say(room.code, x, "hello")
        refused.append(exc.value.code)
        game = Game.objects.get(pk=room.current_game_id)
        return refused, game.ply, Room.objects.filter(created_by=x).count(), ChatMessage.objects.count()

    refused, ply, rooms_made, lines = await act()
    assert refused == ["banned"] * 5
    assert (ply, rooms_made, lines) == (0, 1, 0)


async def test_stopping_a_live_game_ends_it_for_both_sockets():
    room, people = await _room()
    x, _ = await _connected(room, people["x"])
    o, _ = await _connected(room, people["o"])
    game = await sync_to_async(Game.objects.get)(pk=room.current_game_id)
    await sync_to_async(services.abort)(people["mod"], game, reason="stuck")
    for sock in (x, o):
        over = await sock.until("game_over")
        assert (over["status"], over["termination"], over["winner"]) == ("aborted", "moderator", None)
    game = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert game.status == Game.Status.ABORTED
    assert await sync_to_async(AuditEntry.objects.filter(action="abort", game=game).count)() == 1
    await x.disconnect()
    await o.disconnect()


async def test_closing_a_room_tells_and_disconnects_players_and_spectators():
    room, people = await _room()
    socks = [(await _connected(room, people[name], lang="en"))[0] for name in ("x", "o", "watcher")]
    await sync_to_async(services.close_room)(people["mod"], room, reason="spam")
    for sock in socks:
        closed = await sock.until("room_closed")
        assert "closed this room" in closed["message"]
        while (frame := await sock.frame())["type"] != "_closed":
            pass
        assert frame["code"] == 4410
    # Nobody gets in again, and nothing more can be played there.
    late = await _connect(room, people["watcher"])
    await late.until("room_closed")
    game = await sync_to_async(Game.objects.get)(pk=room.current_game_id)
    assert (game.status, game.termination) == ("aborted", "moderator")


async def test_a_hidden_chat_line_disappears_for_a_spectator():
    room, people = await _room()
    x, _ = await _connected(room, people["x"])
    w, _ = await _connected(room, people["watcher"])
    await x.send_json_to({"type": "chat", "text": "<b>rude</b> http://spam.example"})
    line = await w.until("chat")
    assert line["channel"] == "players" and line["text"] == "<b>rude</b> http://spam.example"
    message = await sync_to_async(ChatMessage.objects.get)(pk=line["id"])
    await sync_to_async(services.hide_message)(people["mod"], message)
    assert (await w.until("chat_hidden"))["id"] == line["id"]
    assert (await x.until("chat_hidden"))["id"] == line["id"]
    # A new spectator's history no longer has it.
    late = await _connect(room, await sync_to_async(create_guest)())
    await late.send_json_to({"type": "chat_history"})
    while True:
        output = json.loads((await late.receive_output(TIMEOUT))["text"])
        if output["type"] == "chat_history":
            break
    assert output["lines"] == []
    for sock in (x, w, late):
        await sock.disconnect()


async def test_chat_channels_follow_the_seat_not_the_frame():
    room, people = await _room()
    x, _ = await _connected(room, people["x"])
    w, _ = await _connected(room, people["watcher"])
    await w.send_json_to({"type": "chat", "text": "go X!", "channel": "players"})
    seen_by_player = await x.until("chat")
    assert seen_by_player["channel"] == "spectators"
    assert (await w.until("chat"))["text"] == "go X!"  # the spectator's own line comes back too
    await x.send_json_to({"type": "chat", "text": "good luck"})
    line = await w.until("chat")
    assert (line["text"], line["channel"]) == ("good luck", "players")
    await x.disconnect()
    await w.disconnect()


@pytest.mark.parametrize("text, code", [
    ("", "chat_empty"), ("   \n\t ", "chat_empty"), (None, "chat_empty"), (["x"], "chat_empty"),
    ("x" * 201, "chat_too_long"),
])
async def test_bad_chat_lines_are_refused_and_nothing_is_stored(text, code):
    room, people = await _room()
    x, _ = await _connected(room, people["x"])
    await x.send_json_to({"type": "chat", "text": text})
    error = await x.until("error")
    assert error["code"] == code and error["message"]
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await x.disconnect()


async def test_an_oversized_chat_frame_is_refused():
    room, people = await _room()
    x, _ = await _connected(room, people["x"])
    await x.send_to(text_data=json.dumps({"type": "chat", "text": "x" * 3000}))
    assert (await x.until("error"))["code"] == "too_large"
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await x.disconnect()


async def test_chat_flooding_is_refused_after_the_burst():
    room, people = await _room()
    x, _ = await _connected(room, people["x"])
    for i in range(CHAT_BURST + 2):
        await x.send_json_to({"type": "chat", "text": f"line {i}"})
    codes = []
    for _ in range(CHAT_BURST + 2):
        frame = await x.frame()
        codes.append(frame["code"] if frame["type"] == "error" else frame["type"])
    assert codes.count("chat") == CHAT_BURST and codes.count("chat_flood") == 2
    assert await sync_to_async(ChatMessage.objects.count)() == CHAT_BURST
    await x.disconnect()


async def test_a_muted_player_s_chat_is_refused_with_the_end():
    room, people = await _room()
    x, _ = await _connected(room, people["x"])
    until = timezone.now() + timedelta(hours=1)
    await sync_to_async(services.mute)(people["mod"], people["x"], until=until, reason="shouting")
    await x.send_json_to({"type": "chat", "text": "hello"})
    error = await x.until("error")
    assert error["code"] == "muted" and "shouting" in error["message"] and "cannot chat until" in error["message"]
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await x.disconnect()
