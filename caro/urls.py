from django.contrib import admin
from django.urls import include, path

from caro import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("caro.rooms.urls")),
    path("", include("caro.tutorials.urls")),
]
