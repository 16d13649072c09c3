"""The puzzle analyses' head start: when the session's tests include those of
test_analysis_puzzles.py, their Node work starts as soon as collection ends, on one process at a
lower priority, while the tests before them run (most of the suite leaves one of the two cores
idle; tests/conftest.py runs these tests last); the module's `analyses` fixture then adds a
process per core for what is left and collects the results. The tests assert on the same jobs and
the same results either way (the searches are bounded by nodes, never by time)."""

from __future__ import annotations

import shutil

import pytest

HEAD_START_MODULE = pytest.StashKey[object]()
"""The puzzle test module whose head start this session started (its HEAD_START holds it)."""


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    items = [item for item in session.items if getattr(getattr(item, "function", None), "puzzle_jobs", None)]
    node = shutil.which("node")
    if items and node:  # without Node the `node` fixture fails the tests with the reason
        module = items[0].module
        session.config.stash[module.HEAD_START] = module.head_start(items, node)
        session.config.stash[HEAD_START_MODULE] = module


def pytest_sessionfinish(session):
    module = session.config.stash.get(HEAD_START_MODULE, None)
    started = module and session.config.stash.get(module.HEAD_START, None)
    if started is not None:  # the module's fixture never ran (its tests were not reached)
        started.pool.close(kill=True)
        session.config.stash[module.HEAD_START] = None
