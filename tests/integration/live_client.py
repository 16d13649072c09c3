"""A raw client of a running site for the fault tests (tests/integration/test_faults.py): guests with
their own cookies over HTTP, and room sockets that keep a game's state the way the room page does
(docs/protocol.md, "Versions"): a `state` frame replaces it, an event of the next version is
applied, a gap or a pong whose `version` is ahead asks for `sync`; a closed socket reconnects.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request
import uuid

import websockets

#: The bench's non-winning sequence: rows 1 and 2 of a 15x15 board, X on the even indexes.
SEQUENCE = [f"{c}{r}" for r in (1, 2) for c in "ABCDEFGHIJKLMNO"]


class Visitor:
    """A browser's cookies: a guest session once it opened a page."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=60) as r:
            return r.read().decode()

    def post(self, path: str, **fields) -> str:
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": self.cookie("csrftoken"), **fields}).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={"Referer": self.base + "/"})
        with self.opener.open(request, timeout=60) as r:
            return r.geturl()

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def friend_game(base: str) -> tuple[str, Visitor, Visitor]:
    """A friend room made by X (the host moves first) and joined by O: (code, x, o)."""
    x, o = Visitor(base), Visitor(base)
    x.get("/")
    code = re.search(r"/r/([A-Z0-9]{6})/", x.post("/rooms/new")).group(1)
    o.get(f"/r/{code}/")
    o.post(f"/r/{code}/join")
    return code, x, o


class RoomSocket:
    """One room socket (`who`: a Visitor, or None for an anonymous spectator) to the site at
    `base`, with the page's bookkeeping; `reconnect=True` opens it again after it closes, every
    RECONNECT_S (the page backs off from 0.5 s; the server side is what these tests measure)."""

    RECONNECT_S = 0.25

    def __init__(self, base: str, code: str, who: Visitor | None, *, reconnect: bool = False) -> None:
        self.url = base.replace("http://", "ws://").rstrip("/") + f"/ws/room/{code}/"
        self.origin = base.rstrip("/")
        self.who, self.reconnect = who, reconnect
        self.version = None
        self.moves: list[str] = []
        self.status = None
        self.termination = None
        self.you = None
        self.game_id = None
        self.frames: list[dict] = []
        self.opened = 0
        self.states = 0  # `state` frames received (one after each open)
        self.changed = asyncio.Event()
        self.ws = None
        self.task: asyncio.Task | None = None

    async def start(self) -> "RoomSocket":
        await self._open()
        self.task = asyncio.create_task(self._read())
        await self.until(lambda s: s.version is not None, 60)
        return self

    async def _open(self) -> None:
        headers = {"Origin": self.origin}
        if self.who is not None:
            headers["Cookie"] = self.who.cookie_header()
        self.ws = await websockets.connect(self.url, additional_headers=headers, open_timeout=30, max_queue=None)
        self.opened += 1

    async def _read(self) -> None:
        while True:
            try:
                async for raw in self.ws:
                    await self._frame(json.loads(raw))
            except (websockets.exceptions.ConnectionClosed, OSError):
                pass
            if not self.reconnect:
                return
            while True:
                await asyncio.sleep(self.RECONNECT_S)
                try:
                    await self._open()
                    break
                except (OSError, asyncio.TimeoutError, websockets.exceptions.InvalidHandshake,
                        websockets.exceptions.InvalidMessage):
                    continue

    async def _frame(self, frame: dict) -> None:
        self.frames.append({**frame, "_at": time.monotonic()})
        kind = frame.get("type")
        if kind == "state":
            self.states += 1
            self.game_id, self.version, self.status = frame["game_id"], frame["version"], frame["status"]
            self.moves = [square for square, _side in frame["moves"]]
            self.termination, self.you = frame.get("termination"), frame.get("you")
        elif kind == "pong":
            if frame.get("game_id") == self.game_id and (frame.get("version") or 0) > (self.version or 0):
                await self.send({"type": "sync"})
        elif isinstance(frame.get("version"), int) and frame.get("game_id") == self.game_id:
            if frame["version"] == self.version + 1:
                self.version = frame["version"]
                if kind == "move":
                    self.moves.append(frame["square"])
                elif kind == "game_over":
                    self.status, self.termination = frame["status"], frame["termination"]
            elif frame["version"] > self.version + 1:
                await self.send({"type": "sync"})
        self.changed.set()

    async def send(self, frame: dict) -> None:
        try:
            await self.ws.send(json.dumps(frame))
        except (websockets.exceptions.ConnectionClosed, OSError):
            pass

    async def move(self, square: str, ply: int, move_id: str | None = None) -> str:
        move_id = move_id or str(uuid.uuid4())
        await self.send({"type": "move", "square": square, "ply": ply, "id": move_id})
        return move_id

    async def until(self, predicate, timeout: float) -> float:
        """Wait until `predicate(self)` holds; the monotonic time it did. Raises TimeoutError."""
        deadline = time.monotonic() + timeout
        while not predicate(self):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.url}: version {self.version}, moves {self.moves}, status {self.status}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return time.monotonic()

    async def close(self) -> None:
        self.reconnect = False
        if self.task is not None:
            self.task.cancel()
        if self.ws is not None:
            await self.ws.close()
