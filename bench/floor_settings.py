"""Django settings of the floor relay (bench/floor_relay.py), a benchmark only: no apps, no database
settings (the relay's one INSERT goes through its own psycopg pool), no middleware, no sessions.

The channel layer comes from the environment that bench/floor_relay.py sets before Django starts:
    FLOOR_LAYER      "local" (none: the relay stays in the process), "redis" (channels_redis' core
                     RedisChannelLayer), "pubsub" (channels_redis.pubsub.RedisPubSubChannelLayer)
                     or "localfirst" (the site's caro.layers.LocalFirstChannelLayer: pub/sub with
                     in-process delivery first)
    FLOOR_REDIS_URL  the Redis server of the two Redis layers
Both Redis layers take the hosts entry the site's CHANNEL_LAYERS uses (caro/settings.py), with a
prefix of their own so a site on the same Redis never sees the floor's groups.
"""

import os
import secrets

SECRET_KEY = secrets.token_urlsafe(32)  # nothing is signed: no sessions, no CSRF
DEBUG = False
INSTALLED_APPS: list[str] = []
DATABASES: dict = {}
USE_TZ = True
LAYER_PREFIX = "floor"
"""Key and pub/sub channel prefix of the floor's channel layer (the site's is channels_redis' "asgi")."""

_LAYERS = {
    "redis": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "localfirst": "caro.layers.LocalFirstChannelLayer",
}
_layer = os.environ.get("FLOOR_LAYER", "local")
if _layer in _LAYERS:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": _LAYERS[_layer],
            "CONFIG": {
                "hosts": [{"address": os.environ["FLOOR_REDIS_URL"], "socket_timeout": 10, "max_connections": 1000}],
                "prefix": LAYER_PREFIX,
            },
        }
    }
elif _layer == "local":
    CHANNEL_LAYERS: dict = {}
else:
    raise ValueError(f"FLOOR_LAYER must be local, redis or pubsub, not {_layer!r}")
