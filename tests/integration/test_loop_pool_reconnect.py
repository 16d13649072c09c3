"""The event loop's pool of PostgreSQL connections lends one again soon after PostgreSQL is back
from a long outage (an attacker's run: after repeated kills of PostgreSQL one web process's moves
stalled and its sockets got `server_error` for a minute, while the server had been back for 60 s).

PostgreSQL is reached through a local TCP relay of this test: while the relay does not listen the
server is "down" (connections refused, as after a kill); then it listens and forwards to the real
server. Moves keep arriving meanwhile (a `getconn` a second, as moves would), and the first one
after the relay listens must get a connection within RECOVERY_S.
"""

from __future__ import annotations

import asyncio
import socket
import time

import psycopg_pool
import pytest

pytestmark = pytest.mark.django_db(transaction=True)

#: How long PostgreSQL is unreachable. With psycopg_pool's default retries (1, 2, 4, 8, 16 s after
#: the first) a pending attempt after a 16-s outage comes 15 s after the server is back.
OUTAGE_S = 16.0
#: The most a move may wait for a connection once the server is back (issue 27 asks moves to
#: resume within 3 s of PostgreSQL's restart; the slack is for a loaded machine).
RECOVERY_S = 8.0
#: A move's wait for a connection in this test (the site waits LOOP_POOL_TIMEOUT_S).
MOVE_WAIT_S = 1.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _relay(port: int, target: tuple[str, int]) -> asyncio.base_events.Server:
    """A TCP relay from 127.0.0.1:`port` to `target`, both ways."""

    async def pipe(reader, writer):
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(reader, writer):
        up_reader, up_writer = await asyncio.open_connection(*target)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    return await asyncio.start_server(handle, "127.0.0.1", port)


@pytest.mark.asyncio
async def test_moves_get_a_connection_soon_after_postgresql_returns_from_a_long_outage(monkeypatch):
    from caro.games.services import lean

    wrapper = lean.loop_wrapper()
    real = wrapper.get_connection_params()
    target = (real.get("host") or "127.0.0.1", int(real.get("port") or 5432))
    port = _free_port()  # nothing listens: PostgreSQL is down
    monkeypatch.setattr(wrapper, "get_connection_params", lambda: {**real, "host": "127.0.0.1", "port": port})
    relay = None
    try:
        pool = await lean.loop_pool()
        down_until = time.monotonic() + OUTAGE_S
        while time.monotonic() < down_until:  # moves keep coming, and fail
            with pytest.raises(psycopg_pool.PoolTimeout):
                await pool.getconn(timeout=min(MOVE_WAIT_S, max(0.05, down_until - time.monotonic())))
        relay = await _relay(port, target)
        back = time.monotonic()
        while True:
            try:
                conn = await pool.getconn(timeout=MOVE_WAIT_S)
                break
            except psycopg_pool.PoolTimeout:
                assert time.monotonic() - back < RECOVERY_S, "no connection after PostgreSQL came back"
        waited = time.monotonic() - back
        async with conn.cursor() as cursor:
            await cursor.execute("SELECT 1")
            assert await cursor.fetchone() == (1,)
        await pool.putconn(conn)
        assert waited < RECOVERY_S
    finally:
        await lean.close_loop_pool()
        if relay is not None:
            relay.close()
