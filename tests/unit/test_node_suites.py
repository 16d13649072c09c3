"""The Node test files of the browser code, each one a pytest item: every ``tests/js/**/*.test.js``
(the browser rules engine's, the browser computer's, the page modules'...) runs with Node's own
runner (``node --test``, no npm packages), so ``python3 dev.py test`` runs them too. A new file
under ``tests/js/`` is picked up by its name alone.

Node is required, not optional: CI installs it (``.ci/run``), and a machine without it fails
here with the reason instead of skipping the browser engine's tests.

The files have a head start (tests/head_start.py): the session runs them from the end of collection,
and a file's item takes that run, or runs the file itself if the head start has not reached it;
either way it passes exactly when ``node --test`` passes on the file."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.head_start import runs_ahead

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "tests" / "js"
FILES = sorted(JS_TESTS.rglob("*.test.js"))
NODE_TIMEOUT_S = 600
"""A whole file's limit (seconds of wall time). The files take about a second of CPU or a few on
this project's 2-core machines; the limit only catches a hung process on a loaded machine."""


def _argv(node: str, path: Path) -> list[str]:
    return [node, "--test", "--test-reporter=spec", str(path)]


def _commands(item) -> dict:
    """The head start's command of a `test_node_file` item (tests/head_start.py)."""
    node = shutil.which("node")
    path = item.callspec.params["path"]
    return {f"node --test {path}": (_argv(node, path), NODE_TIMEOUT_S)} if node else {}


def test_there_are_node_test_files():
    assert FILES, f"no *.test.js under {JS_TESTS}"


@pytest.mark.timeout(NODE_TIMEOUT_S + 30)
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(JS_TESTS)) for p in FILES])
@runs_ahead(_commands)
def test_node_file(path: Path, node: str, head_start):
    result = head_start and head_start.take(f"node --test {path}")
    if result is None:  # not started ahead: run it now
        env = {**os.environ, "NODE_OPTIONS": "", "NO_COLOR": "1"}
        result = subprocess.run(_argv(node, path), cwd=ROOT, env=env, capture_output=True, text=True,
                                timeout=NODE_TIMEOUT_S)
    if result.returncode != 0:
        pytest.fail(f"node --test {path.relative_to(ROOT)} failed (exit {result.returncode}):\n"
                    f"{result.stdout[-20000:]}\n{result.stderr[-5000:]}", pytrace=False)
