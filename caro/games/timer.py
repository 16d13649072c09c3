"""The deadline timer: a thread in one process of every Celery worker that ends games on time the
moment their move or absence deadline passes (docs/architecture.md, "Where time and endings live").

Deadlines live in PostgreSQL (`Game.deadline`, `Game.absence_deadline`). The timer asks it for the
nearest one (through `Game.wake_at`, never after the move deadline: `deadline` itself is not
indexed, so that a move's UPDATE is HOT), sleeps until then (at most TICK_S, so a deadline set
meanwhile, earlier than the one it waits for, is noticed within that time), and ends every game
that is due in batches: one transaction per batch locks the due rows
with `SELECT ... FOR UPDATE SKIP LOCKED` and ends them through `finish_many` (services
`enforce_due_deadlines`, `enforce_due_absences`). The game-over events of a batch leave together
after its commit through the worker's one event loop, in two Redis round trips for the whole
batch (`outbox.collected`, `outbox.send_batch`), while the timer goes on to the next batch.

**One timer per worker, not per worker process.** Every look wakes an idle PostgreSQL backend
(about 0.5 ms of its CPU, whatever the query), so the processes of one worker (prefork children)
share one timer: each starts the thread, and the thread that holds the worker's lock file
(`fcntl.lockf`, exclusive, taken without waiting; `share_per_worker` names the file in the worker's
main process before it forks) runs it, while the others retry the lock every STANDBY_S without
a query. The kernel releases the lock when its process dies, so a standby takes over within
STANDBY_S. So one worker looks at most 1/TICK_S times a second when no deadline is near.

Nothing is held in memory or in the broker: a worker that restarts, or a Redis that restarts,
loses nothing; the timer of any worker picks up every due game from the table, and several
timers (workers, machines) share a burst without ending a game twice (the row lock, SKIP LOCKED,
and enforcement that re-checks the deadline under the lock). The beat sweep
(`tasks.sweep_deadlines`, every second) stays as a second line, e.g. for a worker whose timer
thread died.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from datetime import datetime

import psycopg
from django.db import connection
from django.utils import timezone

from caro.games import outbox
from caro.games.services import lean, presence
from caro.games.services import time as deadlines

log = logging.getLogger(__name__)

#: The longest the timer sleeps between two looks at the nearest deadline (s): a deadline set
#: closer than the one it waits for (a move that leaves the opponent a nearly empty bank) is at
#: most this late. A deadline the timer knows is slept to exactly. (0.25 until issue 27's fifth
#: step: four looks a second per worker process, 0.08 ms of PostgreSQL's CPU a move at 50 moves a
#: second with two processes, docs/scaling.md.)
TICK_S = 1.0
#: After a failed round (PostgreSQL away), wait this long before the next try (s).
RETRY_S = 1.0
#: How often a process that does not run its worker's timer tries the worker's lock (s).
STANDBY_S = 1.0
#: The timer's connection says so in `pg_stat_activity.application_name` (tests, benches).
APPLICATION_NAME = "caro deadline timer"

_thread_state: dict = {"thread": None, "stop": None, "lock_path": None, "connection": None}


def share_per_worker(path: str | os.PathLike | None) -> None:
    """Make this process and the processes it forks from now on run one timer between them: the
    one that holds an exclusive lock on the file `path` (created if missing). Call it in a
    worker's main process before its pool forks (`tasks.share_deadline_timer`); None: every
    process runs its own (the default, e.g. a test that starts the timer itself)."""
    _thread_state["lock_path"] = None if path is None else os.fspath(path)


def _take_turn(stop: threading.Event):
    """Wait until this process holds its worker's timer lock (`share_per_worker`), retrying
    every STANDBY_S; return the open lock file (keep it open: closing it releases the lock), or
    None when no lock is shared or `stop` was set first. Logs when it stands by and when it
    takes over."""
    path = _thread_state["lock_path"]
    if path is None:
        return None
    held = open(path, "a+b")  # noqa: SIM115 - held for the thread's life
    waited = False
    while not stop.is_set():
        try:
            fcntl.lockf(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            if not waited:
                log.info("deadline timer: process %d stands by (another process of this worker runs it)", os.getpid())
                waited = True
            stop.wait(STANDBY_S)
            continue
        log.info("deadline timer: process %d runs this worker's timer", os.getpid())
        return held
    held.close()
    return None


#: The nearest move and absence deadlines of the active games, each its own scalar subquery so
#: that PostgreSQL reads each from the end of its partial index (`game_wake_active`,
#: `game_absence_active`: one index entry each, however many games are active). One aggregate
#: with both minimums read every active row instead (its plan: the whole `game_wake_active`
#: index and each row for its absence deadline), and the ORM's statement was planned again at
#: every look (0.4 ms of planning): together about 0.4 ms of PostgreSQL's CPU a look, eight looks a
#: second with two worker processes, 0.07 ms a move at 50 moves a second (bench/ws_relay.py).
NEAREST_SQL = (
    "SELECT (SELECT min(wake_at) FROM games_game WHERE status = 'active'), "
    "(SELECT min(absence_deadline) FROM games_game WHERE status = 'active' AND absence_deadline IS NOT NULL)"
)


def nearest_deadline() -> datetime | None:
    """When the timer must look next (an aware datetime), or None: the earliest absence deadline
    or `wake_at` of any active game. `wake_at` is never after the game's move deadline (equal to it
    whenever the timer last looked, earlier when moves pushed the deadline on since), so the
    timer never sleeps past a deadline; at an early `wake_at` it only moves it on (`run_due`).

    One prepared statement (server-side binding, `NEAREST_SQL`) on Django's connection of this
    thread, in its transaction if one is open. Raises psycopg's errors (the timer's loop logs
    them and connects afresh). The timer thread's connection is named APPLICATION_NAME the first
    time it looks through it."""
    connection.ensure_connection()
    raw = connection.connection
    with psycopg.Cursor(raw) as cursor:
        if _thread_state["connection"] is not raw and threading.current_thread() is _thread_state["thread"]:
            cursor.execute(f"SET application_name = '{APPLICATION_NAME}'")
            # Django turns psycopg's prepared statements off (prepare_threshold None), which
            # makes it ignore `prepare=True`: the look was planned again every time.
            raw.prepare_threshold = lean.PREPARE_THRESHOLD
            _thread_state["connection"] = raw
        cursor.execute(NEAREST_SQL, prepare=True)
        times = [t for t in cursor.fetchone() if t is not None]
    return min(times) if times else None


def run_due(now: datetime | None = None) -> int:
    """End every game whose move deadline or absence grace passed by `now` (default: the current
    time), batch after batch until none is left that this process could lock; broadcast each
    batch's events after its commit. First `wake_at` is moved on to the deadline for the games
    whose `wake_at` passed but whose deadline has not (`time.advance_wakeups`), so the batches
    read only due games. Returns how many games it ended or applied an absence rule to (logged
    when any)."""
    now = now or timezone.now()
    while deadlines.advance_wakeups(now) == deadlines.WAKE_BATCH:  # first: what is left is due
        pass
    counts = [drain(deadlines.enforce_due_deadlines, now, deadlines.DUE_BATCH),
              drain(presence.enforce_due_absences, now, presence.DUE_BATCH)]
    if any(counts):
        log.info("deadline timer: %d game(s) ended on time, %d absence rule(s) applied", *counts)
    return sum(counts)


def drain(enforce, now: datetime | None, limit: int) -> int:
    """Call `enforce(now, limit)` (a batch enforcement returning the ids it changed, at most
    `limit`) until a batch comes back short; return the total. Each batch's broadcasts leave together after its commit, handed
    to the process's event loop without waiting (`outbox.collected(wait=False)`), so the next
    batch is ended while the last one's game-over events are on their way."""
    total = 0
    while True:
        with outbox.collected(wait=False):
            batch = enforce(now, limit)
        total += len(batch)
        if len(batch) < limit:
            return total


def loop(stop: threading.Event) -> None:
    """The timer's body: once this process holds its worker's turn (`_take_turn`), until `stop`
    is set, enforce what is due, then sleep until the nearest deadline (at most TICK_S). Errors
    are logged and retried after RETRY_S, never raised.

    The thread keeps its database connection between rounds (a round is a query or two, at
    least once a second) and drops it after an error, so the next round connects afresh (e.g.
    after a PostgreSQL restart)."""
    turn = _take_turn(stop)
    while not stop.is_set():
        try:
            now = timezone.now()
            nearest = nearest_deadline()
            if nearest is not None and nearest <= now:
                run_due(now)
                nearest = nearest_deadline()
            wait = TICK_S if nearest is None else (nearest - timezone.now()).total_seconds()
            wait = min(TICK_S, max(0.0, wait))
        except Exception:
            log.exception("deadline timer round failed")
            connection.close()
            wait = RETRY_S
        stop.wait(wait)
    connection.close()
    if turn is not None:
        turn.close()  # releases the lock: a standby process of this worker takes over


def start() -> None:
    """Start this process's timer thread (once per process; a forked child starts its own)."""
    thread = _thread_state["thread"]
    if thread is not None and thread.is_alive():
        return
    stop = threading.Event()
    thread = threading.Thread(target=loop, args=(stop,), name="deadline-timer", daemon=True)
    _thread_state.update(thread=thread, stop=stop)
    thread.start()


def stop(timeout: float = 5.0) -> None:
    """Stop this process's timer thread (waiting up to `timeout` s for its round to finish)."""
    thread, event = _thread_state["thread"], _thread_state["stop"]
    if thread is None:
        return
    event.set()
    thread.join(timeout)
    _thread_state.update(thread=None, stop=None, connection=None)
