"""The Celery app (worker: `celery -A caro worker`, beat: `celery -A caro beat`).

Broker: REDIS_URL. Tasks live in each app's `tasks` module (move deadlines, sweeps).

Surviving a broker restart (issue 12). Three pieces, all selected in settings (CELERY_*):

- `RedisTransport`: kombu's Redis transport with one fix. With celery 5.7.0 / kombu 5.7.0, when the
  worker loses Redis while it holds unacknowledged messages (every countdown task it has reserved),
  the consumer first `collect()`s the connection (which detaches the transport from it) and then
  `close()`s it; closing the channel tries to put the unacknowledged messages back through the
  detached transport, and `_connparams` fails with AttributeError ("'NoneType' object has no
  attribute 'hostname'"). That is not one of the connection errors the consumer ignores, so the
  worker dies ("Unrecoverable error"). Here the same situation raises redis-py's ConnectionError,
  which the consumer does ignore: it reconnects. The messages could not be restored anyway (the
  broker is gone; an embedded Redis without persistence loses its queues), and nothing depends on
  them: deadlines live in PostgreSQL and the sweeps below enforce them.
- `Consumer`: the worker retries the broker every 0.2 s, then 0.4 s, ... at most 1 s apart (Celery's
  default grows to 30 s), and forever (CELERY_BROKER_CONNECTION_MAX_RETRIES = None), so it is back
  within a second of Redis.
- `SweepOnConnect`: each time the worker's consumer (re)connects it asks for one deadline sweep at
  once, so clocks that ran out while the broker was away are enforced right after it returns,
  without waiting for beat. Beat sweeps every second as well, which catches the deadlines whose
  countdown tasks were lost with the broker's data.
"""

import functools
import logging
import os

import redis.exceptions
from celery import Celery, bootsteps, signals
from celery.worker.consumer import Consumer as _CeleryConsumer
from kombu.transport import redis as kombu_redis

from caro import logformat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")

log = logging.getLogger(__name__)

#: How the worker retries a lost broker: first wait, growth per attempt, longest wait (seconds).
RECONNECT_INTERVALS = {"interval_start": 0.2, "interval_step": 0.2, "interval_max": 1.0}

SWEEP_TASK = "caro.games.tasks.sweep_deadlines"


class RedisChannel(kombu_redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:  # the transport was already collected: see the docstring
            raise redis.exceptions.ConnectionError("the broker connection is closed; cannot reconnect this channel")
        return super()._connparams(asynchronous=asynchronous)


class RedisTransport(kombu_redis.Transport):
    """kombu's Redis transport whose channels fail with a connection error, not AttributeError,
    once their connection is gone (`CELERY_BROKER_TRANSPORT`)."""

    Channel = RedisChannel


class Consumer(_CeleryConsumer):
    """Celery's worker consumer, reconnecting to the broker within a second (`CELERY_WORKER_CONSUMER`)."""

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(conn.ensure_connection, **RECONNECT_INTERVALS)
        return super().ensure_connected(conn)


class SweepOnConnect(bootsteps.StartStopStep):
    """A consumer step: one deadline sweep each time the worker (re)connects to the broker."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, c):
        try:
            c.app.send_task(SWEEP_TASK, expires=30)
        except Exception:  # the broker went away again: the next connect asks again
            log.warning("could not queue a deadline sweep after connecting", exc_info=True)


@signals.after_setup_logger.connect
@signals.after_setup_task_logger.connect
def utc_log_times(logger=None, **_kwargs):
    """Worker and beat keep Celery's log layout (and its `-l` level), but their times are printed in
    UTC, ISO 8601 with `Z` (caro/logformat.py), as the web processes' are: Celery's own formatter
    would print the process's local time (TIME_ZONE, UTC+7) without saying so."""
    for handler in getattr(logger, "handlers", ()):
        if handler.formatter is not None:
            logformat.utc_times(handler.formatter)


app = Celery("caro")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(SweepOnConnect)
app.autodiscover_tasks()
