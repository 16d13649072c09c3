"""The floor relay: the least any Channels app on Daphne can do per move (issue 17), to tell the cost
of the mandated stack (Daphne, Channels, channels_redis, PostgreSQL) from the cost of the site's code.

The same wire protocol, storage and checks as the bare relay (bench/bare_relay.py, whose docstring
gives the frames): `/ws/room/<code>/?side=X|O` (no side: a spectator), a `state` frame on connect,
`move` frames relayed to every socket of the room after one autocommit INSERT into
`<schema>.move` through an async psycopg pool of at most 10 connections, the same error codes. But
the socket is a Channels `AsyncWebsocketConsumer` served by Daphne (or uvicorn), with Django set up
from bench/floor_settings.py: no ORM, no sessions, no auth, no middleware, no origin check.

A variant is SERVER-LAYER[-nohop][-nodb]:
    SERVER  daphne | uvicorn (uvicorn: the optional `bench` extra of pyproject.toml)
    LAYER   local  (no channel layer: the room's consumers are in this process and the sender calls
                    their `send` directly)
            redis  (group_send through channels_redis' core RedisChannelLayer; every consumer of the
                    room gets the move from its own channel)
            pubsub (the same through channels_redis.pubsub.RedisPubSubChannelLayer)
            localfirst (the same through the site's layer, caro.layers.LocalFirstChannelLayer:
                    in-process members first, Redis only for other processes)
    nohop   skip the `aclose_old_connections()` that Channels' `AsyncConsumer.dispatch` runs before
            every handler (a `sync_to_async` thread hop per frame and per group message, done even
            with no database configured)
    nodb    no INSERT (the move is relayed without being stored)
    uvloop  Daphne's reactor on uvloop (as the site's web process, caro/webserver.py)
e.g. `daphne-local`, `daphne-redis`, `daphne-pubsub`, `uvicorn-redis`, `daphne-local-nohop`, and the
floor under the site's own choices: `daphne-localfirst-nohop-uvloop`.
A move refused by the table's UNIQUE (game, ply) (two processes racing for one ply) is `bad_ply`.

    .venv/bin/python bench/floor_relay.py --variant daphne-redis --database-url postgres://... \
        --redis-url redis://... --port PORT [--schema floor_relay] [--keep]

creates the schema and its table, prints `listening PORT` once it serves, and on SIGTERM or SIGINT
stops and drops the schema (unless `--keep`). `floor_relay_process()` runs it as a subprocess
(bench/ws_relay.py --floor, tests/integration/test_floor_relay.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVERS = ("daphne", "uvicorn")
LAYERS = ("local", "redis", "pubsub", "localfirst")
FLAGS = ("nohop", "nodb", "uvloop")
SIDES = ("X", "O")
POOL_MIN_SIZE = 2
POOL_MAX_SIZE = 10
"""Connections of the pool: as the bare relay's (bench/bare_relay.py)."""
MAX_FRAME_BYTES = 4096
"""Frames larger than this close the socket (the load client's are under 200 bytes)."""
START_TIMEOUT_S = 120
"""How long `floor_relay_process` waits for `listening` (a loaded 2-core machine imports slowly)."""


def parse_variant(name: str) -> dict:
    """`daphne-redis-nohop` -> {"server": "daphne", "layer": "redis", "hop": False, "db": True}.

    Raises ValueError for an unknown server, layer or flag."""
    server, layer, *flags = name.split("-") if "-" in name else (name, "")
    if server not in SERVERS or layer not in LAYERS or any(f not in FLAGS for f in flags):
        raise ValueError(f"a variant is SERVER-LAYER[-nohop][-nodb] with SERVER in {SERVERS} and LAYER in "
                         f"{LAYERS}, not {name!r}")
    return {"server": server, "layer": layer, "hop": "nohop" not in flags, "db": "nodb" not in flags,
            "uvloop": "uvloop" in flags}


def schema_sql(schema: str) -> tuple[str, str]:
    """(CREATE, DROP) statements of the relay's schema and table (the bare relay's table)."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
        raise ValueError(f"schema must be a plain lower-case identifier, not {schema!r}")
    return (f"CREATE SCHEMA IF NOT EXISTS {schema}; CREATE TABLE IF NOT EXISTS {schema}.move "
            "(id bigserial PRIMARY KEY, game text NOT NULL, ply integer NOT NULL, square text NOT NULL, "
            "side char(1) NOT NULL, played_at timestamptz NOT NULL DEFAULT now(), UNIQUE (game, ply))",
            f"DROP SCHEMA IF EXISTS {schema} CASCADE")


# ---------------------------------------------------------------------------------------------- the app
# Built by `build_application()` once Django is set up (it reads bench/floor_settings.py).


def build_application(variant: str, dsn: str, schema: str, pool_max_size: int = POOL_MAX_SIZE):
    """The ASGI application of `variant` (Django must be set up with bench/floor_settings.py first):
    only a websocket route, `/ws/room/<code>/`, to the floor's consumer."""
    from channels.consumer import get_handler_name
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import re_path
    from psycopg import errors
    from psycopg_pool import AsyncConnectionPool

    spec = parse_variant(variant)
    pool = AsyncConnectionPool(dsn, min_size=min(POOL_MIN_SIZE, pool_max_size), max_size=pool_max_size,
                               kwargs={"autocommit": True}, open=False)
    insert = f"INSERT INTO {schema}.move (game, ply, square, side) VALUES (%s, %s, %s, %s)"
    opening = asyncio.Lock()
    rooms: dict[str, Room] = {}

    class Room:
        """This process's sockets of one room and the last ply relayed in it."""

        __slots__ = ("consumers", "ply")

        def __init__(self) -> None:
            self.consumers: set = set()
            self.ply = 0

    class FloorConsumer(AsyncWebsocketConsumer):
        """One socket: the bare relay's checks, one INSERT, then the move to every socket of the room
        (directly with no channel layer, else by `group_send` to the room's group)."""

        room: Room | None = None

        async def connect(self) -> None:
            self.code = self.scope["url_route"]["kwargs"]["code"]
            self.side = urllib.parse.parse_qs(self.scope["query_string"].decode()).get("side", [""])[0]
            if self.side not in ("", *SIDES):
                await self.close(4404)
                return
            if spec["db"] and pool.closed:
                async with opening:
                    if pool.closed:
                        await pool.open(wait=True, timeout=60)
            self.group = f"room.{self.code}"
            if self.channel_layer is not None:
                await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()
            self.room = rooms.setdefault(self.code, Room())
            self.room.consumers.add(self)
            await self.send(text_data=json.dumps({"type": "state", "ply": self.room.ply}))

        async def disconnect(self, code) -> None:
            room = self.room
            if room is None:
                return
            room.consumers.discard(self)
            if not room.consumers and rooms.get(self.code) is room:
                del rooms[self.code]
            if self.channel_layer is not None:
                await self.channel_layer.group_discard(self.group, self.channel_name)

        async def refuse(self, code: str) -> None:
            await self.send(text_data=json.dumps({"type": "error", "code": code}))

        async def receive(self, text_data=None, bytes_data=None) -> None:
            try:
                frame = json.loads(text_data if text_data is not None else bytes_data)
                kind, square, ply, move_id = frame["type"], frame["square"], frame["ply"], frame.get("id")
                valid = (kind == "move" and isinstance(square, str) and 0 < len(square) <= 4
                         and isinstance(ply, int) and not isinstance(ply, bool))
            except (ValueError, TypeError, KeyError):
                valid = False
            room, side = self.room, self.side
            if not valid:
                return await self.refuse("bad_frame")
            if not side:
                return await self.refuse("spectator")
            if ply != room.ply + 1:
                return await self.refuse("bad_ply")
            if SIDES[(ply - 1) % 2] != side:
                return await self.refuse("not_your_turn")
            room.ply = ply  # taken before the await: a second frame for the same ply is refused meanwhile
            if spec["db"]:
                try:
                    async with pool.connection() as conn:
                        await conn.execute(insert, (self.code, ply, square, side))
                except errors.UniqueViolation:  # another process stored this ply first
                    return await self.refuse("bad_ply")
                except Exception:  # noqa: BLE001 - any failure to store refuses the move and keeps the socket
                    room.ply = ply - 1
                    return await self.refuse("storage")
            text = json.dumps({"type": "move", "side": side, "square": square, "ply": ply, "id": move_id})
            if self.channel_layer is None:
                for consumer in list(room.consumers):
                    await consumer.send(text_data=text)
            else:
                await self.channel_layer.group_send(self.group, {"type": "relay.move", "text": text, "ply": ply})

        async def relay_move(self, event: dict) -> None:
            """A move of the room from the channel layer (any process): to this socket."""
            if self.room is not None:
                self.room.ply = max(self.room.ply, event["ply"])
            await self.send(text_data=event["text"])

    class NoHopConsumer(FloorConsumer):
        """The same without Channels' per-message `aclose_old_connections()` thread hop."""

        async def dispatch(self, message) -> None:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            await handler(message)

    consumer = FloorConsumer if spec["hop"] else NoHopConsumer
    return ProtocolTypeRouter({"websocket": URLRouter([
        re_path(r"^ws/room/(?P<code>[A-Za-z0-9_-]{1,64})/$", consumer.as_asgi()),
    ])})


# ---------------------------------------------------------------------------------------------- serving


def serve(args) -> None:
    """Set Django up for the variant, create the schema, serve until SIGTERM/SIGINT, drop the schema."""
    import psycopg

    spec = parse_variant(args.variant)
    if spec["uvloop"]:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    if spec["server"] == "daphne":
        import daphne.server  # noqa: F401 - installs Twisted's asyncio reactor before anything else imports one
    os.environ["FLOOR_LAYER"] = spec["layer"]
    os.environ["FLOOR_REDIS_URL"] = args.redis_url or ""
    os.environ["DJANGO_SETTINGS_MODULE"] = "floor_settings"
    sys.path.insert(0, str(HERE))
    sys.path.insert(1, str(HERE.parent))  # caro.layers for the localfirst layer
    import django

    django.setup()
    create, drop = schema_sql(args.schema)
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        conn.execute(create)
    app = build_application(args.variant, args.database_url, args.schema, args.pool_max_size)
    ready = f"listening {args.port}"
    try:
        if spec["server"] == "daphne":
            from daphne.server import Server

            Server(application=app, endpoints=[f"tcp:port={args.port}:interface={args.host}"],
                   websocket_max_message_size=MAX_FRAME_BYTES, websocket_max_frame_size=MAX_FRAME_BYTES,
                   ready_callable=lambda: print(ready, flush=True)).run()
        else:
            import uvicorn

            server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, loop="asyncio", http="h11",
                                                   ws="websockets-sansio", lifespan="off", log_level="warning",
                                                   access_log=False, ws_max_size=MAX_FRAME_BYTES))

            async def run() -> None:
                task = asyncio.create_task(server.serve())
                while not server.started and not task.done():
                    await asyncio.sleep(0.05)
                if server.started:
                    print(ready, flush=True)
                await task

            # uvicorn re-raises the SIGTERM it caught once it has shut down: end this way instead of
            # dying of it, so the schema below is still dropped.
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            asyncio.run(run())
    finally:
        if not args.keep:
            with psycopg.connect(args.database_url, autocommit=True) as conn:
                conn.execute(drop)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def floor_relay_process(variant: str, database_url: str, redis_url: str | None, log: Path, *,
                        schema: str | None = None, keep: bool = False):
    """Run the floor relay `variant` (a subprocess in a process group of its own, stderr to `log`) on
    `database_url` and `redis_url`; yield (pid, port) once it serves; stop it at the end (it drops
    its schema unless `keep`). Raises RuntimeError if it does not start."""
    parse_variant(variant)
    port = free_port()
    argv = [sys.executable, str(HERE / "floor_relay.py"), "--variant", variant, "--database-url", database_url,
            "--port", str(port), "--schema", schema or f"floor_relay_{secrets.token_hex(4)}"]
    if redis_url:
        argv += ["--redis-url", redis_url]
    if keep:
        argv.append("--keep")
    with open(log, "ab") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, start_new_session=True, text=True)
    try:
        line = proc.stdout.readline()  # "listening PORT", or "" if it died
        if not line.startswith("listening "):
            raise RuntimeError(f"the floor relay {variant} did not start; see {log}")
        yield proc.pid, port
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        proc.stdout.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", required=True, help="SERVER-LAYER[-nohop][-nodb], e.g. daphne-redis")
    parser.add_argument("--database-url", required=True, help="PostgreSQL URL (the site's own database is fine)")
    parser.add_argument("--redis-url", help="Redis URL of the channel layer (LAYER redis or pubsub)")
    parser.add_argument("--schema", default="floor_relay", help="schema of its `move` table (dropped at the end)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pool-max-size", type=int, default=POOL_MAX_SIZE)
    parser.add_argument("--keep", action="store_true", help="keep the schema and its rows at the end")
    args = parser.parse_args()
    try:
        spec = parse_variant(args.variant)
    except ValueError as error:
        parser.error(str(error))
    if spec["layer"] != "local" and not args.redis_url:
        parser.error(f"--redis-url is needed by {args.variant}")
    serve(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
