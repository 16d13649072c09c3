"""A person's plain move in ONE round trip to PostgreSQL (issue 27; two since issue 17).

The general path (`locking.player_action` under `transaction.atomic`) costs five round trips:
BEGIN, the row lock, the INSERT of the move, the UPDATE of the game and COMMIT. A plain move
(neither an ending nor anything but a move) needs one statement, optimistic instead of locking
first:

    WITH game AS (UPDATE games_game SET <the columns the move changed>
                  WHERE id = <game> AND ply = <n> AND xmin::text = <the version read>
                  RETURNING xmin::text),
         move AS (INSERT INTO games_move (...) SELECT <the move> FROM game RETURNING id)
    SELECT game.xmin, (SELECT id FROM move) FROM game

in autocommit (one implicit transaction). The move is checked and played in memory on the game
as this process last read or wrote it (`MoveCache`: the columns a move needs, `MOVE_COLUMNS`, and
the row's `xmin`, which PostgreSQL changes with every write of the row, by any path). The UPDATE
writes only if the row is still that version at ply `n` (`ply = n` is the optimistic ply check;
`xmin` also catches a change that left the ply alone: an offer, a presence change, an edit by
hand), and the INSERT runs only if the UPDATE did: no row back means nothing was written. Then
the game is read again (`read`: one SELECT of `MOVE_COLUMNS`, no lock) and the move tried once
more; a game not in the cache starts with that read. So a move costs one round trip while the
game's moves are played on one process (compose's proxy sends a room's sockets to one process),
two when the other player's move was written elsewhere. A check that fails on a cached row, or an
engine refusal, is decided again on a fresh read before the move is refused or handed to the
general path, so a stale cache never refuses a good move.

`read` and `write` go through Django's connection (its cursor wrappers, error translation and
query logging; the thread path, `services.play._lean_move`), `LoopConnection` through the event
loop's own pool of async psycopg connections with server-side binding and prepared statements
(`services.play.play_move_on_loop`, no thread at all). Both only outside any `transaction.atomic`
block (a caller's transaction or a test's wrapping one keeps the general path), on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import collections
import datetime
import functools
import operator
import threading
import uuid
import weakref

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import DateField, DateTimeField, Field
from django.db.models.base import ModelState
from psycopg_pool import AsyncConnectionPool

from caro.games.models import Game, Move

#: Columns of a game that a plain move never reads or writes (its record, result, moderation and
#: rematch fields): left out of the read, so the row converts and travels leaner. Anything the
#: checks, the engine, the clock or the `move` event reads is in MOVE_COLUMNS.
UNUSED_COLUMNS = ("imported", "annulled", "annulled_at", "annulled_by", "annul_reason", "created_at",
                  "started_at", "finished_at", "win_line", "winner", "termination", "left_seat",
                  "rematch_of", "rematch_offer", "throws", "first_mover", "wake_at")
MOVE_COLUMNS = tuple(f.name for f in Game._meta.concrete_fields if f.name not in UNUSED_COLUMNS)
#: Attribute names of the JSON columns among MOVE_COLUMNS (the cache hands out a copy of each).
_JSON_ATTNAMES = tuple(Game._meta.get_field(name).attname for name in MOVE_COLUMNS
                       if Game._meta.get_field(name).get_internal_type() == "JSONField")
#: Games whose last version this process keeps (least recently played dropped first).
CACHE_GAMES = 20_000


def usable(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the one-statement path may run now on connection `alias`: PostgreSQL, and no
    transaction of Django's open (the statement commits on its own)."""
    connection = connections[alias]
    return connection.vendor == "postgresql" and not connection.in_atomic_block


class MoveCache:
    """Per process: game id -> the game's MOVE_COLUMNS as last read or written here, and its
    row's `xmin`. Thread-safe; bounded to CACHE_GAMES games.

    An entry is the attribute values themselves (`{attname: value}`), and `get` makes the `Game`
    from them as `Model.from_db` would, without `Model.__init__` (which set every field one by
    one and cost more than the rest of the move's bookkeeping): the same attributes, the others
    deferred, `_state` saying it came from the database `alias`."""

    def __init__(self, size: int = CACHE_GAMES) -> None:
        self.size = size
        self._rows: collections.OrderedDict[int, tuple[dict, str]] = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, alias: str = DEFAULT_DB_ALIAS) -> tuple[Game, str] | None:
        """A fresh `Game` (deferred beyond MOVE_COLUMNS) and its xmin, or None."""
        with self._lock:
            entry = self._rows.get(game_id)
            if entry is None:
                return None
            self._rows.move_to_end(game_id)
        values, xmin = entry
        game = Game.__new__(Game)
        game.__dict__.update(values)
        for name in _JSON_ATTNAMES:  # a copy of each JSON column's dict or list: the move may change them
            value = values.get(name)
            if isinstance(value, (dict, list)):
                game.__dict__[name] = value.copy()
        game._state = ModelState()
        game._state.adding, game._state.db = False, alias
        return game, xmin

    def put(self, game: Game, names: list[str], xmin: str) -> None:
        """Keep `game` (its attributes `names`) as the row version `xmin`."""
        attributes = game.__dict__
        values = {name: attributes[name] for name in names}
        with self._lock:
            self._rows[game.pk] = (values, xmin)
            self._rows.move_to_end(game.pk)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)

    def drop(self, game_id: int) -> None:
        with self._lock:
            self._rows.pop(game_id, None)


cache = MoveCache()


class _Statements(threading.local):
    """The read's SQL with its compiler (which converts the columns as the ORM does) and names,
    compiled by the ORM once per thread and connection object, and the write's SQL for each set
    of changed columns."""

    def __init__(self) -> None:
        self.read: tuple | None = None
        self.writes: dict[tuple, str] = {}


_statements = _Statements()


def _read_statement(connection) -> tuple:
    """(connection, SQL, attribute names, compiler) of the read: `SELECT xmin::text, <MOVE_COLUMNS>
    FROM games_game WHERE id = %s`."""
    if _statements.read is None or _statements.read[0] is not connection:
        compiler = Game.objects.filter(pk=0).only(*MOVE_COLUMNS).query.get_compiler(connection=connection)
        sql, _params = compiler.as_sql()
        names = [column.target.attname for column, _sql, _alias in compiler.select]
        _statements.read = (connection, sql.replace("SELECT ", "SELECT xmin::text, ", 1), names, compiler)
        _statements.writes = {}
    return _statements.read


def _game_of(rows: list, connection, alias: str) -> tuple[Game, str] | None:
    """The game (and its xmin) of the read's result rows, each column converted as the ORM does;
    kept in the cache."""
    if not rows:
        return None
    _connection, _sql, names, compiler = _read_statement(connection)
    xmin, *row = rows[0]
    values = list(compiler.results_iter(results=[[row]]))[0]
    game = Game.from_db(alias, names, values)
    cache.put(game, names, xmin)
    return game, xmin


@functools.cache
def _insert_fields() -> tuple:
    """The fields of a move's INSERT: every concrete field but the id (models are final once
    this module is imported, so computed once)."""
    return tuple(f for f in Move._meta.local_concrete_fields if f is not Move._meta.auto_field)


#: `pre_save` methods that return the attribute's value unchanged (for a field that is neither
#: `auto_now` nor `auto_now_add`).
_READING_PRE_SAVES = (Field.pre_save, DateField.pre_save, DateTimeField.pre_save)


def _reader(field):
    """`operator.attrgetter` of the field's attribute when `field.pre_save` returns just that
    (one C call instead of two or three Python calls per column per move), else None: then
    `pre_save` itself gives the value (`auto_now_add`: the time now)."""
    if (type(field).pre_save in _READING_PRE_SAVES and not getattr(field, "auto_now", False)
            and not getattr(field, "auto_now_add", False)):
        return operator.attrgetter(field.attname)
    return None


@functools.cache
def _update_plan(fields: tuple[str, ...]) -> tuple:
    """`(field, _reader(field))` for each game column an UPDATE of `fields` writes."""
    return tuple((field, _reader(field)) for field in map(Game._meta.get_field, fields))


@functools.cache
def _insert_plan() -> tuple:
    """`(field, _reader(field))` for each column of a move's INSERT."""
    return tuple((field, _reader(field)) for field in _insert_fields())


def _write_statement(fields: tuple[str, ...], connection) -> str:
    """The SQL of the write for an UPDATE of `fields` (attribute names)."""
    _read_statement(connection)
    sql = _statements.writes.get(fields)
    if sql is None:
        quote = connection.ops.quote_name
        game_table, move_table = quote(Game._meta.db_table), quote(Move._meta.db_table)
        assignments = ", ".join(f"{quote(Game._meta.get_field(name).column)} = %s" for name in fields)
        inserted = _insert_fields()
        columns = ", ".join(quote(f.column) for f in inserted)
        values = ", ".join(f"%s::{f.db_type(connection)}" for f in inserted)
        sql = _statements.writes[fields] = (
            f"WITH game AS (UPDATE {game_table} SET {assignments} WHERE {quote(Game._meta.pk.column)} = %s "
            f"AND {quote('ply')} = %s AND xmin::text = %s RETURNING xmin::text AS version), "
            f"move AS (INSERT INTO {move_table} ({columns}) SELECT {values} FROM game "
            f"RETURNING {quote(Move._meta.pk.column)}) "
            f"SELECT game.version, (SELECT {quote(Move._meta.pk.column)} FROM move) FROM game")
    return sql


#: Python types whose values Django's PostgreSQL backend passes to psycopg unchanged for the
#: columns a move writes (integers, text, an aware `datetime`, a `UUID`): `_prepared` skips the
#: field's `get_db_prep_save` for them.
_AS_IS = (int, str, datetime.datetime, uuid.UUID)


def _prepared(field, value, connection):
    """`field.get_db_prep_save(value, connection)`, without the call for a value of a type in
    `_AS_IS` (exactly: not a subclass such as `bool`) or None, which that call returns unchanged
    on PostgreSQL (for a datetime only when aware: a naive one goes through the field, which
    warns and makes it aware as the ORM does)."""
    kind = type(value)
    if value is None or (kind in _AS_IS and (kind is not datetime.datetime or value.tzinfo is not None)):
        return value
    return field.get_db_prep_save(value, connection)


def _write(game: Game, move: Move, fields: list[str], ply_before: int, xmin: str, connection) -> tuple[str, list]:
    """The write and its parameters, prepared as the ORM's UPDATE and INSERT prepare them."""
    key = tuple(fields)
    sql = _write_statement(key, connection)
    params = [_prepared(field, read(game) if read else field.pre_save(game, False), connection)
              for field, read in _update_plan(key)]
    params += [game.pk, ply_before, xmin]
    params += [_prepared(field, read(move) if read else field.pre_save(move, True), connection)
               for field, read in _insert_plan()]
    return sql, params


def cached(game_id: int, alias: str = DEFAULT_DB_ALIAS) -> tuple[Game, str] | None:
    """The game as this process last read or wrote it (and its xmin), or None."""
    return cache.get(game_id, alias)


def read(game_id: int, alias: str = DEFAULT_DB_ALIAS) -> tuple[Game, str] | None:
    """One SELECT of MOVE_COLUMNS (no lock): the game and its row's xmin, or None (no such game)."""
    connection = connections[alias]
    _connection, sql, _names, _compiler = _read_statement(connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, (game_id,))
        rows = cursor.fetchall()
    return _game_of(rows, connection, alias)


def write(game: Game, move: Move, fields: list[str], ply_before: int, xmin: str,
          alias: str = DEFAULT_DB_ALIAS) -> str | None:
    """The one statement: UPDATE `fields` of `game` if its row is still version `xmin` at ply
    `ply_before`, and INSERT `move` (unsaved) with it. Returns the row's new xmin (`move` has its
    id), or None when nothing was written (the row had changed). Raises `IntegrityError` when
    the INSERT breaks a constraint (`client_id` used before in this game): nothing is written."""
    connection = connections[alias]
    sql, params = _write(game, move, fields, ply_before, xmin, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        cache.drop(game.pk)
        return None
    new_xmin, move.pk = row
    move._state.adding, move._state.db = False, alias
    cache.put(game, _read_statement(connection)[2], new_xmin)
    return new_xmin


# ------------------------------------------------------------------ on the event loop

#: Connections the event loop's own pool opens at most (moves on the loop of one web process; the
#: thread pool's Django connections, DB_POOL_MAX_SIZE, are apart). A move holds one for its round
#: trip, so ten carry thousands of moves a second.
LOOP_POOL_MAX = 10
#: Seconds a move on the loop waits for a free connection before giving up (`PoolTimeout`).
LOOP_POOL_TIMEOUT_S = 10.0
#: Seconds the pool keeps retrying one failed connection attempt before it gives up (psycopg_pool's
#: `reconnect_timeout`, default 300 s). Its retries double their delay (1, 2, 4 ... 64 s) and,
#: while one is pending, no waiting move starts another: after PostgreSQL had been down for a
#: while (repeated kills) the pool lent nothing for a minute after it was back. Given up after a
#: few seconds, the next move starts a fresh attempt at once (the same as the Django pool's
#: settings.DB_POOL_RECONNECT_S).
LOOP_POOL_RECONNECT_S = 3.0
#: The read runs at most this often: once more after a connection PostgreSQL had dropped.
READ_ATTEMPTS = 2

_loop_pools: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncConnectionPool]" = weakref.WeakKeyDictionary()
#: One server-side-binding cursor per connection of the loop's pools, reused by every move that
#: holds that connection (a cursor's set-up, its own map of adapters included, cost about as much
#: as the statement's own parameters): dropped with its connection.
_cursors: "weakref.WeakKeyDictionary[psycopg.AsyncConnection, psycopg.AsyncCursor]" = weakref.WeakKeyDictionary()


def _cursor_of(conn: psycopg.AsyncConnection) -> psycopg.AsyncCursor:
    """The reusable cursor of `conn` (a connection held by one move at a time)."""
    cursor = _cursors.get(conn)
    if cursor is None or cursor.closed:
        cursor = _cursors[conn] = conn.cursor()
    return cursor


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


def usable_on_loop(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """`usable` for code on the event loop: PostgreSQL (no Django transaction is ever open on the
    loop). Reads the loop's one wrapper: `connections[alias]` there would make a new wrapper in
    every consumer's context, left for the collector when the socket ends."""
    return loop_wrapper(alias).vendor == "postgresql"


class MostRecentFirst(collections.deque):
    """The idle connections of the loop's pool, handed out most recently used first.

    psycopg_pool (3.3) keeps them in a deque: it appends a returned connection on the right and
    hands out from the left, so the least recently used goes first and consecutive moves cycle
    through every connection the pool ever opened, each one's PostgreSQL backend (a process of
    its own) cold in the CPU's caches. Appended on the left instead, the pool hands out the
    connection the last move gave back: with a move or two in flight at a time, one or two warm
    backends serve them all (bench/pg_move.py, layout `wake_at 10 conns`, measures the
    difference). The pool's other use of the left end, dropping an idle connection after
    `max_idle` without use, then drops a recently used one: harmless (rare, and one is opened
    again when needed)."""

    def append(self, connection) -> None:
        self.appendleft(connection)


#: psycopg's `prepare_threshold` on the loop's connections: a statement run with `prepare=True`
#: is prepared at once, others after this many runs (psycopg's default). Django's backend sets
#: None (no prepared statements at all, for the sake of transaction-mode connection poolers,
#: which this site does not use), and with None psycopg ignores `prepare=True`: until issue 27's
#: fifth step the move's statement was parsed, rewritten and planned at every move, about
#: 0.4 ms of PostgreSQL's CPU a move at 50 moves a second (bench/pg_move.py `wake_at unprepared`,
#: docs/scaling.md).
PREPARE_THRESHOLD = 5


def pool_params(connection, cursor_factory) -> dict:
    """psycopg's connection parameters for the loop's pool (and benches that play its statements):
    Django's (its type adapters, so columns load as the ORM loads them), with server-side binding
    (`cursor_factory`, psycopg's own cursor, not Django's client-side one), autocommit, and
    prepared statements on (PREPARE_THRESHOLD): the statements of a move are prepared once per
    connection and sent as parameters only."""
    return {**connection.get_connection_params(), "cursor_factory": cursor_factory, "autocommit": True,
            "prepare_threshold": PREPARE_THRESHOLD}


async def loop_pool(alias: str = DEFAULT_DB_ALIAS) -> AsyncConnectionPool:
    """The running event loop's pool of async psycopg connections to database `alias`, opened on
    first use: Django's connection parameters (its type adapters, so columns load as the ORM
    loads them), autocommit, the session time zone Django sets."""
    loop = asyncio.get_running_loop()
    pool = _loop_pools.get(loop)
    if pool is not None:
        return pool
    connection = loop_wrapper(alias)
    params = pool_params(connection, psycopg.AsyncCursor)
    zone, zone_sql = connection.timezone_name, connection.ops.set_time_zone_sql()

    async def configure(conn: psycopg.AsyncConnection) -> None:
        if zone and conn.info.parameter_status("TimeZone") != zone:
            await conn.execute(zone_sql, [zone])

    new = AsyncConnectionPool(kwargs=params, min_size=1, max_size=LOOP_POOL_MAX, open=False,
                              configure=configure, timeout=LOOP_POOL_TIMEOUT_S,
                              reconnect_timeout=LOOP_POOL_RECONNECT_S, name="caro-loop")
    new._pool = MostRecentFirst(new._pool)
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


class LoopConnection:
    """`async with LoopConnection() as db`: one connection of `loop_pool` for a move's read and
    write (`db.read`, `db.write`), given back when the block ends. Statements use server-side
    binding and are prepared on each connection (psycopg's `prepare=True`)."""

    def __init__(self, alias: str = DEFAULT_DB_ALIAS) -> None:
        self.alias = alias
        self.conn = None

    async def __aenter__(self) -> "LoopConnection":
        self.pool = await loop_pool(self.alias)
        return self

    async def __aexit__(self, *exc) -> None:
        if self.conn is not None:
            await self.pool.putconn(self.conn)
            self.conn = None

    async def _connection(self):
        if self.conn is None:
            self.conn = await self.pool.getconn()
        return self.conn

    async def _renew(self) -> None:
        """Give back a connection PostgreSQL dropped (a restart, an idle kill; the pool discards
        it), test the pool's other idle ones (`AsyncConnectionPool.check`) and take a fresh one."""
        await self.pool.putconn(self.conn)
        self.conn = None
        await self.pool.check()

    async def read(self, game_id: int) -> tuple[Game, str] | None:
        """`read` on the loop. A connection PostgreSQL had dropped fails here before anything is
        written: the read runs once more on a fresh connection (so the move is not refused).
        Raises `psycopg.OperationalError` when that fails too."""
        connection = loop_wrapper(self.alias)
        _connection, sql, _names, _compiler = _read_statement(connection)
        for attempt in range(READ_ATTEMPTS):
            conn = await self._connection()
            try:
                cursor = _cursor_of(conn)
                await cursor.execute(sql, (game_id,), prepare=True)
                rows = await cursor.fetchall()
                return _game_of(rows, connection, self.alias)
            except psycopg.OperationalError:
                if attempt + 1 == READ_ATTEMPTS or not conn.broken:
                    raise
                await self._renew()
        raise AssertionError("unreachable")  # pragma: no cover

    async def write(self, game: Game, move: Move, fields: list[str], ply_before: int, xmin: str) -> str | None:
        """`write` on the loop. Raises `psycopg.IntegrityError` when the INSERT breaks a
        constraint (nothing written), and `Dropped` when the connection was broken (its pool
        renews it; whether the statement ran is unknown: read again before anything else)."""
        connection = loop_wrapper(self.alias)
        sql, params = _write(game, move, fields, ply_before, xmin, connection)
        conn = await self._connection()
        try:
            cursor = _cursor_of(conn)
            await cursor.execute(sql, params, prepare=True)
            row = await cursor.fetchone()
        except psycopg.OperationalError:
            if not conn.broken:
                raise
            cache.drop(game.pk)
            await self._renew()
            raise Dropped() from None
        if row is None:
            cache.drop(game.pk)
            return None
        new_xmin, move.pk = row
        move._state.adding, move._state.db = False, self.alias
        cache.put(game, _read_statement(connection)[2], new_xmin)
        return new_xmin


    async def locked_rows(self, lock_sql: str, lock_params, sql: str, params) -> list[tuple]:
        """`lock_sql` (a `SELECT ... FOR UPDATE` that takes a row lock), then `sql`, whose rows are
        returned: one message of PostgreSQL's simple-query protocol (client-side binding), so one
        round trip and one implicit transaction. The lock is held until that transaction ends, and
        `sql` takes its snapshot after the lock is held, so it sees what the transaction that held
        the lock before committed (read committed: a snapshot per statement). Raises
        `psycopg.Error`; nothing was written unless the answer came back."""
        conn = await self._connection()
        try:
            async with psycopg.AsyncClientCursor(conn) as cursor:
                await cursor.execute(f"{lock_sql}; {sql}", (*lock_params, *params))
                cursor.nextset()
                return await cursor.fetchall()
        except psycopg.OperationalError:
            if conn.broken:
                await self._renew()
            raise


class Dropped(Exception):
    """The loop's connection broke during a write: read the game again before going on."""
