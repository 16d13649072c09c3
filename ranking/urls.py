from django.urls import path

from ranking import views

urlpatterns = [
    path("match/", views.match, name="match"),
    path("match/start", views.start, name="match_start"),
]
