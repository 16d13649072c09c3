"""A person's move in two statements (issue 17: the lean move path).

The general path (`locking.player_action` under `transaction.atomic`) costs five round trips to
PostgreSQL: BEGIN (psycopg sends it on its own before the first statement), the row lock, the
INSERT of the move, the UPDATE of the game and COMMIT. A move that is neither the end of the game
nor anything but a plain move needs only two, each with the same SQL the ORM would send:

1. `BEGIN; SELECT <every column of the game> ... FOR UPDATE`: the transaction and the row lock;
2. `WITH new_move AS (INSERT <the move> RETURNING id) UPDATE <the game's changed columns> ...
   RETURNING (SELECT id FROM new_move); COMMIT`: the move, the game and the commit at once.

Both go through Django's connection (its cursor wrappers, error translation and query logging),
while Django itself stays in autocommit: the transaction is opened and closed by the statements,
so it exists only on the server and `transaction.on_commit` callbacks made after the commit run at
once. Anything that fails between the two statements rolls the transaction back (`rollback`).
A failing statement 2 (a reused move id) leaves nothing written either: PostgreSQL stops the
statement list at the error and the transaction is rolled back.

Used only outside any `transaction.atomic` block (a caller's transaction or a test's wrapping
one keeps the general path), on PostgreSQL.

`LoopTransaction` runs the same two statements on the event loop, through a pool of async psycopg
connections of the loop's own (`loop_pool`: Django's connection parameters and type adapters), so
a move on a web socket needs no thread at all (`services.play.play_move_on_loop`).
"""

from __future__ import annotations

import asyncio
import threading
import weakref

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.sql import InsertQuery, UpdateQuery
from psycopg_pool import AsyncConnectionPool

from caro.games.models import Game, Move


def usable(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the two-statement path may run now on connection `alias`: PostgreSQL, and no
    transaction of Django's open (the statements BEGIN and COMMIT themselves)."""
    connection = connections[alias]
    return connection.vendor == "postgresql" and not connection.in_atomic_block


class _Statements(threading.local):
    """The SQL of the two statements, compiled by the ORM once per thread (a thread's connection
    object is its own, and the compilers keep theirs): the lock's SELECT with its compiler (which
    converts the rows as the ORM does) and column names, and the UPDATE for each set of columns."""

    def __init__(self) -> None:
        self.lock: tuple | None = None
        self.insert: tuple[str, list] | None = None
        self.updates: dict[tuple[str, ...], tuple[str, list]] = {}


_statements = _Statements()


def _lock_statement(connection) -> tuple:
    if _statements.lock is None or _statements.lock[0] is not connection:
        compiler = Game.objects.filter(pk=0).query.get_compiler(connection=connection)
        sql, _params = compiler.as_sql()
        names = [column.target.attname for column, _sql, _alias in compiler.select]
        _statements.lock = (connection, f"BEGIN; {sql} FOR UPDATE", names, compiler)
    return _statements.lock


def begin_and_lock(game_id: int, alias: str = DEFAULT_DB_ALIAS) -> Game | None:
    """Statement 1: open a transaction and lock the row of game `game_id`; returns the game as the
    ORM would load it (every column, converted by its field), or None when there is no such game
    (the transaction is then still open: call `rollback`)."""
    connection = connections[alias]
    _connection, sql, _names, _compiler = _lock_statement(connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, (game_id,))
        cursor.nextset()  # the first result is the BEGIN's
        rows = cursor.fetchall()
    return _game_of(rows, connection)


def _game_of(rows: list, connection) -> Game | None:
    """The game of the lock's result rows, each column converted as the ORM converts it."""
    _connection, _sql, names, compiler = _lock_statement(connection)
    rows = list(compiler.results_iter(results=[rows]))
    return Game.from_db(connection.alias, names, rows[0]) if rows else None


def _insert_fields() -> list:
    return [f for f in Move._meta.local_concrete_fields if f is not Move._meta.auto_field]


def _write_statement(game: Game, move: Move, fields: tuple[str, ...], connection) -> str:
    """The SQL of statement 2 for an UPDATE of `fields`, compiled by the ORM on first use."""
    if _statements.insert is None or _statements.insert[1] is not connection:
        _statements.updates = {}
        insert = InsertQuery(Move)
        insert.insert_values(_insert_fields(), [move], raw=False)
        (insert_sql, _params), = insert.get_compiler(connection=connection).as_sql()
        _statements.insert = (insert_sql, connection)
    sql = _statements.updates.get(fields)
    if sql is None:
        update = UpdateQuery(Game)
        update.add_update_fields([(Game._meta.get_field(name), None, getattr(game, name)) for name in fields])
        update.add_filter("pk", game.pk)
        update_sql, _params = update.get_compiler(connection=connection).as_sql()
        pk = connection.ops.quote_name(Move._meta.pk.column)
        sql = _statements.updates[fields] = (
            f"WITH new_move AS ({_statements.insert[0]} RETURNING {pk}) {update_sql} "
            f"RETURNING (SELECT {pk} FROM new_move); COMMIT")
    return sql


def store_and_commit(game: Game, move: Move, fields: list[str], alias: str = DEFAULT_DB_ALIAS) -> None:
    """Statement 2: INSERT `move` (unsaved), UPDATE the `fields` (attribute names) of the locked
    `game`, and COMMIT, in one round trip; `move` gets its id. The values are prepared as the
    ORM's INSERT and UPDATE prepare them (`pre_save`, `get_db_prep_save`). Raises `IntegrityError`
    when the INSERT breaks a constraint (its `client_id` used before in this game): nothing is
    written and the transaction is still open (aborted), so call `rollback`."""
    sql, params = _write(game, move, fields, connections[alias])
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        (move.pk,) = cursor.fetchone()
    move._state.adding, move._state.db = False, alias


def _write(game: Game, move: Move, fields: list[str], connection) -> tuple[str, list]:
    """Statement 2 and its parameters, prepared as the ORM's INSERT and UPDATE prepare them."""
    sql = _write_statement(game, move, tuple(fields), connection)
    params = [field.get_db_prep_save(field.pre_save(move, True), connection) for field in _insert_fields()]
    for name in fields:
        field = Game._meta.get_field(name)
        params.append(field.get_db_prep_save(field.pre_save(game, False), connection))
    params.append(game.pk)
    return sql, params


def rollback(alias: str = DEFAULT_DB_ALIAS) -> None:
    """End the transaction `begin_and_lock` opened, writing nothing. A connection that cannot even
    roll back is closed (the pool discards it; PostgreSQL ends its transaction)."""
    connection = connections[alias]
    try:
        with connection.cursor() as cursor:
            cursor.execute("ROLLBACK")
    except Exception:  # noqa: BLE001 - broken connection: closing it ends the transaction
        connection.close()


# ------------------------------------------------------------------ on the event loop

#: Connections the event loop's own pool opens at most (moves on the loop of one web process; the
#: thread pool's Django connections, DB_POOL_MAX_SIZE, are apart). A move holds one for its two
#: round trips, so ten carry hundreds of moves a second.
LOOP_POOL_MAX = 10
#: Seconds a move on the loop waits for a free connection before giving up (`PoolTimeout`).
LOOP_POOL_TIMEOUT_S = 10.0
#: Statement 1 runs at most this often: once more after a connection PostgreSQL had dropped.
LOCK_ATTEMPTS = 2

_loop_pools: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncConnectionPool]" = weakref.WeakKeyDictionary()


_loop_wrappers: dict[str, object] = {}


def loop_wrapper(alias: str = DEFAULT_DB_ALIAS):
    """One Django connection object of database `alias` for the code on the event loop, which
    never connects: it compiles the statements and prepares and converts their values. (On the
    loop `connections[alias]` is a new object in every consumer's context, so compiled
    statements could not be kept.)"""
    wrapper = _loop_wrappers.get(alias)
    if wrapper is None:
        wrapper = _loop_wrappers.setdefault(alias, connections.create_connection(alias))
    return wrapper


async def loop_pool(alias: str = DEFAULT_DB_ALIAS) -> AsyncConnectionPool:
    """The running event loop's pool of async psycopg connections to database `alias`, opened on
    first use: Django's connection parameters (its type adapters, so columns load as the ORM
    loads them), autocommit, the session time zone Django sets."""
    loop = asyncio.get_running_loop()
    pool = _loop_pools.get(loop)
    if pool is not None:
        return pool
    connection = loop_wrapper(alias)
    params = {**connection.get_connection_params(), "cursor_factory": psycopg.AsyncClientCursor,
              "autocommit": True}
    zone, zone_sql = connection.timezone_name, connection.ops.set_time_zone_sql()

    async def configure(conn: psycopg.AsyncConnection) -> None:
        if zone and conn.info.parameter_status("TimeZone") != zone:
            await conn.execute(zone_sql, [zone])

    new = AsyncConnectionPool(kwargs=params, min_size=1, max_size=LOOP_POOL_MAX, open=False,
                              configure=configure, timeout=LOOP_POOL_TIMEOUT_S, name="caro-loop")
    await new.open()
    pool = _loop_pools.setdefault(loop, new)
    if pool is not new:  # another move of this loop opened one meanwhile
        await new.close()
    return pool


async def close_loop_pool() -> None:
    """Close the running loop's pool, if it has one (a test's loop, before it ends)."""
    pool = _loop_pools.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.close()


class LoopTransaction:
    """`async with LoopTransaction() as tx`: one connection of `loop_pool` for the two statements
    (`tx.lock`, `tx.store_and_commit`); leaving the block rolls back whatever was not committed
    (a check that sends the move to the general path, an error) and gives the connection back."""

    def __init__(self, alias: str = DEFAULT_DB_ALIAS) -> None:
        self.alias = alias

    async def __aenter__(self) -> "LoopTransaction":
        self.pool = await loop_pool(self.alias)
        self.conn = await self.pool.getconn()
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            await self.conn.rollback()  # nothing to do after COMMIT (psycopg skips an idle one)
        except Exception:  # noqa: BLE001 - a broken connection: the pool discards it
            pass
        finally:
            await self.pool.putconn(self.conn)

    async def lock(self, game_id: int) -> Game | None:
        """Statement 1 (`begin_and_lock`) on the loop: the locked game, or None.

        A connection PostgreSQL dropped (a restart, an idle kill) fails here, before anything is
        written: it is given back (the pool discards a broken one), the pool tests its other idle
        connections (`AsyncConnectionPool.check`, replacing the dead) and the statement runs once
        more on a fresh one, so the move is not refused. Raises `psycopg.OperationalError` when
        that fails too."""
        connection = loop_wrapper(self.alias)
        _connection, sql, _names, _compiler = _lock_statement(connection)
        for attempt in range(LOCK_ATTEMPTS):
            try:
                async with self.conn.cursor() as cursor:
                    await cursor.execute(sql, (game_id,))
                    cursor.nextset()  # the first result is the BEGIN's
                    rows = await cursor.fetchall()
                return _game_of(rows, connection)
            except psycopg.OperationalError:
                if attempt + 1 == LOCK_ATTEMPTS or not self.conn.broken:
                    raise
                await self.pool.putconn(self.conn)
                await self.pool.check()
                self.conn = await self.pool.getconn()
        raise AssertionError("unreachable")  # pragma: no cover

    async def store_and_commit(self, game: Game, move: Move, fields: list[str]) -> None:
        """Statement 2 (`store_and_commit`) on the loop. Raises `psycopg.IntegrityError` when the
        INSERT breaks a constraint (then nothing is written)."""
        sql, params = _write(game, move, fields, loop_wrapper(self.alias))
        async with self.conn.cursor() as cursor:
            await cursor.execute(sql, params)
            (move.pk,) = await cursor.fetchone()
        move._state.adding, move._state.db = False, self.alias
