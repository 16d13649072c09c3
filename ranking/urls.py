"""Leaderboards and profiles: /bang-xep-hang/ (the caro leaderboard), /bang-xep-hang/<category>/,
/nguoi-choi/<username>/."""

from django.urls import path

from ranking import views

app_name = "ranking"

urlpatterns = [
    path("bang-xep-hang/", views.leaderboard, name="leaderboard_default"),
    path("bang-xep-hang/<slug:category>/", views.leaderboard, name="leaderboard"),
    path("nguoi-choi/<str:username>/", views.profile, name="profile"),
]
