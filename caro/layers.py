"""`LocalFirstChannelLayer`: channels_redis's pub/sub channel layer that delivers in-process first.

The site's channel layer (settings.CHANNEL_LAYERS). It is `channels_redis.pubsub.
RedisPubSubChannelLayer` (same configuration: `hosts`, `prefix`, `serializer_format`, ...; one
layer per event loop, groups as Redis pub/sub channels, sharded over the hosts by the same
consistent hash) with four differences:

1. **Local first.** `group_send` puts the message straight on the queues of this process's
   members of the group, and `send` on the queue of a channel of this process: no Redis round
   trip, no serialisation. It publishes to Redis only what another process may need: always when
   this process has no member of the group (it then knows nothing of who subscribes: a Celery
   worker, a process whose sockets are elsewhere), and otherwise only while another process
   subscribes to the group. A process ignores its own publishes (each is tagged with the
   publishing layer's id), so a member never gets a message twice.

2. **Who else subscribes** is learnt on the group's own Redis channel, so it reaches exactly
   the processes that subscribe to it: a process that subscribes to a group publishes a *join*
   there (after Redis confirmed the subscription); every other subscriber answers *here*, and the
   joining process waits (at most `join_wait_s`) until it heard as many answers as PUBLISH said
   there were other subscribers. So by the time `group_add` returns, every process that could
   send to the group knows this one subscribes, and a state read after it (the room consumer
   joins before it reads) cannot miss an event (docs/architecture.md, "Events and groups"). A
   process that unsubscribes publishes *leave*; a PUBLISH answered by this process alone (a
   subscriber died without a leave) forgets the others of that group.

3. **Redis restarts.** Subscribing never fails for want of Redis: the subscription is kept as
   wanted and made when Redis answers. The receiver notices a lost connection at once, tries
   again every `RECONNECT_S`, and once back subscribes to everything again, announces itself
   in every group (as a join) and then puts `{"type": "layer.reconnected"}` on the queue of each
   channel that asked for it (`watch_reconnects(channel)`): messages published by other
   processes while the subscription was down are lost (pub/sub keeps nothing), so such a
   consumer reads its state again. Local delivery goes on meanwhile.

4. **Batches and failures.** `group_send_many([(group, message), ...], local=True,
   remote=True)` delivers a batch in order, publishing to Redis in one pipeline per host. It
   always delivers locally first and then raises what Redis raised, so a caller that keeps a
   failed batch (caro.games.outbox) publishes it again later with `local=False`, and nobody in
   this process gets it twice. `deliver_here(items)` is its synchronous part alone, for a
   batch that needs no Redis (every group's subscribers are all in this process): it delivers
   at once and returns True, or does nothing and returns False (the move on the event loop
   uses it, caro.games.outbox, and saves a task and a lock per move).

5. **One queue per consumer.** `adopt(channel, queue)` has the channel's messages put on `queue`,
   a queue of the caller's (the room consumer gives the server's input queue of its socket, where
   Daphne puts the client's frames), deserialised already, instead of a queue of the layer's;
   `release(channel)` forgets it. A consumer then waits on one queue for everything it handles,
   instead of Channels' two tasks per message (`await_many_dispatch`: a new task and an
   `asyncio.wait` for each frame and each event; caro.rooms.consumers.RoomConsumer).

Messages: a local member receives a shallow copy of the dict that was sent (never the
serialised round trip): do not change a message's nested values after sending it. A payload
without our tag (a publisher on plain channels_redis) is delivered as channels_redis would.
Wire format of a tagged payload: one kind byte, the sender's 16-byte id, then the body (the
serialised message; a join's or leave's nothing; a here's the 16-byte id of the process it
answers).

    CHANNEL_LAYERS = {"default": {"BACKEND": "caro.layers.LocalFirstChannelLayer",
                                  "CONFIG": {"hosts": [...], "join_wait_s": 1.0}}}
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from channels_redis.utils import _close_redis, _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)

#: Kinds of tagged payloads (first byte; a msgpack or JSON message never starts with these).
MESSAGE, JOIN, HERE, LEAVE = b"\x01", b"\x02", b"\x03", b"\x04"
TAGS = frozenset(b"\x01\x02\x03\x04")
NODE_BYTES = 16
#: Seconds between two attempts to reach Redis again after the receiver lost its connection.
RECONNECT_S = 0.25
#: The most seconds a `group_add` (or a reconnection) waits for the other subscribers' answers.
JOIN_WAIT_S = 1.0
#: Seconds the receiver waits for a message before it looks again (it also tells a dead
#: connection: a read on a closed socket fails at once).
READ_TIMEOUT_S = 1.0
#: Seconds to wait for Redis to confirm a SUBSCRIBE before carrying on (the receiver subscribes
#: again after a reconnection anyway).
CONFIRM_WAIT_S = 2.0
#: The longest each step of closing a shard may take (s).
FLUSH_STEP_S = 5.0
#: The message put on a watching channel's queue after a reconnection (`watch_reconnects`).
RECONNECTED = {"type": "layer.reconnected"}


class LocalFirstChannelLayer(RedisPubSubChannelLayer):
    """The pub/sub layer with in-process delivery first (see the module docstring). Takes
    channels_redis's pub/sub options plus `join_wait_s` (default JOIN_WAIT_S)."""

    def __getattr__(self, name):
        if name in ("group_send_many", "deliver_here", "watch_reconnects", "subscribers", "ping", "adopt", "release"):
            return getattr(self._get_layer(), name)
        return super().__getattr__(name)

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = LocalFirstLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer


class LocalFirstLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop: its channels' queues, its groups' members, and what it
    learnt of the other processes subscribed to its groups."""

    def __init__(self, hosts=None, prefix="asgi", on_disconnect=None, on_reconnect=None, channel_layer=None,
                 join_wait_s: float = JOIN_WAIT_S, **kwargs):
        self.prefix = prefix
        self.on_disconnect, self.on_reconnect = on_disconnect, on_reconnect
        self.channel_layer = channel_layer
        self.join_wait_s = join_wait_s
        self.node = uuid.uuid4().bytes
        #: channel name -> its queue (items: a message dict delivered here, or bytes from Redis)
        self.channels: dict[str, asyncio.Queue] = {}
        #: group's Redis channel -> this process's member channels
        self.groups: dict[str, set[str]] = {}
        #: group's Redis channel -> ids of the other processes known to subscribe to it
        self.remote: dict[str, set[bytes]] = {}
        #: group's Redis channel -> (answers still awaited, the event set when they came)
        self._joining: dict[str, list] = {}
        self.watchers: set[str] = set()
        #: channels whose queue is the caller's (`adopt`): what comes from Redis is put there deserialised
        self.adopted: set[str] = set()
        #: shards announcing this process again after a reconnection (meanwhile it publishes all)
        self.settling = 0
        self._shards = [Shard(host, self) for host in decode_hosts(hosts)]

    # ------------------------------------------------------------------ channels

    async def _subscribe_to_channel(self, channel):
        self.channels[channel] = asyncio.Queue()
        await self._get_shard(channel).subscribe(channel)

    async def send(self, channel, message):
        """Send `message` to `channel`: onto its queue when it is a channel of this process,
        else through Redis."""
        queue = self.channels.get(channel)
        if queue is not None:
            queue.put_nowait(dict(message))
            return
        await self._get_shard(channel).publish(channel, self._tagged(MESSAGE, self.channel_layer.serialize(message)))

    async def receive(self, channel):
        if channel not in self.channels:
            await self._subscribe_to_channel(channel)
        queue = self.channels[channel]
        try:
            item = await queue.get()
        except (asyncio.CancelledError, asyncio.TimeoutError, GeneratorExit):
            # The consumer is going away (Channels cancels its receive): forget its channel.
            await self._forget_channel(channel, queue)
            raise
        return item if isinstance(item, dict) else self.channel_layer.deserialize(item)

    async def adopt(self, channel: str, queue: asyncio.Queue) -> None:
        """Put the messages of `channel` (a channel of this process: `new_channel`) on `queue`
        from now on, each a dict (deserialised when it came through Redis), instead of a queue
        that `receive` reads. `release` ends it."""
        old = self.channels.get(channel)
        self.channels[channel] = queue
        self.adopted.add(channel)
        while old is not None and not old.empty():  # (nothing knows a new channel's name yet)
            item = old.get_nowait()
            queue.put_nowait(item if isinstance(item, dict) else self.channel_layer.deserialize(item))
        if old is None:
            await self._get_shard(channel).subscribe(channel)

    async def release(self, channel: str) -> None:
        """Forget an adopted `channel` (its consumer is done): unsubscribe, drop its queue."""
        queue = self.channels.get(channel)
        if queue is not None and channel in self.adopted:
            await self._forget_channel(channel, queue)

    async def _forget_channel(self, channel: str, queue: asyncio.Queue) -> None:
        """Forget `channel` if its queue is still `queue`: no more messages for it, no Redis
        subscription (a failure to unsubscribe is logged: this runs as its consumer goes away)."""
        if self.channels.get(channel) is not queue:
            return
        del self.channels[channel]
        self.watchers.discard(channel)
        self.adopted.discard(channel)
        try:
            await self._get_shard(channel).unsubscribe(channel)
        except BaseException:  # noqa: BLE001 - the cancellation is what must propagate
            log.exception("could not unsubscribe %s", channel)

    async def watch_reconnects(self, channel: str) -> None:
        """After each reconnection to Redis, put `RECONNECTED` on `channel`'s queue (a channel of
        this process; forgotten when its consumer goes)."""
        if channel in self.channels:
            self.watchers.add(channel)

    async def ping(self) -> bool:
        """Whether every Redis host answers now (raises redis's ConnectionError when one does not)."""
        for shard in self._shards:
            await shard.call(lambda client: client.ping())
        return True

    def subscribers(self, group: str) -> tuple[int, int]:
        """(this process's members of `group`, other processes known to subscribe to it)."""
        name = self._get_group_channel_name(group)
        return len(self.groups.get(name, ())), len(self.remote.get(name, ()))

    # ------------------------------------------------------------------ groups

    async def group_add(self, group, channel):
        """Add `channel` (of this process) to `group`. The first member makes this process
        subscribe to the group and announce itself (see the module docstring); returns once the
        other subscribers answered or `join_wait_s` passed. Never fails for want of Redis."""
        if channel not in self.channels:
            raise RuntimeError("You can only call group_add() on channels that exist in-process.")
        name = self._get_group_channel_name(group)
        members = self.groups.setdefault(name, set())
        first = not members
        members.add(channel)
        if first:
            await self._join(name)
        elif name in self._joining:  # another member's join is still waiting for its answers
            await self._wait_answers(name)

    async def _join(self, name: str) -> None:
        shard = self._get_shard(name)
        if not await shard.subscribe(name):
            return  # Redis is away: the receiver subscribes and announces when it is back
        try:
            others = await shard.publish_counted(name, self._tagged(JOIN)) - 1
        except Exception:  # noqa: BLE001 - Redis went away: announced again after reconnecting
            log.warning("could not announce the group %s", name)
            return
        if others > len(self.remote.get(name, ())):
            self._joining[name] = [others, asyncio.Event()]
            await self._wait_answers(name)

    async def _wait_answers(self, name: str) -> None:
        waiting = self._joining.get(name)
        if waiting is None:
            return
        try:
            await asyncio.wait_for(waiting[1].wait(), self.join_wait_s)
        except asyncio.TimeoutError:
            log.info("group %s: %d subscriber(s) did not answer within %.1f s", name, waiting[0], self.join_wait_s)
        finally:
            if self._joining.get(name) is waiting:
                del self._joining[name]

    async def group_discard(self, group, channel):
        name = self._get_group_channel_name(group)
        members = self.groups.get(name)
        if not members or channel not in members:
            return
        members.discard(channel)
        if members:
            return
        del self.groups[name]
        self.remote.pop(name, None)
        # The leave goes out under the shard's lock, so a new member's join (which subscribes
        # under the same lock first) always comes after it.
        await self._get_shard(name).unsubscribe(name, then=self._tagged(LEAVE))

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    async def group_send_many(self, items, *, local: bool = True, remote: bool = True) -> None:
        """Send each `(group, message)` of `items`, in order: first to this process's members
        (with `local`), then, with `remote`, through Redis where another process may subscribe
        (one pipeline per host). Raises what Redis raises, after the local delivery."""
        outgoing: dict[int, tuple] = {}
        for group, message in items:
            name = self._get_group_channel_name(group)
            members = self.groups.get(name)
            if local and members:
                for channel in members:
                    queue = self.channels.get(channel)
                    if queue is not None:
                        queue.put_nowait(dict(message))
            # Publish unless this process knows nobody else subscribes: it has members (so it
            # hears every join), knows of no other subscriber, is not re-learning them after a
            # reconnection, and this is not a batch sent again (whoever missed it gets it now).
            if remote and (not members or self.remote.get(name) or not local or self.settling):
                shard = self._get_shard(name)
                entry = outgoing.setdefault(id(shard), (shard, []))
                entry[1].append((name, self._tagged(MESSAGE, self.channel_layer.serialize(message))))
        for shard, entries in outgoing.values():
            counts = await shard.publish_many(entries)
            for (name, _payload), count in zip(entries, counts):
                if count <= 1 and name in self.groups and shard.connected:  # only this process heard it
                    self.remote.pop(name, None)

    def deliver_here(self, items) -> bool:
        """Deliver each `(group, message)` of `items` to this process's members of its group now
        (synchronously, in order), if that is all `group_send_many` would do: every group has a
        member here, no other process is known to subscribe to it and no reconnection is being
        settled. Returns False, having delivered nothing, when any would need Redis."""
        targets = []
        for group, message in items:
            name = self._get_group_channel_name(group)
            members = self.groups.get(name)
            if not members or self.remote.get(name) or self.settling:
                return False
            targets.append((members, message))
        for members, message in targets:
            for channel in members:
                queue = self.channels.get(channel)
                if queue is not None:
                    queue.put_nowait(dict(message))
        return True

    async def flush(self):
        self.channels, self.groups, self.remote, self._joining, self.watchers = {}, {}, {}, {}, set()
        self.adopted = set()
        for shard in self._shards:
            await shard.flush()

    # ------------------------------------------------------------------ what the receiver hears

    def _tagged(self, kind: bytes, body: bytes = b"") -> bytes:
        return kind + self.node + body

    def heard(self, shard: "Shard", name: str, data: bytes) -> None:
        """A payload that arrived on Redis channel `name` (a group's or a channel's)."""
        if not data or data[0] not in TAGS:
            return self._deliver(name, data)  # a plain channels_redis publisher
        kind, node, body = data[:1], data[1:1 + NODE_BYTES], data[1 + NODE_BYTES:]
        if node == self.node:
            return  # our own publish: its local members already got it
        if kind == MESSAGE:
            return self._deliver(name, body)
        if name not in self.groups:
            return
        if kind == LEAVE:
            self.remote.get(name, set()).discard(node)
            return
        self.remote.setdefault(name, set()).add(node)
        if kind == JOIN:
            shard.answer(name, self._tagged(HERE, node))
        waiting = self._joining.get(name)
        if waiting is not None and len(self.remote[name]) >= waiting[0]:
            waiting[1].set()

    def _deliver(self, name: str, data: bytes) -> None:
        """Put a payload from Redis on the queue of channel `name`, or of each member of group
        `name` (deserialised for an adopted channel; `receive` deserialises the others)."""
        message = None
        for channel in (name,) if name in self.channels else self.groups.get(name, ()):
            queue = self.channels.get(channel)
            if queue is None:
                continue
            if channel in self.adopted:
                if message is None:
                    message = self.channel_layer.deserialize(data)
                queue.put_nowait(dict(message))
            else:
                queue.put_nowait(data)

    async def resubscribed(self, shard: "Shard") -> None:
        """The shard is subscribed again after a lost connection: announce this process in each
        of its groups there, wait for the answers, then tell the watching channels. (The shard
        counted itself in `settling` when it reconnected.)"""
        try:
            await self._announce_again(shard)
        finally:
            self.settling -= 1
        for channel in list(self.watchers):  # a watcher's groups may live on any shard: tell them all
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(dict(RECONNECTED))
        if self.on_reconnect is not None:
            self.on_reconnect()

    async def _announce_again(self, shard: "Shard") -> None:
        names = [name for name in self.groups if self._get_shard(name) is shard]
        for name in names:
            self.remote.pop(name, None)
        try:
            counts = await shard.publish_many([(name, self._tagged(JOIN)) for name in names]) if names else []
        except Exception:  # noqa: BLE001 - lost again: the next reconnection does this again
            log.warning("channel layer: could not announce %d group(s) after reconnecting", len(names))
            return
        waits = []
        for name, count in zip(names, counts):
            if count - 1 > len(self.remote.get(name, ())):
                self._joining[name] = [count - 1, asyncio.Event()]
                waits.append(self._wait_answers(name))
        if waits:
            await asyncio.gather(*waits)


class Shard:
    """The connections to one Redis host: a client for PUBLISH and one pub/sub connection read
    by a receiver task, which reconnects and subscribes again by itself."""

    def __init__(self, host: dict, layer: LocalFirstLoopLayer) -> None:
        self.host, self.layer = host, layer
        #: every Redis channel this process should be subscribed to (kept while Redis is away)
        self.wanted: set[str] = set()
        self._redis = None
        self._pubsub = None
        self._receiver: asyncio.Task | None = None
        self._lock = asyncio.Lock()
        self._confirm: dict[str, asyncio.Future] = {}
        self.connected = False
        self.lost = False  # the connection was lost (or never made) while something was wanted
        self.reconnections = 0

    def _ensure(self) -> None:
        if self._redis is None:
            self._redis = aioredis.Redis(connection_pool=create_pool(self.host))
        if self._receiver is None or self._receiver.done():
            self._receiver = asyncio.ensure_future(self._receive())

    async def publish(self, name: str, payload: bytes) -> None:
        await self.publish_many([(name, payload)])

    async def publish_counted(self, name: str, payload: bytes) -> int:
        """PUBLISH; how many subscribers (this process included) received it."""
        return (await self.publish_many([(name, payload)]))[0]

    async def publish_many(self, entries: list[tuple[str, bytes]]) -> list[int]:
        """PUBLISH each `(name, payload)` in order, in one round trip; the receivers' counts.

        A pooled connection that Redis closed (a restart) fails its next command: the pool's
        connections are then dropped and the PUBLISH sent once more on a new one. Raises
        redis's `ConnectionError` (or `TimeoutError`) when Redis does not answer."""
        async def send(client) -> list[int]:
            if len(entries) == 1:
                return [int(await client.publish(*entries[0]))]
            pipe = client.pipeline(transaction=False)
            for name, payload in entries:
                pipe.publish(name, payload)
            return [int(count) for count in await pipe.execute()]

        return await self.call(send)

    async def call(self, command):
        """`await command(client)` with this host's client; once more on fresh connections when
        a pooled one had been closed by Redis (a restart). Raises redis's ConnectionError (or
        TimeoutError) when Redis does not answer."""
        self._ensure()
        try:
            return await command(self._redis)
        except (RedisConnectionError, OSError):
            await self._redis.connection_pool.disconnect()
        return await command(self._redis)

    def answer(self, name: str, payload: bytes) -> None:
        """Publish `payload` (a here) without holding up the receiver."""

        async def send() -> None:
            try:
                await self.publish(name, payload)
            except Exception:  # noqa: BLE001 - the joiner stops waiting after join_wait_s
                log.warning("could not answer a join on %s", name)

        _keep(asyncio.ensure_future(send()))

    async def subscribe(self, name: str) -> bool:
        """Subscribe to `name`; True once Redis confirmed it, False when Redis is away (the
        receiver subscribes when it is back, and the layer then announces it)."""
        self.wanted.add(name)
        self._ensure()
        loop = asyncio.get_running_loop()
        async with self._lock:
            confirmed = self._confirm.get(name) or self._confirm.setdefault(name, loop.create_future())
            try:
                if not self.connected:
                    await self._connect_locked()  # subscribes to everything wanted, `name` too
                else:
                    await self._pubsub.subscribe(name)
            except Exception:  # noqa: BLE001 - Redis away: the receiver keeps trying
                self._confirm.pop(name, None)
                self._lost()
                return False
        try:
            return bool(await asyncio.wait_for(asyncio.shield(confirmed), CONFIRM_WAIT_S))
        except asyncio.TimeoutError:
            return False

    async def unsubscribe(self, name: str, then: bytes | None = None) -> None:
        """Unsubscribe from `name`; then publish `then` (a leave) if given, under the same lock,
        so that a new subscription's join always follows it."""
        self.wanted.discard(name)
        async with self._lock:
            if not self.connected:
                return
            try:
                await self._pubsub.unsubscribe(name)
                if then is not None:
                    await self._redis.publish(name, then)
            except Exception:  # noqa: BLE001 - a new connection subscribes only to `wanted`
                pass

    async def _connect_locked(self) -> None:
        """A fresh pub/sub connection subscribed to everything wanted (raises if Redis is away).
        After a lost connection the layer is told (`resubscribed`)."""
        await self._drop()
        if self.lost:  # the pool's connections are to the Redis that went away: start afresh
            await self._redis.connection_pool.disconnect()
        pubsub = self._redis.pubsub()
        try:
            await pubsub.subscribe(*sorted(self.wanted))
        except BaseException:
            try:
                await pubsub.aclose()
            except Exception:  # noqa: BLE001
                pass
            raise
        self._pubsub, self.connected = pubsub, True
        if self.lost:
            self.lost = False
            self.reconnections += 1
            log.warning("channel layer: subscribed to Redis again (%d channels)", len(self.wanted))
            self.layer.settling += 1
            _keep(asyncio.ensure_future(self.layer.resubscribed(self)))

    def _lost(self) -> None:
        if self.connected and self.layer.on_disconnect is not None:
            self.layer.on_disconnect()
        self.connected, self.lost = False, True
        for future in self._confirm.values():
            if not future.done():
                future.set_result(False)
        self._confirm.clear()

    async def _drop(self) -> None:
        pubsub, self._pubsub, self.connected = self._pubsub, None, False
        if pubsub is not None:
            try:
                await pubsub.aclose()
            except Exception:  # noqa: BLE001 - already broken
                pass

    async def _receive(self) -> None:
        """Read the pub/sub connection for ever: hand payloads to the layer, resolve SUBSCRIBE
        confirmations; on a lost connection, connect again every RECONNECT_S."""
        while True:
            try:
                if not self.connected:
                    if not self.wanted:
                        await asyncio.sleep(RECONNECT_S)
                        continue
                    async with self._lock:
                        if not self.connected:
                            await self._connect_locked()
                pubsub = self._pubsub
                message = await pubsub.get_message(timeout=READ_TIMEOUT_S)
                if message is None:
                    continue
                kind, name = message["type"], message["channel"]
                if isinstance(name, bytes):
                    name = name.decode()
                if kind == "message":
                    self.layer.heard(self, name, message["data"])
                elif kind == "subscribe":
                    future = self._confirm.pop(name, None)
                    if future is not None and not future.done():
                        future.set_result(True)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - Redis away: keep trying
                if self.connected:
                    log.warning("channel layer: lost Redis (%s); reconnecting", error)
                self._lost()
                await asyncio.sleep(RECONNECT_S)

    async def flush(self) -> None:
        """Stop the receiver and close the connections (each step bounded by FLUSH_STEP_S: this
        runs when a loop closes, and must not hang it on a broken connection)."""
        if self._receiver is not None:
            self._receiver.cancel()
            try:
                await asyncio.wait_for(self._receiver, FLUSH_STEP_S)
            except BaseException:  # noqa: BLE001 - cancelled, or stuck: left behind
                pass
            self._receiver = None
        pubsub, self._pubsub, self.connected = self._pubsub, None, False
        redis_client, self._redis = self._redis, None
        for closing in ((pubsub.aclose() if pubsub is not None else None),
                        (_close_redis(redis_client) if redis_client is not None else None)):
            if closing is not None:
                try:
                    await asyncio.wait_for(closing, FLUSH_STEP_S)
                except BaseException:  # noqa: BLE001 - already broken
                    pass
        self.wanted = set()
        self.lost = False


#: Tasks started without an owner (answers, announcements), held until done: the loop keeps only
#: weak references to tasks.
_tasks: set = set()


def _keep(task: asyncio.Future) -> None:
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
