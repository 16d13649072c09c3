"""Matchmaking: /match/ (the page) and /match/start (the home page's "Tìm ván nhanh"). URL names are
unnamespaced (`match`, `match_start`)."""

from django.urls import path
from django.views.decorators.http import require_safe

from ranking import match_views as views

urlpatterns = [
    path("match/", require_safe(views.match), name="match"),  # GET only; `start` renders it for a refused POST
    path("match/start", views.start, name="match_start"),
]
