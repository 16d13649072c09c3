"""Unit-test helpers shared by several folders: Node.js for the browser code's tests, and the head
start of the Node test files (test_node_suites.py: they start running when collection ends)."""

from __future__ import annotations

import shutil

import pytest

NODE_SUITES_MODULE = pytest.StashKey[object]()
"""test_node_suites.py, when this session started its head start (its HEAD_START holds it)."""


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    items = [item for item in session.items if getattr(item, "originalname", None) == "test_node_file"
             and item.module.__name__.rpartition(".")[2] == "test_node_suites"]
    node = shutil.which("node")
    if items and node:  # without Node the `node` fixture fails the tests with the reason
        module = items[0].module
        session.config.stash[module.HEAD_START] = module.head_start(items, node)
        session.config.stash[NODE_SUITES_MODULE] = module


def pytest_sessionfinish(session):
    module = session.config.stash.get(NODE_SUITES_MODULE, None)
    runs = module and session.config.stash.get(module.HEAD_START, None)
    if runs is not None:
        runs.close()


@pytest.fixture(scope="session")
def node() -> str:
    """The path of the `node` executable. Fails (never skips) when Node.js is missing: CI installs
    it (.ci/run), and the browser engine's tests must not vanish on a machine without it."""
    path = shutil.which("node")
    if path is None:
        pytest.fail("Node.js is not installed: the browser engine's tests need `node` on PATH "
                    "(Debian: apt-get install nodejs; .ci/run installs it)", pytrace=False)
    return path
