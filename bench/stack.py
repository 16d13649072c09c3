"""A throw-away site for benchmarks: embedded PostgreSQL and Redis (unless DATABASE_URL / REDIS_URL
are set), a fresh database (migrated, dropped at the end), Daphne on a free loopback port and, if
asked, a Celery worker and beat — the same processes `dev.py run` starts.

    with Site("bench-timeouts", worker=True) as site:
        site.url, site.ws_url        # http://127.0.0.1:PORT, ws://127.0.0.1:PORT
        site.django()                # configure Django in this process against the same database
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devstack import postgres, redis  # noqa: E402
from devstack.cli import daphne_argv, worker_argv  # noqa: E402
from devstack.ports import free_port, wait_for_port  # noqa: E402
from devstack.webs import bind_web_sockets  # noqa: E402

DATA = Path(os.environ.get("CARO_DATA_DIR") or ROOT / ".data").absolute()
"""Logs and the embedded services' data: CARO_DATA_DIR, as `dev.py` uses it (default <repo>/.data)."""


def with_database(url: str, name: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


class Site:
    """Context manager: start everything in `__enter__`, stop and drop it all in `__exit__`.

    `extra_env` is added to every process's environment (e.g. limits switched off for a load test).
    `worker` starts one Celery worker (both queues) and `beat` one beat. `webs` > 1 starts that many
    Daphnes sharing `url`'s port as `dev.py run --web N` does (devstack/webs.py); `web_urls[i]` then
    reaches process i alone. `web_pids` are the Daphne processes' ids either way.
    """

    def __init__(self, name: str, *, worker: bool = False, beat: bool = False, extra_env: dict | None = None,
                 webs: int = 1):
        self.name, self.want_worker, self.want_beat, self.webs = name, worker, beat, webs
        self.fds: dict[str, tuple[int, int]] = {}
        self.extra_env = extra_env or {}
        self.services: list = []
        self.procs: dict[str, subprocess.Popen] = {}
        self.logs = DATA / name
        self.logs.mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> "Site":
        try:
            db_url, redis_url = self._services()
            self.dbname = f"caro_bench_{secrets.token_hex(4)}"
            self._create_database(db_url, self.dbname)
            self.env = {
                **os.environ, "DATABASE_URL": with_database(db_url, self.dbname), "REDIS_URL": redis_url,
                "SECRET_KEY": secrets.token_urlsafe(32), "DEBUG": "0", "CARO_ALLOW_DEV_SECRET": "1",
                "CARO_INSECURE_HTTP": "1", "DJANGO_SETTINGS_MODULE": "caro.settings",
                "ALLOWED_HOSTS": "127.0.0.1,localhost", **self.extra_env,
            }
            self._admin_url = db_url
            subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=self.env, check=True)
            if self.webs == 1:
                self.port = free_port()
                self.web_names, own_ports = ["web"], [self.port]
                self.start("web")
            else:
                group = bind_web_sockets("127.0.0.1", 0, self.webs)
                self.port, own_ports = group.port, group.own_ports
                self.web_names = [f"web{i + 1}" for i in range(self.webs)]
                try:
                    for i, name in enumerate(self.web_names):
                        self.fds[name] = group.fds(i)
                        self.start(name)
                finally:
                    group.close()
            self.url, self.ws_url = f"http://127.0.0.1:{self.port}", f"ws://127.0.0.1:{self.port}"
            self.web_urls = [f"http://127.0.0.1:{p}" for p in own_ports]
            for name, port in zip(self.web_names, own_ports):
                if not wait_for_port(port, timeout=60, proc=self.procs[name]):
                    raise RuntimeError("daphne did not start; see " + str(self.logs / f"{name}.log"))
            self.web_pids = [self.procs[name].pid for name in self.web_names]
            if self.want_worker:
                self.start("worker")
            if self.want_beat:
                self.start("beat")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        for name in list(self.procs):
            self.stop(name)
        if getattr(self, "dbname", None):
            try:
                self._drop_database(self._admin_url, self.dbname)
            except Exception as error:  # noqa: BLE001 - best effort at the end of a bench
                print(f"could not drop {self.dbname}: {error}", file=sys.stderr)
        for service in reversed(self.services):
            service.stop()

    # ------------------------------------------------------------------ processes

    def argv(self, name: str) -> list[str]:
        if name == "web":
            return daphne_argv("127.0.0.1", self.port)
        if name in self.fds:
            return daphne_argv("127.0.0.1", 0, fds=self.fds[name])
        if name == "worker":
            return worker_argv()
        return [sys.executable, "-m", "celery", "-A", "caro", "beat", "-l", "warning",
                "-s", str(self.logs / "beat-schedule")]

    def start(self, name: str) -> None:
        """Start (or restart) the process `name`: "web", "worker" or "beat"; "web1".."webN" (`webs` > 1)
        start once only, as their listening sockets were handed over and closed here."""
        log = open(self.logs / f"{name}.log", "ab")
        self.procs[name] = subprocess.Popen(self.argv(name), cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True,
                                            pass_fds=self.fds.get(name, ()))
        if name == "worker":
            self.wait_for_worker()

    def stop(self, name: str) -> None:
        proc = self.procs.pop(name, None)
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)

    def wait_for_worker(self, timeout: float = 60) -> None:
        """Block until the worker answers a ping (Celery control)."""
        from celery import Celery

        app = Celery(broker=self.env["REDIS_URL"])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if app.control.ping(timeout=0.5):
                return
        raise RuntimeError("the Celery worker did not start; see " + str(self.logs / "worker.log"))

    def django(self) -> None:
        """Configure Django in this process against the site's database and Redis."""
        for key in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "CARO_ALLOW_DEV_SECRET",
                    "CARO_INSECURE_HTTP", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS", *self.extra_env):
            os.environ[key] = self.env[key]
        import django

        django.setup()

    # ------------------------------------------------------------------ services

    def _services(self) -> tuple[str, str]:
        db_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
        data = DATA / "bench"
        data.mkdir(parents=True, exist_ok=True)
        if not db_url:
            pg = postgres.start_postgres(postgres.usable_pg_datadir(data / "pg"), None)
            self.services.append(pg)
            db_url = pg.url
        if not redis_url:
            server = redis.start_redis(None, data / "redis")
            self.services.append(server)
            redis_url = server.url
        return db_url, redis_url

    @staticmethod
    def _create_database(url: str, name: str) -> None:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    @staticmethod
    def _drop_database(url: str, name: str) -> None:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Backends:
    """PostgreSQL and Redis only, as `Site` gets them (embedded unless DATABASE_URL / REDIS_URL are
    set), with a fresh database (empty, not migrated; dropped at the end): for relays that need no
    site (bench/ws_relay.py --floor). `database_url`, `redis_url`, `admin_url` (the server's own
    database) and `logs` (a directory under CARO_DATA_DIR) are set in `__enter__`."""

    _services = Site._services

    def __init__(self, name: str) -> None:
        self.name, self.services = name, []
        self.logs = DATA / name
        self.logs.mkdir(parents=True, exist_ok=True)
        self.dbname = None

    def __enter__(self) -> "Backends":
        try:
            self.admin_url, self.redis_url = self._services()
            self.dbname = f"caro_bench_{secrets.token_hex(4)}"
            Site._create_database(self.admin_url, self.dbname)
            self.database_url = with_database(self.admin_url, self.dbname)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.dbname:
            with contextlib.suppress(Exception):  # best effort at the end of a bench
                Site._drop_database(self.admin_url, self.dbname)
        for service in reversed(self.services):
            service.stop()
