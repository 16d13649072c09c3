"""The deadline timer's looks (caro/games/timer.py, issue 27): one timer per worker, not per
worker process, and at most 1/TICK_S looks a second when no deadline is near, while a deadline it
knows is slept to exactly and one a move makes earlier is found within TICK_S.

Real PostgreSQL and, for the per-worker timer, a real prefork Celery worker of two processes. The
loop's sleeps are recorded instead of slept (`Sleeps`), so what the loop would wait is asserted,
not how long anything took."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from caro.games import timer
from caro.games.models import Game
from tests.integration.helpers import play_sequence, started_game

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a test waits for what must come in the end on a loaded machine (s).
SETTLES_S = 90.0


class Sleeps:
    """A stop event for `timer.loop` that records each wait it is asked for and returns at once;
    `on_wait(n)` runs before the n-th wait returns (change the games between two looks); the
    loop stops after `rounds` waits."""

    def __init__(self, rounds: int, on_wait=None) -> None:
        self.waits: list[float] = []
        self.rounds, self.on_wait = rounds, on_wait
        self.looks = 0

    def is_set(self) -> bool:
        return len(self.waits) >= self.rounds

    def wait(self, seconds: float) -> bool:
        self.waits.append(seconds)
        if self.on_wait is not None:
            self.on_wait(len(self.waits))
        return self.is_set()


def _run_loop(sleeps: Sleeps, monkeypatch) -> None:
    """`timer.loop(sleeps)` in a thread of its own (its own connection, closed at the end),
    counting the looks at the nearest deadline."""
    look = timer.nearest_deadline

    def counted():
        sleeps.looks += 1
        return look()

    monkeypatch.setattr(timer, "nearest_deadline", counted)
    failures = []

    def body():
        try:
            timer.loop(sleeps)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    thread = threading.Thread(target=body)
    thread.start()
    thread.join(SETTLES_S)
    assert not thread.is_alive() and not failures, failures


def _deadline_in(game, seconds: float):
    """Set `game`'s move deadline `seconds` from now (as a move leaving that much time would)."""
    deadline = timezone.now() + timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    return deadline


def test_the_timer_looks_once_a_tick_when_no_deadline_is_near(monkeypatch):
    """A game whose deadline is 10 minutes away: every sleep is the whole tick, and the tick is
    at least a second (at 0.25 s, two worker processes looked 8 times a second: 0.08 ms of
    PostgreSQL's CPU a move at 50 moves a second, docs/scaling.md)."""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    _deadline_in(game, 600)
    sleeps = Sleeps(rounds=5)
    _run_loop(sleeps, monkeypatch)
    assert timer.TICK_S >= 1.0
    assert sleeps.waits == [timer.TICK_S] * 5
    assert sleeps.looks == 5  # one look per round: no look is repeated within a round


def test_a_known_deadline_is_slept_to_and_one_a_move_makes_earlier_is_found_within_a_tick(monkeypatch):
    """The loop sleeps at most TICK_S (so a deadline a move makes earlier than the one it knows is
    at most TICK_S late), sleeps exactly until a deadline it knows that is nearer, and ends the
    game at its first look after the deadline."""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    _deadline_in(game, 600)
    near = {}

    def between_looks(n):
        if n == 2:  # a move leaves the player to move 0.5 s: earlier than anything the timer knew
            near["deadline"] = _deadline_in(game, 0.5)
        if n == 3:  # the deadline passes before the next look
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=5))

    sleeps = Sleeps(rounds=4, on_wait=between_looks)
    _run_loop(sleeps, monkeypatch)
    assert sleeps.waits[:2] == [timer.TICK_S, timer.TICK_S]
    assert max(sleeps.waits) <= timer.TICK_S <= 1.0  # never sleeps past a deadline by more than the tick
    assert 0 < sleeps.waits[2] <= 0.5  # the third look knew the 0.5-s deadline and slept only until it
    game.refresh_from_db()
    assert (game.status, game.termination) == (Game.Status.FINISHED, "timeout")


def _worker_lines(log, pattern: str) -> list[str]:
    return re.findall(pattern, log.read_text(errors="replace"))


def _timer_backends() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND application_name = %s", [timer.APPLICATION_NAME])
        return cursor.fetchone()[0]


def _until(condition, what: str, log):
    limit = time.monotonic() + SETTLES_S
    while not (value := condition()):
        assert time.monotonic() < limit, f"{what}:\n" + log.read_text(errors="replace")[-4000:]
        time.sleep(0.1)
    return value


@pytest.mark.timeout(300)
def test_a_worker_of_two_processes_runs_one_timer_and_the_other_takes_over_when_it_dies(
        transactional_db, django_db_blocker, tmp_path):
    """A prefork worker with two processes: one runs the timer (one PostgreSQL backend named
    APPLICATION_NAME), the other stands by without a connection; when the running one is killed,
    another living process takes over and ends a game whose clock runs out."""
    from caro.celery import app
    from tests.conftest import _child_env, start_workers, stop_workers

    with django_db_blocker.unblock():
        env = _child_env()
    app.control.purge()
    procs = start_workers(env, tmp_path, extra=("--pool=prefork", "--concurrency=2"))
    log = procs["celery"][1]
    try:
        runs = r"deadline timer: process (\d+) runs this worker's timer"
        stands = r"deadline timer: process (\d+) stands by"
        _until(lambda: _worker_lines(log, runs) and _worker_lines(log, stands), "one runs, one stands by", log)
        runner, = _worker_lines(log, runs)
        standby, = _worker_lines(log, stands)
        assert runner != standby
        _until(lambda: _timer_backends() == 1, "one timer backend", log)

        os.kill(int(runner), signal.SIGKILL)
        # A living process takes over: the one standing by, or the child the worker starts in the
        # killed one's place when it reaches the lock first (both try it; a loaded machine decides).
        _until(lambda: len(_worker_lines(log, runs)) == 2, "another process takes over", log)
        assert _worker_lines(log, runs)[1] != runner
        _until(lambda: _timer_backends() == 1, "the dead process's backend gone, the new one's there", log)

        game, x, o = started_game()
        play_sequence(game, x, o, ["H8", "H9"])
        _deadline_in(game, 0.5)

        def ended():
            game.refresh_from_db()
            return game.status != Game.Status.ACTIVE

        _until(ended, "the game ended on time", log)
        assert (game.winner, game.termination) == ("O", "timeout")
        assert _timer_backends() == 1  # one timer still: the other living process stands by
    finally:
        stop_workers(procs)
        app.control.purge()
