from django.urls import re_path

from ranking.consumers import SeekConsumer

#: Listed before the rooms' patterns (whose last one closes any unknown path with 4404).
websocket_urlpatterns = [
    re_path(r"^ws/seek/$", SeekConsumer.as_asgi()),
]
