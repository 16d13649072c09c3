"""A bare websocket relay: the floor that the site's move path is measured against (issue 17).

Plain `websockets` (its asyncio server) and one INSERT per move into PostgreSQL through a psycopg 3
connection pool; no framework, no channel layer, no sessions. `bench/ws_relay.py --bare` starts it as a
subprocess beside the site and plays the same load against both.

Its socket speaks the part of the site's room protocol (docs/protocol.md) that the load client uses:

    connect   ws://HOST:PORT/ws/room/<code>/?side=X   (or O; without `side` the socket is a spectator)
    server -> {"type": "state", "ply": n}                      n = plies played in that room so far
    client -> {"type": "move", "square": "H8", "ply": n, "id": "<client id>"}
    server -> every socket of the room, after the INSERT committed:
              {"type": "move", "side": "X", "square": "H8", "ply": n, "id": "<client id>"}
    server -> the sender only, on a refused frame: {"type": "error", "code": CODE}
              CODE: "bad_frame" (not JSON / wrong fields), "spectator" (no side), "not_your_turn"
              (X plays the odd plies), "bad_ply" (not the next ply), "storage" (the INSERT failed)

A move is one row of `<schema>.move` (game code, ply, square, side, time), unique per (game, ply), in
the schema given (created at start, dropped at stop unless asked to keep it). No rules are checked:
it is a relay, not a game.

    .venv/bin/python bench/bare_relay.py --database-url postgres://... [--port 0] [--schema bare_relay]

prints `listening PORT` once it serves, and stops (dropping its schema) on SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import sys
import urllib.parse

from psycopg import sql
from psycopg_pool import AsyncConnectionPool
from websockets.asyncio.server import ServerConnection, broadcast, serve

PATH = re.compile(r"^/ws/room/(?P<code>[A-Za-z0-9_-]{1,64})/$")
"""A room socket's path, as the site's (`/ws/room/<code>/`)."""
SIDES = ("X", "O")
POOL_MIN_SIZE = 2
POOL_MAX_SIZE = 10
"""Connections of the pool: the site's pool allows 20 per process; 10 keeps the floor honest."""
MAX_FRAME_BYTES = 4096
"""Frames larger than this close the socket (the load client's are under 200 bytes)."""


class Room:
    """The sockets of one room and the last ply relayed in it."""

    __slots__ = ("sockets", "ply")

    def __init__(self) -> None:
        self.sockets: set[ServerConnection] = set()
        self.ply = 0


class BareRelay:
    """The relay: `await start()` (pool, schema, listening socket), `await stop()`.

    `dsn`: a PostgreSQL URL. `schema`: the schema its table lives in (a plain identifier).
    `port` 0 picks a free port; `self.port` is the one bound after `start()`.
    """

    def __init__(self, dsn: str, *, schema: str = "bare_relay", host: str = "127.0.0.1", port: int = 0,
                 pool_max_size: int = POOL_MAX_SIZE) -> None:
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
            raise ValueError(f"schema must be a plain lower-case identifier, not {schema!r}")
        self.dsn, self.schema, self.host, self.port = dsn, schema, host, port
        self.pool = AsyncConnectionPool(dsn, min_size=min(POOL_MIN_SIZE, pool_max_size), max_size=pool_max_size,
                                        kwargs={"autocommit": True}, open=False)
        self.rooms: dict[str, Room] = {}
        self.server = None
        self._insert = sql.SQL("INSERT INTO {}.move (game, ply, square, side) VALUES (%s, %s, %s, %s)").format(
            sql.Identifier(schema))

    async def start(self) -> None:
        """Open the pool, create the schema and its table, and start listening."""
        await self.pool.open(wait=True, timeout=60)
        async with self.pool.connection() as conn:
            await conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
            await conn.execute(sql.SQL(
                "CREATE TABLE IF NOT EXISTS {}.move (id bigserial PRIMARY KEY, game text NOT NULL, "
                "ply integer NOT NULL, square text NOT NULL, side char(1) NOT NULL, "
                "played_at timestamptz NOT NULL DEFAULT now(), UNIQUE (game, ply))").format(sql.Identifier(self.schema)))
        self.server = await serve(self.handle, self.host, self.port, max_size=MAX_FRAME_BYTES, max_queue=None)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self, *, drop: bool = True) -> None:
        """Close every socket and the listening one, drop the schema (unless `drop` is false), close the pool."""
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if drop:
            async with self.pool.connection() as conn:
                await conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema)))
        await self.pool.close()

    async def handle(self, ws: ServerConnection) -> None:
        """One socket: join its room, send the state frame, then relay its move frames until it closes."""
        url = urllib.parse.urlsplit(ws.request.path)
        match = PATH.match(url.path)
        side = urllib.parse.parse_qs(url.query).get("side", [""])[0]
        if not match or side not in ("", *SIDES):
            await ws.close(4404, "no such room socket")
            return
        code = match["code"]
        room = self.rooms.setdefault(code, Room())
        room.sockets.add(ws)
        try:
            await ws.send(json.dumps({"type": "state", "ply": room.ply}))
            async for raw in ws:
                await self.on_frame(ws, code, room, side, raw)
        finally:
            room.sockets.discard(ws)
            if not room.sockets and self.rooms.get(code) is room:
                del self.rooms[code]

    async def on_frame(self, ws: ServerConnection, code: str, room: Room, side: str, raw: str | bytes) -> None:
        """Check one frame, store the move (one INSERT, autocommit) and send it to every socket of the room."""
        try:
            frame = json.loads(raw)
            kind, square, ply, move_id = frame["type"], frame["square"], frame["ply"], frame.get("id")
            valid = (kind == "move" and isinstance(square, str) and 0 < len(square) <= 4
                     and isinstance(ply, int) and not isinstance(ply, bool))
        except (ValueError, TypeError, KeyError):
            valid = False
        if not valid:
            await ws.send(json.dumps({"type": "error", "code": "bad_frame"}))
            return
        if not side:
            await ws.send(json.dumps({"type": "error", "code": "spectator"}))
            return
        if ply != room.ply + 1:
            await ws.send(json.dumps({"type": "error", "code": "bad_ply"}))
            return
        if SIDES[(ply - 1) % 2] != side:
            await ws.send(json.dumps({"type": "error", "code": "not_your_turn"}))
            return
        room.ply = ply  # taken before the await: a second frame for the same ply is refused meanwhile
        try:
            async with self.pool.connection() as conn:
                await conn.execute(self._insert, (code, ply, square, side))
        except Exception:  # noqa: BLE001 - any failure to store refuses the move and keeps the socket
            room.ply = ply - 1
            await ws.send(json.dumps({"type": "error", "code": "storage"}))
            return
        broadcast(room.sockets, json.dumps({"type": "move", "side": side, "square": square, "ply": ply, "id": move_id}))


async def serve_until_signalled(args) -> None:
    relay = BareRelay(args.database_url, schema=args.schema, host=args.host, port=args.port,
                      pool_max_size=args.pool_max_size)
    await relay.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    print(f"listening {relay.port}", flush=True)
    await stop.wait()
    await relay.stop(drop=not args.keep)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True, help="PostgreSQL URL (the site's own database is fine)")
    parser.add_argument("--schema", default="bare_relay", help="schema of its `move` table (dropped at the end)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: a free port (printed)")
    parser.add_argument("--pool-max-size", type=int, default=POOL_MAX_SIZE)
    parser.add_argument("--keep", action="store_true", help="keep the schema and its rows at the end")
    asyncio.run(serve_until_signalled(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
