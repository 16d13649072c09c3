"""Seek frames of one web process gathered into batches (`pairing.arrive_many`).

A seek frame used to be one `pairing.arrive` on a thread of its own: about 16 round trips to
PostgreSQL when it made a game, so a burst of arrivals queued behind the pool's threads, each
waiting on the database most of the time. Here a frame joins the process's pending list; while
fewer than `BATCHES_AT_ONCE` batches are in PostgreSQL, the pending frames (at most
`pairing.BATCH_MAX`) leave as one batch. A lone frame on a quiet site leaves at once, so it waits
for nothing; under load the batches grow by themselves with the time one takes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ranking import pairing

log = logging.getLogger(__name__)

#: Batches of one process in PostgreSQL at the same time (one more fills while one runs).
BATCHES_AT_ONCE = 2


class Arrivals:
    """The pending seek frames of this process. `run` runs a sync function off the event loop
    (the seek sockets' thread pool: `ranking.consumers.db`)."""

    def __init__(self, run: Callable) -> None:
        self.run = run
        self.pending: list[tuple[tuple, asyncio.Future]] = []
        self.running = 0
        self.tasks: set[asyncio.Task] = set()  # the loop holds tasks weakly: keep them until done

    async def arrive(self, user, mode: str, choice: str, *, attach: bool = True):
        """`pairing.arrive(user, mode, choice, attach=attach)`, in the next batch: returns
        `(seek, pairing or None)` or raises `SeekError` as it does."""
        future = asyncio.get_running_loop().create_future()
        self.pending.append(((user, mode, choice, attach), future))
        self._start()
        answer = await future
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def _start(self) -> None:
        while self.pending and self.running < BATCHES_AT_ONCE:
            batch, self.pending = self.pending[:pairing.BATCH_MAX], self.pending[pairing.BATCH_MAX:]
            self.running += 1
            task = asyncio.get_running_loop().create_task(self._run(batch))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _run(self, batch: list[tuple[tuple, asyncio.Future]]) -> None:
        try:
            answers = await self.run(pairing.arrive_many)([request for request, _future in batch])
        except Exception as error:  # the batch's transaction failed: every frame of it hears so
            log.exception("seek arrivals: a batch of %d failed", len(batch))
            answers = [error] * len(batch)
        finally:
            self.running -= 1
        for (_request, future), answer in zip(batch, answers):
            if not future.done():
                future.set_result(answer)
        self._start()
