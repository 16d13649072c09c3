"""The site's PostgreSQL database backend (settings.DATABASES ENGINE "caro.postgres"): Django's own,
with a pool of connections (psycopg_pool's `ConnectionPool`, OPTIONS["pool"]) that gets back on
its feet after PostgreSQL was away: a request that waits for a connection gets one about a second
after PostgreSQL is back, not its pool timeout's 503. `base.DatabaseWrapper` is the backend; this
module (imported by the settings, so without Django) holds the pool's callbacks.

psycopg_pool (3.3) alone leaves two holes that an outage of a few seconds falls into:

- **Nobody tries again for a waiting request.** A request with no idle connection waits in the pool's
  queue and asks for ONE connection attempt; that attempt retries on its own schedule (1, 2 ... s)
  and gives up after `reconnect_timeout`. Nothing starts another for a request already waiting, so
  one that arrived during the outage waited out its whole `timeout` (a 503) while PostgreSQL had
  been back for seconds. `reconnect_failed` (an option of the pool, called when an attempt gives
  up) starts a fresh one at once while a request waits.
- **Every idle connection is dead after a restart, and a request tries them one by one.** A request
  lent a connection that fails its check takes the next one at once, then after 1, 2, 4 ... s
  (psycopg_pool's backoff): with five or more idle connections from before the restart it ran
  out its 10-s `timeout` on dead connections alone. `check_connection` (the pool's check, which
  `base.DatabaseWrapper` puts in place of the plain one Django gives it) tests every other idle
  connection the moment one fails (`ConnectionPool.check()`: the dead ones are replaced by new
  attempts), so the request's next try, a moment later, gets a live one.
"""

from __future__ import annotations

import logging
import threading

from psycopg_pool import ConnectionPool

log = logging.getLogger(__name__)


def check_connection(conn) -> None:
    """The pool's `check`: test `conn` before it is lent (one empty round trip, as Django's
    CONN_HEALTH_CHECKS does). When it fails, PostgreSQL most likely dropped every connection
    (a restart, a failover): the pool's idle ones are all tested at once (`ConnectionPool.check()`,
    in a thread of its own: a request never waits for more than its own connection's test, even
    where a dead server's packets are lost and a test waits for TCP to give up), and the dead
    are replaced. Raises what the failed check raised (the pool then discards `conn` and lends
    another)."""
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        pool = getattr(conn, "_pool", None)  # psycopg_pool marks a lent connection with its pool
        if isinstance(pool, ConnectionPool):
            log.info("database pool: a connection failed its check; testing the idle ones")
            threading.Thread(target=pool.check, name="caro-db-pool-check", daemon=True).start()
        raise


def reconnect_failed(pool: ConnectionPool) -> None:
    """The pool's `reconnect_failed`: a connection attempt gave up (after `reconnect_timeout`).
    While a request waits for a connection, start a new attempt now (`check()` grows the pool
    when it has room and no attempt is running); otherwise nothing (the next request starts one).
    """
    if pool.get_stats().get("requests_waiting"):
        pool.check()
