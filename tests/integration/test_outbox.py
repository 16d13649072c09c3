"""The outbox's batched broadcasts against the real Redis (both channels_redis layers): every member
of every group gets its events once, in the order they were handed over, also when the worker's own
event loop sends them without the caller waiting (the deadline timer, caro/games/timer.py)."""

import asyncio

import pytest
import redis.asyncio
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from caro.games import outbox


async def _receive_all(layer, channel: str, count: int) -> list[dict]:
    return [(await asyncio.wait_for(layer.receive(channel), 20))["event"] for _ in range(count)]


async def _nothing_more(layer, channel: str) -> bool:
    try:
        await asyncio.wait_for(layer.receive(channel), 0.5)
    except asyncio.TimeoutError:
        return True
    return False


async def _subscribed(layer, *groups: str) -> None:
    """On the pub/sub layer, wait until Redis has the groups' subscriptions (a SUBSCRIBE is sent,
    not awaited, by `group_add`), so that nothing published next can pass it."""
    if not isinstance(layer, RedisPubSubChannelLayer):
        return
    names = [layer._get_layer()._get_group_channel_name(group) for group in groups]
    client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    try:
        for _ in range(400):
            if all(count >= 1 for _name, count in await client.pubsub_numsub(*names)):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"never subscribed: {names}")
    finally:
        await client.aclose()


def _layer(kind: str):
    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    if kind == "pubsub":
        return RedisPubSubChannelLayer(hosts=hosts, prefix="batchtest")
    return RedisChannelLayer(hosts=hosts, prefix="batchtest")


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["pubsub", "sorted-set"])
async def test_one_batch_reaches_every_member_of_each_group_once_and_in_order(kind):
    """`send_batch` on both channels_redis layers (the site uses the pub/sub one)."""
    layer = _layer(kind)
    host, guest, watcher = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("batch-game-1", host)
    await layer.group_add("batch-game-1", guest)
    await layer.group_add("batch-game-2", watcher)
    # Many events to one group in one batch: they share one queue and one timestamp's second.
    items = [("batch-game-1", {"type": "move", "version": v, "game_id": 1}) for v in range(1, 31)]
    items.insert(5, ("batch-game-2", {"type": "game_over", "version": 9, "game_id": 2}))
    items.append(("batch-game-1", {"type": "game_over", "version": 31, "game_id": 1}))
    await _subscribed(layer, "batch-game-1", "batch-game-2")
    try:
        await outbox.send_batch(layer, items)
        for channel in (host, guest):
            events = await _receive_all(layer, channel, 31)
            assert [e["version"] for e in events] == list(range(1, 32))
            assert events[-1]["type"] == "game_over"
            assert await _nothing_more(layer, channel)
        assert await _receive_all(layer, watcher, 1) == [{"type": "game_over", "version": 9, "game_id": 2}]
        assert await _nothing_more(layer, watcher)
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_sends_handed_to_the_own_loop_without_waiting_arrive_in_the_order_handed():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("batch-game-3", channel)
    await _subscribed(layer, "batch-game-3")
    outbox._loop_state["enabled"] = True  # as in a worker process (tasks.start_deadline_timer)
    try:
        def hand_over() -> None:
            for first in range(1, 41, 4):
                with outbox.collected(wait=False):
                    for version in range(first, first + 4):
                        outbox.broadcast("batch-game-3", {"type": "move", "version": version, "game_id": 3})

        await sync_to_async(hand_over, thread_sensitive=False)()
        events = await _receive_all(layer, channel, 40)
    finally:
        outbox._loop_state["enabled"] = False
    assert [e["version"] for e in events] == list(range(1, 41))
    assert await _nothing_more(layer, channel)


@pytest.mark.asyncio
async def test_broadcasts_handed_to_the_server_loop_return_at_once_and_arrive_in_order():
    """A web process (`use_server_loop`, as the room consumer does): the broadcast only hands the
    send to the loop. Called here on the loop's own thread, where waiting for the loop could only
    deadlock (and `async_to_sync` refuses to run), it returns before anything was sent."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("batch-game-4", channel)
    await _subscribed(layer, "batch-game-4")
    outbox.use_server_loop(asyncio.get_running_loop())
    try:
        for version in range(1, 21):
            outbox.broadcast("batch-game-4", {"type": "move", "version": version, "game_id": 4})
        with outbox.collected():
            for version in range(21, 31):
                outbox.broadcast("batch-game-4", {"type": "move", "version": version, "game_id": 4})
        events = await _receive_all(layer, channel, 30)  # sent once this coroutine lets the loop run
    finally:
        outbox.use_server_loop(None)
    assert [e["version"] for e in events] == list(range(1, 31))
    assert await _nothing_more(layer, channel)


@pytest.mark.asyncio
async def test_on_the_sorted_set_layer_a_batch_is_queued_as_group_send_would_queue_it():
    """`send_batch`'s own path for channels_redis's RedisChannelLayer (two round trips per batch),
    whichever layer the settings choose: members in two processes' queues, capacity respected."""
    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    sender, web_a, web_b = (RedisChannelLayer(hosts=hosts, prefix="batchcap", capacity=3) for _ in range(3))
    try:
        a1, a2, b1 = await web_a.new_channel(), await web_a.new_channel(), await web_b.new_channel()
        for group, channel in (("g1", a1), ("g1", a2), ("g1", b1), ("g2", b1)):
            await sender.group_add(group, channel)
        items = [("g1", {"version": 1}), ("g2", {"version": 5}), ("g1", {"version": 2}),
                 ("g1", {"version": 3}), ("g1", {"version": 4})]
        await outbox.send_batch(sender, items)
        # One queue per process: a1 and a2 share web_a's (4 messages), b1 has web_b's (5).
        # Capacity 3: the layer drops the rest, as group_send does.
        for channel in (a1, a2):
            assert await _receive_all(web_a, channel, 3) == [{"version": 1}, {"version": 2}, {"version": 3}]
        assert await _receive_all(web_b, b1, 3) == [{"version": 1}, {"version": 5}, {"version": 2}]
        assert await _nothing_more(web_a, a1)
        assert await _nothing_more(web_b, b1)
    finally:
        await sender.flush()
        for layer in (sender, web_a, web_b):
            await layer.close_pools()
