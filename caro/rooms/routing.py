from django.urls import re_path

from caro.rooms.consumers import NotFoundConsumer, RoomConsumer

websocket_urlpatterns = [
    re_path(r"^ws/room/(?P<code>[A-Za-z0-9]{6})/$", RoomConsumer.as_asgi()),
    re_path(r"", NotFoundConsumer.as_asgi()),  # anything else: closed with 4404, never a 500
]
