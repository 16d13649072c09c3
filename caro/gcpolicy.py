"""The garbage collector of a long-lived web process (issue 27): no collector pauses on the live path.

CPython's cyclic collector stops the whole process while it runs, and a full (oldest-generation)
collection walks every tracked object: in a web process that is everything start-up made (Django,
the URL patterns, templates, translations: ~140,000 objects) plus every open socket's. With the
default thresholds (700, 10, 10) the collections came every few seconds and each full one took
87-217 ms, which delayed every move in flight (docs/scaling.md). So the web process:

1. sets thresholds for a server (`THRESHOLDS`): a young collection after 50,000 net new container
   objects instead of 700, so the short-lived objects of a move (frames, dicts, futures) are freed
   by their reference counts before any collection sees them and are not promoted to older
   generations (which is what made full collections frequent);
2. freezes what start-up made (`gc.freeze()`, after a full collection), once when the server
   starts serving and once more WARM_S later (the modules, templates and catalogues the first
   requests loaded): frozen objects are never walked again;
3. times every collection (`gc.callbacks`): the longest pause so far is kept (`stats()`), a pause
   over SLOW_PAUSE_MS is logged, and with `CARO_GC_LOG=<file>` each pause of at least
   LOG_PAUSE_MS is appended to that file as `<unix time s> <generation> <ms>` (bench/ws_relay.py
   sets it and prints the longest pause of each run).

The cost: garbage in reference cycles waits longer before it is freed (a young collection comes
after 50,000 net allocations), and a cycle that was alive at a freeze and dies later stays until
the process ends (start-up objects practically never die; the second freeze may keep a few
hundred objects of the sockets open at that moment).
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time

log = logging.getLogger(__name__)

#: gc.set_threshold(young, middle, old): see the module docstring (CPython's default: 700, 10, 10).
THRESHOLDS = (50_000, 20, 100)
#: Seconds after the server starts serving when what start-up and the first requests made is
#: frozen a second time.
WARM_S = 30.0
#: A collection pause longer than this is logged (ms).
SLOW_PAUSE_MS = 50.0
#: With CARO_GC_LOG, pauses of at least this many ms are written to the file.
LOG_PAUSE_MS = 1.0

_state = {"started": None, "max_ms": 0.0, "count": 0, "total_ms": 0.0, "file": None, "frozen": 0}
_lock = threading.Lock()


def apply(call_later=None) -> None:
    """Apply the policy in this process: thresholds, the pause timer, a freeze now and, given
    `call_later(seconds, function)` (the server's scheduler), another one WARM_S later."""
    gc.set_threshold(*THRESHOLDS)
    if _timer not in gc.callbacks:
        path = os.environ.get("CARO_GC_LOG")
        if path:
            _state["file"] = open(path, "a", buffering=1)
        gc.callbacks.append(_timer)
    freeze()
    if call_later is not None:
        call_later(WARM_S, freeze)


def freeze() -> int:
    """Collect every generation, then move every object left out of the collector's reach;
    returns how many objects are frozen now."""
    gc.collect()
    gc.freeze()
    _state["frozen"] = gc.get_freeze_count()
    log.info("gc: %d objects frozen, thresholds %s", _state["frozen"], gc.get_threshold())
    return _state["frozen"]


def stats() -> dict:
    """Collections timed so far: `count`, `max_ms` (the longest pause), `total_ms`, `frozen`."""
    return {k: _state[k] for k in ("count", "max_ms", "total_ms", "frozen")}


def _timer(phase: str, info: dict) -> None:
    if phase == "start":
        _state["started"] = time.perf_counter()
        return
    started, _state["started"] = _state["started"], None
    if started is None:
        return
    ms = (time.perf_counter() - started) * 1000
    with _lock:
        _state["count"] += 1
        _state["total_ms"] += ms
        _state["max_ms"] = max(_state["max_ms"], ms)
        handle = _state["file"]
    if handle is not None and ms >= LOG_PAUSE_MS:
        try:
            handle.write(f"{time.time():.3f} {info.get('generation')} {ms:.2f}\n")
        except (OSError, ValueError):
            pass
    if ms > SLOW_PAUSE_MS:
        log.warning("gc: generation %s took %.0f ms (%s collected)", info.get("generation"), ms, info.get("collected"))
