"""TCP ports on the loopback for the embedded servers, and starting a server robustly on one.

A port seen free can be taken by someone else before our server binds it (another engineer's suite,
an ephemeral client port, ...). `start_on_free_port` therefore treats "free" as a hint only: it asks
the server itself to bind, and when that fails with "address already in use" it tries another port.
"""

from __future__ import annotations

import socket
import subprocess
import time
from typing import Callable, TypeVar

from devstack.errors import PortInUse

HOST = "127.0.0.1"
BIND_ATTEMPTS = 8
"""How many ports `start_on_free_port` tries before giving up."""

T = TypeVar("T")


def port_is_free(port: int, host: str = HOST) -> bool:
    """True if a TCP server could bind `host:port` now (port: 1-65535)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def free_port(host: str = HOST) -> int:
    """A TCP port the OS reports free on `host` right now (it may be taken again later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def pick_port(preferred: int | None, host: str = HOST) -> int:
    """`preferred` if it is free on `host`, otherwise any free port."""
    if preferred and port_is_free(preferred, host):
        return preferred
    return free_port(host)


def start_on_free_port(
    start: Callable[[int], T],
    preferred: int | None = None,
    host: str = HOST,
    attempts: int = BIND_ATTEMPTS,
    log: Callable[[str], None] | None = None,
) -> T:
    """`start(port)` on `preferred` (when it looks free) or on a free port; when `start` raises
    `PortInUse` (the server lost the race for the port), again on another free port, up to
    `attempts` times. Returns what `start` returned; re-raises the last `PortInUse` (or any other
    error of `start` at once)."""
    tried: list[int] = []
    for attempt in range(attempts):
        port = pick_port(preferred if attempt == 0 else None, host)
        if port in tried:  # the kernel handed back a port that just failed: ask again
            port = free_port(host)
        tried.append(port)
        try:
            return start(port)
        except PortInUse as exc:
            if attempt == attempts - 1:
                raise
            if log:
                log(f"port {port} was taken before the server could bind it; trying another ({exc.__class__.__name__})")
    raise AssertionError("unreachable")


def wait_for_port(port: int, host: str = HOST, timeout: float = 30.0, proc: subprocess.Popen | None = None) -> bool:
    """Poll until something accepts TCP connections on host:port.

    Returns False after `timeout` seconds, or as soon as `proc` (if given) has exited.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False
