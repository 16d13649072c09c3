from django.urls import path

from caro.rooms import views

urlpatterns = [
    path("rooms/new", views.create_room, name="room_create"),
    # Forms of pages made before issue 26: to the on-device pages (nothing is created here).
    path("rooms/computer", views.device_game, {"mode": "computer"}, name="room_create_computer"),
    path("rooms/local", views.device_game, {"mode": "local"}, name="room_create_local"),
    path("rooms/join", views.join_by_code, name="room_join_code"),
    # Played in the page (static/js/play/device.js); the names and paths are the offline cache's too.
    path("choi-may/", views.play_on_device, {"mode": "computer"}, name="play_computer"),
    path("choi-hai-nguoi/", views.play_on_device, {"mode": "local"}, name="play_local"),
    path("r/<str:code>/", views.room, name="room"),
    path("r/<str:code>/join", views.join_room, name="room_join"),
    path("r/<str:code>/chat-name", views.chat_name, name="room_chat_name"),
]
