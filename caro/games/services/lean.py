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
"""

from __future__ import annotations

import threading

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.sql import InsertQuery, UpdateQuery

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


def _lock_statement(alias: str) -> tuple:
    if _statements.lock is None or _statements.lock[0] is not connections[alias]:
        compiler = Game.objects.filter(pk=0).query.get_compiler(using=alias)
        sql, _params = compiler.as_sql()
        names = [column.target.attname for column, _sql, _alias in compiler.select]
        _statements.lock = (connections[alias], f"BEGIN; {sql} FOR UPDATE", names, compiler)
    return _statements.lock


def begin_and_lock(game_id: int, alias: str = DEFAULT_DB_ALIAS) -> Game | None:
    """Statement 1: open a transaction and lock the row of game `game_id`; returns the game as the
    ORM would load it (every column, converted by its field), or None when there is no such game
    (the transaction is then still open: call `rollback`)."""
    _connection, sql, names, compiler = _lock_statement(alias)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, (game_id,))
        cursor.nextset()  # the first result is the BEGIN's
        rows = cursor.fetchall()
    rows = list(compiler.results_iter(results=[rows]))
    if not rows:
        return None
    return Game.from_db(alias, names, rows[0])


def _insert_fields() -> list:
    return [f for f in Move._meta.local_concrete_fields if f is not Move._meta.auto_field]


def _write_statement(game: Game, move: Move, fields: tuple[str, ...], alias: str) -> str:
    """The SQL of statement 2 for an UPDATE of `fields`, compiled by the ORM on first use."""
    connection = connections[alias]
    if _statements.insert is None or _statements.insert[1] is not connection:
        _statements.updates = {}
        insert = InsertQuery(Move)
        insert.insert_values(_insert_fields(), [move], raw=False)
        (insert_sql, _params), = insert.get_compiler(using=alias).as_sql()
        _statements.insert = (insert_sql, connection)
    sql = _statements.updates.get(fields)
    if sql is None:
        update = UpdateQuery(Game)
        update.add_update_fields([(Game._meta.get_field(name), None, getattr(game, name)) for name in fields])
        update.add_filter("pk", game.pk)
        update_sql, _params = update.get_compiler(using=alias).as_sql()
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
    connection = connections[alias]
    sql = _write_statement(game, move, tuple(fields), alias)
    params = [field.get_db_prep_save(field.pre_save(move, True), connection) for field in _insert_fields()]
    for name in fields:
        field = Game._meta.get_field(name)
        params.append(field.get_db_prep_save(field.pre_save(game, False), connection))
    params.append(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (move.pk,) = cursor.fetchone()
    move._state.adding, move._state.db = False, alias


def rollback(alias: str = DEFAULT_DB_ALIAS) -> None:
    """End the transaction `begin_and_lock` opened, writing nothing. A connection that cannot even
    roll back is closed (the pool discards it; PostgreSQL ends its transaction)."""
    connection = connections[alias]
    try:
        with connection.cursor() as cursor:
            cursor.execute("ROLLBACK")
    except Exception:  # noqa: BLE001 - broken connection: closing it ends the transaction
        connection.close()
