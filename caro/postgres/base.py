"""Django's PostgreSQL backend whose connection pool tests its idle connections at once when one
fails its check (`caro.postgres.check_connection`; the package's docstring says why)."""

from __future__ import annotations

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

from caro.postgres import check_connection


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool | None:
        """Django's pool (made on first use, one per database alias and process), checking with
        `check_connection` where Django (5.2) gives psycopg_pool's plain check for
        CONN_HEALTH_CHECKS. psycopg_pool takes its check only when the pool is made, by Django:
        it is swapped there once (psycopg_pool 3.3 keeps it as `_check`;
        tests/integration/test_database_pool_reconnect.py fails if that stops working)."""
        pool = super().pool
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_connection
        return pool
