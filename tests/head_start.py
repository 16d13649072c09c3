"""A head start for tests whose work is one command with no state of the site (a Node process: the
browser code's test files, the random games both engines replay): the session runs those commands
one after another in a thread of its own, at a lower priority (NICENESS), from the end of collection,
on the core the other tests leave idle, and such tests run at the end of the session
(tests/conftest.py `pytest_collection_modifyitems`), when their command has most likely run.

A test marks itself with `@runs_ahead(commands)`: `commands(item)` gives {key: (argv, timeout in
s)} for that pytest item. In the test, `head_start.take(key)` (the `head_start` fixture) is the command's finished run
(a subprocess.CompletedProcess, stdout and stderr as text), waited for when it is under way, or
None when the lane has not started it: the test then runs the command itself, as it would without a
head start (the lane skips it). What a test asserts does not depend on which of the two ran it.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

NICENESS = 10
"""Niceness added to the head start's commands: the tests running meanwhile keep their CPU."""
ROOT = Path(__file__).resolve().parent.parent


Commands = dict[str, tuple[list[str], float]]
"""{key: (argv, timeout in s)}: a run past its timeout is killed and its test gets subprocess.TimeoutExpired."""


def runs_ahead(commands: Callable[[object], Commands]):
    """Marks a test function whose commands (`commands(item)`) the session starts ahead."""
    def mark(test):
        test.runs_ahead = commands
        return test
    return mark


def commands_of(item) -> Commands | None:
    """The commands of a pytest item marked with `runs_ahead`, else None."""
    commands = getattr(getattr(item, "function", None), "runs_ahead", None)
    return None if commands is None else commands(item)


class HeadStart:
    """The lane: `commands` run in this order, cwd the repository, stdout and stderr captured as text
    (NODE_OPTIONS cleared and NO_COLOR=1: Node's plain output, as the tests run it)."""

    def __init__(self, commands: Commands):
        self._commands = dict(commands)
        self._lock = threading.Lock()
        self._claimed: set[str] = set()
        self._done = {key: threading.Event() for key in self._commands}
        self._results: dict[str, subprocess.CompletedProcess | BaseException] = {}
        self._running: subprocess.Popen | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._run_ahead, daemon=True, name="head-start")
        self._thread.start()

    def _run_ahead(self) -> None:
        for key, (argv, timeout_s) in self._commands.items():
            with self._lock:
                if self._closed:
                    return
                if key in self._claimed:
                    continue
                self._claimed.add(key)
            try:
                self._results[key] = self._run(argv, timeout_s)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the test that takes it
                self._results[key] = exc
            self._done[key].set()

    def _run(self, argv: list[str], timeout_s: float) -> subprocess.CompletedProcess:
        with subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "NODE_OPTIONS": "", "NO_COLOR": "1"},
                              preexec_fn=lambda: os.nice(NICENESS)) as process:
            with self._lock:
                self._running = process
                if self._closed:
                    process.kill()
            try:
                stdout, stderr = process.communicate(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                raise
        return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)

    def take(self, key: str) -> subprocess.CompletedProcess | None:
        """The run of `key` (waited for; an error it raised is raised here), or None when the lane
        has not started it (or does not have it): the caller runs it, and the lane never will.
        Each key is taken once (the lane forgets its output)."""
        with self._lock:
            ahead = key in self._claimed and key in self._done
            self._claimed.add(key)
        if not ahead:
            return None
        self._done[key].wait()  # bounded by the run's own timeout
        result = self._results.pop(key)
        if isinstance(result, BaseException):
            raise result
        return result

    def close(self) -> None:
        """Start nothing more and kill the run under way (the session is over: no test waits)."""
        with self._lock:
            self._closed = True
            if self._running is not None and self._running.poll() is None:
                self._running.kill()
