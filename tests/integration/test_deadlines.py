"""Move clocks: deadline tasks that fire late or twice, the beat sweep, and a real Celery worker."""

import re
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from django.db import connection, transaction

from caro.games import services, tasks, timer
from caro.games.models import Connection, Game
from caro.games.services import presence
from caro.games.services.time import DUE_BATCH, enforce_due_deadlines
from tests.integration.helpers import play, play_sequence, started_game

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def _expire(game):
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=10))


def test_a_task_firing_late_after_the_player_moved_has_no_effect():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])  # the task for ply 2 is now stale
    play(game, x, "I8")  # ply 3
    _expire(game)  # even with an expired deadline, the ply-2 task must not act
    assert tasks.enforce_move_deadline(game.pk, 2) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.ply == 3


def test_a_task_firing_twice_gives_one_result():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9", "I8"])
    _expire(game)
    assert tasks.enforce_move_deadline(game.pk, 3) is True
    game.refresh_from_db()
    first = (game.status, game.winner, game.termination, game.finished_at, game.event_version)
    assert tasks.enforce_move_deadline(game.pk, 3) is False
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination, game.finished_at, game.event_version) == first
    assert first[:3] == (Game.Status.FINISHED, "X", "timeout")  # O was to move and lost


def test_a_task_before_the_deadline_does_nothing():
    game, x, o = started_game()
    play(game, x, "H8")
    assert tasks.enforce_move_deadline(game.pk, 1) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_timeout_before_both_sides_moved_aborts():
    game, x, _o = started_game()
    play(game, x, "H8")
    _expire(game)
    assert tasks.enforce_move_deadline(game.pk, 1) is True
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.winner == "" and game.termination == "abort"


def test_the_sweep_catches_what_a_lost_task_missed():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    other, *_ = started_game()
    _expire(game)
    assert tasks.sweep_deadlines() == 1
    assert tasks.sweep_deadlines() == 0
    game.refresh_from_db()
    other.refresh_from_db()
    assert game.termination == "timeout" and game.winner == "O"
    assert other.status == Game.Status.ACTIVE


def test_the_timer_ends_every_due_game_once_in_batches_and_leaves_the_others():
    due = []
    for _ in range(DUE_BATCH + 5):  # more than one batch
        game, x, o = started_game()
        play_sequence(game, x, o, ["H8", "H9"])
        due.append(game)
    running, *_ = started_game()
    for game in due:
        _expire(game)
    assert timer.nearest_deadline() <= timezone.now()
    assert timer.run_due() == len(due)
    assert timer.run_due() == 0
    for game in due:
        game.refresh_from_db()
        assert (game.status, game.winner, game.termination) == (Game.Status.FINISHED, "O", "timeout")
    running.refresh_from_db()
    assert running.status == Game.Status.ACTIVE
    assert timer.nearest_deadline() == running.deadline  # what the timer sleeps until next


def _absent_o(rule):
    """A game with X and O moved once, O's last socket closed and O's grace already run out."""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    Game.objects.filter(pk=game.pk).update(absence_rule=rule)
    presence.connect(game.pk, f"x-{game.pk}", x)
    presence.connect(game.pk, f"o-{game.pk}", o)
    presence.disconnect(f"o-{game.pk}")
    Game.objects.filter(pk=game.pk).update(absence_deadline=timezone.now() - timedelta(milliseconds=5))
    return game, x, o


def test_the_timer_applies_every_due_absence_rule_in_one_batch():
    """Forfeit: the absent player loses; opponent's choice: the game waits for it; a player back
    (a socket registered without the row lock's help, e.g. by another process) is back."""
    forfeit, *_ = _absent_o("forfeit")
    choose, *_ = _absent_o("choose")
    back, _x, o = _absent_o("forfeit")
    Connection.objects.create(channel=f"o2-{back.pk}", game=back, seat="guest" if back.guest == o else "host",
                              seen_at=timezone.now(), user=o)
    assert timer.run_due() == 3
    assert timer.run_due() == 0
    for game in (forfeit, choose, back):
        game.refresh_from_db()
    assert (forfeit.status, forfeit.winner, forfeit.termination) == (Game.Status.FINISHED, "X", "absence")
    assert forfeit.absence_deadline is None
    assert choose.status == Game.Status.ACTIVE and choose.absence_expired and choose.absence_deadline is None
    assert back.status == Game.Status.ACTIVE and back.absent_seat == "" and back.absence_deadline is None


def test_a_batch_skips_a_game_whose_row_is_held_and_a_later_round_ends_it():
    """A player's action holding the row (here another connection's lock) is never waited for:
    the batch ends the other due games, and the next round the held one, exactly once."""
    held, x, o = started_game()
    play_sequence(held, x, o, ["H8", "H9"])
    free, fx, fo = started_game()
    play_sequence(free, fx, fo, ["H8", "H9"])
    _expire(held)
    _expire(free)
    locked, release = threading.Event(), threading.Event()

    def hold_the_row():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=held.pk)
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    try:
        assert locked.wait(30)
        assert enforce_due_deadlines() == [free.pk]
    finally:
        release.set()
        holder.join(30)
    assert enforce_due_deadlines() == [held.pk]
    assert enforce_due_deadlines() == []
    held.refresh_from_db()
    assert held.termination == "timeout"


def test_a_real_worker_ends_the_game_when_the_clock_runs_out(celery_worker_process):
    game, x, o = started_game(move_time_ms=1500)
    play_sequence(game, x, o, ["H8", "H9", "I8"])  # O to move, 1.5 s on the clock
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        time.sleep(0.2)
    assert (game.status, game.winner, game.termination) == (Game.Status.FINISHED, "X", "timeout")
    last_move = game.moves.order_by("-ply").first()
    waited = game.finished_at - last_move.created_at
    assert timedelta(seconds=1.4) <= waited < timedelta(seconds=4)  # the task ran on time


# ------------------------------------------------------------------ a Redis restart (issue 12.1)


@pytest.fixture
def own_broker(transactional_db, django_db_blocker, tmp_path):
    """A Redis of this test's own (so the test can kill and restart it), a real worker (`celery`
    queue) and beat on it, and this process's Celery app publishing to it. Everything is stopped
    before the test database is flushed."""
    from caro.celery import app
    from devstack import ports
    from devstack import redis as redis_server
    from tests.conftest import _child_env, start_workers, stop_workers

    server = ports.start_on_free_port(lambda port: redis_server.start_redis(port, tmp_path / "redis"))
    with django_db_blocker.unblock():
        env = _child_env()
    env["REDIS_URL"] = server.url
    previous = app.conf.broker_url
    _publish_to(app, server.url)
    beat_log = tmp_path / "beat.log"
    processes = {}
    state = {"server": server}
    try:
        processes = start_workers(env, tmp_path, queues=("celery",))
        with open(beat_log, "wb") as out:
            beat = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "caro", "beat", "-l", "info", "-s", str(tmp_path / "beat-schedule")],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )
        state.update(worker=processes["celery"][0], worker_log=processes["celery"][1], beat=beat, beat_log=beat_log)
        yield state
    finally:
        if "beat" in state:
            stop_workers({"beat": (state["beat"], beat_log, "")})
        stop_workers(processes)
        state["server"].stop()
        _publish_to(app, previous)


def _publish_to(app, url):
    """Point this process's Celery app (publishing, control) at the broker `url`, dropping its
    pooled connections and producers (Celery resets the same two after a fork)."""
    app.conf.broker_url = url
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


def _restart_redis(state) -> float:
    """SIGKILL the broker (its queues are lost: no persistence), then start a new one on the same
    port once the caller's outage is over. Returns the monotonic time the new one answered."""
    from devstack import redis as redis_server

    old = state["server"]
    port = old.port
    for attempt in range(20):  # the port was ours a moment ago; retry briefly if it lingers
        try:
            state["server"] = redis_server.start_redis(port, old.logfile.parent)
            return time.monotonic()
        except redis_server.PortInUse:
            time.sleep(0.1)
    raise AssertionError(f"could not restart Redis on port {port}")


def _two_moves(move_time_ms):
    """A started game with X and O each moved once: X to move, X's clock running."""
    game, x, o = started_game(move_time_ms=move_time_ms)
    services.play_move(game.pk, x, "H8", 1, uuid.uuid4())
    services.play_move(game.pk, o, "H9", 2, uuid.uuid4())
    return game, time.monotonic() + move_time_ms / 1000


def _enforcements(worker_log) -> int:
    """Games the worker reports it ended: deadline tasks that returned True, sweep counts, and the
    counts of its deadline timer (caro/games/timer.py)."""
    text = worker_log.read_text(errors="replace")
    tasks_true = len(re.findall(r"enforce_move_deadline\[[^\]]+\] succeeded in [\d.]+s: True", text))
    swept = sum(int(n) for n in re.findall(r"sweep_deadlines\[[^\]]+\] succeeded in [\d.]+s: (\d+)", text))
    timed = sum(int(n) for n in re.findall(r"deadline timer: (\d+) game\(s\) ended on time", text))
    return tasks_true + swept + timed


@pytest.mark.timeout(240)
def test_a_worker_outlives_a_redis_restart_and_enforces_every_deadline_once(own_broker):
    """Deadlines that run out while Redis is down, and after it is back (their countdown tasks
    died with the broker's data), are each enforced once, within 3 s of Redis returning or of
    the deadline. The worker holds reserved countdown tasks when Redis dies: with celery/kombu
    5.7.0 that killed it (AttributeError 'hostname'), see caro/celery.py."""
    later = [_two_moves(10_000) for _ in range(3)]  # run out ~5 s after Redis is back
    during = [_two_moves(3_000) for _ in range(3)]  # run out while Redis is down
    time.sleep(0.5)  # the worker has received (reserved) the countdown tasks
    own_broker["server"].process.kill()
    own_broker["server"].process.wait()
    time.sleep(max(0.0, max(d for _g, d in during) + 1.0 - time.monotonic()))  # every "during" clock ran out
    back = _restart_redis(own_broker)
    assert max(d for _g, d in later) > back + 1, "the 'later' clocks must run out after Redis is back"

    ended_at = {}
    games = during + later
    limit = max(d for _g, d in later) + 3.0
    while len(ended_at) < len(games) and time.monotonic() < limit + 5:
        for game, _deadline in games:
            if game.pk not in ended_at:
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:
                    ended_at[game.pk] = time.monotonic()
        time.sleep(0.05)

    worker_log = own_broker["worker_log"]
    assert own_broker["worker"].poll() is None, "the worker died:\n" + worker_log.read_text()[-4000:]
    assert "Unrecoverable error" not in worker_log.read_text()
    for game, deadline in games:
        game.refresh_from_db()
        assert (game.status, game.winner, game.termination) == (Game.Status.FINISHED, "O", "timeout"), game.pk
        late = ended_at[game.pk] - max(back, deadline)
        assert late <= 3.0, f"game {game.pk} ended {late:.1f} s after Redis returned / its deadline"
    print(f"recovery: during-outage games ended {max(ended_at[g.pk] for g, _ in during) - back:.2f} s after Redis "
          f"returned; later games at most {max(ended_at[g.pk] - d for g, d in later):.2f} s after their deadline")
    # Exactly once: the worker ended each game once, however many tasks and sweeps ran.
    time.sleep(1.5)  # a few more sweeps
    assert _enforcements(worker_log) == len(games), worker_log.read_text()[-4000:]
    for game, _deadline in games:
        game.refresh_from_db()
        assert (game.status, game.winner, game.termination) == (Game.Status.FINISHED, "O", "timeout")
