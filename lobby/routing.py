from django.urls import re_path

from lobby.consumers import LiveConsumer

#: Listed before the rooms' patterns (whose last one closes any unknown path with 4404).
websocket_urlpatterns = [
    re_path(r"^ws/live/$", LiveConsumer.as_asgi()),
]
