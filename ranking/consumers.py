"""The seek websocket `/ws/seek/` (docs/protocol.md, "Seek websocket").

Thin: it checks each frame's size, shape and rate, takes the player from the session (never from a
frame) and calls `ranking.pairing` off the event loop. It listens to the player's seek group (every
tab of the user, on every web process: `paired`, `cancelled`, `requeued`, `computer_offer`); the
live waiting counts come from the cache, read once per period by the process (`_Lobby`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.cache import cache
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.restrictions import ban_message, user_group

from caro.rooms.consumers import BURST, CLOSE_TOO_BIG, CLOSE_TOO_MANY, RATE, read_frame, refuse_over_rate
from caro.rooms.consumers import CLOSE_BANNED, _ban_of, _language_of
from caro.rooms.limits import SocketSlot, client_address
from ranking import arrivals, pairing
from ranking.pairing import SeekError
from ranking.seeks import Seek, seek_group
from ranking.tasks import COUNTS_KEY

log = logging.getLogger(__name__)

#: Close code for a socket without a player (no session): the page reloads to get a guest name.
CLOSE_NO_PLAYER = 4401
#: A socket's pings refresh its seek's heartbeat in the database at most this often, s (the page
#: pings every 10 s; a seek is dead after pairing.SEEK_STALE_S without one).
HEARTBEAT_WRITE_S = 15
#: The per-room socket limit of the rooms counts this page as one "room".
SLOT_ROOM = "seek"


#: Worker threads of the seek sockets' ORM calls, per web process. A join is a dozen short round
#: trips to PostgreSQL, mostly waiting: the loop's default pool (CPU count + 4 threads) queues a
#: burst of joins behind a few of them. Each thread holds at most one pooled connection while it
#: runs (settings DB_POOL_MAX_SIZE, 20 by default, is shared with the room sockets).
SEEK_THREADS = 8
_executor = ThreadPoolExecutor(max_workers=SEEK_THREADS, thread_name_prefix="seek-db")


#: This socket's own sentences (the pairing's refusals are `pairing.SEEK_ERRORS`).
SOCKET_MESSAGES = {
    # `error` `not_seeking`: a `cancel` with no seek waiting (nothing changed).
    "not_seeking": _("There was no search to cancel: you are not waiting for a game."),
    # `replaced`: another tab of the user asked for other rules, which replaced this tab's search.
    "replaced": _("Your search was changed in another tab or window. This page now waits for the new one."),
}


#: The seek sockets get the waiting counts at most this often, s (each process reads them from
#: the cache once per period and sends them to its own sockets when they changed).
COUNTS_PERIOD_S = 5


class _Lobby:
    """This process's open seek sockets and the one task that sends them the waiting counts.

    The counts used to be a channel-layer group of every seek socket: one Redis message per socket
    per change, each fetched with four round trips by the process's single receive loop, so a
    `paired` event queued behind thousands of them. Here the process reads the cache once per
    COUNTS_PERIOD_S and writes to its sockets directly."""

    def __init__(self) -> None:
        self.sockets: set[SeekConsumer] = set()
        self.by_user: dict[int, set[SeekConsumer]] = {}
        self.task: asyncio.Task | None = None
        self.last = None

    def of_user(self, user_id: int) -> list["SeekConsumer"]:
        """The seek sockets of user `user_id` open on this process."""
        return list(self.by_user.get(user_id, ()))

    def add(self, consumer: "SeekConsumer") -> None:
        self.sockets.add(consumer)
        self.by_user.setdefault(consumer.user.pk, set()).add(consumer)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def discard(self, consumer: "SeekConsumer") -> None:
        self.sockets.discard(consumer)
        mine = self.by_user.get(consumer.user.pk)
        if mine is not None:
            mine.discard(consumer)
            if not mine:
                del self.by_user[consumer.user.pk]

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(COUNTS_PERIOD_S)
            try:
                counts = await db(cache.get)(COUNTS_KEY)
            except Exception:  # pragma: no cover - cache down: the next period tries again
                log.exception("seek sockets: reading the waiting counts failed")
                continue
            if counts is None or counts == self.last:
                continue
            self.last = counts
            text = json.dumps({"type": "waiting", "counts": counts})
            for consumer in list(self.sockets):
                await consumer.send_text(text)


def db(func):
    """Run a sync ORM call on the seek sockets' own thread pool (`SEEK_THREADS`)."""
    return database_sync_to_async(func, thread_sensitive=False, executor=_executor)


class SeekConsumer(AsyncWebsocketConsumer):
    """One matchmaking socket."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.lang = _language_of(self.scope)
        self.tokens, self.refilled = BURST, time.monotonic()
        self.attached = False
        self.touched = time.monotonic()  # the last heartbeat written (a join writes one too)
        self.groups_joined: list[str] = []
        self.forgotten = False
        self.told: set[int] = set()  # the games this socket sent `paired` for
        self.sought: tuple[str, str] | None = None  # (mode, choice) this socket last asked for
        self.seek_id: int | None = None  # the seek row this socket last joined (cancels name theirs)
        authenticated = getattr(self.user, "is_authenticated", False)
        self.slot = SocketSlot(self.channel_name, client_address(self.scope),
                               self.user.pk if authenticated else None, SLOT_ROOM)
        if not await self.slot.acquire():
            await self.accept()
            await self.send_error("too_many_sockets")
            await self.close(code=CLOSE_TOO_MANY)
            return
        if not authenticated:
            await self.slot.release()
            await self.accept()
            await self.send_error("not_signed_in")
            await self.close(code=CLOSE_NO_PLAYER)
            return
        # user.<id>: a moderator's ban closes every socket of the user at once (docs/protocol.md).
        for group in (seek_group(self.user.pk), user_group(self.user.pk)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self.accept()
        status, counts = await db(_hello)(self.user)
        await self.send_json({"type": "status", **status})
        await self.send_json({"type": "waiting", "counts": counts})
        LOBBY.add(self)
        task = asyncio.current_task()
        if task is not None:
            task.add_done_callback(lambda _t: None if self.forgotten else asyncio.ensure_future(self._forget()))

    async def dispatch(self, message: dict) -> None:
        """Channels' dispatch without the per-message `close_old_connections` (see RoomConsumer)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        await self._forget()

    async def _forget(self) -> None:
        if getattr(self, "forgotten", True):
            return
        self.forgotten = True
        LOBBY.discard(self)
        await self.slot.release()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.attached:
            self.attached = False
            await db(pairing.detach)(self.user.pk)

    # ------------------------------------------------------------------ client frames

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._take_token():
            return await refuse_over_rate(self)
        frame, refusal = read_frame(text_data, bytes_data)
        if refusal == CLOSE_TOO_BIG:
            return await self.close(code=CLOSE_TOO_BIG)
        if refusal:
            return await self.send_error(refusal)
        handler = {"seek": self.on_seek, "cancel": self.on_cancel, "ping": self.on_ping}.get(frame["type"])
        if handler is None:
            return await self.send_error("unknown_type")
        try:
            await handler(frame)
        except SeekError as exc:
            await self.send_error(exc.code)
        except Exception:
            log.exception("seek socket: frame %r failed", frame.get("type"))
            await self.send_error("server_error")

    async def on_seek(self, frame: dict) -> None:
        mode, choice = frame.get("mode"), frame.get("choice")
        if not isinstance(mode, str) or not isinstance(choice, str) or len(choice) > 40:
            raise SeekError("malformed")
        seek, made = await ARRIVALS.arrive(self.user, mode, choice, attach=not self.attached)
        self.attached, self.touched = True, time.monotonic()
        self.seek_id = seek.pk
        if made is not None:  # paired at once: every tab of both players hears `paired` (this one too)
            messages = pairing.paired_messages(made)
            players = (made.host_id, made.guest_id)
            only = getattr(made, "tell_only", None)  # both were in one batch: each tells its own player
            if only is not None:
                players, messages = (only,), [item for item in messages if item[0] == seek_group(only)]
            # The tabs on this process at once; the seek groups reach those on other processes
            # (a tab hearing the same game twice ignores the second: `game_event`).
            for user_id in players:
                for consumer in LOBBY.of_user(user_id):
                    await consumer.hear(messages[0][1])
            sent = await asyncio.gather(*(self.channel_layer.group_send(group, {"type": "game.event", "event": event})
                                          for group, event in messages), return_exceptions=True)
            for failure in (result for result in sent if isinstance(result, BaseException)):
                # The game stands and this process's tabs were told; a tab elsewhere finds the
                # game in its `status` when it reconnects. Not the player's error.
                log.warning("seek socket: telling a seek group of game %s failed: %r", made.game_id, failure)
        elif seek.status == seek.Status.WAITING:
            self.sought = (mode, choice)
            await self.send_json({"type": "status", **pairing.waiting_status(seek)})
            if seek.sockets > 1 and seek.queued_at == seek.joined_at:
                # A new or replaced seek while other tabs have one open: a tab that asked for
                # something else hears `replaced` (`seek_changed`). A tab sharing the seek makes
                # no message (its place was kept: queued_at is older).
                await self.channel_layer.group_send(seek_group(self.user.pk), {
                    "type": "seek.changed", "mode": mode, "choice": choice, "origin": self.channel_name})
        else:  # still in the game it was paired into
            await self.send_json({"type": "status", **await db(pairing.seek_state)(self.user)})

    async def on_cancel(self, frame: dict) -> None:
        waiting, paired = await db(_cancel)(self.user)
        if paired is None:
            self.sought = None
            if self.attached:
                self.attached = False
            if not waiting:  # nothing to cancel: say so (nothing changed)
                return await self.send_error("not_seeking")
            return  # every tab hears `cancelled` from the seek group
        status = await db(pairing.seek_state)(self.user)
        await self.send_json({"type": "status", **status})

    async def on_ping(self, frame: dict) -> None:
        if self.attached and time.monotonic() - self.touched >= HEARTBEAT_WRITE_S:
            self.touched = time.monotonic()
            missed = await db(pairing.heartbeat)(self.user.pk)
            if missed is not None:  # paired while this socket's `paired` was lost on the way
                await self.hear(missed)
        t = frame.get("t")
        pong = {"type": "pong", "server_ms": int(time.time() * 1000)}
        if isinstance(t, (int, float)) and not isinstance(t, bool) and abs(t) < 1e15:
            pong["t"] = t
        await self.send_json(pong)

    # ------------------------------------------------------------------ group events

    async def game_event(self, message: dict) -> None:
        """An event for this user's seek sockets (sent to their group with `outbox.broadcast`)."""
        await self.hear(message["event"])

    async def hear(self, event: dict) -> None:
        """Send a seek event to this socket; a `paired` of a game it was already told of is dropped."""
        if event.get("type") == "paired":
            if event.get("game_id") in self.told:
                return
            self.told.add(event.get("game_id"))
        if event.get("type") == "cancelled" and event.get("seek") not in (None, self.seek_id) \
                and self.seek_id is not None:
            return  # an older seek's cancel, heard after this socket made a new one: not this seek
        if event.get("type") in ("paired", "cancelled"):
            self.sought = None  # the seek is over: a later seek of another tab replaces nothing here
            if self.attached:
                self.attached = False  # a pairing already set the paired seek's socket count to 0
        await self.send_json(event)

    async def seek_changed(self, message: dict) -> None:
        """Another tab of this user made a new seek (Channels type "seek.changed", to the user's
        seek group): a tab that asked for other rules hears `replaced` with the new `mode` and
        `choice`, since the user's one seek is now the other tab's."""
        new = (message["mode"], message["choice"])
        if message.get("origin") == self.channel_name or self.sought is None or self.sought == new:
            return
        self.sought = new
        with translation.override(self.lang):
            text = str(SOCKET_MESSAGES["replaced"])
            line = pairing.describe(*new)
        await self.send_json({"type": "replaced", "mode": new[0], "choice": new[1], "line": line, "message": text})

    # ------------------------------------------------------------------ sending

    async def user_restricted(self, message: dict) -> None:
        """A moderator banned this socket's user (Channels type "user.restricted", sent to the
        user's group): tell them why and until when, then close (as the room socket does)."""
        ban = await db(_ban_of)(self.user.pk)
        if ban is None:  # unbanned in the meantime
            return
        with translation.override(self.lang):
            text = ban_message(ban)
        await self.send_json({"type": "banned", "message": text, "reason": ban.reason,
                              "until_ms": int(ban.until.timestamp() * 1000) if ban.until else None})
        await self.close(code=CLOSE_BANNED)

    async def send_error(self, code: str) -> None:
        if code == "seek_barred":  # the bar's own sentence: its reason and the time left
            message = await db(_bar_text)(self.user.pk, self.lang)
            return await self.send_json({"type": "error", "code": code, "message": message})
        with translation.override(self.lang):
            message = str(SOCKET_MESSAGES[code]) if code in SOCKET_MESSAGES else SeekError(code).message
            extra = {"signup_url": pairing.signup_url()} if code == "guests_not_ranked" else {}
        await self.send_json({"type": "error", "code": code, "message": message, **extra})

    async def send_json(self, data: dict) -> None:
        await self.send_text(json.dumps(data))

    async def send_text(self, text: str) -> None:
        try:
            await self.send(text_data=text)
        except Exception:  # the client left while an event was on its way
            log.debug("seek socket: send after close dropped")

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


LOBBY = _Lobby()
#: This process's seek frames, gathered into batches (`pairing.arrive_many`).
ARRIVALS = arrivals.Arrivals(db)


def _hello(user) -> tuple[dict, dict]:
    """The user's seek status and the waiting counts: the ones this process last sent its sockets
    (`_Lobby`, at most COUNTS_PERIOD_S old), else the beat's last ones from the cache, else counted now.
    (A cache read here costs a new Redis connection per socket: each call runs in a fresh context.)"""
    counts = LOBBY.last if LOBBY.last is not None else cache.get(COUNTS_KEY)
    return pairing.seek_state(user), counts if counts is not None else pairing.waiting_counts()


def _cancel(user) -> tuple[bool, Seek | None]:
    """`pairing.cancel` for `user`, and whether a seek was waiting to be cancelled (its row locked
    first, so a pass or another tab cannot change it in between): (False, None) means there was
    nothing to cancel."""
    with transaction.atomic():
        statuses = list(Seek.objects.select_for_update().filter(user=user).values_list("status", flat=True)[:1])
        return statuses == [Seek.Status.WAITING], pairing.cancel(user)


def _bar_text(user_id: int, lang: str) -> str:
    with translation.override(lang):
        return pairing.bar_text(user_id)
