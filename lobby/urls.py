"""The lobby (/sanh/), the watch page (/xem/) and the live counts."""

from django.urls import path

from lobby import views

urlpatterns = [
    path("sanh/", views.lobby, name="lobby"),
    path("sanh/<str:code>/vao", views.take_seat, name="lobby_take_seat"),
    path("xem/", views.watch, name="watch"),
    path("song/so-nguoi/", views.live_counts, name="live_counts"),
]
