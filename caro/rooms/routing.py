from django.urls import re_path

from caro.rooms.consumers import RoomConsumer

websocket_urlpatterns = [
    re_path(r"^ws/room/(?P<code>[A-Z0-9]{6})/$", RoomConsumer.as_asgi()),
]
