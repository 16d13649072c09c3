"""ASGI entry point (Daphne): HTTP through Django, websockets through the seek, live and room consumers."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from caro import gcpolicy  # noqa: E402
from caro.origin import SiteOriginValidator  # noqa: E402
from caro.rooms.routing import websocket_urlpatterns as room_patterns  # noqa: E402
from lobby.routing import websocket_urlpatterns as live_patterns  # noqa: E402
from ranking.routing import websocket_urlpatterns as seek_patterns  # noqa: E402

# InFlight counts the pages and socket handshakes in flight: the web process freezes its long-lived
# objects only when none is (caro.gcpolicy).
application = gcpolicy.InFlight(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(seek_patterns + live_patterns + room_patterns))),
    }
))
