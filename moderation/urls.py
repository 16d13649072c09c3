from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("report/<int:game_id>/", views.report, name="report"),
]
