"""The project package as a Django app: it wires the site together when Django starts."""

from django.apps import AppConfig

# Our Celery app becomes the current one in every Django process (web included), so tasks sent by
# name (`caro.games.outbox`) go to our broker (Celery docs, "First steps with Django").
from caro import celery as _celery  # noqa: F401


class SiteConfig(AppConfig):
    name = "caro"
    label = "site"
    verbose_name = "Caro"
