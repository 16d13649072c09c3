"""The event loop's pool of PostgreSQL connections (caro.games.services.lean.loop_pool) hands out
the connection the last move gave back, not the least recently used one: consecutive moves reuse
one warm backend instead of cycling through every connection the pool opened (issue 27,
PostgreSQL's CPU per move; bench/pg_move.py's layout `wake_at 10 conns` measures the difference)."""

import uuid

import pytest
from asgiref.sync import sync_to_async

from caro.games import services
from tests.integration.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_the_loop_pool_hands_out_the_most_recently_returned_connection():
    from caro.games.services import lean

    try:
        pool = await lean.loop_pool()
        held = [await pool.getconn() for _ in range(3)]  # the pool opens more as they are taken
        for conn in held:
            await pool.putconn(conn)
        again = await pool.getconn()
        assert again is held[-1]  # the last one given back, not the first (psycopg_pool's own order)
        await pool.putconn(again)
        assert await pool.getconn() is again
        await pool.putconn(again)
    finally:
        await lean.close_loop_pool()


@pytest.mark.asyncio
async def test_consecutive_moves_on_the_loop_use_one_backend():
    from caro.games.services import lean

    game, x, o = await sync_to_async(started_game)()
    try:
        pool = await lean.loop_pool()
        spare = [await pool.getconn() for _ in range(3)]  # three idle connections besides
        for conn in spare:
            await pool.putconn(conn)
        seen = set()
        for ply, (player, square) in enumerate([(x, "H8"), (o, "H9"), (x, "I8"), (o, "I9")], start=1):
            assert await services.play_move_on_loop(game.pk, player, square, ply, uuid.uuid4()) is not None
            conn = await pool.getconn()  # the one the move just gave back
            seen.add(conn.info.backend_pid)
            await pool.putconn(conn)
        assert len(seen) == 1
    finally:
        await lean.close_loop_pool()
