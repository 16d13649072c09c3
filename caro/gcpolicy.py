"""The garbage collector of a long-lived web process (issue 27): no collector pauses on the live path.

CPython's cyclic collector stops the whole process while it runs, and a full (oldest-generation)
collection walks every tracked object that is not frozen: in a web process that is everything
start-up made (Django, the URL patterns, templates, translations: ~150,000 objects) plus every open
socket's (about 170-250 each: Twisted's transport, autobahn's and Daphne's protocol, Channels'
consumer and its tasks, the scope's session and user). With CPython's default thresholds (700, 10,
10) full collections came every few seconds and took 87-217 ms at 50-500 games; with the start-up
frozen, 2,000 open sockets still made one full collection of 1.5 s (docs/scaling.md). So the web
process:

1. sets thresholds for a server (`THRESHOLDS`): a young collection after 50,000 net new container
   objects instead of 700, so the short-lived objects of a move (frames, dicts, futures) are freed
   by their reference counts before any collection sees them and are not promoted to older
   generations (which is what made full collections frequent);
2. **freezes what lives long, again and again** (`gc.freeze()`): once the server serves, then
   whenever FREEZE_AT_YOUNG tracked objects are not frozen yet, or
   FREEZE_EVERY_S passed (looked at every CHECK_EVERY_S to CHECK_MAX_S, sooner the faster
   objects are made: `next_look_s`), at a *settled* moment: no page and no
   socket's handshake in flight (`InFlight`,
   the ASGI application's wrapper, counts them). A freeze first collects what is not frozen yet
   (what the process made since the last freeze: a short pause, logged like any other), then moves
   every survivor (the open sockets' objects, mostly) out of the collector's reach for good. So a
   collection, full or not, only ever walks what was made in the last few seconds. A round that
   finds no settled moment within FORCE_AFTER_S freezes anyway, so that the pause stays bounded on
   a process that is never idle (what is in flight then may stay frozen: see below);
3. times every collection (`gc.callbacks`): the longest pause so far is kept (`stats()`), a pause
   over SLOW_PAUSE_MS is logged, and with `CARO_GC_LOG=<file>` each pause of at least
   LOG_PAUSE_MS is appended to that file as `<unix time s> <generation> <ms> <cpu ms>` (the
   pause's wall time, and the CPU time the collecting thread spent in it: on a loaded machine the
   wall time is mostly the wait for a core; bench/ws_relay.py sets it and prints the longest
   pause of each run, both ways).

**Why frozen sockets do not leak.** A frozen object is still freed the moment its reference count
drops to zero; only garbage held in reference cycles needs the collector, and frozen cycles are
never collected. So a socket's objects may be frozen only if they are freed by reference counts
when it closes. They are: the two cycles Daphne and autobahn left behind for every closed
websocket are broken by the web server as the socket closes (caro.webserver:
`CollectableWebSocketProtocol`, `BoundedHTTPChannel`), and `tests/integration/test_gc_policy.py`
asserts that a closed socket leaves nothing for the collector. A page's objects, on the other
hand, do die in cycles (Django's request, template context and form objects refer to each other):
that is why a freeze waits for a moment with no page in flight. What a *forced* freeze catches in
flight (a page, a handshake, a database call in a thread) and later dies in a cycle stays until
the process ends: `stats()["forced"]` counts them, and `bench/gc_churn.py` shows memory per socket
staying flat over rounds of sockets opening and closing.

With `CARO_GC_AUDIT=<file>` (tests and benches only), SIGUSR2 makes the process run `audit()` on
its loop: it unfreezes everything, collects it all (one long pause) keeping what it found, and
appends to the file a JSON line with how many objects the collection found dead in cycles, by
type: what freezing would have leaked.
"""

from __future__ import annotations

import collections
import gc
import json
import logging
import os
import signal
import threading
import time

log = logging.getLogger(__name__)

#: gc.set_threshold(young, middle, old): see the module docstring (CPython's default: 700, 10, 10).
THRESHOLDS = (50_000, 20, 100)
#: Seconds between two freezes of what the process made meanwhile, at most...
FREEZE_EVERY_S = 10.0
#: ...and sooner once this many tracked objects are not frozen (`young_objects`): the freeze's
#: collection walks every one of them (about 1 µs each), so this bounds its pause to about 10 ms
#: of CPU. With 2,000 open sockets, every message a socket gets re-creates its
#: consumer's pending tasks, futures and coroutines (~40 objects), which live until its next
#: message: 10 s of play at 1,000 games left 65,000-89,000 of them for each freeze, 97-115 ms of
#: CPU (500-650 ms of wall time at load 13-22) every 10 s (bench/ws_relay.py, 2026-12-06).
FREEZE_AT_YOUNG = 10_000
#: Seconds between two looks at whether a freeze is due (`young_objects`), at least...
CHECK_EVERY_S = 0.1
#: ...and at most: a look walks the collector's lists (about 20 ns an object), and ten looks a
#: second were 10 % of the web process's busy time at 50 games (py-spy, 2026-12-06), so the next
#: look comes when half the room left under FREEZE_AT_YOUNG would fill at the rate objects were
#: made since the last look (`next_look_s`). A burst that starts right after a look adds at most
#: CHECK_MAX_S of its objects to the next freeze's walk.
CHECK_MAX_S = 0.5
#: While something is in flight, the freeze looks again after this many seconds...
SETTLE_RETRY_S = 0.05
#: ...and freezes anyway once it has waited this long (s) for a settled moment.
FORCE_AFTER_S = 60.0
#: A collection pause longer than this is logged (ms).
SLOW_PAUSE_MS = 50.0
#: With CARO_GC_LOG, pauses of at least this many ms are written to the file.
LOG_PAUSE_MS = 1.0

_state = {"started": None, "max_ms": 0.0, "count": 0, "total_ms": 0.0, "file": None, "frozen": 0,
          "freezes": 0, "forced": 0, "freeze_max_ms": 0.0}
_lock = threading.Lock()
#: Pages and socket handshakes in flight (`InFlight`), as a one-element list.
_in_flight = [0]


def apply(call_later=None, call_from_thread=None) -> None:
    """Apply the policy in this process: thresholds, the pause timer, a freeze now and, given
    `call_later(seconds, function, *args)` (the server's scheduler), one whenever due
    (`freeze_due`) at a settled moment (`schedule`). With CARO_GC_AUDIT set and
    `call_from_thread(function)` given, SIGUSR2 runs `audit()` on the server's loop.

    The web server calls it before its port listens (caro.webserver): the first freeze collects
    everything start-up made (0.1 s on a quiet machine, 0.6-0.8 s at load 25 on 2 cores), and
    done once the port listened it held back the first sockets of a restarted process."""
    gc.set_threshold(*THRESHOLDS)
    if _timer not in gc.callbacks:
        path = os.environ.get("CARO_GC_LOG")
        if path:
            _state["file"] = open(path, "a", buffering=1)
        gc.callbacks.append(_timer)
    freeze()
    schedule(call_later, call_from_thread)


def schedule(call_later=None, call_from_thread=None) -> None:
    """The running part of `apply`: given `call_later`, a freeze whenever due (`freeze_due`) at
    a settled moment; given `call_from_thread` and CARO_GC_AUDIT, SIGUSR2 runs `audit()`."""
    if call_later is not None:
        call_later(CHECK_EVERY_S, _freeze_round, call_later, 0.0, time.monotonic())
    audit_path = os.environ.get("CARO_GC_AUDIT")
    if audit_path and call_from_thread is not None:
        signal.signal(signal.SIGUSR2, lambda _sig, _frame: call_from_thread(audit, audit_path))


def settled() -> bool:
    """Whether no page and no socket's handshake is in flight (`InFlight`)."""
    return _in_flight[0] == 0


def young_objects() -> int:
    """The tracked objects not frozen yet: what the next freeze's collection walks. Counted from
    the collector's lists (about 20 ns an object, so at most ~0.2 ms with FREEZE_AT_YOUNG of them),
    not from `gc.get_count()`, whose count goes down when FROZEN objects are freed: with thousands
    of sockets, each message frees the pending tasks the last freeze froze, and the count stayed
    under the bound while 80,000 new objects waited for the freeze (about 90 ms of CPU)."""
    return sum(len(gc.get_objects(generation)) for generation in range(3))


def freeze_due(since_s: float, young: int) -> bool:
    """Whether a freeze is due `since_s` seconds after the last one with `young` objects made since."""
    return since_s >= FREEZE_EVERY_S or young >= FREEZE_AT_YOUNG


def next_look_s(young: int, per_s: float) -> float:
    """Seconds until the next look at whether a freeze is due, with `young` objects not frozen and
    objects made at `per_s` a second since the last look: half the time they take to reach
    FREEZE_AT_YOUNG at that rate, between CHECK_EVERY_S and CHECK_MAX_S."""
    if per_s <= 0:
        return CHECK_MAX_S
    return min(CHECK_MAX_S, max(CHECK_EVERY_S, (FREEZE_AT_YOUNG - young) / per_s / 2))


#: The last look: when (monotonic s) and how many young objects it counted.
_look = {"at": 0.0, "young": 0}


def _freeze_round(call_later, waited: float, last: float) -> None:
    """One look (every `next_look_s`): freeze when due and settled (or after FORCE_AFTER_S of
    waiting for a settled moment), else look again. `last`: when the last freeze ended (monotonic s)."""
    if not waited:
        now, young = time.monotonic(), young_objects()
        if not freeze_due(now - last, young):
            since = now - max(_look["at"], last)
            per_s = (young - _look["young"]) / since if since > 0 and _look["at"] >= last else young / max(since, 1e-3)
            _look.update(at=now, young=young)
            call_later(next_look_s(young, per_s), _freeze_round, call_later, 0.0, last)
            return
    if settled() or waited >= FORCE_AFTER_S:
        try:
            freeze(forced=not settled())
        finally:
            done = time.monotonic()
            _look.update(at=done, young=0)
            call_later(CHECK_EVERY_S, _freeze_round, call_later, 0.0, done)
        return
    call_later(SETTLE_RETRY_S, _freeze_round, call_later, waited + SETTLE_RETRY_S, last)


def freeze(forced: bool = False) -> None:
    """Collect every object not frozen yet, then move every object left out of the collector's
    reach. `forced`: done while something was in flight (counted in `stats()`).

    It does not count the frozen objects: `gc.get_freeze_count()` walks every one of them (a
    few hundred thousand in a serving process: 5-20 ms with the loop stopped, every
    FREEZE_EVERY_S, on top of the freeze itself), so `stats()` counts them only when asked."""
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    ms = (time.perf_counter() - started) * 1000
    _state["freezes"] += 1
    _state["forced"] += forced
    _state["freeze_max_ms"] = max(_state["freeze_max_ms"], ms)
    log.debug("gc: frozen in %.1f ms%s", ms, " (forced)" if forced else "")


def stats() -> dict:
    """Collections timed so far: `count`, `max_ms` (the longest pause), `total_ms`; `frozen` (objects
    frozen now: counted by this call, which walks them all), `freezes`, `forced` (freezes made with
    something in flight) and `freeze_max_ms` (the longest freeze, its collection included)."""
    _state["frozen"] = gc.get_freeze_count()
    return {k: _state[k] for k in ("count", "max_ms", "total_ms", "frozen", "freezes", "forced", "freeze_max_ms")}


def audit(path: str) -> dict:
    """What a full collection of everything, frozen objects included, finds dead in reference
    cycles: `{"garbage": n, "types": [[type, count], ...] (the 30 most common), "tracked": objects
    left, "frozen": ..., "rss_kib": ...}`, appended to `path` as a JSON line. Stops the process for
    the whole collection (tests and benches only); everything left is frozen again."""
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        garbage = len(gc.garbage)
        gc.garbage.clear()
    finally:
        gc.set_debug(0)
    gc.collect()  # now without keeping it: what DEBUG_SAVEALL held is freed
    tracked = len(gc.get_objects())
    gc.freeze()
    report = {"time": time.time(), "garbage": garbage, "types": found.most_common(30), "tracked": tracked,
              "in_flight": _in_flight[0],
              "frozen": gc.get_freeze_count(), "rss_kib": _rss_kib(), **{f"policy_{k}": v for k, v in stats().items()}}
    with open(path, "a") as handle:
        handle.write(json.dumps(report) + "\n")
    return report


def _rss_kib() -> int | None:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError):
        return None


class InFlight:
    """ASGI middleware: counts the pages (HTTP requests) and socket handshakes in flight, for
    `settled()`. A page counts until the application returns; a websocket until its application
    asks for its second message (the connect is handled: the socket is settled) or returns."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        _in_flight[0] += 1
        counted = True

        def settle() -> None:
            nonlocal counted
            if counted:
                counted = False
                _in_flight[0] -= 1

        if kind == "websocket":
            calls = 0
            inner = receive

            def receive():  # not a coroutine function: inner's awaitable itself, no frame of its own per message
                nonlocal calls
                calls += 1
                if calls == 2:
                    settle()
                return inner()

            receive.__wrapped__ = inner  # (caro.rooms.consumers.input_queue looks through it)

        try:
            return await self.app(scope, receive, send)
        finally:
            settle()


def _timer(phase: str, info: dict) -> None:
    if phase == "start":
        _state["started"] = (time.perf_counter(), time.thread_time())
        return
    started, _state["started"] = _state["started"], None
    if started is None:
        return
    ms = (time.perf_counter() - started[0]) * 1000
    cpu_ms = (time.thread_time() - started[1]) * 1000
    with _lock:
        _state["count"] += 1
        _state["total_ms"] += ms
        _state["max_ms"] = max(_state["max_ms"], ms)
        handle = _state["file"]
    if handle is not None and ms >= LOG_PAUSE_MS:
        try:
            handle.write(f"{time.time():.3f} {info.get('generation')} {ms:.2f} {cpu_ms:.2f}\n")
        except (OSError, ValueError):
            pass
    if ms > SLOW_PAUSE_MS:
        log.warning("gc: generation %s took %.0f ms (%s collected)", info.get("generation"), ms, info.get("collected"))
