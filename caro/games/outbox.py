"""After-commit side effects of a game change: broadcast its events. Nothing leaves the process
before the transaction commits, so nobody ever sees a state that was rolled back.

Tasks are sent by name (`caro.games.tasks` registers them), so the service layer never imports the
task module: services <- tasks, never the other way round.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import os
import threading
import time
import weakref
from datetime import datetime

import redis
from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import transaction

from caro.games.models import Game

log = logging.getLogger(__name__)

#: Celery task names (defined in `caro.games.tasks`).
DEADLINE_TASK = "caro.games.tasks.enforce_move_deadline"
ABSENCE_TASK = "caro.games.tasks.enforce_absence_deadline"
CROWD_TASK = "caro.games.tasks.broadcast_crowd"
#: The spectator count of a game is broadcast at most once per this many ms (a trailing update).
CROWD_UPDATE_MS = 1000
#: The longest a process without an event loop of its own (the Celery worker) waits for its
#: broadcasts to reach Redis, s; past it they are logged as failed (clients resync).
BROADCAST_TIMEOUT_S = 10.0

_local = threading.local()


def publish(game: Game, events: list[dict]) -> None:
    """Queue, for after the current transaction commits: `events` to the game's group.

    Call inside the transaction, right after the game row was saved. `events` are dicts with
    `type` and `version`; each is sent with the game's id added. Deadlines need nothing here: they
    are columns of the game, which the worker's deadline timer (`caro.games.timer`) reads from
    PostgreSQL, so a move sends nothing to the broker.
    """
    transaction.on_commit(_sender(game, events))


def publish_committed(game: Game, events: list[dict]) -> None:
    """`publish` for a change already committed outside any transaction of Django's (the move on
    the event loop, `services.play.play_move_on_loop`): the same sends, now. From the loop the
    broadcast is handed to the loop (`broadcast_many`) and this returns at once."""
    _sender(game, events)()


def _sender(game: Game, events: list[dict]):
    """The after-commit job of `publish`: broadcast `events`."""
    game_id, group = game.pk, game.group_name

    def run() -> None:
        if len(events) == 1:
            broadcast(group, {**events[0], "game_id": game_id})
        else:
            with collected():
                for event in events:
                    broadcast(group, {**event, "game_id": game_id})

    return run


def broadcast(group: str, event: dict) -> None:
    """Send one event to every consumer in the Channels group `group`.

    Consumers receive it as the Channels message `{"type": "game.event", "event": event}`. A failing
    channel layer is logged, never raised: the state is already committed and clients resync.
    Inside `collected()` the event is held and sent with the others when the block ends.
    """
    held = getattr(_local, "held", None)
    if held is not None:
        held.append((group, event))
        return
    broadcast_many([(group, event)])


def broadcast_many(items: list[tuple[str, dict]], *, wait: bool = True) -> None:
    """Send each `(group, event)` of `items` like `broadcast`, all at once and in order: one hop
    to the event loop and one Redis round trip for the whole list (`send_batch`), instead of one
    per event. Never raises.

    `wait=False` (the deadline timer, in a process with its own loop) hands the sends to the loop
    and returns at once, so the next batch of endings need not wait for this one's delivery; the
    loop still sends everything this process hands it in the order it was handed (one lock). A
    web process whose server loop was registered (`use_server_loop`) never waits: the sends are
    handed to that loop, in order, and this thread goes on (on the loop itself: a task of the
    loop, no thread-safe hand-off). Otherwise (no loop of its own or registered: tests,
    scripts) the call waits in `async_to_sync`.

    On a loop of the server or the worker, a batch that Redis refused is kept (`Backlog`): its
    local part was delivered (the site's layer delivers in-process first), and it is published
    again, in order, once Redis answers, with every later batch behind it."""
    layer = get_channel_layer()
    if layer is None or not items:
        return

    async def send_all() -> None:
        await Backlog.of_loop().send(layer, items)

    try:
        loop = _own_loop()
        if loop is None:
            running = _running_loop()
            server = _server_loop() or running
            if server is not None and server is running:  # called on the loop (a move on the loop)
                if _deliver_here(layer, items):
                    return
                _keep(server.create_task(_ordered(send_all)))
                return
            if server is not None:  # a web process: its server's loop sends, this thread goes on
                asyncio.run_coroutine_threadsafe(_ordered(send_all), server)
                return
            async_to_sync(send_all)()
            return
        future = asyncio.run_coroutine_threadsafe(_ordered(send_all), loop)
        if wait:
            future.result(BROADCAST_TIMEOUT_S)
    except Exception:  # pragma: no cover - the loop is gone
        log.exception("broadcast of %d event(s) failed", len(items))


#: Seconds between two looks at whether Redis answers again, while a backlog waits.
BACKLOG_RETRY_S = 0.25
#: Seconds to wait once Redis answers before the backlog is published: every process's channel
#: layer subscribes again within its own reconnection delay (caro.layers.RECONNECT_S, 0.25 s) of
#: Redis being back, and a message published before a subscriber is back reaches nobody.
RESUBSCRIBE_GRACE_S = 1.0
#: The most events a backlog keeps; past it the oldest are dropped (logged): their sockets
#: recover with `sync` (every pong carries the game's version).
BACKLOG_MAX_EVENTS = 100_000


class Backlog:
    """The batches of one event loop that Redis refused, published again in order once it is
    back. `send` is called in order (under `_in_order`): while a backlog waits, a new batch is
    delivered in-process at once and queued behind it for the other processes."""

    _loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Backlog]" = weakref.WeakKeyDictionary()

    def __init__(self) -> None:
        self.batches: collections.deque[list[tuple[str, dict]]] = collections.deque()
        self.events = 0
        self.task: asyncio.Task | None = None

    @classmethod
    def of_loop(cls) -> "Backlog":
        loop = asyncio.get_running_loop()
        backlog = cls._loops.get(loop)
        if backlog is None:
            backlog = cls._loops[loop] = cls()
        return backlog

    async def send(self, layer, items: list[tuple[str, dict]]) -> None:
        """Send `items` now, or keep them behind the waiting batches (never raises)."""
        if self.batches:
            if hasattr(layer, "group_send_many"):
                try:
                    await send_batch(layer, items, remote=False)
                except Exception:  # noqa: BLE001 - local delivery does not use Redis
                    log.exception("local delivery of %d event(s) failed", len(items))
            return self._keep(layer, items)
        try:
            await send_batch(layer, items)
        except Exception as error:  # noqa: BLE001 - Redis away: keep it for later
            log.warning("broadcast of %d event(s) failed (%s); kept until Redis is back", len(items), error)
            self._keep(layer, items)

    def _keep(self, layer, items: list[tuple[str, dict]]) -> None:
        self.batches.append(items)
        self.events += len(items)
        while self.events > BACKLOG_MAX_EVENTS and len(self.batches) > 1:
            dropped = self.batches.popleft()
            self.events -= len(dropped)
            log.error("broadcast backlog over %d events: %d dropped", BACKLOG_MAX_EVENTS, len(dropped))
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drain(layer))

    async def _drain(self, layer) -> None:
        """Wait until Redis answers, then RESUBSCRIBE_GRACE_S, then publish the batches in
        order (holding the loop's send lock, so later sends stay behind them)."""
        while self.batches:
            await asyncio.sleep(BACKLOG_RETRY_S)
            if not await _answers(layer):
                continue
            await asyncio.sleep(RESUBSCRIBE_GRACE_S)
            sent = 0

            async def publish_all() -> None:
                nonlocal sent
                while self.batches:
                    items = self.batches[0]
                    await send_batch(layer, items, local=not hasattr(layer, "group_send_many"))
                    self.batches.popleft()
                    self.events -= len(items)
                    sent += len(items)

            try:
                await _ordered(publish_all)
            except Exception as error:  # noqa: BLE001 - away again: wait once more
                log.warning("broadcast backlog: Redis refused it again (%s)", error)
            if sent:
                log.warning("broadcast backlog: %d event(s) published after Redis came back", sent)


async def _answers(layer) -> bool:
    """Whether the layer's Redis answers now (a layer without a way to tell: assume it does)."""
    ping = getattr(layer, "ping", None)
    if ping is None:
        return True
    try:
        return bool(await ping())
    except Exception:  # noqa: BLE001 - still away
        return False


#: Adds every message of a batch to its consumers' queues (channels_redis's own `group_send`
#: script, for many messages at once): drop messages older than the layer's expiry, skip a full
#: queue (counted in the reply), score each message after the one before it so that the
#: consumers receive them in the batch's order (a sorted set pops the lowest score first).
#: KEYS: the queues; ARGV: the messages, their capacities, the time (s), the expiry (s).
BATCH_SCRIPT = """
local n = #KEYS
local now = tonumber(ARGV[2 * n + 1])
local expiry = tonumber(ARGV[2 * n + 2])
local over = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now + i * 0.000001, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over = over + 1
    end
end
return over
"""


async def send_batch(layer, items: list[tuple[str, dict]], *, local: bool = True, remote: bool = True) -> None:
    """Deliver `items` (`(group, event)`) as the Channels messages `{"type": "game.event", "event":
    event}`, in order, in one or two Redis round trips per Redis host whatever their number:

    - a layer with `group_send_many` (the site's, caro.layers: in-process members first, then ONE
      pipeline of PUBLISH per host for what other processes subscribe to; `local` / `remote`
      choose the parts, e.g. a batch sent again after Redis refused it is `local=False`);
    - channels_redis's `RedisPubSubChannelLayer` (the site's layer): ONE pipeline of PUBLISH to
      the groups' pub/sub channels, serialised and named as the layer's `group_send` does;
    - channels_redis's `RedisChannelLayer` (sorted-set queues): ONE pipeline reads every group's
      members, ONE script queues every message exactly as `group_send` would queue each (same
      keys, serialisation, capacity and expiry, through the layer's own helpers);
    - any other layer: its `group_send`, one event after the other.

    Raises what the layer raises (Redis down)."""
    messages = [(group, {"type": "game.event", "event": event}) for group, event in items]
    if hasattr(layer, "group_send_many"):
        return await layer.group_send_many(messages, local=local, remote=remote)
    if isinstance(layer, RedisPubSubChannelLayer):
        return await _publish_batch(layer, messages)
    if not isinstance(layer, RedisChannelLayer):
        for group, message in messages:
            await layer.group_send(group, message)
        return
    groups: dict[int, list[str]] = {}
    for group in dict.fromkeys(group for group, _message in messages):
        groups.setdefault(layer.consistent_hash(group), []).append(group)
    members: dict[str, list[str]] = {}
    cutoff = int(time.time()) - layer.group_expiry
    for index, names in groups.items():
        pipe = layer.connection(index).pipeline(transaction=False)
        for group in names:
            pipe.zremrangebyscore(layer._group_key(group), min=0, max=cutoff)
            pipe.zrange(layer._group_key(group), 0, -1)
        replies = await pipe.execute()
        for group, channels in zip(names, replies[1::2]):
            members[group] = [channel.decode("utf8") for channel in channels]
    queued: dict[int, list[tuple[bytes, bytes, int]]] = {}
    for group, message in messages:
        by_host, payloads, capacities = layer._map_channel_keys_to_connection(members[group], message)
        for index, keys in by_host.items():
            queued.setdefault(index, []).extend((key, payloads[key], capacities[key]) for key in keys)
    for index, entries in queued.items():
        keys = [key for key, _payload, _capacity in entries]
        args = [payload for _key, payload, _capacity in entries] + [capacity for *_rest, capacity in entries]
        over = await layer.connection(index).eval(BATCH_SCRIPT, len(keys), *keys, *args, time.time(), layer.expiry)
        if over:
            log.info("%s of %s queued messages over capacity", over, len(keys))


async def _publish_batch(layer, messages: list[tuple[str, dict]]) -> None:
    """`send_batch` on the pub/sub layer: the loop's layer names each group's channel and its
    shard (Redis host); each shard's client sends its PUBLISHes in one pipeline, in order (one
    PUBLISH alone without a pipeline)."""
    loop_layer = layer._get_layer()
    shards: dict[int, tuple] = {}
    for group, message in messages:
        channel = loop_layer._get_group_channel_name(group)
        shard = loop_layer._get_shard(channel)
        shards.setdefault(id(shard), (shard, []))[1].append((channel, layer.serialize(message)))
    for shard, entries in shards.values():
        shard._ensure_redis()
        if len(entries) == 1:  # a move's one event: a plain PUBLISH costs less than a pipeline
            await shard._redis.publish(*entries[0])
            continue
        pipe = shard._redis.pipeline(transaction=False)
        for channel, payload in entries:
            pipe.publish(channel, payload)
        await pipe.execute()


#: Sends handed over to an event loop (`_ordered`) and not finished yet, in this process.
_unfinished = [0]
_unfinished_lock = threading.Lock()


def _ordered(send):
    """`_in_order(send)`, counted in `_unfinished` from now (the hand-over) until it is done."""
    with _unfinished_lock:
        _unfinished[0] += 1
    return _in_order(send, counted=True)


async def _in_order(send, counted: bool = False) -> None:
    """Run `send()` after every send handed to this loop before it (FIFO: asyncio's lock, one
    per loop)."""
    try:
        loop = asyncio.get_running_loop()
        lock = _loop_state["locks"].get(loop)
        if lock is None:
            lock = _loop_state["locks"][loop] = asyncio.Lock()
        async with lock:
            await send()
    finally:
        if counted:
            with _unfinished_lock:
                _unfinished[0] -= 1


def _deliver_here(layer, items: list[tuple[str, dict]]) -> bool:
    """On the loop: deliver `items` to this process's sockets now, without a task or a lock, when
    that is all there is to do: no send handed over before is unfinished (so this one cannot
    overtake it), no backlog waits, and the layer (caro.layers) knows that no other process
    subscribes to their groups. Returns False, having done nothing, otherwise."""
    deliver = getattr(layer, "deliver_here", None)
    if deliver is None or _unfinished[0] or Backlog.of_loop().batches:
        return False
    return deliver([(group, {"type": "game.event", "event": event}) for group, event in items])


@contextlib.contextmanager
def collected(*, wait: bool = True):
    """Hold every broadcast made in this thread inside the block (the after-commit hooks of the
    transactions it runs) and send them together when it ends, even if it raises. Used where one
    job ends many games (the deadline timer): one hop and one batch (`send_batch`) instead of a
    round trip per event. `wait` as in `broadcast_many`. Nests: an inner block leaves the sending
    to the outer one."""
    if getattr(_local, "held", None) is not None:
        yield
        return
    _local.held = []
    try:
        yield
    finally:
        items, _local.held = _local.held, None
        broadcast_many(items, wait=wait)


# ------------------------------------------------------------------ the worker's own event loop

_loop_state: dict = {"enabled": False, "pid": None, "loop": None, "server": None,
                     "locks": weakref.WeakKeyDictionary()}
_loop_lock = threading.Lock()


def use_server_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Hand this process's broadcasts to `loop`, the web server's running event loop, without
    waiting for them (the room consumer calls it as a socket connects): a pool thread that ran a
    service then returns at once instead of blocking in `async_to_sync` until the loop has sent
    its events. The loop sends them in the order they were handed over (`_in_order`), which for
    one game is the order of its commits but for a rare race (a commit's after-commit hook
    delayed past the next commit of the same game, as two threads' sends could also cross before):
    events carry `version`, and a client that sees a gap asks for the state. When `loop` has
    stopped (a test's loop), broadcasts go through `async_to_sync` again."""
    _loop_state["server"] = loop


def _server_loop() -> asyncio.AbstractEventLoop | None:
    loop = _loop_state["server"]
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


#: The sends started on the loop itself, held until done (the loop keeps only weak references).
_pending: set = set()


def _keep(task: asyncio.Task) -> None:
    _pending.add(task)
    task.add_done_callback(_pending.discard)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread (a call from async code), else None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def use_own_loop() -> None:
    """Broadcast from this process through one persistent event loop (its own thread) instead of
    `async_to_sync`, which, in a process without an event loop (the Celery worker), starts a new
    loop per call and so a new Redis connection per event. Called when a worker process starts;
    web processes keep their server's loop. Safe across fork: a child starts its own loop."""
    _loop_state["enabled"] = True


def _own_loop() -> asyncio.AbstractEventLoop | None:
    if not _loop_state["enabled"]:
        return None
    with _loop_lock:
        if _loop_state["pid"] != os.getpid() or _loop_state["loop"] is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="outbox-loop", daemon=True).start()
            _loop_state.update(pid=os.getpid(), loop=loop)
        return _loop_state["loop"]


def crowd_changed(game_id: int) -> None:
    """A spectator came or went: broadcast the new count within CROWD_UPDATE_MS, at most once per
    that period whatever the number of changes (a Redis key marks an update already on its way,
    across every web process)."""
    try:
        if _redis().set(f"caro:crowd:{game_id}", 1, nx=True, px=CROWD_UPDATE_MS):
            current_app.send_task(CROWD_TASK, args=(game_id,), countdown=CROWD_UPDATE_MS / 1000 * 1.05)
    except Exception:  # pragma: no cover - Redis down: the count is also in every state frame
        log.exception("could not queue the spectator count of game %s", game_id)


def _send(name: str, args: tuple, **options) -> None:
    try:
        current_app.send_task(name, args=args, **options)
    except Exception:  # pragma: no cover - broker down; the beat sweeps are the safety net
        log.exception("could not send %s%r", name, args)


@functools.cache
def _redis():
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)


def schedule_deadline(game_id: int, ply: int, deadline: datetime) -> None:
    """Queue the deadline task of (`game_id`, `ply`) to run at `deadline` (an aware datetime).

    A broker failure is logged, not raised: the beat sweep enforces the deadline anyway.
    """
    _send(DEADLINE_TASK, (game_id, ply), eta=deadline)

