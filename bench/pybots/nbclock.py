"""What the compiled (numba) modules of the bots share: where their compiled functions are cached,
and the search clock.

Importing this module first sets ``NUMBA_CACHE_DIR`` when the package folder is read-only (a
Docker image): numba then caches compiled functions in the temp folder instead of next to the
sources. Every compiled module imports it before numba.

The clock: a search keeps ``ctl = [nodes, max_nodes, next_check, stop, ...]`` (int64) and
``tm = [deadline]`` (float64, ``time.perf_counter()`` seconds). :func:`tick` counts a node and,
every :data:`CHECK_EVERY` nodes, looks at the node cap and at the clock through
``numba.objmode`` (so ``bench/* --cpu-clock``, which replaces ``time.perf_counter``, is obeyed).
"""

from __future__ import annotations

import os
import tempfile
import time

if "NUMBA_CACHE_DIR" not in os.environ and not os.access(os.path.dirname(os.path.abspath(__file__)), os.W_OK):
    # read-only package dir (e.g. a Docker image): compiled functions are cached in the temp dir
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "caro-numba-cache")

import numba  # noqa: E402
from numba import njit  # noqa: E402

NODES, MAX_NODES, NEXT_CHECK, STOP = range(4)  # the first entries of a search's ``ctl``
STOP_NONE, STOP_TIME = 0, 1  # ``ctl[STOP]``: searching / the deadline or the node cap passed
CHECK_EVERY = 1024  # nodes between two looks at the clock (a few hundred microseconds)


@njit(cache=True)
def now():
    """``time.perf_counter()`` from compiled code (seconds)."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, inline="always")
def tick(ctl, tm):
    """Count one node in ``ctl``; every :data:`CHECK_EVERY` nodes, set ``ctl[STOP]`` to
    :data:`STOP_TIME` when ``ctl[MAX_NODES]`` nodes were searched or the deadline ``tm[0]``
    passed. Returns True when the search must stop (``ctl[STOP]`` set, for any reason)."""
    ctl[NODES] += 1
    if ctl[NODES] >= ctl[NEXT_CHECK]:
        if ctl[NODES] >= ctl[MAX_NODES] or now() > tm[0]:
            ctl[STOP] = STOP_TIME
        ctl[NEXT_CHECK] = min(ctl[NODES] + CHECK_EVERY, ctl[MAX_NODES])
    return ctl[STOP] != STOP_NONE
