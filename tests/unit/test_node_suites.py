"""The Node test files of the browser code, each one a pytest item: every ``tests/js/**/*.test.js``
(the browser rules engine's, the browser computer's, the page modules'...) runs with Node's own
runner (``node --test``, no npm packages), so ``python3 dev.py test`` runs them too. A new file
under ``tests/js/`` is picked up by its name alone.

Node is required, not optional: CI installs it (``.ci/run``), and a machine without it fails
here with the reason instead of skipping the browser engine's tests.

A head start: when the session's tests include these, the files start running one after another
in a thread of their own as soon as collection ends (tests/unit/conftest.py), at a lower priority,
on the core the tests before them leave idle; a file's test then takes that run's result (waiting
for it if it is under way), or runs the file itself if the head start has not reached it. Either
way the item passes exactly when ``node --test`` passes on that file."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "tests" / "js"
FILES = sorted(JS_TESTS.rglob("*.test.js"))
NODE_TIMEOUT_S = 600
"""A whole file's limit (seconds of wall time). The files take about a second of CPU or a few on
this project's 2-core machines; the limit only catches a hung process on a loaded machine."""
HEAD_START_NICENESS = 10
"""Niceness added to the head start's Node runs: the tests running meanwhile keep their CPU."""
HEAD_START = pytest.StashKey["NodeRuns | None"]()
"""Where tests/unit/conftest.py leaves the session's head start."""


def run_file(node: str, path: Path, niceness: int = 0, started=None) -> subprocess.CompletedProcess:
    """`node --test` of one file (raises subprocess.TimeoutExpired past NODE_TIMEOUT_S, after
    killing it); `started(process)` is called with the process once it runs."""
    env = {**os.environ, "NODE_OPTIONS": "", "NO_COLOR": "1"}
    argv = [node, "--test", "--test-reporter=spec", str(path)]
    with subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          preexec_fn=(lambda: os.nice(niceness)) if niceness else None) as process:
        if started is not None:
            started(process)
        try:
            stdout, stderr = process.communicate(timeout=NODE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
    return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


class NodeRuns:
    """The head start: `node --test` of each of `paths`, in order, one at a time, in a thread, at
    HEAD_START_NICENESS. `result(path)` is the file's run: the thread's (waited for when under
    way) or, for a file the thread has not started, one run now by the caller (the thread then
    skips it)."""

    def __init__(self, node: str, paths: list[Path]):
        self._node = node
        self._lock = threading.Lock()
        self._claimed: set[Path] = set()
        self._done = {path: threading.Event() for path in paths}
        self._results: dict[Path, subprocess.CompletedProcess | BaseException] = {}
        self._closed = False
        self._running: subprocess.Popen | None = None
        self._thread = threading.Thread(target=self._run_ahead, args=(list(paths),), daemon=True)
        self._thread.start()

    def _run_ahead(self, paths: list[Path]) -> None:
        for path in paths:
            with self._lock:
                if self._closed:
                    return
                if path in self._claimed:
                    continue
                self._claimed.add(path)
            try:
                self._results[path] = run_file(self._node, path, HEAD_START_NICENESS, self._started)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the file's test
                self._results[path] = exc
            self._done[path].set()

    def _started(self, process: subprocess.Popen) -> None:
        with self._lock:
            self._running = process
            if self._closed:
                process.kill()

    def covers(self, path: Path) -> bool:
        return path in self._done

    def result(self, path: Path) -> subprocess.CompletedProcess:
        with self._lock:
            ahead = path in self._claimed
            self._claimed.add(path)
        if not ahead:
            return run_file(self._node, path)
        self._done[path].wait()  # the run's own timeout (NODE_TIMEOUT_S) bounds this wait
        result = self._results[path]
        if isinstance(result, BaseException):
            raise result
        return result

    def close(self) -> None:
        """The thread starts no other file and the run under way is killed (the session is over:
        no test waits for it)."""
        with self._lock:
            self._closed = True
            if self._running is not None and self._running.poll() is None:
                self._running.kill()


def head_start(items: list, node: str) -> NodeRuns:
    """The head start of the files of `items` (this module's `test_node_file` items), in their order."""
    return NodeRuns(node, [item.callspec.params["path"] for item in items])


def test_there_are_node_test_files():
    assert FILES, f"no *.test.js under {JS_TESTS}"


@pytest.mark.timeout(NODE_TIMEOUT_S + 30)
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(JS_TESTS)) for p in FILES])
def test_node_file(path: Path, node: str, request):
    runs = request.config.stash.get(HEAD_START, None)
    result = runs.result(path) if runs is not None and runs.covers(path) else run_file(node, path)
    if result.returncode != 0:
        pytest.fail(f"node --test {path.relative_to(ROOT)} failed (exit {result.returncode}):\n"
                    f"{result.stdout[-20000:]}\n{result.stderr[-5000:]}", pytrace=False)
