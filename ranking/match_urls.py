"""Matchmaking: /match/ (the page) and /match/start (the home page's "Tìm ván nhanh"). URL names are
unnamespaced (`match`, `match_start`)."""

from django.urls import path

from ranking import match_views as views

urlpatterns = [
    path("match/", views.match, name="match"),
    path("match/start", views.start, name="match_start"),
]
