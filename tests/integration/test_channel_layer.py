"""`caro.layers.LocalFirstChannelLayer` against a real Redis: in-process delivery first, Redis only
for what another process subscribes to, and recovery after a Redis restart.

Two layer objects in one event loop stand for two web processes (each has its own id, queues and
Redis connections, exactly as in two processes); a third with no member stands for the worker.
"""

from __future__ import annotations

import asyncio
import os

import pytest
import redis
from channels_redis.pubsub import RedisPubSubChannelLayer

from caro.layers import RECONNECTED, LocalFirstChannelLayer
from devstack import redis as redis_server
from devstack.ports import free_port

pytestmark = pytest.mark.asyncio

#: How long a test waits for a message that must come (a loaded 2-core machine), s.
ARRIVES_S = 10.0
#: How long a test listens for a message that must NOT come, s.
SILENT_S = 0.5


def _layers(url: str, count: int = 2, **config) -> list[LocalFirstChannelLayer]:
    """`count` layers of one site (one prefix, fresh for each test), as in `count` processes."""
    prefix = "t" + os.urandom(4).hex()
    return [LocalFirstChannelLayer(hosts=[{"address": url, "socket_timeout": 10}], prefix=prefix, **config)
            for _ in range(count)]


def _publishes(url: str) -> int:
    stats = redis.Redis.from_url(url).info("commandstats")
    return int(stats.get("cmdstat_publish", {}).get("calls", 0))


async def _gets(layer, channel: str, timeout: float = ARRIVES_S) -> dict:
    return await asyncio.wait_for(layer.receive(channel), timeout)


async def _nothing(layer, channel: str) -> None:
    """Nothing more arrives on `channel` within SILENT_S (its queue is looked at, not received
    from: a cancelled receive means its consumer is gone, and the layer forgets the channel)."""
    await asyncio.sleep(SILENT_S)
    assert layer._get_layer().channels[channel].empty()


async def _flush(*layers) -> None:
    for layer in layers:
        await layer.flush()


async def _resubscribed(*layers) -> None:
    """Wait until each layer's receiver subscribed again after a Redis restart."""
    for _ in range(int(ARRIVES_S / 0.05)):
        if all(shard.reconnections and shard.connected for layer in layers for shard in layer._get_layer()._shards):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("not subscribed again")


class OwnRedis:
    """A Redis server of the test's own (it gets killed and started again), on a fixed port."""

    def __init__(self, folder) -> None:
        self.port, self.folder = free_port(), folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.server = redis_server.start_redis(self.port, folder)

    def kill(self) -> None:
        self.server.stop()

    def restart(self) -> None:
        """A fresh, empty server on the same port: no subscription survives."""
        self.server = redis_server.start_redis(self.port, self.folder)


@pytest.fixture
def own_redis(tmp_path):
    redis_ = OwnRedis(tmp_path)
    yield redis_
    redis_.server.stop()


async def _members(one, two, *groups) -> tuple[str, str]:
    """A channel of each of two layers (processes), each in every group of `groups`."""
    x, o = await one.new_channel(), await two.new_channel()
    for group in groups:
        await one.group_add(group, x)
        await two.group_add(group, o)
    return x, o


@pytest.fixture
def url():
    return os.environ["REDIS_URL"]


async def test_a_group_with_members_in_this_process_only_costs_no_redis_publish(url):
    layer, = _layers(url, 1)
    try:
        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", a)
        await layer.group_add("g", b)
        before = _publishes(url)
        for n in range(20):
            await layer.group_send("g", {"type": "m", "n": n})
        assert [(await _gets(layer, a))["n"] for _ in range(20)] == list(range(20))
        assert [(await _gets(layer, b))["n"] for _ in range(20)] == list(range(20))
        assert _publishes(url) == before  # delivered in-process, nothing published
        await layer.send(a, {"type": "direct"})  # a channel of this process: no Redis either
        assert (await _gets(layer, a))["type"] == "direct" and _publishes(url) == before
    finally:
        await _flush(layer)


async def test_two_processes_in_one_group_each_get_every_message_once(url):
    one, two = _layers(url)
    try:
        x = await one.new_channel()
        await one.group_add("g", x)
        o = await two.new_channel()
        await two.group_add("g", o)  # returns once `one` answered: each knows the other
        assert one.subscribers("g") == (1, 1) and two.subscribers("g") == (1, 1)
        for n in range(5):
            await (one if n % 2 else two).group_send("g", {"type": "m", "n": n})
        for layer, channel in ((one, x), (two, o)):
            got = [(await _gets(layer, channel))["n"] for _ in range(5)]
            # Each sender's messages in its order; the two senders' may interleave either way.
            assert sorted(got) == list(range(5)) and [n for n in got if n % 2] == [1, 3]
            await _nothing(layer, channel)  # never twice (its own publish is ignored)
        await two.group_discard("g", o)
        for _ in range(100):  # the leave reaches `one` through Redis
            if one.subscribers("g") == (1, 0):
                break
            await asyncio.sleep(0.05)
        assert one.subscribers("g") == (1, 0)
        before = _publishes(url)
        await one.group_send("g", {"type": "m", "n": 9})
        assert (await _gets(one, x))["n"] == 9 and _publishes(url) == before  # alone again: local only
    finally:
        await _flush(one, two)


async def test_deliver_here_delivers_at_once_only_what_needs_no_redis(url):
    """`deliver_here`: a batch whose groups have all their subscribers in this process is
    delivered synchronously, in order; one that another process (or nobody here) would need is
    refused whole, nothing delivered, for `group_send_many` to send."""
    one, two = _layers(url)
    try:
        a, b = await one.new_channel(), await one.new_channel()
        await one.group_add("g", a)
        await one.group_add("h", b)
        before = _publishes(url)
        assert one.deliver_here([("g", {"type": "m", "n": 1}), ("h", {"type": "m", "n": 2}),
                                 ("g", {"type": "m", "n": 3})]) is True
        queue = one._get_layer().channels[a]
        assert [queue.get_nowait()["n"] for _ in range(2)] == [1, 3]  # already there: no await needed
        assert (await _gets(one, b))["n"] == 2 and _publishes(url) == before
        assert one.deliver_here([("g", {"type": "m", "n": 4}), ("nobody-here", {"type": "m"})]) is False
        o = await two.new_channel()
        await two.group_add("g", o)  # another process subscribes to g now
        assert one.deliver_here([("g", {"type": "m", "n": 5})]) is False
        await _nothing(one, a)  # a refused batch delivered nothing
    finally:
        await _flush(one, two)


async def test_an_adopted_channel_gets_every_message_on_the_callers_queue_as_a_dict(url):
    """`adopt`: a channel's messages (local group sends, direct sends, and what another process
    publishes) land on the caller's own queue, deserialised, beside what the caller puts there
    itself (a socket's frames); `release` forgets the channel and its Redis subscription."""
    one, two = _layers(url)
    try:
        inbox: asyncio.Queue = asyncio.Queue()
        x = await one.new_channel()
        await one.adopt(x, inbox)
        await one.group_add("g", x)
        o = await two.new_channel()
        await two.group_add("g", o)  # another process subscribes: `one` publishes, `two` publishes to it
        inbox.put_nowait({"type": "websocket.receive", "text": "frame"})
        await one.group_send("g", {"type": "m", "n": 1})
        await one.send(x, {"type": "direct"})
        await two.group_send("g", {"type": "m", "n": 2})  # through Redis
        got = [await asyncio.wait_for(inbox.get(), ARRIVES_S) for _ in range(4)]
        assert got[:3] == [{"type": "websocket.receive", "text": "frame"}, {"type": "m", "n": 1},
                           {"type": "direct"}]
        assert got[3] == {"type": "m", "n": 2}  # a dict, not the payload's bytes
        assert sorted([(await _gets(two, o))["n"], (await _gets(two, o))["n"]]) == [1, 2]  # (its own first)
        assert x in one._get_layer().adopted
        await one.group_discard("g", x)
        await one.release(x)
        assert x not in one._get_layer().channels and x not in one._get_layer().adopted
        assert x not in one._get_layer()._shards[0].wanted  # unsubscribed
        await one.send(x, {"type": "late"})  # a channel no longer here: published, nobody gets it
        await asyncio.sleep(SILENT_S)
        assert inbox.empty()
    finally:
        await _flush(one, two)


async def test_a_process_without_members_publishes_and_members_elsewhere_receive(url):
    web, worker = _layers(url)
    try:
        c = await web.new_channel()
        await web.group_add("game.1", c)
        await worker.group_send_many([("game.1", {"type": "m", "n": 1}), ("game.1", {"type": "m", "n": 2})])
        assert [(await _gets(web, c))["n"] for _ in range(2)] == [1, 2]
        plain = RedisPubSubChannelLayer(hosts=[url], prefix=web._kwargs["prefix"])
        await plain.group_send("game.1", {"type": "m", "n": 3})  # an untagged publisher
        assert (await _gets(web, c))["n"] == 3
        await plain.flush()
    finally:
        await _flush(web, worker)


async def test_local_members_get_a_batch_even_when_redis_refuses_it(own_redis):
    """`group_send_many` delivers locally first, then raises: a caller that keeps the batch sends
    it again with `local=False` and nobody here gets it twice."""
    one, two = _layers(own_redis.url)
    try:
        x, o = await _members(one, two, "g")
        own_redis.kill()
        with pytest.raises(Exception):
            await one.group_send_many([("g", {"type": "m", "n": 1})])
        assert (await _gets(one, x))["n"] == 1  # delivered here although Redis is away
        own_redis.restart()
        await _resubscribed(one, two)  # as the outbox waits before it sends its backlog again
        await one.group_send_many([("g", {"type": "m", "n": 1})], local=False)
        assert (await _gets(two, o))["n"] == 1
        await _nothing(one, x)
    finally:
        await _flush(one, two)


async def test_after_a_redis_restart_every_subscription_is_back_and_watchers_are_told(own_redis):
    one, two = _layers(own_redis.url)
    try:
        x, o = await _members(one, two, "room.A", "game.7")
        for layer, channel in ((one, x), (two, o)):
            await layer.watch_reconnects(channel)
        own_redis.kill()
        await asyncio.sleep(0.5)
        own_redis.restart()
        for layer, channel in ((one, x), (two, o)):
            assert await _gets(layer, channel) == RECONNECTED
        assert one.subscribers("game.7") == (1, 1) and two.subscribers("game.7") == (1, 1)
        await one.group_send("game.7", {"type": "m", "n": 1})
        await two.group_send("room.A", {"type": "m", "n": 2})
        for layer, channel in ((one, x), (two, o)):
            assert sorted([(await _gets(layer, channel))["n"] for _ in range(2)]) == [1, 2]
    finally:
        await _flush(one, two)


async def test_a_socket_that_joins_while_redis_is_away_is_subscribed_when_it_returns(own_redis):
    one, two = _layers(own_redis.url)
    try:
        x = await one.new_channel()
        await one.group_add("g", x)
        own_redis.kill()
        o = await two.new_channel()  # Redis away: the channel and the group are still made
        await asyncio.wait_for(two.group_add("g", o), ARRIVES_S)
        await two.watch_reconnects(o)
        await two.group_send("g", {"type": "m", "n": 0})
        assert (await _gets(two, o))["n"] == 0  # in-process delivery works meanwhile
        own_redis.restart()
        assert await _gets(two, o) == RECONNECTED
        await one.group_send("g", {"type": "m", "n": 1})
        assert (await _gets(two, o))["n"] == 1
        assert (await _gets(one, x))["n"] == 1
    finally:
        await _flush(one, two)
