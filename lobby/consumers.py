"""The live socket `/ws/live/` of the lobby page and the home page (docs/protocol.md, "Live
socket"): the lobby's list of open rooms, pushed as server-rendered HTML when it changes, and the
featured game (the highest-rated live game) move by move.

Query: `?lobby=<kind>` ("all", "caro", "reversi") for the open rooms, `?featured=1` for the
featured game, `?counts=1` for who is here (the home page), `?watch=<kind>` for the watch page's
list of live games, `lang` the page's language. Frames sent (JSON):

- `{"type": "lobby", "html": "..."}`: the open rooms' list (the `lobby/open_rooms.html` fragment),
  at once and after each change (coalesced within `LOBBY_COALESCE_S`), and every
  `LOBBY_REFRESH_S` when it changed (a host whose page died without closing is gone after
  `STALE_CONNECTION_S`);
- `{"type": "featured", "game": {...} | null}`: the featured game as `live.featured_state` gives it,
  at once, again after a gap in its events, and the next game `FEATURED_NEXT_S` after it ended;
- `{"type": "move", "game_id", "ply", "side", "square", "flips"}` and
  `{"type": "over", "game_id", "winner", "line", "termination"}`: the featured game's events;
- `{"type": "counts", "html": "..."}`: who is here (the `lobby/counts.html` fragment), within
  `PUSH_EVERY_S` of the socket opening and of any change to the counts;
- `{"type": "watch", "html": "..."}`: the watch page's list (the `lobby/live_games.html`
  fragment), within `PUSH_EVERY_S` of the socket opening and of a game between people starting
  or ending, and every `WATCH_REFRESH_S` when it changed otherwise (the move counts);
- `{"type": "pong"}` answers `{"type": "ping"}`, which also marks the visitor online.

Thin and cheap: no row per socket. It joins the Channels group `rooms.models.LOBBY_GROUP` and the
featured game's group; the lists are rendered once per change per process and language (`_Lists`),
not once per socket. The counts and the watch list reach no channel-layer group: each process
looks at them once per `PUSH_EVERY_S` for all its sockets (`_Pushes`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from caro.rooms.consumers import CLOSE_FRAME_BYTES, CLOSE_TOO_BIG, CLOSE_TOO_MANY, _language_of, refuse_over_rate
from caro.rooms.limits import SocketSlot, client_address
from caro.rooms.models import LOBBY_GROUP
from lobby import counts, live

log = logging.getLogger(__name__)

#: Changes to the lobby within this long are sent as one list, s.
LOBBY_COALESCE_S = 0.15
#: The list is rendered again this often even without a change, s (hosts whose socket died).
LOBBY_REFRESH_S = 15
#: A socket without a featured game looks for one this often, s.
FEATURED_RETRY_S = 3
#: The featured game's result stays this long before the next game replaces it, s.
FEATURED_NEXT_S = 4
#: Each process looks at the counts of who is here and at the watch list's change counter this
#: often, for all its sockets, s: a change reaches the pages within about this long.
PUSH_EVERY_S = 1
#: The watch list is rendered again this often even when no game started or ended (its move
#: counts), s.
WATCH_REFRESH_S = 10
#: The per-room socket limit of caro.rooms.limits counts these sockets as one "room".
SLOT_ROOM = "live"
#: The longest frame read (only pings are expected), bytes; a longer one is ignored, and one over
#: CLOSE_FRAME_BYTES (the room socket's rule, caro.rooms.consumers) closes the socket with
#: CLOSE_TOO_BIG before anything else looks at it (an attacker's 60 KB frames, 18,148 in 10 s, cost
#: a web process 6.5 CPU-seconds). Daphne drops a frame over its --websocket-max-message-size
#: (65,536 bytes, devstack/cli.py and compose.yaml) before it reaches this consumer.
MAX_FRAME_BYTES = 256
#: Frames one socket may send: FRAME_BURST at once, then FRAMES_PER_S a second; the rest are
#: ignored (the page pings every few seconds; a flood costs one Redis write per answered ping),
#: and the MAX_REFUSALS-th ignored one closes the socket (caro.rooms.consumers.refuse_over_rate).
FRAMES_PER_S = 1
FRAME_BURST = 5


def db(func):
    return database_sync_to_async(func, thread_sensitive=False)


def featured_in(game_id: int | None, language: str) -> dict | None:
    """`live.featured_state(game_id)` with its words (the rules line) in `language`."""
    with translation.override(language):
        return live.featured_state(game_id)


def render_rooms(kind: str, language: str) -> str:
    """The lobby's list of open rooms of `kind` in `language`, as HTML."""
    with translation.override(language):
        return render_to_string("lobby/open_rooms.html", {"rooms": live.open_rooms(kind), "kind": kind,
                                                          "csrf_token": ""})


class _Lists:
    """This process's rendered lobby lists, per kind and language: made again after a change was
    announced or when older than `LOBBY_REFRESH_S`; concurrent sockets share one rendering."""

    def __init__(self) -> None:
        self.changed_at = 0.0
        self.made: dict[tuple[str, str], tuple[float, asyncio.Future]] = {}

    def changed(self) -> None:
        self.changed_at = time.monotonic()

    async def html(self, kind: str, language: str) -> str:
        now = time.monotonic()
        entry = self.made.get((kind, language))
        if entry is None or entry[0] < self.changed_at or now - entry[0] > LOBBY_REFRESH_S - 1 \
                or entry[1].get_loop() is not asyncio.get_running_loop():
            future = asyncio.ensure_future(db(render_rooms)(kind, language))
            self.made[(kind, language)] = entry = (now, future)
        try:
            return await asyncio.shield(entry[1])
        except Exception:
            self.made.pop((kind, language), None)
            raise


LISTS = _Lists()


def render_counts(now: dict, language: str) -> str:
    """Who is here (`counts.current()`'s dict) as the home page's counts fragment in `language`."""
    from lobby.views import counts_context  # the view's context, one place for the words

    with translation.override(language):
        return render_to_string("lobby/counts.html", counts_context(now))


def render_games(kind: str, language: str) -> str:
    """The watch page's list of live games of `kind` in `language`, as HTML."""
    with translation.override(language):
        return render_to_string("lobby/live_games.html", {"games": live.live_games(kind), "kind": kind})


def _frame(kind: str, html: str) -> str:
    """A `{"type": kind, "html": html}` frame's text, made once for all the sockets it goes to."""
    return json.dumps({"type": kind, "html": html}, ensure_ascii=False)


class _Pushes:
    """This process's live sockets that show who is here (`counts=1`) or the watch list
    (`watch=`), and the one task that keeps them current: every PUSH_EVERY_S it reads the counts
    (`counts.current`: the cache) and the live list's change counter (`live.watch_version`: one
    Redis GET), renders each part once per language (and kind) when it changed, and sends it to
    the sockets whose last copy differs. Its work per second is per process, not per socket, and
    no channel-layer message is sent per socket (as `ranking.consumers._Lobby` for the seek
    sockets). The home page's counts used to come only by an htmx poll every 5 s of counts up
    to 2 s old with a waiting line up to 3 s old (seen 5-15 s late), and the watch page's list by
    a poll every 10 s (a new game appeared after its first moves)."""

    def __init__(self) -> None:
        self.sockets: set[LiveConsumer] = set()
        self.task: asyncio.Task | None = None
        self.counts_key = None
        self.counts_html: dict[str, str] = {}
        self.watch_version: int | None = None
        self.watch_made_at = 0.0
        self.watch_html: dict[tuple[str, str], str] = {}

    def add(self, consumer: "LiveConsumer") -> None:
        self.sockets.add(consumer)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def discard(self, consumer: "LiveConsumer") -> None:
        self.sockets.discard(consumer)

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(PUSH_EVERY_S)
            try:
                await self.tick()
            except Exception:  # pragma: no cover - cache or database down: the next period tries again
                log.exception("live sockets: the counts or the watch list could not be made")

    async def tick(self) -> None:
        """Send what changed to every socket of this process (see the class docstring)."""
        self.sockets -= {s for s in self.sockets if getattr(s, "gone", False)}  # a send found it closed
        sockets = list(self.sockets)
        counting = [s for s in sockets if s.wants_counts]
        watching = [s for s in sockets if s.watch_kind is not None]
        if counting:
            now = await db(counts.current)()
            key = (now["online"], now["playing"], now["waiting"])
            if key != self.counts_key:
                self.counts_key, self.counts_html = key, {}
            for language in {s.language for s in counting} - set(self.counts_html):
                self.counts_html[language] = _frame("counts", await db(render_counts)(now, language))
            for socket in counting:
                text = self.counts_html[socket.language]
                if socket.sent_counts != text:
                    socket.sent_counts = text
                    await socket.send_text(text)
        if watching:
            version = await db(live.watch_version)()
            stamp = time.monotonic()
            if version != self.watch_version or stamp - self.watch_made_at >= WATCH_REFRESH_S:
                self.watch_version, self.watch_made_at, self.watch_html = version, stamp, {}
            for kind, language in {(s.watch_kind, s.language) for s in watching} - set(self.watch_html):
                self.watch_html[(kind, language)] = _frame("watch", await db(render_games)(kind, language))
            for socket in watching:
                text = self.watch_html[(socket.watch_kind, socket.language)]
                if socket.sent_watch != text:  # the same list rendered again is no news
                    socket.sent_watch = text
                    await socket.send_text(text)


PUSHES = _Pushes()


class LiveConsumer(AsyncWebsocketConsumer):
    """One live socket (see the module docstring)."""

    async def connect(self) -> None:
        params = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        lobby = (params.get("lobby") or [""])[0]
        self.lobby_kind = live.kind_filter(lobby) if lobby else None
        self.wants_featured = (params.get("featured") or [""])[0] == "1"
        self.wants_counts = (params.get("counts") or [""])[0] == "1"
        watch = (params.get("watch") or [""])[0]
        self.watch_kind = live.kind_filter(watch) if watch else None
        self.sent_counts = self.sent_watch = None
        self.language = _language_of(self.scope)
        self.user = self.scope.get("user")
        self.featured_id: int | None = None
        self.featured_version = 0
        self.sent_html = None
        self.tasks: list[asyncio.Task] = []
        self.pending_lobby: asyncio.TimerHandle | None = None
        self.next_featured: asyncio.Task | None = None
        authenticated = getattr(self.user, "is_authenticated", False)
        self.slot = SocketSlot(self.channel_name, client_address(self.scope),
                               self.user.pk if authenticated else None, SLOT_ROOM)
        if not await self.slot.acquire():
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY)
            return
        # Who this socket keeps online (`counts.seen` on connect and on each ping): the user, or a
        # visitor without one by their cookie's id (the lobby page has no poll that would).
        self.member = f"u{self.user.pk}" if authenticated else counts.visitor_member(self.scope.get("cookies") or {})
        if self.lobby_kind is not None:
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        if self.member:
            await db(counts.seen)(self.member)
        if self.lobby_kind is not None:
            await self.send_lobby()
            self.tasks.append(asyncio.ensure_future(self._refresh_lobby()))
        if self.wants_featured:
            await self.show_featured()
        if self.wants_counts or self.watch_kind is not None:
            PUSHES.add(self)

    async def disconnect(self, code: int) -> None:
        self.gone = True
        PUSHES.discard(self)
        for task in self.tasks:
            task.cancel()
        if self.next_featured is not None:
            self.next_featured.cancel()
        if self.pending_lobby is not None:
            self.pending_lobby.cancel()
        if self.lobby_kind is not None:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        if self.featured_id is not None:
            await self.channel_layer.group_discard(f"game.{self.featured_id}", self.channel_name)
        await self.slot.release()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if getattr(self, "gone", False):
            return  # closed: frames already on their way are not read
        size = len(text_data.encode("utf-8", "surrogatepass")) if text_data is not None else len(bytes_data or b"")
        if size > CLOSE_FRAME_BYTES:
            self.gone = True  # nothing more is sent to a socket being closed
            return await self.close(code=CLOSE_TOO_BIG)
        if not self._take_token():  # ignored, and a flood closes the socket
            return await refuse_over_rate(self, answer=False)
        if not text_data or len(text_data) > MAX_FRAME_BYTES:
            return
        try:
            frame = json.loads(text_data)
        except ValueError:
            return
        if isinstance(frame, dict) and frame.get("type") == "ping":
            if self.member:
                await db(counts.seen)(self.member)
            await self.send_json({"type": "pong"})

    def _take_token(self) -> bool:
        """A token bucket of FRAME_BURST refilled at FRAMES_PER_S: True when this frame may be read."""
        now = time.monotonic()
        tokens, then = getattr(self, "_bucket", (FRAME_BURST, now))
        tokens = min(FRAME_BURST, tokens + (now - then) * FRAMES_PER_S)
        if tokens < 1:
            self._bucket = (tokens, now)
            return False
        self._bucket = (tokens - 1, now)
        return True

    async def send_json(self, data: dict) -> None:
        """Send `data` as a JSON frame (`send_text`)."""
        await self.send_text(json.dumps(data, ensure_ascii=False))

    async def send_text(self, text: str) -> None:
        """Send a frame; nothing when the client has gone. A browser that closes right after the
        page loaded closes the socket while a frame is on its way (Daphne's protocol then refuses
        it: autobahn's `Disconnected`, "Attempt to send on a closed protocol"), as the room and
        seek sockets drop it."""
        if getattr(self, "gone", False):
            return
        try:
            await self.send(text_data=text)
        except Exception:  # the client left while a frame was on its way: nothing to deliver
            self.gone = True
            log.debug("live socket: send after close dropped")

    # ------------------------------------------------------------------ the lobby

    async def send_lobby(self) -> None:
        try:
            html = await LISTS.html(self.lobby_kind, self.language)
        except Exception:  # pragma: no cover - database down: the next change or refresh tries again
            log.exception("live socket: the lobby list could not be made")
            return
        if html != self.sent_html:
            self.sent_html = html
            await self.send_json({"type": "lobby", "html": html})

    async def _refresh_lobby(self) -> None:
        while True:
            await asyncio.sleep(LOBBY_REFRESH_S)
            await self.send_lobby()

    def _lobby_soon(self) -> None:
        if self.pending_lobby is None:
            loop = asyncio.get_running_loop()
            self.pending_lobby = loop.call_later(LOBBY_COALESCE_S, self._lobby_now)

    def _lobby_now(self) -> None:
        self.pending_lobby = None
        self.tasks = [t for t in self.tasks if not t.done()]
        self.tasks.append(asyncio.ensure_future(self.send_lobby()))

    # ------------------------------------------------------------------ the featured game

    async def show_featured(self, game_id: int | None = None) -> None:
        """Follow the featured game (`game_id` while it is in play, else the best one) and send it."""
        state = await db(featured_in)(game_id, self.language)
        if state is None and game_id is not None:
            state = await db(featured_in)(None, self.language)
        new_id = state["game_id"] if state else None
        if new_id != self.featured_id:
            if self.featured_id is not None:
                await self.channel_layer.group_discard(f"game.{self.featured_id}", self.channel_name)
            if new_id is not None:
                await self.channel_layer.group_add(f"game.{new_id}", self.channel_name)
                # Joined before reading again: no move falls between the state and the events.
                state = await db(featured_in)(new_id, self.language) or state
            self.featured_id = new_id
        self.featured_version = state["version"] if state else 0
        await self.send_json({"type": "featured", "game": state})
        if state is None:
            self._featured_later(FEATURED_RETRY_S)

    def _featured_later(self, delay: float) -> None:
        if self.next_featured is not None and not self.next_featured.done():
            return

        async def later() -> None:
            await asyncio.sleep(delay)
            self.next_featured = None
            await self.show_featured()

        self.next_featured = asyncio.ensure_future(later())

    # ------------------------------------------------------------------ group events

    async def game_event(self, message: dict) -> None:
        event = message.get("event") or {}
        kind = event.get("type")
        if kind == "lobby":
            LISTS.changed()
            self._lobby_soon()
            return
        if self.featured_id is None or event.get("game_id") != self.featured_id:
            return
        version = event.get("version")
        if isinstance(version, int):
            if version <= self.featured_version:
                return  # already in the state this socket sent
            if version > self.featured_version + 1 and kind not in ("game_over",):
                await self.show_featured(self.featured_id)  # a gap: the whole board again
                return
            self.featured_version = version
        if kind == "move":
            await self.send_json({"type": "move", "game_id": self.featured_id, "ply": event.get("ply"),
                                  "side": event.get("side"), "square": event.get("square"),
                                  "flips": event.get("flips") or []})
        elif kind == "game_over":
            await self.send_json({"type": "over", "game_id": self.featured_id, "winner": event.get("winner"),
                                  "termination": event.get("termination"), "line": event.get("line") or []})
            self._featured_later(FEATURED_NEXT_S)
        elif kind == "state_changed":
            await self.show_featured(self.featured_id)
