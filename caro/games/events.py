"""Broadcasting game events to a Channels group (called only after a transaction commits)."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def broadcast(group: str, event: dict) -> None:
    """Send one game event (a dict with `type` and `version`) to every consumer in `group`.

    Consumers receive it as the Channels message `{"type": "game.event", "event": event}`. A failing
    channel layer is logged, never raised: the state is already committed and clients resync.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "game.event", "event": event})
    except Exception:  # pragma: no cover - Redis down; clients recover with `sync`
        log.exception("broadcast to %s failed", group)
