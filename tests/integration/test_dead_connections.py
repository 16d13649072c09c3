"""Connections PostgreSQL dropped (a restart, a failover, an idle kill) cost no player a refused
move or a 500: the event loop's move retries on a fresh connection, and Django's pool tests a
connection before lending it (CONN_HEALTH_CHECKS)."""

import time
import uuid

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from caro.games import services
from caro.games.models import Game, Move
from tests.integration.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def _terminate(pids: list[int]) -> None:
    """End these PostgreSQL backends, as a restart would, from a connection of no pool."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as raw:
        for pid in pids:
            assert raw.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()[0]
        deadline = time.monotonic() + 60  # the backends exit on their own after the signal
        while raw.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [pids]).fetchone()[0]:
            assert time.monotonic() < deadline, "the terminated backends did not exit"
            time.sleep(0.05)


@pytest.mark.asyncio
async def test_a_move_on_the_loop_after_postgresql_dropped_its_connection_is_played():
    from caro.games.services import lean

    game, x, o = await sync_to_async(started_game)()
    try:
        assert await services.play_move_on_loop(game.pk, x, "H8", 1, uuid.uuid4()) is not None
        pool = await lean.loop_pool()
        idle = [await pool.getconn() for _ in range(pool.get_stats()["pool_available"])]
        pids = [conn.info.backend_pid for conn in idle]
        for conn in idle:
            await pool.putconn(conn)
        await sync_to_async(_terminate)(pids)
        result = await services.play_move_on_loop(game.pk, o, "H9", 2, uuid.uuid4())
        assert result is not None and result.move.ply == 2
        stored = await sync_to_async(lambda: list(Move.objects.filter(game=game).values_list("ply", "square")))()
        assert stored == [(1, "H8"), (2, "H9")]
    finally:
        await lean.close_loop_pool()


def test_a_query_after_postgresql_dropped_the_pools_connections_gets_a_live_one(client):
    game, x, o = started_game()
    connection.close()  # back to Django's pool
    pool = connection.pool
    idle = [pool.getconn() for _ in range(pool.get_stats()["pool_available"])]
    pids = [conn.info.backend_pid for conn in idle]
    for conn in idle:
        pool.putconn(conn)
    _terminate(pids)
    assert Game.objects.filter(pk=game.pk).exists()  # a dead connection lent would raise here
    assert client.get("/").status_code == 200
