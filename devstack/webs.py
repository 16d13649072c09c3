"""Several Daphne processes behind one port, without a proxy: the kernel spreads the connections.

`dev.py run --web N` (N > 1) binds, before starting any Daphne:

- N *front* sockets on HOST:PORT, all with `SO_REUSEPORT`: Linux keeps one accept queue per socket
  and hands each new connection to one of them by a hash of its addresses and ports, so the
  connections spread evenly over the processes (the same mechanism as nginx's `listen ... reuseport`);
- one *own* socket per process on HOST:PORT+i (any free port when that one is taken), to reach one
  process directly (tests, a benchmark that splits the two players of a game, debugging).

Each Daphne adopts its two sockets by file descriptor (`-e fd:fileno=N`, Twisted's adopted-socket
endpoint that Daphne ships), so no port can be lost to another program between our check and
Daphne's bind. Websockets need nothing more: there is no proxy hop to upgrade through. The players of
one game land on any process; the Redis channel layer relays their events between processes.
A connection is served by one process for its whole life; when a Daphne dies, `dev.py run` stops
everything (its queued connections would be reset anyway).
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field

LISTEN_BACKLOG = socket.SOMAXCONN
"""Pending connections each socket queues (Twisted's own default of 50 is too small for the
benchmark's hundreds of sockets connecting over a few seconds)."""
MAX_WEB_PROCESSES = 64
"""`--web` above this is refused (a typo such as 200 would start 200 Pythons on a laptop)."""


@dataclass
class WebSockets:
    """The listening sockets of a group of `count` web processes (see the module docstring).

    `front[i]` and `own[i]` go to process i; `own_ports[i]` is where process i alone answers."""

    host: str
    port: int
    front: list[socket.socket] = field(default_factory=list)
    own: list[socket.socket] = field(default_factory=list)
    own_ports: list[int] = field(default_factory=list)

    def fds(self, index: int) -> tuple[int, int]:
        """(front fd, own fd) of process `index`, to pass to it (`subprocess.Popen(pass_fds=...)`)."""
        return self.front[index].fileno(), self.own[index].fileno()

    def close(self) -> None:
        """Close our copies (call it once every process has inherited its own)."""
        for sock in [*self.front, *self.own]:
            sock.close()


def _listening(host: str, port: int, reuseport: bool) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # Daphne's fd endpoint adopts IPv4 only
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuseport:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
        sock.set_inheritable(True)
    except BaseException:
        sock.close()
        raise
    return sock


def bind_web_sockets(host: str, port: int, count: int) -> WebSockets:
    """Bind `count` front sockets sharing `host:port` (SO_REUSEPORT) and one own socket per process
    (port+1, port+2, ... when free, else any free port). `port` 0 takes a free port for the front.

    `host` is an IPv4 address ("0.0.0.0" for every interface). Raises OSError (EADDRINUSE) if
    `host:port` is taken, ValueError for `count` outside 1..MAX_WEB_PROCESSES. On any error nothing
    stays bound."""
    if not 1 <= count <= MAX_WEB_PROCESSES:
        raise ValueError(f"the number of web processes must be 1..{MAX_WEB_PROCESSES}, not {count}")
    group = WebSockets(host, port)
    try:
        first = _listening(host, port, reuseport=True)
        group.front.append(first)
        group.port = first.getsockname()[1]
        for _ in range(count - 1):
            group.front.append(_listening(host, group.port, reuseport=True))
        for i in range(1, count + 1):
            try:
                own = _listening(host, group.port + i if group.port + i < 65536 else 0, reuseport=False)
            except OSError:
                own = _listening(host, 0, reuseport=False)
            group.own.append(own)
            group.own_ports.append(own.getsockname()[1])
    except BaseException:
        group.close()
        raise
    return group


def daphne_fd_arguments(front_fd: int, own_fd: int) -> list[str]:
    """Daphne's command-line arguments that make it serve the two inherited sockets."""
    return ["-e", f"fd:fileno={front_fd}", "-e", f"fd:fileno={own_fd}"]
