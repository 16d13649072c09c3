"""Shared fixtures: real PostgreSQL (pytest-django test database), real Redis, and, for browser
and end-to-end tests, a real Daphne server plus a Celery worker running against the test database.

The services themselves are started by `python3 dev.py test` (embedded when DATABASE_URL / REDIS_URL
are unset); this file only starts the site's own processes.

Nothing a test started may still touch the database when pytest-django flushes it (TRUNCATE) after
a transactional test: that deadlocked once on a loaded machine (issue 13). So the Celery workers
are per test and stopped before the flush, and `quiet_database` waits, before the flush, until no
other connection to the test database is inside a transaction (Daphne finishing a request, a
thread a test forgot), ending those that do not finish.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import pytest_asyncio

from devstack.cli import daphne_argv
from tests.head_start import HeadStart, commands_of

ROOT = Path(__file__).resolve().parent.parent
QUIET_TIMEOUT = 60.0
"""Seconds `quiet_database` waits for other connections to finish their transactions."""

os.environ.setdefault("CARO_INSECURE_HTTP", "1")  # as `dev.py test` exports it (plain-HTTP test servers)

CONNECT_TIMEOUT_S = 15
"""How long a Channels test communicator's `connect()` waits by default. The library's own default
(1 s) is shorter than a consumer's connect (session and database reads in a thread) can take on a
loaded 2-core machine; waiting longer only costs time when a connect really fails."""


def _patient_communicators() -> None:
    from channels.testing import WebsocketCommunicator

    connect, disconnect = WebsocketCommunicator.connect, WebsocketCommunicator.disconnect

    async def patient_connect(self, timeout=CONNECT_TIMEOUT_S):
        return await connect(self, timeout)

    # The library's disconnect also waits 1 s for the consumer's `disconnect` (Redis group
    # discards, the presence row through the loop's psycopg pool), then CANCELS it: on a loaded
    # machine that cancellation landed inside the pool's connect, and psycopg_pool lost it
    # (psycopg issue 1345): the test's event loop then never finished closing (a 120 s teardown
    # timeout of test_room_consumer.py's hostile frames). The consumer is let finish instead.
    async def patient_disconnect(self, code=1000, timeout=CONNECT_TIMEOUT_S):
        return await disconnect(self, code, timeout)

    WebsocketCommunicator.connect = patient_connect
    WebsocketCommunicator.disconnect = patient_disconnect


_patient_communicators()


@pytest_asyncio.fixture
async def close_db_connections():
    """Close the DB connections the consumer threads opened (Channels' communicator leaves them
    open, and the test database could not be dropped; notes/stack.md)."""
    yield
    from asgiref.sync import sync_to_async
    from django.db import connections

    from caro.games.services import lean

    # The loop's own psycopg pool (a move or a socket's close on the loop opened it) is closed on
    # this loop, before the loop ends: left open, its background tasks were cancelled by the
    # loop's shutdown, mid-connect, and a lost cancellation kept the loop from closing.
    await lean.close_loop_pool()
    # What the test left running on its loop ends now (the loop's shutdown would cancel it), and
    # the pool its consumers' clean-ups opened meanwhile is closed too.
    await _settle_loop()
    await lean.close_loop_pool()
    await sync_to_async(connections.close_all)()
    # Connections borrowed by threads the test's event loop started never return to the pool on
    # their own (in Daphne the same threads are reused, so nothing leaks there); reset the pool.
    await sync_to_async(_reset_pool)()


#: Seconds `_settle_loop` waits for the tasks it cancelled, and then for what their ends started.
SETTLE_S = 30.0
#: The name psycopg_pool gives the tasks of the loop's pool (caro.games.services.lean.loop_pool).
LOOP_POOL_TASKS = "caro-loop"


async def _settle_loop() -> None:
    """Cancel what a test left running on its event loop (consumers of communicators it never
    disconnected) and wait for it to end, then wait, without cancelling, for what those ends
    started in this project's code (the consumers' clean-ups), SETTLE_S at most each; the tasks of the loop's database
    pool (`LOOP_POOL_TASKS`) are left to `close_loop_pool`.

    Why: a communicator the test never disconnected (a socket the server closed, like a banned
    player's) is cancelled when the test drops it or when the loop shuts down, and its consumer's
    clean-up (`disconnect`'s presence row, through the loop's psycopg pool) then ran after
    `close_loop_pool`: it opened a new pool, whose connection attempts the loop's shutdown
    cancelled, and psycopg_pool's worker swallows a cancellation that comes while it connects
    (`AsyncConnectionPool._add_connection` catches CancelledError and tries again later): the
    shutdown waited for it for ever (test_moderation_live.py: a 300 s teardown timeout at load
    25; 4 of 8 runs of its first test at load 4-16). The clean-ups are not cancelled: their
    own awaits (the pool's internal ones included) must be let finish."""
    me = asyncio.current_task()

    def running() -> set:
        return {task for task in asyncio.all_tasks() if task is not me and not task.done()
                and not task.get_name().startswith(LOOP_POOL_TASKS)}

    left = running()
    for task in left:
        task.cancel()
    if left:
        await asyncio.wait(left, timeout=SETTLE_S)
    started = {task for task in running() - left if _ours(task)}
    if started:
        await asyncio.wait(started, timeout=SETTLE_S)


def _ours(task: asyncio.Task) -> bool:
    """Whether `task` runs a coroutine of this project (a consumer's clean-up), not a library's
    (a pool's timer, which may wait for minutes)."""
    code = getattr(task.get_coro(), "cr_code", None)
    path = Path(code.co_filename) if code is not None else None
    return path is not None and ROOT in path.parents and ".venv" not in path.parts


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, plus a clean-up just before it is dropped, which PostgreSQL
    refuses while the connection pool still holds connections to it. (Only tests that use the
    database instantiate this, so pure unit runs need no database.)"""
    _retry_flush_on_deadlock()
    yield
    with django_db_blocker.unblock():
        _close_everything()


#: How often the flush after a transactional test is tried when PostgreSQL picks it as a deadlock's
#: victim: a live server's socket handler (a page closing as its test ends) can start a transaction
#: just after `quiet_database` saw none, and then the TRUNCATE and that transaction deadlock.
FLUSH_ATTEMPTS = 4


def _retry_flush_on_deadlock() -> None:
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown
    if getattr(original, "retries_deadlocks", False):
        return

    def teardown(self):
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                return original(self)
            except Exception as exc:  # flush wraps the database error in a CommandError
                causes = [exc, exc.__cause__, exc.__context__]
                if attempt == FLUSH_ATTEMPTS or not any("deadlock" in str(c).lower() for c in causes if c):
                    raise
                print(f"flush: deadlock on attempt {attempt}; trying again", file=sys.stderr)
                time.sleep(0.5 * attempt)

    teardown.retries_deadlocks = True
    TransactionTestCase._fixture_teardown = teardown


def _other_backends(conn, busy_only: bool) -> list[tuple]:
    query = ("SELECT pid, state, left(query, 80) FROM pg_stat_activity WHERE datname = current_database()"
             " AND pid <> pg_backend_pid() AND backend_type = 'client backend'")
    if busy_only:
        query += " AND state <> 'idle'"
    return conn.execute(query).fetchall()


def _admin_connection():
    import psycopg
    from django.db import connections

    s = connections["default"].settings_dict
    return psycopg.connect(dbname=s["NAME"], user=s["USER"], password=s["PASSWORD"] or None,
                           host=s["HOST"] or None, port=s["PORT"] or None, autocommit=True)


@pytest.fixture(autouse=True)
def quiet_database(request):
    """Before pytest-django flushes the database after a transactional test: wait until no other
    connection to it is busy (in a query or a transaction), for up to QUIET_TIMEOUT seconds, then
    end the ones still busy. A TRUNCATE racing such a transaction can deadlock (issue 13)."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not (marker.kwargs.get("transaction") or (marker.args and marker.args[0])):
        yield
        return
    # Requested here so that it is set up before this fixture and torn down (flushed) after it.
    request.getfixturevalue("transactional_db")
    yield
    with request.getfixturevalue("django_db_blocker").unblock(), _admin_connection() as conn:
        deadline = time.monotonic() + QUIET_TIMEOUT
        busy = _other_backends(conn, busy_only=True)
        while busy and time.monotonic() < deadline:
            time.sleep(0.05)
            busy = _other_backends(conn, busy_only=True)
        for pid, state, query in busy:
            print(f"quiet_database: ending backend {pid} ({state}: {query!r}) before the flush", file=sys.stderr)
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


def _close_everything() -> None:
    from django.db import connections

    connections.close_all()
    _reset_pool()
    # Connections that threads of finished event loops still hold (see _reset_pool) would keep
    # the test database from being dropped: end them, as a test-only clean-up.
    with _admin_connection() as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def _reset_pool() -> None:
    from django.db import connections

    conn = connections["default"]
    if conn.settings_dict.get("OPTIONS", {}).get("pool"):
        conn.close_pool()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _test_database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] or ""
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    host = s["HOST"] or "127.0.0.1"
    port = s["PORT"] or 5432
    return f"postgres://{auth}@{host}:{port}/{s['NAME']}"


def _child_env() -> dict:
    from django.conf import settings

    env = dict(os.environ)
    env.update(
        DATABASE_URL=_test_database_url(),
        DEBUG="1",
        SECRET_KEY=settings.SECRET_KEY,  # the same key, so sessions made by tests are valid there
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
    )
    return env


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker, tmp_path_factory):
    """A real Daphne (HTTP + websockets) serving the test database; yields its base URL.

    Tests that use it must be `django_db(transaction=True)` so their rows are committed.
    """
    folder = tmp_path_factory.mktemp("daphne")
    with django_db_blocker.unblock():
        env = _child_env()
    for attempt in range(5):  # a free port can be taken before Daphne binds it: take another
        port = free_port()
        log = folder / f"daphne-{attempt}.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(daphne_argv("127.0.0.1", port), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        if _wait_healthy(proc, url):
            break
        _stop(proc)
        if "Address already in use" not in log.read_text(errors="replace"):
            pytest.fail("daphne did not start:\n" + log.read_text(errors="replace")[-3000:])
    else:
        pytest.fail("daphne found no free port")
    yield url
    _stop(proc)


def _wait_healthy(proc: subprocess.Popen, url: str, timeout: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def start_workers(env: dict, folder: Path, queues=("celery",), extra: tuple = ()) -> dict:
    """Real Celery workers (solo pool), one per queue, with `env`; returns {queue: (Popen, log, node)}
    once each answers a ping (pytest.fail otherwise). Stop them with `stop_workers`."""
    from caro.celery import app

    procs = {}
    for queue in queues:
        name = f"test-{queue}-{os.getpid()}-{time.monotonic_ns()}"
        log = folder / f"{queue}.log"
        with open(log, "wb") as out:
            procs[queue] = (subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "caro", "worker", "-Q", queue, "--pool=solo",
                 "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info", "-n", f"{name}@%h", *extra],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            ), log, f"{name}@{socket.gethostname()}")
    deadline = time.monotonic() + 120
    for proc, log, node in procs.values():
        while not app.control.ping(timeout=1.0, destination=[node]):
            if proc.poll() is not None or time.monotonic() > deadline:
                stop_workers(procs)
                pytest.fail("celery worker did not start:\n" + log.read_text(errors="replace")[-3000:])
    return procs


def stop_workers(procs: dict) -> None:
    """Warm shutdown (each finishes its task and returns what it reserved), all at once; SIGKILL
    after 60 s."""
    for proc, _log, _node in procs.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc, _log, _node in procs.values():
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def celery_worker_process(transactional_db, django_db_blocker, tmp_path):
    """A real Celery worker (solo pool) on the test database and the test Redis broker, on the
    `celery` queue (clocks, absences, sweeps; the computer plays in the browser). Yields its process.

    Per test, and stopped before the test database is flushed (this fixture depends on
    `transactional_db`, so it is torn down first): a worker still running a task during the flush
    deadlocked with its TRUNCATE (issue 13). Tasks left in the queues are purged before and after,
    so no test's tasks run in another test."""
    with django_db_blocker.unblock():
        env = _child_env()
    from caro.celery import app

    app.control.purge()  # tasks queued by earlier tests for games that no longer exist
    procs = start_workers(env, tmp_path)
    try:
        yield procs["celery"][0]
    finally:
        stop_workers(procs)
        app.control.purge()


CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )


BROWSER_TESTS = "e2e"
"""The folder under tests/ of the tests that drive Chromium (the only users of `browser`)."""


def pytest_collection_modifyitems(session, config, items):
    """The browser tests run after the others (stable sort: every other test keeps its order, and so
    do they), so the one Chromium of the session (`browser`) opens after the last async test has
    run; and the tests with a head start (tests/head_start.py, and the puzzle analyses'
    tests/unit/analysis/conftest.py) run after those, so that their work, started when collection
    ends, has the whole session to run on the core the other tests leave idle. None of them is async."""
    def is_browser_test(item) -> bool:
        try:
            return Path(item.path).resolve().relative_to(ROOT / "tests").parts[:1] == (BROWSER_TESTS,)
        except ValueError:  # a test file outside tests/
            return False

    def has_head_start(item) -> bool:
        function = getattr(item, "function", None)
        return hasattr(function, "runs_ahead") or hasattr(function, "puzzle_jobs")

    items.sort(key=lambda item: 2 if has_head_start(item) else 1 if is_browser_test(item) else 0)


HEAD_START = pytest.StashKey["HeadStart | None"]()


def pytest_collection_finish(session):
    """Start the head start (tests/head_start.py) of the selected tests marked `runs_ahead`."""
    if session.config.option.collectonly:
        return
    commands = {}
    for item in session.items:
        commands.update(commands_of(item) or {})
    if commands:
        session.config.stash[HEAD_START] = HeadStart(commands)


def pytest_sessionfinish(session):
    lane = session.config.stash.get(HEAD_START, None)
    if lane is not None:
        lane.close()


@pytest.fixture
def head_start(request) -> HeadStart | None:
    """The session's HeadStart (tests/head_start.py), or None when nothing was started ahead (the
    test then runs its commands itself)."""
    return request.config.stash.get(HEAD_START, None)


@pytest.fixture
def browser(session_browser):
    """Debian's Chromium driven by Playwright (never a downloaded browser): the session's one
    (`session_browser`). Each test opens contexts of its own (cookies, storage, service workers and
    caches are per context); any context a test leaves open is closed after it, so no page of one
    test (a room's socket, a timer) lives on into the next."""
    before = set(session_browser.contexts)
    yield session_browser
    for context in session_browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture(scope="session")
def session_browser():
    """One Chromium (and one Playwright driver) for the whole session: launching both once per
    module cost about a second of CPU and 2-3 s of wall each, 26 times a run. Tests use `browser`.

    Playwright's sync API keeps an event loop running in this thread while it is open, and
    pytest-asyncio cannot start its own loop for an async test then: hence the browser tests run
    after every other test (`pytest_collection_modifyitems`), and none of them is async.
    """
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    # Playwright's sync API runs an event loop in this thread; Django's DB guard would then refuse
    # the fixtures' ORM calls although they run synchronously between browser steps.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


def start_daphnes(env: dict, count: int, tmp_path_factory, host: str | None = None, flags=()):
    """Start `count` Daphnes with `env` (and Daphne command-line `flags`); return [(process, log path, base URL)] once /healthz answers
    (sent with `host` as the Host header, when given)."""
    started = []
    for i in range(count):
        port = free_port()
        log = tmp_path_factory.mktemp("daphne") / f"daphne{i}.log"
        with open(log, "wb") as out:
            started.append((subprocess.Popen(
                [sys.executable, "-m", "caro.webserver", "-b", "127.0.0.1", "-p", str(port), *flags,
                 "caro.asgi:application"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            ), log, f"http://127.0.0.1:{port}"))
    for proc, log, url in started:
        deadline = time.monotonic() + 60
        while True:
            try:
                request = urllib.request.Request(url + "/healthz", headers={"Host": host} if host else {})
                with urllib.request.urlopen(request, timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                for p, _log, _url in started:
                    _stop(p)
                pytest.fail("daphne did not start:\n" + log.read_text(errors="replace")[-3000:])
            time.sleep(0.2)
    return started


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the site's default language (Vietnamese): a test client's request
    leaves its language active in the thread (LocaleMiddleware), which would leak into the next test."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Every test gets its own channel layer: a channels_redis layer keeps per-loop state (its
    receive lock), and a consumer still receiving when an earlier test's event loop ended leaves
    that lock held and bound to the dead loop."""
    yield
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Every test starts with no room or guest creation counted: all the tests' browsers and
    clients come from 127.0.0.1, so a run of quick browser tests filled the per-address windows
    (30 a minute) and one test's room form got the 429 page. The tests of the limits count their
    own requests from here."""
    import redis
    from django.conf import settings as django_settings
    from django.core.cache import cache

    # django-ratelimit's keys in the cache (its RATELIMIT_CACHE_PREFIX, "rl:", as the cache
    # stores keys: CACHES' KEY_PREFIX and version in front)
    pattern = cache.make_key(getattr(django_settings, "RATELIMIT_CACHE_PREFIX", "rl:") + "*")
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    try:
        names = list(client.scan_iter(pattern))
        if names:
            client.delete(*names)
    finally:
        client.close()
    yield
