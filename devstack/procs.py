"""Child processes of `dev.py`: each in its own process group, all stopped together.

Every child gets its own session (so a terminal Ctrl-C reaches only `dev.py`, which then stops the
children in order) and, on Linux, SIGTERM from the kernel if `dev.py` itself dies abruptly.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

_PR_SET_PDEATHSIG = 1


def set_parent_death_signal() -> None:
    """In a forked child before exec: ask Linux to send SIGTERM when the parent dies (no-op elsewhere)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass


@dataclass
class Child:
    """A named child process leading its own process group."""

    name: str
    process: subprocess.Popen
    started: float = field(default_factory=time.monotonic)

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def signal_leader(self, signum: int) -> None:
        """Send `signum` to the child itself (the leader of its group), not to its own children."""
        try:
            self.process.send_signal(signum)
        except (ProcessLookupError, PermissionError):
            pass

    def signal_group(self, signum: int) -> None:
        """Send `signum` to the child's whole process group (it may have children of its own)."""
        try:
            os.killpg(self.process.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def spawn(name: str, argv: list[str], env: dict[str, str], cwd: str, pass_fds: tuple[int, ...] = ()) -> Child:
    """Start `argv` as a child in a new session, inheriting stdout/stderr and the file descriptors
    `pass_fds` (e.g. listening sockets, devstack/webs.py); stdin is /dev/null."""
    process = subprocess.Popen(
        argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, start_new_session=True,
        preexec_fn=set_parent_death_signal, pass_fds=pass_fds,
    )
    return Child(name, process)


def stop_all(children: list[Child], timeout: float = 20.0, log=print) -> None:
    """SIGTERM every child, wait up to `timeout` seconds, then SIGKILL the rest and their groups.

    Only the child itself gets the SIGTERM: Celery's worker then does a warm shutdown (finishes
    running tasks, returns reserved ones to the broker) and stops its own pool processes; a SIGTERM
    to the whole group killed the pool under it, which it logged as a `WorkerLostError` traceback.
    Daphne closes its sockets. Whatever is left in the groups afterwards (orphaned pool processes)
    is killed. Never raises for processes that are already gone.
    """
    for child in children:
        if child.alive():
            child.signal_leader(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for child in children:
        remaining = max(0.0, deadline - time.monotonic())
        try:
            child.process.wait(remaining)
        except subprocess.TimeoutExpired:
            log(f"dev: {child.name} (pid {child.pid}) did not stop in {timeout:.0f} s; killing it")
            child.signal_group(signal.SIGKILL)
            child.process.wait()
    for child in children:  # stragglers in the group whose leader already exited
        child.signal_group(signal.SIGKILL)


RESTART_BACKOFF_START = 1.0
"""Seconds before the first restart of a crashed child; doubled after each further crash..."""
RESTART_BACKOFF_MAX = 30.0
"""...up to this many seconds."""
STABLE_AFTER = 60.0
"""A child that ran this long before crashing starts again from the shortest wait."""


@dataclass
class Supervised:
    """A child `dev.py run` keeps running: started by `start()`, and after a crash started again by
    `poll()` with exponential backoff when `restart` is set.

    `poll()` returns None while all is well (or a restart is pending), or the exit status of a
    child without `restart` that died (the caller then stops everything)."""

    name: str
    argv: list[str]
    env: dict[str, str]
    cwd: str
    restart: bool
    children: list[Child]
    log: object = print
    pass_fds: tuple[int, ...] = ()
    child: Child | None = None
    crashes: int = 0
    restarts: int = 0
    next_start: float | None = None

    def start(self) -> Child:
        self.child = spawn(self.name, self.argv, self.env, self.cwd, self.pass_fds)
        self.children.append(self.child)
        self.next_start = None
        return self.child

    def poll(self, now: float | None = None) -> int | None:
        now = time.monotonic() if now is None else now
        child = self.child
        if child is not None and not child.alive():
            code = child.process.returncode
            if not self.restart:
                return code
            child.signal_group(signal.SIGKILL)  # what it leaves behind (e.g. orphaned pool processes)
            self.children.remove(child)
            self.child = None
            ran = now - child.started
            self.crashes = 1 if ran >= STABLE_AFTER else self.crashes + 1
            delay = min(RESTART_BACKOFF_MAX, RESTART_BACKOFF_START * 2 ** (self.crashes - 1))
            self.log(f"{self.name} (pid {child.pid}) exited with status {code} after {ran:.1f} s; restarting it in {delay:.0f} s")
            self.next_start = now + delay
        if self.child is None and self.next_start is not None and now >= self.next_start:
            self.restarts += 1
            new = self.start()
            self.log(f"{self.name} restarted (pid {new.pid}, restart #{self.restarts})")
        return None


SERVICE_RETRY_S = 1.0
"""Seconds between two attempts to start a dead embedded server again when one attempt failed."""


@dataclass
class WatchedService:
    """An embedded server `dev.py run` keeps running (PostgreSQL, Redis): `poll()`, called every
    loop of `run`, notices that it died (logged), starts it again on the same port and data
    (`restart()`, which returns the new server object), and logs when it is back. A failed start
    is tried again every SERVICE_RETRY_S. The server object in `started` (what `run` stops at the
    end) is replaced by the new one."""

    name: str
    server: object
    started: list
    restart: object
    log: object = print
    next_try: float | None = None
    restarts: int = 0

    def poll(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if self.next_try is None:
            if self.server.alive():
                return
            self.log(f"{self.name} on port {self.server.port} died; starting it again on the same port and data")
            self.next_try = now
        if now < self.next_try:
            return
        try:
            new = self.restart()
        except Exception as exc:  # noqa: BLE001 - keep the site up: try again shortly
            self.log(f"{self.name} did not start again ({str(exc).splitlines()[0] if str(exc) else exc!r}); "
                     f"trying again in {SERVICE_RETRY_S:.0f} s")
            self.next_try = now + SERVICE_RETRY_S
            return
        self.started[self.started.index(self.server)] = new
        self.server, self.next_try = new, None
        self.restarts += 1
        self.log(f"{self.name} is back on port {new.port} (restart #{self.restarts})")
