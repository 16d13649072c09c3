"""The room websocket: players and spectators of one friend room (docs/protocol.md).

Thin by design: it checks each frame's size and shape, identifies the sender from the session
(never from the frame), calls the game service off the event loop and forwards committed events.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer, WebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone, translation
from django.utils.functional import empty

from accounts.restrictions import ban_message, ban_of, mute_message, mute_of, user_group

from caro.games import outbox
from caro.games import services as games
from caro.games.errors import GameError
from caro.games.models import Game
from caro.games.services import presence
from caro.games.snapshot import state_for
from caro.rooms import chat
from caro.rooms import services as rooms
from caro.rooms.limits import SocketSlot, client_address
from caro.rooms.models import Room

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 2048
#: Frames up to this size (bytes) over MAX_FRAME_BYTES are answered `too_large`; a bigger one closes
#: the socket with CLOSE_TOO_BIG. Daphne's own limit (--websocket-max-message-size 65536 in
#: compose.yaml and the Dockerfile; its default is 1 MiB) is higher: beyond it, Daphne drops the
#: connection without a close frame, before the message reaches this consumer.
CLOSE_FRAME_BYTES = 4 * MAX_FRAME_BYTES
#: Close code for a frame over CLOSE_FRAME_BYTES ("too large", as HTTP 413). Not RFC 6455's 1009:
#: Daphne's websocket library lets an application close only with 1000 or 3000-4999.
CLOSE_TOO_BIG = 4413
#: Close code for a socket over a per-address or per-session limit (after a `too_many_sockets` error).
CLOSE_TOO_MANY = 4429
#: Token bucket: at most BURST frames at once, refilled at RATE frames per second.
RATE, BURST = 10.0, 20.0
#: A socket that sent this many frames over its rate in its life (each refused `rate_limited`) is
#: closed with CLOSE_TOO_MANY: a page waits for answers and never comes near it, while a flood
#: would keep the process reading and refusing frames for as long as the sender likes.
MAX_REFUSALS = 300
#: Close code for a room that does not exist (the client stops reconnecting).
CLOSE_NO_ROOM = 4404
#: A spectator refused because the room is full gets the same close as a socket over a limit.
CLOSE_CROWD_FULL = CLOSE_TOO_MANY
#: At most this many spectators per room; the next one is refused with a message (issue rule).
MAX_SPECTATORS = 50
#: Close code for a banned user's socket, after the `banned` frame (the page stops reconnecting).
CLOSE_BANNED = 4403
#: Close code for a room a moderator closed, after the `room_closed` frame (no reconnecting).
CLOSE_ROOM_CLOSED = 4410
#: Events of the room's group that are about the room, not its game (chat, moderation).
ROOM_EVENTS = ("chat", "chat_hidden", "room_closed")
#: Seconds a socket holds a game event that arrived ahead of its version (events published by two
#: web processes at once may cross in Redis) for the one before it; then it sends the full `state`.
REORDER_WAIT_S = 0.5


def db(func):
    """Run a sync ORM function from the consumer in the thread pool, not the one shared thread.

    Channels' default (`thread_sensitive=True`) runs every socket's database work on ONE thread, so
    a few busy spectators could delay every game's moves; the service layer locks rows itself.
    """
    return database_sync_to_async(func, thread_sensitive=False)



def read_frame(text_data: str | None, bytes_data: bytes | None) -> tuple[dict | None, str | int | None]:
    """A client's text frame as a JSON object with a string `type`: `(frame, None)`; else
    `(None, refusal)`, the refusal being CLOSE_TOO_BIG (over CLOSE_FRAME_BYTES: close the socket) or
    an error code (`malformed`, `too_large` over MAX_FRAME_BYTES). Shared by every site socket."""
    if bytes_data is not None or text_data is None:
        return None, "malformed"
    size = len(text_data.encode("utf-8", "surrogatepass"))
    if size > CLOSE_FRAME_BYTES:
        return None, CLOSE_TOO_BIG
    if size > MAX_FRAME_BYTES:
        return None, "too_large"
    try:
        frame = json.loads(text_data)
    except (ValueError, RecursionError):  # RecursionError: "[[[[...]]]]" nested 1,000 deep
        return None, "malformed"
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return None, "malformed"
    return frame, None


async def refuse_over_rate(consumer, answer: bool = True) -> None:
    """A frame over `consumer`'s rate (its token bucket is empty): answered `rate_limited` (with
    `consumer.send_error`, when `answer`), or, the MAX_REFUSALS-th time in the socket's life, the
    socket is closed with CLOSE_TOO_MANY instead; frames over the rate after that get nothing.
    Shared by every site socket."""
    refused = getattr(consumer, "refused_frames", 0) + 1
    consumer.refused_frames = refused
    if refused == MAX_REFUSALS:
        log.info("socket %s closed: %d frames over its rate", consumer.scope.get("path"), refused)
        await consumer.close(code=CLOSE_TOO_MANY)
    elif refused < MAX_REFUSALS and answer:
        await consumer.send_error("rate_limited")


class RoomConsumer(AsyncWebsocketConsumer):
    """One websocket connection to `/ws/room/<code>/`."""

    async def __call__(self, scope, receive, send) -> None:
        """Channels' consumer loop on ONE queue: the socket's input queue (Daphne's, or a test
        communicator's), on which the channel layer puts this consumer's messages too
        (caro.layers, `adopt`), so each frame and each event is one `await receive()`.

        Channels' own loop (`await_many_dispatch`) waits on two tasks (the client's frames, the
        layer's channel) and makes a new task and an `asyncio.wait` for every message: about a
        tenth of the web process's CPU per move (issue 27, phase 7). Without such a queue or
        layer, Channels' loop runs."""
        queue = input_queue(receive)
        layer = get_channel_layer(self.channel_layer_alias)
        adopt = getattr(layer, "adopt", None) if queue is not None else None
        if adopt is None:
            return await super().__call__(scope, receive, send)
        self.scope, self.channel_layer, self.base_send = scope, layer, send
        self.channel_name = await layer.new_channel()
        await adopt(self.channel_name, queue)
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:
            await layer.release(self.channel_name)

    async def connect(self) -> None:
        # The services this socket calls hand their broadcasts to this loop instead of waiting
        # in a pool thread for it to send them (caro.games.outbox.use_server_loop).
        outbox.use_server_loop(asyncio.get_running_loop())
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        self.user = _resolved(self.scope.get("user"))
        self.lang = _language_of(self.scope)
        self.tokens, self.refilled = BURST, time.monotonic()
        self.game_group = None
        self.forgotten = False
        self.side = None  # "X"/"O" or None (spectator), refreshed by every `state` this socket gets
        self.version = None  # the game's last version this socket was sent (a `state` or an event)
        self.early: dict[int, dict] = {}  # events held until the versions before them are sent
        self.gap_timer: asyncio.Task | None = None
        self.slot = SocketSlot(self.channel_name, client_address(self.scope),
                               self.user.pk if getattr(self.user, "is_authenticated", False) else None,
                               self.code)
        if not await self.slot.acquire():
            self.group = None
            await self.accept()  # accept first, so the browser sees the message and the close code
            await self.send_error("too_many_sockets")
            await self.close(code=CLOSE_TOO_MANY)
            return
        try:
            await self._join()
        except BaseException:  # the consumer dies without `disconnect`: give the place back now
            await self.slot.release()
            raise
        # Daphne kills a consumer that is slow to shut down (frames still queued when its socket
        # closed) without calling `disconnect`: then clean up when its task ends, whatever ended it.
        task = asyncio.current_task()
        if task is not None:
            task.add_done_callback(lambda _task: None if self.forgotten else asyncio.ensure_future(self._forget()))

    async def _join(self) -> None:
        # Join the room's group before reading its current game, so a new game started in between
        # is announced to this socket rather than missed; likewise the game's group before its state.
        self.group = Room(code=self.code).group_name
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Every socket of a signed-in user (guests too) joins the user's group, so a ban closes them all.
        self.user_group = user_group(self.user.pk) if getattr(self.user, "is_authenticated", False) else None
        if self.user_group:
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        room = await db(_load_room)(self.code)
        if room is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            await self.accept()  # accept first, so the browser sees the close code, not a 403
            await self.close(code=CLOSE_NO_ROOM)
            return
        if room.closed_at is not None:
            await self.accept()
            return await self.close_room()
        if ban_of(self.user, timezone.now()) is not None:
            await self.accept()
            return await self.close_banned()
        try:
            await self.follow_game(room.current_game_id, max_spectators=MAX_SPECTATORS)
        except GameError as exc:
            await self.accept()
            await self.send_error(exc.code)
            await self.close(code=CLOSE_CROWD_FULL)
            return
        # After a Redis restart the layer tells this socket (`layer_reconnected`): events published
        # by other processes meanwhile never reached it.
        watch = getattr(self.channel_layer, "watch_reconnects", None)
        if watch is not None:
            await watch(self.channel_name)
        await self.accept()
        await self.send_state()

    async def dispatch(self, message: dict) -> None:
        """Channels' dispatch without its per-message `close_old_connections` call, and with the
        two messages of every move (a client frame, a game event) handed to their handlers at once.

        Channels 4.2+ runs that call through the ONE shared sync thread before every message (each
        frame and each group event), so a spectators' flood queued a player's frame behind hundreds
        of thread hops a second. Every ORM call here goes through `db()`, whose worker thread closes
        stale connections before and after itself, so the extra call does nothing for us. A frame
        goes straight to `receive` (what Channels' `websocket_receive` does, one call less) and a
        game event to `game_event`; any other message type by Channels' naming rule.
        """
        kind = message["type"]
        if kind == "websocket.receive":
            text = message.get("text")
            if text is not None:
                return await self.receive(text_data=text)
            return await self.receive(bytes_data=message.get("bytes"))
        if kind == "game.event":
            return await self.game_event(message)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        await self._forget()

    async def _forget(self) -> None:
        """Give back the socket's places and presence (idempotent: `disconnect` and a killed task)."""
        if getattr(self, "forgotten", True):  # already done, or connect never got that far
            return
        self.forgotten = True
        if getattr(self, "gap_timer", None) is not None:
            self.gap_timer.cancel()
        if getattr(self, "slot", None) is not None:
            await self.slot.release()
        for group in (getattr(self, "group", None), getattr(self, "game_group", None),
                      getattr(self, "user_group", None)):
            if group:
                await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "game_group", None):
            await presence.disconnect_on_loop(self.channel_name)

    async def follow_game(self, game_id: int, max_spectators: int | None = None) -> None:
        """Receive the events of game `game_id` (the room's current game) instead of the last one,
        and count this socket as present there. Raises GameError `crowd_full` (then nothing joined)."""
        old, new = self.game_group, Game(pk=game_id).group_name
        await self.channel_layer.group_add(new, self.channel_name)
        try:
            await db(presence.connect)(game_id, self.channel_name, self.user, max_spectators)
        except GameError:
            await self.channel_layer.group_discard(new, self.channel_name)
            raise
        self.game_id, self.game_group = game_id, new
        if old and old != new:
            await self.channel_layer.group_discard(old, self.channel_name)

    # ------------------------------------------------------------------ client frames

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._take_token():
            return await refuse_over_rate(self)
        frame, refusal = read_frame(text_data, bytes_data)
        if refusal == CLOSE_TOO_BIG:
            return await self.close(code=CLOSE_TOO_BIG)
        if refusal:
            return await self.send_error(refusal)
        name = FRAME_HANDLERS.get(frame["type"])
        if name is None:
            return await self.send_error("unknown_type")
        handler = getattr(self, name)
        try:
            await handler(frame)
        except GameError as exc:
            await self.send_error(exc.code, ref=_uuid_or_none(frame.get("id")), detail=exc.detail)
            if exc.code in ("stale", "timeout", "game_over"):
                await self.send_state()
        except Exception:
            log.exception("room %s: frame %r failed", self.code, frame.get("type"))
            await self.send_error("server_error")

    async def on_move(self, frame: dict) -> None:
        square, ply, move_id = frame.get("square"), frame.get("ply"), frame.get("id")
        if not (isinstance(square, str) and 1 <= len(square) <= 4):
            raise GameError("malformed")
        if not (isinstance(ply, int) and not isinstance(ply, bool) and 1 <= ply <= 1000):
            raise GameError("malformed")
        move_id = _uuid_or_none(move_id)
        if move_id is None:
            raise GameError("malformed")
        self._require_seat()
        # The common move runs on this loop (no thread); anything else in a pool thread.
        result = await games.play_move_on_loop(self.game_id, self.user, square, ply, move_id)
        if result is None:
            result = await db(games.play_move)(self.game_id, self.user, square, ply, move_id)
        if result.duplicate:  # answered, not applied again (the original was already broadcast)
            move = result.move
            await self.send_json({"type": "ack", "id": str(move.client_id), "ply": move.ply,
                                  "square": move.square, "side": move.side, "duplicate": True,
                                  "game_id": self.game_id})

    async def on_opening(self, frame: dict) -> None:
        """An opening step (RIF, Swap2): `action` plus `square`, `squares` or `color` as it needs."""
        action = opening_action(frame)
        if action is None:
            raise GameError("malformed")
        self._require_seat()
        await db(games.opening_step)(self.game_id, self.user, action)

    async def on_sync(self, frame: dict) -> None:
        await self.send_state()

    async def on_resign(self, frame: dict) -> None:
        self._require_seat()
        await db(games.resign)(self.game_id, self.user)

    async def on_play_again(self, frame: dict) -> None:
        game_id = frame.get("game_id")
        if game_id is not None and (not isinstance(game_id, int) or isinstance(game_id, bool)):
            raise GameError("malformed")
        game = await db(rooms.play_again)(self.code, self.user, game_id)
        if game_id is not None and game is not None and game.pk != game_id:
            await self.send_state()  # the room had moved on: the current game is the answer

    async def on_decline_rematch(self, frame: dict) -> None:
        """Decline the opponent's rematch offer; `game_id` (optional) is the game it is about: if
        the room has moved on since, there is no such offer any more."""
        game_id = frame.get("game_id")
        if game_id is not None and (not isinstance(game_id, int) or isinstance(game_id, bool)):
            raise GameError("malformed")
        self._require_seat()
        if game_id is not None and game_id != self.game_id:
            raise GameError("no_offer")
        await db(games.decline_rematch)(self.game_id, self.user)

    async def on_game_action(self, frame: dict) -> None:
        """Offers, answers, leaving and absence choices: one service call each (GAME_ACTIONS)."""
        self._require_seat()
        action, *args = GAME_ACTIONS[frame["type"]]
        await db(action)(self.game_id, self.user, *args)

    async def on_ping(self, frame: dict) -> None:
        """Answer with the server clock (Unix ms) and the client's own `t`, for clock offsets, and
        the game's id and current event version: a page whose version is lower missed an event
        (a fault on the way) and asks for `sync`. The heartbeat refreshes the socket's presence in
        the same round trip. A `light` ping (the page's liveness probe between two heartbeats) is
        answered at once on the loop with the clock alone: no database, no thread."""
        t = frame.get("t")
        pong = {"type": "pong", "server_ms": int(time.time() * 1000)}
        if frame.get("light") is not True:
            version = await db(presence.heartbeat)(self.channel_name, self.game_id)
            pong.update(game_id=self.game_id, version=version)
        if isinstance(t, (int, float)) and not isinstance(t, bool) and abs(t) < 1e15:
            pong["t"] = t
        await self.send_json(pong)

    async def on_chat(self, frame: dict) -> None:
        """Say a line in the room's chat (the channel follows the sender's seat, never the frame)."""
        try:
            await db(chat.say)(self.code, self.user, frame.get("text"))
        except chat.ChatError as exc:
            with translation.override(self.lang):
                message = exc.message
            await self.send_json({"type": "error", "code": exc.code, "message": message})

    async def on_chat_history(self, frame: dict) -> None:
        """Answer with the room's recent visible chat lines (the page asks once per connection)."""
        await self.send_json({"type": "chat_history", "lines": await db(chat.history)(self.code)})

    # ------------------------------------------------------------------ group events

    async def user_restricted(self, message: dict) -> None:
        """A moderator banned, muted or unmuted this socket's user (Channels type "user.restricted",
        sent to the user's group by `moderation`): a ban says why and until when, then closes; else
        the `chat_mute` frame tells the chat box whether it may send (docs/protocol.md, "Chat")."""
        if await db(_ban_of)(self.user.pk) is not None:
            return await self.close_banned()
        await self.send_json(await db(_chat_mute_frame)(self.user.pk, self.lang))

    async def close_banned(self) -> None:
        ban = await db(_ban_of)(self.user.pk) if getattr(self.user, "is_authenticated", False) else None
        if ban is None:  # unbanned in the meantime: nothing to do
            return
        with translation.override(self.lang):
            text = ban_message(ban)
        await self.send_json({"type": "banned", "message": text, "reason": ban.reason,
                              "until_ms": int(ban.until.timestamp() * 1000) if ban.until else None})
        await self.close(code=CLOSE_BANNED)

    async def close_room(self) -> None:
        with translation.override(self.lang):
            text = chat.closed_text()
        await self.send_json({"type": "room_closed", "message": text})
        await self.close(code=CLOSE_ROOM_CLOSED)

    async def room_event(self, event: dict) -> None:
        """Chat lines, hidden lines and the room's closing, from the room's group."""
        if event["type"] == "room_closed":
            return await self.close_room()
        await self.send_json(event)

    async def game_event(self, message: dict) -> None:
        """A committed game event from the service (Channels type "game.event")."""
        event = message["event"]
        if event.get("type") in ROOM_EVENTS:
            return await self.room_event(event)
        if event.get("type") == "new_game":
            await self.follow_game(event["game_id"])
            return await self.send_state()
        if event.get("game_id") != self.game_id:
            return
        version = event.get("version")
        if isinstance(version, int) and self.version is not None:
            if version <= self.version:  # the `state` this socket was sent already holds it
                return
            if version > self.version + 1:  # the event before it is still on its way: wait for it
                self.early[version] = event
                if self.gap_timer is None:
                    self.gap_timer = asyncio.ensure_future(self._gap_after_wait())
                return
        await self.forward(event)
        while self.version is not None and self.version + 1 in self.early:
            await self.forward(self.early.pop(self.version + 1))

    async def forward(self, event: dict) -> None:
        """Send one event of the current game to this socket, in version order (`game_event`)."""
        if event.get("type") in ("seated", "state_changed"):
            watching = self.side is None
            await self.send_state()
            if event["type"] == "seated" and watching and self.side is not None:
                # This socket's own visitor took the seat (from another tab): it is theirs now.
                await db(presence.seated)(self.game_id, self.channel_name, self.user)
            return
        if isinstance(event.get("version"), int):
            self.version = event["version"]
        await self.send_text(event_text(event, self.side))

    async def _gap_after_wait(self) -> None:
        """REORDER_WAIT_S after an event was held, ask this consumer (through its own channel, so
        that it runs between two messages, never inside one) to settle any gap still open."""
        await asyncio.sleep(REORDER_WAIT_S)
        await self.channel_layer.send(self.channel_name, {"type": "game.gap"})

    async def layer_reconnected(self, message: dict) -> None:
        """The channel layer is subscribed to Redis again after losing it (Channels type
        "layer.reconnected", caro.layers): what other processes published meanwhile is lost, so
        catch up: the room's new game if it moved on, else the full `state` if the game's version
        is not the one this socket last sent."""
        room = await db(_load_room)(self.code)
        if room is None or room.closed_at is not None:
            return await self.close_room() if room is not None else None
        if room.current_game_id != self.game_id:
            await self.follow_game(room.current_game_id)
            return await self.send_state()
        if await db(_game_version)(self.game_id) != self.version:
            await self.send_state()

    async def game_gap(self, message: dict) -> None:
        """The wait for a missing event is over (Channels type "game.gap"): when events are still
        held, the missing one was lost or is very late, so send the full `state` (it holds them)."""
        self.gap_timer = None
        if self.early:
            await self.send_state()

    # ------------------------------------------------------------------ sending

    async def send_state(self) -> None:
        state = await db(_state_for)(self.game_id, self.user)
        self.side = state["you"]
        # Events are published after their commit, so this state holds every event received so far.
        self.version, self.early = state["version"], {}
        await self.send_json({"type": "state", **state})

    async def send_error(self, code: str, ref: str | None = None, detail: str | None = None) -> None:
        with translation.override(self.lang):
            message = GameError(code, detail).message
        frame = {"type": "error", "code": code, "message": message}
        if ref:
            frame["ref"] = str(ref)
        if detail:
            frame["detail"] = detail
        await self.send_json(frame)

    async def send_json(self, data: dict) -> None:
        await self.send_text(dumps(data))

    async def send_text(self, text: str) -> None:
        """Send one text frame: straight to the server's `send` (what Channels' `send` does, two
        calls less; the socket's middleware passes `send` on untouched, caro.asgi)."""
        try:
            await self.base_send({"type": "websocket.send", "text": text})
        except Exception:  # the client left while an event was on its way: nothing to deliver
            log.debug("room %s: send after close dropped", self.code)

    def _require_seat(self) -> None:
        """Refuse a player action from a spectator's socket here, before the service locks the row.

        The seat comes from the last `state` this socket received (sent on connect, on a new game
        and whenever a seat is taken), so a spectator's flood never waits on the game's lock.
        """
        if self.side is None:
            raise GameError("not_a_player")

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


#: Frames that are one game-service call: `type -> (service function, extra arguments)`.
GAME_ACTIONS = {
    "offer_draw": (games.offer_draw,),
    "accept_draw": (games.answer_draw, True),
    "decline_draw": (games.answer_draw, False),
    "request_undo": (games.request_undo,),
    "accept_undo": (games.answer_undo, True),
    "decline_undo": (games.answer_undo, False),
    "leave": (games.leave,),
    "wait": (games.decide_absence, "wait"),
    "claim_win": (games.decide_absence, "claim_win"),
    "claim_draw": (games.decide_absence, "claim_draw"),
}


#: Client frame type -> the RoomConsumer method that answers it.
FRAME_HANDLERS = {
    "move": "on_move",
    "sync": "on_sync",
    "resign": "on_resign",
    "play_again": "on_play_again",
    "decline_rematch": "on_decline_rematch",
    "ping": "on_ping",
    "opening": "on_opening",
    "chat": "on_chat",
    "chat_history": "on_chat_history",
    **{name: "on_game_action" for name in GAME_ACTIONS},
}


#: The most squares an `opening` frame may carry (an offer is two; a third reaches the engine,
#: which refuses it with `offer_count`).
MAX_OPENING_SQUARES = 4


def opening_action(frame: dict) -> dict | None:
    """The engine action of an `opening` frame, or None when its fields have the wrong shape."""
    kind = frame.get("action")
    if not isinstance(kind, str) or len(kind) > 12:
        return None
    action: dict = {"kind": kind}
    square, squares, color = frame.get("square"), frame.get("squares"), frame.get("color")
    if square is not None:
        if not (isinstance(square, str) and 1 <= len(square) <= 4):
            return None
        action["square"] = square
    if squares is not None:
        if not (isinstance(squares, list) and len(squares) <= MAX_OPENING_SQUARES
                and all(isinstance(s, str) and 1 <= len(s) <= 4 for s in squares)):
            return None
        action["squares"] = squares
    if color is not None:
        if not (isinstance(color, str) and len(color) <= 1):
            return None
        action["color"] = color
    return action


#: JSON text of a frame: ASCII escapes (never an unencodable surrogate), no spaces (smaller frames);
#: `json.dumps(data, separators=(",", ":"))` without making an encoder per call.
dumps = json.JSONEncoder(separators=(",", ":")).encode
#: How many events' texts `event_text` keeps (the most recent ones).
TEXTS_KEPT = 256
_texts: dict[int, tuple[dict, dict]] = {}


def event_text(event: dict, side: str | None) -> str:
    """The JSON text of game event `event` for a socket playing `side` ("X"/"O"; None to watch):
    an event with `choices` (one list per side, `snapshot.with_choices`) carries only that side's
    list (none to watch).

    Built once per event and side, not once per socket: the channel layer hands every socket of
    the process the same event dict (caro.layers delivers a shallow copy of the message, and
    events are never changed once sent), so the texts are kept by the event's identity, for the
    TEXTS_KEPT most recent events (each entry holds its event, so an id is not reused meanwhile)."""
    entry = _texts.get(id(event))
    if entry is None or entry[0] is not event:
        entry = _texts[id(event)] = (event, {})
        if len(_texts) > TEXTS_KEPT:
            del _texts[next(iter(_texts))]
    texts = entry[1]
    text = texts.get(side)
    if text is None:
        if "choices" in event:
            event = {**event, "choices": event["choices"].get(side, []) if side else []}
        text = texts[side] = dumps(event)
    return text


def input_queue(receive) -> asyncio.Queue | None:
    """The `asyncio.Queue` an ASGI `receive` reads (Daphne's and asgiref's communicator's `receive`
    is the queue's own `get`), seen through wrappers that name what they wrap `__wrapped__`
    (caro.gcpolicy.InFlight); None for any other `receive`."""
    while receive is not None:
        owner = getattr(receive, "__self__", None)
        if isinstance(owner, asyncio.Queue) and getattr(receive, "__name__", None) == "get":
            return owner
        receive = getattr(receive, "__wrapped__", None)
    return None


def _resolved(user):
    """The user object behind the scope's lazy `user` (Channels' AuthMiddleware has loaded it by
    the time a consumer connects), so that every frame's checks read its attributes directly
    instead of through the lazy proxy; `user` itself when it is not such a proxy or not loaded."""
    wrapped = getattr(user, "_wrapped", None)
    return user if wrapped is None or wrapped is empty else wrapped


def _uuid_or_none(value) -> uuid.UUID | None:
    """The UUID in a client's `id` field, or None for anything else (never echoed back raw)."""
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


class NotFoundConsumer(WebsocketConsumer):
    """Any other websocket path: accepted and closed at once, instead of a routing error (500)."""

    def connect(self) -> None:
        self.accept()
        self.close(code=CLOSE_NO_ROOM)


def _load_room(code: str) -> Room | None:
    return Room.objects.filter(code=code).only("code", "current_game_id", "closed_at").first()


def _game_version(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("event_version", flat=True).first()


def _chat_mute_frame(user_id: int, lang: str) -> dict:
    """The `chat_mute` frame of user `user_id`, read fresh: `message` (the translated sentence of
    `accounts.restrictions.mute_message`) and `until_ms` (Unix ms) while muted, both None when not."""
    user = get_user_model().objects.filter(pk=user_id).first()
    mute = mute_of(user, timezone.now()) if user is not None else None
    if mute is None:
        return {"type": "chat_mute", "message": None, "until_ms": None}
    with translation.override(lang):
        text = mute_message(mute)
    return {"type": "chat_mute", "message": text, "until_ms": int(mute.until.timestamp() * 1000) if mute.until else None}


def _ban_of(user_id: int):
    """The ban in force on user `user_id` now, read fresh from the database (or None)."""
    user = get_user_model().objects.filter(pk=user_id).only("banned_until", "banned_forever", "ban_reason").first()
    return ban_of(user, timezone.now()) if user is not None else None


def _state_for(game_id: int, user) -> dict:
    """The socket's `state` of game `game_id`, read in one snapshot (REPEATABLE READ, read only:
    it never fails to serialise) so its `version` covers exactly its moves, also when a move
    or a takeback commits in between the two reads."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return state_for(Game.objects.select_related("host", "guest").get(pk=game_id), user)


def _language_of(scope: dict) -> str:
    """The site language for this socket: the page's own (the ``lang`` query parameter its script
    adds, from ``<html lang>``), else the language cookie, else Accept-Language, else
    settings.LANGUAGE_CODE ("vi"). The page's own comes first because a browser need not send the
    page's Accept-Language with the websocket handshake (Chromium with an emulated locale sends
    its default one), and the socket's sentences must be in the language of the page they show on."""
    supported = {code for code, _name in settings.LANGUAGES}
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    for value in query.get("lang", [])[:1]:
        if value in supported:
            return value
    headers = dict(scope.get("headers") or [])
    cookie = headers.get(b"cookie", b"").decode("latin-1")
    for part in cookie.split(";"):
        name, _, value = part.strip().partition("=")
        if name == settings.LANGUAGE_COOKIE_NAME and value in supported:
            return value
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for item in accept.split(","):
        code = item.split(";")[0].strip().lower()[:2]
        if code in supported:
            return code
    return settings.LANGUAGE_CODE
