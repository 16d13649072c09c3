"""The bench's floor relay (bench/floor_relay.py, the Channels-on-Daphne floor of `bench/ws_relay.py
--floor`, issue 17) really relays and stores in each variant: real Daphne (or uvicorn) subprocesses,
the real PostgreSQL and Redis. A move from X reaches O and a spectator and is one row; refused
frames change nothing. With a Redis channel layer, X sits on one process and O and the spectator on
another, so the move can only arrive through the layer. No timing is asserted (that is the bench's job)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import secrets

import psycopg
import pytest
import websockets

from tests.conftest import ROOT, _test_database_url

pytestmark = [pytest.mark.django_db(transaction=True)]
WAIT_S = 30
"""Generous: a loaded 2-core machine."""


def _floor_relay_module():
    spec = importlib.util.spec_from_file_location("floor_relay", ROOT / "bench" / "floor_relay.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _frame(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))


async def _rows(dsn: str, schema: str) -> list[tuple]:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        cursor = await conn.execute(f"SELECT game, ply, square, side FROM {schema}.move ORDER BY ply")
        return await cursor.fetchall()


async def _schema_exists(dsn: str, schema: str) -> bool:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        cursor = await conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname = %s", (schema,))
        return (await cursor.fetchone())[0] == 1


VARIANTS = ["daphne-local", "daphne-redis", "daphne-pubsub", "daphne-local-nohop", "daphne-localfirst-nohop-uvloop"]
if importlib.util.find_spec("uvicorn") is not None:  # the optional `bench` extra
    VARIANTS.append("uvicorn-redis")


@pytest.mark.asyncio
@pytest.mark.parametrize("variant", VARIANTS)
async def test_a_move_reaches_the_opponent_and_the_spectator_and_is_stored_once(variant, tmp_path, settings):
    floor = _floor_relay_module()
    dsn = _test_database_url()
    schema = f"floor_test_{secrets.token_hex(4)}"
    across = floor.parse_variant(variant)["layer"] != "local"  # two processes: only the layer connects them
    sockets = []
    with contextlib.ExitStack() as stack:
        ports = [stack.enter_context(floor.floor_relay_process(
            variant, dsn, settings.REDIS_URL, tmp_path / f"floor{i}.log", schema=schema, keep=i > 0))[1]
            for i in range(2 if across else 1)]
        bases = [f"ws://127.0.0.1:{port}/ws/room/ABC123/" for port in ports]
        try:
            for base, query in ((bases[0], "?side=X"), (bases[-1], "?side=O"), (bases[-1], "")):
                sockets.append(await websockets.connect(base + query, open_timeout=WAIT_S))
                assert await _frame(sockets[-1]) == {"type": "state", "ply": 0}
            x, o, watcher = sockets

            await o.send(json.dumps({"type": "move", "square": "H8", "ply": 1, "id": "early"}))  # X plays first
            assert await _frame(o) == {"type": "error", "code": "not_your_turn"}
            await x.send("not json")
            assert await _frame(x) == {"type": "error", "code": "bad_frame"}
            await watcher.send(json.dumps({"type": "move", "square": "H8", "ply": 1, "id": "w"}))
            assert await _frame(watcher) == {"type": "error", "code": "spectator"}

            await x.send(json.dumps({"type": "move", "square": "H8", "ply": 1, "id": "m1"}))
            expected = {"type": "move", "side": "X", "square": "H8", "ply": 1, "id": "m1"}
            for ws in (o, watcher, x):
                assert await _frame(ws) == expected
            await o.send(json.dumps({"type": "move", "square": "I9", "ply": 1, "id": "again"}))  # ply 1 is taken
            assert await _frame(o) == {"type": "error", "code": "bad_ply"}
            await o.send(json.dumps({"type": "move", "square": "I9", "ply": 2, "id": "m2"}))
            assert await _frame(x) == {"type": "move", "side": "O", "square": "I9", "ply": 2, "id": "m2"}
            assert await _frame(watcher) == {"type": "move", "side": "O", "square": "I9", "ply": 2, "id": "m2"}

            assert await _rows(dsn, schema) == [("ABC123", 1, "H8", "X"), ("ABC123", 2, "I9", "O")]
        finally:
            for ws in sockets:
                await ws.close()
    assert not await _schema_exists(dsn, schema)  # the first process dropped it when it stopped


@pytest.mark.asyncio
async def test_a_nodb_variant_relays_without_storing(tmp_path, settings):
    floor = _floor_relay_module()
    dsn = _test_database_url()
    schema = f"floor_test_{secrets.token_hex(4)}"
    with floor.floor_relay_process("daphne-local-nodb", dsn, None, tmp_path / "floor.log", schema=schema,
                                   keep=True) as (_pid, port):
        base = f"ws://127.0.0.1:{port}/ws/room/NODB1/"
        x = await websockets.connect(base + "?side=X", open_timeout=WAIT_S)
        o = await websockets.connect(base + "?side=O", open_timeout=WAIT_S)
        try:
            for ws in (x, o):
                assert await _frame(ws) == {"type": "state", "ply": 0}
            await x.send(json.dumps({"type": "move", "square": "A1", "ply": 1, "id": "m1"}))
            assert await _frame(o) == {"type": "move", "side": "X", "square": "A1", "ply": 1, "id": "m1"}
            assert await _rows(dsn, schema) == []
        finally:
            await x.close()
            await o.close()
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_an_unknown_variant_is_refused():
    floor = _floor_relay_module()
    for name in ("daphne", "daphne-memory", "gunicorn-local", "daphne-redis-fast"):
        with pytest.raises(ValueError):
            floor.parse_variant(name)
    assert floor.parse_variant("uvicorn-pubsub-nohop-nodb") == {
        "server": "uvicorn", "layer": "pubsub", "hop": False, "db": False, "uvloop": False}
    assert floor.parse_variant("daphne-localfirst-nohop-uvloop")["uvloop"]
