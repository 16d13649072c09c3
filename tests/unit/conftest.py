"""Unit-test helpers shared by several folders: Node.js for the browser code's tests."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def node() -> str:
    """The path of the `node` executable. Fails (never skips) when Node.js is missing: CI installs
    it (.ci/run), and the browser engine's tests must not vanish on a machine without it."""
    path = shutil.which("node")
    if path is None:
        pytest.fail("Node.js is not installed: the browser engine's tests need `node` on PATH "
                    "(Debian: apt-get install nodejs; .ci/run installs it)", pytrace=False)
    return path
