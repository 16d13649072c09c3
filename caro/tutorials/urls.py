"""Guide URLs: one clean URL per language (Vietnamese /huong-dan/..., English /guides/...)."""

from django.urls import path

from . import views

app_name = "tutorials"

urlpatterns = [
    path("huong-dan/", views.index, {"language": "vi"}, name="index_vi"),
    path("huong-dan/<slug:slug>/", views.guide, {"language": "vi"}, name="guide_vi"),
    path("guides/", views.index, {"language": "en"}, name="index_en"),
    path("guides/<slug:slug>/", views.guide, {"language": "en"}, name="guide_en"),
]
