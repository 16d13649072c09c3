"""Issue 13.2: nothing a test started may still touch the database when pytest-django flushes it
after a transactional test (a worker's task racing the TRUNCATE deadlocked on a loaded machine).

A module-scoped witness wraps the flush command, so it sees the state at the very moment of each
flush in this module; the `test_at_the_flush_...` checks run after the tests they look back on
(pytest runs a module's tests in file order)."""

import threading

import pytest
from django.core.management.commands import flush

from tests.conftest import _admin_connection, _other_backends

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def witness():
    """{"workers": [pids], "flushes": [(workers alive, busy other backends)]} for this module."""
    record = {"workers": [], "flushes": []}
    original = flush.Command.handle

    def handle(self, *args, **options):
        alive = [pid for pid in record["workers"] if _alive(pid)]
        with _admin_connection() as conn:
            busy = _other_backends(conn, busy_only=True)
        record["flushes"].append((alive, busy))
        return original(self, *args, **options)

    flush.Command.handle = handle
    yield record
    flush.Command.handle = original


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_test_with_a_real_worker(witness, celery_worker_process):
    assert celery_worker_process.poll() is None
    witness["workers"].append(celery_worker_process.pid)


def test_at_the_flush_after_it_the_worker_was_stopped(witness):
    alive, _busy = witness["flushes"][0]
    assert witness["workers"] and alive == []


def test_a_test_that_leaves_a_transaction_running(witness):
    started = threading.Event()

    def slow_transaction():
        with _admin_connection() as conn:
            conn.autocommit = False
            conn.execute("SELECT pg_sleep(0.2)")
            started.set()
            conn.execute("SELECT pg_sleep(1.5)")
            conn.commit()

    threading.Thread(target=slow_transaction, daemon=True).start()
    assert started.wait(30)


def test_at_the_flush_after_it_no_other_connection_was_busy(witness):
    _alive_workers, busy = witness["flushes"][2]
    assert busy == []
