from django.urls import path

from caro.rooms import views

urlpatterns = [
    path("rooms/new", views.create_room, name="room_create"),
    path("rooms/join", views.join_by_code, name="room_join_code"),
    path("r/<str:code>/", views.room, name="room"),
    path("r/<str:code>/join", views.join_room, name="room_join"),
]
