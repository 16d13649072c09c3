"""/sw.js and /manifest.webmanifest at the site's root (a worker's scope is its script's folder),
and the offline page."""

from django.urls import path

from caro.offline import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.web_manifest, name="web_manifest"),
    path("ngoai-tuyen/", views.offline_page, name="offline"),
]
