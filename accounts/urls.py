"""The accounts app's own URLs (the guest rename); allauth's pages are mounted beside them."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("doi-ten/", views.rename, name="guest_rename"),
]
