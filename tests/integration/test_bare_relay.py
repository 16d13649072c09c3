"""The bench's bare relay (bench/bare_relay.py, the floor of `bench/ws_relay.py --bare`, issue 17)
really relays and stores: a move from X reaches O and a spectator, and is one row in the real
PostgreSQL; refused frames change nothing. No timing is asserted (timing is the bench's job)."""

from __future__ import annotations

import asyncio
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


def _bare_relay_module():
    spec = importlib.util.spec_from_file_location("bare_relay", ROOT / "bench" / "bare_relay.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _frame(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))


@pytest.mark.asyncio
async def test_a_move_reaches_the_opponent_and_the_spectator_and_is_stored_once():
    dsn = _test_database_url()
    schema = f"bare_test_{secrets.token_hex(4)}"
    relay = _bare_relay_module().BareRelay(dsn, schema=schema)
    await relay.start()
    base = f"ws://127.0.0.1:{relay.port}/ws/room/ABC123/"
    sockets = []
    try:
        for query in ("?side=X", "?side=O", ""):
            sockets.append(await websockets.connect(base + query, open_timeout=WAIT_S))
            assert await _frame(sockets[-1]) == {"type": "state", "ply": 0}
        x, o, watcher = sockets

        await o.send(json.dumps({"type": "move", "square": "H8", "ply": 1, "id": "early"}))  # X plays first
        assert await _frame(o) == {"type": "error", "code": "not_your_turn"}
        await x.send("not json")
        assert await _frame(x) == {"type": "error", "code": "bad_frame"}

        await x.send(json.dumps({"type": "move", "square": "H8", "ply": 1, "id": "m1"}))
        expected = {"type": "move", "side": "X", "square": "H8", "ply": 1, "id": "m1"}
        for ws in (o, watcher, x):
            assert await _frame(ws) == expected
        await o.send(json.dumps({"type": "move", "square": "I9", "ply": 1, "id": "again"}))  # ply 1 is taken
        assert await _frame(o) == {"type": "error", "code": "bad_ply"}
        await o.send(json.dumps({"type": "move", "square": "I9", "ply": 2, "id": "m2"}))
        assert await _frame(x) == {"type": "move", "side": "O", "square": "I9", "ply": 2, "id": "m2"}

        async with await psycopg.AsyncConnection.connect(dsn) as conn:
            cursor = await conn.execute(f"SELECT game, ply, square, side FROM {schema}.move ORDER BY ply")
            assert await cursor.fetchall() == [("ABC123", 1, "H8", "X"), ("ABC123", 2, "I9", "O")]
    finally:
        for ws in sockets:
            await ws.close()
        await relay.stop()
    async with await psycopg.AsyncConnection.connect(dsn) as conn:  # its schema is gone with it
        cursor = await conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname = %s", (schema,))
        assert (await cursor.fetchone())[0] == 0
