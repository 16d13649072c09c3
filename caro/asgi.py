"""ASGI entry point (Daphne): HTTP through Django, websockets through the seek, live and room consumers."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware  # noqa: E402

from caro import gcpolicy  # noqa: E402
from caro.origin import SiteOriginValidator  # noqa: E402
from caro.rooms.routing import websocket_urlpatterns as room_patterns  # noqa: E402
from lobby.routing import websocket_urlpatterns as live_patterns  # noqa: E402
from ranking.routing import websocket_urlpatterns as seek_patterns  # noqa: E402


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' `SessionMiddleware` for websockets: the visitor's session in the scope (lazy, as
    Channels resolves it), and the application's `send` passed on untouched.

    Channels wraps `send` to save a modified session when an `http.response.start` goes out, which
    a websocket never sends; its wrapper still read the lazy session's `modified` and `is_empty()`
    for every frame a socket sent (each a look-up that raises and catches an AttributeError inside
    Django's `LazyObject`): about 3 % of the web process's CPU per move (issue 27, phase 7). A
    consumer that changes the session saves it itself, as it had to before."""

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_auth_stack(inner):
    """Channels' `AuthMiddlewareStack` (cookies, session, `scope["user"]`) with `SocketSessionMiddleware`."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))


# InFlight counts the pages and socket handshakes in flight: the web process freezes its long-lived
# objects only when none is (caro.gcpolicy).
application = gcpolicy.InFlight(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(socket_auth_stack(URLRouter(seek_patterns + live_patterns + room_patterns))),
    }
))
